"""``tcexplore run | import | ranks | repro | diff | demo | doctor``."""

from __future__ import annotations

import argparse
import contextlib
import runpy
import sys
from pathlib import Path

from . import __version__
from .common.formatting import share, time_us
from .files.output import OutputError, unwritable
from .findings.graph_break_audit import graph_break_lines

RUN_USAGE = (
    "tcexplore run SCRIPT [script args] --json OUT [--html OUT] [--bypass-caches] "
    "[--profile] [--memory]"
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
        _, written_all = _write_outputs(
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


def _write_outputs(
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
    lines, ok = _write_outputs(document, json_out, html_out, echo=False, compiles=compiles)
    if capture["partial"]:
        lines.append(f"tcexplore import: {capture['path']} is partial: {capture['partial']}")
    lines += [
        f"tcexplore import: {capture['path']}: {u['reason']}"
        for u in capture["unavailable"]
        if u["field"] == "compiles[].graphs_and_code"
    ]
    lines += _unread_line("tcexplore import", capture["path"], document.summary)
    return {
        "said": (document.data["distributed"] or {}).get("rank"),
        "lines": lines,  # the summary first: a folder's gets its rank in front
        "ok": ok,
        "written": [str(out) if out else None for out in item[1]],
    }


def _unread_line(command: str, source: str, summary: dict) -> list[str]:
    """The one line saying how many events of a log could not be read, if any."""
    count = summary.get("unread_events") or 0
    if not count:
        return []
    return [
        f"{command}: {source}: {count} damaged or unreadable trace "
        f"{'event' if count == 1 else 'events'} skipped or read in part; the document's "
        "'unread' finding lists them"
    ]


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
        for line in _unread_line("tcexplore ranks", f"rank {entry['rank']}", entry["summary"]):
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


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="tcexplore", description="See what torch.compile did to your code."
    )
    parser.add_argument("--version", action="version", version=f"tcexplore {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
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

    if argv and argv[0] == "run":
        opts, script_and_args = _split_run_args(argv[1:])
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
