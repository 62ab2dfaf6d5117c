"""The diff of two tcexplore documents, as a JSON-ready dict ("tcexplore-diff/1").

Compiles pair by frame and which compile of it they are in their own document (not by
torch's numbers, which count over the whole process: identity.py); within a pair, each graph (Dynamo, AOT
forward/backward/inference, post-grad per output code) is aligned node by node, guards
compare as multisets, and the kernels of each output code pair by the post-grad nodes
they fuse (through the node alignment), then by equal source, then by equal name. An
added or removed compile is one entry: its contents are not itemised.

Spelled step for step like ``extension/src/model/docdiff.ts`` (with ``diffgraphs.ts``,
``diffguards.ts`` and ``diffkernels.ts``): the JupyterLab extension diffs two documents in
the browser with it, and ``tests/fixtures/docdiff`` pins both.
"""

from __future__ import annotations

from typing import Any

from .align import matches, rows
from .cache_keys import cache_key_changes
from .identity import (
    Data,
    as_one_file,
    compile_keys,
    document_key,
    file_id,
    frame_file,
    guard_key,
    kernel_text,
    node_key,
    node_target,
    source_id,
    source_labels,
    text,
)
from .unified import unified

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
AOT_KINDS = ("forward", "backward", "inference")


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
    graphs, renames = _graphs(x, y, la, lb)
    entry["graphs"] = [g for g in graphs if g["nodes"]]
    entry["guards"] = _guards(x.get("guards") or [], y.get("guards") or [])
    entry["outputs"] = [o for o in _outputs(x, y, renames) if o["kernels"]]
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


# ---------------------------------------------------------------------------- graphs


def _output_ids(record: Data) -> list[str]:
    """Each output code as identity: its kind, and "#n" from the second of a kind on."""
    seen: dict[str, int] = {}
    ids = []
    for output in record.get("output_codes") or []:
        kind = text(output.get("kind"))
        ids.append(kind if kind not in seen else f"{kind}#{seen[kind]}")
        seen[kind] = seen.get(kind, 0) + 1
    return ids


def _post_grad_ids(record: Data) -> list[str]:
    """Each post-grad graph as identity: the output code compiled from it, else "#index"."""
    outputs, ids = record.get("output_codes") or [], _output_ids(record)
    found = []
    for index in range(len(record.get("post_grad_graphs") or [])):
        owner = next(
            (ids[n] for n, o in enumerate(outputs) if o.get("post_grad_graph") == index),
            f"#{index}",
        )
        found.append(owner if owner not in found else f"#{index}")
    return found


def _graphs_of(record: Data) -> dict[str, tuple[str, Data]]:
    """identity -> (the explorer's key for the graph, the graph)."""
    found: dict[str, tuple[str, Data]] = {}
    if isinstance(record.get("dynamo_graph"), dict):
        found["dynamo"] = ("dynamo", record["dynamo_graph"])
    aot = record.get("aot_graphs") or {}
    for kind in AOT_KINDS:
        if isinstance(aot.get(kind), dict):
            found[f"aot:{kind}"] = (f"aot:{kind}", aot[kind])
    for index, (graph, ident) in enumerate(
        zip(record.get("post_grad_graphs") or [], _post_grad_ids(record))
    ):
        found[f"post:{ident}"] = (f"post:{index}", graph)
    return found


def _graphs(
    x: Data, y: Data, la: dict[str, str], lb: dict[str, str]
) -> tuple[list[Data], dict[str, dict[str, str]]]:
    """Graph entries, and per graph identity the A-name -> B-name node alignment."""
    ga, gb = _graphs_of(x), _graphs_of(y)
    entries, renames = [], {}
    for ident in [*ga, *(k for k in gb if k not in ga)]:
        key_a, graph_a = ga.get(ident, (None, {}))
        key_b, graph_b = gb.get(ident, (None, {}))
        nodes, rename, approximate = _nodes(
            graph_a.get("nodes") or [], graph_b.get("nodes") or [], la, lb
        )
        renames[ident] = rename
        entries.append(
            {"graph": ident, "a": key_a, "b": key_b, "approximate": approximate, "nodes": nodes}
        )
    return entries, renames


