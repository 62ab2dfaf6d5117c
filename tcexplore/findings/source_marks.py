"""What torch.compile did at each line of the user's code, as the Source views show it:
``source_marks``, decided here once and stored, so the HTML report and the extension draw
the same marks (issue 42).

Per file (a notebook cell, a script, a library file): its ``label`` ("cell [5]", a path
inside site-packages, the path), whether it is library code (capture's ``library_files``)
or named only by guards (torch shortens those paths: where they live is unknown), both
folded after the user's own files; per line its ``code`` and its ``marks``, in the order
the views show them:

- ``break``: one per stored site of the graph-break audit (``graph_break_sites``), and
  ``break-path`` on the user's lines of the calls that led to it;
- ``recompile``: one per compile and line, at each failed guard's line (the line whose
  value the guard checks, torch's ``user_location``), else the frame's, its failed guards in
  the tooltip;
- ``shape``: each line that guards or specializes a dynamic size (the dynamic_shape findings);
- ``divergence``: the first diverging node's line; ``tracing``: Dynamo's tracing time of a
  function, at its first line;
- ``time``: the profile's kernel time of the line; ``kernel``: each generated kernel
  computing it;
- ``guard`` and ``op``: one count each, per compile: the guards installed for the line, and
  the operations of the Dynamo graph traced from it (``call_*`` nodes: inputs, attributes
  and the output are not operations);
- ``memory``: the activations saved for backward from the line.

Each mark has its ``label``, a ``title`` (the tooltip) and a ``link`` (a tab, with the
compile, output, kernel or node it names; a break's ``site``). A line of a cell magic
(``%%tcompile``) gets no mark: it is the call into the magic, not code torch traced.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from ..common.formatting import fmt_duration, plural, share, time_us
from .compile_time import traced_functions
from .graph_break_audit import source_labels
from .memory import saved_label

Data = dict[str, Any]

FIRST = ("break", "break-path", "recompile", "shape", "divergence", "tracing")
ORDER = (*FIRST, "time", "kernel", "guard", "op", "memory")
FLAGGED = ("break", "recompile", "divergence")  # something went wrong at the line
CALLS = ("call_function", "call_method", "call_module")
SHOWN_NODES = 30
_SITE_PACKAGES = re.compile(r"[\\/](?:site-packages|dist-packages)[\\/](.+)$")
_CELL = re.compile(r"\[(\d+)\]")


def file_label(file: str, labels: dict[str, str]) -> str:
    """ "cell [5]", a path inside site-packages ("transformers/models/..."), or the path."""
    if labels.get(file):
        return labels[file]
    inside = _SITE_PACKAGES.search(file)
    return inside.group(1) if inside else file


class _Lines:
    """The marked lines of every file, with the code each shows."""

    def __init__(self, sources: dict[str, str]):
        self.sources = sources
        self.files: dict[str, dict[int, Data]] = {}
        self.beyond_guards: set[str] = set()

    def add(self, loc: Any, code: Any = None, mark: Data | None = None) -> None:
        if not isinstance(loc, dict) or not loc.get("file") or not isinstance(loc.get("line"), int):
            return
        file, number = loc["file"], loc["line"]
        text = self.sources.get(file)
        carried = None
        if isinstance(text, str) and 0 < number <= len(text.split("\n")):
            carried = text.split("\n")[number - 1]
        found = next(
            (t for t in (carried, code, loc.get("code")) if isinstance(t, str) and t), None
        )
        if found is None and isinstance(code, str):
            found = code
        lines = self.files.get(file)
        if (found or "").startswith("%%"):
            return  # a cell magic's line: the call into the magic, not code torch traced
        if lines is None:
            if found is None:
                return  # a file known only by name (torch's internals): nothing to show
            lines = self.files[file] = {}
        entry = lines.setdefault(number, {"line": number, "code": found or "", "marks": []})
        if not entry["code"] and found:
            entry["code"] = found
        if mark is None:
            return
        if mark["kind"] != "guard":
            self.beyond_guards.add(file)
        if not any(
            m["kind"] == mark["kind"]
            and m["label"] == mark["label"]
            and m["title"] == mark["title"]
            for m in entry["marks"]
        ):
            entry["marks"].append(mark)


def _mark(kind: str, label: str, title: str, link: Data, **extra: Any) -> Data:
    return {"kind": kind, "label": label, "title": title, "link": link, **extra}


def _graph_marks(lines: _Lines, data: Data) -> None:
    """Per compile: its kernels at their lines, its guards and graph ops counted per line,
    its recompile at each failed guard's line."""
    counted: dict[tuple[str, int, str], Data] = {}

    def count(kind: str, loc: Any, cid: str, text: str, code: Any = None) -> None:
        if isinstance(loc, dict) and loc.get("file") and isinstance(loc.get("line"), int):
            key = (loc["file"], loc["line"], kind)
            entry = counted.setdefault(key, {"items": [], "loc": loc, "code": code})
            entry["items"].append({"compile": cid, "text": text})

    for record in data.get("compiles") or []:
        cid = str(record.get("id"))
        for node in (record.get("dynamo_graph") or {}).get("nodes") or []:
            if isinstance(node, dict) and node.get("op") in CALLS:
                count("op", node.get("source"), cid, str(node.get("name")))
        for oi, output in enumerate(record.get("output_codes") or []):
            for kernel in output.get("kernels") or []:
                if kernel.get("kind") == "extern":
                    continue
                name = str(kernel.get("name"))
                link = {"tab": "fusion", "compile": cid, "output": oi, "kernel": name}
                for loc in kernel.get("user_lines") or []:
                    lines.add(loc, None, _mark("kernel", name, f"{name} ({cid})", link))
        for guard in record.get("guards") or []:
            if isinstance(guard, dict) and guard.get("user_location"):
                text = str(guard.get("expression"))
                count("guard", guard["user_location"], cid, text, guard.get("user_code"))
        _recompile_marks(lines, record, cid)
    for (_, _, kind), entry in counted.items():
        lines.add(entry["loc"], entry["code"], _counted(kind, entry["items"]))


