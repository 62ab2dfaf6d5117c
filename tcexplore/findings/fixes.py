"""A finding's fix, machine-readable: the setting its advice names (a torch.compile argument
or a config value of Dynamo, Inductor or functorch), which ``try_fixes`` can run and
measure, or why the advice cannot be tried (a change to the code). Each finding module
chooses its fix where it chooses its advice; this module only spells them, once."""

from __future__ import annotations

from typing import Any

Data = dict[str, Any]

# The config modules a setting may name (torch._<module>.config), as the try patches them.
CONFIG_MODULES = ("dynamo", "inductor", "functorch")


def compile_argument(name: str, value: Any) -> Data:
    """A torch.compile argument (``dynamic=True``, ``mode="max-autotune"``)."""
    return _setting("compile_kwarg", None, name, value)


def config(module: str, name: str, value: Any) -> Data:
    """A config value (``torch._dynamo.config.capture_scalar_outputs = True``)."""
    assert module in CONFIG_MODULES, module
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


LINE_CHANGE = "a change to the code at this line, not a setting"
# A warm start: the capture keeps Inductor's FX-graph and AOTAutograd caches (explore's
# bypass_caches=False, its default); the try compiles twice in one empty cache directory
# and the second compile, the warm start, is the one measured.
WARM_START = {
    "setting": {"kind": "capture", "module": None, "name": "bypass_caches", "value": False},
    "label": "a warm start",
    "not_tried": None,
}
