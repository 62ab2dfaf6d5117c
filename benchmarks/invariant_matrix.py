"""The whole invariant matrix, run before a closing note (CI runs a sample:
tests/findings/test_invariants.py): every corpus script (tests/programs, tests/findings_programs)
under every script configuration, every call under every configuration explored and run as
a ``%%tcompile`` cell, and the course notebooks as shipped and made dynamic; every document
held to tests/invariants.py (the report's titles included).

    python benchmarks/invariant_matrix.py                 # all of it
    python benchmarks/invariant_matrix.py --only scripts  # or calls, notebooks
    python benchmarks/invariant_matrix.py --jobs 4        # scripts run at once (default 2)

Prints each run (its documents, seconds, what broke), then the matrix's size and wall time;
exits 1 when a document breaks an invariant or a run made none. From the repository root.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import invariants  # noqa: E402
from tests.matrix import (  # noqa: E402
    CALL_CONFIGS,
    CALLS,
    NOTEBOOKS,
    SCRIPT_CONFIGS,
    SCRIPTS,
    Run,
    cell_run,
    explore_run,
    notebook_run,
    script_run,
)


def _scripts(work: Path, jobs: int) -> list[Run]:
    cells = [(s, c) for s in SCRIPTS for c in SCRIPT_CONFIGS]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda sc: script_run(sc[0], sc[1], work / sc[0].stem / sc[1]), cells))


def _calls() -> list[Run]:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "tcexplore")
    runs = []
    for name in CALLS:
        for config in CALL_CONFIGS:
            runs.append(explore_run(name, config))
            runs.append(cell_run(shell, name, config))
    return runs


def _notebooks(work: Path) -> list[Run]:
    return [
        notebook_run(path, dynamic, work / f"{path.stem}-{dynamic}")
        for path in NOTEBOOKS
        for dynamic in (False, True)
    ]


def _judge(run: Run) -> list[str]:
    broken = []
    for i, data in enumerate(run.documents):
        try:
            invariants.check(data, report=True)
        except AssertionError as exc:
            broken.append(f"document {i}: {exc}")
    if not run.documents and not run.note.startswith("not a cell's option"):
        broken.append(run.note or "no document")
    if run.raised:  # a cell that raised, or whose bound names the next cell could not read
        broken.append(f"the cell raised: {run.raised}")
    return broken


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("scripts", "calls", "notebooks"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    runs: list[Run] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.only in (None, "scripts"):
            runs += _scripts(work, args.jobs)
        if args.only in (None, "calls"):
            runs += _calls()
        if args.only in (None, "notebooks"):
            runs += _notebooks(work)
    failures = 0
    for run in runs:
        broken = _judge(run)
        failures += bool(broken)
        state = "BROKEN" if broken else "ok"
        print(
            f"{state:6} {run.name:32} {run.config:28} {len(run.documents):3} docs {run.seconds:7.1f} s"
        )
        for line in broken:
            print(f"         {line}")
    documents = sum(len(r.documents) for r in runs)
    print(
        f"\n{len(runs)} runs, {documents} documents, {failures} broken, "
        f"{time.perf_counter() - started:.0f} s wall"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
