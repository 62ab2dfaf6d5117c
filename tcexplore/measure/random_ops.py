"""Random ops as a cause of differing outputs.

torch tags every operator that draws from the random number generator with
``torch.Tag.nondeterministic_seeded`` (randn, rand, randint, randperm, normal, bernoulli,
dropout, multinomial, uniform_, exponential_...). Inductor generates its own random
numbers inside its kernels unless ``fallback_random`` is set, so eager and compiled
outputs of such ops differ by design: a divergence found at one is reported as
``cause: "random"``, not as a compiler error. When no node was found, random ops in the
captured graphs are named as a possible cause (``"random_in_graph"``).
"""

from __future__ import annotations

from typing import Any

import torch
import torch.fx

from .. import _torch_compat


def is_random(op: Any) -> bool:
    return torch.Tag.nondeterministic_seeded in getattr(op, "tags", ())


def node_random_ops(
    gm: torch.fx.GraphModule, node: torch.fx.Node, values: dict[str, Any]
) -> list[str]:
    """The random operators a Dynamo graph node runs (``aten.randn.default``), traced
    down to ATen on the values its inputs had; [] when it cannot be traced."""
    args, kwargs = torch.fx.node.map_arg((node.args, node.kwargs), lambda n: values[n.name])
    positions = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
    kw_names = [k for k, v in kwargs.items() if isinstance(v, torch.Tensor)]

    def call(*tensors: torch.Tensor) -> Any:
        call_args, call_kwargs = list(args), dict(kwargs)
        for i, t in zip(positions, tensors):
            call_args[i] = t
        for k, t in zip(kw_names, tensors[len(positions) :]):
            call_kwargs[k] = t
        if node.op == "call_method":
            return getattr(call_args[0], node.target)(*call_args[1:], **call_kwargs)
        if node.op == "call_module":
            return gm.get_submodule(node.target)(*call_args, **call_kwargs)
        return node.target(*call_args, **call_kwargs)

    if node.op not in ("call_function", "call_method", "call_module"):
        return []
    tensors = [args[i].clone() for i in positions] + [kwargs[k].clone() for k in kw_names]
    try:
        ops = _torch_compat.aten_ops_called(call, tensors)
    except Exception:  # noqa: BLE001 - a node make_fx cannot trace is not called random
        return []
    return list(dict.fromkeys(str(op) for op in ops if is_random(op)))


def document_random_ops(document: dict[str, Any]) -> list[str]:
    """Random operators in the captured AOT and post-grad graphs of a document."""
    found = []
    for record in document["compiles"]:
        graphs = [*record["aot_graphs"].values(), *record["post_grad_graphs"]]
        for graph in graphs:
            for node in graph.get("nodes", []):
                target = str(node.get("target") or "")
                if is_random(_torch_compat.op_overload(target)):
                    found.append(target.removeprefix("torch.ops."))
    return list(dict.fromkeys(found))


def explain_mismatch(
    accuracy: dict[str, Any], document: dict[str, Any], fallback_random_option: str | None
) -> None:
    """Add ``cause`` and ``random_ops`` to a failed accuracy record when random ops explain
    it, and the spelling of the ``fallback_random`` option for how it was run (None where
    the backend is not Inductor, which alone has that option)."""
    if accuracy["ok"]:
        return
    found = accuracy.get("first_divergence")
    if found:
        if found.get("random_ops"):
            accuracy.update(cause="random", random_ops=found["random_ops"])
    else:
        ops = document_random_ops(document)
        if ops:
            accuracy.update(cause="random_in_graph", random_ops=ops)
    if accuracy.get("cause"):
        accuracy["fallback_random_option"] = fallback_random_option
