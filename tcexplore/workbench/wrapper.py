"""Read one kernel launch out of Inductor's wrapper module (the output code), with what it needs.

Inductor's output code is a Python module: a header (imports, helper aliases such as
``empty_strided_cpu``, ``async_compile = AsyncCompile()``), one definition per kernel
(``name = async_compile.<flavour>(..., '''source''')``), ``call()`` (or ``partition_N()``
functions called from it) launching the kernels on buffers it allocates, and ``get_args()``
building random graph inputs. :func:`slice_launch` takes one launch and walks ``call()``
backwards from it, keeping exactly the statements that define the names the launch reads:
graph inputs (from ``get_args()``), buffer allocations, ``reinterpret_tensor`` views, buffer
reuses (``buf8 = buf7``), symbol assignments (``s0 = arg2_1``) and extern results. Every
statement is kept as Inductor wrote it.
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass

_PARTITION = re.compile(r"^partition_(\d+)$")
_ALLOCATORS = ("empty_strided", "torch.empty_strided")


class WorkbenchError(ValueError):
    """A kernel that cannot be taken out on its own, with the reason."""


@dataclass
class Launch:
    """One kernel launch and the program text around it, all copied from the output code."""

    header: list[str]  # module statements before the first kernel: imports, aliases
    definition: str | None  # `name = async_compile.flavour(...)`; None for extern calls
    source_literal: str | None  # the kernel source's string literal, as written
    compile_call: str | None  # the definition's call with the literal replaced by `source`
    input_imports: list[str]  # get_args()'s imports (rand_strided)
    inputs: list[str]  # get_args() statements of the graph inputs the launch needs
    setup: list[str]  # call() statements defining the launch's names, in order
    allocations: set[int]  # indices into setup of empty_strided allocations
    params: list[str]  # the names the launch reads, in order
    contexts: list[str]  # the `with` headers around the launch
    streams: list[str]  # `stream0 = get_raw_stream(0)`
    statement: str  # the launch as emitted; a kernel's name replaced by `kernel`
    result: str | None  # the name an extern call's result is bound to
    line: int  # the launch's line in the output code


class _Text:
    """Source segments by AST position (column offsets are UTF-8 byte offsets)."""

    def __init__(self, text: str):
        self.data = text.encode()
        self.starts = [0]
        for line in self.data.split(b"\n"):
            self.starts.append(self.starts[-1] + len(line) + 1)

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (
            self.offset(node.lineno, node.col_offset),
            self.offset(node.end_lineno, node.end_col_offset),
        )

    def segment(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.data[start:end].decode()

    def replace(self, node: ast.AST, parts: list[tuple[ast.AST, str]]) -> str:
        """``node``'s text with each of ``parts`` (sub-nodes) replaced by the given text."""
        start, end = self.span(node)
        out, at = [], start
        for sub, text in sorted(parts, key=lambda p: self.span(p[0])):
            sub_start, sub_end = self.span(sub)
            out += [self.data[at:sub_start].decode(), text]
            at = sub_end
        out.append(self.data[at:end].decode())
        return "".join(out)


def _loads(node: ast.AST) -> list[str]:
    """Names an expression reads, in order of appearance, once each."""
    found = sorted(
        (n for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)),
        key=lambda n: (n.lineno, n.col_offset),
    )
    return list(dict.fromkeys(n.id for n in found))


def _targets(stmt: ast.Assign) -> list[str]:
    names = []
    for target in stmt.targets:
        elements = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        names += [e.id for e in elements if isinstance(e, ast.Name)]
    return names


def _is_unpack_of_args(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Assign)
        and isinstance(stmt.value, ast.Name)
        and stmt.value.id == "args"
    )


def _flatten(body: list[ast.stmt], withs: tuple[ast.With, ...] = ()):
    """Statements in execution order, each with the `with` blocks around it."""
    for stmt in body:
        if isinstance(stmt, ast.With):
            yield from _flatten(stmt.body, (*withs, stmt))
        else:
            yield stmt, withs


def _called_name(stmt: ast.stmt) -> str | None:
    """``k(...)`` / ``k.run(...)`` -> ``k``."""
    call = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
    if not isinstance(call, ast.Call):
        return None
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "run":
        func = func.value
    return func.id if isinstance(func, ast.Name) else None


def _is_stream(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Assign)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Name)
        and stmt.value.func.id == "get_raw_stream"
    )


def _is_allocation(value: ast.expr, text: _Text) -> bool:
    return isinstance(value, ast.Call) and text.segment(value.func).startswith(_ALLOCATORS)


