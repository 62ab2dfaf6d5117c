"""Guards as a cost: a compiled frame of an overhead-bound step whose guard evaluation is a
large share of its time outside kernels. The figures are the run view's (measure/run_view.py):
Dynamo's cache lookup at each steady entry, beside torch's own cold figure from the compile
(``compilation_metrics.guard_latency_us``: one check after flushing the CPU cache, an upper
bound). The advice names torch's ``guard_filter_fn`` helpers with their risk; the fix tried
is the one for built-in modules, the narrowest."""

from __future__ import annotations

from typing import Any

from ..common.formatting import count, share, time_us
from .make import compile_link, finding, tab_link

Data = dict[str, Any]

GUARD_SHARE = 0.25  # of a frame's time outside kernels per entry (guards included)
HELPER = "torch.compiler.skip_guard_on_inbuilt_nn_modules_unsafe"
ADVICE = (
    'Fewer guards: `torch.compile(..., options={"guard_filter_fn": ' + HELPER + "})` "
    "drops the guards on built-in nn modules' attributes and parameters (unsafe: swapping "
    "such a module, or changing its attributes, is no longer noticed and the old graph keeps "
    "running); `torch.compiler.skip_guard_on_all_nn_modules_unsafe` drops them for every "
    "module, your own too (the same risk, wider); `torch.compiler.keep_tensor_guards_unsafe` "
    "keeps only the tensors' guards (any other value the code reads is assumed never to "
    "change)"
)
# A setting try_fixes resolves (measure/try_fixes.py): the helper passed as
# options={"guard_filter_fn": ...} to the variant's torch.compile.
FIX = {
    "setting": {"kind": "guard_filter", "module": None, "name": "guard_filter_fn", "value": HELPER},
    "label": f"guard_filter_fn={HELPER}",
    "not_tried": None,
}


def _overhead_bound(data: Data) -> bool:
    step = (data.get("profile") or {}).get("step") or {}
    return step.get("verdict") == "overhead-bound"


def guard_rows(run: Data) -> list[tuple[Data, float]]:
    """Forward frames with a steady guard time, each with the guards' share of its time
    outside kernels per entry (the guards, evaluated before the frame, counted in)."""
    rows = []
    for row in run.get("frames") or []:
        guard = row.get("guard_us")
        if row.get("backward") or guard is None or not row.get("entered"):
            continue
        outside = row["outside_us"] / row["entered"] + guard
        rows.append((row, guard / outside if outside else 0.0))
    return rows


def find(data: Data) -> list[Data]:
    profile = data.get("profile")
    run = profile.get("run") if isinstance(profile, dict) else None
    if not isinstance(run, dict) or not _overhead_bound(data):
        return []
    found = []
    for row, part in guard_rows(run):
        if part < GUARD_SHARE:
            continue
        compiles = data.get("compiles") or []
        record = compiles[row["compile"]] if isinstance(row.get("compile"), int) else {}
        guards = len(record.get("guards") or [])
        cold = row.get("guard_latency_us")
        details = [
            f"{time_us(row['guard_us'])} per entry in Dynamo's cache lookup, steady (its "
            "profiler range, median over the steady entries)"
            + (
                f"; torch measured {time_us(cold)} cold at compile (guard_latency_us)"
                if cold
                else ""
            )
        ]
        if guards:
            details.append(f"{count(guards)} guards in compile {row['compile_id']}")
        found.append(
            finding(
                "guard_cost",
                "warning",
                f"Guards take {share(part)} of compile {row['compile_id']}'s time outside "
                f"kernels ({row['frame']}): {time_us(row['guard_us'])} per entry",
                advice=ADVICE + ".",
                fix=FIX,
                details=details,
                evidence=[compile_link(row["compile_id"]), tab_link("run", "the run's steps")],
            )
        )
    return found
