"""The workbench: run an edited kernel against the original on the same inputs, time both.

Every reproducer carries a copy of this file (below its "workbench" banner), so that it
needs nothing but torch (and Triton on a GPU). It must therefore stay standalone: only the
standard library and torch, no ``from __future__``, nothing from tcexplore.

``run_workbench`` compiles ORIGINAL and EDITED, launches each on its own copy of the same
seeded inputs, compares every tensor the launch can have written (``torch.testing``
tolerances for the dtype; bit-for-bit equality is reported as such), times both (CPU:
warm-up, then interleaved samples, medians; GPU: ``triton.testing.do_bench``, median),
prints a timing line and one verdict line, and returns the exit status: 0 OK, 1 mismatch, 2
when EDITED does not compile or fails to run. A broken edit is one line naming the line of
EDITED it comes from, not a traceback.
"""

import ast
import contextlib
import logging
import re
import statistics
import time

import torch


def randomized(buffer):
    """Seeded random contents for a buffer Inductor allocates uninitialised: floats from
    ``randn``, integers and booleans zero, as ``rand_strided`` makes graph inputs."""
    storage = buffer.as_strided(
        (buffer.untyped_storage().nbytes() // buffer.element_size(),), (1,), 0
    )
    if buffer.is_floating_point() or buffer.is_complex():
        storage.copy_(torch.randn(storage.shape, device=buffer.device))
    else:
        storage.zero_()
    return buffer


def pin_triton_config(source, config):
    """A Triton kernel source with its ``@triton_heuristics.<kind>(...)`` decorator replaced by
    ``@triton_heuristics.fixed_config(config=...)``: one launch config, no autotuning.

    ``config`` maps the kernel's tuned ``tl.constexpr`` parameters (``XBLOCK``, ``R0_BLOCK``,
    ...) and ``num_warps``/``num_stages`` to values. The decorator's ``triton_meta`` and
    ``inductor_meta`` (the launch grid comes from there) are kept, and so is the number of
    lines, so that line numbers of EDITED still hold.
    """
    tree = ast.parse(source)
    decorators = [
        d
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        for d in node.decorator_list
        if isinstance(d, ast.Call) and ast.unparse(d.func).startswith("triton_heuristics.")
    ]
    if not decorators:
        raise ValueError("no @triton_heuristics decorator to pin a config on")
    decorator = decorators[0]
    kept = {
        k.arg: ast.get_source_segment(source, k.value)
        for k in decorator.keywords
        if k.arg in ("triton_meta", "inductor_meta")
    }
    if len(kept) < 2:
        raise ValueError("the @triton_heuristics decorator has no triton_meta/inductor_meta")
    lines = source.split("\n")
    head = "\n".join(
        lines[: decorator.lineno - 1] + [lines[decorator.lineno - 1][: decorator.col_offset]]
    )
    tail = "\n".join(
        [lines[decorator.end_lineno - 1][decorator.end_col_offset :]]
        + lines[decorator.end_lineno :]
    )
    padding = "\n" * (decorator.end_lineno - decorator.lineno)
    return (
        f"{head}triton_heuristics.fixed_config(config={dict(config)!r}, filename=__file__, "
        f"triton_meta={kept['triton_meta']}, inductor_meta={kept['inductor_meta']}"
        f"{padding}){tail}"
    )


class BrokenEdit(Exception):
    """EDITED does not compile or does not run; the message is the one line to show."""


@contextlib.contextmanager
def _quiet_inductor():
    """Inductor logs a failed Triton compile with its traceback; the verdict says it in a line."""
    logger = logging.getLogger("torch._inductor")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def _edited_line(source, number, file):
    """``line N of EDITED`` (and the file's line when run from a file), with its text."""
    lines = source.split("\n")
    text = lines[number - 1].strip() if 0 < number <= len(lines) else ""
    where = f"line {number} of EDITED"
    if file:
        try:
            with open(file, encoding="utf-8") as handle:
                starts = [i for i, line in enumerate(handle) if line.startswith("EDITED = ")]
            if starts:
                where += f" ({file}:{starts[0] + number})"
        except OSError:
            pass
    return f"{where}: `{text}`" if text else where


def _locate(source, number, text):
    """The line of EDITED that ``number`` of a compiled form of it shows as ``text``."""
    lines = [line.strip() for line in source.split("\n")]
    wanted = (text or "").strip()
    if not wanted or (0 < number <= len(lines) and lines[number - 1] == wanted):
        return number
    return lines.index(wanted) + 1 if wanted in lines else number


def _first_line(text):
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _chain(exc):
    """The exception and the ones it was raised from (torch wraps a kernel's SyntaxError in a
    RuntimeError of its own, for one)."""
    found = []
    while exc is not None and exc not in found:
        found.append(exc)
        exc = exc.__cause__ or exc.__context__
    return found


def _describe_one(exc, source, file):
    """The line for one exception of the chain, or None when it is not a kind it knows."""
    output = getattr(exc, "output", None)
    if type(exc).__name__ == "CppCompileError" and isinstance(output, str):
        main = next((part for part in getattr(exc, "cmd", []) if str(part).endswith(".cpp")), None)
        errors = re.findall(
            r"^(\S+?\.cpp):(\d+):\d+: (?:fatal )?error: (.*)$", output, re.MULTILINE
        )
        ours = [e for e in errors if main is None or e[0] == main] or errors
        if ours:
            _, line, message = ours[0]
            return f"{_edited_line(source, int(line), file)}: error: {message}"
        return f"C++ compile error: {_first_line(output)}"
    if isinstance(exc, SyntaxError) and exc.lineno:
        number = _locate(source, exc.lineno, exc.text)
        return f"{_edited_line(source, number, file)}: SyntaxError: {exc.msg}"
    node, src = getattr(exc, "node", None), getattr(exc, "src", None)
    if isinstance(src, str) and getattr(node, "lineno", None):  # triton CompilationError
        cause = exc.__cause__
        message = getattr(exc, "error_message", None) or (
            f"{type(cause).__name__}: {cause}" if cause else _first_line(exc)
        )
        src_lines = src.split("\n")
        lines = source.split("\n")
        start = next(
            (
                i
                for i, line in enumerate(lines)
                if line.strip() == src_lines[0].strip() and src_lines[0].strip()
            ),
            None,
        )
        if start is not None:
            return f"{_edited_line(source, start + node.lineno, file)}: {_first_line(message)}"
        return f"{_first_line(message)} (line {node.lineno} of the jitted function)"
    return None


def describe_compile_error(exc, source, file=None):
    """One line for a kernel source that does not compile, naming its line in EDITED."""
    for link in _chain(exc):
        described = _describe_one(link, source, file)
        if described:
            return described
    text = str(exc)  # e.g. raised in a compile worker: only its text came back
    syntax = re.search(r"SyntaxError: (.*) \(\S+, line (\d+)\)", text)
    if syntax:
        return f"{_edited_line(source, int(syntax[2]), file)}: SyntaxError: {syntax[1]}"
    return f"{type(exc).__name__}: {_first_line(text)}"


def _compile(compile_kernel, source, label, file):
    try:
        with _quiet_inductor():
            return compile_kernel(source)
    except Exception as exc:  # noqa: BLE001 - any failure of an edit is reported in one line
        raise BrokenEdit(
            f"{label} does not compile: {describe_compile_error(exc, source, file)}"
        ) from None


def _written(args, result):
    """(label, tensor) for every tensor of the launch: its arguments and what it returned."""
    found = [(name, value) for name, value in args.items() if isinstance(value, torch.Tensor)]
    results = result if isinstance(result, (tuple, list)) else [result]
    label = "result" if not isinstance(result, (tuple, list)) else "result[{}]"
    found += [
        (label.format(i), value)
        for i, value in enumerate(results)
        if isinstance(value, torch.Tensor)
    ]
    return found


def _bits(tensor):
    return tensor.detach().reshape(-1).contiguous().view(torch.uint8)


def compare(expected, actual):
    """(bit-identical labels, None) or (.., "label: what differs") for two launches' tensors."""
    identical = []
    if [label for label, _ in expected] != [label for label, _ in actual]:
        return identical, "EDITED returns other tensors than ORIGINAL"
    for (label, want), (_, got) in zip(expected, actual):
        if (
            want.dtype == got.dtype
            and want.shape == got.shape
            and torch.equal(_bits(want), _bits(got))
        ):
            identical.append(label)
            continue
        try:
            torch.testing.assert_close(got, want, equal_nan=True)
        except AssertionError as exc:
            detail = "; ".join(line.strip() for line in str(exc).splitlines()[1:] if line.strip())
            return identical, f"{label} differs: {detail or _first_line(exc)}"
    return identical, None


def _time_both(launch, kernels, make_args, seed, budget_s):
    """Median seconds per launch of each kernel, and how they were measured.

    GPU: ``triton.testing.do_bench`` (warm-up, L2 flushed between runs), median; its
    repetition time is ``budget_s / 5`` (its default 100 ms at the default budget). CPU:
    warm-up, then samples of ``number`` launches that alternate between the two kernels
    (so that a busy machine slows both alike) until the budget is spent; medians.
    """
    runs = []
    for kernel in kernels:
        args = make_args(seed)
        runs.append(lambda kernel=kernel, args=args: launch(kernel, **args))
    if any(isinstance(v, torch.Tensor) and v.is_cuda for v in make_args(seed).values()):
        import triton.testing  # GPU only

        rep_ms = max(1, round(budget_s * 200))  # do_bench's own 100 ms at the default budget
        return (
            [
                triton.testing.do_bench(
                    run, warmup=max(1, rep_ms // 4), rep=rep_ms, return_mode="median"
                )
                / 1e3
                for run in runs
            ],
            "triton.testing.do_bench, median",
        )

    def both(number):
        start = time.perf_counter()
        for run in runs:
            for _ in range(number):
                run()
        return time.perf_counter() - start

    # Warm-up, and enough launches per sample to time them (>= 1 ms each). A first launch
    # pays one-off costs (loading, first touch) and any try can be slowed by another
    # process: a count is kept only when the faster of two tries reaches the mark.
    both(1)
    number = 1
    while min(both(number), both(number)) < 2e-3 and number < 1 << 20:
        number *= 4
    samples = [[] for _ in runs]
    deadline = time.perf_counter() + budget_s * len(runs)
    while time.perf_counter() < deadline or len(samples[-1]) < 5:
        for run, times in zip(runs, samples):
            start = time.perf_counter()
            for _ in range(number):
                run()
            times.append((time.perf_counter() - start) / number)
    each = "1 launch" if number == 1 else f"{number} launches"
    how = f"median of {len(samples[0])} samples of {each} each, interleaved, after warm-up"
    return [statistics.median(times) for times in samples], how


def _format_time(seconds):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def _synchronize(args):
    if any(isinstance(v, torch.Tensor) and v.is_cuda for v in args.values()):
        torch.cuda.synchronize()


last_run = {}  # the last run_workbench's figures, for a notebook to read (see run_workbench)


def _verdict(status, line, original_s=None, edited_s=None):
    print(line, flush=True)
    last_run.clear()
    last_run.update(status=status, verdict=line, original_s=original_s, edited_s=edited_s)
    return status


def run_workbench(
    name,
    original,
    edited,
    compile_kernel,
    make_args,
    launch,
    seed=0,
    time_budget_s=0.5,
    file=None,
    edited_config=None,
):
    """Compile, compare and time ORIGINAL and EDITED; print; return the exit status.

    ``edited_config`` (Triton): a launch config pinned on EDITED (:func:`pin_triton_config`).
    ``last_run`` then holds the status, the verdict line and the two median times (seconds).
    """
    if edited_config:
        try:
            edited = pin_triton_config(edited, edited_config)
        except (SyntaxError, ValueError) as exc:
            return _verdict(2, f"ERROR {name}: EDITED_CONFIG cannot be pinned: {exc}")
    unchanged = " (unchanged)" if edited == original else ""
    try:
        reference = _compile(compile_kernel, original, "ORIGINAL", None)
        candidate = _compile(compile_kernel, edited, "EDITED", file)
        args = make_args(seed)
        expected = _written(args, launch(reference, **args))
        _synchronize(args)
        args = make_args(seed)
        try:
            actual = _written(args, launch(candidate, **args))
            _synchronize(args)
        except Exception as exc:  # noqa: BLE001 - the edit's failure, in one line
            raise BrokenEdit(
                f"EDITED fails when launched: {type(exc).__name__}: {_first_line(exc)}"
            ) from None
    except BrokenEdit as exc:
        return _verdict(2, f"ERROR {name}: {exc}")
    identical, mismatch = compare(expected, actual)
    (before, after), how = _time_both(
        launch, (reference, candidate), make_args, seed, time_budget_s
    )
    print(
        f"time {name}: ORIGINAL {_format_time(before)}, EDITED{unchanged} "
        f"{_format_time(after)} ({after / before:.2f}x; {how})"
    )
    if mismatch:
        return _verdict(
            1,
            f"MISMATCH {name}: EDITED{unchanged} differs from ORIGINAL: {mismatch}",
            before,
            after,
        )
    labels = ", ".join(label for label, _ in expected)
    if len(identical) == len(expected):
        line = f"OK {name}: EDITED{unchanged} matches ORIGINAL bit for bit ({labels})"
    else:
        line = (
            f"OK {name}: EDITED{unchanged} matches ORIGINAL within torch.testing tolerances "
            f"({len(identical)} of {len(expected)} tensors bit for bit: {labels})"
        )
    return _verdict(0, line, before, after)
