"""The excerpts of real torch output under tests/fixtures/torch_output (how each was cut:
its regenerate.py), read by the parser and handler tests without compiling anything."""

from __future__ import annotations

from pathlib import Path

TORCH_OUTPUT = Path(__file__).parent / "fixtures" / "torch_output"


def excerpt(name: str) -> str:
    """The text of ``tests/fixtures/torch_output/<name>``."""
    return (TORCH_OUTPUT / name).read_text(encoding="utf-8")
