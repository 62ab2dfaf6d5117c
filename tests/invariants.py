"""What every document tcexplore builds must hold, whatever the program and configuration
(#43): functions over a document (the plain dict), each raising AssertionError that says
what broke it. ``check(data)`` runs them all; ``INVARIANTS`` lists them.

They run over every document the other tests make (tests/conftest.py wraps Document
construction: no compile of their own), over a sampled matrix of corpus programs and
notebook cells under each configuration that changes what torch does (test_invariants.py),
and over the whole matrix (benchmarks/invariant_matrix.py, run before a closing note).

- no finding's fix is a setting already in force for its compiles, and no finding's words
  name one (findings/fixes.py ``in_force``); no fix tried in the document is offered again
  (each finding advising it holds the try, and a try runs it no more);
- no instruction of a ``%%tcompile`` cell's wrapper is shown as the user's code;
- one cause, one label: no two findings say the same thing, each failed compile is told by
  one failed-compile finding, a frame torch skipped by none;
- no text tcexplore writes names a function Dynamo generated;
- every guard the Shapes tab lists is one torch kept (its ``dynamo_cpp_guards_str``);
- every line shown as the user's is outside torch and site-packages, or marked library;
- every failed compile, unread section and failed measurement is counted in the summary
  and named on the Overview;
- every severity is one of the one table (findings/make.py ``SEVERITIES``);
- every finding kind comes from the registry (findings ``KINDS``), so a new kind is held
  to these by construction;
- the HTML report shows each finding's title (the extension draws the same stored title:
  extension/src/__tests__/invariants.spec.ts over the shared fixtures).
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Callable, Iterator
from typing import Any

from tcexplore.capture.library_files import is_library, library_roots
from tcexplore.capture.notebook_cells import WRAPPER_LINE
from tcexplore.capture.resume_links import is_cell
from tcexplore.findings import KINDS, fixes
from tcexplore.findings.make import SEVERITIES
from tcexplore.findings.user_terms import GENERATED, expression, source_name, symbol_names

Data = dict[str, Any]
INVARIANTS: list[Callable[[Data], None]] = []
_ROOTS = library_roots()


def invariant(fn: Callable[[Data], None]) -> Callable[[Data], None]:
    INVARIANTS.append(fn)
    return fn


def check(data: Data, *, report: bool = False) -> None:
    """Every invariant over ``data``; ``report``: also the HTML report's titles (a render)."""
    for fn in INVARIANTS:
        fn(data)
    if report:
        report_shows_every_title(data)


def _findings(data: Data) -> list[Data]:
    return [f for f in data.get("findings") or [] if isinstance(f, dict)]


def _words(f: Data) -> Iterator[str]:
    """What a finding says, as the views show it."""
    for text in (f.get("title"), f.get("advice"), *(f.get("details") or [])):
        if isinstance(text, str):
            yield text
    fix = f.get("fix") if isinstance(f.get("fix"), dict) else {}
    for text in (fix.get("label"), fix.get("not_tried")):
        if isinstance(text, str):
            yield text


def _compiles_of(f: Data) -> list[Any] | None:
    ids = [e["compile"] for e in f.get("evidence") or [] if isinstance(e, dict) and e.get("compile")]
    return ids or None


@invariant
def no_fix_in_force(data: Data) -> None:
    for f in _findings(data):
        ids = _compiles_of(f)
        assert not fixes.in_force(data, f.get("fix"), ids), (
            f"{f['kind']} finding advises {f['fix']['label']}, already in force: {f['title']}")
        for text in _words(f):
            named = fixes.named_in_force(data, text, ids)
            assert not named, f"{f['kind']} finding names {named}, already in force: {text!r}"


@invariant
def no_fix_tried_is_offered_again(data: Data) -> None:
    from tcexplore.measure.try_fixes import setting_fixes

    tried = {t.get("label") for t in data.get("tries") or [] if isinstance(t, dict)}
    for f in _findings(data):
        fix = f.get("fix") if isinstance(f.get("fix"), dict) else {}
        if fix.get("label") in tried:
            assert isinstance(f.get("tried"), dict), (
                f"{f['kind']} finding offers {fix['label']}, tried in this document already")
        held = {t.get("label") for t in f.get("also_tried") or []}
        for also in f.get("also_fixes") or []:
            assert also.get("label") not in tried or also.get("label") in held, (
                f"{f['kind']} finding offers {also.get('label')}, tried in this document already")
    offered = {fix["label"] for fix in setting_fixes(data)}
    assert not offered & tried, f"a try would run {sorted(offered & tried)} again"


