"""Which files a document names are library code: decided once, where the frames are
recorded, from where this interpreter really keeps its libraries.

A file is library code when it lies under the standard library or an installed-packages
directory (sysconfig's stdlib/platstdlib/purelib/platlib, ``site.getsitepackages()``, the
user site), the interpreter's scripts directory (the console scripts of installed packages:
``bin/tcexplore`` starts ``tcexplore run``), under torch's or tcexplore's own package
directory as imported, or is a frozen standard-library module (``<frozen runpy>``).
Nothing is decided from names inside a path: the user's ``~/src/tcexplore/train.py`` or
``~/torch/model.py`` stay theirs.

The document keeps the result as ``library_files`` (the files it names that are library
code); views read that mark instead of deciding again. A document assembled from a
TORCH_TRACE log written elsewhere is classified by this interpreter's directories.
"""

from __future__ import annotations

import importlib.util
import os
import site
import sysconfig
from collections.abc import Iterable, Iterator
from typing import Any

_FROZEN = "<frozen "
_OWN_PACKAGES = ("torch", "tcexplore")


def own_package() -> str:
    """tcexplore's package directory, resolved: the code that is tcexplore's own."""
    return os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def torch_file(short: str) -> str | None:
    """The file of torch's own package that ``short`` names: torch prints its own frames
    with the path cut to below its package directory (``_dynamo/output_graph.py``)."""
    if os.path.isabs(short) or short.startswith("<"):
        return None
    spec = importlib.util.find_spec("torch")
    roots = (spec.submodule_search_locations or []) if spec else []
    found = [os.path.join(r, short) for r in roots if os.path.isfile(os.path.join(r, short))]
    return found[0] if len(found) == 1 else None


def library_roots() -> list[str]:
    """The directories whose files are library code, each as given and resolved."""
    paths = sysconfig.get_paths()
    roots = [paths.get(key) for key in ("stdlib", "platstdlib", "purelib", "platlib", "scripts")]
    roots += getattr(site, "getsitepackages", list)()
    if site.ENABLE_USER_SITE:
        roots.append(site.getusersitepackages())
    for name in _OWN_PACKAGES:
        spec = importlib.util.find_spec(name)
        roots += list(spec.submodule_search_locations or []) if spec else []
    found: list[str] = []
    for root in filter(None, roots):
        for form in (os.path.normpath(root), os.path.realpath(root)):
            if form not in found:
                found.append(form)
    return found


def is_library(file: str, roots: Iterable[str]) -> bool:
    """Whether ``file`` (a frame's ``co_filename``) is library code under ``roots``."""
    if file.startswith(_FROZEN):
        return True
    return is_under(file, roots)


def is_under(file: str, roots: Iterable[str]) -> bool:
    """Whether ``file``, as given or resolved, lies under one of ``roots``."""
    if not os.path.isabs(file):
        return False  # "<string>", a cell's pseudo-file, a path torch cut short
    forms = {os.path.normpath(file), os.path.realpath(file)}
    return any(
        form == root or form.startswith(root.rstrip(os.sep) + os.sep)
        for form in forms
        for root in roots
    )


def _files(value: Any) -> Iterator[str]:
    """Every string under a ``file`` key, at any depth."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "file" and isinstance(item, str):
                yield item
            else:
                yield from _files(item)
    elif isinstance(value, list):
        for item in value:
            yield from _files(item)


def library_files(*sections: Any) -> list[str]:
    """The files named anywhere in ``sections`` that are library code, sorted."""
    roots = library_roots()
    return sorted(f for f in set(_files(list(sections))) if is_library(f, roots))
