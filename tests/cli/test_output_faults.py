"""An output that cannot be written: one line naming it, exit 2, no traceback, nothing
half-written, and found before any work (before `run` runs the script)."""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

import pytest
import torch

import tcexplore
from tcexplore.cli import main
from tcexplore.files.output import OutputError

SCRIPT = """
import pathlib, sys, torch
pathlib.Path(sys.argv[1]).write_text("the script ran")
torch.compile(lambda x: x.sin() + 1, backend="eager")(torch.randn(3))
"""


@contextlib.contextmanager
def _tmpfs(path: Path, options: str):
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)],
                             capture_output=True, text=True)
    if mounted.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


@pytest.fixture
def read_only_dir(tmp_path):
    """Read-only for everyone: permission bits do not stop root, a read-only mount does."""
    if os.geteuid() != 0:
        directory = tmp_path / "read-only"
        directory.mkdir()
        directory.chmod(0o555)
        yield directory
        directory.chmod(0o755)
        return
    with _tmpfs(tmp_path / "read-only", "ro,size=64k") as directory:
        yield directory


@pytest.fixture
def full_dir(tmp_path):
    """A small tmpfs filled to the last byte: files can be created, not written."""
    if os.geteuid() != 0:
        pytest.skip("mounting a full tmpfs needs root")
    with _tmpfs(tmp_path / "full", "size=64k") as directory:
        with contextlib.suppress(OSError), open(directory / "filler", "wb") as filler:
            while True:
                filler.write(b"\0" * 4096)
                filler.flush()
        yield directory


@pytest.fixture(scope="module")
def two_documents(tmp_path_factory):
    root = tmp_path_factory.mktemp("docs")
    torch.compiler.reset()
    with tcexplore.capture() as session:
        torch.compile(lambda x: x.cos() * 2, backend="eager")(torch.randn(3))
    return [session.document.save(root / name) for name in ("a.json", "b.json")]


def _one_error_line(err: str, path: Path) -> str:
    lines = [line for line in err.splitlines() if str(path) in line]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _run(tmp_path, *outputs: str) -> int:
    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    return main(["run", str(script), str(tmp_path / "ran"), *outputs])


def test_run_into_a_missing_directory_stops_before_the_script_runs(tmp_path, capsys):
    target = tmp_path / "nodir" / "doc.json"
    assert _run(tmp_path, "--json", str(target)) == 2
    line = _one_error_line(capsys.readouterr().err, target)
    assert line == f"tcexplore run: cannot write {target}: no directory {target.parent}"
    assert not (tmp_path / "ran").exists()


def test_run_into_a_read_only_directory_stops_before_the_script_runs(tmp_path, read_only_dir,
                                                                      capsys):
    target = read_only_dir / "doc.html"
    assert _run(tmp_path, "--json", str(tmp_path / "doc.json"), "--html", str(target)) == 2
    line = _one_error_line(capsys.readouterr().err, target)
    assert line.startswith(f"tcexplore run: cannot write {target}: ")
    assert line.endswith(("Read-only file system", "Permission denied"))
    assert not (tmp_path / "ran").exists() and not (tmp_path / "doc.json").exists()


def test_run_onto_a_full_disk_writes_the_other_output_and_leaves_nothing_half_written(
        tmp_path, full_dir, capsys):
    target = full_dir / "doc.json"
    report = tmp_path / "doc.html"
    assert _run(tmp_path, "--json", str(target), "--html", str(report)) == 2
    line = _one_error_line(capsys.readouterr().err, target)
    assert line == f"tcexplore: cannot write {target}: No space left on device"
    assert (tmp_path / "ran").exists() and "tcx-report" in report.read_text()
    assert sorted(p.name for p in full_dir.iterdir()) == ["filler"]  # no truncated file


def test_a_document_saved_onto_a_full_disk_keeps_the_previous_file(two_documents, full_dir):
    previous = full_dir / "kept.json"
    (full_dir / "filler").unlink()
    previous.write_text("previous")
    with contextlib.suppress(OSError), open(full_dir / "filler", "wb") as filler:
        while True:
            filler.write(b"\0" * 4096)
            filler.flush()
    with pytest.raises(OutputError, match=f"cannot write {previous}: No space left"):
        tcexplore.load(two_documents[0]).save(previous)
    assert previous.read_text() == "previous"
    assert sorted(p.name for p in full_dir.iterdir()) == ["filler", "kept.json"]


def test_diff_into_a_missing_directory_prints_no_verdict_and_exits_2(two_documents, tmp_path,
                                                                     capsys):
    target = tmp_path / "nodir" / "d.html"
    assert main(["diff", *map(str, two_documents), "--html", str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # not "no differences"
    _one_error_line(err, target)


def test_diff_onto_a_full_disk_prints_no_verdict_and_exits_2(two_documents, full_dir, capsys):
    target = full_dir / "d.json"
    assert main(["diff", *map(str, two_documents), "--json", str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "No space left on device" in _one_error_line(err, target)
    assert sorted(p.name for p in full_dir.iterdir()) == ["filler"]


@pytest.mark.parametrize("command", [
    ["import", "never-read.log", "--json"],
    ["ranks", "never-read.json", "--html"],
    ["repro", "never-read.json", "kernel", "-o"],
])
def test_import_ranks_and_repro_check_their_output_before_reading_input(command, read_only_dir,
                                                                        capsys):
    target = read_only_dir / "out"
    assert main([*command, str(target)]) == 2
    _one_error_line(capsys.readouterr().err, target)
