"""``ComparePanel``: pick modes, backends and dynamic settings, run, compare, open a row.

Each configuration is one ``compare()`` row (its own ``torch.compiler.reset()``), run one
after the other so that the panel can show which one is compiling and in which stage.
"""

from __future__ import annotations

import html
import itertools
from typing import Any, Callable

from ..capture import capture
from ..exploration import Exploration
from ..measure.compare import ROW_KEYS, Comparison, compare
from .progress import stage_of
from .run import quiet

DEFAULT_MODES = ("default", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")
DEFAULT_BACKENDS = ("inductor", "aot_eager", "eager")
DYNAMIC = {"none": None, "true": True, "false": False}


def _label(mode: str | None, backend: str, dynamic: bool | None) -> str:
    return f"{backend} / {mode or 'default'} / dynamic={dynamic}"


def _cell(value: Any) -> str:
    if value is None:
        return ""
    text = f"{value:.4g}" if isinstance(value, float) else str(value)
    return html.escape(text[:300])


class ComparePanel:
    """A widget comparing torch.compile configurations of ``fn(*args, **kwargs)``.

    ``modes``/``backends``/``dynamic`` are the configurations selected at first;
    ``.run()`` (or the Run button) compares them; ``.comparison`` holds the latest
    :class:`~tcexplore.Comparison`; ``.open(i)`` displays row ``i``'s exploration.
    ``explore_sections(document data)``, if given, adds fields to each row document's
    ``explore`` section (``%%tcompile`` adds the cells' source labels and sources).
    """

    def __init__(self, fn: Callable[..., Any], *args: Any,
                 modes: tuple[str | None, ...] = ("default",),
                 backends: tuple[str, ...] = ("inductor", "eager"),
                 dynamic: tuple[bool | None, ...] = (None,), time_budget_s: float = 0.5,
                 explore_sections: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                 **kwargs: Any):
        import ipywidgets as w  # noqa: PLC0415 - optional notebook dependency

        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.explore_sections = explore_sections
        self.comparison: Comparison | None = None
        # Progress and results are plain HTML in a display of their own, updated in place:
        # they show (and stay, in a saved notebook) in front ends without widgets too.
        self.status_html = "<p>tcexplore.ComparePanel: not run yet.</p>"
        self._status: Any = None
        mode_names = [m or "default" for m in modes]
        self.modes = w.SelectMultiple(options=list(dict.fromkeys([*DEFAULT_MODES, *mode_names])),
                                      value=mode_names, description="modes", rows=4)
        self.backends = w.SelectMultiple(
            options=list(dict.fromkeys([*DEFAULT_BACKENDS, *backends])), value=list(backends),
            description="backends", rows=4)
        self.dynamic = w.SelectMultiple(options=list(DYNAMIC),
                                        value=[str(d).lower() for d in dynamic],
                                        description="dynamic", rows=3)
        self.budget = w.BoundedFloatText(value=time_budget_s, min=0.01, max=60.0, step=0.1,
                                         description="time (s)")
        self.run_button = w.Button(description="Run", button_style="primary", icon="play")
        self.run_button.on_click(lambda _: self.run())
        self.figure = w.Output()
        self.row_picker = w.Dropdown(options=[], description="row")
        self.open_button = w.Button(description="Open exploration")
        self.open_button.on_click(lambda _: self.open(self.row_picker.value))
        self.detail = w.Output()
        self.widget = w.VBox([
            w.HBox([self.modes, self.backends, self.dynamic, w.VBox([self.budget, self.run_button])]),
            self.figure,
            w.HBox([self.row_picker, self.open_button]), self.detail])

    def configurations(self) -> list[tuple[str | None, str, bool | None]]:
        modes = [None if m == "default" else m for m in self.modes.value]
        return list(itertools.product(modes, self.backends.value,
                                      [DYNAMIC[d] for d in self.dynamic.value]))

    def run(self) -> Comparison:
        configs = self.configurations()
        status = {c: "queued" for c in configs}
        rows: list[dict[str, Any]] = []
        self.run_button.disabled = True
        try:
            for config in configs:
                status[config] = "running"
                self._show_progress(status)

                def on_event(event: Any, config: Any = config) -> None:
                    stage = stage_of(event)
                    if stage and status[config] != f"running: {stage}":
                        status[config] = f"running: {stage}"
                        self._show_progress(status)

                rows.append(self._run_one(config, on_event))
                row = rows[-1]
                status[config] = row["status"] + (f" ({row['error']})" if row["error"] else "")
                self._show_progress(status)
        finally:
            self.run_button.disabled = False
        self.comparison = Comparison(rows)
        self._show_results()
        return self.comparison

    def _run_one(self, config: tuple[str | None, str, bool | None],
                 on_event: Callable[[Any], None]) -> dict[str, Any]:
        mode, backend, dyn = config
        # An outer capture only to follow the stages live; each row keeps its own document.
        with capture(on_event=on_event), quiet():
            row = compare(self.fn, *self.args, modes=[mode], backends=[backend], dynamic=[dyn],
                          time_budget_s=self.budget.value, **self.kwargs).rows[0]
        if row["exploration"] is not None and self.explore_sections is not None:
            data = row["exploration"].document.data
            row["exploration"] = Exploration(row["exploration"].document.with_sections(
                explore={**data["explore"], **self.explore_sections(data)}))
        return row

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

    def _show_progress(self, status: dict[tuple[Any, ...], str]) -> None:
        body = "".join(f"<tr><td>{_cell(_label(*c))}</td><td>{_cell(s)}</td></tr>"
                       for c, s in status.items())
        self._show_status("<table class=\"tcx-panel-progress\"><tr><th>configuration</th>"
                          f"<th>status</th></tr>{body}</table>")

    def _show_status(self, markup: str) -> None:
        self.status_html = f'<div class="tcx-panel">{markup}</div>'
        if self._status is not None:
            self._status.update({"text/html": self.status_html,
                                 "text/plain": repr(self)}, raw=True)

    def _show_results(self) -> None:
        from IPython.display import display  # noqa: PLC0415

        assert self.comparison is not None
        rows = self.comparison.rows
        head = "".join(f"<th>{html.escape(k)}</th>" for k in ROW_KEYS)
        body = "".join("<tr>" + "".join(f"<td>{_cell(r[k])}</td>" for k in ROW_KEYS) + "</tr>"
                       for r in rows)
        self._show_status(f'<table class="tcx-panel-results"><tr>{head}</tr>{body}</table>')
        self.row_picker.options = [(_label(r["mode"], r["backend"], r["dynamic"]), i)
                                   for i, r in enumerate(rows)]
        self.figure.clear_output()
        with self.figure:
            display(self.comparison.figure())

    def _ipython_display_(self) -> None:
        from IPython.display import display  # noqa: PLC0415

        display(self.widget)
        self._status = display({"text/html": self.status_html, "text/plain": repr(self)},
                               raw=True, display_id=True)

    def __repr__(self) -> str:
        n = len(self.comparison.rows) if self.comparison else 0
        return f"<tcexplore.ComparePanel {len(self.configurations())} configurations, {n} rows>"
