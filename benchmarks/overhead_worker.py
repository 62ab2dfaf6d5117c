"""One cold measurement, in the fresh process ``capture_overhead.py --worker CASE ARM``
starts: build the case, time one arm (compile + first call, with or without capture),
print the result as one JSON line after RESULT_MARK for the driver to read."""

from __future__ import annotations

import json
import os
import time

from overhead_workloads import build

MAIN_ARMS = ("baseline", "capture")
DIAG_ARMS = ("capture-noprov", "prov-only")
RESULT_MARK = "@@TCEXPLORE_BENCH "


def _cpu_times() -> tuple[float, float]:
    """(this process's CPU seconds, its reaped children's CPU seconds: g++ for Inductor CPU)."""
    import resource

    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def worker(case: str, arm: str) -> None:
    import torch  # noqa: F401 - imported before the timer on purpose

    run = build(case)
    result: dict = {"case": case, "arm": arm}

    if arm in ("capture", "capture-noprov"):
        import tcexplore
        from tcexplore._torch_compat import settings
        from tcexplore.capture import CaptureSession

        if arm == "capture-noprov":
            # Worker-only monkeypatch: capture_settings() then leaves provenance off.
            settings.has_provenance_tracking_config = lambda: False

        handler_time = [0.0, 0]
        if os.environ.get("TCX_BENCH_HANDLER_TIMING") == "1":
            original_add = CaptureSession.add

            def timed_add(self, metadata, payload):
                s = time.perf_counter()
                try:
                    return original_add(self, metadata, payload)
                finally:
                    handler_time[0] += time.perf_counter() - s
                    handler_time[1] += 1

            CaptureSession.add = timed_add

    if arm == "prov-only":
        from tcexplore._torch_compat.settings import BASIC_PROVENANCE  # the level capture() sets

    # ---- timed region starts
    cpu0 = _cpu_times()
    t0 = time.perf_counter()
    if arm == "baseline":
        run()
    elif arm == "prov-only":
        import torch._inductor.config as inductor_config  # what capture() would import

        inductor_config.trace.provenance_tracking_level = BASIC_PROVENANCE
        run()
    elif arm in ("capture", "capture-noprov"):
        with tcexplore.capture() as session:
            run()
        t1 = time.perf_counter()
        document = session.document
    else:
        raise ValueError(arm)
    t2 = time.perf_counter()
    cpu2 = _cpu_times()
    # ---- timed region ends

    result.update(total=t2 - t0, cpu_python=cpu2[0] - cpu0[0], cpu_compiler=cpu2[1] - cpu0[1])
    if arm in ("capture", "capture-noprov"):
        result.update(
            block=t1 - t0,
            document=t2 - t1,
            events=len(session.events),
            summary=dict(document.summary),
            handler_errors=document.summary["unread_events"],
        )
        if os.environ.get("TCX_BENCH_HANDLER_TIMING") == "1":
            result.update(handler=handler_time[0], handler_calls=handler_time[1])

    print(RESULT_MARK + json.dumps(result), flush=True)
