"""``tcexplore ranks``: the multi-rank document of a job's rank documents or logs."""

from __future__ import annotations

import sys
from pathlib import Path

from .cli_outputs import unread_line
from .files.output import OutputError, unwritable


def compare_ranks(
    sources: list[str],
    json_out: str | None,
    html_out: str | None,
    embed_limit_mb: float,
    jobs: int | None = None,
) -> int:
    """``tcexplore ranks``: the multi-rank document of rank documents or logs (read in
    parallel; the documents of logs written beside the output as ``OUT.rank<N>.json``)."""
    from .ranks import ranks  # noqa: PLC0415

    if problem := unwritable(json_out, html_out):
        print(f"tcexplore ranks: {problem}", file=sys.stderr)
        return 2
    base = Path(json_out or html_out).with_suffix(".json")
    try:
        view = ranks(
            *sources, embed_limit=int(embed_limit_mb * 1_000_000), jobs=jobs, documents=base
        )
    except ValueError as exc:
        print(f"tcexplore ranks: {exc}", file=sys.stderr)
        return 2
    print(f"tcexplore: {view.data['headline']}", file=sys.stderr)
    if (view.data["inputs"] or {}).get("line"):
        print(f"tcexplore ranks: {view.data['inputs']['line']}", file=sys.stderr)
    for entry in view.to_dict()["ranks"]:
        if entry["capture"].get("partial"):
            print(
                f"tcexplore ranks: rank {entry['rank']} is partial: {entry['capture']['partial']}",
                file=sys.stderr,
            )
        for line in unread_line("tcexplore ranks", f"rank {entry['rank']}", entry["summary"]):
            print(line, file=sys.stderr)
    for finding in view.divergence:
        print(f"  [{finding['kind']}] {finding['title']}", file=sys.stderr)
        for item in finding["evidence"][:3]:
            who = "" if item["rank"] is None else f"rank {item['rank']}: "
            print(f"      {who}{item['text']}", file=sys.stderr)
    written_all = True
    for out in (json_out, html_out):
        if out:
            try:
                print(f"tcexplore: wrote {view.save(out)}", file=sys.stderr)
            except OutputError as exc:
                print(f"tcexplore ranks: {exc}", file=sys.stderr)
                written_all = False
    return 0 if written_all else 2
