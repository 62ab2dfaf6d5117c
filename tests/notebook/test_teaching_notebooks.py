"""The course in notebooks/: every notebook runs end to end in a real kernel, on CPU.

Each notebook ends with an exercise whose check cell prints ``CHECK PASSED`` when the
shipped reference solution is in place. Notebooks are executed as a teacher or Binder
would run them, by notebooks/run_notebooks.py (nbclient, kernel ``python3``, working
directory notebooks/), the script that runs them on a GPU machine too.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from ..inductor_cache import fresh_inductor_cache

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
MARKER = "CHECK PASSED"
PATHS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


@functools.cache
def _runner():
    spec = importlib.util.spec_from_file_location("run_notebooks", NOTEBOOKS / "run_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def test_the_course_has_at_least_eight_notebooks_stored_without_outputs():
    assert len(PATHS) >= 8, [p.name for p in PATHS]
    for path in PATHS:
        notebook = json.loads(path.read_text())
        code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
        assert all(not c["outputs"] and c["execution_count"] is None for c in code), (
            f"{path.name}: clear outputs before committing")
        assert MARKER in "".join(code[-1]["source"]), f"{path.name}: last cell is not the check"


def test_every_notebook_is_listed_in_the_course_index_and_the_notebooks_readme():
    for listing in (REPO / "docs" / "course" / "index.md", NOTEBOOKS / "README.md"):
        text = listing.read_text()
        missing = [p.stem for p in PATHS if f"`{p.stem}`" not in text]
        assert not missing, f"{listing.relative_to(REPO)} leaves out {missing}"


@pytest.fixture(scope="module")
def inductor_cache(tmp_path_factory):
    """One fresh Inductor cache for the course, as a learner's machine has: the first
    notebook pays for the cold C++ toolchain, the others reuse it."""
    return fresh_inductor_cache(tmp_path_factory.mktemp("inductor-cache"))


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebook_runs_without_errors_and_its_check_passes(path, tmp_path, inductor_cache):
    for module in ("nbclient", "nbformat", "ipykernel"):
        pytest.importorskip(module, reason=f"{module} is in the `test` extra")
    import nbformat

    outcome = _runner().execute(path, timeout=300,
                                env={"TORCHINDUCTOR_CACHE_DIR": str(inductor_cache)})
    nbformat.write(outcome.notebook, tmp_path / path.name)  # the executed copy, for a look on failure
    assert not outcome.errors, f"{path.name}: {outcome.errors}"
    assert MARKER in outcome.check_output, (
        f"{path.name}: the check cell printed {outcome.check_output!r}")
    print(f"{path.name}: {outcome.seconds:.1f} s")
