"""A finding's fix, machine-readable: the setting its advice names (a torch.compile argument
or a config value of Dynamo, Inductor or functorch), which ``try_fixes`` can run and
measure, or why the advice cannot be tried (a change to the code). Each finding module
chooses its fix where it chooses its advice; this module only spells them, once."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..capture.handlers.metrics import KEPT_CONFIG

Data = dict[str, Any]

# The config modules a setting may name (torch._<module>.config), as the try patches them.
CONFIG_MODULES = ("dynamo", "inductor", "functorch")


def compile_argument(name: str, value: Any) -> Data:
    """A torch.compile argument (``dynamic=True``, ``mode="max-autotune"``)."""
    return _setting("compile_kwarg", None, name, value)


def config(module: str, name: str, value: Any) -> Data:
    """A config value (``torch._dynamo.config.capture_scalar_outputs = True``)."""
    assert module in CONFIG_MODULES, module
    # what is in force is read from torch's config dump, which capture keeps for these only
    assert name in KEPT_CONFIG[module], (module, name)
    return _setting("config", module, name, value)


def code_change(why: str) -> Data:
    """Advice that needs the user's code changed: not tried, and why."""
    return {"setting": None, "label": None, "not_tried": why}


def _setting(kind: str, module: str | None, name: str, value: Any) -> Data:
    shown = f'"{value}"' if isinstance(value, str) else repr(value)
    return {
        "setting": {"kind": kind, "module": module, "name": name, "value": value},
        "label": f"{name}={shown}",
        "not_tried": None,
    }


CAPTURE_SCALARS = config("dynamo", "capture_scalar_outputs", True)
DYNAMIC_OUTPUT_SHAPES = config("dynamo", "capture_dynamic_output_shape_ops", True)
DYNAMIC = compile_argument("dynamic", True)
FALLBACK_RANDOM = config("inductor", "fallback_random", True)
MEMORY_BUDGET = config("functorch", "activation_memory_budget", 0.5)


def mode(name: str) -> Data:
    return compile_argument("mode", name)


# Every setting a finding may advise, as its advice writes it: what named_in_force looks for.
SETTINGS = (
    CAPTURE_SCALARS,
    DYNAMIC_OUTPUT_SHAPES,
    DYNAMIC,
    FALLBACK_RANDOM,
    MEMORY_BUDGET,
    *(mode(m) for m in ("reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")),
)


LINE_CHANGE = "a change to the code at this line, not a setting"
# A warm start: the capture keeps Inductor's FX-graph and AOTAutograd caches (explore's
# bypass_caches=False, its default); the try compiles twice in one empty cache directory
# and the second compile, the warm start, is the one measured.
WARM_START = {
    "setting": {"kind": "capture", "module": None, "name": "bypass_caches", "value": False},
    "label": "a warm start",
    "not_tried": None,
}


def in_force(data: Data, fix: Data | None, compile_ids: Iterable[Any] | None = None) -> bool:
    """Whether ``fix``'s setting is already what the program runs with: the torch.compile
    arguments the run passed (``explore.compile_kwargs``: explore(), a ``%%tcompile``
    cell, a compare() row, a try), else torch's own config dump of each compile
    (``compiles[].config``; of ``compile_ids``, or of all) where it holds the setting:
    ``dynamic=True`` is ``assume_static_by_default`` off; a warm start (:data:`WARM_START`)
    where a compile of the document hit a cache. A finding never advises it."""
    setting = fix.get("setting") if isinstance(fix, dict) else None
    if not isinstance(setting, dict):
        return False
    kind, name, value = setting.get("kind"), setting.get("name"), setting.get("value")
    explore = data.get("explore") if isinstance(data.get("explore"), dict) else {}
    kwargs = explore.get("compile_kwargs") if isinstance(explore, dict) else None
    kwargs = kwargs if isinstance(kwargs, dict) else {}
    if kind == "capture":  # the capture's, not the program's: a warm start is in force
        # where this document measured one (a compile served by a cache)
        return setting == WARM_START["setting"] and any(
            e.get("result") == "hit"
            for c in data.get("compiles") or []
            if isinstance(c, dict)
            for e in c.get("cache") or []
            if isinstance(e, dict)
        )
    if kind == "compile_kwarg":
        if name in kwargs and kwargs[name] is not None:
            return kwargs[name] == value
        return (
            name == "dynamic"
            and value is True
            and _configs_say(data, compile_ids, "dynamo.assume_static_by_default", False)
        )
    if kind == "config":
        options = kwargs.get("options") if isinstance(kwargs.get("options"), dict) else {}
        if setting.get("module") == "inductor" and name in options:
            return options[name] == value
        return _configs_say(data, compile_ids, f"{setting.get('module')}.{name}", value)
    return False


def _configs_say(data: Data, compile_ids: Iterable[Any] | None, key: str, value: Any) -> bool:
    """Every compile (of ``compile_ids``) that recorded ``key`` ran with ``value``, and one did."""
    wanted = None if compile_ids is None else {str(cid) for cid in compile_ids}
    said = [
        c["config"][key]
        for c in data.get("compiles") or []
        if isinstance(c, dict)
        and (wanted is None or str(c.get("id")) in wanted)
        and isinstance(c.get("config"), dict)
        and key in c["config"]
    ]
    return bool(said) and all(v == value for v in said)


def named_in_force(data: Data, text: Any, compile_ids: Iterable[Any] | None = None) -> list[str]:
    """The settings ``text`` names (as their labels write them, ``dynamic=True``,
    ``mode="reduce-overhead"``) that are in force (:func:`in_force`)."""
    if not isinstance(text, str):
        return []
    return [
        fix["label"]
        for fix in SETTINGS
        if fix["label"] in text and in_force(data, fix, compile_ids)
    ]
