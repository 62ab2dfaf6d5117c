"""Job folders as users have them, read whole: the rank only in the file names, stray and
empty files, two files of one rank, one rank's log cut short, and the folder a rank killed
under torchrun leaves. Each folder is made here from the real logs of a two-rank job
(tests/dist_programs/rank_step.py, rank 1 recompiling), read by `tcexplore ranks` and
`tcexplore import`, and held against tlparse's per-rank pages of the same folder."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tcexplore
from tcexplore.document import validate

from ..conftest import TESTS, TLPARSE_COUNTED, run_ranks

RANK_IN_NAME = re.compile(r"_rank_(\d+)")


def _logs(run) -> dict[int, Path]:
    """The job's logs by rank, as torch named them (dedicated_log_torch_trace_rank_<N>_*.log)."""
    return {int(RANK_IN_NAME.search(p.name).group(1)): p
            for p in (run.workdir / "trace").glob("*.log")}


def _without_rank(log: bytes) -> bytes:
    """The log as a job writes it where no process group is up: no `rank` in the envelopes."""
    return re.sub(rb'^(V[^\]]*\] \{.*?)"rank": \d+, ', rb"\1", log, flags=re.MULTILINE)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tcexplore", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300, check=False)


def _tlparse_pages(folder: Path, out: Path) -> dict[int, dict[str, int]]:
    """tlparse --all-ranks-html's per-rank pages: what each counts, by its rank directory."""
    subprocess.run(["tlparse", str(folder), "--all-ranks-html", "-o", str(out), "--overwrite",
                    "--no-browser", "--plain-text"], check=True, capture_output=True, timeout=300)
    pages = {}
    for page in out.glob("rank_*"):
        counts = dict.fromkeys(TLPARSE_COUNTED, 0)
        for entry in json.loads((page / "compile_directory.json").read_text()).values():
            for artifact in entry["artifacts"]:
                for key, pattern in TLPARSE_COUNTED.items():
                    counts[key] += bool(pattern.match(artifact["name"]))
        pages[int(page.name.removeprefix("rank_"))] = counts
    return pages


def _read(folder: Path, tmp_path: Path):
    """`tcexplore ranks FOLDER` and `tcexplore import FOLDER`: both exit 0; the job document,
    the ranks command's stderr and the import's."""
    ranks = _cli("ranks", str(folder), "--json", str(tmp_path / "ranks.json"),
                 "--html", str(tmp_path / "ranks.html"), "--jobs", "2", cwd=tmp_path)
    assert ranks.returncode == 0 and "Traceback" not in ranks.stderr, ranks.stderr
    (tmp_path / "import").mkdir()
    imported = _cli("import", str(folder), "--json", str(tmp_path / "import" / "run.json"),
                    "--jobs", "2", cwd=tmp_path)
    assert imported.returncode == 0 and "Traceback" not in imported.stderr, imported.stderr
    data = json.loads((tmp_path / "ranks.json").read_text())
    validate(data)
    return data, ranks.stderr, imported.stderr


def _line(stderr: str, command: str) -> str:
    """The one line saying what was skipped or settled."""
    (line,) = [x for x in stderr.splitlines() if x.startswith(f"tcexplore {command}: read ")]
    return line


def _counts(entry) -> dict[str, int]:
    return {k: entry["summary"][k] for k in TLPARSE_COUNTED}


@pytest.fixture(scope="module")
def job(rank_runs):
    """The job's logs and the findings the multi-rank view gives of them as torch wrote them."""
    run = rank_runs["bigger_batch"]
    view = tcexplore.ranks(run.workdir / "trace", jobs=1)
    return _logs(run), [(f["kind"], f["ranks"]) for f in view.divergence]


def test_the_rank_only_in_file_names(job, tmp_path):
    logs, found = job
    folder = tmp_path / "trace"
    folder.mkdir()
    (folder / "dedicated_log_torch_trace_rank_0.log").write_bytes(_without_rank(logs[0].read_bytes()))
    (folder / "dedicated_log_torch_trace_rank_1_k3j9x2.log").write_bytes(
        _without_rank(logs[1].read_bytes()))
    assert b'"rank"' not in (folder / "dedicated_log_torch_trace_rank_0.log").read_bytes()
    data, said, imported = _read(folder, tmp_path)
    assert [(e["rank"], e["rank_from"]) for e in data["ranks"]] == [(0, "file_name"),
                                                                   (1, "file_name")]
    assert [(f["kind"], f["ranks"]) for f in data["divergence"]] == found  # as with the ranks said
    assert _line(said, "ranks") == "tcexplore ranks: read 2 of 2 files as ranks 0, 1; ranks 0, 1 " \
        "from their file names"
    assert _line(imported, "import").endswith("ranks 0, 1 from their file names")
    assert sorted(p.name for p in (tmp_path / "import").iterdir()) == ["run.rank0.json",
                                                                       "run.rank1.json"]
    pages = _tlparse_pages(folder, tmp_path / "tl")
    assert {e["rank"]: _counts(e) for e in data["ranks"]} == pages


