"""A JupyterLab server and headless Chromium for the browser tests and the render benchmark.

The server runs from a temporary root with its own config, no token reuse, the news popup
off and, unless asked for, no kernels it could start (notebooks are opened exactly as saved).
Chromium is the distribution's binary (Playwright's own browser download is not available
everywhere).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


def missing() -> str | None:
    """Why browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401, PLC0415
    except ImportError:
        return "playwright is not installed (pip install playwright)"
    if not Path(CHROMIUM).exists():
        return "no chromium binary (apt-get install chromium)"
    if shutil.which("jupyter-lab") is None and not (Path(sys.executable).parent / "jupyter-lab").exists():
        return "jupyterlab is not installed"
    return None


def write_notebook(path: Path, outputs: list[dict[str, Any]], sources: list[str] | None = None,
                   execution_counts: list[int] | None = None) -> Path:
    """A notebook with one code cell per output bundle, saved as if it had been run (cell i
    as the (i+1)th execution, unless ``execution_counts`` says otherwise)."""
    cells = []
    for i, bundle in enumerate(outputs):
        source = sources[i] if sources else f"exploration_{i}"
        count = execution_counts[i] if execution_counts else i + 1
        cells.append({"cell_type": "code", "execution_count": count, "id": f"cell-{i}",
                      "metadata": {}, "source": source,
                      "outputs": [{"output_type": "execute_result", "execution_count": count,
                                   "data": bundle, "metadata": {}}]})
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(notebook), encoding="utf-8")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Lab:
    base: str
    token: str

    def url(self, path: str = "") -> str:
        """The page of ``path`` under the root (a notebook opens in it), or JupyterLab alone."""
        return f"{self.base}/lab{'/tree/' + path if path else ''}?token={self.token}"

    def running_kernels(self) -> list[Any]:
        with urllib.request.urlopen(f"{self.base}/api/kernels?token={self.token}", timeout=5) as response:
            return json.loads(response.read())


@contextlib.contextmanager
def lab_server(root: Path, work: Path, kernels: bool = False) -> Iterator[Lab]:
    """A JupyterLab serving ``root``, until the block ends; ``kernels``: it may start this
    Python's ipykernel (by default it has no kernel to start)."""
    config = work / "jupyter-config"
    (config / "labconfig").mkdir(parents=True, exist_ok=True)
    (config / "labconfig" / "page_config.json").write_text(json.dumps(
        {"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}))
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(config), JUPYTER_RUNTIME_DIR=str(work / "runtime"))
    command = [str(Path(sys.executable).parent / "jupyter-lab"), "--no-browser", "--allow-root",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
               "--LabApp.expose_app_in_browser=True", f"--LabApp.workspaces_dir={work}"]
    if not kernels:
        command.append("--KernelSpecManager.allowed_kernelspecs=no-kernel-here")
    log = (work / "lab.log").open("w")
    proc = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError as exc:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log = (work / "lab.log").read_text()[-2000:]
                    raise RuntimeError(f"JupyterLab did not start: {log}") from exc
                time.sleep(0.3)
        yield Lab(base, token)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def dismiss_kernel_dialog(page: Any) -> None:
    """The server has no kernel to start, so JupyterLab asks for one: answer "No Kernel"."""
    dialog = page.locator(".jp-Dialog")
    dialog.get_by_role("button", name="No Kernel").click(timeout=60_000)
    dialog.wait_for(state="detached")


@contextlib.contextmanager
def chromium_page(width: int = 1400, height: int = 1000) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.errors = []  # type: ignore[attr-defined]
            page.on("pageerror", lambda error: page.errors.append(str(error)))
            yield page
        finally:
            browser.close()
