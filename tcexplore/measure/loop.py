"""Calls back to back on a GPU, as a training loop makes them: what each call costs there,
and whether the GPU waits for the CPU.

A loop never waits for the GPU between calls: the host issues a call (Python, guards,
launches) and goes on to the next while the GPU runs the kernels queued before. The GPU
waits for the CPU when issuing a call takes the host longer than running it takes the
GPU. So the figures are taken in batches of back-to-back calls with no sync between
them, after one lead call that puts work in the GPU's queue (as the previous step of a
loop would):

* ``host_us``: host time per call, from the first call's start until the last returns;
* ``loop_us``: per call, CUDA events recorded before the first call and after the last:
  the time a loop pays per call (the GPU's, or the host's when the GPU waits for it);
* ``synced_us``: one call followed by a device sync, timed on the host: the latency of a
  single call, not what a loop pays (the sync alone costs tens of µs on an H100/H200).

A batch is kept short enough that its launches fit in the GPU's launch queue
(``QUEUE_LAUNCHES``): past that the host blocks until the GPU catches up, and its time
would be the GPU's. Each figure is the median over ``BATCHES`` batches.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import torch

BATCHES = 5
CALLS = (2, 50)  # calls per batch: bounds
QUEUE_LAUNCHES = 512  # launches a batch may queue; CUDA blocks the host at about 1024
SYNCED_CALLS = 5


def batch_calls(launches: float, call_s: float, budget_s: float) -> int:
    """Calls per batch: within the budget and the launch queue, within CALLS."""
    low, high = CALLS
    fit_queue = int(QUEUE_LAUNCHES / max(launches, 1.0)) - 1  # the lead call queues too
    fit_budget = int(budget_s / BATCHES / max(call_s, 1e-6)) - 1
    return max(low, min(high, fit_queue, fit_budget))


def _batch(thunk: Callable[[], Any], calls: int) -> tuple[float, float]:
    """(host s, events s) of ``calls`` back-to-back calls after a lead call."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    thunk()  # the lead call: the GPU has work queued when the batch starts
    start.record()
    began = time.perf_counter()
    for _ in range(calls):
        thunk()
    host_s = time.perf_counter() - began
    end.record()
    end.synchronize()
    return host_s, start.elapsed_time(end) / 1e3


def _synced(thunk: Callable[[], Any]) -> float:
    torch.cuda.synchronize()
    began = time.perf_counter()
    thunk()
    torch.cuda.synchronize()
    return time.perf_counter() - began


def back_to_back(thunk: Callable[[], Any], calls: int) -> dict[str, Any]:
    """The loop's figures for ``thunk`` on CUDA (module docstring), per call in µs."""
    batches = [_batch(thunk, calls) for _ in range(BATCHES)]
    synced = [_synced(thunk) for _ in range(SYNCED_CALLS)]
    return {
        "calls": calls,
        "batches": BATCHES,
        "host_us": statistics.median(h for h, _ in batches) / calls * 1e6,
        "loop_us": statistics.median(e for _, e in batches) / calls * 1e6,
        "synced_us": statistics.median(synced) * 1e6,
    }
