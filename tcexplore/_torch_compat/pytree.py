"""torch's pytree: leaves with their key paths, tensors mapped, one node's children."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .lookup import torch_module


def tree_flatten_with_paths(tree: Any) -> tuple[list[tuple[str, Any]], Any]:
    """Leaves of a pytree with their key paths as text (``[0]['logits']``), and the spec."""
    pytree = torch_module("torch.utils._pytree")
    with_path, spec = pytree.tree_flatten_with_path(tree)
    return [(pytree.keystr(path), leaf) for path, leaf in with_path], spec


def tree_map_tensors(fn: Any, tree: Any) -> Any:
    """Apply ``fn`` to every tensor leaf of a pytree."""
    import torch  # imported lazily: see the package docstring

    return torch_module("torch.utils._pytree").tree_map_only(torch.Tensor, fn, tree)


def pytree_children(tree: Any) -> list[tuple[str, Any, Any]] | None:
    """One level of a node of torch's pytree: ``(kind, key, child)`` per child, ``kind``
    one of "index", "key", "attr" (how the child is reached), or "other" (``key`` is then
    torch's text for it); None when pytree treats ``tree`` as a leaf (an unregistered type)."""
    pytree = torch_module("torch.utils._pytree")
    if pytree.tree_is_leaf(tree):
        return None
    try:
        with_path, _ = pytree.tree_flatten_with_path(tree, is_leaf=lambda x: x is not tree)
    except ValueError:  # registered without a flatten_with_keys_fn: children by position
        return [
            ("index", i, child)
            for i, child in enumerate(pytree.tree_leaves(tree, is_leaf=lambda x: x is not tree))
        ]
    children = []
    for (entry, *_), child in with_path:
        if isinstance(entry, pytree.SequenceKey):
            children.append(("index", entry.idx, child))
        elif isinstance(entry, pytree.MappingKey):
            children.append(("key", entry.key, child))
        elif isinstance(entry, pytree.GetAttrKey):
            children.append(("attr", entry.name, child))
        else:
            children.append(("other", pytree.keystr((entry,)), child))
    return children


def probes() -> tuple[Callable[[], Any], ...]:
    """What check() resolves for the pytree helpers."""
    import torch

    return (
        lambda: tree_flatten_with_paths({"a": [torch.zeros(1)]}),
        lambda: tree_map_tensors(lambda t: t, (torch.zeros(1),)),
        lambda: pytree_children({"a": [torch.zeros(1)]}),
    )
