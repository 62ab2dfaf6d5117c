"""The invariants (tests/invariants.py) over a sample of the matrix (tests/matrix.py) that
covers every configuration and every finding kind, in CI: the corpus as the other tests run
it (``program_runs``, and each run's TORCH_TRACE imported), one corpus script per script
configuration, calls explored and run as ``%%tcompile`` cells, and the documents only
other places make (a damaged log, a compile in another thread, code that raises, a saved
H200 run with CUDA graphs). Every document is also held to the report's titles. The whole
matrix: ``python benchmarks/invariant_matrix.py``."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch

import tcexplore
from tcexplore.findings import KINDS
from tcexplore.traces import load_trace

from .. import invariants
from ..damage import damage
from ..matrix import CALL_CONFIGS, SCRIPT_CONFIGS, TESTS, cell_run, explore_run, script_run

ROOT = TESTS.parent
# One corpus script per script configuration other than the default (which program_runs
# plays for every script): a size guarded by two `if`s, made dynamic; a break under
# fullgraph (an error, kept); a mode; the caches on, run twice (a warm start).
SCRIPTS = {
    "dynamic=True": TESTS / "findings_programs" / "dynamic_two_ifs.py",
    "fullgraph=True": TESTS / "programs" / "graph_break_explicit.py",
    "mode": TESTS / "programs" / "dynamic_automatic.py",
    "caches": TESTS / "findings_programs" / "cached.py",
}
# kind -> the module writing it, where the two names differ
KIND_NAMES = {"raised": "error"}


@pytest.fixture(scope="module")
def scripts(tmp_path_factory) -> dict[str, list[dict]]:
    root = tmp_path_factory.mktemp("matrix")
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda kv: script_run(kv[1], kv[0], root / kv[0]), SCRIPTS.items()))
    for run in runs:
        assert run.documents, f"{run.name} under {run.config}: {run.note}"
    return {run.config: run.documents for run in runs}


@pytest.fixture(scope="module")
def calls() -> dict[str, list[dict]]:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "tcexplore")
    runs = [
        explore_run("graph_break", "default", profile=True),  # timing, accuracy, profile, run
        explore_run("train_step", "caches"),
        explore_run("dynamic_size", "dynamic=False"),
        cell_run(shell, "dynamic_size", "dynamic=True"),
        cell_run(shell, "train_step", "default"),
    ]
    for run in runs:
        assert run.documents, f"{run.name} under {run.config}: {run.note}"
    return {f"{run.name} {run.config}": run.documents for run in runs}


@pytest.fixture(scope="module")
def elsewhere(program_runs, tmp_path_factory) -> dict[str, list[dict]]:
    """Documents only other paths make: a damaged log imported, a compile in a thread the
    capture does not cover, a capture whose code raises, a call that compiles nothing, a
    plain TORCH_TRACE (no kernel-to-node mapping), the saved H200 reduce-overhead run."""
    out = tmp_path_factory.mktemp("damaged") / "damaged.log"
    run = program_runs[sorted(program_runs)[0]]
    out.write_bytes(damage(run.trace_log.read_bytes(), seed=3)[0])
    compiled = torch.compile(lambda x: x.cos() + 1, backend="eager")
    with tcexplore.capture() as threaded:
        thread = threading.Thread(target=lambda: compiled(torch.randn(4)), name="elsewhere")
        thread.start()
        thread.join()
    with pytest.raises(ValueError), tcexplore.capture() as raised:
        compiled(torch.randn(3))
        raise ValueError("the user's code raised")
    nothing = tcexplore.explore(lambda x: x, torch.randn(3), measure_timing=False)
    plain = tmp_path_factory.mktemp("plain-trace")  # a TORCH_TRACE of a run without tcexplore
    subprocess.run([sys.executable, "-c", "import torch; torch.compile(lambda x: (x.sin() + 1)"
                    ".sum())(torch.randn(8))"], check=True, timeout=600,
                   env=dict(os.environ, TORCH_TRACE=str(plain / "trace"),
                            TORCHINDUCTOR_CACHE_DIR=str(plain / "cache")))
    return {
        "nothing compiled": [nothing.document.data],
        "plain TORCH_TRACE": [load_trace(plain / "trace").data],
        "damaged log": [load_trace(out).data],
        "thread": [threaded.document.data],
        "raised": [raised.document.data],
        "saved H200 run": [tcexplore.load(ROOT / "notebooks" / "data" / "modes_reduce-overhead.json").data],
    }


def _held(documents: dict[str, list[dict]]) -> None:
    for name, docs in documents.items():
        for data in docs:
            try:
                invariants.check(data, report=True)
            except AssertionError as exc:
                raise AssertionError(f"{name}: {exc}") from None


def test_the_corpus_and_its_imported_traces_hold_the_invariants(program_runs):
    _held({f"{name} (live)": [run.document] for name, run in program_runs.items()})
    _held({f"{name} (imported)": [load_trace(run.trace_log).data]
           for name, run in program_runs.items()})


def test_each_script_configuration_holds_the_invariants(scripts):
    _held(scripts)


def test_calls_explored_and_run_as_cells_hold_the_invariants(calls):
    _held(calls)


def test_the_sample_plays_every_configuration_and_both_entry_points(scripts, calls):
    """The default is program_runs' (every corpus script); each other configuration is
    sampled by a script or a call, and calls go through explore() and a %%tcompile cell."""
    played = set(scripts) | {key.split(" ", 2)[-1] for key in calls} | {"default"}
    assert played == set(SCRIPT_CONFIGS) | set(CALL_CONFIGS)
    assert {key.split(" ")[1] for key in calls} == {"explore", "cell"}


def test_the_documents_only_other_paths_make_hold_the_invariants(elsewhere):
    _held(elsewhere)


def test_the_sample_covers_every_finding_kind_in_the_registry(program_runs, scripts, calls,
                                                            elsewhere):
    """By construction: every kind findings/ registers (``KINDS``) must appear in the
    sample; a kind added there fails here until a document of the sample makes it."""
    made = {f["kind"] for docs in (*scripts.values(), *calls.values(), *elsewhere.values())
            for data in docs for f in data["findings"]}
    made |= {f["kind"] for run in program_runs.values() for f in run.document["findings"]}
    registered = {KIND_NAMES.get(name, name) for name in (m.__name__.rsplit(".", 1)[-1] for m in KINDS)}
    assert registered <= made, f"finding kinds no sampled document makes: {sorted(registered - made)}"


def test_an_invariant_fails_on_a_document_that_breaks_it():
    """The invariants are not vacuous: a fix in force, a generated name, a guard torch did
    not keep each fail (documents altered by hand)."""
    data = {"explore": {"compile_kwargs": {"dynamic": True}}, "compiles": [], "summary": {},
            "findings": [{"kind": "dynamic_shape", "severity": "info", "title": "x", "advice": None,
                          "details": [], "evidence": [],
                          "fix": {"setting": {"kind": "compile_kwarg", "module": None,
                                              "name": "dynamic", "value": True},
                                  "label": "dynamic=True", "not_tried": None}}]}
    with pytest.raises(AssertionError, match="already in force"):
        invariants.no_fix_in_force(data)
    data["findings"][0].update(fix=None, title="in torch_dynamo_resume_in_f_at_3")
    with pytest.raises(AssertionError, match="generated"):
        invariants.no_generated_names(data)
    data["findings"][0].update(title="x", shape={"guards": [
        {"kind": "guard", "expr": "x.size(0) == 16", "compile": "0/0"}]})
    data["compiles"] = [{"id": "0/0", "guards": [], "symbols": []}]
    with pytest.raises(AssertionError, match="guard tree does not hold"):
        invariants.shape_guards_are_kept_guards(data)
    data["findings"][0].update(severity="fatal")
    with pytest.raises(AssertionError, match="one of"):
        invariants.severities_from_one_table(data)
