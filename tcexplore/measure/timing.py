"""Wall-clock timing done right: warm-up until steady, device sync, medians with spread.

``median_ms`` is the time per call as a loop of calls pays it: on CUDA each sample is
bracketed by CUDA events around ``inner`` back-to-back calls, after a device sync and one
lead call that gives the GPU work, as a loop's previous call would (so the host's cost of
a call counts where the GPU waits for it, which is what ``reduce-overhead`` removes, and
the sync's latency never counts); on CPU by ``time.perf_counter``. Calls too short for
the clock are batched (``inner`` per sample).
On CUDA ``device_median_ms`` is also measured the way ``triton.testing.do_bench`` does:
events around single calls queued behind an L2 flush, i.e. GPU execution time only.
Everything runs within an explicit time budget so a notebook is never blocked for minutes.

How far to trust the numbers, two separate questions:

* **Noisy**: a side whose interquartile range is over 10% of its median
  (:data:`NOISY_IQR_FRACTION`). The IQR is the spread of single calls: it measures the
  machine (other processes, frequency scaling, a busy GPU), not how well the median is
  known, so more samples do not shrink it; a quieter machine does.
* **Is it faster at all**: ``speedup_interval``, an interval of about 95% for the speedup
  (the ratio of the medians, the figure shown) from the paired samples. Eager and compiled
  are timed in alternation, so the i-th sample of each met the same machine load; the
  interval is the percentile bootstrap of that ratio over resampled *pairs* (no assumption
  about the distribution, and the pairing kept), so it holds the speedup it qualifies and
  narrows as samples grow: a longer time budget helps here. When it holds 1, the
  measurement cannot tell faster from slower. (Whether the two IQRs overlap is no test of
  this: they overlap for two runs whose difference is smaller than their spread, however
  many samples show that difference clearly.)
* **Busy**: a loaded machine slows every sample alike and passes both tests above; the
  machine's own counters over the samples (machine.py) tell, and make the verdict a warning.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

import torch

from .. import _torch_compat
from ..findings.timing import NOISY_IQR_FRACTION
from .machine import watching

L2_FLUSH_BYTES = 256 * 1024 * 1024  # what triton.testing.do_bench clears between calls
DEVICE_SAMPLES = (50, 2000)  # bounds; within them, a quarter of the budget decides
MIN_SAMPLE_S = 2e-4  # below this a perf_counter sample is mostly clock noise
# On CUDA a sample ends when the GPU has run its last call's kernels: a sample of one call
# pays that tail after the host returns, which a loop overlaps with issuing the next call
# (a host-bound MLP on an H200: 314 µs for one call, 229 µs per call back to back). Calls
# enough for 2 ms spread the tail over them.
MIN_SAMPLE_S_CUDA = 2e-3
BOOTSTRAP_RESAMPLES = 1000  # of the pairs, for the speedup's interval (seeded: reproducible)
_RESAMPLES_AT_ONCE = 100


@dataclass
class TimingStats:
    median_ms: float
    iqr_ms: float
    q1_ms: float
    q3_ms: float
    min_ms: float
    max_ms: float
    samples: int
    inner: int
    warmup_calls: int
    noisy: bool
    device_median_ms: float | None = None
    #: seconds per call of each sample, in the order taken (not in the document)
    per_call_s: list[float] = field(default_factory=list, repr=False)
    #: the machine's state over the samples (machine.py), the same for every side
    machine: dict[str, Any] | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name not in ("per_call_s", "machine")
        }


def uses_cuda(tree: Any) -> bool:
    leaves, _ = _torch_compat.tree_flatten_with_paths(tree)
    return torch.cuda.is_available() and any(
        isinstance(leaf, torch.Tensor) and leaf.is_cuda for _, leaf in leaves
    )


class Clock:
    """Times ``inner`` back-to-back calls of a thunk; on CUDA after a sync and a lead call
    (module docstring)."""

    def __init__(self, cuda: bool):
        self.cuda = cuda

    def __call__(self, thunk: Callable[[], Any], inner: int) -> float:
        if self.cuda:
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            torch.cuda.synchronize()
            thunk()
            start.record()
            for _ in range(inner):
                thunk()
            end.record()
            end.synchronize()
            return start.elapsed_time(end) / 1000 / inner
        begin = time.perf_counter()
        for _ in range(inner):
            thunk()
        return (time.perf_counter() - begin) / inner


def _quartiles(samples: list[float]) -> tuple[float, float]:
    if len(samples) < 4:
        return min(samples), max(samples)
    q = statistics.quantiles(samples, n=4, method="inclusive")
    return q[0], q[2]


def _warm_up(clock: Clock, thunk: Callable[[], Any], deadline: float) -> tuple[int, int]:
    """Run until two consecutive batch medians agree within 5% (or the deadline passes).

    Also picks ``inner``, the calls per sample, so a sample lasts at least MIN_SAMPLE_S
    (MIN_SAMPLE_S_CUDA on CUDA).
    Returns (inner, calls made).
    """
    inner, calls, previous = 1, 0, None
    least = MIN_SAMPLE_S_CUDA if clock.cuda else MIN_SAMPLE_S
    while True:
        batch = [clock(thunk, inner) for _ in range(5)]
        calls += 5 * (inner + clock.cuda)  # a lead call per sample on CUDA
        current = statistics.median(batch)
        if current * inner < least and inner < 1_000_000:
            inner = max(inner * 2, int(least / max(current, 1e-9)) + 1)
            previous = None
            continue
        if (previous is not None and abs(current - previous) <= 0.05 * previous) or (
            time.perf_counter() > deadline
        ):
            return inner, calls
        previous = current


def _stats(samples: list[float], inner: int, warmup_calls: int) -> TimingStats:
    q1, q3 = _quartiles(samples)
    median = statistics.median(samples)
    return TimingStats(
        median_ms=median * 1e3,
        iqr_ms=(q3 - q1) * 1e3,
        q1_ms=q1 * 1e3,
        q3_ms=q3 * 1e3,
        min_ms=min(samples) * 1e3,
        max_ms=max(samples) * 1e3,
        samples=len(samples),
        inner=inner,
        warmup_calls=warmup_calls,
        noisy=(q3 - q1) > NOISY_IQR_FRACTION * median,
        per_call_s=list(samples),
    )


def speedup_interval(eager_s: list[float], compiled_s: list[float]) -> list[float] | None:
    """About 95% interval of the speedup median(eager) / median(compiled): the 2.5th and
    97.5th percentiles of that ratio over bootstrap resamples of the (eager, compiled) pairs,
    taken in alternation (see the module docstring)."""
    n = min(len(eager_s), len(compiled_s))
    if not n:
        return None
    generator = torch.Generator().manual_seed(0)
    ratios = []
    for _ in range(0, BOOTSTRAP_RESAMPLES, _RESAMPLES_AT_ONCE):  # bounded memory
        # How often each pair is drawn: one row per resample, the same for both sides.
        picks = torch.randint(n, (_RESAMPLES_AT_ONCE, n), generator=generator)
        counts = torch.zeros(_RESAMPLES_AT_ONCE, n).scatter_add_(1, picks, torch.ones(picks.shape))
        eager, compiled = (_resampled_medians(side[:n], counts) for side in (eager_s, compiled_s))
        ratios.append(eager / compiled)
    ratio = torch.cat(ratios)
    ratio = ratio[torch.isfinite(ratio)]
    if not ratio.numel():
        return None
    low, high = torch.quantile(ratio, torch.tensor([0.025, 0.975], dtype=torch.float64))
    return [low.item(), high.item()]


def _resampled_medians(samples: list[float], counts: torch.Tensor) -> torch.Tensor:
    """The median of each resample (row of ``counts``: draws per sample), as
    statistics.median takes it, without sorting each resample: the samples are sorted once
    and each resample's middle order statistics found in its running count."""
    values, order = torch.sort(torch.tensor(samples, dtype=torch.float64))
    running = counts[:, order].cumsum(1)
    n = len(samples)
    middle = torch.tensor([[(n - 1) // 2 + 1, n // 2 + 1]], dtype=running.dtype)
    at = torch.searchsorted(running, middle.expand(len(running), 2).contiguous())
    return values[at.clamp(max=n - 1)].mean(1)


def device_times_ms(thunk: Callable[[], Any], samples: int, flush_l2: bool = True) -> list[float]:
    """GPU time of single calls, as triton.testing.do_bench measures it."""
    cache = torch.empty(L2_FLUSH_BYTES // 4, dtype=torch.int32, device="cuda") if flush_l2 else None
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(samples)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(samples)]
    torch.cuda.synchronize()
    for start, end in zip(starts, ends):
        if cache is not None:
            cache.zero_()
        start.record()
        thunk()
        end.record()
    torch.cuda.synchronize()
    return [start.elapsed_time(end) for start, end in zip(starts, ends)]


def measure(
    *thunks: Callable[[], Any],
    cuda: bool,
    budget_s: float = 1.0,
    max_samples: int = 500,
    min_samples: int = 7,
    flush_l2: bool = True,
) -> list[TimingStats]:
    """Time each thunk; samples of the thunks are interleaved so that a change of machine
    load during the measurement hits all of them alike. ``budget_s`` is per thunk."""
    clock = Clock(cuda)
    start = time.perf_counter()
    warm = [_warm_up(clock, thunk, time.perf_counter() + budget_s * 0.3) for thunk in thunks]
    deadline = start + budget_s * len(thunks)
    samples: list[list[float]] = [[] for _ in thunks]
    with watching(cuda) as machine:
        while len(samples[0]) < max_samples and (
            len(samples[0]) < min_samples or time.perf_counter() < deadline
        ):
            for thunk, (inner, _), taken in zip(thunks, warm, samples):
                taken.append(clock(thunk, inner))
    stats = [_stats(taken, inner, calls) for taken, (inner, calls) in zip(samples, warm)]
    for result in stats:
        result.machine = machine
    if cuda:
        low, high = DEVICE_SAMPLES
        for thunk, result in zip(thunks, stats):
            count = int(0.25 * budget_s * 1e3 / max(result.median_ms, 1e-3))
            result.device_median_ms = statistics.median(
                device_times_ms(thunk, min(max(count, low), high), flush_l2)
            )
    return stats


def first_call_seconds(thunk: Callable[[], Any], *, cuda: bool) -> float:
    """Wall time of one call, device work included: for a compiled fn, compile + one run."""
    if cuda:
        torch.cuda.synchronize()
    begin = time.perf_counter()
    thunk()
    if cuda:
        torch.cuda.synchronize()
    return time.perf_counter() - begin


def summarize(
    eager: TimingStats,
    compiled: TimingStats,
    compile_s: float,
    device: str,
    budget_s: float | None = None,
) -> dict[str, Any]:
    """Speedup (with its interval) and break-even: how many calls pay back the compile
    time (None: never); ``budget_s`` is the time budget each side was given. The machine's
    state over the samples goes with it; the verdict on the whole (how far to trust it) is
    decided with the document's findings (findings/timing.py)."""
    saved_ms = eager.median_ms - compiled.median_ms
    timing = {
        "eager": eager.to_dict(),
        "compiled": compiled.to_dict(),
        "compile_s": compile_s,
        "speedup": eager.median_ms / compiled.median_ms if compiled.median_ms > 0 else None,
        "speedup_interval": speedup_interval(eager.per_call_s, compiled.per_call_s),
        "break_even_calls": (compile_s * 1e3 / saved_ms) if saved_ms > 0 else None,
        "noisy": eager.noisy or compiled.noisy,
        "budget_s": budget_s,
        "device": device,
        "machine": eager.machine,
    }
    return timing