def _counted(kind: str, items: list[Data]) -> Data:
    """One mark for a line's guards (or graph ops) of every compile, with each compile's
    count and every item."""
    per_compile: dict[str, int] = {}
    for item in items:
        per_compile[item["compile"]] = per_compile.get(item["compile"], 0) + 1
    word = "guard" if kind == "guard" else "graph op"
    if kind == "guard":
        title, link = (
            "show the guards of this line",
            {"tab": "guards", "compile": items[0]["compile"]},
        )
    else:
        names = [i["text"] for i in items]
        title = ", ".join(names[:SHOWN_NODES]) + (", …" if len(names) > SHOWN_NODES else "")
        link = {"tab": "graphs", "compile": items[0]["compile"], "node": items[0]["text"]}
    return _mark(
        kind,
        plural(len(items), word),
        title,
        link,
        per_compile=[{"compile": c, "count": n} for c, n in per_compile.items()],
        items=items,
    )


def _recompile_marks(lines: _Lines, record: Data, cid: str) -> None:
    failed: dict[tuple[Any, Any], Data] = {}
    for attempt in record.get("recompile_reasons") or []:
        for reason in attempt:
            loc = reason.get("user_location") or record.get("frame")
            key = ((loc or {}).get("file"), (loc or {}).get("line"))
            code = reason.get("user_code") if reason.get("user_location") else None
            entry = failed.setdefault(key, {"loc": loc, "code": code, "guards": []})
            entry["guards"].append(str(reason.get("guard")))
    for entry in failed.values():
        lines.add(
            entry["loc"],
            entry["code"],
            _mark(
                "recompile",
                f"recompiled ({cid})",
                "\n".join(entry["guards"]),
                {"tab": "guards", "compile": cid},
            ),
        )


def _break_marks(lines: _Lines, data: Data) -> None:
    for index, site in enumerate(data.get("graph_break_sites") or []):
        reasons = site.get("reasons") or [{}]
        title = f"#{index + 1}: {reasons[0].get('message') or ''}"
        link = {"tab": "overview", "site": index}
        lines.add(
            {"file": site.get("file"), "line": site.get("line")},
            site.get("code") or "",
            _mark("break", f"{plural(site['count'], 'graph break')} (#{index + 1})", title, link),
        )
        for path in site.get("paths") or []:
            for frame in path.get("stack") or []:
                if frame.get("library") or (frame.get("file"), frame.get("line")) == (
                    site.get("file"),
                    site.get("line"),
                ):
                    continue
                lines.add(
                    frame,
                    frame.get("code") or "",
                    _mark("break-path", f"leads to graph break #{index + 1}", title, link),
                )


def _shape_marks(lines: _Lines, data: Data) -> None:
    for found in data.get("findings") or []:
        shape = found.get("shape") if found.get("kind") == "dynamic_shape" else None
        if not isinstance(shape, dict):
            continue
        for guard in shape.get("guards") or []:
            verb = "specializes" if guard.get("kind") == "specialized" else "guards"
            lines.add(
                guard,
                None,
                _mark(
                    "shape",
                    f"{shape.get('name')}: {guard.get('expr')}",
                    f"{verb} {shape.get('name')} ({shape.get('symbol')})",
                    {"tab": "shapes"},
                ),
            )


