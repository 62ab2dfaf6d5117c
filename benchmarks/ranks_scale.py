#!/usr/bin/env python
"""How does ``tcexplore ranks`` scale with ranks and ``--jobs``, against tlparse?

For each rank count N (``--ranks``), a directory of N TORCH_TRACE logs named as torch names
a job's ranks (links to one log: by default the 12-layer GPT training step of
benchmarks/gpt_trace.py), read in one run by

* ``tlparse DIR --all-ranks-html`` (tlparse's multi-rank report), and
* ``tcexplore ranks DIR --json OUT --html OUT --jobs J`` for J in ``--jobs`` (default
  1, 2, 4, … up to this machine's cores),

with wall time, CPU time and the peak memory of the whole process tree (the parent and
its workers together). ``--baseline DIR`` adds, for each ``--jobs``, the same command run
with an earlier tcexplore's source tree first on the path (``git archive REV tcexplore |
tar -x -C DIR``), alternating with this one: before and after in one run. ``--no-tlparse``
leaves tlparse out.

    python benchmarks/ranks_scale.py                       # 8 ranks, jobs 1..cores
    python benchmarks/ranks_scale.py --ranks 8 64 --jobs 2 16
    python benchmarks/ranks_scale.py --ranks 64 --jobs 1 --baseline /tmp/base --no-tlparse
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gpt_trace import gpt_trace_log  # noqa: E402
from measure import measure  # noqa: E402


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def _default_jobs() -> list[int]:
    jobs, j = [], 1
    while j < _cores():
        jobs.append(j)
        j *= 2
    return [*jobs, _cores()]


def _rank_dir(log: Path, ranks: int, root: Path) -> Path:
    directory = root / f"ranks{ranks}"
    directory.mkdir()
    for rank in range(ranks):
        (directory / f"dedicated_log_torch_trace_rank_{rank}_bench.log").symlink_to(log.resolve())
    return directory


def _row(name: str, m, note: str = "") -> None:
    print(f"{name:38} {m.wall_s:7.2f} {m.cpu_s:7.2f} {m.peak_rss_mb:8.0f}{note}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log", type=Path, help="a TORCH_TRACE log (default: the GPT step)")
    parser.add_argument(
        "--work",
        type=Path,
        default=Path(tempfile.gettempdir()) / "tcx-bench",
        help="where the GPT log is kept (default: %(default)s)",
    )
    parser.add_argument("--ranks", type=int, nargs="+", default=[8])
    parser.add_argument("--jobs", type=int, nargs="+", default=_default_jobs())
    parser.add_argument("--baseline", type=Path, help="an earlier tcexplore's source tree")
    parser.add_argument("--no-tlparse", action="store_true")
    args = parser.parse_args()
    if not args.no_tlparse and shutil.which("tlparse") is None:
        parser.error("tlparse is not installed (pip install tlparse, or the `test` extra)")
    log = args.log or gpt_trace_log(args.work / "gpt12")
    print(f"log: {log} ({log.stat().st_size / 1e6:.1f} MB) x N ranks; {_cores()} cores")
    print(f"{'':38} {'wall s':>7} {'cpu s':>7} {'peak MB':>8}")
    arms = {"": None}
    if args.baseline:
        arms["baseline "] = dict(os.environ, PYTHONPATH=str(args.baseline.resolve()))
    for ranks in args.ranks:
        with tempfile.TemporaryDirectory() as tmp:
            directory = _rank_dir(log, ranks, Path(tmp))
            if not args.no_tlparse:
                m = measure(
                    [
                        "tlparse",
                        str(directory),
                        "--all-ranks-html",
                        "-o",
                        str(Path(tmp) / "tl"),
                        "--overwrite",
                        "--no-browser",
                    ]
                )
                _row(f"{ranks} ranks: tlparse --all-ranks-html", m)
            base = None
            for jobs in args.jobs:  # each row printed as it is measured
                for arm, env in arms.items():  # the source tree's own, then the baseline's
                    out = Path(tmp) / f"out{jobs}"
                    out.mkdir()
                    m = measure(
                        [
                            sys.executable,
                            "-m",
                            "tcexplore",
                            "ranks",
                            str(directory),
                            "--json",
                            str(out / "ranks.json"),
                            "--html",
                            str(out / "ranks.html"),
                            "--jobs",
                            str(jobs),
                        ],
                        env=env,
                        cwd=tmp,  # not this checkout: the baseline's tree comes first on its path
                    )
                    shutil.rmtree(out)
                    base = base or m.wall_s
                    _row(
                        f"{ranks} ranks: {arm}tcexplore ranks --jobs {jobs}",
                        m,
                        f"  x{base / m.wall_s:.2f} of the first row",
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
