"""Turn the event stream of one capture into the document's ``compiles`` and ``graph_breaks``.

The Assembler hands each event to the handler registered for its kind (capture/handlers/,
one module per document section: tlparse's design, "is this event mine, what does it
become"), then finishes the records. Events no handler claims are counted per compile in
``artifacts`` and globally in ``unknown_events``: torch adds kinds every release, and a
new kind must never break a capture. A handler that raises, or a step of finish() that
raises for one compile, costs only that event or that section: it is an entry of
``unread`` (tcexplore/common/contained.py) and the rest is assembled as if it were absent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..common.contained import Unread, error_text, excerpt
from .attempts import keep_restarted_graph, name_restart_reasons
from .autotuning import attach_triton_info, autotune_choices
from .compile_record import new_compile_record
from .compile_status import compile_status
from .compiled_autograd import link_autograd_passes
from .events import Event
from .frame_compile_index import number_within_frames
from .fusion import attribute_kernels
from .generations import Generations
from .guard_paths import complete_guard_paths
from .handlers import IGNORED, handler_for
from .handlers.payloads import DetailBudget
from .library_files import library_files
from .parsers.identity import add_identity
from .phases import build_phase_tree
from .resume_links import bytecode_section, is_cell, link_resumes
from .static_memory import memory_section
from .tracing_time import tracing_section


class Assembler:
    """Feeds events to handlers, then finishes the records (fusion groups, status)."""

    def __init__(self, filenames: dict[int, str], unread: Unread | None = None):
        self.filenames = dict(filenames)
        self.unread = unread or Unread()
        self.compiles: dict[str, dict[str, Any]] = {}
        self.graph_breaks: list[dict[str, Any]] = []
        self.unknown_events: dict[str, int] = {}
        self.chromium: list[tuple[str | None, dict[str, Any]]] = []
        self.session_cudagraphs: dict[str, Any] = {
            "summary": None,
            "partitions": [],
            "skips": [],
            "recordings": 0,
            "rerecordings": 0,
            "messages": [],
        }
        self.session_perf_hints: list[dict[str, Any]] = []
        self.session_warnings: list[dict[str, Any]] = []
        self.interruptions: dict[str, dict[str, Any]] = {}  # compile id -> the exception
        self.breaks_before: dict[str, int] = {}  # compile id -> break events before it began
        self.profiler_timings: dict[str, list[dict[str, Any]]] = {}
        self.bytecode_texts: dict[str, dict[str, Any]] = {}  # compile id -> what was heard
        self.memory_budgets: dict[str, float] = {}  # compile id -> activation_memory_budget
        self.autograd_passes: dict[int, dict[str, Any]] = {}  # compiled autograd's, by id
        self.detail: DetailBudget | None = None  # a big log's bound on graphs kept (traces/)
        self.generations = Generations()  # torch's ids over torch.compiler.reset()
        self.in_progress: dict[str, Any] | None = None  # the last event's compile record

    def record_for(self, event: Event) -> dict[str, Any] | None:
        if event.half_compile_id:
            return None  # a damaged id: feed() reads it as part of the compile in progress
        raw = event.compile_id
        if raw is None:
            return None
        begins = event.kind == "dynamo_start" and event.attempt == 0
        cid, generation = self.generations.resolve(raw, begins=begins)
        if event.kind == "compilation_metrics":
            self.generations.end(raw)
        record = self.compiles.get(cid)
        if record is None:
            record = self.compiles[cid] = new_compile_record(cid, event, generation)
            self.breaks_before[cid] = len(self.graph_breaks)
        if event.attempt + 1 > record["attempts"]:
            # A restart (graph break) discards the earlier trace, and its shape symbols with it;
            # a Dynamo graph it had output is kept (capture/attempts.py).
            keep_restarted_graph(record)
            record["attempts"] = event.attempt + 1
            record["symbols"], record["symbolic_guards"] = [], []
        self.in_progress = record
        return record

    def feed(self, event: Event, line: int | None = None) -> None:
        """Hand ``event`` (from ``line`` of a log) to its handler."""
        handler = handler_for(event.kind)
        if handler is IGNORED:
            return
        record = self.record_for(event)
        if record is None and event.half_compile_id:
            # torch writes both parts of a compile id or neither: a log line lost one
            # (a killed job, a full disk); the events of a compile stand together in the log
            record = self.in_progress
            if record is not None:
                self.unread.attributed(
                    event.kind, record["id"], line=line, read=event.data or event.payload
                )
        if handler is None:
            self.unknown_events[event.kind] = self.unknown_events.get(event.kind, 0) + 1
            if record is not None:
                record["artifacts"][event.kind] = record["artifacts"].get(event.kind, 0) + 1
            return
        try:
            handler(self, event, record)
        except Exception as exc:  # noqa: BLE001 - one unreadable event loses only itself
            self.unread.add(
                "handler",
                event.kind,
                error=error_text(exc),
                compile=event.compile_id,
                line=line,
                read=excerpt(event.data) if event.payload is None else excerpt(event.payload),
            )

    def _section(self, name: str, cid: str | None, step: Callable[[], None]) -> None:
        with self.unread.contain("section", name, compile=cid):
            step()

    def autograd_pass(self, event: Event) -> dict[str, Any] | None:
        """The compiled-autograd pass an event without a frame belongs to, if any."""
        ca = event.compiled_autograd_id
        if event.frame_id is not None or not isinstance(ca, int):
            return None
        if ca not in self.autograd_passes:
            self.autograd_passes[ca] = {
                "id": ca,
                "graph": None,
                "symbols": [],
                "symbolic_guards": [],
            }
        return self.autograd_passes[ca]

    def frame_from_stack(self, stack: list[dict[str, Any]] | None) -> dict[str, Any] | None:
        return self.frames_from_stack(stack[-1:])[0] if stack else None

    def frames_from_stack(self, stack: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        frames = []
        for entry in stack or []:
            filename = entry.get("filename")
            if isinstance(filename, int):
                filename = self.filenames.get(filename, f"<interned {filename}>")
            frames.append(
                {
                    "function": entry.get("name"),
                    "file": filename,
                    "line": entry.get("line"),
                    "code": entry.get("loc"),
                }
            )
        return frames

    def finish(self) -> dict[str, Any]:
        """The document's fields; each step runs contained (``_section``): a step that
        raises leaves its field as new_compile_record made it, or None."""
        phases: dict[str, list[Any]] = {}
        self._section("phases", None, lambda: phases.update(build_phase_tree(self.chromium)))
        for cid, record in self.compiles.items():
            record["phases"] = phases.get(cid, [])
            record.setdefault("memory", None)
            for name, step in _record_steps(self, cid, record):
                self._section(name, cid, step)
        compiles = list(self.compiles.values())
        self._section(
            "resume_links",
            None,
            lambda: link_resumes(compiles, self.graph_breaks, self.breaks_before),
        )
        self._section("frame_compile_index", None, lambda: number_within_frames(compiles))
        self._section("identity", None, lambda: add_identity(compiles))
        self._section(
            "guard_paths", None, lambda: complete_guard_paths(compiles, self.graph_breaks)
        )
        self._section("runtime_skips", None, self._attribute_runtime_skips)
        passes: list[dict[str, Any]] = []
        self._section(
            "compiled_autograd",
            None,
            lambda: passes.extend(
                link_autograd_passes(list(self.autograd_passes.values()), compiles)
            ),
        )
        runtime = {
            "cudagraphs": self.session_cudagraphs,
            "perf_hints": self.session_perf_hints,
            "warnings": self.session_warnings,
        }
        found: dict[str, list[str]] = {}  # none when it failed: no frame is folded on a guess
        self._section(
            "library_files",
            None,
            lambda: found.update(files=library_files(compiles, self.graph_breaks, runtime)),
        )
        return {
            "compiles": compiles,
            "graph_breaks": self.graph_breaks,
            "unknown_events": self.unknown_events,
            "runtime": runtime,
            "library_files": found.get("files"),
            "compiled_autograd": passes,
        }

    def _attribute_runtime_skips(self) -> None:
        """A CUDA-graph skip logged at run time names the user line that caused it but no
        compile id; it belongs to the one compile whose Dynamo graph has a node there."""
        kept = []
        for skip in self.session_cudagraphs["skips"]:
            owners = {
                record["id"]
                for frame in skip["user_stack"]
                for record in self.compiles.values()
                for node in (record["dynamo_graph"] or {"nodes": []})["nodes"]
                if node.get("source")
                and node["source"]["line"] == frame["line"]
                and node["source"]["file"].endswith(frame["file"])
            }
            if len(owners) == 1:
                self.compiles[owners.pop()]["cudagraphs"]["skips"].append(skip)
            else:
                kept.append(skip)
        self.session_cudagraphs["skips"] = kept


def _record_steps(
    assembler: Assembler, cid: str, record: dict[str, Any]
) -> list[tuple[str, Callable[[], None]]]:
    """What finish() computes of one compile, each step setting its own fields."""

    def status() -> None:
        record["status"], record["error"] = compile_status(
            record,
            assembler.interruptions.get(cid),
            any(
                b.get("compile_id") == cid and b.get("skipped_frame")
                for b in assembler.graph_breaks
            ),
        )

    def tracing() -> None:
        record["tracing"] = tracing_section(record, assembler.profiler_timings.get(cid, []))

    def memory() -> None:
        record["memory"] = memory_section(record, assembler.memory_budgets.get(cid))

    def bytecode() -> None:
        heard = assembler.bytecode_texts.get(cid)
        if heard and "original" in heard and "modified" in heard:
            record["bytecode"] = bytecode_section(
                heard["source"],
                heard["original"],
                heard["modified"],
                heard.get("side_effects"),
                is_cell((record["frame"] or {}).get("function")),
            )

    def autotuning() -> None:
        record["autotuning"] = autotune_choices(record["phases"])

    return [
        ("kernels", lambda: attribute_kernels(record)),
        ("triton_kernel_info", lambda: attach_triton_info(record)),
        ("autotuning", autotuning),
        ("status", status),
        ("restart_reasons", lambda: name_restart_reasons(record)),
        ("tracing", tracing),
        ("memory", memory),
        ("bytecode", bytecode),
    ]
