"""Name every kernel launch of Inductor's generated modules in the profiler's timeline.

Inductor's output module calls its kernels through module globals at run time
(``cpp_fused_add_0(buf0, arg0_1)``, ``triton_poi_fused_0.run(...)``,
``extern_kernels.mm(...)``, ``aten.randint.low_out(...)``). While a profile runs, those
globals are swapped for thin wrappers that enter a ``torch.profiler.record_function``
range named after the document's kernel (compile, output code, name: kernel names repeat
across modules) and, on the first call, note the bytes of the tensors the kernel was
handed. The generated code, the compile and the timing samples are untouched; every
global is put back when the block ends, also on error.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from typing import Any, Iterator

import torch
from torch.profiler import record_function

from .. import _torch_compat
from .page_faults import minor_page_faults

RANGE_PREFIX = "tcexplore kernel #"
_CPP_PARAMS = re.compile(r'extern "C"[^(]*\bkernel\((?P<params>[^)]*)\)')
_TRITON_PARAMS = re.compile(r"^def \w+\((?P<params>[^)]*)\)", re.M)


@dataclass
class KernelSite:
    """One kernel of one output module as the profile sees it."""

    path: str  # the output module's file (the document's output_codes[].path)
    name: str
    kind: str
    label: str  # the profiler range
    bytes: int | None = None  # noted on the first call
    in_out: set[int] = field(default_factory=set)  # parameters read and written
    page_faults: int = 0  # minor page faults of the process during its launches
    launches: int = 0  # launches counted (faults per launch = page_faults / launches)


def _parameter_names(source: str, kind: str) -> list[str]:
    pattern = _CPP_PARAMS if kind == "cpp" else _TRITON_PARAMS
    m = pattern.search(source or "")
    if not m:
        return []
    return [p.replace("*", " ").split()[-1].split(":")[0].strip()
            for p in m["params"].split(",") if p.strip()]


def tensor_bytes(args: tuple, kwargs: dict[str, Any], in_out: set[int]) -> int:
    """Bytes a kernel moves by the rule the profile documents: every tensor it is handed is
    read or written once; a parameter Inductor names ``in_out_ptr`` is read and written."""
    total = 0
    for i, value in enumerate(list(args) + list(kwargs.values())):
        if isinstance(value, torch.Tensor):
            total += value.numel() * value.element_size() * (2 if i in in_out else 1)
    return total


class _Launch:
    """A callable kernel (C++ binding, extern function, ATen overload) inside a named range."""

    def __init__(self, fn: Any, site: KernelSite):
        self._fn, self._site = fn, site

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        site = self._site
        if site.bytes is None:
            site.bytes = tensor_bytes(args, kwargs, site.in_out)
        before = minor_page_faults()  # outside the range: its time stays the kernel's
        try:
            with record_function(site.label):
                return self._fn(*args, **kwargs)
        finally:
            site.page_faults += minor_page_faults() - before
            site.launches += 1


class _TritonLaunch:
    """A Triton kernel object whose ``run`` enters a named range; the rest passes through."""

    def __init__(self, kernel: Any, site: KernelSite):
        self._kernel, self._run = kernel, _Launch(kernel.run, site)

    def run(self, *args: Any, **kwargs: Any) -> Any:
        return self._run(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._kernel, name)


class _Path:
    """``extern_kernels`` / ``aten`` / ``torch`` as the module sees them, except that the
    dotted paths of the document's extern calls lead to named launches."""

    def __init__(self, target: Any, path: str, sites: dict[str, KernelSite]):
        self._target, self._path, self._sites = target, path, sites

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        path = f"{self._path}.{name}"
        if path in self._sites:
            return _Launch(value, self._sites[path])
        if any(p.startswith(path + ".") for p in self._sites):
            return _Path(value, path, self._sites)
        return value


def _extern_root(name: str) -> str:
    return name.split(".", 1)[0]


class Instrument:
    """Kernel wrappers installed on output modules, until ``restore()``."""

    def __init__(self) -> None:
        self.sites: list[KernelSite] = []
        self._swapped: list[tuple[Any, str, Any]] = []

    def install(self, path: str | None, kernels: list[dict[str, Any]]) -> bool:
        """Wrap the ``kernels`` (the document's records) of the output module at ``path``;
        False when that module is not loaded (yet) in this process."""
        module = _torch_compat.loaded_output_module(path)
        if module is None:
            return False
        externs: dict[str, dict[str, KernelSite]] = {}
        named: set[str] = set()
        for kernel in kernels:
            name, kind = kernel["name"], kernel["kind"]
            if name in named:
                continue  # an extern called more than once: one row, all its calls
            site = KernelSite(path, name, kind, f"{RANGE_PREFIX}{len(self.sites)}")
            if kind == "extern":
                if _extern_root(name) not in module.__dict__:
                    continue
                externs.setdefault(_extern_root(name), {})[name] = site
            else:
                value = module.__dict__.get(name)
                if value is None:
                    continue
                params = _parameter_names(kernel.get("source", ""), kind)
                site.in_out = {i for i, p in enumerate(params) if p.startswith("in_out_ptr")}
                self._swap(module, name, _TritonLaunch(value, site) if hasattr(value, "run")
                           else _Launch(value, site))
            named.add(name)
            self.sites.append(site)
        for root, sites in externs.items():
            self._swap(module, root, _Path(module.__dict__[root], root, sites))
        return True

    def _swap(self, module: Any, name: str, wrapper: Any) -> None:
        self._swapped.append((module, name, module.__dict__[name]))
        module.__dict__[name] = wrapper

    def restore(self) -> None:
        for module, name, value in reversed(self._swapped):
            module.__dict__[name] = value
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
