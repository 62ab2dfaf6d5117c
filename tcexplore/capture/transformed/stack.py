"""The instructions that only move and combine values on the stack: constants, attributes,
subscripts, slices, lists/tuples/dicts built in the code, operators, copies and swaps.
No step of the reading comes of them."""

from __future__ import annotations

import ast
from typing import Any

from ..parsers.disassembly import plain_name
from .values import NULL, Unread, Value, pick, slice_of

_BINARY = {
    "BINARY_ADD": "+",
    "BINARY_SUBTRACT": "-",
    "BINARY_MULTIPLY": "*",
    "BINARY_TRUE_DIVIDE": "/",
    "BINARY_FLOOR_DIVIDE": "//",
    "BINARY_MODULO": "%",
    "BINARY_POWER": "**",
    "BINARY_MATRIX_MULTIPLY": "@",
    "BINARY_AND": "&",
    "BINARY_OR": "|",
    "BINARY_XOR": "^",
    "BINARY_LSHIFT": "<<",
    "BINARY_RSHIFT": ">>",
}
_UNARY = {"UNARY_NEGATIVE": "-", "UNARY_POSITIVE": "+", "UNARY_NOT": "not ", "UNARY_INVERT": "~"}
# torch's flag Dynamo tests before timing its own code around the graph call (torch 2.15:
# record_pregraph_bytecode_enter/exit run only while a profiler is on)
_PROFILER_FLAG = ("torch.autograd.profiler", "_is_profiler_enabled")


def evaluate(i: int, ins: dict[str, Any], stack: list[Value]) -> bool:
    """Apply instruction ``i`` to ``stack`` where it only moves or combines values; False,
    the stack untouched, for any other instruction."""
    op, argrepr, arg = ins["opname"], ins["argrepr"] or "", ins["arg"]
    return any(apply(i, op, argrepr, arg, stack) for apply in (_load, _build, _operate, _shuffle))


def _load(i: int, op: str, argrepr: str, arg: Any, stack: list[Value]) -> bool:
    """A constant, NULL, an attribute, a subscript or a slice of a value."""
    if op == "PUSH_NULL":
        stack.append(NULL)
    elif op in ("LOAD_CONST", "LOAD_SMALL_INT"):
        stack.append(Value(argrepr, kind="const", made_by=[i]))
    elif op in ("LOAD_ATTR", "LOAD_METHOD"):
        owner, name = stack.pop(), plain_name(argrepr)
        dynamo = owner.kind == "dynamo" or (owner.shown(), name) == _PROFILER_FLAG
        value = Value(
            f"{owner.shown()}.{name}",
            kind="dynamo" if dynamo else "value",
            made_by=owner.made_by + [i],
        )
        stack.append(value)
        if op == "LOAD_METHOD" or "NULL" in argrepr:
            stack.append(NULL)  # method or not, CALL reads [callable, NULL] alike
    elif op == "BINARY_SUBSCR":
        key, container = stack.pop(), stack.pop()
        stack.append(item(i, container, key))
    elif op == "BINARY_SLICE":
        end, start, container = stack.pop(), stack.pop(), stack.pop()
        stack.append(item(i, container, slice_of([start, end])))
    else:
        return False
    return True


def _build(i: int, op: str, argrepr: str, arg: Any, stack: list[Value]) -> bool:
    """A slice, tuple, list or dict built from the stack, a list grown, a sequence unpacked."""
    if op == "BUILD_SLICE":
        parts = [stack.pop() for _ in range(arg)][::-1]
        stack.append(slice_of(parts))
    elif op in ("BUILD_TUPLE", "BUILD_LIST"):
        items = [stack.pop() for _ in range(arg)][::-1] if arg else []
        stack.append(
            Value("", items=items, kind="tuple" if op == "BUILD_TUPLE" else "list", made_by=[i])
        )
    elif op == "LIST_TO_TUPLE":
        value = stack.pop()
        stack.append(Value(value.text, items=value.items, kind="tuple", made_by=[i]))
    elif op in ("LIST_EXTEND", "LIST_APPEND"):
        value, target = stack.pop(), stack[-arg]
        if target.items is None:
            raise Unread
        if op == "LIST_APPEND":
            target.items.append(value)
        elif value.items is not None:
            target.items.extend(value.items)
        else:
            target.items.append(Value(f"*{value.shown()}"))
    elif op == "BUILD_MAP":
        pairs = [stack.pop() for _ in range(2 * arg)][::-1]
        stack.append(
            Value(
                "{"
                + ", ".join(
                    f"{pairs[k].shown()}: {pairs[k + 1].shown()}" for k in range(0, len(pairs), 2)
                )
                + "}"
            )
        )
    elif op == "UNPACK_SEQUENCE":
        value = stack.pop()
        if value.items is not None and len(value.items) == arg:
            stack.extend(reversed(value.items))
        else:
            stack.extend(Value(f"{value.shown()}[{k}]") for k in reversed(range(arg)))
    else:
        return False
    return True


def _operate(i: int, op: str, argrepr: str, arg: Any, stack: list[Value]) -> bool:
    """A binary or unary operator, a comparison."""
    if op == "BINARY_OP" or op in _BINARY:
        right, left = stack.pop(), stack.pop()
        symbol = argrepr if op == "BINARY_OP" else _BINARY[op]
        stack.append(Value(f"({left.shown()} {symbol} {right.shown()})"))
    elif op in _UNARY:
        stack.append(Value(f"{_UNARY[op]}{stack.pop().shown()}"))
    elif op in ("COMPARE_OP", "IS_OP", "CONTAINS_OP"):
        right, left = stack.pop(), stack.pop()
        symbol = {"IS_OP": ("is", "is not"), "CONTAINS_OP": ("in", "not in")}.get(op)
        text = symbol[arg] if symbol else argrepr.removeprefix("bool(").removesuffix(")")
        dynamo = "dynamo" in (left.kind, right.kind)  # a test of Dynamo's own values
        stack.append(
            Value(f"({left.shown()} {text} {right.shown()})", kind="dynamo" if dynamo else "value")
        )
    else:
        return False
    return True


def _shuffle(i: int, op: str, argrepr: str, arg: Any, stack: list[Value]) -> bool:
    """A copy, swap, rotation or pop of the stack's values."""
    if op in ("COPY", "DUP_TOP"):
        stack.append(stack[-(arg if op == "COPY" else 1)])
    elif op in ("SWAP", "ROT_TWO"):
        depth = arg if op == "SWAP" else 2
        stack[-1], stack[-depth] = stack[-depth], stack[-1]
    elif op in ("ROT_THREE", "ROT_FOUR", "ROT_N"):
        depth = {"ROT_THREE": 3, "ROT_FOUR": 4}.get(op, arg)
        stack.insert(len(stack) - depth, stack.pop())
    elif op == "POP_TOP":
        stack.pop()
    else:
        return False
    return True


def item(i: int, container: Value, key: Value) -> Value:
    """``container[key]``: the item itself where the container is a list built here."""
    if container.items is not None:
        picked = pick(container.items, key)
        if picked is not None:
            return picked
    if container.text.startswith("__builtins_dict__") and key.kind == "const":
        return Value(ast.literal_eval(key.text), made_by=container.made_by + [i])
    return Value(f"{container.shown()}[{key.shown()}]", made_by=container.made_by + [i])
