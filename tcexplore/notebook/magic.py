"""``%%tcompile``: compile a notebook cell with torch.compile and show what happened;
``%tkernel``: put one of its kernels, as a runnable and editable program, in a new cell.

Loaded by ``%load_ext tcexplore``. The parsing and checking of options is in
``notebook/options.py``, turning the cell into a function in ``notebook/cell.py``,
running it in ``notebook/run.py``.
"""

from __future__ import annotations

import itertools
import linecache
from collections.abc import Callable
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from ..capture.notebook_cells import cell_sections, running_cell
from ..decided import Document
from ..document import DocumentError
from ..measure.cloned_inputs import clone_tensors, rng_state
from ..measure.exploration import Exploration
from ..saved import load
from ..workbench import AmbiguousKernel, WorkbenchError, find_kernel
from ..workbench.cli import kernel_table
from . import options as opts
from .cell import CellFunction, compile_cell
from .progress import Progress
from .run import cell_uses_cuda, run_cell


@magics_class
class TcompileMagics(Magics):
    last_exploration: Exploration | None = None  # what %tkernel reads by default

    @magic_arguments()
    @argument(
        "--mode",
        help="torch.compile mode: default, reduce-overhead, "
        "max-autotune-no-cudagraphs, max-autotune, ...",
    )
    @argument(
        "--backend",
        default="inductor",
        help="torch.compile backend (default: inductor); torch.compiler.list_backends() names them",
    )
    @argument("--dynamic", action="store_true", help="torch.compile(dynamic=True)")
    @argument(
        "--no-dynamic",
        action="store_true",
        help="torch.compile(dynamic=False) (default: neither, torch's automatic dynamic)",
    )
    @argument(
        "--fullgraph",
        action="store_true",
        help="torch.compile(fullgraph=True): a graph break is an error",
    )
    @argument(
        "--options",
        metavar="JSON",
        help="Inductor options as a quoted JSON object, e.g. --options '{\"max_autotune\": true}'",
    )
    @argument(
        "--compare",
        nargs="+",
        metavar="KEY=V1,V2",
        help="compare configurations instead: their progress, then the grid (syntax above)",
    )
    @argument(
        "--no-eager",
        action="store_true",
        help="skip the eager comparison: no timing and no numeric diff (with --compare: no timing)",
    )
    @argument(
        "--profile",
        action="store_true",
        help="profile runs of the compiled cell (each a step): kernels by line, the time per "
        "compiled frame and the eager gaps each graph break makes (with --compare: each row)",
    )
    @argument(
        "--memory",
        action="store_true",
        help="measure one run's peak memory, eager and compiled, each from the state the real "
        "run started from, its backward included (with --compare each row measures it)",
    )
    @argument(
        "--out",
        metavar="NAME",
        help="bind the result in the notebook: the Exploration (with --compare: the Comparison)",
    )
    @argument(
        "--time-budget",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="timing budget of each of eager and compiled (default 1.0)",
    )
    @argument(
        "--bypass-caches",
        action="store_true",
        help="a cold capture: the compiles miss Inductor's FX-graph and AOTAutograd caches, "
        "so every view is complete (by default the caches are as the program has them)",
    )
    @argument(
        "--try-fixes",
        action="store_true",
        help="try each setting the findings advise (capture_scalar_outputs, dynamic=True, "
        "...) on copies, each against the cell as it is, and show before → after",
    )
    @cell_magic
    def tcompile(self, line: str, cell: str) -> Any:
        """Compile this cell with torch.compile; show graphs, graph breaks, guards,
        recompiles, kernels, compile time, and eager vs compiled timing and accuracy.

        The cell itself is compiled: Dynamo traces its lines, so graph breaks and guards
        point at "cell [n], line k". The names it assigns are set in the notebook and the
        value of its last expression is its output, as for a plain cell; compiles that
        models or functions called in the cell trigger are recorded too. For the
        comparison the cell runs again, eagerly, on copies of the tensors it reads (same
        RNG state); its prints show once. Use --no-eager for a cell with side effects
        beyond its tensors (it then runs once). --profile then profiles runs of the compiled
        cell, each run of its body a step (on copies, its output hidden, the state the real
        run made put back): kernels by line, each compiled frame's time, and the eager gaps
        each graph break makes. --memory measures one run's peak memory, eager and compiled,
        each from the state the real run started from (the cell's own backward included).

        --compare takes space-separated KEY=V1,V2 groups, KEY one of modes, backends,
        dynamic (values none, true, false); an axis left out keeps the single value of
        --mode / --backend / --dynamic. For example:

            %%tcompile --compare modes=default,reduce-overhead backends=inductor,eager dynamic=none,true

        The cell is explored under each configuration (on copies, each compiled cold as a
        compare() row: its own backend, Inductor's caches empty; rows torch runs alike are
        one row; peak memory measured), its progress shown, then the grid (each row opens
        its exploration; a saved notebook keeps it), and then the cell runs once eagerly for
        the names it assigns.
        """
        __tracebackhide__ = True  # noqa: F841 - IPython hides this frame in tracebacks
        args = parse_argstring(self.tcompile, line)
        config = _configuration(args)
        shell = self.shell
        raw = f"%%tcompile {line}\n{cell}"
        filename, number = _cell_file(shell, raw)
        label = f"cell [{number}]"
        cell_fn = compile_cell(shell.transform_cell(cell), filename, shell.user_ns, first_line=2)

        def sections(data: dict[str, Any]) -> dict[str, Any]:
            return cell_sections(data, filename, shell.compile.format_code_name)

        compiled = opts.compile_or_usage_error(cell_fn.fn, config)  # checks --options too
        if args.compare:
            return self._compare(args, config, cell_fn, sections)
        progress = Progress(f"torch.compile {label}")
        try:
            run = run_cell(
                cell_fn,
                shell.user_ns,
                compiled,
                compile_kwargs=config,
                sections=sections,
                eager=not args.no_eager,
                time_budget_s=args.time_budget,
                on_event=progress.on_event,
                on_stage=progress.update,
                profile=args.profile,
                memory=args.memory,
                try_fixes=args.try_fixes,
                bypass_caches=args.bypass_caches,
            )
        except BaseException:
            progress.update("interrupted")
            raise
        progress.finish(run.exploration)
        self.last_exploration = run.exploration
        cell_fn.write_back(shell.user_ns, run.values)
        if args.out:
            shell.user_ns[args.out] = run.exploration
        if run.error is not None:
            raise cell_fn.from_cell(run.error)
        return run.result if cell_fn.has_result else None

    @magic_arguments()
    @argument(
        "name",
        nargs="?",
        metavar="KERNEL",
        help="COMPILE:OUTPUT:NAME (e.g. 0/0:backward:cpp_fused_mul_0) or any unambiguous "
        "part of it; leave it out to list the kernels",
    )
    @argument(
        "--from",
        dest="source",
        metavar="VAR",
        help="an Exploration or Document of the notebook, or the path of a saved document "
        "(default: the last %%%%tcompile result)",
    )
    @argument(
        "--launch",
        type=int,
        default=1,
        metavar="N",
        help="which launch of a kernel launched several times (default 1)",
    )
    @line_magic
    def tkernel(self, line: str) -> None:
        """Put the reproducer of a kernel into a new cell below: a program that builds the
        kernel's inputs, launches it as the compiled module does, and compares an editable
        copy (EDITED) with the original (ORIGINAL) on the same inputs, timing both. Run the
        cell to see its verdict; edit EDITED and run it again.

            %tkernel                                  # list the kernels
            %tkernel cpp_fused_relu_0
            %tkernel 0/0:backward:cpp_fused_mul_0 --from run
        """
        args = parse_argstring(self.tkernel, line)
        data = self._document(args.source).data
        if not args.name:
            print(kernel_table(data))
            return
        try:
            text = find_kernel(data, args.name).reproducer(args.launch)
        except AmbiguousKernel as exc:
            raise UsageError(
                "%tkernel: " + exc.message(f"(e.g. %tkernel {exc.candidates[0]})")
            ) from None
        except WorkbenchError as exc:
            raise UsageError(str(exc)) from None
        self.shell.set_next_input(text, replace=False)

    def _document(self, source: str | None) -> Document:
        if source is None:
            if self.last_exploration is None:
                raise UsageError("%tkernel: no %%tcompile result yet; run one, or give --from VAR")
            return self.last_exploration.document
        if source in self.shell.user_ns:
            value = self.shell.user_ns[source]
            if isinstance(value, (Exploration, Document)):
                return value.document if isinstance(value, Exploration) else value
            if not isinstance(value, str):
                raise UsageError(
                    f"--from {source}: an Exploration, a Document or a path, "
                    f"not {type(value).__name__}"
                )
            source = value
        try:
            return load(source)
        except (OSError, DocumentError) as exc:
            raise UsageError(f"--from {source}: {exc}") from None

    def _compare(
        self,
        args: Any,
        config: dict[str, Any],
        cell_fn: CellFunction,
        sections: Callable[[dict[str, Any]], dict[str, Any]],
    ) -> Any:
        from .panel import GridDisplay, run_grid  # noqa: PLC0415

        __tracebackhide__ = True  # noqa: F841
        grid = opts.parse_compare(
            args.compare,
            config.get("mode"),
            config["backend"],
            config.get("dynamic"),
            config.get("options"),
        )
        rest = {k: v for k, v in config.items() if k in ("fullgraph", "options")}
        values = cell_fn.arguments(self.shell.user_ns)
        configs = list(itertools.product(grid.modes, grid.backends, grid.dynamic))
        shown = GridDisplay()
        shown.show()
        with rng_state(cell_uses_cuda(values)) as rewind:
            comparison = run_grid(
                cell_fn.fn,
                clone_tensors(values),
                {
                    "measure_timing": not args.no_eager,
                    "profile": args.profile,
                    "bypass_caches": args.bypass_caches,
                    **rest,
                },
                configs,
                time_budget_s=args.time_budget,
                shown=shown,
                explore_sections=sections,
            )
            rewind()  # the cell's own run draws the random numbers it would have drawn
        if args.out:
            self.shell.user_ns[args.out] = comparison
        try:
            returned = cell_fn.fn(*values)
        except Exception as exc:
            cell_fn.write_back(self.shell.user_ns, cell_fn.locals_at_error(exc))
            raise cell_fn.from_cell(exc) from None
        cell_fn.write_back(self.shell.user_ns, cell_fn.named_values(returned))
        return returned[0] if cell_fn.has_result else None


