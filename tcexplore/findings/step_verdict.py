"""A profiled step's verdict, from what measure/ measured (measure/roofline.py's
``step_figures`` and each kernel's class and ``below_roof`` reason): ``overhead-bound``
when the fixed costs of a call bound it, else ``compute-bound`` or ``memory-bound``,
whichever kind of kernel takes more of the time; the advice for it (the reasons of the
kernels far below their roof first, alone when they take most of the kernel time) and the
torch.compile modes it names (what a compare() grid checks).

The rule. On a CPU host time is device time: a call's wall time is split into kernel time
and the rest (Python, guards, wrapper), and the rest plus latency-bound kernels making up
at least ``OVERHEAD_BOUND_SHARE`` of it is overhead-bound (the same holds for a whole run's
compiled regions). On a GPU the host and the device run side by side, so a call timed with
a sync after it is no loop's figure: calls are taken back to back (measure/loop.py), and the
step is overhead-bound when the GPU waits for the CPU there (issuing a call takes the host
at least as long as its kernels take the GPU) or when latency-bound kernels take at least
that share of the GPU's time. The figures the verdict used, and how it read them, are its
``basis``.
"""

from __future__ import annotations

from typing import Any

from ..common.formatting import format_bytes

Data = dict[str, Any]

OVERHEAD_BOUND_SHARE = 0.5
MIN_LAUNCHES_FOR_GRAPHS = 4


def basis(figures: Data) -> tuple[bool, Data]:
    """Whether the step is overhead-bound, and ``figures`` with how the rule read them."""
    latency_us = figures.get("latency_us") or 0.0
    if figures.get("rule") != "loop":
        wall_us, kernel_us = figures.get("wall_us") or 0.0, figures.get("kernel_us") or 0.0
        share = ((max(0.0, wall_us - kernel_us) + latency_us) / wall_us) if wall_us else 0.0
        return share >= OVERHEAD_BOUND_SHARE, {
            **figures,
            "share": share,
            "threshold": OVERHEAD_BOUND_SHARE,
        }
    device_us = figures.get("device_us") or 0.0
    waits = figures["host_us"] >= device_us
    latency_share = latency_us / device_us if device_us else 0.0
    return waits or latency_share >= OVERHEAD_BOUND_SHARE, {
        **figures,
        "gpu_waits": waits,
        "latency_share": latency_share,
        "threshold": OVERHEAD_BOUND_SHARE,
    }


def cuda_graphs_help(launches: float, device: str) -> bool:
    """Whether CUDA graphs can remove much of an overhead-bound call's cost: they replace
    many launches by one; a call of a kernel or two is mostly guards and Python, which they
    do not remove (and their own bookkeeping costs about as much)."""
    return device == "cuda" and launches >= MIN_LAUNCHES_FOR_GRAPHS


def advised_modes(verdict: str, launches: float, device: str) -> list[str]:
    """The torch.compile modes the advice names (what a compare() grid can check)."""
    if verdict == "overhead-bound":
        if device != "cuda":
            return []
        # every mode that can cut the launches' cost, each tried where the advice is tried
        # (CUDA graphs, or autotuned kernels without them where graphs cannot be used); a
        # call of a kernel or two is guards and Python, which no mode removes
        if cuda_graphs_help(launches, device):
            return ["reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"]
        return []
    if verdict == "compute-bound":
        return ["max-autotune", "max-autotune-no-cudagraphs"]
    return []


def _overhead_advice(launches: float, device: str) -> list[str]:
    if cuda_graphs_help(launches, device):
        return [
            f'mode="reduce-overhead" replays the {launches:.0f} kernel launches of a '
            "call as one CUDA graph, removing their launch and Python overhead",
            "bigger batches spread the fixed cost of a call over more work",
        ]
    if device == "cuda":
        return [
            "bigger batches spread the fixed cost of a call (guards, Python, launches) "
            "over more work",
            f"a call launches {launches:.0f} kernel(s): its cost is the compiled call "
            'itself, which mode="reduce-overhead" does not remove; compile a larger '
            "region so that fewer calls do more each",
            "fewer graph breaks: each break adds a guarded call and eager Python between graphs",
        ]
    return [
        "bigger batches spread the fixed cost of a call (Python, guards, launches) over more work",
        'options={"cpp_wrapper": True} replaces the Python wrapper that launches the '
        "kernels with C++",
        "fewer graph breaks: each break adds a guarded call and eager Python between graphs",
    ]


