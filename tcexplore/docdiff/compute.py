"""The diff of two tcexplore documents, as a JSON-ready dict ("tcexplore-diff/1").

Compiles pair by frame and which compile of it they are in their own document (not by
torch's numbers, which count over the whole process: identity.py); within a pair, each graph (Dynamo, AOT
forward/backward/inference, post-grad per output code) is aligned node by node, guards
compare as multisets, and the kernels of each output code pair by the post-grad nodes
they fuse (through the node alignment), then by equal source, then by equal name. An
added or removed compile is one entry: its contents are not itemised.

Spelled step for step like ``extension/src/model/docdiff.ts`` (with ``diffgraphs.ts``,
``diffguards.ts`` and ``diffkernels.ts``): the JupyterLab extension diffs two documents in
the browser with it, and ``tests/fixtures/docdiff`` pins both. Here: the compiles' pairing
and each pair's entry, the summary, timing and accuracy; a pair's graphs, guards and kernels
are diffed by graphs.py, guards.py and kernels.py.
"""

from __future__ import annotations

from .cache_keys import cache_key_changes
from .graphs import graphs
from .guards import guards
from .identity import (
    Data,
    as_one_file,
    compile_keys,
    document_key,
    file_id,
    frame_file,
    source_labels,
)
from .kernels import outputs

SCHEMA = "tcexplore-diff/1"
SUMMARY_KEYS = (
    "compiles_added",
    "compiles_removed",
    "compiles_changed",
    "nodes_added",
    "nodes_removed",
    "nodes_changed",
    "kernels_added",
    "kernels_removed",
    "kernels_changed",
    "guards_added",
    "guards_removed",
)


def compute(a: Data, b: Data, label_a: str, label_b: str) -> Data:
    la, lb = source_labels(a), source_labels(b)
    ca, cb = a.get("compiles") or [], b.get("compiles") or []
    entries = [_compile_entry(i, j, ca, cb, la, lb) for i, j in _pair_compiles(ca, cb, la, lb)]
    return {
        "schema": SCHEMA,
        "a": _side(a, label_a),
        "b": _side(b, label_b),
        "summary": _summary(entries),
        "compiles": entries,
        "timing": _timing(a, b),
        "accuracy": _accuracy(a, b),
    }


def _side(doc: Data, label: str) -> Data:
    environment = doc.get("environment") or {}
    return {
        "label": label,
        "key": document_key(doc),
        "created": doc.get("created"),
        "torch": environment.get("torch"),
        "summary": doc.get("summary") or {},
        "source_labels": source_labels(doc),
    }


def _summary(entries: list[Data]) -> dict[str, int]:
    summary = dict.fromkeys(SUMMARY_KEYS, 0)
    for entry in entries:
        if entry["status"] != "same":
            summary[f"compiles_{entry['status']}"] += 1
        for graph in entry["graphs"]:
            for node in graph["nodes"]:
                summary[f"nodes_{node['status']}"] += 1
        for output in entry["outputs"]:
            for kernel in output["kernels"]:
                summary[f"kernels_{kernel['status']}"] += 1
        summary["guards_added"] += len(entry["guards"]["added"])
        summary["guards_removed"] += len(entry["guards"]["removed"])
    return summary


# ---------------------------------------------------------------------------- compiles


def _pair_compiles(
    ca: list[Data], cb: list[Data], la: dict[str, str], lb: dict[str, str]
) -> list[tuple[int | None, int | None]]:
    """Exact frame and compile of it first, then without the frame's line (it moved),
    then without its file (one program kept in two scripts)."""
    keys_a = [compile_keys(c, la) for c in ca]
    keys_b = [compile_keys(c, lb) for c in cb]
    partner: dict[int, int] = {}
    taken: set[int] = set()
    for k in (0, 1, 2):
        free: dict[str, list[int]] = {}
        for j, key in enumerate(keys_b):
            if j not in taken:
                free.setdefault(key[k], []).append(j)
        for i, key in enumerate(keys_a):
            if i not in partner and free.get(key[k]):
                partner[i] = free[key[k]].pop(0)
                taken.add(partner[i])
    return [(i, partner.get(i)) for i in range(len(ca))] + [
        (None, j) for j in range(len(cb)) if j not in taken
    ]


def _compile_ref(record: Data, index: int) -> Data:
    frame = record.get("frame") or {}
    return {
        "id": record.get("id"),
        "index": index,
        "status": record.get("status"),
        "frame": {
            "function": frame.get("function"),
            "file": frame.get("file"),
            "line": frame.get("line"),
        },
    }


def _compile_entry(
    i: int | None,
    j: int | None,
    ca: list[Data],
    cb: list[Data],
    la: dict[str, str],
    lb: dict[str, str],
) -> Data:
    entry: Data = {
        "status": "",
        "a": None if i is None else _compile_ref(ca[i], i),
        "b": None if j is None else _compile_ref(cb[j], j),
        "changes": [],
        "graphs": [],
        "guards": {"added": [], "removed": []},
        "outputs": [],
    }
    if i is None or j is None:
        entry["status"] = "added" if i is None else "removed"
        return entry
    x, y = ca[i], cb[j]
    if x.get("status") != y.get("status"):
        entry["changes"].append({"field": "status", "a": x.get("status"), "b": y.get("status")})
    entry["changes"] += cache_key_changes(x, y)
    error_a, error_b = _error_type(x), _error_type(y)
    if error_a != error_b:
        entry["changes"].append({"field": "error", "a": error_a, "b": error_b})
    file_a, file_b = file_id(frame_file(x), la), file_id(frame_file(y), lb)
    if file_a != file_b:  # paired across files: say so, and compare them as one file
        entry["changes"].append({"field": "file", "a": file_a, "b": file_b})
        la, lb = as_one_file(x, la), as_one_file(y, lb)
    found, renames = graphs(x, y, la, lb)
    entry["graphs"] = [g for g in found if g["nodes"]]
    entry["guards"] = guards(x.get("guards") or [], y.get("guards") or [])
    entry["outputs"] = [o for o in outputs(x, y, renames) if o["kernels"]]
    different = (
        entry["changes"]
        or entry["graphs"]
        or entry["outputs"]
        or entry["guards"]["added"]
        or entry["guards"]["removed"]
    )
    entry["status"] = "changed" if different else "same"
    return entry


def _error_type(record: Data) -> str | None:
    error = record.get("error")
    return error.get("type") if isinstance(error, dict) else None


def _timing(a: Data, b: Data) -> Data | None:
    ta, tb = a.get("timing"), b.get("timing")
    if not isinstance(ta, dict) or not isinstance(tb, dict):
        return None

    def pick(t: Data) -> Data:
        return {
            "eager_ms": (t.get("eager") or {}).get("median_ms"),
            "compiled_ms": (t.get("compiled") or {}).get("median_ms"),
            "speedup": t.get("speedup"),
            "compile_s": t.get("compile_s"),
            "noisy": t.get("noisy") is True,
        }

    return {"a": pick(ta), "b": pick(tb)}


def _accuracy(a: Data, b: Data) -> Data | None:
    aa, ab = a.get("accuracy"), b.get("accuracy")
    if not isinstance(aa, dict) or not isinstance(ab, dict):
        return None

    def pick(acc: Data) -> Data:
        errors = [
            o.get("max_abs_err")
            for o in acc.get("outputs") or []
            if isinstance(o.get("max_abs_err"), (int, float))
        ]
        return {"ok": acc.get("ok") is True, "max_abs_err": max(errors) if errors else None}

    return {"a": pick(aa), "b": pick(ab)}
