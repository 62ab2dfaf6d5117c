"""Running user code twice alike: cloned tensor inputs, a rewindable RNG, and the real
call's CUDA-graph outputs kept out of the replays that follow it."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import torch

from .. import _torch_compat


def clone_tensors(tree: Any) -> Any:
    """A copy of a pytree whose tensors are detached clones (user code may mutate inputs)."""
    return _torch_compat.tree_map_tensors(lambda t: t.detach().clone(), tree)


def in_cudagraph_pool(tensor: torch.Tensor, pool: frozenset[int]) -> bool:
    """``tensor``'s memory is one of ``pool``'s (``_torch_compat.cudagraph_output_pointers()``)."""
    return tensor.is_cuda and tensor.untyped_storage().data_ptr() in pool


def out_of_cudagraph_pool(returned: Any) -> tuple[Any, int]:
    """``returned`` with each tensor in a CUDA graph tree's pool replaced by a copy (autograd
    kept: ``clone()``), and how many were copied. Under ``mode="reduce-overhead"`` the real
    call's outputs live in memory the next replay writes over, and measuring replays the
    graphs: without the copy, what the user's cell or call got back would be overwritten by
    tcexplore's runs. A tensor held twice is copied once; a value holding none is left as
    it is (a tuple, such as a cell's bound names, is looked into value by value)."""
    pool = _torch_compat.cudagraph_output_pointers()
    if not pool:
        return returned, 0
    copies: dict[int, torch.Tensor] = {}

    def copied(tensor: torch.Tensor) -> torch.Tensor:
        if id(tensor) not in copies:
            pooled = in_cudagraph_pool(tensor, pool)
            copies[id(tensor)] = tensor.clone() if pooled else tensor
        return copies[id(tensor)]

    def kept(value: Any) -> Any:
        if type(value) is tuple:
            return tuple(kept(item) for item in value)
        leaves, _ = _torch_compat.tree_flatten_with_paths(value)
        tensors = [leaf for _, leaf in leaves if isinstance(leaf, torch.Tensor)]
        if all(copied(tensor) is tensor for tensor in tensors):
            return value
        return _torch_compat.tree_map_tensors(copied, value)

    kept_value = kept(returned)
    return kept_value, sum(id(copy) != original for original, copy in copies.items())


def rng_snapshot(cuda: bool) -> Callable[[], None]:
    """A function that sets the RNG (CPU, and CUDA if asked) back to its state now."""
    cpu_state = torch.get_rng_state()
    cuda_state = torch.cuda.get_rng_state_all() if cuda else None

    def rewind() -> None:
        torch.set_rng_state(cpu_state)
        if cuda_state is not None:
            torch.cuda.set_rng_state_all(cuda_state)

    return rewind


@contextlib.contextmanager
def rng_state(cuda: bool) -> Iterator[Callable[[], None]]:
    """Yields a function that rewinds the RNG to the state at entry (CPU and CUDA)."""
    yield rng_snapshot(cuda)
