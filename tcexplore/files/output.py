"""Files the commands write: checked before any work starts, written whole or not at all.

A write goes to a temporary file beside the target, which replaces the target only once
it is complete, so a full disk or a crash never leaves a truncated document behind.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import IO


class OutputError(OSError):
    """An output file that cannot be written; the message names it."""


def check_writable(path: str | Path) -> None:
    """Fail now, with the reason, if ``path`` cannot be written: its directory is missing,
    read-only or full of inodes, or the path is a directory. Writes and removes a probe,
    since permission bits do not say it (root, read-only mounts)."""
    path = Path(path)
    directory = path.parent
    if path.is_dir():
        raise OutputError(f"cannot write {path}: it is a directory")
    if not directory.is_dir():
        raise OutputError(f"cannot write {path}: no directory {directory}")
    probe = _temporary_beside(path)
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from exc
    probe.unlink(missing_ok=True)


def unwritable(*paths: str | Path | None) -> str | None:
    """The first of ``paths`` (None ones skipped) that cannot be written, as one line."""
    for path in paths:
        if path is not None:
            try:
                check_writable(path)
            except OutputError as exc:
                return str(exc)
    return None


def write_atomically(path: str | Path, write: Callable[[IO[bytes]], object]) -> Path:
    """Let ``write`` fill a binary file that replaces ``path`` only once complete;
    OutputError naming ``path`` if that fails."""
    path = Path(path)
    temporary = _temporary_beside(path)
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(descriptor, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())  # a full disk must fail here, not after the rename
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return path


def write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; OutputError naming it if that fails."""
    return write_atomically(path, lambda file: file.write(text.encode("utf-8")))


def _temporary_beside(path: Path) -> Path:
    return path.with_name(f".{path.name}.{uuid.uuid4().hex[:12]}.tmp")
