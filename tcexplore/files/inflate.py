"""Bounded gzip inflation of what a document's reader is handed: a ``.json.gz`` file and the
``packed`` compiles of a notebook output (``render/notebook.py``).

A notebook output comes from anyone: a few MB of gzip can inflate to gigabytes. Inflation
is streamed and stops at a limit relative to the packed size and absolute, with an error
naming both (the JupyterLab extension applies the same ratio: extension/src/model/unpack.ts).
"""

from __future__ import annotations

import base64
import binascii
import zlib
from typing import Any

# Documents (JSON of graphs and code) inflate 5-30x; gzip of zeros ~1000x.
MAX_INFLATE_RATIO = 200
MAX_INFLATED_BYTES = 512 * 1024 * 1024  # a Python process reads larger than a browser tab
GZIP_MAGIC = b"\x1f\x8b"


class InflationError(ValueError):
    """Packed data that is not gzip, is cut short, or inflates past the limit."""


def inflate_limit(packed_bytes: int) -> int:
    return min(MAX_INFLATE_RATIO * packed_bytes, MAX_INFLATED_BYTES)


def _mib(size: int) -> str:
    return f"{size / 1024:.1f} KiB" if size < 1024 * 1024 else f"{size / (1024 * 1024):.1f} MiB"


def inflate_gzip(packed: bytes, what: str) -> bytes:
    """``packed`` inflated, never past :func:`inflate_limit` bytes (zlib's ``max_length``:
    the output is never produced beyond the limit, however much the input would give)."""
    limit = inflate_limit(len(packed))
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(packed, limit + 1)
    except zlib.error as exc:
        raise InflationError(f"{what} is not gzip data: {exc}") from None
    if len(out) > limit:
        raise InflationError(
            f"{what} ({_mib(len(packed))} packed) inflates to more than {_mib(limit)}, the "
            f"limit ({MAX_INFLATE_RATIO}x the packed size, at most {_mib(MAX_INFLATED_BYTES)}); "
            "not read"
        )
    if not inflater.eof:
        raise InflationError(f"{what} is cut short: its gzip stream does not end")
    return out


def unpack_document(shown: dict[str, Any], parse: Any) -> dict[str, Any]:
    """A notebook output's document with its ``packed`` sections restored (bounded);
    ``parse`` turns JSON bytes into data."""
    packed = shown.get("packed")
    if not packed:
        return shown
    if (
        not isinstance(packed, dict)
        or packed.get("encoding") != "gzip+base64"
        or not isinstance(packed.get("data"), str)
    ):
        raise InflationError("the document's packed compiles are not gzip+base64 data")
    try:
        raw = base64.b64decode(packed["data"], validate=True)
    except (binascii.Error, ValueError):
        raise InflationError("the document's packed compiles are not base64") from None
    sections = parse(inflate_gzip(raw, "the document's packed compiles"))
    if not isinstance(sections, dict):
        raise InflationError("the document's packed compiles are not a JSON object")
    return {**{k: v for k, v in shown.items() if k != "packed"}, **sections}
