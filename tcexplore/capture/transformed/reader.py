"""The Reader: the modified bytecode read instruction by instruction, each instruction with an
effect (locals and globals, stores, calls, returns, jumps) becoming a step of the reading;
those that only move values are stack.py's."""

from __future__ import annotations

import ast
import copy
import re
from typing import Any

from ..parsers.disassembly import plain_name, pushes_null
from .stack import evaluate
from .values import NULL, Unread, Value, attribute_name, index_in, is_null, slice_of

COMPILED_FN = re.compile(r"^__compiled_fn_\d+")
RESUME_AT = re.compile(r"^__resume_at_(?P<offset>\d+)_\d+$")
_UUID = re.compile(r"_[0-9a-f]{8}(?:_[0-9a-f]{4}){3}_[0-9a-f]{12}$")
_TMP = re.compile(r"^tmp_\d+$")
_MODULE_ALIAS = "__import_"
_TEMPORARY = re.compile(r"^(?:tmp_\d+|graph_out_\d+|___stack\d+|__.*)$")
_NO_EFFECT = {
    "NOP",
    "RESUME",
    "CACHE",
    "EXTENDED_ARG",
    "PRECALL",
    "COPY_FREE_VARS",
    "MAKE_CELL",
    "NOT_TAKEN",
    "TO_BOOL",
}
_CONDITIONAL = re.compile(
    r"^POP_JUMP_(?:FORWARD_|BACKWARD_)?IF_(?P<when>FALSE|TRUE|NONE|NOT_NONE)$"
)
_UNCONDITIONAL = {
    "JUMP_FORWARD",
    "JUMP_ABSOLUTE",
    "JUMP_BACKWARD",
    "JUMP",
    "JUMP_BACKWARD_NO_INTERRUPT",
    "JUMP_NO_INTERRUPT",
}


def short_graph_name(name: str) -> str:
    """``__compiled_fn_2_9dfeab41_…`` -> ``__compiled_fn_2`` (the uuid torch appends)."""
    return _UUID.sub("", name)


