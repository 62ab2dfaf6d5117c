"""Shared fixtures: programs are captured once per session, in parallel subprocesses.

Under pytest-xdist (CI runs ``-n 2``: .ci/run) each worker is a session of its own: the
costly session fixtures (the corpus, the ranks, the notebook tour) are built once, by the
first worker that asks, and read back by the others (``shared``).
"""

from __future__ import annotations

import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from . import invariants
from .inductor_cache import fresh_inductor_cache

PROGRAMS = Path(__file__).parent / "programs"
TLPARSE_COUNTED = {
    "graphs": re.compile(r"^dynamo_output_graph_\d+\.txt$"),
    "graph_breaks": re.compile(r"^dynamo_graph_break_reason_\d+\.txt$"),
    "recompiles": re.compile(r"^recompile_reasons_\d+\.json$"),
    "output_codes": re.compile(r"^inductor_output_code_.*\.txt$"),
}


@dataclass
class ProgramRun:
    name: str
    returncode: int
    stderr: str
    document: dict
    tlparse_counts: dict[str, int]
    trace_log: Path  # the TORCH_TRACE log of the same run
    workdir: Path  # holds doc.json and the run's inductor-cache


def _trace_log(trace_dir: Path) -> Path:
    logs = sorted(trace_dir.glob("*.log"))
    assert len(logs) == 1, f"expected one TORCH_TRACE log, got {logs}"
    return logs[0]


def tlparse_counts(log: Path, out_dir: Path) -> dict[str, int]:
    """What tlparse counts in a log: the artifacts of its compile directory."""
    subprocess.run(["tlparse", str(log), "-o", str(out_dir), "--no-browser", "--overwrite",
                    "--plain-text"], check=True, capture_output=True, timeout=300)
    directory = json.loads((out_dir / "compile_directory.json").read_text())
    counts = dict.fromkeys(TLPARSE_COUNTED, 0)
    for entry in directory.values():
        for artifact in entry["artifacts"]:
            for key, pattern in TLPARSE_COUNTED.items():
                if pattern.match(artifact["name"]):
                    counts[key] += 1
    return counts


# Every document the tests make is held to tests/invariants.py, at no compile of its own: each
# Document built (captures, explorations, loads) and each document a test reads from a
# subprocess or a notebook (note_document) while a test or its fixtures run; what breaks an
# invariant fails that test, naming the invariant.
_running: list[str] = []
_broken: dict[str, list[str]] = {}


def note_document(data) -> None:
    """Hold ``data`` to the invariants, for the test running now."""
    if not _running or _running[-1] is None or not isinstance(data, dict):
        return
    if data.get("kind") is not None:  # a multi-rank document: its ranks' are held
        return
    try:
        invariants.check(data)
    except AssertionError as exc:
        _broken.setdefault(_running[-1], []).append(str(exc))


@pytest.fixture(autouse=True, scope="session")
def _documents_held_to_invariants():
    from tcexplore.decided import Document

    built = Document.__init__

    def init(self, data, *, check=True):
        built(self, data, check=check)
        note_document(self.data)

    Document.__init__ = init
    yield
    Document.__init__ = built


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    exempt = item.get_closest_marker("invariants_exempt") is not None
    _running.append(None if exempt else item.nodeid)
    try:
        yield
    finally:
        _running.pop()
        _broken.pop(item.nodeid, None)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    broken = _broken.pop(item.nodeid, None)
    if broken and call.when in ("setup", "call") and report.outcome != "skipped":
        report.outcome = "failed"
        shown = "\n".join(f"- {b}" for b in dict.fromkeys(broken))
        report.longrepr = f"a document this test made breaks tests/invariants.py:\n{shown}"


def shared(tmp_path_factory, name: str, build: Callable[[Path], Any]) -> Any:
    """``build(folder)`` once per test run: alone, in a temporary folder; under pytest-xdist,
    by the first worker to get here, in a folder all workers see, while the others wait on
    its lock and then read what it built (pickled beside it), or the error it ended with."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return build(tmp_path_factory.mktemp(name))
    root = tmp_path_factory.getbasetemp().parent / name
    built = root.with_suffix(".pickle")
    with FileLock(str(root) + ".lock"):
        if not built.exists():
            root.mkdir()
            try:
                result = build(root)
            except Exception:
                built.write_bytes(pickle.dumps(SharedFailure(traceback.format_exc())))
                raise
            built.write_bytes(pickle.dumps(result))
    result = pickle.loads(built.read_bytes())
    if isinstance(result, SharedFailure):
        raise RuntimeError(f"building {name} failed in another worker:\n{result.error}")
    return result


@dataclass
class SharedFailure:
    error: str  # the traceback of the worker that built it


def tlparse_output_codes(out_dir: Path) -> list[str]:
    """The output codes tlparse wrote (after tlparse_counts), in the log's order."""
    directory = json.loads((out_dir / "compile_directory.json").read_text())
    artifacts = [a for entry in directory.values() for a in entry["artifacts"]
                 if a["name"].startswith("inductor_output_code_")]
    return [(out_dir / a["url"]).read_text() for a in sorted(artifacts, key=lambda a: a["number"])]