def _node_view(node: Data) -> Data:
    meta = node.get("meta") if isinstance(node.get("meta"), dict) else {}
    source = node.get("source")
    return {
        "name": node.get("name"),
        "op": node.get("op"),
        "target": node.get("target"),
        "args": list(node.get("args") or []),
        "shape": meta.get("shape") if isinstance(meta.get("shape"), list) else None,
        "dtype": meta.get("dtype") if isinstance(meta.get("dtype"), str) else None,
        "source": {
            "file": source.get("file"),
            "line": source.get("line"),
            "function": source.get("function"),
            "code": source.get("code"),
        }
        if isinstance(source, dict)
        else None,
    }


def _node_changes(
    x: Data, y: Data, rename: dict[str, str], la: dict[str, str], lb: dict[str, str]
) -> list[str]:
    vx, vy = _node_view(x), _node_view(y)
    changes = ["target"] if node_target(x) != node_target(y) else []
    changes += [field for field in ("shape", "dtype") if vx[field] != vy[field]]
    if source_id(x.get("source"), la) != source_id(y.get("source"), lb):
        changes.append("source")
    if [rename.get(arg) for arg in vx["args"]] != vy["args"]:
        changes.append("inputs")
    return changes


def _nodes(
    na: list[Data], nb: list[Data], la: dict[str, str], lb: dict[str, str]
) -> tuple[list[Data], dict[str, str], bool]:
    found, approximate = matches([node_key(n, la) for n in na], [node_key(n, lb) for n in nb])
    aligned = rows(len(na), len(nb), found, lambda i, j: na[i].get("op") == nb[j].get("op"))
    rename = {
        text(na[i].get("name")): text(nb[j].get("name"))
        for i, j in aligned
        if i is not None and j is not None
    }
    entries = []
    for i, j in aligned:
        if i is None or j is None:
            entries.append(
                {
                    "status": "added" if i is None else "removed",
                    "a": None if i is None else _node_view(na[i]),
                    "b": None if j is None else _node_view(nb[j]),
                    "changes": [],
                }
            )
            continue
        changes = _node_changes(na[i], nb[j], rename, la, lb)
        if changes:
            entries.append(
                {
                    "status": "changed",
                    "a": _node_view(na[i]),
                    "b": _node_view(nb[j]),
                    "changes": changes,
                }
            )
    return entries, rename, approximate


# ---------------------------------------------------------------------------- guards


def _guard_view(guard: Data) -> Data:
    return {
        "type": guard.get("type"),
        "source": guard.get("source"),
        "expression": guard.get("expression"),
        "user_code": guard.get("user_code"),
    }


def _only_in(mine: list[Data], theirs: list[Data]) -> list[Data]:
    """Guards of ``mine`` that ``theirs`` lacks, counting repeats."""
    counts: dict[str, int] = {}
    for guard in theirs:
        key = guard_key(guard)
        counts[key] = counts.get(key, 0) + 1
    left = []
    for guard in mine:
        key = guard_key(guard)
        if counts.get(key, 0) > 0:
            counts[key] -= 1
        else:
            left.append(_guard_view(guard))
    return left


def _guards(ga: list[Data], gb: list[Data]) -> Data:
    return {"added": _only_in(gb, ga), "removed": _only_in(ga, gb)}


# ---------------------------------------------------------------------------- kernels


def _outputs(x: Data, y: Data, renames: dict[str, dict[str, str]]) -> list[Data]:
    oa, ob = x.get("output_codes") or [], y.get("output_codes") or []
    ids_a, ids_b = _output_ids(x), _output_ids(y)
    post_a = _post_grad_ids(x)
    entries = []
    for ident in [*ids_a, *(k for k in ids_b if k not in ids_a)]:
        ia = ids_a.index(ident) if ident in ids_a else None
        ib = ids_b.index(ident) if ident in ids_b else None
        ka = oa[ia].get("kernels") or [] if ia is not None else []
        kb = ob[ib].get("kernels") or [] if ib is not None else []
        graph = oa[ia].get("post_grad_graph") if ia is not None else None
        rename = (
            renames.get(f"post:{post_a[graph]}", {})
            if isinstance(graph, int) and 0 <= graph < len(post_a)
            else {}
        )
        kernels = [
            _kernel_entry(None if i is None else ka[i], None if j is None else kb[j], rename)
            for i, j in _pair_kernels(ka, kb, rename)
        ]
        entries.append(
            {"output": ident, "a": ia, "b": ib, "kernels": [k for k in kernels if k is not None]}
        )
    return entries


