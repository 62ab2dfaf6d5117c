"""The reproducer: one kernel of an output code as a standalone, editable Python program.

Everything in it that touches the kernel is copied from the output code Inductor wrote: its
header (so it matches the torch that generated it), the kernel's definition, the statements
of ``call()`` that build the launch's arguments and the launch itself. tcexplore adds the
program's shape (``make_args``, ``launch``, ``ORIGINAL``/``EDITED``, ``main``) and the
workbench (``harness.py``, copied in) that compares and times.

Inputs are seeded random values with the recorded sizes, strides and dtypes, made as
Inductor's own ``get_args()`` makes them (``rand_strided``: integer and boolean tensors are
zeros), and the buffers the launch reads start random too: a capture keeps no tensor values.
"""

from __future__ import annotations

import ast
from importlib import resources
from typing import TYPE_CHECKING, Any

from .._version import __version__
from .custom_ops import section as custom_ops_section
from .wrapper import Launch, WorkbenchError, Wrapper

if TYPE_CHECKING:
    from .kernel import Kernel

_INDENT = "    "


def _doc(text: Any) -> str:
    """Untrusted text (node names, user code) made safe inside a triple-quoted docstring."""
    return repr(str(text))[1:-1].replace('"', '\\"')


def _harness_text() -> str:
    """harness.py without its module docstring: the workbench every reproducer carries."""
    text = resources.files("tcexplore.workbench").joinpath("harness.py").read_text()
    tree = ast.parse(text)
    first = tree.body[1] if isinstance(tree.body[0], ast.Expr) else tree.body[0]
    return "\n".join(text.split("\n")[first.lineno - 1 :]).strip() + "\n"


def slice_launch(kernel: Kernel, number: int = 1) -> Launch:
    """The kernel's ``number``-th launch (1 = the first) in the output code, with what it
    needs."""
    wrapper = Wrapper(kernel.output_code)
    if kernel.kind == "extern":
        line = kernel.entry.get("line")
        if not isinstance(line, int):
            raise WorkbenchError(f"{kernel.qualified_name}: the document has no line for it")
        if number != 1:
            raise WorkbenchError(
                f"{kernel.qualified_name} is one call: there is no launch {number}"
            )
        return wrapper.slice(*wrapper.site_at_line(line), kernel=None)
    sites = wrapper.launch_sites(kernel.name)
    if not sites:
        raise WorkbenchError(f"{kernel.qualified_name} is never launched by call()")
    if not 1 <= number <= len(sites):
        launches = "1 launch" if len(sites) == 1 else f"{len(sites)} launches"
        raise WorkbenchError(f"{kernel.qualified_name} has {launches}; there is no launch {number}")
    return wrapper.slice(*sites[number - 1], kernel=kernel.name)


def _docstring(kernel: Kernel, launch: Launch, number: int, environment: dict[str, Any]) -> str:
    kind = f"{kernel.kind} ({kernel.triton_kind})" if kernel.triton_kind else kernel.kind
    count = len(kernel.calls)
    which = f", launch {number} of {count}" if count > 1 else ""
    lines = [
        f"{_doc(kernel.name)}: one kernel of torch.compile's output, on its own.",
        "",
        (
            f"Kernel {_doc(kernel.qualified_name)}: {kind}, compile {_doc(kernel.compile_id)}, "
            f"{_doc(kernel.output_kind)} output code, line {launch.line}{which}."
        ),
    ]
    if kernel.aten_ops:
        lines.append(f"ATen ops: {_doc(', '.join(kernel.aten_ops))}")
    if kernel.post_grad_nodes:
        lines.append(f"Post-grad nodes: {_doc(', '.join(kernel.post_grad_nodes))}")
    for loc in kernel.user_lines:
        lines.append(
            f"From {_doc(loc.get('file'))}:{_doc(loc.get('line'))}  "
            f"{_doc((loc.get('code') or '').strip())}"
        )
    torch_version = environment.get("torch")
    lines += [
        "",
        f"Written by tcexplore {__version__} from the output code Inductor generated"
        + (f" (torch {_doc(torch_version)})." if torch_version else "."),
        "Inputs are seeded random values with the recorded sizes, strides and dtypes (integer",
        "and boolean tensors are zeros, as Inductor's get_args() makes them): a capture keeps",
        "no tensor values.",
        "",
        "Edit EDITED (ORIGINAL stays as Inductor generated it), then run this file: it",
        "launches both on the same inputs, compares every tensor the launch writes, times",
        "both, prints one verdict line and exits 1 on a mismatch, 2 when EDITED does not",
        "compile or run (as a notebook cell it only prints it: last_run holds the status).",
    ]
    if kernel.kind == "triton":
        lines += [
            "",
            "Triton: the launch config (XBLOCK, num_warps, ...) comes from the",
            "@triton_heuristics decorator, autotuned at the first launch when it gives",
            "several; EDITED_CONFIG pins one on EDITED (fixed_config).",
        ]
    return '"""' + "\n".join(lines) + '\n"""'