def advice(verdict: str, rows: list[Data], launches: float, device: str) -> list[str]:
    """What to do about the verdict, most useful first."""
    if verdict == "overhead-bound":
        return _overhead_advice(launches, device)
    if verdict == "memory-bound":
        heavy = sorted(
            (r for r in rows if r.get("bound") == "memory" and r.get("bytes")),
            key=lambda r: -r["bytes"] * (r["calls"] or 1),
        )[:3]
        named = ", ".join(
            f"{r.get('label') or r['name']} ({format_bytes(r['bytes'])} per launch)" for r in heavy
        )
        return [
            f"the time goes into moving memory: {named}"
            if named
            else "the time goes into moving memory",
            "fewer, larger fused kernels move fewer bytes: look for intermediates written "
            "and read back between kernels, and for graph breaks that split fusions",
            "lower precision (bfloat16) halves the bytes moved",
        ]
    return [
        'mode="max-autotune" tries more kernel configurations and templates for the '
        "heavy matmuls and convolutions",
        'lower precision: torch.set_float32_matmul_precision("high") (TF32) or bfloat16 autocast'
        if device == "cuda"
        else "lower precision: bfloat16 where the CPU supports it (AMX, AVX512-BF16)",
    ]


def below_roof_line(row: Data) -> str:
    """Why one kernel runs far below its roof (measure/below_roof.py's reason), and what
    helps instead of moving fewer bytes."""
    info = row["below_roof"]
    head = f"{row.get('label') or row['name']} runs at {row['efficiency']:.2g} of its roof"
    if info["reason"] == "page_faults":
        share = f" (about {info['fault_share']:.0%} of its time)" if "fault_share" in info else ""
        math = (
            (
                f"; it also computes {', '.join(info['transcendentals'])}, transcendental math "
                "the roofline counts as one operation"
            )
            if info["transcendentals"]
            else ""
        )
        return (
            f"{head}: page faults, {info['page_faults']:.0f} per launch{share}: it writes "
            "fresh memory every call. Pre-allocate its output and reuse it (an out= "
            "buffer, a static buffer), or use an allocator that keeps freed memory mapped "
            "(jemalloc or tcmalloc through LD_PRELOAD; glibc: raise MALLOC_MMAP_THRESHOLD_ "
            f"and MALLOC_TRIM_THRESHOLD_); moving fewer bytes will not help{math}"
        )
    if info["reason"] == "transcendentals":
        return (
            f"{head}: transcendental math ({', '.join(info['transcendentals'])}), which the "
            "roofline counts as one operation per element: it is math-bound. Fewer "
            'transcendental ops help (an approximation such as gelu(approximate="tanh"), '
            "algebra that removes them); moving fewer bytes will not"
        )
    return (
        f"{head} with neither page faults nor transcendental math to explain it: a busy "
        "machine, too few threads, or work the per-element count does not see"
    )


def judged(step: Data, rows: list[Data], device: str) -> Data:
    """``step`` (measure/roofline.py's figures) with its ``verdict``, ``basis`` as the rule
    read it, ``advice`` and ``advised_modes``; a step with kernels far below their roof puts
    their reasons first (``below_roof_share``: their share of the kernel time)."""
    by_bound = step.get("bound_us") or {}
    overhead, read = basis(step["basis"])
    if overhead:
        verdict = "overhead-bound"
    elif by_bound.get("compute", 0.0) >= by_bound.get("memory", 0.0):
        verdict = "compute-bound"
    else:
        verdict = "memory-bound"
    launches = step.get("launches") or 0.0
    out = {
        **step,
        "verdict": verdict,
        "basis": read,
        "advice": advice(verdict, rows, launches, device),
        "advised_modes": advised_modes(verdict, launches, device),
    }
    out.pop("below_roof_share", None)
    below = sorted((r for r in rows if r.get("below_roof")), key=lambda r: -r["time_us"])
    if below and verdict != "overhead-bound":
        lines = [below_roof_line(r) for r in below[:3]]
        kernel_us = step.get("kernel_us")
        share = sum(r["time_us"] for r in below) / kernel_us if kernel_us else 0
        out["below_roof_share"] = share
        out["advice"] = lines if share >= 0.5 else lines + out["advice"]
    return out