@invariant
def no_wrapper_shown_as_users_code(data: Data) -> None:
    from tcexplore.notebook.cell import UNBOUND

    for c in data.get("compiles") or []:
        section = c.get("bytecode") if isinstance(c, dict) else None
        if not isinstance(section, dict) or not is_cell((c.get("frame") or {}).get("function")):
            continue
        for part in ("original", "modified"):
            for ins in (section.get(part) or {}).get("instructions") or []:
                wrapper = ins.get("line") == WRAPPER_LINE or ins.get("argrepr") == repr(UNBOUND)
                assert not wrapper or ins.get("wrapper"), (
                    f"compile {c.get('id')}'s {part} bytecode shows the cell wrapper's "
                    f"{ins.get('opname')} {ins.get('argrepr') or ''} as the user's code")
        for step in (section.get("reading") or {}).get("steps") or []:
            assert step.get("kind") != "return" or step.get("wrapper"), (
                f"compile {c.get('id')}'s return of the cell's values is shown as the user's")


@invariant
def one_cause_one_label(data: Data) -> None:
    said: dict[tuple[str, str], int] = {}
    for f in _findings(data):
        key = (f["kind"], f.get("title"))
        said[key] = said.get(key, 0) + 1
    twice = [title for (kind, title), n in said.items() if n > 1]
    assert not twice, f"findings said twice: {twice}"
    told: dict[Any, int] = {}
    for f in _findings(data):
        if f["kind"] == "failed_compile":
            for cid in {e.get("compile") for e in f.get("evidence") or [] if e.get("compile")}:
                told[cid] = told.get(cid, 0) + 1
    status = {c.get("id"): c.get("status") for c in data.get("compiles") or [] if isinstance(c, dict)}
    for cid, n in told.items():
        assert status.get(cid) == "failed", (
            f"compile {cid} ({status.get(cid)}) is told as a failed compile")
        assert n == 1, f"failed compile {cid} is told by {n} failed-compile findings"


def _decided_texts(data: Data) -> Iterator[tuple[str, str]]:
    """(where, text) of every text tcexplore decided and the views draw: the findings, the
    verdicts and labels stored beside the measurements, the pipeline."""
    for f in _findings(data):
        for text in _words(f):
            yield f"finding {f['kind']}", text
    for section, keys in (("timing", ("headline", "advice", "noise", "busy")),
                          ("accuracy", ("headline", "why", "advice"))):
        verdict = (data.get(section) or {}).get("verdict") if isinstance(data.get(section), dict) else None
        for key in keys:
            if isinstance(verdict, dict) and isinstance(verdict.get(key), str):
                yield f"{section} verdict {key}", verdict[key]
    step = (data.get("profile") or {}).get("step") if isinstance(data.get("profile"), dict) else None
    if isinstance(step, dict):
        for text in [step.get("verdict"), step.get("unreliable"), *(step.get("advice") or [])]:
            if isinstance(text, str):
                yield "profile step", text
    for c in data.get("compiles") or []:
        frame = c.get("frame") if isinstance(c, dict) else None
        if isinstance(frame, dict) and isinstance(frame.get("shown_name"), str):
            yield f"compile {c.get('id')}'s title", frame["shown_name"]
    for site in data.get("graph_break_sites") or []:
        if isinstance(site, dict) and isinstance(site.get("count_note"), str):
            yield "a graph-break site's count note", site["count_note"]
    listing = data.get("listing")
    if isinstance(listing, dict):
        for key in ("label", "detail"):
            if isinstance(listing.get(key), str):
                yield f"listing {key}", listing[key]
    for stage in data.get("pipeline") or []:
        if isinstance(stage, dict):
            for key, text in stage.items():
                if isinstance(text, str):
                    yield f"pipeline {key}", text


@invariant
def no_generated_names(data: Data) -> None:
    for where, text in _decided_texts(data):
        assert not GENERATED.search(text), f"{where} names a function Dynamo generated: {text!r}"


@invariant
def shape_guards_are_kept_guards(data: Data) -> None:
    by_id = {str(c.get("id")): c for c in data.get("compiles") or [] if isinstance(c, dict)}
    for f in _findings(data):
        if f["kind"] != "dynamic_shape":
            continue
        for row in (f.get("shape") or {}).get("guards") or []:
            if row.get("kind") != "guard":
                continue
            record = by_id.get(str(row.get("compile"))) or {}
            names = symbol_names(record)
            kept = {expression(source_name(g.get("expression")), names)
                    for g in record.get("guards") or [] if g.get("source") is None}
            assert row["expr"] in kept, (
                f"the Shapes tab lists {row['expr']!r} (compile {row.get('compile')}) as a guard "
                f"torch's guard tree does not hold")