class Wrapper:
    """One output-code module, parsed once, from which any of its launches can be sliced."""

    def __init__(self, code: str):
        try:
            tree = ast.parse(code)
        except SyntaxError as exc:
            raise WorkbenchError(
                f"the output code does not parse as Python ({exc.msg}, line "
                f"{exc.lineno}): a C++ wrapper (cpp_wrapper) has no reproducer "
                "yet"
            ) from exc
        self.text = _Text(code)
        self.definitions: dict[str, ast.Assign] = {}
        self.functions: dict[str, ast.FunctionDef] = {}
        self.module_names = set(dir(builtins))
        header_done = False
        self.header: list[ast.stmt] = []
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and self._is_definition(stmt):
                self.definitions[_targets(stmt)[0]] = stmt
                header_done = True
            elif isinstance(stmt, ast.FunctionDef):
                self.functions[stmt.name] = stmt
                header_done = True
            elif isinstance(stmt, ast.ClassDef):
                header_done = True
                for item in stmt.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "call":
                        self.functions["call"] = item
            elif not header_done and isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Assign)):
                self.header.append(stmt)
            elif (
                isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Call)
                and self.text.segment(stmt.value.func) == "async_compile.wait"
            ):
                header_done = True
            self.module_names.update(self._bound_at_module_level(stmt))
        if "call" not in self.functions:
            raise WorkbenchError(
                "the output code has no call() function: a C++ wrapper "
                "(cpp_wrapper) has no reproducer yet"
            )

    def _is_definition(self, stmt: ast.Assign) -> bool:
        value = stmt.value
        return (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name)
            and value.func.value.id == "async_compile"
            and value.func.attr != "wait"
        )

    @staticmethod
    def _bound_at_module_level(stmt: ast.stmt) -> list[str]:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            return [(a.asname or a.name).split(".")[0] for a in stmt.names]
        if isinstance(stmt, ast.Assign):
            return _targets(stmt)
        if isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
            return [stmt.name]
        return []

    def launch_sites(self, name: str) -> list[tuple[str, int]]:
        """(function, statement index) of each launch of a generated kernel, in file order."""
        sites = []
        for fn_name, fn in self._wrapper_functions():
            for index, (stmt, _) in enumerate(_flatten(fn.body)):
                if isinstance(stmt, ast.Expr) and _called_name(stmt) == name:
                    sites.append((fn_name, index, stmt.lineno))
        return [(fn, index) for fn, index, _ in sorted(sites, key=lambda s: s[2])]

    def site_at_line(self, line: int) -> tuple[str, int]:
        """(function, statement index) of the statement on ``line`` (extern calls)."""
        for fn_name, fn in self._wrapper_functions():
            for index, (stmt, _) in enumerate(_flatten(fn.body)):
                if stmt.lineno == line:
                    return fn_name, index
        raise WorkbenchError(f"no statement of call() on line {line} of the output code")

    def _wrapper_functions(self):
        for fn_name, fn in self.functions.items():
            if fn_name == "call" or _PARTITION.match(fn_name):
                yield fn_name, fn

    def slice(self, fn_name: str, index: int, kernel: str | None) -> Launch:
        """The launch at ``index`` of ``fn_name`` and the statements it needs.

        ``kernel`` is the generated kernel's name (replaced by ``kernel`` in the launch
        statement), None for an extern call.
        """
        statements = list(_flatten(self.functions[fn_name].body))
        stmt, withs = statements[index]
        params = [n for n in _loads(stmt) if n != kernel and n not in self.module_names]
        streams = [s for s, _ in statements[:index] if _is_stream(s)]
        stream_names = {t for s in streams for t in _targets(s)}
        params = [p for p in params if p not in stream_names]
        streams = [self.text.segment(s) for s in streams if set(_targets(s)) & set(_loads(stmt))][
            -1:
        ]
        setup, allocations, inputs = self._backward_slice(fn_name, statements[:index], params)
        definition = self.definitions.get(kernel) if kernel else None
        literal = compile_call = None
        if kernel:
            if definition is None:
                raise WorkbenchError(f"{kernel} is launched but not defined in the output code")
            literal_node = self._source_literal(definition)
            literal = self.text.segment(literal_node)
            compile_call = self.text.replace(definition.value, [(literal_node, "source")])
            func = stmt.value.func
            name_node = func.value if isinstance(func, ast.Attribute) else func
            statement = self.text.replace(stmt, [(name_node, "kernel")])
        else:
            statement = self.text.segment(stmt)
        input_imports, input_statements = self._graph_inputs(inputs)
        return Launch(
            header=[self.text.segment(s) for s in self.header],
            definition=self.text.segment(definition) if definition else None,
            source_literal=literal,
            compile_call=compile_call,
            input_imports=input_imports,
            inputs=input_statements,
            setup=setup,
            allocations=allocations,
            params=params,
            contexts=[self.text.segment(w).split("\n")[0] for w in withs],
            streams=streams,
            statement=statement,
            result=_targets(stmt)[0] if isinstance(stmt, ast.Assign) else None,
            line=stmt.lineno,
        )

    def _source_literal(self, definition: ast.Assign) -> ast.Constant:
        """The kernel source: the definition's (first) multi-line string argument."""
        for arg in definition.value.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and "\n" in arg.value:
                return arg
        raise WorkbenchError(f"no kernel source literal in {self.text.segment(definition)[:80]}")

    def _backward_slice(self, fn_name: str, before: list, params: list[str]):
        """Statements (as text, in order) that define ``params``; allocations; graph inputs."""
        needed = set(params)
        chosen: list[tuple[str, bool]] = []  # (statement, is allocation), walking back
        while True:
            unpacked: set[str] = set()  # the function's parameters (`a, b = args`)
            for stmt, _ in reversed(before):
                if not isinstance(stmt, ast.Assign):
                    continue
                bound = set(_targets(stmt)) & needed
                if not bound:
                    continue
                if _is_unpack_of_args(stmt):
                    unpacked |= bound
                    needed -= bound
                    continue
                if isinstance(stmt.value, ast.Name) and _targets(stmt) == [stmt.value.id]:
                    continue  # `s27 = s27`
                if "self.partitions" in self.text.segment(stmt.value):
                    raise WorkbenchError(
                        f"{', '.join(sorted(bound))} come(s) from a CUDA-graph partition of "
                        "call(); a launch outside the partitions cannot be sliced"
                    )
                chosen.append((self.text.segment(stmt), _is_allocation(stmt.value, self.text)))
                needed -= set(_targets(stmt))
                needed |= set(_loads(stmt.value)) - self.module_names
            if needed:
                raise WorkbenchError(
                    f"the launch reads {', '.join(sorted(needed))}, which the output code does "
                    "not define (a constant Inductor attaches to the module when loading it?)"
                )
            match = _PARTITION.match(fn_name)
            if not match:
                break
            before, needed = self._partition_caller(int(match[1]), fn_name, unpacked, chosen)
            fn_name = "call"
        chosen.reverse()
        return (
            [text for text, _ in chosen],
            {i for i, (_, allocation) in enumerate(chosen) if allocation},
            unpacked,
        )

    def _partition_caller(
        self, number: int, fn_name: str, wanted: set[str], chosen: list[tuple[str, bool]]
    ) -> tuple[list, set[str]]:
        """partition_N's parameters are the elements of call()'s partitionN_args list: the
        statements of call() before the partition runs, and the names needed there."""
        unpack = next(s for s, _ in _flatten(self.functions[fn_name].body) if _is_unpack_of_args(s))
        caller = list(_flatten(self.functions["call"].body))
        call_at = next(
            i
            for i, (s, _) in enumerate(caller)
            if f"self.partitions[{number}]" in self.text.segment(s)
        )
        args_list = next(
            s
            for s, _ in reversed(caller[:call_at])
            if isinstance(s, ast.Assign) and _targets(s) == [f"partition{number}_args"]
        )
        needed: set[str] = set()
        for param, element in zip(_targets(unpack), args_list.value.elts):
            if param not in wanted:
                continue
            if isinstance(element, ast.Name) and element.id == param:
                needed.add(param)
            else:
                chosen.append((f"{param} = {self.text.segment(element)}", False))
                needed |= set(_loads(element)) - self.module_names
        return caller[:call_at], needed

    def _graph_inputs(self, names: set[str]) -> tuple[list[str], list[str]]:
        """get_args()'s statements for ``names`` (benchmark_compiled_module's in older torch)."""
        if not names:
            return [], []
        for fn_name in ("get_args", "benchmark_compiled_module"):
            fn = self.functions.get(fn_name)
            if fn is None:
                continue
            imports = [
                self.text.segment(s)
                for s in fn.body
                if isinstance(s, ast.ImportFrom) and s.module == "torch._dynamo.testing"
            ]
            found = [s for s in fn.body if isinstance(s, ast.Assign) and set(_targets(s)) & names]
            if {t for s in found for t in _targets(s)} >= names:
                return imports, [self.text.segment(s) for s in found]
        raise WorkbenchError(f"get_args() of the output code does not build {sorted(names)}")
