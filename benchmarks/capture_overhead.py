#!/usr/bin/env python
"""How much does ``tcexplore.capture()`` slow down a cold torch.compile?

Measures compile + first-call wall time WITH capture divided by WITHOUT capture, for

* ``mlp``: one training step of a 3-Linear MLP (hidden 256, batch 32):
  forward + cross-entropy loss under ``torch.compile``, then ``loss.backward()``
  (which compiles the AOTAutograd backward lazily);
* ``transformer``: an ``nn.TransformerEncoderLayer`` forward (d_model 128, nhead 4,
  batch_first, eval mode, under ``torch.no_grad()``).

Every measurement runs in a fresh subprocess (this script in ``--worker`` mode, via
``sys.executable``) with its own empty ``TORCHINDUCTOR_CACHE_DIR`` and with
``TORCHINDUCTOR_FX_GRAPH_CACHE=0`` / ``TORCHINDUCTOR_AUTOGRAD_CACHE=0``, so the baseline
is exactly as cold as the capture arm (capture keeps the caches as the program has them:
off, here) and nothing
persisted by an earlier run (FX/AOT cache entries, compiled C++ objects, automatic-dynamic
PGO profiles) can leak into a later one. The worker imports torch (and tcexplore),
builds the model and its inputs, and only then starts the timer. The timer covers:

* baseline: ``torch.compile(...)`` + first call (+ ``backward()`` for the MLP);
* capture:  the same, inside ``with tcexplore.capture() as session:``, plus reading
  ``session.document`` after the block (assembling it: a user pays it too).

Arms are interleaved (baseline, capture, baseline, capture, ...) so slow drift of the
machine hits both alike; the medians of each arm and their ratio are reported. Beside the
wall time, each worker reports its CPU time (its own, and its compiler subprocesses', i.e.
g++), and the driver reports the "other load": CPUs kept busy by other programs while the
worker ran. On a shared machine the CPU-time ratio is the steadier figure.

``--diagnose`` adds two more interleaved arms to show where capture time goes:
``capture-noprov`` (capture with Inductor provenance tracking left off, by
monkeypatching tcexplore's feature probe inside that worker only) and ``prov-only``
(no capture; just the provenance tracking level capture sets).
The capture arm always reports the ``session.document`` time separately; with
``--diagnose`` it also reports the time spent inside tcexplore's log handler.

``--strict`` is the stricter measure: one process, the C++ build cache warm (what a user's
second run of a cell pays: Dynamo, AOTAutograd and Inductor work only), FX-graph and
AOTAutograd caches off for every arm, arms alternating, median of ``--reps``. Five arms:
``plain`` compile; ``payloads``, a handler that drops every record on torch's trace logger
(torch builds each event's payload as soon as the logger has any handler: the floor any
consumer of the event stream pays); ``torch_trace``, the anchor: a file handler with torch's
own trace formatter on that logger, as ``TORCH_TRACE`` installs; ``capture``
(``tcexplore.capture()``); ``capture+doc`` (the same, then ``session.document``). Cases:
``mlp6``, a 6-layer MLP training step, and the encoder layers. Ratios are paired: each
rep's time over that rep's ``plain`` time (drift between reps cancels), reported as their
median and quartiles, so the run shows how far noise reaches; the goal is the median
capture+doc ratio <= torch_trace's + 0.03, and <= 1.10.

Usage::

    python benchmarks/capture_overhead.py                 # both cases, 5 reps per arm
    python benchmarks/capture_overhead.py --strict        # the one-process, warm-C++ measure
    python benchmarks/capture_overhead.py --strict --settings --reps 15   # each setting's share
    python benchmarks/capture_overhead.py --case mlp --reps 9
    python benchmarks/capture_overhead.py --check         # exit 1 if a ratio > 1.10
    python benchmarks/capture_overhead.py --diagnose      # add breakdown arms
    python benchmarks/capture_overhead.py --case transformer-slowpath
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from overhead_report import LIMIT, case_width, load_average, report
from overhead_strict import strict
from overhead_worker import DIAG_ARMS, MAIN_ARMS, RESULT_MARK, worker
from overhead_workloads import CASES, STRICT_CASES

# Environment that would change what torch.compile does or logs in the worker.
SCRUB_ENV = (
    "TORCH_TRACE",
    "TORCH_LOGS",
    "TORCH_COMPILE_DEBUG",
    "TORCHINDUCTOR_CACHE_DIR",
    "TORCHINDUCTOR_FORCE_DISABLE_CACHES",
    "TORCH_COMPILE_DEBUG_DIR",
)


def _busy_cpu_seconds() -> float | None:
    """CPU seconds the whole machine has spent busy since boot (Linux /proc/stat), or None."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
        ticks = [int(v) for v in fields[1:]]
        idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
        # guest/guest_nice (fields 9-10) are already included in user/nice.
        busy = sum(ticks[:8]) - idle
        return busy / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _children_cpu_seconds() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_one(case: str, arm: str, *, handler_timing: bool, timeout: float) -> dict:
    cache_dir = tempfile.mkdtemp(prefix="tcx-bench-inductor-")
    env = {k: v for k, v in os.environ.items() if k not in SCRUB_ENV}
    env.update(
        TORCHINDUCTOR_CACHE_DIR=cache_dir,
        TORCHINDUCTOR_FX_GRAPH_CACHE="0",
        TORCHINDUCTOR_AUTOGRAD_CACHE="0",
        TCX_BENCH_HANDLER_TIMING="1" if handler_timing else "0",
        PYTHONWARNINGS="ignore",
    )
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", case, arm]
    busy0, own0, wall0 = _busy_cpu_seconds(), _children_cpu_seconds(), time.perf_counter()
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)
    busy1, own1, wall1 = _busy_cpu_seconds(), _children_cpu_seconds(), time.perf_counter()
    for line in proc.stdout.splitlines():
        if line.startswith(RESULT_MARK):
            result = json.loads(line[len(RESULT_MARK) :])
            # CPU the rest of the machine used while this worker ran, in CPUs (0 = quiet):
            # machine-wide busy time minus this worker's own (and its children's) CPU time.
            if busy0 is not None and busy1 is not None:
                foreign = (busy1 - busy0) - (own1 - own0)
                result["foreign_load"] = max(0.0, foreign) / (wall1 - wall0)
            return result
    raise RuntimeError(
        f"worker {case}/{arm} failed (rc={proc.returncode}):\n"
        f"--- stdout ---\n{proc.stdout[-4000:]}\n--- stderr ---\n{proc.stderr[-4000:]}"
    )


