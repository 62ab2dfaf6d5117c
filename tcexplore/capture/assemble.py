"""Turn the event stream of one capture into the document's ``compiles`` and ``graph_breaks``.

One handler per event kind, registered in ``HANDLERS`` (tlparse's design: "is this event
mine, what does it become"). Events no handler claims are counted per compile in
``artifacts`` and globally in ``unknown_events``: torch adds kinds every release, and a
new kind must never break a capture.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from .attempts import keep_restarted_graph, name_restart_reasons
from .events import Event
from .fusion import attribute_kernels
from .library_files import library_files
from .parsers.cache_info import cache_details
from .memory import memory_section
from .parsers.cudagraphs import apply_cudagraph_message
from .parsers.fx_text import parse_graph
from .parsers.graph_breaks import parse_graph_break
from .parsers.guards import parse_guards
from .parsers.output_code import parse_output_code
from .parsers.recompiles import parse_recompile_reasons
from .phases import build_phase_tree
from .resume_links import bytecode_section, link_resumes
from .tracing_time import tracing_section

MAX_TEXT = 2_000_000  # characters kept of any one graph/code text; the rest is marked truncated


def _text(payload: str | None) -> dict[str, Any]:
    payload = payload or ""
    if len(payload) <= MAX_TEXT:
        return {"text": payload, "truncated": False, "chars": len(payload)}
    return {"text": payload[:MAX_TEXT], "truncated": True, "chars": len(payload)}


def _json(payload: str | None) -> Any:
    try:
        return json.loads(payload) if payload else None
    except ValueError:
        return None


def new_compile_record(cid: str, event: Event) -> dict[str, Any]:
    return {
        "id": cid,
        "frame_id": event.frame_id,
        "frame_compile_id": event.frame_compile_id,
        "compiled_autograd_id": event.compiled_autograd_id,
        "attempts": 1,
        "frame": None,
        "stack": [],
        "status": "incomplete",
        "error": None,
        "restart_reasons": [],
        "dynamo_graph": None,
        "guards": [],
        "guards_text": None,
        "recompile_reasons": [],
        "symbols": [],
        "symbolic_guards": [],
        "aot_graphs": {},
        "post_grad_graphs": [],
        "output_codes": [],
        "cache": [],
        "phases": [],
        "metrics": None,
        "backward_metrics": None,
        "triton_kernel_info": [],
        "autotuning": [],
        "cudagraphs": {"summary": None, "partitions": [], "skips": [], "recordings": 0,
                       "rerecordings": 0, "messages": []},
        "perf_hints": [],
        "warnings": [],
        "collective_schedules": [],
        "bytecode": None,
        "resume_of": None,
        "tracing": None,
        "artifacts": {},
    }


class Assembler:
    """Feeds events to handlers, then finishes the records (fusion groups, status)."""

    def __init__(self, filenames: dict[int, str]):
        self.filenames = dict(filenames)
        self.compiles: dict[str, dict[str, Any]] = {}
        self.graph_breaks: list[dict[str, Any]] = []
        self.unknown_events: dict[str, int] = {}
        self.chromium: list[tuple[str | None, dict[str, Any]]] = []
        self.session_cudagraphs: dict[str, Any] = {"summary": None, "partitions": [], "skips": [],
                                                   "recordings": 0, "rerecordings": 0,
                                                   "messages": []}
        self.session_perf_hints: list[dict[str, Any]] = []
        self.session_warnings: list[dict[str, Any]] = []
        self.interruptions: dict[str, dict[str, Any]] = {}  # compile id -> the exception
        self.breaks_before: dict[str, int] = {}  # compile id -> break events before it began
        self.profiler_timings: dict[str, list[dict[str, Any]]] = {}
        self.bytecode_texts: dict[str, dict[str, Any]] = {}  # compile id -> what was heard
        self.memory_budgets: dict[str, float] = {}  # compile id -> activation_memory_budget

    def record_for(self, event: Event) -> dict[str, Any] | None:
        cid = event.compile_id
        if cid is None:
            return None
        record = self.compiles.get(cid)
        if record is None:
            record = self.compiles[cid] = new_compile_record(cid, event)
            self.breaks_before[cid] = len(self.graph_breaks)
        if event.attempt + 1 > record["attempts"]:
            # A restart (graph break) discards the earlier trace, and its shape symbols with it;
            # a Dynamo graph it had output is kept (capture/attempts.py).
            keep_restarted_graph(record)
            record["attempts"] = event.attempt + 1
            record["symbols"], record["symbolic_guards"] = [], []
        return record

    def feed(self, event: Event) -> None:
        handler = HANDLERS.get(event.kind) or _bytecode_artifact_handler(event.kind)
        if handler is IGNORED:
            return
        record = self.record_for(event)
        if handler is None:
            self.unknown_events[event.kind] = self.unknown_events.get(event.kind, 0) + 1
            if record is not None:
                record["artifacts"][event.kind] = record["artifacts"].get(event.kind, 0) + 1
            return
        handler(self, event, record)

    def frame_from_stack(self, stack: list[dict[str, Any]] | None) -> dict[str, Any] | None:
        return self.frames_from_stack(stack[-1:])[0] if stack else None

    def frames_from_stack(self, stack: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        frames = []
        for entry in stack or []:
            filename = entry.get("filename")
            if isinstance(filename, int):
                filename = self.filenames.get(filename, f"<interned {filename}>")
            frames.append({"function": entry.get("name"), "file": filename,
                           "line": entry.get("line"), "code": entry.get("loc")})
        return frames

    def finish(self) -> dict[str, Any]:
        phases = build_phase_tree(self.chromium)
        for cid, record in self.compiles.items():
            record["phases"] = phases.get(cid, [])
            attribute_kernels(record)
            _attach_triton_info(record)
            record["autotuning"] = _autotuning(record["phases"])
            record["status"], record["error"] = _status(record, self.interruptions.get(cid))
            name_restart_reasons(record)
            record["tracing"] = tracing_section(record, self.profiler_timings.get(cid, []))
            record["memory"] = memory_section(record, self.memory_budgets.get(cid))
            heard = self.bytecode_texts.get(cid)
            if heard and "original" in heard and "modified" in heard:
                record["bytecode"] = bytecode_section(heard["source"], heard["original"],
                                                      heard["modified"], heard.get("side_effects"))
        link_resumes(list(self.compiles.values()), self.graph_breaks, self.breaks_before)
        _complete_guard_paths(list(self.compiles.values()), self.graph_breaks)
        self._attribute_runtime_skips()
        compiles = list(self.compiles.values())
        runtime = {"cudagraphs": self.session_cudagraphs, "perf_hints": self.session_perf_hints,
                   "warnings": self.session_warnings}
        return {
            "compiles": compiles,
            "graph_breaks": self.graph_breaks,
            "unknown_events": self.unknown_events,
            "runtime": runtime,
            "library_files": library_files(compiles, self.graph_breaks, runtime),
        }


    def _attribute_runtime_skips(self) -> None:
        """A CUDA-graph skip logged at run time names the user line that caused it but no
        compile id; it belongs to the one compile whose Dynamo graph has a node there."""
        kept = []
        for skip in self.session_cudagraphs["skips"]:
            owners = {record["id"] for frame in skip["user_stack"]
                      for record in self.compiles.values()
                      for node in (record["dynamo_graph"] or {"nodes": []})["nodes"]
                      if node.get("source") and node["source"]["line"] == frame["line"]
                      and node["source"]["file"].endswith(frame["file"])}
            if len(owners) == 1:
                self.compiles[owners.pop()]["cudagraphs"]["skips"].append(skip)
            else:
                kept.append(skip)
        self.session_cudagraphs["skips"] = kept


def _attach_triton_info(record: dict[str, Any]) -> None:
    """``triton_kernel_info``: per kernel, the autotune cache state and the config(s) tried."""
    info: dict[str, Any] = {}
    for item in record["triton_kernel_info"]:
        if isinstance(item, dict):
            info.update(item)
    for output in record["output_codes"]:
        for kernel in output["kernels"]:
            if kernel["kind"] == "triton":
                kernel["autotune"] = info.get(kernel["name"])


def _autotuning(phases: list[dict[str, Any]]) -> list[Any]:
    """Autotuning choices torch attached to compile phases (``autotune_choices_stats``)."""
    found = []
    stack = list(phases)
    while stack:
        phase = stack.pop(0)
        stats = phase["data"].get("autotune_choices_stats")
        if stats is not None:
            found.append({"phase": phase["name"],
                          "stats": _json(stats) if isinstance(stats, str) else stats})
        stack.extend(phase["children"])
    return found


def _complete_guard_paths(compiles: list[dict[str, Any]], graph_breaks: list[Any]) -> None:
    """torch prints guard locations with the path cut to its last characters; where exactly
    one full path torch reported elsewhere in this capture ends with it, use that path."""
    known = {f["file"] for f in (c["frame"] for c in compiles) if f and f.get("file")}
    for record in compiles:
        graph = record["dynamo_graph"] or {"nodes": []}
        known.update(n["source"]["file"] for n in graph["nodes"] if n.get("source"))
    known.update(frame["file"] for b in graph_breaks for frame in b["user_stack"])
    for record in compiles:
        located = [g["user_location"] for g in record["guards"]]
        located += [r["user_location"] for group in record["recompile_reasons"] for r in group]
        for location in filter(None, located):
            matches = [path for path in known if path.endswith(location["file"])]
            if len(matches) == 1:
                location["file"] = matches[0]


def _status(record: dict[str, Any],
            interruption: dict[str, Any] | None) -> tuple[str, dict[str, Any] | None]:
    metrics = record["metrics"]
    if metrics and metrics.get("fail_type"):
        return "failed", {
            "type": metrics.get("fail_type"),
            "message": metrics.get("fail_reason"),
            "file": metrics.get("fail_user_frame_filename"),
            "line": metrics.get("fail_user_frame_lineno"),
        }
    backward = record["backward_metrics"]
    if backward and backward.get("fail_type"):
        reason = backward.get("fail_reason")
        return "failed", {"type": backward["fail_type"], "file": None, "line": None,
                          "message": "the backward compile failed" + (f": {reason}" if reason
                                                                      else "")}
    if metrics and metrics.get("has_guarded_code") is False:
        # torch closed the compile without code and without naming an exception: a
        # BaseException that is not an Exception (KeyboardInterrupt) cut it short.
        return "failed", _interrupted(interruption)
    if metrics is None and record["dynamo_graph"] is None:
        return "incomplete", None
    if any(c["result"] == "hit" for c in record["cache"]):
        return "cache_hit", None
    if record["dynamo_graph"] is None:
        return "no_graph", None
    return "ok", None


def _interrupted(interruption: dict[str, Any] | None) -> dict[str, Any]:
    if interruption is None:  # a TORCH_TRACE log does not hold the exception
        return {"type": None, "file": None, "line": None,
                "message": "interrupted: torch closed this compile without code and without "
                           "an error (a KeyboardInterrupt does this); the log does not say which"}
    message = f": {interruption['message']}" if interruption.get("message") else ""
    return {"type": interruption["type"], "file": None, "line": None,
            "message": f"interrupted by {interruption['type']}{message} before the compile "
                       "finished; what it had produced is kept"}


Handler = Callable[[Assembler, Event, Any], None]
HANDLERS: dict[str, Handler] = {}


def IGNORED(assembler: Assembler, event: Event, record: Any) -> None:  # noqa: N802
    """Events known to carry nothing the document shows (envelope/meta-data events)."""


def handles(*kinds: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for kind in kinds:
            HANDLERS[kind] = fn
        return fn
    return register


for _kind in ("describe_storage", "describe_tensor", "describe_source", "dynamo_guards",
              "torch_version", "aot_forward_graph_fw_metadata",
              "inductor_provenance_tracking_kernel_stack_traces", "fx_graph_runnable",
              "runtime_wrapper_orchestration", "before_pre_grad_graph", "after_pre_grad_graph",
              "before_joint_graph", "after_joint_graph", "before_post_grad_graph"):
    HANDLERS[_kind] = IGNORED


@handles("str")
def _interned_string(assembler: Assembler, event: Event, record: Any) -> None:
    name, index = event.data
    assembler.filenames[index] = name


@handles("torch._functorch.config")
def _functorch_config(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    """The partitioner's settings of this compile: the activation memory budget in force."""
    config = _json(event.payload)
    if record is not None and isinstance(config, dict):
        budget = config.get("activation_memory_budget")
        if isinstance(budget, (int, float)):
            assembler.memory_budgets[record["id"]] = float(budget)