def _pair_kernels(
    ka: list[Data], kb: list[Data], rename: dict[str, str]
) -> list[tuple[int | None, int | None]]:
    """Most shared fused nodes first, then equal source, then equal name; same kind only."""
    partner: dict[int, int] = {}
    taken: set[int] = set()
    for i, kernel in enumerate(ka):
        mine = {rename[n] for n in kernel.get("post_grad_nodes") or [] if n in rename}
        best, best_shared = None, 0
        for j, other in enumerate(kb):
            if j in taken or other.get("kind") != kernel.get("kind"):
                continue
            shared = sum(1 for n in other.get("post_grad_nodes") or [] if n in mine)
            if shared > best_shared:
                best, best_shared = j, shared
        if best is not None:
            partner[i] = best
            taken.add(best)
    for same in (
        lambda p, q: kernel_text(p, rename) == kernel_text(q),
        lambda p, q: p.get("name") == q.get("name"),
    ):
        for i, kernel in enumerate(ka):
            if i in partner:
                continue
            for j, other in enumerate(kb):
                if (
                    j not in taken
                    and other.get("kind") == kernel.get("kind")
                    and same(kernel, other)
                ):
                    partner[i] = j
                    taken.add(j)
                    break
    return [(i, partner.get(i)) for i in range(len(ka))] + [
        (None, j) for j in range(len(kb)) if j not in taken
    ]


def _fused(x: Data, y: Data, rename: dict[str, str]) -> list[Data]:
    """The fused post-grad nodes of both, paired through the node alignment."""
    theirs = set(y.get("post_grad_nodes") or [])
    used: set[str] = set()
    out = []
    for name in x.get("post_grad_nodes") or []:
        partner = rename.get(name)
        if partner is not None and partner in theirs:
            used.add(partner)
            out.append({"a": name, "b": partner})
        else:
            out.append({"a": name, "b": None})
    out += [{"a": None, "b": name} for name in y.get("post_grad_nodes") or [] if name not in used]
    return out


def _kernel_entry(x: Data | None, y: Data | None, rename: dict[str, str]) -> Data | None:
    text_a = kernel_text(x, rename) if x is not None else ""
    text_b = kernel_text(y) if y is not None else ""
    if x is not None and y is not None:
        fused = _fused(x, y, rename)
        if text_a == text_b and all(f["a"] is not None and f["b"] is not None for f in fused):
            return None
        status = "changed"
    else:
        status = "added" if x is None else "removed"
        fused = _fused(x or {}, y or {}, rename)
    source_a = text(x.get("source")) if x is not None else ""
    source_b = text(y.get("source")) if y is not None else ""
    diff = (
        ""
        if text_a == text_b
        else unified(
            source_a.split("\n") if x is not None else [],
            source_b.split("\n") if y is not None else [],
            text_a.split("\n") if x is not None else [],
            text_b.split("\n") if y is not None else [],
            text(x.get("name")) if x is not None else "/dev/null",
            text(y.get("name")) if y is not None else "/dev/null",
        )
    )
    return {
        "status": status,
        "a": None if x is None else {"name": x.get("name"), "kind": x.get("kind")},
        "b": None if y is None else {"name": y.get("name"), "kind": y.get("kind")},
        "source_diff": diff,
        "fused_nodes": fused,
    }


# ---------------------------------------------------------------------------- measurements


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


def any_difference(summary: dict[str, Any]) -> bool:
    return any(summary.get(k) for k in SUMMARY_KEYS)
