"""Run a command and measure it: wall time, CPU time, and peak memory of its whole process
tree (the sum over the command and every process it starts, sampled every 20 ms)."""

from __future__ import annotations

import resource
import subprocess
import time
from dataclasses import dataclass

import psutil


@dataclass
class Measured:
    wall_s: float
    cpu_s: float  # user + system, of the command and the children it waited for
    peak_rss_mb: float  # the most the process tree held at once


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _tree_rss(process: psutil.Process) -> int:
    total = 0
    for proc in [process, *process.children(recursive=True)]:
        try:
            total += proc.memory_info().rss
        except psutil.Error:
            pass
    return total


def measure(
    command: list[str], env: dict[str, str] | None = None, cwd: str | None = None
) -> Measured:
    cpu_before, began = _cpu(), time.perf_counter()
    popen = subprocess.Popen(
        command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    watched, peak = psutil.Process(popen.pid), 0
    while popen.poll() is None:
        try:
            peak = max(peak, _tree_rss(watched))
        except psutil.Error:
            pass
        time.sleep(0.02)
    wall = time.perf_counter() - began
    stderr = popen.stderr.read().decode(errors="replace") if popen.stderr else ""
    if popen.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({popen.returncode}):\n{stderr[-2000:]}")
    return Measured(wall, _cpu() - cpu_before, peak / 1e6)