@handles("dynamo_start")
def _dynamo_start(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    if record["frame"] is None:
        stack = (event.data or {}).get("stack")
        record["frame"] = assembler.frame_from_stack(stack)
        record["stack"] = assembler.frames_from_stack(stack)


@handles("bytecode_hook")
def _bytecode_hook(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    """A live capture hears both code objects of every transformed frame (capture/bytecode.py)."""
    if record is None:
        return
    data = event.data
    assembler.bytecode_texts[record["id"]] = {
        "source": "bytecode_hook", "original": _text(data["original"]),
        "modified": _text(data["modified"]), "side_effects": data.get("side_effects")}


_BYTECODE_ARTIFACTS = {"_ORIGINAL_BYTECODE": "original", "_MODIFIED_BYTECODE": "modified"}


def _bytecode_artifact_handler(kind: str) -> Handler | None:
    """torch writes ``<co_name>_ORIGINAL_BYTECODE`` / ``_MODIFIED_BYTECODE`` artifacts for
    resume functions (the kind carries the function's name, so no fixed key matches it)."""
    part = next((p for suffix, p in _BYTECODE_ARTIFACTS.items() if kind.endswith(suffix)), None)
    if part is None:
        return None

    def handle(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
        if record is None:
            return
        heard = assembler.bytecode_texts.setdefault(record["id"], {"source": "trace_artifact"})
        if heard["source"] == "trace_artifact":  # the hook, where there is one, holds both
            heard[part] = _text(event.payload)
    return handle


@handles("dynamo_profiler")
def _dynamo_profiler(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    if record is None:
        return
    assembler.profiler_timings.setdefault(record["id"], []).extend(event.data["timings"])


@handles("dynamo_output_graph")
def _dynamo_graph(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    record["dynamo_graph"] = {**_text(event.payload), **parse_graph(event.payload or "")}


@handles("aot_forward_graph", "aot_backward_graph", "aot_inference_graph", "aot_joint_graph")
def _aot_graph(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    part = event.kind[len("aot_"):-len("_graph")]
    record["aot_graphs"][part] = {**_text(event.payload), **parse_graph(event.payload or "")}


@handles("inductor_post_grad_graph")
def _post_grad_graph(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    record["post_grad_graphs"].append({**_text(event.payload), **parse_graph(event.payload or "")})


@handles("inductor_output_code")
def _output_code(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    parsed = parse_output_code(event.payload or "")
    data = event.data or {}
    record["output_codes"].append({
        **_text(event.payload),
        "aot_id": parsed["aot_id"],
        "kind": parsed["kind"],
        "path": data.get("filename"),
        "post_grad_graph": len(record["post_grad_graphs"]) - 1,
        "kernels": parsed["kernels"],
        "provenance": None,
    })


@handles("inductor_provenance_tracking_node_mappings")
def _provenance(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    mapping = _json(event.payload)
    if record["output_codes"] and isinstance(mapping, dict):
        record["output_codes"][-1]["provenance"] = mapping


@handles("dynamo_cpp_guards_str")
def _guards(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    record["guards_text"] = event.payload
    record["guards"] = parse_guards(event.payload or "")


@handles("recompile_reasons")
def _recompile(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    record["recompile_reasons"].append(parse_recompile_reasons(event.payload))


@handles("dynamo_graph_break_reason")
def _graph_break(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    brk = parse_graph_break(event.payload or "")
    brk["compile_id"] = record["id"] if record else None
    brk["attempt"] = event.attempt
    assembler.graph_breaks.append(brk)


@handles("create_symbol")
def _symbol(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    data = event.data or {}
    record["symbols"].append({
        "symbol": data.get("symbol"), "value": data.get("val"), "range": data.get("vr"),
        "source": data.get("source"),
        "user_location": assembler.frame_from_stack(data.get("user_stack")),
    })


@handles("guard_added_fast", "guard_added", "symbolic_shape_specialization")
def _symbolic_guard(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    data = event.data or {}
    record["symbolic_guards"].append({
        "kind": event.kind,
        "expr": data.get("expr") or data.get("symbol"),
        "user_location": assembler.frame_from_stack(data.get("user_stack")),
    })


@handles("compilation_metrics", "bwd_compilation_metrics")
def _metrics(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    data = {k: v for k, v in (event.data or {}).items()
            if not (isinstance(v, str) and k.endswith("_config"))}
    if event.kind == "compilation_metrics":
        record["metrics"] = data
        record["restart_reasons"] = list(data.get("restart_reasons") or [])
        if record["frame"] is None and data.get("co_name"):
            record["frame"] = {"function": data["co_name"], "file": data.get("co_filename"),
                               "line": data.get("co_firstlineno"), "code": None}
    else:
        record["backward_metrics"] = data


@handles("fx_graph_cache_hit", "fx_graph_cache_miss", "fx_graph_cache_bypass",
         "aotautograd_cache_hit", "aotautograd_cache_miss", "aotautograd_cache_bypass")
def _cache(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    cache, _, result = event.kind.rpartition("_cache_")
    info = _json(event.payload) or {}
    record["cache"].append({
        "cache": "fx_graph" if cache == "fx_graph" else "aotautograd",
        "result": result,
        "key": info.get("key"),
        "reason": info.get("cache_bypass_reason") or info.get("reason"),
        **cache_details(info),
    })


@handles("compile_interrupted")
def _compile_interrupted(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    """Added by capture: the BaseException passing through torch's end of this compile."""
    assembler.interruptions[record["id"]] = dict(event.data)


@handles("triton_kernel_info")
def _triton_kernel_info(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    info = _json(event.payload)
    if info is not None:
        record["triton_kernel_info"].append(info)


@handles("inductor_collective_schedule")
def _collective_schedule(assembler: Assembler, event: Event, record: dict[str, Any]) -> None:
    ops = _json(event.payload)
    if isinstance(ops, list):
        record["collective_schedules"].append([str(op) for op in ops])


@handles("log_cudagraphs")
def _cudagraphs_log(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    message = event.data["message"]
    if record is None and (m := re.match(r"^\[(?P<cid>!?[\d/]+)\] ", message)):
        record = assembler.compiles.get(m["cid"])  # run-time messages name their compile
    apply_cudagraph_message(record["cudagraphs"] if record else assembler.session_cudagraphs,
                            message)


@handles("log_perf_hints")
def _perf_hint(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    hint = {"level": event.data["level"], "message": event.data["message"][:4000]}
    (record["perf_hints"] if record else assembler.session_perf_hints).append(hint)


@handles("python_warning")
def _python_warning(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    warning = dict(event.data)
    (record["warnings"] if record else assembler.session_warnings).append(warning)
    if "Unable to hit fast path of CUDAGraphs" in warning["message"]:
        target = record["cudagraphs"] if record else assembler.session_cudagraphs
        target["fast_path_missed"] = {
            "message": warning["message"],
            "explanation": "The CUDA graph cannot be replayed while outputs of an earlier "
                           "call still wait for their backward: torch falls back to a slow "
                           "path, which can make reduce-overhead slower than eager.",
            "fix": "Call backward() before the next step; for inference run under "
                   "torch.no_grad(); or call torch.compiler.cudagraph_mark_step_begin() "
                   "before each model invocation.",
        }


@handles("chromium_event")
def _chromium(assembler: Assembler, event: Event, record: dict[str, Any] | None) -> None:
    data = _json(event.payload)
    if isinstance(data, dict):
        assembler.chromium.append((record["id"] if record else None, data))
