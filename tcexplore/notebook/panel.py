"""Comparing configurations in a notebook: the live progress, then the grid.

:func:`run_grid` runs each configuration as one ``compare()`` row (``explore_row``:
compiled cold, torch's words about ignored options kept, not printed), one after the
other, so that :class:`GridDisplay` can show which one is compiling and in which stage;
:class:`~tcexplore.Comparison` folds the rows torch ran alike, as compare() does. Each row
measures its peak memory too (``memory=True``), so the grid's column is filled. When they
are done the same display becomes the :class:`~tcexplore.Comparison` itself: the grid,
drawn by the JupyterLab extension from the output alone, so a saved notebook shows it with
no kernel (HTML elsewhere).
``%%tcompile --compare`` shows only that display; :class:`ComparePanel` adds ipywidgets
controls to pick the configurations and run again, which need a live kernel.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Callable
from typing import Any

from ..capture import capture
from ..measure.compare import Comparison, explore_row, row_label
from ..measure.exploration import Exploration
from ..measure.unheard import quiet
from .progress import stage_of

DEFAULT_MODES = ("default", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")
DEFAULT_BACKENDS = ("inductor", "aot_eager", "eager")
DYNAMIC = {"none": None, "true": True, "false": False}

Config = tuple[str | None, str, bool | None]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    text = f"{value:.4g}" if isinstance(value, float) else str(value)
    return html.escape(text[:300])


class GridDisplay:
    """One notebook output, updated in place: progress while the grid runs, then the grid."""

    def __init__(self) -> None:
        self.bundle: dict[str, Any] = {
            "text/html": '<div class="tcx-panel"><p>tcexplore: not run yet.</p></div>',
            "text/plain": "tcexplore comparison: not run yet",
        }
        self._handle: Any = None

    def show(self) -> None:
        from IPython.display import display  # noqa: PLC0415

        self._handle = display(self.bundle, raw=True, display_id=True)

    def progress(self, status: dict[Config, str]) -> None:
        body = "".join(
            f"<tr><td>{_cell(row_label(_named(c)))}</td><td>{_cell(s)}</td></tr>"
            for c, s in status.items()
        )
        self._update(
            {
                "text/html": '<div class="tcx-panel"><table class="tcx-panel-progress">'
                f"<tr><th>configuration</th><th>status</th></tr>{body}"
                "</table></div>",
                "text/plain": "\n".join(f"{row_label(_named(c))}: {s}" for c, s in status.items()),
            }
        )

    def result(self, comparison: Comparison) -> None:
        self._update(comparison._repr_mimebundle_())

    def _update(self, bundle: dict[str, Any]) -> None:
        self.bundle = bundle
        if self._handle is not None:
            self._handle.update(bundle, raw=True)


def _named(config: Config) -> dict[str, Any]:
    mode, backend, dynamic = config
    return {"mode": mode, "backend": backend, "dynamic": dynamic}


def run_grid(
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    configs: list[Config],
    *,
    time_budget_s: float,
    shown: GridDisplay,
    explore_sections: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> Comparison:
    """Each configuration, its stage shown live; ``explore_sections(document data)``, if
    given, adds fields to each row document's ``explore`` section (``%%tcompile`` adds the
    cells' source labels and sources)."""
    status = {c: "queued" for c in configs}
    rows: list[dict[str, Any]] = []
    for config in configs:
        status[config] = "running"
        shown.progress(status)

        def on_event(event: Any, config: Config = config) -> None:
            stage = stage_of(event)
            if stage and status[config] != f"running: {stage}":
                status[config] = f"running: {stage}"
                shown.progress(status)

        mode, backend, dyn = config
        # An outer capture only to follow the stages live; each row keeps its own document.
        with capture(on_event=on_event), quiet():
            row = explore_row(
                fn,
                args,
                {"mode": mode, "backend": backend, "dynamic": dyn},
                {"time_budget_s": time_budget_s, "memory": True, **kwargs},
            )
        if row["exploration"] is not None and explore_sections is not None:
            data = row["exploration"].document.data
            row["exploration"] = Exploration(
                row["exploration"].document.with_sections(
                    explore={**data["explore"], **explore_sections(data)}
                )
            )
        rows.append(row)
        status[config] = row["status"] + (f" ({row['error']})" if row["error"] else "")
        shown.progress(status)
    comparison = Comparison(rows)
    shown.result(comparison)
    return comparison


