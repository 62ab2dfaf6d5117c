"""``tcexplore run | demo | doctor | diff``."""

from __future__ import annotations

import argparse
import runpy
import sys
from pathlib import Path

from . import __version__

RUN_USAGE = "tcexplore run SCRIPT [script args] --json OUT [--html OUT] [--use-caches]"


def _split_run_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """tcexplore's own options may come anywhere; everything else (and all after ``--``) is the script's."""
    own = argparse.ArgumentParser(prog="tcexplore run", usage=RUN_USAGE, add_help=False)
    own.add_argument("--json", dest="json_out")
    own.add_argument("--html", dest="html_out")
    own.add_argument("--use-caches", action="store_true",
                     help="let compiles hit the FX/AOT caches (hits are recorded as such)")
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


def run_script(script: str, script_args: list[str], json_out: str | None,
               html_out: str | None, use_caches: bool = False) -> int:
    """Run ``script`` as ``__main__`` under capture; write the document even if it raises."""
    from .capture import capture  # noqa: PLC0415 - keep `tcexplore --help` fast

    if not Path(script).is_file():
        print(f"tcexplore run: no such script: {script}", file=sys.stderr)
        return 2
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [script, *script_args]
    sys.path.insert(0, str(Path(script).resolve().parent))
    exit_code = 0
    session = None
    try:
        with capture(bypass_caches=not use_caches) as session:
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
        _write_outputs(session.document, json_out, html_out)
    return exit_code


def _write_outputs(document, json_out: str | None, html_out: str | None) -> None:
    summary = ", ".join(f"{k} {v}" for k, v in document.summary.items())
    print(f"tcexplore: {summary}", file=sys.stderr)
    for path in (json_out, html_out):
        if path:
            document.save(path)
            print(f"tcexplore: wrote {path}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="tcexplore", description="See what torch.compile did to your code.")
    parser.add_argument("--version", action="version", version=f"tcexplore {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("run", help="run a script with every torch.compile captured",
                        usage=RUN_USAGE, add_help=False)
    demo = commands.add_parser("demo", help="compile a small built-in model and write its exploration")
    demo.add_argument("--out", default="tcexplore-demo", help="output path stem (default: %(default)s)")
    demo.add_argument("--no-open", action="store_true", help="don't open the report in a browser")
    commands.add_parser("doctor", help="check what this machine can compile with")
    diff = commands.add_parser(
        "diff", help="what changed between two saved documents (exit 1 if anything did)",
        description="Compiles, graph nodes, guards and kernels that differ from A to B, with "
                    "timing and accuracy when both have them. Exit status: 0 no differences, "
                    "1 differences, 2 trouble (as diff(1)).")
    diff.add_argument("a", metavar="A.json")
    diff.add_argument("b", metavar="B.json")
    diff.add_argument("--json", dest="json_out", help="write the diff as JSON")
    diff.add_argument("--html", dest="html_out", help="write the diff as a self-contained page")

    if argv and argv[0] == "run":
        opts, script_and_args = _split_run_args(argv[1:])
        if not opts.json_out and not opts.html_out:
            print("tcexplore run: give --json OUT and/or --html OUT", file=sys.stderr)
            return 2
        return run_script(script_and_args[0], script_and_args[1:], opts.json_out,
                          opts.html_out, opts.use_caches)
    args = parser.parse_args(argv)
    if args.command == "demo":
        from .demo import run_demo  # noqa: PLC0415

        return run_demo(args.out, open_browser=not args.no_open)
    if args.command == "diff":
        from .docdiff import run_diff  # noqa: PLC0415

        return run_diff(args.a, args.b, args.json_out, args.html_out)
    if args.command == "doctor":
        from .doctor import run_doctor  # noqa: PLC0415

        return run_doctor()
    parser.print_help()
    return 2
