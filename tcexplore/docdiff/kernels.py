"""The kernel diff of two paired compiles: output codes paired by id, their kernels by the
post-grad nodes they fuse (through the graph diff's renaming), then by normalised text, then
by name; each changed pair's unified source diff and fused-node pairs. As
``extension/src/model/diffkernels.ts``."""

from __future__ import annotations

from .graphs import output_ids, post_grad_ids
from .identity import Data, kernel_text, text
from .unified import unified


def outputs(x: Data, y: Data, renames: dict[str, dict[str, str]]) -> list[Data]:
    """Per output code of either, paired by id, the kernels that differ."""
    oa, ob = x.get("output_codes") or [], y.get("output_codes") or []
    ids_a, ids_b = output_ids(x), output_ids(y)
    post_a = post_grad_ids(x)
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
