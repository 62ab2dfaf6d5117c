"""``compare()``: one isolated exploration per configuration; a failing one is a row, not a crash.

A :class:`Comparison` displays as the grid (the tcexplore MIME type with ``"kind":
"comparison"``, like ``"kind": "ranks"``), and each row's document carries the grid it
belongs to in its ``comparison`` section, so the explorer of a row has a filled Compare tab.
"""

from __future__ import annotations

import datetime
import itertools
import json
import multiprocessing
import os
import tempfile
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from .. import _torch_compat
from .._version import __version__
from ..decided import Document, grid_bundle, grid_html
from ..document import SCHEMA
from ..files.output import write_text
from ..findings import listing
from ..findings.comparison import accuracy_status, decide_grid
from .cold import IN_FRESH_PROCESS, cold_compiles
from .exploration import Exploration, max_abs_error
from .explore import explore
from .same_runs import collapse_same_runs
from .timing import uses_cuda

ROW_KEYS = (
    "mode",
    "backend",
    "dynamic",
    "status",
    "error",
    "compile_s",
    "median_ms",
    "speedup",
    "max_abs_err",
    "graphs",
    "graph_breaks",
    "kernels",
)


def _row(
    config: dict[str, Any], exploration: Exploration | None, error: str | None
) -> dict[str, Any]:
    row: dict[str, Any] = {
        **config,
        "status": "error",
        "error": error,
        "compile_s": None,
        "median_ms": None,
        "speedup": None,
        "max_abs_err": None,
        "graphs": None,
        "graph_breaks": None,
        "kernels": None,
        "exploration": exploration,
    }
    if exploration is None:
        return row
    summary = exploration.document.summary
    row.update(
        graphs=summary["graphs"], graph_breaks=summary["graph_breaks"], kernels=summary["kernels"]
    )
    if exploration.error:
        row["error"] = f"{exploration.error['type']}: {exploration.error['message']}"
        return row
    timing, accuracy = exploration.timing, exploration.accuracy
    if timing:
        row.update(
            compile_s=timing["compile_s"],
            median_ms=timing["compiled"]["median_ms"],
            speedup=timing["speedup"],
        )
    if accuracy:
        row["max_abs_err"] = max_abs_error(accuracy)
    row["status"] = accuracy_status(accuracy)
    return row


