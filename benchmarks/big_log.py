#!/usr/bin/env python
"""A big TORCH_TRACE log, made from a real one, read by tlparse and by tcexplore import:
time and peak memory.

A job that compiles for hours writes a log of gigabytes: many frames, each with its
graphs, guards and Inductor code. This writes such a log from a real one (by default the
12-layer GPT training step of gpt_trace.py, 14 MB): the events of every compile are
written once per copy, each copy's frames numbered after the last copy's (the envelope's
``frame_id`` and the ``compile_id`` its metadata and chromium events name, each payload's
md5 written again where its text changed), and the events of no frame (the file-name
table, the versions) once. Copies are added until the log reaches ``--size``; tlparse
reads it as torch's own (a 1 GB log of 72 copies holds 72 times the compiles).

Then, in one run, ``tlparse LOG`` (its default HTML output, as import_speed.py runs it)
and ``tcexplore import LOG --json OUT``, each ``--reps`` times alternating: wall and CPU
seconds and the peak memory of the whole process tree, against the goals (under 2 GB for
a 1 GB log, less time than tlparse).

    python benchmarks/big_log.py                     # a 1 GB log from the GPT step's
    python benchmarks/big_log.py --size 2e8 --log trace.log --reps 3
"""

from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import statistics
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gpt_trace import gpt_trace_log  # noqa: E402
from measure import measure  # noqa: E402

_FRAME_ID = re.compile(rb'"frame_id": (\d+)')
_COMPILE_ID = re.compile(rb'"compile_id": "(\d+)/')
_PAYLOAD_MD5 = re.compile(rb'"has_payload": "[0-9a-f]+"')


def _records(log: bytes) -> Iterator[tuple[bytes, list[bytes]]]:
    """(envelope line, payload lines without their tab) of each event."""
    envelope, payload = None, []
    for line in log.split(b"\n"):
        if line.startswith(b"\t") and envelope is not None:
            payload.append(line[1:])
            continue
        if envelope is not None:
            yield envelope, payload
        envelope, payload = (line, []) if line else (None, [])
    if envelope is not None:
        yield envelope, payload


def _renumbered(envelope: bytes, payload: list[bytes], offset: int) -> bytes:
    def shift(match: re.Match[bytes], template: bytes) -> bytes:
        return template % (int(match.group(1)) + offset)

    envelope = _FRAME_ID.sub(lambda m: shift(m, b'"frame_id": %d'), envelope)
    envelope = _COMPILE_ID.sub(lambda m: shift(m, b'"compile_id": "%d/'), envelope)
    if not payload:
        return envelope + b"\n"
    body = _COMPILE_ID.sub(lambda m: shift(m, b'"compile_id": "%d/'), b"\n".join(payload))
    digest = hashlib.md5(body, usedforsecurity=False).hexdigest().encode()
    envelope = _PAYLOAD_MD5.sub(b'"has_payload": "' + digest + b'"', envelope)
    return envelope + b"\n" + b"\n".join(b"\t" + line for line in body.split(b"\n")) + b"\n"


def big_log(source: Path, out: Path, size: float) -> tuple[Path, int]:
    """Write ``out`` from ``source``'s compiles until it holds ``size`` bytes; returns it
    and the number of copies."""
    records = list(_records(source.read_bytes()))
    framed = [r for r in records if _FRAME_ID.search(r[0])]
    frames = 1 + max(int(_FRAME_ID.search(e).group(1)) for e, _ in framed)
    copies = written = 0
    with out.open("wb") as log:
        for envelope, payload in records:  # the first copy: the log as torch wrote it
            written += log.write(_renumbered(envelope, payload, 0))
        copies = 1
        while written < size:
            for envelope, payload in framed:
                written += log.write(_renumbered(envelope, payload, copies * frames))
            copies += 1
    return out, copies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=float, default=1e9, help="bytes (default: %(default)g)")
    parser.add_argument("--log", type=Path, help="the real log (default: the GPT step's)")
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument(
        "--work",
        type=Path,
        default=Path(tempfile.gettempdir()) / "tcx-bench",
        help="where the logs are kept (default: %(default)s)",
    )
    args = parser.parse_args()
    if shutil.which("tlparse") is None:
        parser.error("tlparse is not installed (pip install tlparse, or the `test` extra)")
    source = args.log or gpt_trace_log(args.work / "gpt12")
    log = args.work / f"big-{args.size:g}.log"
    if not log.exists():
        big_log(source, log, args.size)
    megabytes = log.stat().st_size / 1e6
    print(f"log: {log} ({megabytes:.0f} MB, copies of {source.name})")
    print(f"{'':28} {'wall s':>8} {'cpu s':>8} {'peak MB':>8} {'peak / log':>10}")
    runs: dict[str, list] = {"tlparse LOG": [], "tcexplore import LOG --json": []}
    with tempfile.TemporaryDirectory(dir=args.work) as tmp:
        commands = {
            "tlparse LOG": ["tlparse", str(log), "-o", f"{tmp}/tl", "--overwrite", "--no-browser"],
            "tcexplore import LOG --json": [
                sys.executable,
                "-m",
                "tcexplore",
                "import",
                str(log),
                "--json",
                f"{tmp}/doc.json",
            ],
        }
        for _ in range(args.reps):
            for name, command in commands.items():
                m = measure(command)
                runs[name].append(m)
                print(
                    f"{name:28} {m.wall_s:8.1f} {m.cpu_s:8.1f} {m.peak_rss_mb:8.0f} "
                    f"{m.peak_rss_mb / megabytes:10.2f}",
                    flush=True,
                )
    ours, theirs = runs["tcexplore import LOG --json"], runs["tlparse LOG"]
    peak = max(m.peak_rss_mb for m in ours)
    ratio = statistics.median(m.wall_s for m in ours) / statistics.median(m.wall_s for m in theirs)
    print(
        f"tcexplore import: peak {peak:.0f} MB for {megabytes:.0f} MB of log "
        f"({'within' if peak < 2 * megabytes else 'over'} twice the log); "
        f"{ratio:.2f}x tlparse's time"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
