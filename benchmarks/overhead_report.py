"""What capture_overhead.py prints its measures against and with: the goals (TARGET,
LIMIT), the statistics and formats both measures share, and the cold measure's report
(per-arm table, ratios and verdicts, what capture recorded, the load beside the run)."""

from __future__ import annotations

import os
import statistics
import time

from overhead_worker import DIAG_ARMS, MAIN_ARMS

TARGET = 1.05
LIMIT = 1.10


def case_width(cases: tuple[str, ...]) -> int:
    """The width of the case column."""
    return max(12, *(len(c) for c in cases))


def load_average() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def fmt(seconds: float) -> str:
    return f"{seconds:7.2f}s"


def paired_ratios(arm: list[float], plain: list[float]) -> list[float]:
    """Each rep's time over the plain compile of the same rep: the arms of a rep ran
    back to back, so drift of the machine between reps cancels out."""
    return [a / b for a, b in zip(arm, plain)]


def median_quartiles(values: list[float]) -> str:
    """ "median [first quartile, third quartile]"; the one value where there is one."""
    if len(values) < 2:
        return f"{values[0]:.3f}"
    low, _, high = statistics.quantiles(values, n=4)
    return f"{statistics.median(values):.3f} [{low:.3f}, {high:.3f}]"


def report(
    results: dict[str, dict[str, list[dict]]],
    arms: tuple[str, ...],
    loads: list[float],
    started: float,
    diagnose: bool,
) -> bool:
    """Print the cold measure's report of ``results`` (case -> arm -> the workers' results);
    True if a case's ratio is over LIMIT."""
    cases = tuple(results)
    w = case_width(cases)
    failed = False
    print(
        "wall = compile + first call wall time (the measure); cpu py / cpu cc = median CPU "
        "seconds in the\nworker process / in its compiler subprocesses (g++) over the same "
        "region, less sensitive to other load"
    )
    print(
        f"{'case':<{w}} {'arm':<15} {'median':>8} {'min':>8} {'max':>8} {'spread':>7} "
        f"{'cpu py':>8} {'cpu cc':>8}"
    )
    print("-" * (69 + w))
    rows = []
    for case in cases:
        medians = {}
        for arm in arms:
            totals = [r["total"] for r in results[case][arm]]
            med = statistics.median(totals)
            medians[arm] = med
            spread = (max(totals) - min(totals)) / med
            cpu_py = statistics.median(r["cpu_python"] for r in results[case][arm])
            cpu_cc = statistics.median(r["cpu_compiler"] for r in results[case][arm])
            print(
                f"{case:<{w}} {arm:<15} {fmt(med)} {fmt(min(totals))} {fmt(max(totals))} "
                f"{spread:6.1%} {fmt(cpu_py)} {fmt(cpu_cc)}"
            )
        rows.append((case, medians))
    print()

    print(
        f"target <= {TARGET:.2f}, limit <= {LIMIT:.2f}  (ratio = median capture / median baseline)"
    )
    for case, medians in rows:
        base = results[case]["baseline"]
        cap = results[case]["capture"]
        ratio = medians["capture"] / medians["baseline"]
        # Spread of the ratio over the interleaved pairs, to judge how much the median means.
        pair_ratios = [c["total"] / b["total"] for b, c in zip(base, cap)]
        if ratio > LIMIT:
            verdict = "FAIL (over limit)"
            failed = True
        elif ratio > TARGET:
            verdict = "PASS limit, misses target"
        else:
            verdict = "PASS"
        print(
            f"  {case:<{w}} ratio {ratio:5.3f}   per-pair ratios min {min(pair_ratios):.3f} "
            f"max {max(pair_ratios):.3f}   {verdict}"
        )
        cpu = {
            arm: statistics.median(r["cpu_python"] + r["cpu_compiler"] for r in results[case][arm])
            for arm in MAIN_ARMS
        }
        cpu_py = {
            arm: statistics.median(r["cpu_python"] for r in results[case][arm]) for arm in MAIN_ARMS
        }
        print(
            f"  {'':<{w}} (secondary) CPU-time ratio {cpu['capture'] / cpu['baseline']:5.3f}; "
            f"worker-process CPU {cpu_py['capture'] - cpu_py['baseline']:+.2f}s "
            f"({cpu_py['capture'] / cpu_py['baseline']:.3f}x)"
        )
        doc_med = statistics.median(r["document"] for r in cap)
        block_med = statistics.median(r["block"] for r in cap)
        print(
            f"  {'':<{w}} capture median split: block {block_med:.2f}s + "
            f"session.document {doc_med:.2f}s; overhead "
            f"{medians['capture'] - medians['baseline']:+.2f}s"
        )
        if diagnose:
            handler_med = statistics.median(r["handler"] for r in cap)
            for arm in DIAG_ARMS:
                print(
                    f"  {'':<{w}} {arm:<15} vs baseline: "
                    f"{medians[arm] - medians['baseline']:+.2f}s "
                    f"(ratio {medians[arm] / medians['baseline']:.3f})"
                )
            print(
                f"  {'':<{w}} handler (CaptureSession.add) median {handler_med * 1000:.1f} ms "
                f"over {cap[0]['handler_calls']} events"
            )
    print()

    print("what the capture arm recorded (first rep):")
    for case in cases:
        first = results[case]["capture"][0]
        s = first["summary"]
        keys = (
            "graphs",
            "output_codes",
            "kernels",
            "graph_breaks",
            "recompiles",
            "guards",
            "unmapped_nodes",
            "failures",
        )
        counts = ", ".join(f"{k}={s[k]}" for k in keys if k in s)
        print(
            f"  {case:<{w}} events={first['events']}, {counts}, "
            f"handler_errors={first['handler_errors']}"
        )
        if any(r["summary"] != s for r in results[case]["capture"][1:]):
            print(f"  {'':<{w}} (note: summary differs between reps)")
    print()
    print(f"total benchmark wall time {time.perf_counter() - started:.0f}s")
    loads = [v for v in loads if v == v]  # drop NaN (no /proc/stat)
    if loads:
        print(
            f"other load (CPUs busy with work other than the benchmark, per worker): "
            f"median {statistics.median(loads):.2f}, max {max(loads):.2f}"
        )
        if max(loads) > 0.25:
            print(
                f"WARNING: other work ran on this {os.cpu_count()}-CPU machine during the "
                f"benchmark (up to {max(loads):.2f} CPUs); times and ratios are noisier "
                f"than on a quiet machine."
            )
    return failed
