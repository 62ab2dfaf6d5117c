"""tests/compiler_cache/g++: a build is copied only for the same command on the same bytes."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

WRAPPER = Path(__file__).parent / "g++"
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


def _build(source: Path, out: Path, builds: Path, *flags: str) -> list[str]:
    env = dict(os.environ, TCX_TEST_BUILDS=str(builds))
    subprocess.run([str(WRAPPER), str(source), *flags, "-shared", "-fPIC", "-o", str(out)],
                   env=env, check=True, capture_output=True)
    return (builds / ".builds").read_text().split()


def test_the_same_source_and_flags_are_copied_and_anything_else_is_built(tmp_path):
    builds = tmp_path / "builds"
    source = tmp_path / "k.cpp"
    source.write_text('extern "C" int k() { return 1; }\n')
    assert _build(source, tmp_path / "a.so", builds) == ["built"]
    assert _build(source, tmp_path / "b.so", builds) == ["built", "copied"]
    assert (tmp_path / "a.so").read_bytes() == (tmp_path / "b.so").read_bytes()
    elsewhere = tmp_path / "another_cache" / "k.cpp"  # the same bytes in another folder
    elsewhere.parent.mkdir()
    elsewhere.write_bytes(source.read_bytes())
    assert _build(elsewhere, tmp_path / "e.so", builds)[-1] == "copied"
    assert _build(source, tmp_path / "c.so", builds, "-O2")[-1] == "built"  # other flags
    source.write_text('extern "C" int k() { return 2; }\n')
    assert _build(source, tmp_path / "d.so", builds)[-1] == "built"  # other bytes
    assert (tmp_path / "d.so").read_bytes() != (tmp_path / "a.so").read_bytes()


def test_a_failed_build_fails_and_is_not_kept(tmp_path):
    builds = tmp_path / "builds"
    source = tmp_path / "broken.cpp"
    source.write_text("int k( {\n")
    env = dict(os.environ, TCX_TEST_BUILDS=str(builds))
    for _ in range(2):
        proc = subprocess.run([str(WRAPPER), str(source), "-shared", "-fPIC", "-o",
                               str(tmp_path / "k.so")], env=env, capture_output=True, text=True)
        assert proc.returncode != 0 and "error" in proc.stderr
    assert not builds.exists() or not [p for p in builds.iterdir() if p.name != ".builds"]


def test_what_is_no_build_goes_to_gxx_unchanged():
    version = subprocess.run([str(WRAPPER), "--version"], capture_output=True, text=True,
                             check=True)
    real = subprocess.run(["g++", "--version"], capture_output=True, text=True, check=True)
    assert version.stdout == real.stdout
