"""A live "compiling…" display, fed by capture events and replaced by the result.

The stage comes from torch's own trace: ``chromium_event`` begin records name the compile
phase being entered (Dynamo's bytecode tracing, AOTAutograd, Inductor's lowering, codegen,
the C++/Triton compile of the kernels), other events name what was just produced.
"""

from __future__ import annotations

import html
import json
import time
from typing import Any

from ..capture.events import Event

# chromium_event phase names (prefixes) -> the stage a person would call it.
_PHASES = (
    ("bytecode_tracing", "Dynamo tracing"),
    ("build_guards", "Dynamo building guards"),
    ("_recursive_pre_grad_passes", "Inductor pre-grad passes"),
    ("create_aot_dispatcher_function", "AOTAutograd"),
    ("aot_", "AOTAutograd"),
    ("_recursive_joint_graph_passes", "AOTAutograd joint graph passes"),
    ("min_cut_rematerialization_partition", "AOTAutograd partitioning"),
    ("_recursive_post_grad_passes", "Inductor post-grad passes"),
    ("GraphLowering.run", "Inductor lowering"),
    ("GraphLowering.codegen", "Inductor codegen"),
    ("Scheduler", "Inductor codegen"),
    ("PyCodeCache.load_by_key_path", "compiling kernels"),
    ("compile_file", "compiling kernels"),
    ("async_compile.wait", "compiling kernels"),
    ("entire_backward_compile", "compiling backward"),
)
_EVENTS = {
    "dynamo_start": "Dynamo tracing",
    "dynamo_graph_break_reason": "graph break",
    "recompile_reasons": "recompiling",
    "dynamo_output_graph": "Dynamo graph captured",
    "inductor_output_code": "kernels generated",
    "compilation_metrics": "compiled",
    # a hit skips the stage it caches: torch loads the entry instead
    "aotautograd_cache_hit": "AOTAutograd served from its cache",
    "fx_graph_cache_hit": "Inductor served from its cache (no codegen)",
}
MIN_INTERVAL_S = 0.25  # between two updates of the same stage (the elapsed time moves)


def stage_of(event: Event) -> str | None:
    """The stage ``event`` starts, with its frame (``Inductor codegen (frame 0/0)``)."""
    stage = None
    if event.kind == "chromium_event":
        try:
            data = json.loads(event.payload or "")
        except ValueError:
            return None
        if not isinstance(data, dict) or data.get("ph") != "B":
            return None
        name = str(data.get("name") or "")
        stage = next((label for prefix, label in _PHASES if name.startswith(prefix)), None)
    else:
        stage = _EVENTS.get(event.kind)
    if stage is None:
        return None
    return f"{stage} frame {event.compile_id}" if event.compile_id else stage


class Progress:
    """``Progress(title)`` shows itself; ``on_event`` is a ``capture(on_event=...)`` hook;
    ``finish(obj)`` replaces the display with ``obj`` (its own MIME bundle)."""

    def __init__(self, title: str):
        from IPython.display import display  # noqa: PLC0415 - notebook only

        self.title = title
        self.started = time.perf_counter()
        self.stage = "starting"
        self.events = 0
        self.frames: list[str] = []
        self._shown_at = 0.0
        self.handle = display(self._bundle(), raw=True, display_id=True)

    def on_event(self, event: Event) -> None:
        self.events += 1
        if event.kind == "compilation_metrics" and event.compile_id:
            self.frames.append(event.compile_id)
        stage = stage_of(event)
        now = time.perf_counter()
        if stage is None or (stage == self.stage and now - self._shown_at < MIN_INTERVAL_S):
            return
        self.stage = stage
        self.update()

    def update(self, stage: str | None = None) -> None:
        if stage is not None:
            self.stage = stage
        self._shown_at = time.perf_counter()
        self.handle.update(self._bundle(), raw=True)

    def finish(self, obj: Any) -> None:
        self.handle.update(obj)

    def text(self) -> str:
        elapsed = time.perf_counter() - self.started
        done = f", frames compiled: {', '.join(self.frames)}" if self.frames else ""
        return f"{self.title}: {self.stage} ({elapsed:.1f} s, {self.events} trace events{done})"

    def _bundle(self) -> dict[str, Any]:
        text = self.text()
        return {
            "text/plain": text,
            "text/html": f'<div class="tcx-progress"><code>{html.escape(text)}</code></div>',
        }