def _explore_in_subprocess(
    fn: Callable, args: tuple, config: dict[str, Any], options: dict[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    with _torch_compat.ignored_backend_options() as said:
        exploration = explore(
            fn,
            *args,
            mode=config["mode"],
            backend=config["backend"],
            dynamic=config["dynamic"],
            **options,
        )
    return exploration.document.data, said


def row_label(row: dict[str, Any]) -> str:
    return f"{row['backend']} / {row['mode'] or 'default'} / dynamic={row['dynamic']}"


def _grid_row(row: dict[str, Any]) -> dict[str, Any]:
    """A row as the grid shows it: its figures, the speedup's interval, the profile's
    verdict (``compare(..., profile=True)``), no document."""
    exploration = row["exploration"]
    timing = exploration.timing if exploration is not None else None
    profile = exploration.profile if exploration is not None else None
    return {
        "label": row_label(row),
        **{k: row[k] for k in ROW_KEYS},
        "speedup_interval": (timing or {}).get("speedup_interval"),
        "noisy": (timing or {}).get("noisy"),
        "busy": ((timing or {}).get("machine") or {}).get("busy"),
        "verdict": (profile or {}).get("step", {}).get("verdict"),
        "advised_modes": (profile or {}).get("step", {}).get("advised_modes") or [],
        "same_runs": row.get("same_runs") or [],
        "ignored_options": row.get("ignored_options") or [],
        "peak_memory_bytes": _compiled_peak(exploration),
        "cold_compile": (
            (exploration.document.data.get("explore") or {}).get("cold_compile")
            if exploration is not None
            else None
        ),
    }


def _compiled_peak(exploration: Exploration | None) -> int | None:
    """The compiled call's peak above what was allocated before it (compare(..., memory=True))."""
    peaks = (
        (exploration.document.data.get("memory") or {}).get("peak_bytes")
        if exploration is not None
        else None
    )
    return peaks["compiled"]["above_before_bytes"] if peaks else None


class Comparison:
    """The grid: ``.rows`` (dicts, each with its ``exploration``), ``.to_markdown()``,
    ``.figure()`` (plotly), ``.save()``; in a notebook it displays as the grid, each row
    opening its own explorer."""

    def __init__(self, rows: list[dict[str, Any]]):
        """``rows`` as :func:`explore_row` makes them; those torch ran as another row of
        the grid are folded into it (``same_runs``), whichever path made the grid."""
        rows = collapse_same_runs(rows, row_label)
        grid = [_grid_row(row) for row in rows]
        self.decided = decide_grid(grid)  # best row, headline, notes, advice check
        self.advice_check = self.decided["advice_check"]
        for i, row in enumerate(rows):
            if row["exploration"] is not None:
                row["exploration"] = Exploration(
                    row["exploration"].document.with_sections(
                        comparison={"row": i, "rows": grid, **self.decided}
                    )
                )
        self.rows = rows
        self.id = uuid.uuid4().hex
        self.created = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")

    def to_markdown(self) -> str:
        def cell(value: Any) -> str:
            if value is None:
                return ""
            if isinstance(value, float):
                return f"{value:.4g}"
            return str(value).replace("|", "\\|").replace("\n", " ")[:120]

        lines = ["| " + " | ".join(ROW_KEYS) + " |", "|" + "---|" * len(ROW_KEYS)]
        lines += ["| " + " | ".join(cell(row[k]) for k in ROW_KEYS) + " |" for row in self.rows]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The grid as a tcexplore document (``"kind": "comparison"``), each row's whole
        exploration document inline."""
        rows = []
        for row in self.rows:
            exploration = row["exploration"]
            rows.append(
                {
                    **_grid_row(row),
                    "document": exploration.document.data if exploration else None,
                    "document_left_out": None,
                }
            )
        decided = decide_grid(rows)
        return {
            "schema": SCHEMA,
            "kind": "comparison",
            "id": self.id,
            "tool": {"name": "tcexplore", "version": __version__},
            "created": self.created,
            "rows": rows,
            **decided,
            "listing": listing.grid(rows),
        }

    def save(self, path: str | Path) -> Path:
        """``.html`` writes the grid with each row's report; anything else the JSON document."""
        path = Path(path)
        data = self.to_dict()
        if path.suffix.lower() in (".html", ".htm"):
            return write_text(path, grid_html(data))
        return write_text(path, json.dumps(data, ensure_ascii=False))

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return grid_bundle(self.to_dict(), repr(self))

    def __repr__(self) -> str:
        rows = ", ".join(
            f"{row_label(r)}: {r['status']}"
            + (f" {r['speedup']:.3g}x" if isinstance(r["speedup"], float) else "")
            for r in self.rows
        )
        return f"<tcexplore.Comparison {len(self.rows)} rows: {rows}>"

    def figure(self) -> Any:
        """Compile time, runtime, speedup and max abs error per configuration (plotly)."""
        import plotly.graph_objects as go  # noqa: PLC0415
        from plotly.subplots import make_subplots  # noqa: PLC0415 - optional dependency

        labels = [row_label(r) for r in self.rows]
        fig = make_subplots(
            rows=1,
            cols=4,
            subplot_titles=("compile (s)", "runtime (ms)", "speedup", "max abs error"),
        )
        for col, key in enumerate(("compile_s", "median_ms", "speedup", "max_abs_err"), start=1):
            fig.add_trace(go.Bar(x=labels, y=[r[key] for r in self.rows], name=key), row=1, col=col)
        fig.update_layout(showlegend=False)
        return fig


def compare(
    fn: Callable,
    *args: Any,
    modes: Iterable[str | None] = (None,),
    backends: Iterable[Any] = ("inductor",),
    dynamic: Iterable[bool | None] = (None,),
    isolate: str = "reset",
    time_budget_s: float = 0.5,
    **kwargs: Any,
) -> Comparison:
    """Explore ``fn`` under every (mode, backend, dynamic) combination.

    ``isolate="reset"`` runs each in this process, each compiled afresh with a backend of
    its own (no state leaks between rows, the user's compiled functions keep their code)
    and Inductor's caches empty, after one warm-up compile per backend (:mod:`.cold`: no
    row's compile time depends on the rows before it); ``"process"`` runs each in a fresh
    subprocess with an empty Inductor cache directory (process start-up included;
    ``fn`` and the arguments must be picklable, e.g. a module-level function). Each row's
    document says which in ``explore.cold_compile``. Rows torch runs identically (a
    backend that ignores ``mode``) are one row, with torch's words.
    """
    if isolate not in ("reset", "process"):
        raise ValueError(f"isolate must be 'reset' or 'process', not {isolate!r}")
    options = {"time_budget_s": time_budget_s, **kwargs}
    return Comparison(
        [
            explore_row(
                fn,
                args,
                {"mode": mode, "backend": backend, "dynamic": dyn},
                options,
                isolate=isolate,
            )
            for mode, backend, dyn in itertools.product(list(modes), list(backends), list(dynamic))
        ]
    )


def explore_row(
    fn: Callable,
    args: tuple,
    config: dict[str, Any],
    options: dict[str, Any],
    isolate: str = "reset",
) -> dict[str, Any]:
    """One configuration (``mode``, ``backend``, ``dynamic``) explored cold, as a row: in
    this process (:mod:`.cold`) or, ``isolate="process"``, in a fresh one. What torch
    logged about options the backend ignored is kept in the row (never printed); an error
    is the row's. ``options``: explore()'s other arguments and ``fn``'s keyword arguments.
    Every path that makes a grid (compare(), ``%%tcompile --compare``, ComparePanel) runs
    its rows through here, and :class:`Comparison` folds them."""
    backend = config["backend"]
    named = {**config, "backend": backend if isinstance(backend, str) else repr(backend)}
    try:
        if isolate == "process":
            exploration, said = _run_in_fresh_process(fn, args, config, options)
            how = IN_FRESH_PROCESS
        else:
            with (
                cold_compiles(backend, uses_cuda((args, options))) as how,
                _torch_compat.ignored_backend_options() as said,
            ):
                exploration = explore(
                    fn,
                    *args,
                    mode=config["mode"],
                    backend=backend,
                    dynamic=config["dynamic"],
                    **options,
                )
        data = exploration.document.data
        exploration = Exploration(
            exploration.document.with_sections(explore={**data["explore"], "cold_compile": how})
        )
        return {**_row(named, exploration, None), "ignored_options": said}
    except Exception as exc:  # noqa: BLE001 - one failing configuration is one row
        return _row(named, None, f"{type(exc).__name__}: {exc}")


def _run_in_fresh_process(
    fn: Callable, args: tuple, config: dict[str, Any], options: dict[str, Any]
) -> tuple[Exploration, list[str]]:
    with tempfile.TemporaryDirectory(prefix="tcexplore-cache-") as cache_dir:
        saved = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
        os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache_dir  # inherited by the spawned child
        try:
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
                data, said = pool.submit(_explore_in_subprocess, fn, args, config, options).result()
                return Exploration(Document(data)), said
        finally:
            if saved is None:
                os.environ.pop("TORCHINDUCTOR_CACHE_DIR", None)
            else:
                os.environ["TORCHINDUCTOR_CACHE_DIR"] = saved