class Reader:
    """One pass over the instructions, in order: ``steps`` is the reading, ``complete`` says
    whether every reachable instruction was read; a forward jump's stack waits at its label."""

    def __init__(self, instructions: list[dict[str, Any]]):
        self.instructions = instructions
        self.steps: list[dict[str, Any]] = []
        self.complete = True
        self.kwnames: list[str] = []
        self.temporaries: dict[str, Value] = {}  # Dynamo's tmp_N holding a plain value
        self.pending: dict[str, list[Value]] = {}  # jump label -> the stack there
        self.labels = {i["label"]: n for n, i in enumerate(instructions) if i["label"]}

    def run(self) -> None:
        stack: list[Value] | None = []
        for index, instruction in enumerate(self.instructions):
            arrived = self.pending.pop(instruction["label"], None)
            if stack is None:  # after a return or a jump: only a jump to here goes on
                stack = arrived
            if stack is None:
                continue  # reached only from code not read (an exception handler)
            try:
                stack = self.execute(index, instruction, stack)
            except (Unread, IndexError, ValueError, SyntaxError) as exc:
                self.stop(index, instruction, str(exc) if isinstance(exc, Unread) else "")
                return
        if self.pending:
            self.complete = False

    def stop(self, index: int, instruction: dict[str, Any], why: str) -> None:
        self.complete = False
        where = (
            f"offset {instruction['offset']}"
            if instruction["offset"] is not None
            else f"instruction {index}"
        )
        why = why or "the reading stops at an instruction it does not know"
        self.step(
            "unread", f"not read further: {instruction['opname']} at {where} ({why})", [index]
        )

    def step(self, kind: str, text: str, indexes: list[int], **extra: Any) -> dict[str, Any]:
        first = self.instructions[indexes[-1]]
        entry = {
            "kind": kind,
            "text": text,
            "line": first["line"],
            "instructions": sorted(set(indexes)),
            **extra,
        }
        self.steps.append(entry)
        return entry

    # -- one instruction ---------------------------------------------------------------

    def execute(self, i: int, ins: dict[str, Any], stack: list[Value]) -> list[Value] | None:
        op, argrepr, arg = ins["opname"], ins["argrepr"] or "", ins["arg"]
        if op in _NO_EFFECT or evaluate(i, ins, stack):
            return stack
        if op == "KW_NAMES":
            self.kwnames = list(ast.literal_eval(argrepr))
        elif op in (
            "LOAD_FAST",
            "LOAD_FAST_CHECK",
            "LOAD_FAST_BORROW",
            "LOAD_FAST_AND_CLEAR",
            "LOAD_DEREF",
            "LOAD_CLOSURE",
            "LOAD_NAME",
        ):
            stack.append(self.temporaries.get(argrepr) or Value(argrepr, made_by=[i]))
        elif op in ("LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW"):
            stack.extend(Value(n.strip(), made_by=[i]) for n in argrepr.split(","))
        elif op == "LOAD_GLOBAL":
            self.load_global(i, ins, stack)
        elif op in ("STORE_FAST", "STORE_FAST_MAYBE_NULL"):
            self.store_local(i, argrepr, stack.pop())
        elif op == "STORE_FAST_STORE_FAST":
            for name in argrepr.split(","):
                self.store_local(i, name.strip(), stack.pop())
        elif op == "STORE_FAST_LOAD_FAST":
            store, load = (n.strip() for n in argrepr.split(","))
            self.store_local(i, store, stack.pop())
            stack.append(Value(load, made_by=[i]))
        elif op in ("DELETE_FAST", "DELETE_DEREF"):
            pass
        elif op == "STORE_ATTR":
            owner, value = stack.pop(), stack.pop()
            self.write(i, owner, f"{owner.shown()}.{argrepr} = {value.shown()}")
        elif op in ("STORE_GLOBAL", "STORE_DEREF", "STORE_NAME"):
            value = stack.pop()
            scope = "global " if op == "STORE_GLOBAL" else ""
            self.step("side_effect", f"{scope}{argrepr} = {value.shown()}", [i])
        elif op == "STORE_SUBSCR":
            key, container, value = stack.pop(), stack.pop(), stack.pop()
            self.store_item(i, container, key, value)
        elif op == "DELETE_SUBSCR":
            key, container = stack.pop(), stack.pop()
            self.delete_item(i, container, key)
        elif op == "STORE_SLICE":
            end, start, container, value = stack.pop(), stack.pop(), stack.pop(), stack.pop()
            self.store_item(i, container, slice_of([start, end]), value)
        elif op in ("CALL", "CALL_KW", "CALL_FUNCTION", "CALL_METHOD", "CALL_FUNCTION_KW"):
            self.call(i, op, arg, stack)
        elif op == "CALL_FUNCTION_EX":
            self.call_ex(i, arg, stack)
        elif op == "RETURN_VALUE":
            value = stack.pop()
            if _finish(value, i, "return {}"):
                value.step["returns"] = True
            else:
                self.step("return", f"return {value.shown()}", [i])
            return None
        elif op == "RETURN_CONST":
            self.step("return", f"return {argrepr}", [i])
            return None
        elif match := _CONDITIONAL.match(op):
            return self.branch(i, ins, match["when"], stack)
        elif op in _UNCONDITIONAL:
            self.jump_to(i, ins, stack)
            return None
        elif op in ("GET_ITER", "FOR_ITER"):
            raise Unread("a loop: the reading follows straight code and branches only")
        else:
            raise Unread
        return stack

    def load_global(self, i: int, ins: dict[str, Any], stack: list[Value]) -> None:
        name = plain_name(ins["argrepr"])
        kind = (
            "graph" if COMPILED_FN.match(name) else "resume" if RESUME_AT.match(name) else "value"
        )
        shown = short_graph_name(name) if kind == "graph" else name
        if name.startswith(_MODULE_ALIAS):  # Dynamo's global for a module it imports
            shown = name[len(_MODULE_ALIAS) :].replace("_dot_", ".")
            if shown == "torch._dynamo" or shown.startswith("torch._dynamo."):
                kind = "dynamo"  # Dynamo's own functions: its bookkeeping around the graph
        null = pushes_null(ins)
        if null == "before":
            stack.append(NULL)
        stack.append(Value(shown, kind=kind, made_by=[i], step={"global": name}))
        if null == "after":
            stack.append(NULL)

    def store_local(self, i: int, name: str, value: Value) -> None:
        if _finish(value, i, f"{name} = {{}}"):
            value.step["bound"] = name
            if _TMP.match(name):
                self.temporaries[name] = Value(name, kind=value.kind, made_by=[i])
        elif _TMP.match(name):
            # A temporary stored again (each way of a branch may store its own) is read by
            # its name from then on; one stored once, as what it holds.
            self.temporaries[name] = (
                value if name not in self.temporaries else Value(name, kind=value.kind, made_by=[i])
            )
        elif not _TEMPORARY.match(name) and value.shown() != name:
            self.step("local", f"{name} = {value.shown()}", [i])

    def write(self, i: int, owner: Value, text: str) -> None:
        if owner.items is not None:
            raise Unread  # an attribute of a list built here: not something Dynamo emits
        self.step("side_effect", text, [i])

    def store_item(self, i: int, container: Value, key: Value, value: Value) -> None:
        if container.items is None:
            self.step("side_effect", f"{container.shown()}[{key.shown()}] = {value.shown()}", [i])
            return
        index = index_in(key, len(container.items))
        if isinstance(index, slice):
            container.items[index] = value.items if value.items is not None else [value]
        elif index is not None:
            container.items[index] = value
        else:
            raise Unread

    def delete_item(self, i: int, container: Value, key: Value) -> None:
        if container.items is None:
            self.step("side_effect", f"del {container.shown()}[{key.shown()}]", [i])
            return
        index = index_in(key, len(container.items))
        if index is None:
            raise Unread
        del container.items[index]

    def call(self, i: int, op: str, count: int, stack: list[Value]) -> None:
        names = self.kwnames
        self.kwnames = []
        if op in ("CALL_KW", "CALL_FUNCTION_KW"):
            names = list(ast.literal_eval(stack.pop().text))
        args = [stack.pop() for _ in range(count)][::-1]
        if op in ("CALL_FUNCTION", "CALL_FUNCTION_KW"):
            function = stack.pop()
        else:
            above, below = stack.pop(), stack.pop()
            if is_null(below):
                function = above
            elif is_null(above):
                function = below
            else:  # [method, self]
                function, args = below, [above, *args]
        positional = args[: len(args) - len(names)]
        keywords = list(zip(names, args[len(args) - len(names) :]))
        stack.append(self.called(i, function, positional, keywords))

    def call_ex(self, i: int, flags: int, stack: list[Value]) -> None:
        keywords = stack.pop() if flags & 1 else None
        args = stack.pop()
        function = stack.pop()
        if is_null(function):
            function = stack.pop()
        elif stack and is_null(stack[-1]):
            stack.pop()
        positional = list(args.items) if args.items is not None else [Value(f"*{args.shown()}")]
        extra = [("**", keywords)] if keywords is not None else []
        stack.append(self.called(i, function, positional, extra))

    def called(
        self, i: int, function: Value, args: list[Value], keywords: list[tuple[str, Value]]
    ) -> Value:
        shown = [a.shown() for a in args] + [
            f"**{v.shown()}" if k == "**" else f"{k}={v.shown()}" for k, v in keywords
        ]
        call = f"{function.shown()}({', '.join(shown)})"
        indexes = function.made_by + [i]
        if function.kind == "graph":
            entry = self.step(
                "graph",
                call,
                indexes,
                graph=function.step["global"],
                args=[a.shown() for a in args],
            )
        elif function.kind == "resume":
            name = function.step["global"]
            entry = self.step(
                "resume", call, indexes, resume=name, offset=int(RESUME_AT.match(name)["offset"])
            )
        elif function.kind == "dynamo" and "setattr" in function.text and len(args) >= 3:
            entry = self.step(
                "side_effect",
                f"{args[0].shown()}.{attribute_name(args[1])} = "
                f"{args[2].shown()}  (through {function.shown()})",
                indexes,
            )
        elif function.kind == "dynamo":
            entry = self.step("helper", call, indexes)
            return Value(call, kind="dynamo", made_by=[i], step=entry)
        else:
            entry = self.step("eager", call, indexes)
        return Value(call, made_by=[i], step=entry)

    def branch(self, i: int, ins: dict[str, Any], when: str, stack: list[Value]) -> list[Value]:
        tested = stack.pop()
        condition = tested.shown()
        test = {
            "FALSE": f"not {condition}",
            "TRUE": condition,
            "NONE": f"{condition} is None",
            "NOT_NONE": f"{condition} is not None",
        }[when]
        target = (
            self.instructions[self.labels[ins["target"]]] if ins["target"] in self.labels else None
        )
        if target is None or self.labels[ins["target"]] <= i:
            raise Unread
        place = f"offset {target['offset']}" if target["offset"] is not None else ins["target"]
        # A test of Dynamo's own values (is a profiler on?) is its bookkeeping, not the user's
        kind = "helper" if tested.kind == "dynamo" else "branch"
        self.step(
            kind,
            f"if {test}: jump to {place} (its steps follow the other way's)",
            [i],
            target=ins["target"],
        )
        self.pending[ins["target"]] = copy.deepcopy(stack)
        return stack

    def jump_to(self, i: int, ins: dict[str, Any], stack: list[Value]) -> None:
        position = self.labels.get(ins["target"])
        if position is None or position <= i:
            raise Unread  # a loop: not something the reading follows
        self.pending[ins["target"]] = stack


def _finish(value: Value, i: int, form: str) -> bool:
    """Where ``value`` is the result of a call step not yet stored or returned, write that
    step as ``form`` (``x = {}``, ``return {}``) and count instruction ``i`` in it."""
    step = value.step
    if step is None or "text" not in step or "bound" in step or "returns" in step:
        return False
    step["text"] = form.format(step["text"])
    step["instructions"] = sorted({*step["instructions"], i})
    return True
