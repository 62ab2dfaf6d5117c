"""First divergence: the earliest node of the captured graph whose compiled value differs.

As torch's accuracy minifier does: record the FX graphs Dynamo captures (a recording
backend that runs them eagerly), run each graph node by node in eager (``fx.Interpreter``)
for reference values, then compile *prefixes* of the graph with the user's own
``torch.compile`` settings and compare every value live at the cut. A binary search over
the cut finds the first node whose compiled value is out of tolerance. Works for any
backend, a user's backend callable included, because the prefixes go through the same
``torch.compile`` call the user made. Each graph's reference and every compiled prefix
start from the random-number state the graph met in the recorded run, so random ops
compare fairly (and the node found says which random operators it runs).

For a training step whose outputs agree but whose gradients differ, the same search runs
backward through each prefix (fixed cotangents on every live output) and compares the
gradients of the graph's inputs, parameters included: the first node whose compiled
backward diverges (``"of": "gradients"``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

import torch
import torch.fx

from .. import _torch_compat
from .cloned_inputs import clone_tensors, rng_snapshot
from .output_diff import diff_leaf
from .random_ops import node_random_ops
from .unheard import no_warnings

_STACK_LINE = re.compile(
    r'File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<fn>\S+)\n\s*(?P<code>[^\n]*)'
)


class _Recorder:
    """A backend that keeps each graph Dynamo hands it, with the inputs, the RNG state and
    the grad mode of its first call (an optimizer step's graph runs under no_grad)."""

    def __init__(self, cuda: bool) -> None:
        self.graphs: list[dict[str, Any]] = []
        self.cuda = cuda

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: list[Any]) -> Callable:
        entry: dict[str, Any] = {
            "gm": gm,
            "inputs": None,
            "rewind": None,
            "requires_grad": None,
            "grad_enabled": True,
        }
        self.graphs.append(entry)

        def run(*args: Any) -> Any:
            if entry["inputs"] is None:
                entry["inputs"] = clone_tensors(list(args))
                entry["requires_grad"] = [
                    isinstance(a, torch.Tensor) and a.requires_grad for a in args
                ]
                entry["rewind"] = rng_snapshot(self.cuda)
                entry["grad_enabled"] = torch.is_grad_enabled()
            return gm(*args)

        return run


class _ValueRecorder(torch.fx.Interpreter):
    def __init__(self, gm: torch.fx.GraphModule):
        super().__init__(gm)
        self.values: dict[str, Any] = {}

    def run_node(self, node: torch.fx.Node) -> Any:
        value = super().run_node(node)
        self.values[node.name] = clone_tensors(value)
        return value


def _prefix_module(
    gm: torch.fx.GraphModule, cut: int, values: dict[str, Any]
) -> tuple[torch.fx.GraphModule, list[str]]:
    """The graph up to and including node ``cut``, returning every tensor live after it."""
    nodes = [n for n in gm.graph.nodes if n.op != "output"]
    keep = nodes[: cut + 1]
    kept = set(keep)
    graph = torch.fx.Graph()
    env: dict[torch.fx.Node, torch.fx.Node] = {}
    for node in nodes:
        if node in kept or node.op == "placeholder":
            env[node] = graph.node_copy(node, lambda n: env[n])
    live = [
        n.name
        for n in keep
        if n.op != "placeholder"
        and isinstance(values.get(n.name), torch.Tensor)
        and (n is keep[-1] or any(u not in kept for u in n.users))
    ]
    by_name = {n.name: env[n] for n in keep}
    graph.output(tuple(by_name[name] for name in live))
    return torch.fx.GraphModule(gm, graph), live


