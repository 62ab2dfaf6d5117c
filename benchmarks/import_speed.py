#!/usr/bin/env python
"""How fast does tcexplore start, and read a TORCH_TRACE log, against tlparse on the same log?

In one run, interleaved (``--reps`` rounds, medians reported):

* start-up: ``python -c "import torch"`` against ``python -c "import tcexplore"``;
* one log: ``tlparse LOG`` (its default HTML output) against ``tcexplore import LOG --json``
  and ``--json --html``, and ``tcexplore.load()`` of the document written: wall time, MB of
  log per wall second and per CPU second (one core's throughput), peak memory of the whole
  process tree.

The log defaults to a 12-layer GPT training step on CPU (benchmarks/gpt_trace.py, made on
first use and kept in ``--work``).

    python benchmarks/import_speed.py                     # the GPT log, 3 rounds
    python benchmarks/import_speed.py --log trace.log --reps 5
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gpt_trace import gpt_trace_log  # noqa: E402
from measure import Measured, measure  # noqa: E402

PYTHON = sys.executable


def _arms(log: Path, out: Path) -> dict[str, list[str]]:
    tcexplore = [PYTHON, "-m", "tcexplore", "import", str(log), "--json", str(out / "doc.json")]
    return {
        "import torch": [PYTHON, "-c", "import torch"],
        "import tcexplore": [PYTHON, "-c", "import tcexplore"],
        "tlparse LOG": ["tlparse", str(log), "-o", str(out / "tl"), "--overwrite", "--no-browser"],
        "tcexplore import --json": tcexplore,
        "tcexplore import --json --html": [*tcexplore, "--html", str(out / "doc.html")],
        "tcexplore.load(doc.json)": [
            PYTHON,
            "-c",
            f"import sys, tcexplore; tcexplore.load({str(out / 'doc.json')!r})",
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log", type=Path, help="a TORCH_TRACE log (default: the GPT step)")
    parser.add_argument(
        "--work",
        type=Path,
        default=Path(tempfile.gettempdir()) / "tcx-bench",
        help="where the GPT log is kept (default: %(default)s)",
    )
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    if shutil.which("tlparse") is None:
        parser.error("tlparse is not installed (pip install tlparse, or the `test` extra)")
    log = args.log or gpt_trace_log(args.work / "gpt12")
    megabytes = log.stat().st_size / 1e6
    print(f"log: {log} ({megabytes:.1f} MB)")
    with tempfile.TemporaryDirectory() as tmp:
        arms = _arms(log, Path(tmp))
        runs: dict[str, list[Measured]] = {name: [] for name in arms}
        for _ in range(args.reps):
            for name, command in arms.items():
                runs[name].append(measure(command))
        doc_mb = (Path(tmp) / "doc.json").stat().st_size / 1e6
        html_mb = (Path(tmp) / "doc.html").stat().st_size / 1e6
    print(f"document {doc_mb:.1f} MB, report {html_mb:.1f} MB; medians of {args.reps} rounds")
    print(f"{'':34} {'wall s':>7} {'cpu s':>6} {'MB/s':>6} {'MB/cpu-s':>9} {'peak MB':>8}")
    for name, measured in runs.items():
        wall = statistics.median(m.wall_s for m in measured)
        cpu = statistics.median(m.cpu_s for m in measured)
        peak = statistics.median(m.peak_rss_mb for m in measured)
        reads_log = name.startswith(("tlparse", "tcexplore import"))
        rates = f"{megabytes / wall:6.1f} {megabytes / cpu:9.1f}" if reads_log else f"{'':6} {'':9}"
        print(f"{name:34} {wall:7.2f} {cpu:6.2f} {rates} {peak:8.0f}")
    med = {name: statistics.median(m.wall_s for m in measured) for name, measured in runs.items()}
    print(
        f"import tcexplore costs {med['import tcexplore'] - med['import torch']:+.2f} s "
        "against import torch; tcexplore import takes "
        f"{med['tcexplore import --json'] / med['tlparse LOG']:.2f}x tlparse's time"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
