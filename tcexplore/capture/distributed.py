"""Where this process sits in a distributed job: rank, world size, process-group backend.

Read through torch.distributed's public API while the default process group exists: a
capture looks at every trace event until it has seen one (scripts usually destroy the
group before they end). Without a group, a launcher's ``RANK``/``WORLD_SIZE`` (torchrun
sets them) still place the process.
"""

from __future__ import annotations

import os
from typing import Any


def process_group() -> dict[str, Any] | None:
    """Rank, world size and backend of the default process group, if one is initialized."""
    import torch.distributed as dist  # noqa: PLC0415 - torch is imported by now

    if not (dist.is_available() and dist.is_initialized()):
        return None
    return {
        "rank": dist.get_rank(),
        "world_size": dist.get_world_size(),
        "backend": str(dist.get_backend()),
        "local_rank": _env_int("LOCAL_RANK"),
        "source": "process_group",
    }


def launcher() -> dict[str, Any] | None:
    """What a launcher told the process through its environment (torchrun, or any that
    sets RANK and WORLD_SIZE)."""
    rank, world_size = _env_int("RANK"), _env_int("WORLD_SIZE")
    if rank is None or world_size is None:
        return None
    return {
        "rank": rank,
        "world_size": world_size,
        "backend": None,
        "local_rank": _env_int("LOCAL_RANK"),
        "source": "environment",
    }


def _env_int(name: str) -> int | None:
    try:
        return int(os.environ[name])
    except (KeyError, ValueError):
        return None