def _measured_marks(lines: _Lines, data: Data) -> None:
    """Tracing time, the first divergence, kernel time and saved activations by line."""
    frames = {
        ((c.get("frame") or {}).get("file"), (c.get("frame") or {}).get("line")): c["frame"]
        for c in data.get("compiles") or []
        if c.get("frame")
    }
    for f in traced_functions(data)["functions"]:
        self_ms = "" if f["self_ms"] is None else f" (self {fmt_duration(f['self_ms'])})"
        lines.add(
            f,
            (frames.get((f["file"], f["line"])) or {}).get("code"),
            _mark(
                "tracing",
                f"traced {fmt_duration(f['cum_ms'])}",
                f"Dynamo traced {f['function']} for {fmt_duration(f['cum_ms'])}{self_ms} "
                f"in {', '.join(f['compiles'])}",
                {"tab": "timing"},
            ),
        )
    profile = data.get("profile") if isinstance(data.get("profile"), dict) else {}
    timed = [
        p for p in profile.get("lines") or [] if p.get("file") and isinstance(p.get("line"), int)
    ]
    heaviest = max([p.get("time_us") or 0 for p in timed] + [1e-9])
    per = "over the run" if profile.get("scope") == "run" else "per call"
    for p in timed:
        said = f"{time_us(p.get('time_us'))} ({share(p.get('share'))} of the step)"
        lines.add(
            p,
            p.get("code"),
            _mark(
                "time",
                f"{time_us(p.get('time_us'))} · {share(p.get('share'))}",
                f"kernel time {per} from this line: {said} in {', '.join(p.get('kernels') or [])}",
                {"tab": "profile"},
                heat=(p.get("time_us") or 0) / heaviest,
            ),
        )
    saved = (data.get("saved_activations") or {}).get("lines") or []
    most = max([s["bytes"] for s in saved] + [1])
    for s in saved:
        lines.add(
            s,
            s.get("code"),
            _mark(
                "memory",
                f"saved {saved_label(s)}",
                "activations saved for backward from this line: "
                f"{saved_label(s)} ({', '.join(s.get('nodes') or [])})",
                {"tab": "memory"},
                heat=s["bytes"] / most,
            ),
        )
    found = (data.get("accuracy") or {}).get("first_divergence") or {}
    if isinstance(found, dict) and found.get("source"):
        lines.add(
            found["source"],
            None,
            _mark("divergence", f"first divergence: {found.get('node')}", "", {"tab": "accuracy"}),
        )


def _files(lines: _Lines, labels: dict[str, str], library: set[str]) -> list[Data]:
    files = []
    for file, marked in lines.files.items():
        shown = sorted(
            (e for e in marked.values() if e["code"] or e["marks"]), key=lambda e: e["line"]
        )
        for entry in shown:
            entry["marks"].sort(key=lambda m: ORDER.index(m["kind"]))
            entry["flagged"] = any(m["kind"] in FLAGGED for m in entry["marks"])
        guards_only = file not in lines.beyond_guards
        files.append(
            {
                "file": file,
                "label": file_label(file, labels),
                "library": file in library,
                "guards_only": guards_only,
                "folded": file in library or guards_only,
                "lines": shown,
            }
        )

    def rank(f: Data) -> int:
        return 0 if labels.get(f["file"]) else 3 if f["guards_only"] else 2 if f["library"] else 1

    def cell(f: Data) -> int:
        found = _CELL.search(labels.get(f["file"]) or "")
        return int(found.group(1)) if found else sys.maxsize

    order = sorted(range(len(files)), key=lambda i: (rank(files[i]), cell(files[i]), i))
    return [files[i] for i in order]


def folded_summary(files: list[Data]) -> str | None:
    """ "3 library files (transformers, torch) · 2 files only guards point to": what the
    views fold after the user's own files."""
    folded = [f for f in files if f["folded"]]
    libraries = [f for f in folded if f["library"]]
    packages = list(
        dict.fromkeys(
            re.split(r"[\\/]", f["label"])[0] for f in libraries if f["label"] != f["file"]
        )
    )
    named = f" ({', '.join(packages)})" if packages and len(packages) <= 4 else ""
    parts = [f"{plural(len(libraries), 'library file')}{named}"] if libraries else []
    guarded = len(folded) - len(libraries)
    if guarded:
        parts.append(f"{plural(guarded, 'file')} only guards point to (torch shortens their paths)")
    return " · ".join(parts) or None


def source_marks(data: Data) -> Data:
    """The document's ``source_marks``: ``files`` (the user's first), and ``folded``, what
    the views say of the files they fold."""
    explore = data.get("explore") if isinstance(data.get("explore"), dict) else {}
    sources = {f: t for f, t in (explore.get("sources") or {}).items() if isinstance(t, str)}
    lines = _Lines(sources)
    _graph_marks(lines, data)
    _shape_marks(lines, data)
    _break_marks(lines, data)
    _measured_marks(lines, data)
    library = {f for f in data.get("library_files") or [] if isinstance(f, str)}
    files = _files(lines, source_labels(data), library)
    return {"files": files, "folded": folded_summary(files)}
