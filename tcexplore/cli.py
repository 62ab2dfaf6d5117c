"""``tcexplore run | import | ranks | repro | diff | demo | doctor``: parsed, and run."""

from __future__ import annotations

import argparse
import sys

from . import __version__
from .cli_import import import_traces
from .cli_ranks import compare_ranks
from .cli_run import RUN_USAGE, run_command


def main(argv: list[str] | None = None) -> int:
    """The command line ``argv`` (default: this process's) run; its exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    if argv and argv[0] == "run":  # the script's arguments are not tcexplore's
        return run_command(argv[1:])
    args = parser.parse_args(argv)
    if args.command == "demo":
        from .demo import run_demo  # noqa: PLC0415

        return run_demo(args.out, open_browser=not args.no_open)
    if args.command in ("import", "ranks") and not args.json_out and not args.html_out:
        parser.error(f"{args.command}: give --json OUT and/or --html OUT")
    if args.command == "import":
        return import_traces(args.path, args.json_out, args.html_out, args.jobs, args.compiles)
    if args.command == "ranks":
        return compare_ranks(
            args.sources, args.json_out, args.html_out, args.embed_limit, args.jobs
        )
    if args.command == "diff":
        from .docdiff import run_diff  # noqa: PLC0415

        return run_diff(args.a, args.b, args.json_out, args.html_out)
    if args.command == "doctor":
        from .doctor import run_doctor  # noqa: PLC0415

        return run_doctor()
    if args.command == "repro":
        from .workbench.cli import run_repro  # noqa: PLC0415

        return run_repro(args.document, args.kernel, args.out, args.launch)
    parser.print_help()
    return 2


def _parser() -> argparse.ArgumentParser:
    """Every command and its options; ``run``'s own options are read by cli_run.py."""
    parser = argparse.ArgumentParser(
        prog="tcexplore", description="See what torch.compile did to your code."
    )
    parser.add_argument("--version", action="version", version=f"tcexplore {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_torch_commands(commands)
    _add_trace_commands(commands)
    _add_document_commands(commands)
    return parser


def _add_torch_commands(commands) -> None:
    """``run``, ``demo``, ``doctor``: torch on this machine."""
    commands.add_parser(
        "run",
        help="run a script with every torch.compile captured",
        usage=RUN_USAGE,
        add_help=False,
    )
    demo = commands.add_parser(
        "demo", help="compile a small built-in model and write its exploration"
    )
    demo.add_argument(
        "--out", default="tcexplore-demo", help="output path stem (default: %(default)s)"
    )
    demo.add_argument("--no-open", action="store_true", help="don't open the report in a browser")
    commands.add_parser("doctor", help="check what this machine can compile with")


def _add_trace_commands(commands) -> None:
    """``import``, ``ranks``: a TORCH_TRACE log, or a distributed job's logs or documents."""
    imported = commands.add_parser(
        "import", help="read a TORCH_TRACE log (or a directory of them, one per rank)"
    )
    imported.add_argument("path", metavar="PATH", help="a TORCH_TRACE log, or its directory")
    imported.add_argument(
        "--json",
        dest="json_out",
        metavar="OUT",
        help="document to write (out.rank<N>.json per rank)",
    )
    imported.add_argument("--html", dest="html_out", metavar="OUT", help="report to write")
    imported.add_argument(
        "--jobs", type=int, metavar="N", help="logs read at once (default: this machine's cores)"
    )
    imported.add_argument(
        "--compile",
        dest="compiles",
        action="append",
        metavar="ID",
        help="show this compile in full in --html (repeatable; default: "
        "the first ones, within the report's size bounds)",
    )
    compared = commands.add_parser(
        "ranks", help="compare the ranks of a distributed job: where do they diverge?"
    )
    compared.add_argument(
        "sources",
        metavar="DOCS_OR_TRACES",
        nargs="+",
        help="rank documents, TORCH_TRACE logs or their directory, or the "
        "--json path given to `tcexplore run` (finds out.rank*.json)",
    )
    compared.add_argument("--json", dest="json_out", metavar="OUT")
    compared.add_argument("--html", dest="html_out", metavar="OUT")
    compared.add_argument(
        "--embed-limit",
        type=float,
        default=50,
        metavar="MB",
        help="embed the rank documents in --json up to this many MB "
        "(default: %(default)s; 0: none)",
    )
    compared.add_argument(
        "--jobs", type=int, metavar="N", help="ranks read at once (default: this machine's cores)"
    )


def _add_document_commands(commands) -> None:
    """``repro``, ``diff``: one saved document's kernel, two saved documents' differences."""
    repro = commands.add_parser(
        "repro",
        help="write one kernel of a document as a standalone, editable program",
        description="Write the reproducer of KERNEL: a program that builds its inputs, "
        "launches it as the compiled module does, compares an editable copy with "
        "the original and times both. Without KERNEL, list the kernels.",
    )
    repro.add_argument("document", metavar="DOC.json")
    repro.add_argument(
        "kernel",
        metavar="KERNEL",
        nargs="?",
        help="COMPILE:OUTPUT:NAME (e.g. 0/0:backward:cpp_fused_mul_0) or any "
        "unambiguous part of it",
    )
    repro.add_argument("-o", "--out", metavar="FILE", help="write here (default: print it)")
    repro.add_argument(
        "--launch",
        type=int,
        default=1,
        metavar="N",
        help="which launch of a kernel launched several times (default 1)",
    )
    diff = commands.add_parser(
        "diff",
        help="what changed between two saved documents (exit 1 if anything did)",
        description="Compiles, graph nodes, guards and kernels that differ from A to B, with "
        "timing and accuracy when both have them. Exit status: 0 no differences, "
        "1 differences, 2 trouble (as diff(1)).",
    )
    diff.add_argument("a", metavar="A.json")
    diff.add_argument("b", metavar="B.json")
    diff.add_argument("--json", dest="json_out", help="write the diff as JSON")
    diff.add_argument("--html", dest="html_out", help="write the diff as a self-contained page")
