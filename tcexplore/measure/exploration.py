"""``Exploration``: what ``explore()`` returns — the document plus notebook display."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..decided import Document
from ..document import MIME_TYPE

__all__ = ["Exploration", "MIME_TYPE", "max_abs_error"]


class Exploration:
    def __init__(self, document: Document):
        self.document = document

    @property
    def timing(self) -> dict[str, Any] | None:
        return self.document.data.get("timing")

    @property
    def accuracy(self) -> dict[str, Any] | None:
        return self.document.data.get("accuracy")

    @property
    def profile(self) -> dict[str, Any] | None:
        """Where the time goes (``explore(..., profile=True)``): ``kernels``, ``lines``,
        ``files``, ``peaks`` and the ``step`` with its verdict and advice."""
        return self.document.data.get("profile")

    @property
    def isolation(self) -> dict[str, Any] | None:
        """What measuring put back after running the user's code (``restored``) and what
        it cannot (``not_restorable``)."""
        return self.document.data.get("isolation")

    @property
    def memory(self) -> dict[str, Any] | None:
        """Where the memory goes: ``peak_bytes`` (eager, compiled, how; ``explore(...,
        memory=True)``), ``saved_for_backward`` {bytes, tensors, lines}, ``recomputed``,
        ``activation_memory_budget``, ``buffers`` per output code, ``cudagraph_pools``."""
        from ..findings.memory import memory_summary  # noqa: PLC0415

        return memory_summary(self.document.data)

    @property
    def tries(self) -> list[dict[str, Any]]:
        """The fixes tried (``explore(..., try_fixes=True)``): each ``label``, ``before`` →
        ``after``, ``helped`` and the ``sentence`` its findings show."""
        return self.document.data.get("tries") or []

    @property
    def error(self) -> dict[str, Any] | None:
        """What raised: the code's own call (the document's ``error``), else a measurement."""
        data = self.document.data
        return data.get("error") or (data.get("explore") or {}).get("error")

    def to_dict(self) -> dict[str, Any]:
        return self.document.data

    def summary(self) -> dict[str, Any]:
        """The capture counts, plus the headline figures of timing and accuracy."""
        result: dict[str, Any] = dict(self.document.summary)
        if self.timing:
            result.update(
                speedup=self.timing["speedup"],
                compile_s=self.timing["compile_s"],
                eager_ms=self.timing["eager"]["median_ms"],
                compiled_ms=self.timing["compiled"]["median_ms"],
                break_even_calls=self.timing["break_even_calls"],
            )
        if self.accuracy:
            result["accurate"] = self.accuracy["ok"]
            result["max_abs_err"] = max_abs_error(self.accuracy)
            if self.accuracy.get("cause"):
                result["accuracy_cause"] = self.accuracy["cause"]
        if self.error:
            result["error"] = f"{self.error['type']}: {self.error['message']}"
        return result

    def graph_break_audit(self) -> list[dict[str, Any]]:
        """``Document.graph_break_audit``: the graph breaks grouped by site, most first."""
        return self.document.graph_break_audit()

    def kernel(self, name: str, *, compile: str | None = None, output: str | None = None) -> Any:
        """``Document.kernel``: one kernel, with its ``reproducer()``."""
        return self.document.kernel(name, compile=compile, output=output)

    def save(self, path: str | Path) -> Path:
        return self.document.save(path)

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return self.document.mime_bundle(repr(self))

    def __repr__(self) -> str:
        parts = ", ".join(
            f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}"
            for k, v in self.summary().items()
        )
        return f"<tcexplore.Exploration {parts}>"


def max_abs_error(accuracy: dict[str, Any]) -> float | None:
    errors = [r["max_abs_err"] for r in accuracy["outputs"] if r.get("max_abs_err") is not None]
    return max(errors) if errors else None
