"""One structured-trace event, as torch emitted it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Keys of the metadata envelope that are not the event itself.
ENVELOPE_KEYS = frozenset(
    {
        "frame_id",
        "frame_compile_id",
        "attempt",
        "compiled_autograd_id",
        "has_payload",
        "rank",
        "subgraph_name",
        "stack",
    }
)


@dataclass(frozen=True)
class Event:
    """``kind`` is the event key, or the artifact name for ``artifact`` events."""

    kind: str
    data: Any
    payload: str | None
    frame_id: int | None
    frame_compile_id: int | None
    attempt: int
    compiled_autograd_id: int | None

    @classmethod
    def from_record(cls, metadata: dict[str, Any], payload: str | None) -> Event:
        keys = [k for k in metadata if k not in ENVELOPE_KEYS]
        key = keys[0] if keys else "unknown"
        data = metadata.get(key)
        kind = key
        if key == "artifact" and isinstance(data, dict) and "name" in data:
            kind = str(data["name"])
        return cls(
            kind=kind,
            data=data,
            payload=payload,
            frame_id=metadata.get("frame_id"),
            frame_compile_id=metadata.get("frame_compile_id"),
            attempt=int(metadata.get("attempt") or 0),
            compiled_autograd_id=metadata.get("compiled_autograd_id"),
        )

    @property
    def half_compile_id(self) -> bool:
        """The envelope holds one part of a compile id (torch writes both or neither): a
        damaged log line."""
        return (self.frame_id is None) != (self.frame_compile_id is None)

    @property
    def compile_id(self) -> str | None:
        return compile_id(self.frame_id, self.frame_compile_id, self.compiled_autograd_id)


def compile_id(
    frame_id: int | None, frame_compile_id: int | None, compiled_autograd_id: int | None
) -> str | None:
    """tlparse's compile id without the attempt: ``0/1``, or ``!2/0/1`` under compiled autograd."""
    if frame_id is None:
        return None
    cid = f"{frame_id}/{frame_compile_id}"
    if compiled_autograd_id is not None:
        cid = f"!{compiled_autograd_id}/{cid}"
    return cid
