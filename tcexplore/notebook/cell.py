"""A notebook cell as a function, so that Dynamo traces the cell's own lines.

The cell body becomes the body of ``def <cell>(...)`` compiled with the cell's file name
and line numbers, so graph breaks, guards and graph nodes point at "cell [n], line k".
Names the cell binds are locals of that function; names it reads that hold tensors are
parameters (so an eager run can get copies); everything else is read from the user
namespace, which is the function's globals. The function returns the value of the last
expression and the values of every name the cell binds, to be written back.
"""

from __future__ import annotations

import ast
import builtins
import symtable
from collections.abc import Callable
from dataclasses import dataclass
from types import FunctionType
from typing import Any

import torch

from .. import _torch_compat
from ..capture.notebook_cells import CELL_FUNCTION, UNBOUND, WRAPPER_LINE

_NESTED_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


@dataclass
class CellFunction:
    fn: Callable[..., tuple[Any, tuple[Any, ...]]]
    filename: str
    params: list[str]  # read from the namespace and passed in: tensor-holding names, and
    #                    names the cell rebinds that already exist
    bound: list[str]  # every name the cell binds (written back after the run)
    inputs: list[str]  # the params whose old value the cell may read (not those it only
    #                    rebinds, like a step's loss): what the comparison checks for mutation
    has_result: bool  # the cell ends in an expression statement

    def arguments(self, namespace: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(namespace[name] for name in self.params)

    def inputs_of(self, args: tuple[Any, ...]) -> dict[str, Any]:
        """``{name: value}`` of the cell's inputs among its arguments (``args`` by params)."""
        return {name: value for name, value in zip(self.params, args) if name in self.inputs}

    def named_values(self, returned: tuple[Any, tuple[Any, ...]]) -> dict[str, Any]:
        """``{name: value}`` of the names the run bound (its cell-level locals at the end)."""
        return {
            name: value for name, value in zip(self.bound, returned[1]) if not _is_unbound(value)
        }

    def write_back(self, namespace: dict[str, Any], values: dict[str, Any]) -> None:
        for name in self.bound:
            if name in values:
                namespace[name] = values[name]
            elif name in self.params:  # the cell deleted it
                namespace.pop(name, None)

    def from_cell(self, exc: BaseException) -> BaseException:
        """``exc`` with its traceback starting at the cell's own frame: the frames of
        tcexplore and torch.compile's entry that called it are not the user's concern
        (frames below the cell, where the error happened, are all kept)."""
        tb = exc.__traceback__
        while tb is not None and not self._is_cell_frame(tb.tb_frame.f_code):
            tb = tb.tb_next
        return exc.with_traceback(tb) if tb is not None else exc

    def _is_cell_frame(self, code: Any) -> bool:
        """The cell function, or a function Dynamo resumes it in after a graph break."""
        return code.co_filename == self.filename and CELL_FUNCTION in code.co_name

    def locals_at_error(self, exc: BaseException) -> dict[str, Any]:
        """The cell's locals in the innermost cell frame of a traceback (what it had bound
        before it raised), so that a failing cell keeps its assignments as Python would."""
        found: dict[str, Any] = {}
        tb = exc.__traceback__
        while tb is not None:
            if self._is_cell_frame(tb.tb_frame.f_code):
                found = dict(tb.tb_frame.f_locals)
            tb = tb.tb_next
        return {k: v for k, v in found.items() if k in self.bound and not _is_unbound(v)}


def _is_unbound(value: Any) -> bool:
    return isinstance(value, str) and value == UNBOUND


def holds_tensors(value: Any) -> bool:
    if isinstance(value, torch.Tensor):
        return True
    if not isinstance(value, (list, tuple, dict)):
        return False
    leaves, _ = _torch_compat.tree_flatten_with_paths(value)
    return any(isinstance(leaf, torch.Tensor) for _, leaf in leaves)


def is_plain_data(value: Any) -> bool:
    """Tensors, numbers, strings and containers of them: values an eager run can be
    compared with (a function or module the cell creates is a new object in every run)."""
    leaves, _ = _torch_compat.tree_flatten_with_paths(value)
    return all(
        isinstance(leaf, (torch.Tensor, int, float, complex, bool, str, type(None)))
        for _, leaf in leaves
    )


class _CellScope(ast.NodeTransformer):
    """Rewrites the cell's own scope (not the functions, classes and comprehensions it
    defines): ``del name`` becomes ``name = UNBOUND``, so that the final ``return`` can
    still load every name; notes ``except ... as name`` names, which Python deletes."""

    def __init__(self) -> None:
        self.except_names: set[str] = set()

    def visit(self, node: ast.AST) -> Any:
        if isinstance(node, _NESTED_SCOPES):
            return node
        if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom)):
            word = "return" if isinstance(node, ast.Return) else "yield"
            raise SyntaxError(
                f"'{word}' outside function", (None, node.lineno, node.col_offset + 1, None)
            )
        return super().visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> ast.AST:
        if node.name:
            self.except_names.add(node.name)
        return self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> list[ast.stmt]:
        names = [t for t in node.targets if isinstance(t, ast.Name)]
        others = [t for t in node.targets if not isinstance(t, ast.Name)]
        out: list[ast.stmt] = [ast.Delete(targets=others)] if others else []
        if names:
            out.append(
                ast.Assign(
                    targets=[ast.Name(t.id, ast.Store()) for t in names],
                    value=ast.Constant(UNBOUND),
                )
            )
        return [_fill(stmt, node) for stmt in out]


