"""Each compare() row in this process compiles cold, as a fresh process would.

Dynamo's and Inductor's state outlives a compile: kernels built for one row are loaded, not
built, by the next row that generates the same code, and the first compile in a process
pays its one-time set-up (imports, compiler probes). Rows would then time their order, not
their configuration (seen: 0.90 s and 0.11 s for the same code). So each row compiles with
Inductor's and Triton's caches empty (``_torch_compat.fresh_inductor_caches``: a cache
directory of its own, where the FX-graph and AOTAutograd caches live too, so what the
program's caches hold serves no row), after one warm-up compile per backend and device in
this process, which no row's document or time includes. This is the one place tcexplore
does not use the caches as the program has them, for a fair comparison; the grid says so.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import torch

from .. import _torch_compat

IN_PROCESS = (
    "Inductor's caches (FX graph and AOTAutograd included) and Triton's empty, a cache "
    "directory of its own, after one warm-up compile of this backend in the process: no "
    "row reuses another's kernels or the program's cached compiles"
)
IN_FRESH_PROCESS = "a fresh process with an empty Inductor cache directory"

_warmed: set[tuple[str, str]] = set()


def _one_op(t: torch.Tensor) -> torch.Tensor:
    return (t * 2).sin()


def _warm_up(backend: Any, device: str) -> None:
    """Pay the process's one-time set-up for ``backend`` once, on a compile of our own."""
    if not isinstance(backend, str) or (backend, device) in _warmed:
        return
    _warmed.add((backend, device))
    with _torch_compat.fresh_inductor_caches(), _torch_compat.fresh_dynamic_state():
        # An input that needs grad: the joint graph, its partition and the backward's
        # compile have one-time costs of their own.
        leaf = torch.ones(8, device=device, requires_grad=True)
        _torch_compat.isolated_compile(_one_op, {"backend": backend})(leaf).sum().backward()


@contextlib.contextmanager
def cold_compiles(backend: Any, cuda: bool) -> Iterator[str]:
    """Inside the block compiles are cold; yields how (the row's ``explore.cold_compile``)."""
    try:
        _warm_up(backend, "cuda" if cuda else "cpu")
    except Exception:  # noqa: BLE001, S110 - the row's own compile meets and reports the error
        pass
    with _torch_compat.fresh_inductor_caches():
        yield IN_PROCESS