def _diverges(
    gm: torch.fx.GraphModule,
    cut: int,
    inputs: list[Any],
    values: dict[str, Any],
    compile_fn: Callable[[Callable], Callable],
    rewind: Callable[[], None],
) -> dict[str, Any] | None:
    prefix, live = _prefix_module(gm, cut, values)
    if not live:
        return None
    compiled = compile_fn(prefix)
    compiled(*clone_tensors(inputs))  # compiles: compiling may draw random numbers too
    rewind()
    outputs = compiled(*clone_tensors(inputs))
    worst = None
    for name, value in zip(live, outputs):
        result = diff_leaf(values[name], value)
        if not result["ok"] and (
            worst is None or (result.get("max_abs_err") or 0) > (worst["max_abs_err"] or 0)
        ):
            worst = {
                "node": name,
                **{k: result.get(k) for k in ("max_abs_err", "max_rel_err", "mismatched")},
            }
    return worst


def _input_gradients(
    module: Callable, inputs: list[Any], requires_grad: list[bool], rewind: Callable[[], None]
) -> list[torch.Tensor | None] | None:
    """The gradients of the inputs that require them, backward from every live output with
    fixed cotangents (seeded, the same for eager and compiled); None when no output
    requires a gradient."""
    leaves = [
        t.detach().clone().requires_grad_(wants) if isinstance(t, torch.Tensor) else t
        for t, wants in zip(inputs, requires_grad)
    ]
    rewind()
    with torch.enable_grad():
        outputs = [o for o in module(*leaves) if isinstance(o, torch.Tensor) and o.requires_grad]
        if not outputs:
            return None
        cotangents = [
            torch.randn(
                o.shape,
                dtype=o.dtype,
                device=o.device,
                generator=torch.Generator(o.device).manual_seed(i),
            )
            for i, o in enumerate(outputs)
        ]
        wanted = [t for t, wants in zip(leaves, requires_grad) if wants]
        return list(torch.autograd.grad(outputs, wanted, cotangents, allow_unused=True))


def _gradients_diverge(
    gm: torch.fx.GraphModule,
    cut: int,
    inputs: list[Any],
    values: dict[str, Any],
    compile_fn: Callable[[Callable], Callable],
    rewind: Callable[[], None],
    *,
    requires_grad: list[bool],
) -> dict[str, Any] | None:
    """As ``_diverges``, for the gradients of the graph's inputs through the prefix; the
    worst names the input (a placeholder: a parameter, a buffer, an argument)."""
    prefix, live = _prefix_module(gm, cut, values)
    if not live:
        return None
    expected = _input_gradients(prefix, inputs, requires_grad, rewind)
    if expected is None:
        return None
    compiled = compile_fn(prefix)
    _input_gradients(compiled, inputs, requires_grad, rewind)  # compiles
    actual = _input_gradients(compiled, inputs, requires_grad, rewind)
    names = [
        n.name
        for n, wants in zip((n for n in gm.graph.nodes if n.op == "placeholder"), requires_grad)
        if wants
    ]
    worst = None
    for name, e, a in zip(names, expected, actual or []):
        if e is None and a is None:
            continue
        result = diff_leaf(e, a)
        if not result["ok"] and (
            worst is None or (result.get("max_abs_err") or 0) > (worst["max_abs_err"] or 0)
        ):
            worst = {
                "node": name,
                "input": name,
                **{k: result.get(k) for k in ("max_abs_err", "max_rel_err", "mismatched")},
            }
    return worst


def _source_from_meta(node: torch.fx.Node) -> dict[str, Any] | None:
    matches = list(_STACK_LINE.finditer(node.meta.get("stack_trace") or ""))
    if not matches:
        return None
    m = matches[-1]
    return {"file": m["file"], "line": int(m["line"]), "function": m["fn"], "code": m["code"]}


def _kernels_of(document: dict[str, Any], node_name: str) -> list[str]:
    """Kernels that torch's provenance (or its launch comments) tie to a Dynamo graph node."""
    found = []
    for record in document["compiles"]:
        for output in record["output_codes"]:
            pre_to_post = (output.get("provenance") or {}).get("preToPost", {})
            post_nodes = set(pre_to_post.get(node_name, []))
            for kernel in output["kernels"]:
                if (
                    post_nodes & set(kernel["post_grad_nodes"])
                    or node_name in kernel["source_nodes"]
                ):
                    found.append(kernel["name"])
    return list(dict.fromkeys(found))


