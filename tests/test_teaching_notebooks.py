"""The course in notebooks/: every notebook runs end to end in a real kernel, on CPU.

Each notebook ends with an exercise whose check cell prints ``CHECK PASSED`` when the
shipped reference solution is in place. Notebooks are executed with nbclient (kernel
``python3``, working directory notebooks/), as a teacher or Binder would run them.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
MARKER = "CHECK PASSED"
PATHS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def test_the_course_has_at_least_eight_notebooks_stored_without_outputs():
    assert len(PATHS) >= 8, [p.name for p in PATHS]
    for path in PATHS:
        notebook = json.loads(path.read_text())
        code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
        assert all(not c["outputs"] and c["execution_count"] is None for c in code), (
            f"{path.name}: clear outputs before committing")
        assert MARKER in "".join(code[-1]["source"]), f"{path.name}: last cell is not the check"


@pytest.fixture(scope="module")
def inductor_cache(tmp_path_factory):
    """One fresh Inductor cache for the course, as a learner's machine has: the first
    notebook pays for the cold C++ toolchain, the others reuse it."""
    return tmp_path_factory.mktemp("inductor-cache")


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_notebook_runs_without_errors_and_its_check_passes(path, tmp_path, inductor_cache):
    for module in ("nbclient", "nbformat", "ipykernel"):
        pytest.importorskip(module, reason=f"{module} is in the `test` extra")
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    # This checkout's tcexplore, whatever is installed.
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
           "TORCHINDUCTOR_CACHE_DIR": str(inductor_cache)}
    client = NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    start = time.perf_counter()
    client.execute(env=env)
    seconds = time.perf_counter() - start
    nbformat.write(notebook, tmp_path / path.name)  # the executed copy, for a look on failure

    errors = [(i, o.ename, o.evalue) for i, c in enumerate(notebook.cells) if c.cell_type == "code"
              for o in c.outputs if o.output_type == "error"]
    assert not errors, f"{path.name}: {errors}"
    stderr = [o.text for c in notebook.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "stream" and o.name == "stderr"]
    assert not any("Traceback" in text for text in stderr), stderr
    last = [c for c in notebook.cells if c.cell_type == "code"][-1]
    stdout = "".join(o.text for o in last.outputs if o.output_type == "stream" and o.name == "stdout")
    assert MARKER in stdout, f"{path.name}: the check cell printed {stdout!r}"
    print(f"{path.name}: {seconds:.1f} s")