def _library_file(file: str, data: Data) -> bool:
    """torch's, a package's or the standard library's: by this interpreter's directories,
    or a path torch cut short below its package (``_dynamo/output_graph.py``)."""
    if is_library(file, _ROOTS):
        return True
    import torch

    return not os.path.isabs(file) and os.path.exists(os.path.join(os.path.dirname(torch.__file__), file))


def _user_lines(data: Data) -> Iterator[tuple[str, Data]]:
    """(what, location) of each line a view shows as the user's code."""
    for f in _findings(data):
        for loc in f.get("locations") or []:
            yield f"{f['kind']} finding's location", loc
        for row in (f.get("shape") or {}).get("guards") or []:
            if row.get("kind") != "runtime_assert":
                yield "a Shapes row", row
    for c in data.get("compiles") or []:
        for g in c.get("guards") or []:
            if isinstance(g.get("user_line"), dict):
                yield f"compile {c.get('id')}'s guard user line", g["user_line"]
        for group in c.get("recompile_reasons") or []:
            for r in group or []:
                if isinstance(r.get("user_line"), dict):
                    yield f"compile {c.get('id')}'s recompile user line", r["user_line"]


@invariant
def user_lines_are_users_or_marked(data: Data) -> None:
    marked = set(data.get("library_files") or [])
    for what, loc in _user_lines(data):
        file = loc.get("file")
        if not isinstance(file, str) or file in marked or loc.get("library"):
            continue
        assert not _library_file(file, data), f"{what} is library code, unmarked: {file}:{loc.get('line')}"


_FAILED_SECTIONS = (("explore", "error"), ("memory", "error"), ("accuracy", "divergence_error"))


@invariant
def failures_are_counted_and_shown(data: Data) -> None:
    summary = data.get("summary") or {}
    said = " ".join(t for f in _findings(data) for t in _words(f))
    failed = [c for c in data.get("compiles") or [] if c.get("status") == "failed"]
    # a section that failed because a compile did (explore's error is the compile's) is
    # that one failure
    compiles_raised = {str((c.get("error") or {}).get("type")) for c in failed}
    sections = [(s, k) for s, k in _FAILED_SECTIONS
                if isinstance(data.get(s), dict) and isinstance(data[s].get(k), dict)
                and str(data[s][k].get("type")) not in compiles_raised]
    assert summary.get("failures", 0) >= len(failed) + len(sections), (
        f"summary.failures is {summary.get('failures')}: {len(failed)} failed compiles, "
        f"failed sections {sections}")
    linked = {e.get("compile") for f in _findings(data) if f["kind"] == "failed_compile"
              for e in f.get("evidence") or []}
    for c in failed:
        assert c.get("id") in linked, f"failed compile {c.get('id')} is not on the Overview"
    for section, key in sections:
        error = data[section][key]
        words = [str(error.get("type") or ""), *str(error.get("message") or "").splitlines()[:1]]
        assert any(w and w in said for w in words), (
            f"the failed {section} ({error.get('type')}) is not named on the Overview")
    unread = (data.get("capture") or {}).get("unread") or {}
    if any((unread.get("counts") or {}).values()):
        assert any(f["kind"] == "unread" for f in _findings(data)), "what was unread is not on the Overview"
    assert summary.get("unread_events", 0) == unread.get("events", 0)


def _severities(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "severity":
                yield path, item
            elif key not in ("compiles",):  # torch's records hold no severity of ours
                yield from _severities(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _severities(item, f"{path}[{i}]")


@invariant
def severities_from_one_table(data: Data) -> None:
    for path, severity in _severities(data):
        assert severity in SEVERITIES, f"{path}: severity {severity!r} is not one of {SEVERITIES}"


_REGISTERED = {m.__name__.rsplit(".", 1)[-1] for m in KINDS}
# kinds a module writes under another name than its own (its module's registry entry)
_KIND_OF = {"error": "raised", "all_clear": None, "eager_optimizer": "eager_time"}


@invariant
def finding_kinds_from_the_registry(data: Data) -> None:
    for f in _findings(data):
        module = _KIND_OF.get(f["kind"], f["kind"])
        assert module is None or module in _REGISTERED, f"finding kind {f['kind']!r} is in no registry"


def report_shows_every_title(data: Data) -> None:
    from tcexplore import Document
    from tcexplore.render.html import render_html

    page = html.unescape(re.sub(r"<[^>]+>", "", render_html(Document(data, check=False))))
    for f in _findings(data):
        assert f["title"] in page, f"the report does not show the {f['kind']} finding {f['title']!r}"