def _cell_file(shell: Any, raw: str) -> tuple[str, int]:
    """The file name the cell is compiled under, and its In[n] number.

    The running cell's own file: its frames (the ``%%tcompile`` line in a graph break's
    stack) and the compiled body are then one cell. Its ``linecache`` entry is the cell
    as typed, so that Dynamo and tracebacks show the body's lines.
    """
    running = running_cell(shell.compile.format_code_name)
    if running is None:  # not run from a cell (e.g. run_cell_magic called by a script)
        number = shell.execution_count
        return shell.compile.cache(raw, number, raw), number
    filename, number = running
    linecache.cache[filename] = (len(raw), None, raw.splitlines(keepends=True), filename)
    return filename, number


def _configuration(args: Any) -> dict[str, Any]:
    if args.dynamic and args.no_dynamic:
        raise UsageError("--dynamic and --no-dynamic: give one of them, not both")
    if args.time_budget <= 0:
        raise UsageError(f"--time-budget: must be positive, not {args.time_budget}")
    for option, why in (("profile", "profiled"), ("memory", "eager and compiled")):
        if getattr(args, option) and args.no_eager and not args.compare:
            raise UsageError(f"--{option} runs the cell again, {why}: it cannot go with --no-eager")
    if args.out is not None and not args.out.isidentifier():
        raise UsageError(f"--out: {args.out!r} is not a Python name")
    dynamic = True if args.dynamic else False if args.no_dynamic else None
    return opts.compile_kwargs(
        opts.check_mode(args.mode),
        opts.check_backend(args.backend),
        dynamic,
        args.fullgraph,
        opts.parse_options(args.options),
    )


def load_ipython_extension(ipython: Any) -> None:
    ipython.register_magics(TcompileMagics)