def _fill(node: Any, like: ast.AST) -> Any:
    """Give every synthetic node under ``node`` the position of ``like``; nodes parsed from
    the cell keep their own (Dynamo reports their lines and columns)."""
    for child in ast.walk(node):
        if (
            isinstance(child, (ast.expr, ast.stmt, ast.arg))
            and getattr(child, "lineno", None) is None
        ):
            for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
                setattr(child, attr, getattr(like, attr))
    return node


def _function(name: str, params: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    return ast.FunctionDef(
        name=name,
        args=ast.arguments(
            posonlyargs=[],
            args=[ast.arg(p) for p in params],
            kwonlyargs=[],
            kw_defaults=[],
            defaults=[],
        ),
        body=body,
        decorator_list=[],
        returns=None,
        type_params=[],
    )


def _scope_names(body: list[ast.stmt]) -> tuple[list[str], set[str]]:
    """(names the cell binds, names it reads as globals, ``global`` declarations
    excluded), by Python's own scoping rules: the symtable of the body in a function."""
    function = _function("cell", [], body or [ast.Pass()])
    function.lineno = 1  # ast.unparse reads it
    probe = ast.Module(body=[function], type_ignores=[])
    table = symtable.symtable(ast.unparse(probe), "<cell>", "exec")
    function = table.get_children()[0]
    bound = [s.get_name() for s in function.get_symbols() if s.is_local()]
    read: set[str] = set()
    pending = [function]
    while pending:  # implicit globals of the cell and of the scopes nested in it
        scope = pending.pop()
        read.update(
            s.get_name()
            for s in scope.get_symbols()
            if s.is_referenced() and s.is_global() and not s.is_declared_global()
        )
        pending.extend(scope.get_children())
    declared = {s.get_name() for s in function.get_symbols() if s.is_declared_global()}
    return bound, read - declared


def compile_cell(
    source: str, filename: str, namespace: dict[str, Any], *, first_line: int = 1
) -> CellFunction:
    """The cell ``source`` as a function of the names it reads from ``namespace``.

    ``first_line`` is the line of the notebook cell where ``source`` starts (2 below a
    ``%%`` magic line), so that line numbers match the notebook's; ``filename`` should be
    in ``linecache`` with the whole cell, for Dynamo's and the traceback's source lines.
    """
    # Blank lines in front, so that positions (syntax errors' too) are the notebook's.
    tree = ast.parse("\n" * (first_line - 1) + source, filename)
    scope = _CellScope()
    body: list[ast.stmt] = [out for stmt in tree.body for out in _as_list(scope.visit(stmt))]
    bound, read = _scope_names(body)
    bound = sorted(set(bound) - scope.except_names)
    params = sorted(
        {n for n in bound if n in namespace}
        | {n for n in read if n in namespace and holds_tensors(namespace[n])}
    )
    start = ast.Pass(lineno=first_line, col_offset=0, end_lineno=first_line, end_col_offset=0)
    # the wrapper's own statements stand at no line of the cell (its bytecode is not the user's)
    wrapper = ast.Pass(lineno=WRAPPER_LINE, col_offset=0, end_lineno=WRAPPER_LINE, end_col_offset=0)
    last = body[-1] if body else start
    has_result = isinstance(last, ast.Expr)
    result = body.pop().value if has_result else ast.Constant(None)  # type: ignore[attr-defined]
    values = ast.Tuple([ast.Name(n, ast.Load()) for n in bound], ast.Load())
    returned = _fill(ast.Return(ast.Tuple([result, values], ast.Load())), wrapper)
    # Names new to the namespace start unbound, so that the return can load them all (a
    # cell reading one before binding it gets UNBOUND rather than a NameError).
    new_names = [n for n in bound if n not in params]
    prologue = (
        [
            _fill(
                ast.Assign(
                    targets=[ast.Name(n, ast.Store()) for n in new_names],
                    value=ast.Constant(UNBOUND),
                ),
                wrapper,
            )
        ]
        if new_names
        else []
    )
    function = _fill(_function(CELL_FUNCTION, params, prologue + body + [returned]), start)
    code = compile(
        ast.Module(body=[function], type_ignores=[]), filename, "exec", dont_inherit=True
    )
    cell_code = next(c for c in code.co_consts if getattr(c, "co_name", None) == CELL_FUNCTION)
    # The user namespace is the function's globals: names the cell only reads resolve there
    # (and builtins through its __builtins__, which exec() would add too, and Dynamo needs).
    namespace.setdefault("__builtins__", builtins)
    fn = FunctionType(cell_code, namespace, CELL_FUNCTION)
    read_first = _read_before_bound(body, set(params) & set(bound))
    inputs = [n for n in params if n not in bound or n in read_first]
    return CellFunction(
        fn=fn, filename=filename, params=params, bound=bound, inputs=inputs, has_result=has_result
    )


class _ReadBeforeBound(ast.NodeVisitor):
    """Walks the cell in evaluation order (an assignment's value before its targets) and
    notes which of ``names`` are loaded before the cell binds them. Only bindings the cell
    always makes count: one inside a branch, loop, try or nested scope may not happen, so
    a later load still reads the old value."""

    def __init__(self, names: set[str]) -> None:
        self.names = names
        self.bound: set[str] = set()
        self.read: set[str] = set()
        self.depth = 0  # > 0 inside a branch, loop, try or nested scope

    def _load(self, name: str) -> None:
        if name in self.names and name not in self.bound:
            self.read.add(name)

    def _bind(self, name: str) -> None:
        if self.depth == 0 and name in self.names:
            self.bound.add(name)

    def visit_Name(self, node: ast.Name) -> None:
        (self._load if isinstance(node.ctx, ast.Load) else self._bind)(node.id)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for target in node.targets:
            self.visit(target)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
        self.visit(node.target)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Name):
            self._load(node.target.id)
        self.visit(node.value)
        self.visit(node.target)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        self.visit(node.target)

    def visit_alias(self, node: ast.alias) -> None:
        self._bind(node.asname or node.name.split(".")[0])

    def _nested(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    def _definition(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self._nested(node)
        self._bind(node.name)

    visit_If = visit_For = visit_AsyncFor = visit_While = visit_Try = visit_IfExp = _nested
    visit_BoolOp = visit_Lambda = visit_ListComp = visit_SetComp = visit_DictComp = _nested
    visit_GeneratorExp = _nested
    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _definition
    if hasattr(ast, "Match"):
        visit_Match = _nested
    if hasattr(ast, "TryStar"):
        visit_TryStar = _nested


def _read_before_bound(body: list[ast.stmt], names: set[str]) -> set[str]:
    """Which of ``names`` (names the cell binds) the cell may read before binding them."""
    visitor = _ReadBeforeBound(names)
    for stmt in body:
        visitor.visit(stmt)
    return visitor.read


def _as_list(visited: Any) -> list[ast.stmt]:
    return visited if isinstance(visited, list) else [visited]
