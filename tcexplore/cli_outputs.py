"""What ``run`` and ``import`` write of a document and the lines they print about it."""

from __future__ import annotations

import sys

from .common.formatting import share, time_us
from .files.output import OutputError
from .findings.graph_break_audit import graph_break_lines


def write_outputs(
    document,
    json_out: str | None,
    html_out: str | None,
    rank: int | None = None,
    echo: bool = True,
    compiles: list[str] | None = None,
) -> tuple[list[str], bool]:
    """Write the document; with a ``rank`` as ``out.rank<N>.json`` (and ``.html``), so the
    ranks of a job never overwrite each other. One that cannot be written is named in one
    line and the others are still written. The lines are printed (``echo``) and returned,
    with whether every output was written."""
    from .ranks.files import per_rank_path  # noqa: PLC0415

    written_all = True
    summary = ", ".join(f"{k} {v}" for k, v in document.summary.items())
    lines = [f"tcexplore: {'' if rank is None else f'rank {rank}: '}{summary}"]
    lines += graph_break_lines(document.graph_break_audit())
    lines += profile_lines(document.data.get("profile"))
    if document.data.get("memory"):
        lines += memory_lines(document.data)
    for path in (json_out, html_out):
        if path:
            target = path if rank is None else per_rank_path(path, rank)
            try:
                written = (
                    document.save(target, compiles=compiles)
                    if path == html_out
                    else document.save(target)
                )
            except OutputError as exc:
                lines.append(f"tcexplore: {exc}")
                written_all = False
                continue
            lines.append(f"tcexplore: wrote {written}")
    if echo:
        print("\n".join(lines), file=sys.stderr)
    return lines, written_all


def memory_lines(data: dict) -> list[str]:
    """``run --memory``'s finding: the peak, the saved activations' lines, the advice."""
    from .findings.memory import memory_finding  # noqa: PLC0415

    finding = memory_finding(data)
    if finding is None:
        return []
    lines = [f"tcexplore: memory: {finding['title']}; {finding['evidence']}"]
    return lines + ([f"tcexplore: memory: {finding['advice']}"] if finding["advice"] else [])


def profile_lines(profile: dict | None, shown: int = 3) -> list[str]:
    """``run --profile``'s verdict, its first advice, the steps' headline and the heaviest lines."""
    if not profile:
        return []
    step = profile["step"]
    lines = [
        f"tcexplore: profile: {step['verdict']}, {1 - step['overhead_share']:.0%} of "
        f"{time_us(step['wall_us'])} in kernels; {step['advice'][0]}"
    ]
    calls = profile.get("calls") or {}
    if calls.get("compiling") and calls.get("line"):
        lines.append(f"tcexplore: profile: calls of compiled code: {calls['line']}")
    run = profile.get("run")
    if run:
        lines.append(f"tcexplore: profile: steps: {run['headline']} ({run['steps']['basis']})")
    for line in profile["lines"][:shown]:
        where = f"{line['file']}:{line['line']}" if line["file"] else "no source line"
        lines.append(
            f"    {time_us(line['time_us']):>9} {share(line['share'] or 0):>6}  {where}  "
            f"{line['code'] or ''}"
        )
    return lines


def unread_line(command: str, source: str, summary: dict) -> list[str]:
    """The one line saying how many events of a log could not be read, if any."""
    count = summary.get("unread_events") or 0
    if not count:
        return []
    return [
        f"{command}: {source}: {count} damaged or unreadable trace "
        f"{'event' if count == 1 else 'events'} skipped or read in part; the document's "
        "'unread' finding lists them"
    ]
