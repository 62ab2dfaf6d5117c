"""Checking ``%%tcompile`` options before anything runs: each bad value is a
``UsageError`` naming its option, never a traceback from deep inside torch."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch
from IPython.core.error import UsageError

from .. import _torch_compat
from ..measure.explore import compile_arguments

# --compare axes: KEY=V1,V2 (each key also accepted in the singular).
COMPARE_KEYS = {
    "modes": "modes",
    "mode": "modes",
    "backends": "backends",
    "backend": "backends",
    "dynamic": "dynamic",
}
_DYNAMIC = {"none": None, "auto": None, "true": True, "false": False}


@dataclass
class Grid:
    modes: list[str | None]
    backends: list[str]
    dynamic: list[bool | None]


def check_mode(mode: str | None, option: str = "--mode") -> str | None:
    if mode in (None, "default"):
        return None  # torch.compile's own default: leave mode unset
    known = _torch_compat.compile_modes()
    if mode not in known:
        raise UsageError(f"{option}: unknown mode {mode!r}; one of: {', '.join(known)}")
    return mode


def check_backend(backend: str, option: str = "--backend") -> str:
    known = torch.compiler.list_backends(exclude_tags=())
    if backend not in known:
        raise UsageError(f"{option}: unknown backend {backend!r}; one of: {', '.join(known)}")
    return backend


def parse_options(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]  # IPython's argument splitting keeps the quotes
    try:
        options = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"--options: not JSON ({exc}): {text!r}") from None
    if not isinstance(options, dict):
        raise UsageError(
            f"--options: a JSON object is needed, like '{{\"max_autotune\": true}}', not {text!r}"
        )
    return options


def parse_dynamic(value: str, option: str) -> bool | None:
    try:
        return _DYNAMIC[value.lower()]
    except KeyError:
        raise UsageError(f"{option}: dynamic is one of none, true, false; not {value!r}") from None


def parse_compare(
    specs: list[str],
    mode: str | None,
    backend: str,
    dynamic: bool | None,
    options: dict[str, Any] | None = None,
) -> Grid:
    """``["modes=default,reduce-overhead", "backends=inductor,eager", "dynamic=none,true"]``;
    an axis left out keeps the single value of ``--mode``/``--backend``/``--dynamic``."""
    axes: dict[str, list[Any]] = {}
    for spec in specs:
        key, sep, values = spec.partition("=")
        if not sep or key.lower() not in COMPARE_KEYS or not values:
            raise UsageError(
                f"--compare: expected KEY=V1,V2 with KEY one of modes, backends, "
                f"dynamic; got {spec!r}"
            )
        axis = COMPARE_KEYS[key.lower()]
        parse: Callable[[str], Any] = {
            "modes": lambda v: check_mode(v, "--compare modes"),
            "backends": lambda v: check_backend(v, "--compare backends"),
            "dynamic": lambda v: parse_dynamic(v, "--compare dynamic"),
        }[axis]
        axes[axis] = list(dict.fromkeys(parse(v.strip()) for v in values.split(",")))
    grid = Grid(
        modes=axes.get("modes", [mode]),
        backends=axes.get("backends", [backend]),
        dynamic=axes.get("dynamic", [dynamic]),
    )
    if options is not None and any(grid.modes):
        raise UsageError(
            "--compare modes and --options cannot be used together: "
            "torch.compile takes one or the other"
        )
    return grid


def compile_kwargs(
    mode: str | None,
    backend: str,
    dynamic: bool | None,
    fullgraph: bool,
    options: dict[str, Any] | None,
) -> dict[str, Any]:
    if mode is not None and options is not None:
        raise UsageError(
            "--mode and --options cannot be used together: torch.compile takes "
            "one or the other (put the mode's settings in --options)"
        )
    return compile_arguments(mode, backend, dynamic, fullgraph, options)


def compile_or_usage_error(fn: Callable[..., Any], kwargs: dict[str, Any]) -> Callable[..., Any]:
    """``torch.compile(fn, **kwargs)``; torch checks ``options`` keys here, so an error at
    this point (mode and backend being checked already) is about ``--options``."""
    try:
        return torch.compile(fn, **kwargs)
    except Exception as exc:  # noqa: BLE001
        message = str(exc).split(", known options are")[0]
        raise UsageError(f"--options: {message[:500]}") from None
