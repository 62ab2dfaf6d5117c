"""Library or user code is decided once, where the frames are recorded, from where this
interpreter keeps its libraries (tcexplore/capture/library_files.py), never from names in a
path: a user's clone or project directory named ``tcexplore/`` or ``torch/`` stays theirs."""

from __future__ import annotations

import importlib.util
import json
import os
import sysconfig

import pytest
import torch

import tcexplore
from tcexplore.capture.library_files import is_library, library_roots
from tcexplore.findings.graph_break_audit import graph_break_audit
from tcexplore.measure.profiled_capture import capture

USER_CODE = """\
import torch

def scale(t):
    return t * t.sum().item()

def step(t):
    return scale(t.relu()) + 1
"""


@pytest.fixture(scope="module")
def user_break(tmp_path_factory):
    """A real compile of a user file under ``.../tcexplore/torch/``, breaking on ``.item()``."""
    home = tmp_path_factory.mktemp("clone") / "tcexplore" / "torch"
    home.mkdir(parents=True)
    path = home / "train.py"
    path.write_text(USER_CODE)
    spec = importlib.util.spec_from_file_location("tcx_user_train", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with capture() as session:
        torch.compile(module.step, backend="eager")(torch.randn(4))
    return str(path), session.document.data


def test_user_files_under_library_named_directories_are_the_users():
    roots = library_roots()
    for mine in ("/home/me/tcexplore/train.py", "/srv/torch/model.py",
                 "/home/me/site-packages-notes/x.py"):
        assert not is_library(mine, roots), mine
    assert not is_library("/tmp/ipykernel_1/2633109738.py", roots)
    assert not is_library("<string>", roots)


def test_the_interpreters_libraries_and_torch_and_tcexplore_are_library():
    roots = library_roots()
    # the console script `tcexplore run` starts from (bin/tcexplore) is no frame of the user's
    console_script = os.path.join(sysconfig.get_paths()["scripts"], "tcexplore")
    for theirs in (torch.__file__, tcexplore.__file__, os.__file__, pytest.__file__,
                   "<frozen runpy>", console_script):
        assert is_library(theirs, roots), theirs
    assert os.path.normpath(sysconfig.get_paths()["stdlib"]) in roots
    assert os.path.dirname(os.path.realpath(torch.__file__)) in {os.path.realpath(r) for r in roots}


def test_capture_marks_library_files_and_keeps_the_users_call_path(user_break):
    path, data = user_break
    library = data["library_files"]
    assert path not in library
    assert library == sorted(library) and all(is_library(f, library_roots()) for f in library)
    (site,) = graph_break_audit(data)
    assert (site["file"], site["line"], site["library"]) == (path, 4, False)
    users = [(f["file"], f["function"]) for f in site["paths"][0]["stack"] if not f["library"]]
    assert users[-2:] == [(path, "step"), (path, "scale")]
    # this test's own frames are the user's too; pytest's and torch's are folded
    assert any(f["library"] and "pytest" in f["file"] for f in site["paths"][0]["stack"])


def test_a_document_without_the_mark_folds_no_frame(user_break):
    _, data = user_break
    old = json.loads(json.dumps(data))
    del old["library_files"]
    (site,) = graph_break_audit(old)
    assert not any(f["library"] for path in site["paths"] for f in path["stack"])


def _breaking(t):
    y = t.sin()
    print("", end="")  # a graph break
    return y.cos()


def test_an_explored_functions_stacks_hold_none_of_tcexplores_frames():
    """explore() called from here: the break's stack and each compile's run from this test
    straight into the explored function, as torch.compile(fn)(x) called here would (the
    pipeline's and the timed call's frames between them are tcexplore's, not the user's)."""
    data = tcexplore.explore(_breaking, torch.randn(4), backend="eager", time_budget_s=0.02)
    data = data.document.data
    here, package = __file__, os.path.dirname(tcexplore.__file__) + os.sep

    def ours(frame):
        return str(frame.get("file")).startswith(package)

    (brk,) = data["graph_breaks"]
    stacks = [brk["user_stack"], *(c["stack"] for c in data["compiles"])]
    for stack in stacks:
        assert not [f for f in stack if ours(f)], stack
        functions = [f["function"] for f in stack if f["file"] == here]
        assert "test_an_explored_functions_stacks_hold_none_of_tcexplores_frames" in functions
    assert brk["user_stack"][-1]["function"] == "_breaking"
    assert [f["function"] for f in brk["user_stack"][-2:]] == [
        "test_an_explored_functions_stacks_hold_none_of_tcexplores_frames",
        "_breaking",
    ]
