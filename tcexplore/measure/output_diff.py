"""Structural diff of eager and compiled outputs, leaf by leaf, with dtype-aware tolerances.

Both outputs are walked together (``structure.children``: pytree containers, dataclasses,
plain objects such as Hugging Face caches); every tensor is compared numerically, every
plain value by value, anything else is listed as not compared. Sizes are bounded: at
most ``MAX_LEAVES`` leaves are compared and ``MAX_ROWS`` rows kept (mismatches first),
with a ``truncated`` row saying what was left out.
"""

from __future__ import annotations

import cmath
import math
from typing import Any

import torch

from .structure import children, is_value, join, type_name

# torch.testing.assert_close's documented defaults (rtol, atol) per dtype.
DEFAULT_TOLERANCES = {
    torch.float16: (1e-3, 1e-5),
    torch.bfloat16: (1.6e-2, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
    torch.complex32: (1e-3, 1e-5),
    torch.complex64: (1.3e-6, 1e-5),
    torch.complex128: (1e-7, 1e-7),
}


def tolerances(dtype: torch.dtype) -> tuple[float, float]:
    return DEFAULT_TOLERANCES.get(dtype, (0.0, 0.0))


def _tensor_diff(expected: torch.Tensor, actual: torch.Tensor) -> dict[str, Any]:
    rtol, atol = tolerances(expected.dtype)
    result: dict[str, Any] = {
        "kind": "tensor",
        "shape": list(expected.shape),
        "dtype": str(expected.dtype),
        "shape_match": list(expected.shape) == list(actual.shape),
        "dtype_match": expected.dtype == actual.dtype,
        "rtol": rtol,
        "atol": atol,
        "max_abs_err": None,
        "max_rel_err": None,
        "mismatched": None,
        "numel": expected.numel(),
        "nan_inf_mismatch": 0,
    }
    if not (result["shape_match"] and result["dtype_match"]):
        result["ok"] = False
        return result
    e, a = expected.detach(), actual.detach().to(expected.device)
    if e.is_complex() or e.is_floating_point():
        e64, a64 = (
            e.to(torch.complex128 if e.is_complex() else torch.float64),
            a.to(torch.complex128 if e.is_complex() else torch.float64),
        )
        finite = torch.isfinite(e64) & torch.isfinite(a64)
        nonfinite_differs = (
            (torch.isnan(e64) != torch.isnan(a64))
            | (torch.isinf(e64) & torch.isinf(a64) & (e64 != a64))
            | (torch.isinf(e64) != torch.isinf(a64))
        )
        result["nan_inf_mismatch"] = int(nonfinite_differs.sum())
        diff = (e64 - a64).abs()[finite]
        denom = e64.abs()[finite]
        close = torch.isclose(a64, e64, rtol=rtol, atol=atol, equal_nan=True)
    else:
        # float64: an integer denominator cannot be clamped above 0, and 0 / 0 is NaN (not JSON)
        diff = ((e.long() - a.long()).abs() if e.dtype != torch.bool else (e != a).long()).double()
        denom = e.long().abs().double() if e.dtype != torch.bool else torch.ones_like(diff)
        close = e == a
    result["max_abs_err"] = float(diff.max()) if diff.numel() else 0.0
    zero = denom == 0
    rel = diff[~zero] / denom[~zero]
    # An element that differs where eager is 0 has an infinite relative error: JSON has no
    # infinity, so the field is null then.
    infinite = bool((diff[zero] > 0).any())
    result["max_rel_err"] = None if infinite else float(rel.max()) if rel.numel() else 0.0
    result["mismatched"] = int((~close).sum())
    result["ok"] = result["mismatched"] == 0 and result["nan_inf_mismatch"] == 0
    return result


def diff_leaf(expected: Any, actual: Any) -> dict[str, Any]:
    """Two tensors numerically; a tensor against anything else is a type mismatch."""
    if isinstance(expected, torch.Tensor) and isinstance(actual, torch.Tensor):
        return _tensor_diff(expected, actual)
    return {
        "kind": "type_mismatch",
        "ok": False,
        "expected": type_name(expected),
        "actual": type_name(actual),
    }


# Python floats from a compiled function usually come from float32 tensors (``.item()``):
# float32's tolerances, not float64's.
VALUE_RTOL, VALUE_ATOL = DEFAULT_TOLERANCES[torch.float32]


def _value_diff(expected: Any, actual: Any) -> dict[str, Any]:
    result: dict[str, Any] = {
        "kind": "value",
        "type": type_name(expected),
        "expected": repr(expected)[:200],
        "actual": repr(actual)[:200],
    }
    numeric = all(
        isinstance(v, (int, float, complex)) and not isinstance(v, bool) for v in (expected, actual)
    )
    if numeric and (isinstance(expected, (float, complex)) or isinstance(actual, (float, complex))):
        same = expected == actual or (cmath.isnan(expected) and cmath.isnan(actual))
        error = 0.0 if same else abs(complex(expected) - complex(actual))
        result["max_abs_err"] = error if math.isfinite(error) else None  # JSON has no inf/NaN
        result["ok"] = same or (
            math.isfinite(error) and error <= VALUE_ATOL + VALUE_RTOL * abs(complex(expected))
        )
    else:
        result["ok"] = type(expected) is type(actual) and bool(expected == actual)
    return result


MAX_LEAVES = 10_000  # leaves compared per walk (outputs, inputs)
MAX_ROWS = 200  # rows kept per walk in the document
MAX_DEPTH = 32


class _Walk:
    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.limit_reached = False

    def pair(self, path: str, expected: Any, actual: Any, enclosing: tuple[int, ...] = ()) -> None:
        if len(self.rows) >= MAX_LEAVES:
            self.limit_reached = True
            return
        if isinstance(expected, torch.Tensor) or isinstance(actual, torch.Tensor):
            self.rows.append({"path": path, **diff_leaf(expected, actual)})
            return
        if is_value(expected) and is_value(actual):
            self.rows.append({"path": path, **_value_diff(expected, actual)})
            return
        if len(enclosing) >= MAX_DEPTH or id(expected) in enclosing:
            reason = (
                f"nested deeper than {MAX_DEPTH} levels"
                if len(enclosing) >= MAX_DEPTH
                else "refers back to an enclosing object"
            )
            self.rows.append(
                {
                    "path": path,
                    "kind": "not_compared",
                    "ok": True,
                    "type": type_name(expected),
                    "reason": reason,
                }
            )
            return
        expected_children, actual_children = children(expected), children(actual)
        if expected_children is None and actual_children is None:
            if type(expected) is type(actual):
                self.rows.append(
                    {"path": path, "kind": "not_compared", "ok": True, "type": type_name(expected)}
                )
            else:
                self.rows.append(
                    {
                        "path": path,
                        "kind": "type_mismatch",
                        "ok": False,
                        "expected": type_name(expected),
                        "actual": type_name(actual),
                    }
                )
            return
        leaf_on_one_side = expected_children is None or actual_children is None
        if leaf_on_one_side or type(expected) is not type(actual):
            self.rows.append(
                {
                    "path": path,
                    "kind": "type_mismatch",
                    "ok": False,
                    "expected": type_name(expected),
                    "actual": type_name(actual),
                }
            )
            if leaf_on_one_side:
                return
        self.pair_children(
            path, dict(expected_children), dict(actual_children), (*enclosing, id(expected))
        )

    def pair_children(
        self,
        path: str,
        expected: dict[str, Any],
        actual: dict[str, Any],
        enclosing: tuple[int, ...] = (),
    ) -> None:
        missing = [step for step in expected if step not in actual]
        extra = [step for step in actual if step not in expected]
        if missing or extra:
            self.rows.append(
                {
                    "path": path,
                    "kind": "structure_mismatch",
                    "ok": False,
                    "expected": ", ".join(missing)[:300] or "—",
                    "actual": ", ".join(extra)[:300] or "—",
                }
            )
        for step, child in expected.items():
            if step in actual:
                self.pair(join(path, step), child, actual[step], enclosing)

    def result(self) -> list[dict[str, Any]]:
        """The rows, bounded: every mismatch first kept, then matches in order."""
        rows = self.rows
        if len(rows) > MAX_ROWS:
            bad = [i for i, r in enumerate(rows) if not r["ok"]][:MAX_ROWS]
            good = [i for i, r in enumerate(rows) if r["ok"]][: MAX_ROWS - len(bad)]
            kept = sorted(bad + good)
            omitted_bad = sum(1 for r in rows if not r["ok"]) - len(bad)
            rows = [rows[i] for i in kept]
            rows.append(
                {
                    "path": "",
                    "kind": "truncated",
                    "ok": omitted_bad == 0,
                    "omitted": len(self.rows) - len(kept),
                    "omitted_mismatches": omitted_bad,
                    "limit_reached": self.limit_reached,
                }
            )
        elif self.limit_reached:
            rows = [
                *rows,
                {
                    "path": "",
                    "kind": "truncated",
                    "ok": True,
                    "omitted": 0,
                    "omitted_mismatches": 0,
                    "limit_reached": True,
                },
            ]
        return rows


def diff_outputs(expected: Any, actual: Any) -> list[dict[str, Any]]:
    """One row per leaf of the output, with its path (``logits``,
    ``cache.layers[0].keys``, ``[0]``; the output itself when it is a leaf: "")."""
    walk = _Walk()
    walk.pair("", expected, actual)
    return walk.result()


def diff_named(expected: dict[str, Any], actual: dict[str, Any]) -> list[dict[str, Any]]:
    """As ``diff_outputs``, for values named by variables (a cell's names, ``args``):
    the paths start with the name (``y``, ``args[0]``)."""
    walk = _Walk()
    walk.pair_children(
        "",
        {f".{name}": v for name, v in expected.items()},
        {f".{name}": v for name, v in actual.items()},
    )
    return walk.result()


def tensor_leaves(value: Any, path: str = "", depth: int = 0) -> dict[str, torch.Tensor]:
    """Every tensor of an output by path, as ``diff_outputs`` names them."""
    if isinstance(value, torch.Tensor):
        return {path: value}
    found: dict[str, torch.Tensor] = {}
    if depth < MAX_DEPTH:
        for step, child in children(value) or []:
            found.update(tensor_leaves(child, join(path, step), depth + 1))
            if len(found) >= MAX_LEAVES:
                break
    return found


def closeness_to_reference(reference: Any, eager: Any, compiled: Any) -> list[dict[str, Any]]:
    """Per floating tensor: max abs error of eager and of compiled against an fp64 reference."""
    eager_leaves, compiled_leaves = tensor_leaves(eager), tensor_leaves(compiled)
    rows = []
    for path, r in tensor_leaves(reference).items():
        e, c = eager_leaves.get(path), compiled_leaves.get(path)
        if not all(isinstance(t, torch.Tensor) and t.is_floating_point() for t in (r, e, c)):
            continue
        r64 = r.detach().double()
        eager_err = float((e.detach().double() - r64).abs().max()) if r.numel() else 0.0
        compiled_err = (
            float((c.detach().double().to(r64.device) - r64).abs().max()) if r.numel() else 0.0
        )
        verdict = (
            "same"
            if compiled_err == eager_err
            else "closer"
            if compiled_err < eager_err
            else "farther"
        )
        rows.append(
            {
                "path": path,
                "eager_err": eager_err,
                "compiled_err": compiled_err,
                "compiled_vs_eager": verdict,
            }
        )
    return rows
