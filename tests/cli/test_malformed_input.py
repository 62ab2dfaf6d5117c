"""Malformed input (issue 19, item 4): every bad file gives one line naming it and exit 2,
never a traceback; ``tcexplore.load()`` raises DocumentError. A log with damaged events is
read past them (issue 32): each is kept, with its line, in the document."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import tcexplore
from tcexplore.document import DocumentError

FIXTURES = Path(__file__).parents[1] / "fixtures" / "docdiff"
GLOG = "V1122 15:27:26.950000 2116 torch/_dynamo/utils.py:2126] "


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tcexplore", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300, check=False)


def _one_line_exit_2(proc: subprocess.CompletedProcess, *needles: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, \
        proc.stderr
    for needle in needles:
        assert needle in proc.stderr, proc.stderr


@pytest.mark.parametrize("envelope, reason, says", [
    ('{"str": 5}', "handler", "TypeError"),
    ('{"dynamo_start": {"stack": []}, "frame_id": 0, "frame_compile_id": 0, "attempt": "x"}',
     "bad_envelope", "its 'attempt' is 'x', where torch writes an integer"),
    ('{"dynamo_start": {"stack": 5}, "frame_id": 0, "frame_compile_id": 0}', "handler",
     "TypeError"),
])
def test_a_log_event_with_wrong_types_is_kept_as_unread_with_its_line(tmp_path, envelope,
                                                                       reason, says):
    """Issue 32: a damaged event costs only itself; `import` and `ranks` exit 0 and say, in
    one line, how many events they could not read; the document names the event's line."""
    log = tmp_path / "wrong.log"
    log.write_text(GLOG + '{"str": ["a.py", 0]}\n' + GLOG + envelope + "\n")
    unread = tcexplore.load_trace(log).data["capture"]["unread"]
    assert unread["events"] == 1 and unread["counts"][reason] == 1
    (item,) = unread["items"]
    assert item["line"] == 2 and says in item["error"], item
    proc = _cli("import", "wrong.log", "--json", "out.json", cwd=tmp_path)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    said = ("tcexplore import: wrong.log: 1 damaged or unreadable trace event skipped or read "
            "in part; the document's 'unread' finding lists them")
    assert [line for line in proc.stderr.splitlines() if "skipped" in line] == [said], \
        proc.stderr
    assert json.loads((tmp_path / "out.json").read_text())["summary"]["unread_events"] == 1
    ranked = tmp_path / "dedicated_log_torch_trace_rank_0_x.log"
    ranked.write_bytes(log.read_bytes())
    proc = _cli("ranks", ranked.name, "--json", "ranks.json", cwd=tmp_path)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "tcexplore ranks: rank 0: 1 damaged or unreadable trace event skipped" in proc.stderr


def test_a_gzip_header_over_garbage_is_refused(tmp_path):
    (tmp_path / "trace.log.gz").write_bytes(b"\x1f\x8b\x08\x00" + b"garbage" * 50)
    _one_line_exit_2(_cli("import", "trace.log.gz", "--json", "out.json", cwd=tmp_path),
                     "trace.log.gz starts like a gzip file but is not one")
    with pytest.raises(tcexplore.TraceError, match="not one"):
        tcexplore.load_trace(tmp_path / "trace.log.gz")


def test_brackets_nested_beyond_any_parser_are_a_document_error(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(DocumentError, match="deep.json is not JSON"):
        tcexplore.load(deep)
    shutil_copy(FIXTURES / "relu.json", tmp_path / "relu.json")
    _one_line_exit_2(_cli("diff", "deep.json", "relu.json", cwd=tmp_path), "deep.json")
    _one_line_exit_2(_cli("repro", "deep.json", cwd=tmp_path), "deep.json")


def test_a_multi_rank_document_given_to_diff_or_repro_is_named_so(tmp_path):
    documents = []
    for rank in (0, 1):
        data = json.loads((FIXTURES / "relu.json").read_text())
        data["distributed"] = {"rank": rank, "world_size": 2, "backend": "gloo",
                               "source": "process_group"}
        documents.append(tcexplore.Document(data))
    tcexplore.ranks(*documents).save(tmp_path / "ranks.json")
    shutil_copy(FIXTURES / "relu.json", tmp_path / "relu.json")
    for args in (("diff", "ranks.json", "relu.json"), ("repro", "ranks.json")):
        _one_line_exit_2(_cli(*args, cwd=tmp_path), "ranks.json", "multi-rank document")
    assert isinstance(tcexplore.load(tmp_path / "ranks.json"), tcexplore.Ranks)


def shutil_copy(source: Path, target: Path) -> None:
    target.write_bytes(source.read_bytes())