def pytest_configure(config):
    """Inductor's caches start empty for each run, as on CI's clean machine: a capture uses
    the caches as the program has them (a hit has no codegen to show), so what one test run
    left in ~/.cache or /tmp must not decide what the next one sees. A test needing a cold
    compile asks for it (``bypass_caches=True``), as a user would.

    Inductor's CPU vector ISA is taken from the CPU's flags (``TORCHINDUCTOR_VEC_ISA_OK``),
    not proved by building and loading a probe library per ISA: a process with an empty
    cache directory builds ten of them, 13 s of a 26 s corpus program on this machine,
    and the tests run dozens of such processes (each program of the corpus, each rank, each
    notebook kernel). The code torch generates is the same either way (the training step's
    output code compared); torch reads the variable as it is imported, here and in every
    process the tests start.

    tcexplore's own cache (the machine's measured peaks, ``$TCEXPLORE_CACHE_DIR``) is one
    per run too, measured by the first test that profiles and read by the others (every
    worker, subprocess and kernel): about 10 CPU-s a measurement on CI's machine, which
    each profiling module paid again when it kept a cache of its own. A test of the cache
    itself gives it a folder of its own.

    Inductor's C++ builds go through tests/compiler_cache/g++ (``CXX``, read as torch is
    imported): a build of the same source with the same flags that an earlier process of
    the run made is copied from the run's build folder (``$TCX_TEST_BUILDS``); torch still
    writes, and records, every source."""
    os.environ.setdefault("TORCHINDUCTOR_VEC_ISA_OK", "1")
    if shutil.which("g++"):
        os.environ.setdefault("CXX", str(Path(__file__).parent / "compiler_cache" / "g++"))
    config._tcx_made = []
    for variable, prefix in (("TORCHINDUCTOR_CACHE_DIR", "tcx-inductor-"),
                             ("TCEXPLORE_CACHE_DIR", "tcx-cache-"),
                             ("TCX_TEST_BUILDS", "tcx-builds-")):
        if variable not in os.environ:
            os.environ[variable] = tempfile.mkdtemp(prefix=prefix)
            config._tcx_made.append(os.environ[variable])


def pytest_terminal_summary(terminalreporter, config):
    """How many C++ builds the run made, and how many it copied (tests/compiler_cache)."""
    folder = os.environ.get("TCX_TEST_BUILDS")
    builds = Path(folder) / ".builds" if folder else None
    if builds and builds.exists() and not os.environ.get("PYTEST_XDIST_WORKER"):
        counts = builds.read_text().split()
        terminalreporter.write_line(f"C++ builds: {counts.count('built')} built, "
                                    f"{counts.count('copied')} copied from earlier ones "
                                    "(tests/compiler_cache/g++)")


