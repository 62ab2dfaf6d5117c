"""Numeric diff of two output pytrees, leaf by leaf, with dtype-aware tolerances."""

from __future__ import annotations

from typing import Any

import torch

from .. import _torch_compat

# torch.testing.assert_close's documented defaults (rtol, atol) per dtype.
DEFAULT_TOLERANCES = {
    torch.float16: (1e-3, 1e-5), torch.bfloat16: (1.6e-2, 1e-5), torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7), torch.complex32: (1e-3, 1e-5), torch.complex64: (1.3e-6, 1e-5),
    torch.complex128: (1e-7, 1e-7),
}


def tolerances(dtype: torch.dtype) -> tuple[float, float]:
    return DEFAULT_TOLERANCES.get(dtype, (0.0, 0.0))


def _tensor_diff(expected: torch.Tensor, actual: torch.Tensor) -> dict[str, Any]:
    rtol, atol = tolerances(expected.dtype)
    result: dict[str, Any] = {
        "kind": "tensor", "shape": list(expected.shape), "dtype": str(expected.dtype),
        "shape_match": list(expected.shape) == list(actual.shape),
        "dtype_match": expected.dtype == actual.dtype, "rtol": rtol, "atol": atol,
        "max_abs_err": None, "max_rel_err": None, "mismatched": None,
        "numel": expected.numel(), "nan_inf_mismatch": 0,
    }
    if not (result["shape_match"] and result["dtype_match"]):
        result["ok"] = False
        return result
    e, a = expected.detach(), actual.detach().to(expected.device)
    if e.is_complex() or e.is_floating_point():
        e64, a64 = e.to(torch.complex128 if e.is_complex() else torch.float64), a.to(
            torch.complex128 if e.is_complex() else torch.float64)
        finite = torch.isfinite(e64) & torch.isfinite(a64)
        nonfinite_differs = (torch.isnan(e64) != torch.isnan(a64)) | (
            torch.isinf(e64) & torch.isinf(a64) & (e64 != a64)) | (torch.isinf(e64) != torch.isinf(a64))
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
    rel = diff / denom.clamp_min(torch.finfo(torch.float64).tiny) if diff.numel() else diff
    result["max_rel_err"] = float(rel.max()) if rel.numel() else 0.0
    result["mismatched"] = int((~close).sum())
    result["ok"] = result["mismatched"] == 0 and result["nan_inf_mismatch"] == 0
    return result


def diff_leaf(expected: Any, actual: Any) -> dict[str, Any]:
    if isinstance(expected, torch.Tensor) and isinstance(actual, torch.Tensor):
        return _tensor_diff(expected, actual)
    if isinstance(expected, torch.Tensor) or isinstance(actual, torch.Tensor):
        return {"kind": "type_mismatch", "ok": False, "expected": type(expected).__name__,
                "actual": type(actual).__name__}
    try:
        equal = bool(expected == actual)
    except Exception:  # noqa: BLE001 - an object whose == raises is reported unequal
        equal = False
    return {"kind": "value", "ok": equal, "expected": repr(expected)[:200],
            "actual": repr(actual)[:200]}


def diff_outputs(expected: Any, actual: Any) -> list[dict[str, Any]]:
    """One entry per pytree leaf, with its path (``[0]['logits']``)."""
    expected_leaves, expected_spec = _torch_compat.tree_flatten_with_paths(expected)
    actual_leaves, actual_spec = _torch_compat.tree_flatten_with_paths(actual)
    if expected_spec != actual_spec:
        return [{"path": "", "kind": "structure_mismatch", "ok": False,
                 "expected": str(expected_spec)[:300], "actual": str(actual_spec)[:300]}]
    return [{"path": path, **diff_leaf(e, a)}
            for (path, e), (_, a) in zip(expected_leaves, actual_leaves)]


def closeness_to_reference(reference: Any, eager: Any, compiled: Any) -> list[dict[str, Any]]:
    """Per leaf: max abs error of eager and of compiled against an fp64 reference."""
    ref_leaves, _ = _torch_compat.tree_flatten_with_paths(reference)
    eager_leaves, _ = _torch_compat.tree_flatten_with_paths(eager)
    compiled_leaves, _ = _torch_compat.tree_flatten_with_paths(compiled)
    rows = []
    for (path, r), (_, e), (_, c) in zip(ref_leaves, eager_leaves, compiled_leaves):
        if not all(isinstance(t, torch.Tensor) and t.is_floating_point() for t in (r, e, c)):
            continue
        r64 = r.detach().double()
        eager_err = float((e.detach().double() - r64).abs().max()) if r.numel() else 0.0
        compiled_err = float((c.detach().double().to(r64.device) - r64).abs().max()) if r.numel() else 0.0
        verdict = ("same" if compiled_err == eager_err
                   else "closer" if compiled_err < eager_err else "farther")
        rows.append({"path": path, "eager_err": eager_err, "compiled_err": compiled_err,
                     "compiled_vs_eager": verdict})
    return rows
