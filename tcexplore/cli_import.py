"""``tcexplore import``: one document per TORCH_TRACE log, a folder's ranks settled."""

from __future__ import annotations

import sys
from pathlib import Path

from .cli_outputs import unread_line, write_outputs
from .files.output import unwritable


def import_traces(
    path: str,
    json_out: str | None,
    html_out: str | None,
    jobs: int | None = None,
    compiles: list[str] | None = None,
) -> int:
    """``tcexplore import``: one document per TORCH_TRACE log; for a folder, one per rank
    (``out.rank<N>.json``), the logs read in parallel, their ranks settled as ``tcexplore
    ranks`` settles them (ranks/settle.py), and one line of what was skipped or settled."""
    from .ranks.files import per_input_path, per_rank_path  # noqa: PLC0415
    from .ranks.inputs import find_sources  # noqa: PLC0415
    from .ranks.pool import run_all  # noqa: PLC0415
    from .ranks.settle import settle  # noqa: PLC0415
    from .traces import TraceError  # noqa: PLC0415

    if problem := unwritable(json_out, html_out):
        print(f"tcexplore import: {problem}", file=sys.stderr)
        return 2
    outs = (json_out, html_out)
    folder = Path(path).is_dir()  # its documents written by place, renamed once ranks are settled
    try:
        inputs = find_sources([path])
        items = [
            (s, [per_input_path(out, s.order) if folder and out else out for out in outs])
            for s in inputs.sources
        ]
        results = run_all(_import_log, items, compiles, jobs=jobs)
        if not folder and "skipped" in results[0]:  # one log named: its own error, as it is
            raise TraceError(results[0]["error"])
        kept, set_aside, section = settle(inputs, results)
    except ValueError as exc:
        print(f"tcexplore import: {exc}", file=sys.stderr)
        return 2
    for f in set_aside:
        for written in filter(None, f.payload["written"]):
            Path(written).unlink(missing_ok=True)
    written_all = True
    for f in kept:
        lines, written_all = f.payload["lines"], written_all and f.payload["ok"]
        if folder:
            lines = [line for line in lines if not line.startswith("tcexplore: wrote ")]
            lines[0] = lines[0].replace("tcexplore: ", f"tcexplore: rank {f.rank}: ", 1)
            for out, written in zip(outs, f.payload["written"]):
                if out and Path(written).exists():
                    final = per_rank_path(out, f.rank) if len(kept) > 1 else Path(out)
                    lines.append(f"tcexplore: wrote {Path(written).replace(final)}")
        print("\n".join(lines), file=sys.stderr)
    if folder and section["line"]:
        print(f"tcexplore import: {section['line']}", file=sys.stderr)
    return 0 if written_all else 2


def _import_log(item: tuple, compiles: list[str] | None) -> dict:
    """One log's document written to the outputs given (a folder's are named by the log's
    place until its rank is settled): ``{"said", "lines", "ok", "written"}``, or
    ``{"skipped": reason}`` for a file that is not a readable log."""
    from .decided import Document  # noqa: PLC0415
    from .traces import data_from_log  # noqa: PLC0415
    from .traces.log_file import read_trace_log  # noqa: PLC0415

    source, (json_out, html_out) = item
    if source.kind == "document":
        why = "a saved document, not a log (`tcexplore ranks` reads it)"
        return {"skipped": why, "error": f"{source.path} is {why}"}
    try:
        document = Document.built(data_from_log(read_trace_log(source.path), keep=compiles or ()))
    except ValueError as exc:
        return {"skipped": str(exc).removeprefix(f"{source.path} is "), "error": str(exc)}
    capture = document.data["capture"]
    lines, ok = write_outputs(document, json_out, html_out, echo=False, compiles=compiles)
    if capture["partial"]:
        lines.append(f"tcexplore import: {capture['path']} is partial: {capture['partial']}")
    lines += [
        f"tcexplore import: {capture['path']}: {u['reason']}"
        for u in capture["unavailable"]
        if u["field"] == "compiles[].graphs_and_code"
    ]
    lines += unread_line("tcexplore import", capture["path"], document.summary)
    return {
        "said": (document.data["distributed"] or {}).get("rank"),
        "lines": lines,  # the summary first: a folder's gets its rank in front
        "ok": ok,
        "written": [str(out) if out else None for out in item[1]],
    }
