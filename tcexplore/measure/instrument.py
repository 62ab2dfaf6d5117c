"""Name every kernel launch of Inductor's generated modules in the profiler's timeline.

Inductor's output module calls its kernels through module globals at run time
(``cpp_fused_add_0(buf0, arg0_1)``, ``triton_poi_fused_0.run(...)``,
``extern_kernels.mm(...)``, ``aten.randint.low_out(...)``). While a profile runs, those
globals are swapped for thin wrappers that enter a ``torch.profiler.record_function``
range named after the document's kernel (compile, output code, name: kernel names repeat
across modules) and its launch, and, on the first call, note the bytes of the tensors the
kernel was handed. One name can be launched from several lines of a module (an extern call
made for each of three Linears; a generated kernel whose identical code Inductor defined
once): the line of the module that makes the call (its frame's) says which of the
document's launches it is, so each launch keeps its own time. The generated code, the
compile and the timing samples are untouched; every global is put back when the block
ends, also on error.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.profiler import record_function
from torch.utils.flop_counter import FlopCounterMode

from .. import _torch_compat
from ..capture.parsers.output_code import kernel_labels
from .page_faults import minor_page_faults

RANGE_PREFIX = "tcexplore kernel #"  # then "<site>@<launch>"
_CPP_PARAMS = re.compile(r'extern "C"[^(]*\bkernel\((?P<params>[^)]*)\)')
_TRITON_PARAMS = re.compile(r"^def \w+\((?P<params>[^)]*)\)", re.M)


@dataclass
class KernelSite:
    """One kernel of one output module as the profile sees it (one of the document's
    ``kernels``, or a launch from a line they do not list), with the lines of the module
    it is launched from: the launches are told apart by the line that makes them."""

    path: str  # the output module's file (the document's output_codes[].path)
    name: str
    kind: str
    index: int  # its place in the profile's sites: its ranges are "<RANGE_PREFIX><index>@<j>"
    kernel: int | None  # its place in the output code's kernels (None: not listed there)
    label: str  # the name, numbered where it repeats in the module (extern_kernels.mm#2)
    lines: list[int | None]  # its launch lines, in the module's order
    bytes: int | None = None  # noted on the first call
    flops: float | None = None  # an extern call's, counted on its first call
    in_out: set[int] = field(default_factory=set)  # parameters read and written
    page_faults: int = 0  # minor page faults of the process during its launches
    launches: int = 0  # launches counted (faults per launch = page_faults / launches)

    def range_name(self, launch: int) -> str:
        return f"{RANGE_PREFIX}{self.index}@{launch}"


def _parameter_names(source: str, kind: str) -> list[str]:
    pattern = _CPP_PARAMS if kind == "cpp" else _TRITON_PARAMS
    m = pattern.search(source or "")
    if not m:
        return []
    return [
        p.replace("*", " ").split()[-1].split(":")[0].strip()
        for p in m["params"].split(",")
        if p.strip()
    ]


def tensor_bytes(args: tuple, kwargs: dict[str, Any], in_out: set[int]) -> int:
    """Bytes a kernel moves by the rule the profile documents: every tensor it is handed is
    read or written once; a parameter Inductor names ``in_out_ptr`` is read and written."""
    total = 0
    for i, value in enumerate(list(args) + list(kwargs.values())):
        if isinstance(value, torch.Tensor):
            total += value.numel() * value.element_size() * (2 if i in in_out else 1)
    return total


def _caller_line(path: str) -> int | None:
    """The line of the output module at ``path`` that made the call being wrapped (two
    frames up: the caller of the wrapper's method)."""
    frame = sys._getframe(2)
    return frame.f_lineno if frame.f_code.co_filename == path else None


class _Name:
    """The launches of one name in one output module: the site and launch each line
    makes; a line the document does not list gets a site of its own."""

    def __init__(self, instrument: Instrument, path: str, name: str, kind: str):
        self._instrument, self.path, self._name, self._kind = instrument, path, name, kind
        self.by_line: dict[int | None, tuple[KernelSite, int]] = {}

    def add(self, site: KernelSite) -> None:
        for j, line in enumerate(site.lines):
            self.by_line[line] = (site, j)

    def at(self, line: int | None) -> tuple[KernelSite, int]:
        found = self.by_line.get(line)
        if found is None:
            listed = {(id(site), j): (site, j) for site, j in self.by_line.values()}
            if len(listed) == 1:  # one launch in the document: no other it could be
                return next(iter(listed.values()))
            found = self.by_line[line] = (
                self._instrument.unlisted(self.path, self._name, self._kind, line),
                0,
            )
        return found


class _Launch:
    """A callable kernel (C++ binding, extern function, ATen overload) whose every launch
    runs inside the named range of its site and line."""

    def __init__(self, fn: Any, name: _Name):
        self._fn, self.name = fn, name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.launch(_caller_line(self.name.path), args, kwargs)

    def launch(self, line: int | None, args: tuple, kwargs: dict[str, Any]) -> Any:
        site, j = self.name.at(line)
        counter = None
        if site.bytes is None:
            site.bytes = tensor_bytes(args, kwargs, site.in_out)
            counter = FlopCounterMode(display=False) if site.kind == "extern" else None
        before = minor_page_faults()  # outside the range: its time stays the kernel's
        try:
            with record_function(site.range_name(j)):
                if counter is None:
                    return self._fn(*args, **kwargs)
                with counter:
                    result = self._fn(*args, **kwargs)
                site.flops = float(counter.get_total_flops())
                return result
        finally:
            site.page_faults += minor_page_faults() - before
            site.launches += 1


class _TritonLaunch:
    """A Triton kernel object whose ``run`` enters a named range; the rest passes through."""

    def __init__(self, kernel: Any, name: _Name):
        self._kernel, self._run = kernel, _Launch(kernel.run, name)

    def run(self, *args: Any, **kwargs: Any) -> Any:
        return self._run.launch(_caller_line(self._run.name.path), args, kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._kernel, name)


class _Path:
    """``extern_kernels`` / ``aten`` / ``torch`` as the module sees them, except that the
    dotted paths of the document's extern calls lead to named launches."""

    def __init__(self, target: Any, path: str, names: dict[str, _Name]):
        self._target, self._path, self._names = target, path, names

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        path = f"{self._path}.{name}"
        if path in self._names:
            return _Launch(value, self._names[path])
        if any(p.startswith(path + ".") for p in self._names):
            return _Path(value, path, self._names)
        return value


def _extern_root(name: str) -> str:
    return name.split(".", 1)[0]


class Instrument:
    """Kernel wrappers installed on output modules, until ``restore()``; ``pause()`` puts
    the modules' own globals back and ``resume()`` the wrappers again (a run profiled in
    windows: measure/run_profile.py's ``RunProfile``)."""

    def __init__(self) -> None:
        self.sites: list[KernelSite] = []
        self._swapped: list[tuple[Any, str, Any, Any]] = []  # module, name, own, wrapper

    def _site(
        self,
        path: str,
        name: str,
        kind: str,
        kernel: int | None,
        label: str,
        lines: list[int | None],
    ) -> KernelSite:
        site = KernelSite(path, name, kind, len(self.sites), kernel, label, lines)
        self.sites.append(site)
        return site

    def unlisted(self, path: str, name: str, kind: str, line: int | None) -> KernelSite:
        """A site for a launch of ``name`` from a line the document lists no launch at."""
        where = f"line {line} of its output code" if line is not None else "an unknown line"
        return self._site(path, name, kind, None, f"{name} (at {where})", [line])

    def install(self, path: str | None, kernels: list[dict[str, Any]]) -> bool:
        """Wrap the ``kernels`` (the document's records) of the output module at ``path``;
        False when that module is not loaded (yet) in this process."""
        module = _torch_compat.loaded_output_module(path)
        if module is None:
            return False
        externs: dict[str, dict[str, _Name]] = {}
        names: dict[str, _Name] = {}
        labels = kernel_labels([k["name"] for k in kernels])
        for index, (kernel, label) in enumerate(zip(kernels, labels)):
            name, kind = kernel["name"], kernel["kind"]
            root = _extern_root(name) if kind == "extern" else name
            if root not in module.__dict__:
                continue
            lines = [s["line"] for s in kernel.get("launch_sites") or []] or [None]
            site = self._site(path, name, kind, index, label, lines)
            if name not in names:
                names[name] = _Name(self, path, name, kind)
                if kind == "extern":
                    externs.setdefault(root, {})[name] = names[name]
                else:
                    value = module.__dict__[name]
                    params = _parameter_names(kernel.get("source", ""), kind)
                    site.in_out = {i for i, p in enumerate(params) if p.startswith("in_out_ptr")}
                    self._swap(
                        module,
                        name,
                        _TritonLaunch(value, names[name])
                        if hasattr(value, "run")
                        else _Launch(value, names[name]),
                    )
            names[name].add(site)
        for root, by_name in externs.items():
            self._swap(module, root, _Path(module.__dict__[root], root, by_name))
        return True

    def _swap(self, module: Any, name: str, wrapper: Any) -> None:
        self._swapped.append((module, name, module.__dict__[name], wrapper))
        module.__dict__[name] = wrapper

    def pause(self) -> None:
        for module, name, own, wrapper in reversed(self._swapped):
            if module.__dict__.get(name) is wrapper:
                module.__dict__[name] = own

    def resume(self) -> None:
        for module, name, own, wrapper in self._swapped:
            if module.__dict__.get(name) is own:
                module.__dict__[name] = wrapper

    def restore(self) -> None:
        self.pause()
        self._swapped.clear()


@contextlib.contextmanager
def instrumented(document: dict[str, Any]) -> Iterator[list[KernelSite]]:
    """Wrap the kernels of every output module of ``document`` loaded in this process;
    yield their sites (the profile's rows), restore the modules afterwards."""
    instrument = Instrument()
    try:
        for compile_record in document.get("compiles", []):
            for output in compile_record.get("output_codes", []):
                instrument.install(output.get("path"), output.get("kernels", []))
        yield instrument.sites
    finally:
        instrument.restore()