def _graph_node(document: dict[str, Any], node_name: str) -> dict[str, Any]:
    """The captured Dynamo graph node of this name (its readable target and user line),
    one with a user line first; {} when none is named so."""
    named = [
        node
        for record in document["compiles"]
        for node in (record["dynamo_graph"] or {}).get("nodes", [])
        if node["name"] == node_name
    ]
    return next((node for node in named if node.get("source")), named[0] if named else {})


def find_first_divergence(
    fn: Callable,
    args: tuple,
    kwargs: dict[str, Any],
    compile_kwargs: dict[str, Any],
    document: dict[str, Any],
    gradients: bool = False,
) -> dict[str, Any] | None:
    """The first diverging node of the first diverging graph, or None if all graphs agree;
    ``gradients``: where a graph's outputs agree, its input gradients are searched too.
    The random-number state is left as it was found."""
    cuda = torch.cuda.is_available() and torch.cuda.is_initialized()
    leave_rng_as_found = rng_snapshot(cuda)
    try:
        with no_warnings():  # the search's runs and compiles are tcexplore's, not the user's
            return _search(fn, args, kwargs, compile_kwargs, document, cuda, gradients)
    finally:
        leave_rng_as_found()


def _search(
    fn: Callable,
    args: tuple,
    kwargs: dict[str, Any],
    compile_kwargs: dict[str, Any],
    document: dict[str, Any],
    cuda: bool,
    gradients: bool,
) -> dict[str, Any] | None:
    recorder = _Recorder(cuda)
    record_kwargs = {k: v for k, v in compile_kwargs.items() if k in ("dynamic", "fullgraph")}
    # The search's own compiles (of the user's frames too) are kept apart from every other:
    # the user's later compiles never meet them as cache entries (no BACKEND_MATCH recompile
    # naming the recorder), and the user's own entries never serve them.
    _torch_compat.isolated_compile(fn, {"backend": recorder, **record_kwargs})(
        *clone_tensors(args), **clone_tensors(kwargs)
    )

    def compile_fn(module: Callable) -> Callable:
        return _torch_compat.isolated_compile(module, compile_kwargs)

    probes = 0
    for index, entry in enumerate(recorder.graphs):
        gm, inputs, rewind = entry["gm"], entry["inputs"], entry["rewind"]
        if inputs is None:
            continue
        with torch.set_grad_enabled(entry["grad_enabled"]):  # as the graph ran
            interpreter = _ValueRecorder(gm)
            rewind()
            interpreter.run(*clone_tensors(inputs))
            values = interpreter.values
            nodes = [n for n in gm.graph.nodes if n.op != "output"]
            last = len(nodes) - 1
            probes += 1
            diverges = partial(_diverges, gm)
            if _diverges(gm, last, inputs, values, compile_fn, rewind) is None:
                if not (gradients and entry["grad_enabled"] and any(entry["requires_grad"])):
                    continue
                diverges = partial(_gradients_diverge, gm, requires_grad=entry["requires_grad"])
                probes += 1
                if diverges(last, inputs, values, compile_fn, rewind) is None:
                    continue
            low, high = 0, last  # invariant: the cut at `high` diverges
            while low < high:
                mid = (low + high) // 2
                probes += 1
                if diverges(mid, inputs, values, compile_fn, rewind) is not None:
                    high = mid
                else:
                    low = mid + 1
            worst = diverges(high, inputs, values, compile_fn, rewind)
            node = nodes[high]
            captured = _graph_node(document, node.name)
            return {
                "of": "gradients" if diverges.func is _gradients_diverge else "outputs",
                **({"gradient_of": worst["input"]} if worst and "input" in worst else {}),
                "graph_index": index,
                "node": node.name,
                "op": node.op,
                "target": captured.get("target") or str(node.target),
                "source": captured.get("source") or _source_from_meta(node),
                "kernels": _kernels_of(document, node.name),
                "max_abs_err": worst["max_abs_err"] if worst else None,
                "max_rel_err": worst["max_rel_err"] if worst else None,
                "probes": probes + 1,
                "random_ops": node_random_ops(gm, node, values),
            }
    return None