def _kernel_section(kernel: Kernel, launch: Launch) -> list[str]:
    if kernel.kind == "extern":
        returned = f"\\n    return {launch.result}" if launch.result else ""
        statement = (
            f"'''\n{launch.statement}\n'''"
            if "'''" not in launch.statement and "\\" not in launch.statement
            else repr(f"\n{launch.statement}\n")
        )
        return [
            "# The extern call as call() makes it. Leave ORIGINAL alone; edit EDITED (Python).",
            f"ORIGINAL = {statement}",
            "",
            f"EDITED = {statement}",
            "",
            "",
            "def compile_kernel(source):",
            f'{_INDENT}"""The call, as a function of the names it reads."""',
            f'{_INDENT}body = "\\n".join("    " + line for line in source.split("\\n"))',
            f"{_INDENT}scope = dict(globals())",
            f'{_INDENT}code = f"def extern_call({", ".join(launch.params)}):\\n{{body}}{returned}\\n"',
            f'{_INDENT}exec(compile(code, "EDITED", "exec"), scope)',
            f'{_INDENT}return scope["extern_call"]',
        ]
    config = (
        [
            "",
            '# A launch config for EDITED, e.g. {"XBLOCK": 256, "num_warps": 4, "num_stages": 1}',
            "# (its tuned tl.constexpr parameters, num_warps, num_stages); None keeps the decorator's.",
            "EDITED_CONFIG = None",
        ]
        if kernel.kind == "triton"
        else []
    )
    return [
        "# The kernel as Inductor generated it. Leave ORIGINAL alone; edit EDITED.",
        f"ORIGINAL = {launch.source_literal}",
        "",
        f"EDITED = {launch.source_literal}",
        *config,
        "",
        "",
        "def compile_kernel(source):",
        f'{_INDENT}"""Inductor\'s definition of the kernel, for any source."""',
        f"{_INDENT}kernel = {launch.compile_call}",
        f'{_INDENT}scope = {{"kernel": kernel}}',
        f"{_INDENT}async_compile.wait(scope)  # resolves it when compiled in a worker pool",
        f'{_INDENT}return scope["kernel"]',
    ]


def _make_args(launch: Launch) -> list[str]:
    body = [*launch.input_imports, "torch.manual_seed(seed)", *launch.inputs]
    for i, statement in enumerate(launch.setup):
        if i in launch.allocations:
            target, _, value = statement.partition(" = ")
            statement = f"{target} = randomized({value})"
        body.append(statement)
    body.append("return {" + ", ".join(f"{p!r}: {p}" for p in launch.params) + "}")
    return [
        "def make_args(seed=0):",
        f'{_INDENT}"""The launch\'s arguments, built as call() builds them (graph inputs as',
        f'{_INDENT}get_args() makes them; buffers Inductor leaves uninitialised are randomized)."""',
        *(_INDENT + line for statement in body for line in statement.split("\n")),
    ]


def _launch(kernel: Kernel, launch: Launch) -> list[str]:
    params = "".join(f", {p}" for p in launch.params)
    lines = [f"def launch(kernel{params}):"]
    if kernel.kind == "extern":
        lines += [
            f'{_INDENT}"""The extern call (`kernel` is compile_kernel(ORIGINAL or EDITED))."""',
            f"{_INDENT}return kernel({', '.join(launch.params)})",
        ]
        return lines
    lines.append(
        f'{_INDENT}"""The launch as call() makes it; `kernel` stands for {kernel.name}."""'
    )
    depth = 1
    for context in launch.contexts:
        lines.append(_INDENT * depth + context)
        depth += 1
    lines += [_INDENT * depth + s for s in launch.streams]
    lines.append(_INDENT * depth + launch.statement)
    return lines


_PREAMBLE = """\
import os
import sys

# One kernel: compile it in this process, not in a pool of workers.
os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")"""

_MAIN = """\
def main(seed=0, time_budget_s=0.5):
    return run_workbench(NAME, ORIGINAL, EDITED, compile_kernel, make_args, launch, seed,
                         time_budget_s, globals().get("__file__"){config})


if __name__ == "__main__":
    status = main()
    # A script says its verdict by its exit status too; a notebook cell (no __file__) has
    # printed it, and a mismatch there is a result, not an exit.
    if status and "__file__" in globals():
        sys.exit(status)"""


def build_reproducer(kernel: Kernel, number: int, environment: dict[str, Any]) -> str:
    launch = slice_launch(kernel, number)
    called = "\n".join([*launch.header, *launch.inputs, *launch.setup, launch.statement])
    ops = custom_ops_section({"custom_ops": kernel.custom_ops}, called)
    sections = [
        _docstring(kernel, launch, number, environment),
        _PREAMBLE,
        "# The output code's header, as Inductor wrote it.\n" + "\n".join(launch.header),
        *([ops] if ops else []),
        f"NAME = {kernel.qualified_name!r}",
        "\n".join(_kernel_section(kernel, launch)),
        "\n".join(_make_args(launch)),
        "\n".join(_launch(kernel, launch)),
        "# ---- the workbench: compare and time (tcexplore/workbench/harness.py) ----\n"
        + _harness_text().rstrip(),
        _MAIN.format(config=", EDITED_CONFIG" if kernel.kind == "triton" else ""),
    ]
    return "\n\n\n".join(sections) + "\n"
