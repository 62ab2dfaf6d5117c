"""Measuring without touching: the state user code can reach, saved and put back in place.

Measurements run the user's function many times (timing loops, the accuracy runs, the
divergence search, the profile, a cell's eager re-run). A training step changes what it
touches each time: gradients accumulate, BatchNorm's running statistics move, an optimizer
steps. :func:`untouched` saves everything the function can reach and puts it back on exit,
error and KeyboardInterrupt included:

- reached: the function itself when it is a module, the module of a bound method, and the
  modules, optimizers and tensors its code names as globals or closure variables (also
  in lists, tuples and dicts, and through the Python functions and ``functools.partial``
  objects it names, a few levels deep), plus the arguments;
- saved: every parameter, its ``.grad``, every buffer (BatchNorm's running stats and
  ``num_batches_tracked``), each module's ``training`` flag and which tensors it holds,
  each optimizer's per-parameter state and its groups' settings, tensor arguments and
  their ``.grad``, and the RNG (CPU, CUDA where in use, Python's ``random``, NumPy's);
- put back in place (``copy_``), so the same tensor objects hold the old values and
  compiled graphs' guards on them still hold;
- optimizer state a step made since (lazily, on its first step) is removed, its objects
  kept aside: ``restore(keep_made=True)`` puts those objects back for the runs that follow
  a compiled step, whose code guards on their identity, as a loop's next step finds them.

What cannot be put back is said in :meth:`Snapshot.report`, never silently.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import random
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

import torch

from .. import _torch_compat
from .cloned_inputs import in_cudagraph_pool, rng_snapshot

# Said of every snapshot: what restoring in place cannot undo, and what is out of reach.
ALWAYS_NOT_RESTORABLE = (
    (
        "tensor version counters: restoring in place counts as a write (an autograd graph built "
        "before the measurement that saved these tensors can no longer run backward)"
    ),
    (
        "effects outside the tensors reached: files written, output printed, Python objects other "
        "than modules, optimizers and tensors (e.g. an LR scheduler's counters, a list the "
        "function appends to)"
    ),
)
FUNCTION_DEPTH = 3  # how deep Python functions named by the function are followed


def _tensor_leaves(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple, dict)):
        leaves, _ = _torch_compat.tree_flatten_with_paths(value)
        return [leaf for _, leaf in leaves]
    return [value]


def _is_state(value: Any) -> bool:
    return isinstance(value, (torch.nn.Module, torch.optim.Optimizer, torch.Tensor))


def _code_names(code: types.CodeType) -> set[str]:
    """Global names a code object (and the functions and comprehensions it defines) loads."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def bound_arguments(fn: Any, args: tuple, kwargs: dict[str, Any]) -> list[tuple[str, Any]]:
    """(name, value) of each argument of a call of ``fn`` (a module: its ``forward``), named
    by the parameter it binds (``x``; a ``*args``'s third ``args[2]``); by its place
    (``args[0]``, ``kwargs['scale']``) where the signature cannot be read or bind them."""
    fn = fn.forward if isinstance(fn, torch.nn.Module) else fn
    fn = _torch_compat.compiled_from(fn)
    try:
        bound = inspect.signature(fn).bind_partial(*args, **kwargs)
    except (TypeError, ValueError):
        return [
            *((f"args[{i}]", a) for i, a in enumerate(args)),
            *((f"kwargs[{k!r}]", a) for k, a in kwargs.items()),
        ]
    named = []
    for name, value in bound.arguments.items():
        kind = bound.signature.parameters[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            named += [(f"{name}[{i}]", v) for i, v in enumerate(value)]
        elif kind is inspect.Parameter.VAR_KEYWORD:
            named += [(f"{name}[{k!r}]", v) for k, v in value.items()]
        else:
            named.append((name, value))
    return named


def reachable(fn: Callable, args: tuple, kwargs: dict[str, Any]) -> list[tuple[str, Any]]:
    """(name, object) of every module, optimizer and tensor ``fn`` can reach, as named in
    the user's code (``model``, ``self``, ``x``); each object once."""
    found: list[tuple[str, Any]] = []
    seen: set[int] = set()

    def add(name: str, value: Any) -> None:
        for i, leaf in enumerate(_tensor_leaves(value)):
            if _is_state(leaf) and id(leaf) not in seen:
                seen.add(id(leaf))
                found.append((name if leaf is value else f"{name}[{i}]", leaf))

    def follow(function: Any, depth: int) -> None:
        function = _torch_compat.compiled_from(function)
        if isinstance(function, functools.partial):
            for name, arg in bound_arguments(function.func, function.args, function.keywords):
                add(name, arg)
            function = function.func
        if isinstance(function, types.MethodType):
            add("self", function.__self__)
            function = function.__func__
        if not isinstance(function, types.FunctionType) or id(function) in seen:
            return
        seen.add(id(function))
        code = function.__code__
        for name, cell in zip(code.co_freevars, function.__closure__ or ()):
            with contextlib.suppress(ValueError):  # an empty cell
                visit(name, cell.cell_contents, depth)
        for name in sorted(_code_names(code)):
            if name in function.__globals__:
                visit(name, function.__globals__[name], depth)

    def visit(name: str, value: Any, depth: int) -> None:
        if isinstance(value, (types.FunctionType, types.MethodType, functools.partial)):
            if depth < FUNCTION_DEPTH:
                follow(value, depth + 1)
        else:
            add(name, value)

    if isinstance(fn, torch.nn.Module):
        add(type(fn).__name__, fn)
    follow(fn, 0)
    for name, arg in bound_arguments(fn, args, kwargs):
        add(name, arg)
    return found


def _grad(tensor: torch.Tensor) -> torch.Tensor | None:
    """``tensor.grad`` where autograd keeps one: reading it on any other tensor (a loss a
    step computed) only makes torch warn, in the user's output, and is always None."""
    return tensor.grad if tensor.is_leaf or tensor.retains_grad else None


class _SavedTensor:
    """A tensor's values and its ``.grad`` (the same grad object is put back, unless it is
    CUDA-graph memory, which the measuring replays write over: then a copy of it)."""

    def __init__(self, tensor: torch.Tensor, pool: frozenset[int] = frozenset()):
        self.tensor = tensor
        self.values = tensor.detach().clone()
        self.grad = _grad(tensor)
        self.grad_values = self.grad.detach().clone() if self.grad is not None else None
        self.grad_in_pool = self.grad is not None and in_cudagraph_pool(self.grad, pool)

    def restore(self, problems: list[str], name: str) -> None:
        tensor = self.tensor
        if tensor.shape != self.values.shape:
            problems.append(
                f"{name}: its shape changed from {list(self.values.shape)} to "
                f"{list(tensor.shape)}; left as the function made it"
            )
            return
        with torch.inference_mode() if tensor.is_inference() else torch.no_grad():
            tensor.copy_(self.values)
        if self.grad_in_pool:  # put back once as a copy, then as that copy
            self.grad = self.grad_values.to(tensor.device, copy=True)
            self.grad_in_pool = False
        elif self.grad is not None:
            with torch.no_grad():
                self.grad.copy_(self.grad_values)
        if _grad(tensor) is not self.grad:
            tensor.grad = self.grad

    def on_host(self) -> None:
        self.values = self.values.cpu()
        if self.grad_values is not None:
            self.grad_values = self.grad_values.cpu()

    def unchanged(self, now: torch.Tensor) -> bool:
        """``now`` is this tensor, holding its saved values."""
        values = self.values
        return now is self.tensor and now.shape == values.shape and torch.equal(now, values)

    def gradient_changed(self) -> bool:
        now = _grad(self.tensor)
        if now is None or self.grad_values is None:
            return (now is None) != (self.grad_values is None)
        return now is not self.grad or not torch.equal(now, self.grad_values)


class _SavedModule:
    def __init__(self, module: torch.nn.Module):
        self.modules = [
            (m, m.training, dict(m._parameters), dict(m._buffers)) for m in module.modules()
        ]

    def restore(self) -> None:
        for module, training, parameters, buffers in self.modules:
            module.training = training
            for held, saved in ((module._parameters, parameters), (module._buffers, buffers)):
                if held.keys() != saved.keys() or any(held[k] is not v for k, v in saved.items()):
                    held.clear()
                    held.update(saved)


class _SavedOptimizer:
    """An optimizer's attributes, groups and per-parameter state. A step makes state lazily
    (Adam's moments on the first step, SGD's momentum buffer): ``restore()`` removes what
    was made since the save, and keeps the objects first made aside; ``keep_made`` puts
    those same objects back, as a loop's next step finds them (a compiled step guards on
    the identity of the state its first run made)."""

    def __init__(self, optimizer: torch.optim.Optimizer):
        self.optimizer = optimizer
        self.attributes = dict(optimizer.__dict__)
        self.state = {param: (state, dict(state)) for param, state in optimizer.state.items()}
        self.groups = [(group, dict(group)) for group in optimizer.param_groups]
        self.tensors = {  # (parameter, key) -> its saved value
            (param, key): _SavedTensor(t)
            for param, (_, values) in self.state.items()
            for key, t in values.items()
            if isinstance(t, torch.Tensor)
        }
        self.made_states: dict[Any, dict[Any, Any]] = {}  # a parameter's state made since
        self.made_keys: dict[Any, dict[Any, Any]] = {}  # entries made since in a saved state

    def _set_made_aside(self) -> None:
        for param, state in self.optimizer.state.items():
            if param not in self.state:
                self.made_states.setdefault(param, state)
                continue
            saved = self.state[param][1]
            for key, value in state.items():
                if key not in saved:
                    self.made_keys.setdefault(param, {}).setdefault(key, value)

    def restore(self, problems: list[str], name: str, keep_made: bool) -> None:
        optimizer = self.optimizer
        self._set_made_aside()
        optimizer.__dict__.clear()
        optimizer.__dict__.update(self.attributes)
        optimizer.state.clear()
        for param, (state, values) in self.state.items():
            state.clear()
            state.update(values)
            if keep_made:
                state.update(self.made_keys.get(param, {}))
            optimizer.state[param] = state
        if keep_made:
            optimizer.state.update(self.made_states)
        for group, values in self.groups:
            group.clear()
            group.update(values)
        for saved in self.tensors.values():
            saved.restore(problems, f"{name} state")

    def changed(self, name: str, parameter_names: dict[int, str]) -> dict[str, Any]:
        """``{"opt.state[model.fc.weight].exp_avg": (a copy of it now, its saved value or
        None where a step made it since)}`` for each state tensor that is not as saved."""
        out: dict[str, Any] = {}
        for i, (param, state) in enumerate(self.optimizer.state.items()):
            label = parameter_names.get(id(param), f"param {i}")
            for key, value in state.items():
                saved = self.tensors.get((param, key))
                if not isinstance(value, torch.Tensor) or (saved and saved.unchanged(value)):
                    continue
                before = saved.values if saved is not None else None
                out[f"{name}.state[{label}].{key}"] = (value.detach().clone(), before)
        return out


class Snapshot:
    """The reachable state of one call, saved; ``restore()`` puts it back (any number of
    times), ``changed_gradients()`` names the gradients that differ from it now."""

    def __init__(self, fn: Callable, args: tuple, kwargs: dict[str, Any]):
        self.reached = (fn, args, kwargs)
        self.roots = reachable(fn, args, kwargs)
        self.tensors: dict[int, tuple[str, _SavedTensor]] = {}
        self.parameters: list[tuple[str, torch.Tensor]] = []
        self.modules: list[_SavedModule] = []
        self.optimizers: list[tuple[str, _SavedOptimizer]] = []
        self.restored: list[str] = []
        self.pool = _torch_compat.cudagraph_output_pointers()  # CUDA graphs' outputs
        self.arguments = {  # ids of the argument tensors (compared as inputs, not state)
            id(leaf) for leaf in _tensor_leaves([*args, *kwargs.values()]) if _is_state(leaf)
        }
        for name, value in self.roots:
            if isinstance(value, torch.nn.Module):
                self._save_module(name, value)
            elif isinstance(value, torch.optim.Optimizer):
                saved = _SavedOptimizer(value)
                self.optimizers.append((name, saved))
                self.restored.append(
                    f"{name}: optimizer state of {len(saved.state)} parameters"
                    f" and {len(saved.groups)} parameter groups"
                )
            elif self._save_tensor(name, value):
                self.restored.append(f"{name}: tensor and its .grad")
        cuda = torch.cuda.is_available() and torch.cuda.is_initialized()
        self.rewind_torch = rng_snapshot(cuda)
        self.python_rng = random.getstate()
        numpy = sys.modules.get("numpy")
        self.numpy_rng = numpy.random.get_state() if numpy is not None else None
        self.restored.append(
            "random number generators: torch CPU"
            + (", CUDA" if cuda else "")
            + ", Python's random"
            + (", NumPy's" if numpy is not None else "")
        )
        self.problems: list[str] = []

    def _save_tensor(self, name: str, tensor: torch.Tensor) -> bool:
        if id(tensor) in self.tensors:
            return False
        self.tensors[id(tensor)] = (name, _SavedTensor(tensor, self.pool))
        return True

    def _save_module(self, name: str, module: torch.nn.Module) -> None:
        self.modules.append(_SavedModule(module))
        params = buffers = 0
        for path, param in module.named_parameters():
            if self._save_tensor(f"{name}.{path}", param):
                self.parameters.append((f"{name}.{path}", param))
                params += 1
        for path, buffer in module.named_buffers():
            buffers += self._save_tensor(f"{name}.{path}", buffer)
        self.restored.append(
            f"{name}: {params} parameters with their .grad, {buffers} buffers, training flags"
        )

    def restore(self, keep_made: bool = False) -> None:
        """Puts the saved state back. ``keep_made``: with the optimizer state made since
        (the first objects made, as the step that made them left them), for the runs that
        follow a compiled step: what a loop's next step finds, so nothing is recompiled."""
        for saved in self.modules:
            saved.restore()
        for name, saved in self.tensors.values():
            saved.restore(self.problems, name)
        for name, optimizer in self.optimizers:
            optimizer.restore(self.problems, name, keep_made)
        self.rewind_torch()
        random.setstate(self.python_rng)
        if self.numpy_rng is not None:
            sys.modules["numpy"].random.set_state(self.numpy_rng)

    def changed_gradients(self) -> dict[str, torch.Tensor | None]:
        """``{parameter or tensor name: a copy of its .grad now}`` for those whose gradient
        differs from the saved one (what one step computed), in the order they were found."""
        return {
            name: None if (grad := _grad(saved.tensor)) is None else grad.detach().clone()
            for name, saved in self.tensors.values()
            if saved.gradient_changed()
        }

    def changed_state(self) -> dict[str, tuple[torch.Tensor, torch.Tensor | None]]:
        """``{name: (a copy of it now, its saved value)}`` of the state a step changes that
        is not as saved: parameters, buffers, the tensors the function reaches that are not
        its arguments (those are its inputs), each optimizer's per-parameter state (its
        saved value None where a step made it since), in the order found."""
        out: dict[str, Any] = {
            name: (saved.tensor.detach().clone(), saved.values)
            for key, (name, saved) in self.tensors.items()
            if key not in self.arguments and not saved.unchanged(saved.tensor)
        }
        names = {id(param): name for name, param in self.parameters}
        for name, optimizer in self.optimizers:
            out.update(optimizer.changed(name, names))
        return out

    def now(self) -> Snapshot:
        """A snapshot of what this one reached, as it is now."""
        return Snapshot(*self.reached)

    def on_host(self) -> Snapshot:
        """The saved values moved to host memory, for a snapshot kept after measuring (a
        kept copy holds no device memory the program could use); restoring copies back."""
        for _, saved in self.tensors.values():
            saved.on_host()
        for _, optimizer in self.optimizers:
            for saved in optimizer.tensors.values():
                saved.on_host()
        return self

    def report(self) -> dict[str, list[str]]:
        """The document's ``isolation`` section: what was put back, what could not be."""
        return {
            "restored": list(self.restored),
            "not_restorable": list(dict.fromkeys(self.problems)) + list(ALWAYS_NOT_RESTORABLE),
        }


@contextlib.contextmanager
def untouched(
    fn: Callable, args: tuple, kwargs: dict[str, Any] | None = None
) -> Iterator[Snapshot]:
    """Runs the block with ``fn``'s reachable state saved; puts it back on every exit."""
    snapshot = Snapshot(fn, args, kwargs or {})
    try:
        yield snapshot
    finally:
        snapshot.restore()
