"""Inductor cache directories for the programs the tests run, each empty but for the CPU's
ISA probes.

Before its first C++ compile, a process proves each vector ISA the CPU lists (AVX-512
with BF16 and VNNI, AMX, AMX-FP16) by building and loading a small library per ISA into
its cache directory: six g++ runs, about 5 CPU-s, which a directory that holds them skips.
They are facts about the machine, not about the program: the tests build them once per
run, in the run's own cache directory (tests/conftest.py), and put them in each fresh
directory a program gets, which otherwise starts empty as on a user's first run (no FX
graph, AOTAutograd, Triton or kernel entry; torch emits no event for the probes). A torch
that names its probes differently finds none here and builds them itself.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

from filelock import FileLock

PROBE_MARK = "_chk_kernel"  # torch._inductor.cpu_vec_isa's probe functions end so
BUILD_PROBES = "from torch._inductor import cpu_vec_isa; cpu_vec_isa.valid_vec_isa_list()"


def fresh_inductor_cache(path: Path) -> Path:
    """``path``, made an Inductor cache directory holding only the run's ISA probes."""
    path.mkdir(parents=True, exist_ok=True)
    root = _run_cache()
    for source in _probes():
        for built in (source, source.with_suffix(".so")):
            target = path / built.relative_to(root)
            target.parent.mkdir(exist_ok=True)
            shutil.copy2(built, target)
    return path


def _run_cache() -> Path:
    return Path(os.environ["TORCHINDUCTOR_CACHE_DIR"])


@functools.cache
def _probes() -> tuple[Path, ...]:
    """The probe sources in the run's cache directory (each beside its library), built
    there by the first test process to ask, under a lock the others wait on."""
    root = _run_cache()
    with FileLock(str(root) + ".probes.lock"):
        found = _probe_sources(root)
        if not found:
            subprocess.run([sys.executable, "-c", BUILD_PROBES], check=True,
                           capture_output=True, timeout=300)
            found = _probe_sources(root)
    return found


def _probe_sources(root: Path) -> tuple[Path, ...]:
    return tuple(source for source in sorted(root.glob("*/*.cpp"))
                 if source.with_suffix(".so").exists() and PROBE_MARK in source.read_text())
