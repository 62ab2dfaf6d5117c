"""Run one function over many inputs on an executor: the user's (any
``concurrent.futures.Executor``: a process pool, Dask's ``Client.get_executor()``, Ray's),
else a pool of ``jobs`` fresh processes, else (one job, or one input) in this process.

Pool processes are forked, unless torch is loaded in this process (a notebook, a training
script): its thread pools could be left locked in a fork, so they are spawned then, which
imports a script's ``__main__`` again (guard it with ``if __name__ == "__main__":``, as
for any process pool).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any


def default_jobs() -> int:
    return (
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    )


def run_all(
    fn: Callable[..., Any],
    items: Iterable[Any],
    *args: Any,
    jobs: int | None = None,
    executor: Executor | None = None,
) -> list[Any]:
    """``[fn(item, *args) for item in items]``, in order, spread as described above."""
    items = list(items)
    if executor is not None:
        return [f.result() for f in [executor.submit(fn, item, *args) for item in items]]
    jobs = min(jobs or default_jobs(), len(items))
    if jobs <= 1:
        return [fn(item, *args) for item in items]
    start = "spawn" if "torch" in sys.modules else "fork"
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(start)) as pool:
        return [f.result() for f in [pool.submit(fn, item, *args) for item in items]]
