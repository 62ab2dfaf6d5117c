"""What ran, read back for measuring: the output module Inductor loaded, torch.profiler's
compile ranges and memory events, the tensors a CUDA graph tree's next replay overwrites."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .lookup import resolve


def loaded_output_module(path: str | None) -> Any:
    """The Python module Inductor loaded from the output code at ``path`` (its kernels are
    module globals that ``call()`` looks up at run time), or None if not loaded here."""
    if not path:
        return None
    loaded = resolve("torch._inductor.codecache.PyCodeCache").modules
    return next((m for m in reversed(loaded) if getattr(m, "__file__", None) == path), None)


#: How torch names the profiler range around each step of a compile (Dynamo, AOTAutograd,
#: Inductor): ``dynamo_timed(key)`` in torch/_dynamo/utils.py opens ``f"{key} (dynamo_timed)"``.
COMPILE_RANGE_SUFFIX = " (dynamo_timed)"


def is_compile_range(name: str) -> bool:
    """A torch.profiler range torch opened while compiling."""
    return name.endswith(COMPILE_RANGE_SUFFIX)


def profiler_memory_events(prof: Any) -> list[tuple[int, int, int]]:
    """``(start_ns, nbytes, device_type)`` of each allocation (+) and free (-) a finished
    ``torch.profiler.profile(profile_memory=True)`` recorded: its kineto results' "[memory]"
    events, the records torch's own memory tables are built from (no public accessor)."""
    results = prof.profiler.kineto_results
    return [
        (int(e.start_ns()), int(e.nbytes()), int(e.device_type()))
        for e in results.events()
        if e.name() == "[memory]"
    ]


def cudagraph_output_pointers() -> frozenset[int]:
    """The storages (data pointers) of the live outputs of the CUDA graphs
    (``mode="reduce-overhead"``) on the path each device's graph tree last ran: memory the
    tree's next replay writes over (torch then fails any read of a tensor held there:
    "accessing tensor output of CUDAGraphs that has been overwritten"). Only the tree
    managers know them: ``torch._inductor.cudagraph_trees``; none where CUDA is not in use."""
    import torch

    if not torch.cuda.is_initialized():
        return frozenset()
    get_manager = resolve("torch._inductor.cudagraph_trees.get_manager")
    pointers: set[int] = set()
    for index in range(torch.cuda.device_count()):
        node = getattr(get_manager(index, create_if_none_exists=False), "current_node", None)
        if node is not None:
            pointers.update(ref.data_ptr() for ref in node.path_live_weakrefs())
    return frozenset(pointers)


def probes() -> tuple[Callable[[], Any], ...]:
    """What check() resolves for reading back what ran."""
    return (
        lambda: loaded_output_module("/nonexistent.py"),
        lambda: resolve("torch._inductor.cudagraph_trees.get_manager"),
        lambda: resolve("torch._inductor.cudagraph_trees.CUDAGraphNode").path_live_weakrefs,
        lambda: resolve("torch._inductor.cudagraph_trees.CUDAWarmupNode").path_live_weakrefs,
        lambda: resolve("torch._inductor.cudagraph_trees.StorageWeakRefWrapper").data_ptr,
    )
