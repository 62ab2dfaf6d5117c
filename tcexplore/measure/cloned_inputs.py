"""Running user code twice alike: cloned tensor inputs and a rewindable RNG."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import torch

from .. import _torch_compat


def clone_tensors(tree: Any) -> Any:
    """A copy of a pytree whose tensors are detached clones (user code may mutate inputs)."""
    return _torch_compat.tree_map_tensors(lambda t: t.detach().clone(), tree)


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