def cold(cases: tuple[str, ...], reps: int, *, diagnose: bool, timeout: float) -> bool:
    """The cold measure: each arm in a fresh worker with empty caches, arms interleaved;
    its report printed. True if a case's ratio is over LIMIT."""
    import importlib.metadata
    import platform

    arms = MAIN_ARMS + (DIAG_ARMS if diagnose else ())
    print(
        f"tcexplore capture overhead: torch {importlib.metadata.version('torch')}, python "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, {platform.platform()}"
    )
    print(
        f'load average at start: {load_average():.2f} (1 min); "other load" below = CPUs used by '
        f"other processes while each worker ran"
    )
    print(
        f"cold caches per run (fresh TORCHINDUCTOR_CACHE_DIR, FX/AOT caches off); "
        f"{reps} reps per arm, arms interleaved: {' '.join(arms)}"
    )
    print()

    w = case_width(cases)
    started = time.perf_counter()
    results: dict[str, dict[str, list[dict]]] = {}
    loads: list[float] = []
    for case in cases:
        results[case] = {arm: [] for arm in arms}
        for rep in range(reps):
            for arm in arms:
                r = run_one(case, arm, handler_timing=diagnose, timeout=timeout)
                results[case][arm].append(r)
                load = r.get("foreign_load", float("nan"))
                loads.append(load)
                extra = ""
                if "document" in r:
                    extra = f"  (block {r['block']:.2f}s + document {r['document']:.2f}s)"
                print(
                    f"  [{case:<{w}} rep {rep + 1}/{reps}] {arm:<14} "
                    f"{r['total']:6.2f}s{extra}  other load {load:.2f}",
                    flush=True,
                )
        print()

    return report(results, arms, loads, started, diagnose)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reps", type=int, default=5, help="repetitions per arm (default 5)")
    parser.add_argument(
        "--case",
        choices=(*CASES, "mlp6", "encoder-train", "all"),
        default="all",
        help="default all = every case (of the chosen measure)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="one process, warm C++ build cache: plain vs TORCH_TRACE-style "
        "handler vs capture vs capture+document",
    )
    parser.add_argument(
        "--settings",
        action="store_true",
        help="with --strict: add one arm per capture setting left out, "
        "giving each setting's share of the overhead",
    )
    parser.add_argument(
        "--arms",
        nargs="+",
        metavar="ARM",
        help="with --strict: only these arms (plus plain, payloads, torch_trace and "
        "capture+doc, which the summary needs)",
    )
    parser.add_argument(
        "--check", action="store_true", help=f"exit non-zero if a median ratio exceeds {LIMIT:.2f}"
    )
    parser.add_argument(
        "--diagnose",
        action="store_true",
        help="add capture-noprov and prov-only arms and time the log handler",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        help="seconds before one worker is killed (default 300)",
    )
    parser.add_argument("--worker", nargs=2, metavar=("CASE", "ARM"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        worker(*args.worker)
        return 0
    if args.reps < 1:
        parser.error("--reps must be >= 1")
    if args.strict:
        code = strict(
            STRICT_CASES if args.case == "all" else (args.case,),
            args.reps,
            settings=args.settings,
            only=tuple(args.arms or ()),
        )
        return code if args.check else 0
    if args.case in ("mlp6", "encoder-train"):
        parser.error(f"{args.case} is a case of --strict")
    failed = cold(
        CASES if args.case == "all" else (args.case,),
        args.reps,
        diagnose=args.diagnose,
        timeout=args.timeout,
    )
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
