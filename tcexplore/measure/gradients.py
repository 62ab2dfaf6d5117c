"""The gradients of a training step, eager against compiled: one row per parameter.

Each side runs one step from the same saved state (:mod:`.snapshot` puts it back between
them), so each ``.grad`` holds what one step computed; the rows are compared as outputs
are (:func:`.diff.diff_named`: torch.testing's tolerances, mismatches first, bounded).
"""

from __future__ import annotations

from typing import Any

import torch

from .output_diff import diff_named


def gradient_rows(
    eager: dict[str, torch.Tensor | None], compiled: dict[str, torch.Tensor | None]
) -> dict[str, Any]:
    """``{"gradients": rows}`` where either run changed a gradient (a step that calls
    ``backward()``); ``{}`` where neither did. A path is the parameter's name
    (``Net.fc.weight``, ``model.0.bias``, ``args[0]``)."""
    if not eager and not compiled:
        return {}
    names = list(dict.fromkeys([*eager, *compiled]))
    return {
        "gradients": diff_named(
            {name: eager.get(name) for name in names}, {name: compiled.get(name) for name in names}
        )
    }


def gradients_ok(accuracy: dict[str, Any]) -> bool:
    return all(row["ok"] for row in accuracy.get("gradients", []))
