"""README's first command ends in `tcexplore demo`: it must run on a fresh checkout, write
both outputs and say, at the console, what broke and why."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import tcexplore
import tcexplore.demo
from tcexplore.document import validate

BRANCH = "if h.abs().mean() > 10:"


def test_demo_writes_its_report_and_prints_the_break_with_torchs_reason(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "tcexplore", "demo", "--no-open"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    document = json.loads((tmp_path / "tcexplore-demo.json").read_text())
    validate(document)
    assert (tmp_path / "tcexplore-demo.html").read_text().startswith("<!DOCTYPE html>")
    counts = ", ".join(f"{k} {v}" for k, v in document["summary"].items())
    assert f"tcexplore demo: {counts}" in proc.stdout
    assert document["summary"]["graph_breaks"] == 2 and document["summary"]["recompiles"] >= 1
    # one site, both events, torch's own reason and link
    assert "(2 break events at 1 site;" in proc.stdout
    source = open(tcexplore.demo.__file__).read().splitlines()
    line = next(n for n, text in enumerate(source, start=1) if BRANCH in text)
    assert f"demo.py:{line} in forward: Data-dependent branching" in proc.stdout
    assert "more: https://" in proc.stdout


def test_demo_outputs_in_a_checkout_are_ignored_by_git():
    """`tcexplore demo` run in the clone (README's first command) leaves git status clean."""
    root = Path(tcexplore.__file__).resolve().parents[1]
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    for name in ("tcexplore-demo.json", "tcexplore-demo.html"):
        proc = subprocess.run(["git", "check-ignore", "-q", name], cwd=root, check=False)
        assert proc.returncode == 0, f"{name} is not ignored by git"
