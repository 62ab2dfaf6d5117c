"""Findings: every "why" a document answers (graph breaks, recompiles, dynamic shapes,
caches, skipped frames, CUDA-graph skips, compile time, timing, accuracy, profile,
memory),
decided once here and stored in the document's ``findings`` section; both renderers
(the HTML report, the extension) only draw that list.

Each kind is one module with ``find(data) -> list[finding]`` listed in ``KINDS``:
adding a kind is adding a module and its name here. The labels and verdicts the views show
beside the findings (accuracy's per leaf, timing's, the profile's step and lines, the
pipeline) and every grouping, headline and mark a view draws (``STORED``,
``AFTER_FINDINGS``: the break sites, the source marks, the sidebar's listing, ...) are
decided here too, by :func:`decide`, which stores them in the document. No torch import.
"""

from __future__ import annotations

from typing import Any

from ..common.contained import Unread, refresh
from . import (
    accuracy,
    cache,
    capture_settings,
    compile_time,
    cudagraph_skip,
    dynamic_shape,
    eager_time,
    failed_compile,
    failed_measurement,
    graph_break,
    guard_cost,
    guard_lines,
    listing,
    memory,
    nothing_compiled,
    profile,
    raised,
    recompile,
    run_view,
    timing,
    unmapped,
    unread,
)
from .break_lines import break_lines
from .compile_time import traced_functions
from .graph_break_audit import graph_break_audit
from .make import SEVERITIES, finding
from .not_compiled_groups import not_compiled_groups
from .pipeline import pipeline
from .resume_labels import resume_labels
from .source_marks import source_marks
from .tried import attach

Data = dict[str, Any]

KINDS = (
    raised,
    unread,
    failed_compile,
    failed_measurement,
    accuracy,
    nothing_compiled,
    graph_break,
    recompile,
    dynamic_shape,
    cache,
    cudagraph_skip,
    capture_settings,
    unmapped,
    compile_time,
    timing,
    profile,
    run_view,
    eager_time,
    guard_cost,
    memory,
)

ALL_CLEAR = "No graph breaks, recompiles or failed compiles."

# Whole computations the views draw, stored under these names: the graph-break audit's
# sites, the saved activations summed over the compiles, by line, Dynamo's tracing time per
# function, where each frame broke in its own code, the names of Dynamo's resume functions
# in words, the frames not compiled grouped by torch's reason, and how the document is listed among
# others (the sidebar); after the findings
# (whose dynamic shapes they mark), the marks on the user's source lines.
STORED = {
    "graph_break_sites": graph_break_audit,
    "saved_activations": memory.saved_activations,
    "traced_functions": traced_functions,
    "break_lines": break_lines,
    "resume_labels": resume_labels,
    "not_compiled_groups": not_compiled_groups,
    "listing": listing.one_run,
}
AFTER_FINDINGS = {"source_marks": source_marks}


def compute_findings(data: Data, failed: Unread | None = None) -> list[Data]:
    """The document's findings, errors first, then warnings, info, and the good news. Each
    kind is decided contained: one that raises is absent, and an entry of
    ``capture.unread`` that the ``unread`` finding (decided last) names; ``failed`` holds
    the decisions that already raised (decide's labels)."""
    failed = failed or Unread()
    found = []
    for kind in KINDS:
        if kind is not unread:
            with failed.contain("finding", kind.__name__.rsplit(".", 1)[-1]):
                found += kind.find(data)
    _note(data, failed)
    found += unread.find(data)
    worrying = any(f["severity"] in ("error", "warning") for f in found)
    compiled = any(f["kind"] == "nothing_compiled" and f["severity"] == "warning" for f in found)
    if not worrying and not compiled:
        found.append(finding("all_clear", "ok", ALL_CLEAR))
    attach(data, found)
    return sorted(found, key=lambda f: SEVERITIES.index(f["severity"]))


def decide(data: Data) -> Data:
    """Every decision the views draw, (re)computed in place from the document's facts: the
    measured sections' labels and verdicts, each output code's unmapped reason, each
    cache hit's note, the pipeline, then the findings (which read them); returns ``data``. A document of one run
    only (not a multi-rank or comparison one)."""
    failed = Unread()
    for kind in (accuracy, timing, profile, unmapped, cache, guard_lines):
        with failed.contain("finding", kind.__name__.rsplit(".", 1)[-1] + " labels"):
            kind.decide(data)
    _store(data, STORED, failed)
    if isinstance(data.get("summary"), dict):  # a failed measurement is a failure too
        data["summary"] = {**data["summary"], "failures": failed_measurement.count(data)}
    data["pipeline"] = []
    with failed.contain("finding", "pipeline"):
        data["pipeline"] = pipeline(data)
    data["findings"] = compute_findings(data, failed)
    _store(data, AFTER_FINDINGS, failed)
    _note(data, failed)
    return data


def _note(data: Data, failed: Unread) -> None:
    """Keep the decisions that raised in ``capture.unread`` (replacing those of an earlier
    decide: a document decided again gets its failures afresh)."""
    capture = data.get("capture")
    if not isinstance(capture, dict) or (not failed.counts["finding"] and "unread" not in capture):
        return
    data["capture"] = {**capture, "unread": refresh(capture.get("unread"), "finding", failed)}


def _store(data: Data, which: dict[str, Any], failed: Unread) -> None:
    """Each of ``which``'s computations stored under its name, contained: one that raises
    leaves its field absent (the views say it is missing) and is counted in ``failed``."""
    for name, compute in which.items():
        data.pop(name, None)
        with failed.contain("finding", name):
            data[name] = compute(data)


def upgrade(data: Data) -> Data:
    """A document read back: one saved before these decisions were stored (it has no
    ``pipeline``) gets them all, computed now as :func:`decide` does; one saved with them
    keeps its own, and gets those stored since (``STORED``, ``AFTER_FINDINGS``) that it
    lacks. Returns ``data``."""
    if data.get("kind") is None and "pipeline" not in data:
        return decide(data)
    verdict = (
        (data.get("timing") or {}).get("verdict") if isinstance(data.get("timing"), dict) else None
    )
    if isinstance(verdict, dict) and not {"short", "break_even"} <= set(verdict):
        timing.decide(data)  # a verdict saved before it had these lines: decided again, whole
    if data.get("kind") is None:  # one that raises stays absent: the views say so
        _store(data, {name: f for name, f in STORED.items() if name not in data}, Unread())
    if "findings" not in data:
        data["findings"] = compute_findings(data)
    if data.get("kind") is None:
        _store(data, {n: f for n, f in AFTER_FINDINGS.items() if n not in data}, Unread())
    return data
