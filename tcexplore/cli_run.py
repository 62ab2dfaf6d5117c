"""``tcexplore run``: a script run as ``__main__`` under capture, its document written."""

from __future__ import annotations

import argparse
import contextlib
import runpy
import sys
from pathlib import Path

from .cli_outputs import write_outputs
from .files.output import unwritable

RUN_USAGE = (
    "tcexplore run SCRIPT [script args] --json OUT [--html OUT] [--bypass-caches] "
    "[--profile] [--memory]"
)


def run_command(argv: list[str]) -> int:
    """``tcexplore run``'s arguments (those after ``run``) read, and the script run."""
    opts, script_and_args = _split_run_args(argv)
    if not opts.json_out and not opts.html_out:
        print("tcexplore run: give --json OUT and/or --html OUT", file=sys.stderr)
        return 2
    return run_script(
        script_and_args[0],
        script_and_args[1:],
        opts.json_out,
        opts.html_out,
        opts.bypass_caches,
        opts.profile,
        opts.memory,
    )


def _split_run_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """tcexplore's own options may come anywhere; everything else (and all after ``--``) is the script's."""
    own = argparse.ArgumentParser(prog="tcexplore run", usage=RUN_USAGE, add_help=False)
    own.add_argument("--json", dest="json_out")
    own.add_argument("--html", dest="html_out")
    own.add_argument(
        "--bypass-caches",
        action="store_true",
        help="a cold capture: every compile misses the FX-graph and AOTAutograd caches, so "
        "every view is complete (without it the caches are as the program has them, and a "
        "hit is recorded as one, with what it could not show); this changes what the "
        "program does (a warm start through load_cache_artifacts() may fail)",
    )
    # The default since caches are as the program has them; kept for older command lines.
    own.add_argument("--use-caches", action="store_true", help=argparse.SUPPRESS)
    own.add_argument(
        "--profile",
        action="store_true",
        help="profile the run: every kernel's time, by source line, against this machine's peaks",
    )
    own.add_argument(
        "--memory",
        action="store_true",
        help="measure the run's peak memory (the saved-for-backward and buffer "
        "sections are in every document)",
    )
    own.add_argument("-h", "--help", action="store_true")
    head, sep, tail = _partition(argv, "--")
    opts, rest = own.parse_known_args(head)
    if opts.help or not rest and not tail:
        own.print_usage()
        sys.exit(0 if opts.help else 2)
    script_and_args = rest + tail if sep else rest
    return opts, script_and_args


def _partition(argv: list[str], marker: str) -> tuple[list[str], bool, list[str]]:
    if marker in argv:
        i = argv.index(marker)
        return argv[:i], True, argv[i + 1 :]
    return argv, False, []


def run_script(
    script: str,
    script_args: list[str],
    json_out: str | None,
    html_out: str | None,
    bypass_caches: bool = False,
    profile: bool = False,
    memory: bool = False,
) -> int:
    """Run ``script`` as ``__main__`` under capture; write the document even if it raises.
    ``profile``: the whole run under torch.profiler, kernels timed (measure/run_profile.py)."""
    from .measure.memory import run_peak  # noqa: PLC0415
    from .measure.profiled_capture import capture  # noqa: PLC0415 - keep `tcexplore --help` fast
    from .measure.run_profile import RunProfile  # noqa: PLC0415

    if not Path(script).is_file():
        print(f"tcexplore run: no such script: {script}", file=sys.stderr)
        return 2
    if problem := unwritable(json_out, html_out):  # before the script runs, not after
        print(f"tcexplore run: {problem}", file=sys.stderr)
        return 2
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [script, *script_args]
    sys.path.insert(0, str(Path(script).resolve().parent))
    exit_code = 0
    session = memory_section = None
    profiler = RunProfile() if profile else None
    try:
        with (
            capture(
                bypass_caches=bypass_caches, on_event=profiler.on_event if profiler else None
            ) as session,
            profiler.recording() if profiler else contextlib.nullcontext(),
            run_peak() if memory else contextlib.nullcontext() as memory_section,
        ):
            runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        exit_code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException as exc:  # noqa: BLE001 - the script's failure is reported, not hidden
        import traceback  # noqa: PLC0415

        traceback.print_exception(exc)
        exit_code = 130 if isinstance(exc, KeyboardInterrupt) else 1
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    if session is not None:
        if exit_code == 0:
            session.error = None  # a clean SystemExit(0) is not an error
        document = session.document
        if profiler is not None:
            document = _with_profile(document, profiler)
        if memory_section is not None:
            document = document.with_sections(memory=memory_section)
        distributed = document.data["distributed"] or {}
        _, written_all = write_outputs(
            document,
            json_out,
            html_out,
            distributed["rank"] if (distributed.get("world_size") or 0) > 1 else None,
        )
        if not written_all:
            exit_code = 2
    return exit_code


def _with_profile(document, profiler):
    """The document with the run's profile; a profile that fails costs only itself."""
    try:
        return document.with_sections(profile=profiler.section(document.data))
    except Exception as exc:  # noqa: BLE001 - the capture is kept either way
        print(
            f"tcexplore run: the profile failed ({type(exc).__name__}: {exc}); "
            "the document is written without it",
            file=sys.stderr,
        )
        return document