def test_no_rank_anywhere_is_the_order_of_the_files(job, tmp_path):
    """Logs renamed by hand (no rank in their names) of a job with no process group."""
    logs, found = job
    folder = tmp_path / "trace"
    folder.mkdir()
    (folder / "first.log").write_bytes(_without_rank(logs[0].read_bytes()))
    (folder / "second.log").write_bytes(_without_rank(logs[1].read_bytes()))
    data, said, _ = _read(folder, tmp_path)
    assert [(e["rank"], e["rank_from"], Path(e["source"]["path"]).name) for e in data["ranks"]] \
        == [(0, "order", "first.log"), (1, "order", "second.log")]
    assert [(f["kind"], f["ranks"]) for f in data["divergence"]] == found
    assert _line(said, "ranks").endswith("ranks 0, 1 from the order of the files")


def test_stray_and_empty_files_are_skipped_each_with_why(job, tmp_path):
    logs, found = job
    folder = tmp_path / "trace"
    folder.mkdir()
    for log in logs.values():
        shutil.copy(log, folder / log.name)
    (folder / "another.log").write_bytes(b"")
    (folder / "notes.txt").write_text("rank 1 was restarted at 14:02\n")
    glog = logs[0].read_bytes().split(b"]", 1)[0] + b"] "
    (folder / "dedicated_log_torch_trace_rank_2_x.log").write_bytes(glog + b"not an event\n")
    data, said, imported = _read(folder, tmp_path)
    assert [e["rank"] for e in data["ranks"]] == [0, 1]
    assert [(f["kind"], f["ranks"]) for f in data["divergence"]] == found
    skipped = {Path(s["path"]).name: s["reason"] for s in data["inputs"]["skipped"]}
    assert skipped == {
        "another.log": "empty",
        "notes.txt": "not a TORCH_TRACE log or a tcexplore document (no glog line in its "
                     "first 64 KiB)",
        "dedicated_log_torch_trace_rank_2_x.log": "not a readable TORCH_TRACE log (1 glog lines, "
                                                  "none of them a trace event torch writes)",
    }
    assert data["inputs"]["files"] == 5 and data["inputs"]["read"] == 2
    line = _line(said, "ranks")
    assert line.startswith("tcexplore ranks: read 2 of 5 files as ranks 0, 1; skipped 3: ")
    assert "another.log (empty)" in line and "notes.txt (not a TORCH_TRACE log" in line
    assert "3 files skipped, each with why" in data["headline"]
    assert "skipped 3: " in _line(imported, "import")
    page = (tmp_path / "ranks.html").read_text()
    assert "Inputs (2 of 5 files read)" in page and "another.log" in page
    pages = _tlparse_pages(folder, tmp_path / "tl")  # tlparse too leaves out the files it cannot read
    assert {e["rank"]: _counts(e) for e in data["ranks"]} == {r: pages[r] for r in (0, 1)}


def test_a_folder_of_no_readable_log_is_refused_in_one_line(tmp_path):
    folder = tmp_path / "trace"
    folder.mkdir()
    (folder / "another.log").write_bytes(b"")
    (folder / "notes.txt").write_text("nothing here\n")
    proc = _cli("ranks", str(folder), "--json", str(tmp_path / "ranks.json"), cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "tcexplore ranks: no readable TORCH_TRACE log or rank document was given (another.log: "
        "empty; notes.txt: not a TORCH_TRACE log or a tcexplore document (no glog line in its "
        "first 64 KiB))"]


def test_two_files_of_one_rank_copied_between_runs(job, tmp_path):
    """The same rank's log twice (a job's logs copied in from an earlier run): the one
    modified last is read, the other set aside; the finding and the headline say so."""
    logs, _ = job
    folder = tmp_path / "trace"
    folder.mkdir()
    old = folder / "dedicated_log_torch_trace_rank_0_earlier.log"
    shutil.copy(logs[0], old)
    os.utime(old, (1_700_000_000, 1_700_000_000))
    for log in logs.values():
        shutil.copy(log, folder / log.name)
    data, said, imported = _read(folder, tmp_path)
    assert [e["rank"] for e in data["ranks"]] == [0, 1]
    assert data["ranks"][0]["source"]["path"] == str(folder / logs[0].name)
    (conflict,) = data["inputs"]["conflicts"]
    assert conflict["rank"] == 0 and conflict["set_aside"] == [str(old)]
    assert conflict["rule"] == "the one modified last"
    (aside,) = [s for s in data["inputs"]["skipped"] if s["rank"] == 0]
    assert aside["path"] == str(old) and "a second file of rank 0" in aside["reason"]
    inputs = data["divergence"][0]
    assert inputs["kind"] == "inputs" and inputs["ranks"] == [0]
    assert inputs["title"] == f"2 files claim rank 0: {logs[0].name} read (the one modified " \
        "last), 1 set aside"
    assert f"{old}: claims rank 0 too; not read" in [e["text"] for e in inputs["evidence"]]
    assert "the inputs held more than one file for rank 0" in data["headline"]
    assert f"2 files claim rank 0: {logs[0].name} read" in _line(said, "ranks")
    assert "2 files claim rank 0" in _line(imported, "import")
    assert sorted(p.name for p in (tmp_path / "import").iterdir()) == ["run.rank0.json",
                                                                       "run.rank1.json"]


