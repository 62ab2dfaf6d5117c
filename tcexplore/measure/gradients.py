"""What a training step changed, eager against compiled: its gradients, one row per
parameter, and the state it left (parameters, buffers, optimizer state), one row per tensor.

Each side runs one step from the same saved state (:mod:`.snapshot` puts it back between
them), so each ``.grad`` holds what one step computed and each parameter what one step made
of it; the rows are compared as outputs are (:func:`.diff.diff_named`: torch.testing's
tolerances, mismatches first, bounded).
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


State = dict[str, tuple[torch.Tensor, torch.Tensor | None]]  # Snapshot.changed_state()


def state_rows(eager: State, compiled: State) -> dict[str, Any]:
    """``{"state_after_call": rows}`` where either step changed its state (a parameter an
    optimizer stepped, a buffer, optimizer state); ``{}`` where neither did. A tensor one
    side left as it was holds its saved value on that side (None: a state the other made)."""
    if not eager and not compiled:
        return {}
    names = list(dict.fromkeys([*eager, *compiled]))

    def after(side: State, other: State) -> dict[str, Any]:
        return {name: side[name][0] if name in side else other[name][1] for name in names}

    return {"state_after_call": diff_named(after(eager, compiled), after(compiled, eager))}
