"""binder/: the repo2docker configuration that opens the course on mybinder.org.

repo2docker itself (Docker) cannot run here; these tests check what can be checked: the
files agree with each other and with CI, the requirements resolve in a clean venv (with
the CPU torch wheel CI installs instead of PyTorch's CPU index), postBuild installs
tcexplore there, and start runs the command it is given.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BINDER = REPO / "binder"
CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def _ci_torch_version() -> str:
    (version,) = re.findall(r"pip install --quiet torch==(\S+)", (REPO / ".ci" / "run").read_text())
    return version


def _requirements() -> list[str]:
    lines = (BINDER / "requirements.txt").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_requirements_pin_the_cpu_torch_ci_tests_from_the_cpu_index():
    lines = _requirements()
    assert f"--extra-index-url {CPU_INDEX}" in lines
    torch_pins = [line for line in lines if re.match(r"torch\b", line)]
    assert torch_pins == [f"torch=={_ci_torch_version()}+cpu"], torch_pins
    assert any(line.startswith("jupyterlab") for line in lines)


def test_apt_installs_a_cxx_compiler_for_inductor_and_graphviz():
    packages = (BINDER / "apt.txt").read_text().split()
    assert "g++" in packages and "graphviz" in packages


@pytest.mark.parametrize("name", ["postBuild", "start"])
def test_scripts_are_executable_bash(name):
    script = BINDER / name
    assert os.access(script, os.X_OK), f"binder/{name} must be executable"
    assert script.read_text().startswith("#!/usr/bin/env bash\n")
    subprocess.run(["bash", "-n", str(script)], check=True)


def test_start_sets_thread_counts_and_runs_the_command_it_is_given():
    env = {k: v for k, v in os.environ.items()
           if k not in ("OMP_NUM_THREADS", "TORCHINDUCTOR_COMPILE_THREADS")}
    out = subprocess.run([str(BINDER / "start"), sys.executable, "-c",
                          "import os; print(os.environ['OMP_NUM_THREADS'], "
                          "os.environ['TORCHINDUCTOR_COMPILE_THREADS'])"],
                         env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["2", "2"]


def test_readme_launch_link_opens_the_first_notebook():
    readme = (REPO / "README.md").read_text()
    (link,) = re.findall(r"https://mybinder\.org/v2/gh/[^)\s]+", readme)
    path = re.search(r"urlpath=lab/tree/(\S+?\.ipynb)", link).group(1)
    assert (REPO / path).is_file(), path
    assert path == "notebooks/01_first_compile.ipynb"


@pytest.mark.slow
def test_binder_install_steps_in_a_clean_venv(tmp_path):
    """requirements.txt resolves (dry run); postBuild installs tcexplore next to CPU torch."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    # PyTorch's CPU index is not reachable from CI: the same torch release, CPU build, from
    # the registry CI installs it from. Everything else exactly as repo2docker reads it.
    local = [line for line in _requirements() if not line.startswith("--extra-index-url")]
    local = [f"torch=={_ci_torch_version()}" if line.startswith("torch==") else line
             for line in local]
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("\n".join(local + [f"{REPO}[notebook]"]) + "\n")
    report = tmp_path / "report.json"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--dry-run", "--report",
                    str(report), "-r", str(requirements)], check=True, timeout=600)
    chosen = {item["metadata"]["name"].lower(): item["metadata"]["version"]
              for item in json.loads(report.read_text())["install"]}
    assert chosen["torch"].split("+")[0] == _ci_torch_version(), chosen["torch"]
    assert not any(name.startswith("nvidia-") for name in chosen), "a CUDA build of torch"
    for name in ("tcexplore", "jupyterlab", "ipywidgets", "plotly", "ipykernel", "jsonschema"):
        assert name in chosen, name

    # requirements.txt's torch step (the local CPU wheel, as above), then postBuild as
    # repo2docker runs it, in the repository root: tcexplore and its notebook extra.
    subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                    f"torch=={_ci_torch_version()}"], check=True, timeout=600)
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
           "VIRTUAL_ENV": str(venv)}
    env.pop("PYTHONPATH", None)
    build = subprocess.run([str(BINDER / "postBuild")], cwd=REPO, env=env, timeout=600,
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-3000:]
    shown = subprocess.run([str(python), "-m", "pip", "show", "tcexplore"], check=True,
                           capture_output=True, text=True).stdout
    assert "Editable project location: " + str(REPO) in shown, shown
    versions = subprocess.run(
        [str(python), "-c", "import torch, tcexplore, ipywidgets, plotly, graphviz; "
         "print(torch.__version__, torch.version.cuda)"],
        env=env, check=True, capture_output=True, text=True).stdout.split()
    assert versions == [f"{_ci_torch_version()}+cpu", "None"], "postBuild replaced the CPU torch"
