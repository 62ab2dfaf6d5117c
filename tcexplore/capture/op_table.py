"""Which ops only alias their input (views) and which must run even when unused (side
effects), for reading a log without torch.

The fusion map needs both answers from torch's op registry (:mod:`.fusion`). Reading a
TORCH_TRACE log or a document imports no torch, so the answers for every op registered
in torch come from ``op_table.json``, generated from torch's own schemas by

    python -m tcexplore.capture.op_table      # adds the installed torch's ops

(tests/capture/test_op_table.py checks it against the installed torch). An op the table lacks (a
custom op of the user's, an op newer than the table) is asked of torch's registry when
torch is already loaded in this process, as in a live capture; otherwise it counts as
compute with side effects, so it is reported rather than hidden.
"""

from __future__ import annotations

import json
import sys
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

TABLE = "op_table.json"
_PREFIX = "torch.ops."
VIEW, SIDE_EFFECTS = 1, 2  # flags of an op in the table


@lru_cache(maxsize=1)
def _table() -> dict[str, int]:
    text = resources.files(__package__).joinpath(TABLE).read_text(encoding="utf-8")
    return json.loads(text)["ops"]


def _flags(target: str) -> int | None:
    """The table's flags of ``torch.ops.NS.NAME.OVERLOAD``; None when the table lacks it."""
    if not target.startswith(_PREFIX):
        return None
    return _table().get(target[len(_PREFIX) :])


def _live_registry() -> Any:
    """torch's registry when torch is loaded already (never loaded for it), else None."""
    if "torch" not in sys.modules:
        return None
    from .. import _torch_compat  # noqa: PLC0415 - only with torch already in the process

    return _torch_compat


@cache
def is_view_op(target: str) -> bool:
    """Whether an ATen-style target like ``torch.ops.aten.permute.default`` only aliases its
    input: Inductor lowers views to pointer arithmetic, so no kernel contains them."""
    flags = _flags(target)
    if flags is not None:
        return bool(flags & VIEW)
    live = _live_registry()
    return live.is_view_op(target) if live else False


@cache
def has_side_effects(target: str) -> bool:
    """Whether a node calling ``target`` must run even when its value is unused (a mutating
    op, or one FX keeps as side-effectful); anything not a known op counts as having side
    effects, except ``operator.getitem``."""
    if target == "operator.getitem":
        return False
    flags = _flags(target)
    if flags is not None:
        return bool(flags & SIDE_EFFECTS)
    live = _live_registry()
    return live.has_side_effects(target) if live else True


def table_of_installed_torch() -> dict[str, int]:
    """Every op registered in the installed torch with its flags (imports torch)."""
    from .. import _torch_compat  # noqa: PLC0415 - the generator reads torch's registry

    table = {}
    for op in _torch_compat.registered_ops():
        target = _PREFIX + op
        table[op] = VIEW * _torch_compat.is_view_op(
            target
        ) | SIDE_EFFECTS * _torch_compat.has_side_effects(target)
    return table


def write_table(path: Path) -> dict[str, Any]:
    """Add the installed torch's ops to the table at ``path``; an op whose flags differ
    from a table made with another torch is an error (the table could no longer answer)."""
    import torch  # noqa: PLC0415

    current = (
        json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"torch": [], "ops": {}}
    )
    installed = table_of_installed_torch()
    clashes = sorted(
        op for op, flags in installed.items() if current["ops"].get(op, flags) != flags
    )
    if clashes:
        raise SystemExit(
            f"torch {torch.__version__} disagrees with the table on: " + ", ".join(clashes)
        )
    version = torch.__version__.split("+")[0]
    table = {
        "torch": sorted(set(current["torch"]) | {version}),
        "ops": dict(sorted({**current["ops"], **installed}.items())),
    }
    path.write_text(json.dumps(table, indent=0, separators=(",", ":")) + "\n", encoding="utf-8")
    return table


if __name__ == "__main__":
    written = write_table(Path(__file__).with_name(TABLE))
    print(f"{TABLE}: {len(written['ops'])} ops of torch {', '.join(written['torch'])}")
