"""torch's op registry: an op's overload and schema (views, side effects), every op the
dispatcher knows, where a custom op was registered, the ops a call runs."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .lookup import TorchCompatError, resolve, torch_module

if TYPE_CHECKING:
    import torch


def op_overload(target: str) -> Any:
    """``torch.ops.aten.exp.default`` -> the OpOverload, or None for anything else."""
    import torch  # imported lazily: see the package docstring

    prefix = "torch.ops."
    if not target.startswith(prefix):
        return None
    parts = target[len(prefix) :].split(".")
    if len(parts) != 3:
        return None
    namespace, name, overload = parts
    try:
        return getattr(getattr(getattr(torch.ops, namespace), name), overload)
    except (AttributeError, RuntimeError):
        return None


@functools.cache
def is_view_op(target: str) -> bool:
    """Whether an ATen target like ``torch.ops.aten.permute.default`` only aliases its input.

    Inductor lowers views to pointer arithmetic (``reinterpret_tensor``), so no kernel
    contains them; they must not be counted as unmapped compute.
    """
    op = op_overload(target)
    if op is None:
        return False
    returns = op._schema.returns
    return bool(returns) and all(
        r.alias_info is not None and not r.alias_info.is_write for r in returns
    )


@functools.cache
def has_side_effects(target: str) -> bool:
    """Whether a post-grad node calling ``target`` must run even when its value is unused:
    an op that mutates (schema) or that FX keeps as side-effectful (asserts, profiler
    ranges...). Anything that is not a plain ATen-style op (higher-order ops, Python
    functions) counts as having side effects, except ``operator.getitem``."""
    if target == "operator.getitem":
        return False
    op = op_overload(target)
    if op is None:
        return True
    side_effectful = resolve("torch.fx.node._side_effectful_functions")
    return op in side_effectful or op._schema.is_mutable


# Modules that register ops compiled graphs call (collectives, Inductor's own ops) when
# imported; the op table is made with them loaded.
_OP_REGISTERING_MODULES = ("torch._inductor.lowering", "torch.distributed._functional_collectives")


def registered_ops() -> list[str]:
    """Every op torch's dispatcher knows, as ``namespace.name.overload`` (``aten.add.Tensor``,
    ``aten.relu.default``), with the modules that register compile-time ops loaded."""
    for name in _OP_REGISTERING_MODULES:
        torch_module(name)
    ops = []
    for qualified in resolve("torch._C._dispatch_get_all_op_names")():
        namespace, _, name = qualified.partition("::")
        op, _, overload = name.partition(".")
        ops.append(f"{namespace}.{op}.{overload or 'default'}")
    return sorted(ops)


def custom_op_origin(qualname: str) -> dict[str, Any] | None:
    """Where the op ``ns::name`` was registered, as far as torch records it: the Python
    function of a ``torch.library.custom_op`` (its module, file and source), else the file
    ``torch._C._dispatch_dump`` names for its schema (a ``Library.define``) and the loaded
    module of that file. None when torch does not know the op (a log read later)."""
    import inspect
    import re

    import torch

    opdef = resolve("torch._library.custom_ops.OPDEFS").get(qualname)
    if opdef is not None:
        fn = getattr(opdef, "_init_fn", None)
        if fn is None:
            raise TorchCompatError(f"torch {torch.__version__}: CustomOpDef has no `_init_fn`")
        try:
            file = inspect.getsourcefile(fn)
        except TypeError:
            file = None
        return {"module": getattr(fn, "__module__", None), "file": file, "function": fn}
    try:
        dump = torch._C._dispatch_dump(qualname)
    except RuntimeError:
        return None
    if not dump.strip():
        return None
    match = re.search(r"^debug: registered at (.+):\d+$", dump, re.MULTILINE)
    file = match[1] if match else None
    module = next(
        (
            name
            for name, mod in list(sys.modules.items())
            if file and getattr(mod, "__file__", None) == file
        ),
        None,
    )
    return {"module": module, "file": file, "function": None}


def aten_ops_called(call: Any, tensors: list[torch.Tensor]) -> list[Any]:
    """The ATen/prims operator overloads ``call(*tensors)`` runs, traced by make_fx
    (on the real tensors: ``call`` runs once)."""
    make_fx = resolve("torch.fx.experimental.proxy_tensor.make_fx")
    traced = make_fx(call)(*tensors)
    return [
        node.target
        for node in traced.graph.nodes
        if node.op == "call_function" and hasattr(node.target, "tags")
    ]


def probes() -> tuple[Callable[[], Any], ...]:
    """What check() resolves for the op registry."""
    import torch

    return (
        lambda: torch.ops.aten.permute.default._schema.returns[0].alias_info,
        lambda: resolve("torch.fx.node._side_effectful_functions"),
        registered_ops,
        lambda: aten_ops_called(lambda t: t.exp(), [torch.zeros(1)]),
    )