def test_a_log_whose_metadata_and_file_name_disagree_is_read_as_its_file_names_rank(
        job, tmp_path):
    """Rank 0's log copied in under rank 2's name (as tlparse's own multi-rank examples hold):
    its events say rank 0, its name rank 2, which no other file claims."""
    logs, found = job
    folder = tmp_path / "trace"
    folder.mkdir()
    for log in logs.values():
        shutil.copy(log, folder / log.name)
    shutil.copy(logs[0], folder / "dedicated_log_torch_trace_rank_2.log")
    data, said, _ = _read(folder, tmp_path)
    assert [(e["rank"], e["rank_from"]) for e in data["ranks"]] == [
        (0, "metadata"), (1, "metadata"), (2, "file_name")]
    assert data["ranks"][2]["rank_note"] == (
        f"from its file name: its metadata says rank 0, as {logs[0].name} does")
    inputs = data["divergence"][0]
    assert inputs["kind"] == "inputs" and inputs["ranks"] == [0, 2]
    assert inputs["title"] == "2 files claim rank 0: 1 read as rank 2, as its file name says"
    assert "rank 2 from its file name" in _line(said, "ranks")
    pages = _tlparse_pages(folder, tmp_path / "tl")
    assert {e["rank"]: _counts(e) for e in data["ranks"]} == pages


def test_one_ranks_log_cut_short(job, tmp_path):
    logs, _ = job
    folder = tmp_path / "trace"
    folder.mkdir()
    shutil.copy(logs[0], folder / logs[0].name)
    whole = logs[1].read_bytes()
    cut = whole.index(b'{"compilation_metrics"', len(whole) // 2) + 40  # inside its envelope
    (folder / logs[1].name).write_bytes(whole[:cut])
    data, said, imported = _read(folder, tmp_path)
    assert [e["rank"] for e in data["ranks"]] == [0, 1]
    partial = data["ranks"][1]["capture"]["partial"]
    assert partial.startswith("the log ends inside the event on line ")
    assert "tcexplore ranks: rank 1 is partial: the log ends inside the event" in said
    assert "the log of rank 1 is cut short (partial)" in data["headline"]
    assert f"{folder / logs[1].name} is partial" in imported
    pages = _tlparse_pages(folder, tmp_path / "tl")
    assert {e["rank"]: _counts(e) for e in data["ranks"]} == pages


@pytest.fixture(scope="module")
def killed(tmp_path_factory):
    """A two-rank job under `torchrun -m tcexplore run` whose rank 1 is killed (SIGKILL)
    after rank 0 wrote its document."""
    run = run_ranks(TESTS / "dist_programs" / "rank_step.py", ["--killed-rank1"],
                    tmp_path_factory.mktemp("killed"))
    assert run.returncode != 0, run.stderr[-3000:]  # torchrun says a rank failed
    return run


def test_the_folder_a_killed_rank_leaves(killed, tmp_path):
    workdir = killed.workdir
    assert (workdir / "out.rank0.json").exists() and not (workdir / "out.rank1.json").exists()
    proc = _cli("ranks", "out.json", "--json", str(tmp_path / "ranks.json"), cwd=workdir)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "ranks.json").read_text())
    (missing,) = data["divergence"]
    assert missing["kind"] == "ranks" and missing["ranks"] == [1]
    assert missing["title"] == "rank 1 of the 2 is not among the inputs: it is not compared"
    # Its log is there: the documents and the logs together give both ranks.
    proc = _cli("ranks", "out.json", "trace", "--json", str(tmp_path / "both.json"), cwd=workdir)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "both.json").read_text())
    assert [(e["rank"], e["source"]["kind"]) for e in data["ranks"]] == [(0, "document"),
                                                                        (1, "trace")]
    (conflict,) = data["inputs"]["conflicts"]
    assert conflict["rule"] == "a document over a log: a capture holds more than its log"
    assert "2 files claim rank 0: out.rank0.json read (a document over a log" in proc.stderr
    assert data["divergence"][0]["kind"] == "inputs"
