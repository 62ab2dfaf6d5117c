"""The invariants (tests/invariants.py) over a CI-sized sample of the matrix (tests/matrix.py)
that covers every configuration and every finding kind: the corpus as the other tests run
it (``program_runs``, and each run's TORCH_TRACE imported); small calls explored and run as
``%%tcompile`` cells under each configuration (default, dynamic=True and False, a mode,
fullgraph=True, a cold capture, the caches warm: explored or run twice), a Try it and a
failed measurement; and the documents only other places make (a damaged log, a compile in
another thread, code that raises, a saved H200 run with CUDA graphs). Every document is
also held to the report's titles. The whole matrix (each corpus script under each
configuration, the course notebooks): ``python benchmarks/invariant_matrix.py``."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest
import torch

import tcexplore
from tcexplore.decided import load_trace
from tcexplore.findings import KINDS

from .. import invariants
from ..damage import damage
from ..inductor_cache import fresh_inductor_cache
from ..matrix import CALL_CONFIGS, SCRIPT_CONFIGS, TESTS, cell_run, explore_run

ROOT = TESTS.parent
# kind -> the module writing it, where the two names differ
KIND_NAMES = {"raised": "error"}
# Kinds whose document costs too much for this sample, made by another test (whose
# documents conftest.py holds to the invariants all the same): kind -> that test.
MADE_ELSEWHERE = {"guard_cost": TESTS / "measure" / "test_guard_time.py"}  # a profiled Llama


@pytest.fixture(scope="module")
def plain_trace(tmp_path_factory):
    """A TORCH_TRACE of a run without tcexplore, started first: it runs while the calls do."""
    plain = tmp_path_factory.mktemp("plain-trace")
    proc = subprocess.Popen(
        [sys.executable, "-c", "import torch; torch.compile(lambda x: (x.sin() + 1).sum())"
         "(torch.randn(8))"], stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, TORCH_TRACE=str(plain / "trace"),
                 TORCHINDUCTOR_CACHE_DIR=str(fresh_inductor_cache(plain / "cache"))))
    yield proc, plain
    proc.kill()


@pytest.fixture(scope="module")
def calls(plain_trace) -> dict[str, list[dict]]:
    """The CI sample of calls: every configuration of the matrix, through explore() and as
    ``%%tcompile`` cells with other options, explored twice, a Try it, a failed
    measurement. Small functions, so that the sample costs seconds of compiling each."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "tcexplore")
    runs = [
        explore_run("graph_break", "default", profile=True),  # timing, accuracy, profile, run
        explore_run("dynamic_size", "mode"),
        explore_run("graph_break", "fullgraph=True"),  # the break is an error under fullgraph
        explore_run("graph_break", "caches"),  # explored twice: the second a warm start
        explore_run("scalar_break", "default", try_fixes=True),  # Try it: its fix tried
        explore_run("compiled_only", "default"),  # measuring against eager fails
        cell_run(shell, "dynamic_size", "dynamic=True"),
        cell_run(shell, "dynamic_size", "dynamic=False"),
        cell_run(shell, "graph_break", "cold", flags="--memory"),
        cell_run(shell, "scalar_break", "caches"),  # the same cell run twice
    ]
    for run in runs:
        assert run.documents, f"{run.name} under {run.config}: {run.note}"
        assert not run.raised, f"{run.name} under {run.config}: {run.raised}"
    return {f"{run.name} {run.config}": run.documents for run in runs}


@pytest.fixture(scope="module")
def elsewhere(program_runs, plain_trace, tmp_path_factory) -> dict[str, list[dict]]:
    """Documents only other paths make: a damaged log imported, a compile in a thread the
    capture does not cover, a capture whose code raises, a call that compiles nothing, the
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
    proc, plain = plain_trace
    assert proc.wait(timeout=600) == 0, proc.stderr.read()
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


def test_calls_explored_and_run_as_cells_hold_the_invariants(calls):
    _held(calls)


def test_the_sample_plays_every_configuration_both_entry_points_and_a_try(calls):
    """Each configuration of the matrix is sampled by a call (the corpus scripts run under
    the default), through explore() and a %%tcompile cell; a Try it ran, and its fix is
    held by its finding."""
    configs = {key.split(" ")[2] for key in calls}
    assert configs == set(CALL_CONFIGS) == set(SCRIPT_CONFIGS)
    assert {key.split(" ")[1] for key in calls} == {"explore", "cell"}
    (tried,) = calls["scalar_break explore default try_fixes"]
    assert tried["tries"] and all(
        f.get("tried") for f in tried["findings"] if (f.get("fix") or {}).get("setting")
    )


def test_the_documents_only_other_paths_make_hold_the_invariants(elsewhere):
    _held(elsewhere)


def test_the_sample_covers_every_finding_kind_in_the_registry(program_runs, calls, elsewhere):
    """By construction: every kind findings/ registers (``KINDS``) must appear in the
    sample; a kind added there fails here until a document of the sample makes it."""
    made = {f["kind"] for docs in (*calls.values(), *elsewhere.values())
            for data in docs for f in data["findings"]}
    made |= {f["kind"] for run in program_runs.values() for f in run.document["findings"]}
    registered = {KIND_NAMES.get(name, name) for name in (m.__name__.rsplit(".", 1)[-1] for m in KINDS)}
    for kind, test in MADE_ELSEWHERE.items():
        assert f'"{kind}"' in test.read_text(), f"{test} makes no {kind} finding"
        made.add(kind)
    assert registered <= made, f"finding kinds no sampled document makes: {sorted(registered - made)}"


def test_an_invariant_fails_on_a_document_that_breaks_it():
    """The invariants are not vacuous: a fix in force, a generated name, a guard torch did
    not keep, a severity of no table, a finding said twice, a tried fix offered again, a
    generated name in the sidebar's listing, a wrapper's instruction shown as the user's
    each fail (documents altered by hand)."""
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
    data["findings"][0].update(severity="info", shape=None)
    data["findings"].append(dict(data["findings"][0]))
    with pytest.raises(AssertionError, match="said twice"):
        invariants.one_cause_one_label(data)
    data["findings"] = [{**data["findings"][0], "fix": {
        "setting": {"kind": "compile_kwarg", "module": None, "name": "mode",
                    "value": "max-autotune"}, "label": 'mode="max-autotune"', "not_tried": None}}]
    data["tries"] = [{"label": 'mode="max-autotune"'}]
    with pytest.raises(AssertionError, match="tried in this document already"):
        invariants.no_fix_tried_is_offered_again(data)
    data["listing"] = {"label": "f, torch_dynamo_resume_in_f_at_7", "detail": ""}
    with pytest.raises(AssertionError, match="listing label names"):
        invariants.no_generated_names(data)
    data["compiles"] = [{"id": "0/0", "frame": {"function": "<cell>"}, "bytecode": {
        "original": {"instructions": [{"line": 0, "opname": "LOAD_CONST", "argrepr": "'x'"}]},
        "modified": {"instructions": []}, "reading": {"steps": []}}}]
    with pytest.raises(AssertionError, match="cell wrapper"):
        invariants.no_wrapper_shown_as_users_code(data)