class ComparePanel:
    """A widget comparing torch.compile configurations of ``fn(*args, **kwargs)``.

    ``modes``/``backends``/``dynamic`` are the configurations selected at first;
    ``.run()`` (or the Run button) compares them; ``.comparison`` holds the latest
    :class:`~tcexplore.Comparison`, shown as the grid below the controls; ``.open(i)``
    displays row ``i``'s exploration.
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        *args: Any,
        modes: tuple[str | None, ...] = ("default",),
        backends: tuple[str, ...] = ("inductor", "eager"),
        dynamic: tuple[bool | None, ...] = (None,),
        time_budget_s: float = 0.5,
        explore_sections: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        **kwargs: Any,
    ):
        import ipywidgets as w  # noqa: PLC0415 - optional notebook dependency

        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.explore_sections = explore_sections
        self.comparison: Comparison | None = None
        # Progress and results are an output of their own, updated in place: they show
        # (and stay, in a saved notebook) in front ends without widgets too.
        self.grid = GridDisplay()
        mode_names = [m or "default" for m in modes]
        self.modes = w.SelectMultiple(
            options=list(dict.fromkeys([*DEFAULT_MODES, *mode_names])),
            value=mode_names,
            description="modes",
            rows=4,
        )
        self.backends = w.SelectMultiple(
            options=list(dict.fromkeys([*DEFAULT_BACKENDS, *backends])),
            value=list(backends),
            description="backends",
            rows=4,
        )
        self.dynamic = w.SelectMultiple(
            options=list(DYNAMIC),
            value=[str(d).lower() for d in dynamic],
            description="dynamic",
            rows=3,
        )
        self.budget = w.BoundedFloatText(
            value=time_budget_s, min=0.01, max=60.0, step=0.1, description="time (s)"
        )
        self.run_button = w.Button(description="Run", button_style="primary", icon="play")
        self.run_button.on_click(lambda _: self.run())
        self.row_picker = w.Dropdown(options=[], description="row")
        self.open_button = w.Button(description="Open exploration")
        self.open_button.on_click(lambda _: self.open(self.row_picker.value))
        self.detail = w.Output()
        self.widget = w.VBox(
            [
                w.HBox(
                    [
                        self.modes,
                        self.backends,
                        self.dynamic,
                        w.VBox([self.budget, self.run_button]),
                    ]
                ),
                w.HBox([self.row_picker, self.open_button]),
                self.detail,
            ]
        )

    def configurations(self) -> list[Config]:
        modes = [None if m == "default" else m for m in self.modes.value]
        return list(
            itertools.product(modes, self.backends.value, [DYNAMIC[d] for d in self.dynamic.value])
        )

    def run(self) -> Comparison:
        self.run_button.disabled = True
        try:
            self.comparison = run_grid(
                self.fn,
                self.args,
                self.kwargs,
                self.configurations(),
                time_budget_s=self.budget.value,
                shown=self.grid,
                explore_sections=self.explore_sections,
            )
        finally:
            self.run_button.disabled = False
        self.row_picker.options = [(row_label(r), i) for i, r in enumerate(self.comparison.rows)]
        return self.comparison

    def open(self, index: int | None) -> Exploration | None:
        """Show row ``index``'s full exploration under the panel (and return it)."""
        from IPython.display import display  # noqa: PLC0415

        if self.comparison is None or index is None:
            return None
        exploration = self.comparison.rows[index]["exploration"]
        self.detail.clear_output()
        with self.detail:
            if exploration is None:
                print(f"No exploration: {self.comparison.rows[index]['error']}")
            else:
                display(exploration)
        return exploration

    def _ipython_display_(self) -> None:
        from IPython.display import display  # noqa: PLC0415

        display(self.widget)
        self.grid.show()

    def __repr__(self) -> str:
        n = len(self.comparison.rows) if self.comparison else 0
        return f"<tcexplore.ComparePanel {len(self.configurations())} configurations, {n} rows>"