def pytest_unconfigure(config):
    """The run's own cache directories go with it (xdist's workers inherit the
    controller's, which removes them)."""
    for made in getattr(config, "_tcx_made", []):
        shutil.rmtree(made, ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    import torch

    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs an NVIDIA GPU with Triton; run `pytest -m gpu` there")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def run_program(name: str, workdir: Path, args: list[str] | None = None) -> ProgramRun:
    """`tcexplore run` the program with TORCH_TRACE on: one event stream, parsed twice.

    ``name`` is a program in tests/programs, or a path to a script.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, TORCH_TRACE=str(workdir / "trace"),
               TORCHINDUCTOR_CACHE_DIR=str(fresh_inductor_cache(workdir / "inductor-cache")),
               PYTHONUNBUFFERED="1")
    out = workdir / "doc.json"
    script = Path(name) if name.endswith(".py") else PROGRAMS / f"{name}.py"
    proc = subprocess.run(
        [sys.executable, "-m", "tcexplore", "run", str(script), *(args or []), "--json", str(out)],
        env=env, capture_output=True, text=True, timeout=600, cwd=workdir,
    )
    assert out.exists(), f"{name}: no document written\n{proc.stderr[-3000:]}"
    log = _trace_log(workdir / "trace")
    document = json.loads(out.read_text())
    note_document(document)
    return ProgramRun(script.stem, proc.returncode, proc.stderr, document,
                      tlparse_counts(log, workdir / "tl_out"), log, workdir)


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    """Where the browser tests put their screenshots: $TCX_SCREENSHOTS (for a person to look
    at; `TCX_SCREENSHOTS=docs/screenshots` remakes the README's), else a temporary folder."""
    folder = Path(os.environ.get("TCX_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def program_runs(tmp_path_factory) -> dict[str, ProgramRun]:
    """Every program in tests/programs, or those named in ``$TCEXPLORE_TEST_PROGRAMS``
    (comma-separated: a quick run of the tests that need only them, on another torch)."""
    names = sorted(p.stem for p in PROGRAMS.glob("*.py"))
    if os.environ.get("TCEXPLORE_TEST_PROGRAMS"):
        names = os.environ["TCEXPLORE_TEST_PROGRAMS"].split(",")

    def build(root: Path) -> dict[str, ProgramRun]:
        with ThreadPoolExecutor(max_workers=max(2, min(8, (os.cpu_count() or 2) // 2))) as pool:
            return {run.name: run for run in pool.map(lambda n: run_program(n, root / n), names)}

    return shared(tmp_path_factory, "programs", build)


@pytest.fixture(scope="session")
def tour(tmp_path_factory):
    """tests/notebook_tour.py executed once in a real kernel (nbclient + ipykernel)."""
    for module in ("nbclient", "nbformat", "ipykernel"):
        pytest.importorskip(module, reason=f"{module} is in the `test` extra")
    from .matrix import documents_in
    from .notebook_tour import execute_tour

    tour = shared(tmp_path_factory, "tour", execute_tour)
    for data in documents_in(tour.notebook):
        note_document(data)
    return tour


@dataclass
class RanksRun:
    returncode: int
    stderr: str
    workdir: Path  # out.rank<N>.json and trace/ (one TORCH_TRACE log per rank) inside


def run_ranks(script: Path, args: list[str], workdir: Path, nproc: int = 2) -> RanksRun:
    """`torchrun --nproc_per_node N -m tcexplore run SCRIPT ARGS --json out.json` with
    TORCH_TRACE on: one process per rank, each writing its document and its log."""
    workdir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, TORCH_TRACE=str(workdir / "trace"), OMP_NUM_THREADS="1",
               TORCHINDUCTOR_CACHE_DIR=str(fresh_inductor_cache(workdir / "inductor-cache")),
               PYTHONUNBUFFERED="1",
               # NVLink multicast stays off on the shared GPU machines (NCCL, PyTorch, NVSHMEM)
               NCCL_NVLS_ENABLE="0", TORCH_SYMM_MEM_DISABLE_MULTICAST="1",
               NVSHMEM_DISABLE_NVLS="1")
    proc = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--standalone",
         f"--nproc_per_node={nproc}", "-m", "tcexplore", "run", str(script), *args,
         "--json", str(workdir / "out.json")],
        env=env, capture_output=True, text=True, timeout=600, cwd=workdir)
    return RanksRun(proc.returncode, proc.stderr, workdir)


TESTS = Path(__file__).parent
# The GPU training programs on CPU, with gloo; aot_eager keeps them free of C++ builds.
CPU_TRAIN = ["--width", "32", "--backend", "aot_eager", "--cpu"]
RANK_SCENARIOS = {
    "alike": (TESTS / "dist_programs" / "rank_step.py", []),
    "bigger_batch": (TESTS / "dist_programs" / "rank_step.py", ["--bigger-batch-on-rank1"]),
    "print_on_rank0": (TESTS / "dist_programs" / "rank_step.py", ["--print-on-rank0"]),
    "ddp": (TESTS / "gpu_programs" / "ddp_train.py", CPU_TRAIN),
    "fsdp2": (TESTS / "gpu_programs" / "fsdp2_train.py", CPU_TRAIN),
}


@pytest.fixture(scope="session")
def rank_runs(tmp_path_factory) -> dict[str, RanksRun]:
    """Each scenario once per session: two gloo ranks under torchrun (CPU)."""
    def build(root: Path) -> dict[str, RanksRun]:
        return {name: run_ranks(script, args, root / name)
                for name, (script, args) in RANK_SCENARIOS.items()}

    runs = shared(tmp_path_factory, "ranks", build)
    for name, run in runs.items():
        assert run.returncode == 0, f"{name}:\n{run.stderr[-3000:]}"
    return runs
