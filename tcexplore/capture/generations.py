"""Compiles across ``torch.compiler.reset()``: a generation each, as the events' order tells.

torch numbers compiles ``frame/compile`` from counters that ``torch.compiler.reset()``
(``torch._dynamo.reset()``) sets back to zero, so a program that compiles, resets and
compiles again logs two compiles as ``0/0`` (tlparse files both under ``0/0``). Nothing
in an event names its generation; their order does: a compile begins (Dynamo's
``dynamo`` / ``entire_frame_compile`` phase opens, or ``dynamo_start`` of its first
attempt) under an id whose compile has ended (its ``compilation_metrics``) only when the
counters restarted; a compile's own later begin markers find it not ended. From then on
every compile is of the next generation; an event of an id the new generation has not
compiled yet belongs to the latest compile of that id (a backward compiled lazily, after
the reset, for a forward compiled before it).

The first generation keeps torch's ids; a later one's are ``g<N>:<torch's id>``
(``g2:0/0``), so every id of a document is one compile and what reads a frame from an id
(``0`` of ``0/0``) never joins frames of two generations. The Assembler resolves ids here
for the live capture and a TORCH_TRACE log alike.
"""

from __future__ import annotations

from dataclasses import dataclass

# Phases Dynamo opens as a compile begins (torch/_dynamo/convert_frame.py), before its
# dynamo_start event.
BEGIN_PHASES = frozenset({"dynamo", "entire_frame_compile"})


@dataclass
class _Latest:
    generation: int
    ended: bool = False


def generation_id(raw: str, generation: int) -> str:
    """The document's id of torch's ``raw`` id in ``generation`` (1 keeps torch's)."""
    return raw if generation == 1 else f"g{generation}:{raw}"


class Generations:
    """Which generation each of torch's compile ids is in, as events arrive in order."""

    def __init__(self) -> None:
        self.current = 1
        self._latest: dict[str, _Latest] = {}

    def resolve(self, raw: str, *, begins: bool = False) -> tuple[str, int]:
        """The document's id of torch's ``raw`` id for an event arriving now, and its
        generation; ``begins``: the event opens a compile."""
        latest = self._latest.get(raw)
        if latest is None:
            latest = self._latest[raw] = _Latest(self.current)
        elif begins and latest.ended:
            # torch numbered a new compile with an id already used: its counters restarted
            if latest.generation == self.current:
                self.current += 1
            latest = self._latest[raw] = _Latest(self.current)
        return generation_id(raw, latest.generation), latest.generation

    def named(self, raw: str) -> str:
        """The document's id of the latest compile torch numbered ``raw`` (an id a
        recompile reason names); torch's own where none is known."""
        latest = self._latest.get(raw)
        return generation_id(raw, latest.generation) if latest else raw

    def end(self, raw: str) -> None:
        """torch closed the latest compile of ``raw`` (its compilation_metrics)."""
        latest = self._latest.get(raw)
        if latest is not None:
            latest.ended = True
