"""Was the machine busy while the timing samples ran? Figures read over the samples' window.

A loaded CPU slows every sample alike (OpenMP threads spinning against other processes can
cost 20-50x), so the spread stays small and the noise rule passes: only the machine's own
counters tell. Over the window this reads:

* the CPUs this process may run on (``sched_getaffinity``, capped by a cgroup CPU quota);
* their busy time in ``/proc/stat`` (user, nice, system, irq, softirq, steal), less this
  process's CPU time (``os.times``): the cores other processes used;
* this process's CPU time against wall time, and the threads torch uses;
* the cgroup's throttled periods (``cpu.stat``), where readable;
* the 1-minute load average, a figure only: it lags by a minute, so it decides ``busy``
  only where ``/proc/stat`` cannot be read;
* on CUDA, other processes with work on the GPU (NVML, else ``nvidia-smi``).

The machine is busy when other processes and torch's threads (on CUDA: the one thread that
launches) together want more cores than there are, when this process got too little CPU
to run its loop, when the cgroup was throttled, or when another process computes on the same GPU.
"""

from __future__ import annotations

import contextlib
import math
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import torch

#: Cores of other processes' work tolerated beside torch's threads (a shell, a browser tab).
SLACK_CORES = 0.5
#: On CPU the timing loop keeps one core busy; a process that got less waited for a CPU.
STARVED_CORES = 0.8
#: Share of the cgroup's scheduling periods throttled that makes timings untrustworthy.
THROTTLED_SHARE = 0.05
_PROC_STAT = Path("/proc/stat")
_CGROUP_STAT = (Path("/sys/fs/cgroup/cpu.stat"), Path("/sys/fs/cgroup/cpu/cpu.stat"))
_CGROUP_QUOTA = (Path("/sys/fs/cgroup/cpu.max"), Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"))
_BUSY_FIELDS = (0, 1, 2, 5, 6, 7)  # user nice system irq softirq steal (not idle, iowait)


def usable_cores() -> int:
    """The CPUs this process may run on, capped by a cgroup CPU quota."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    quota = _cgroup_quota()
    return max(1, min(cores, math.ceil(quota))) if quota else cores


def _cgroup_quota() -> float | None:
    v2, v1 = _CGROUP_QUOTA
    try:
        limit, period = v2.read_text().split()[:2]
        return None if limit == "max" else int(limit) / int(period)
    except (OSError, ValueError):
        pass
    try:
        limit = int(v1.read_text())
        period = int((v1.parent / "cpu.cfs_period_us").read_text())
        return limit / period if limit > 0 else None
    except (OSError, ValueError):
        return None


def _busy_cpu_seconds() -> float | None:
    """Busy seconds so far of the CPUs this process may run on, from /proc/stat."""
    try:
        allowed = {f"cpu{i}" for i in os.sched_getaffinity(0)}
        lines = _PROC_STAT.read_text().splitlines()
    except (OSError, AttributeError):
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for line in lines:
        name, *values = line.split()
        if name in allowed:
            total += sum(int(values[i]) for i in _BUSY_FIELDS if i < len(values))
    return total / ticks


def _throttle_counts() -> tuple[int, int] | None:
    """(periods, throttled periods) of this cgroup's CPU controller, where readable."""
    for path in _CGROUP_STAT:
        try:
            fields = dict(line.split()[:2] for line in path.read_text().splitlines())
            return int(fields["nr_periods"]), int(fields["nr_throttled"])
        except (OSError, KeyError, ValueError):
            continue
    return None


def _process_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def _snapshot() -> dict[str, Any]:
    return {
        "wall": time.perf_counter(),
        "process": _process_cpu_seconds(),
        "busy": _busy_cpu_seconds(),
        "throttle": _throttle_counts(),
    }


def _load_average() -> float | None:
    try:
        return os.getloadavg()[0]
    except (OSError, AttributeError):
        return None


@contextlib.contextmanager
def watching(cuda: bool) -> Iterator[dict[str, Any]]:
    """Yields a dict that holds, once the block ends, the machine's state over the block
    (:func:`machine_state`)."""
    state: dict[str, Any] = {}
    before = _snapshot()
    yield state
    state.update(machine_state(before, _snapshot(), cuda))


def machine_state(before: dict[str, Any], after: dict[str, Any], cuda: bool) -> dict[str, Any]:
    """``timing["machine"]``: the figures over the window and whether they make it busy."""
    window = max(after["wall"] - before["wall"], 1e-9)
    cores, threads = usable_cores(), torch.get_num_threads()
    process = (after["process"] - before["process"]) / window
    sources = ["os.times", "torch.get_num_threads"]
    others = None
    if before["busy"] is not None and after["busy"] is not None:
        others = max(0.0, (after["busy"] - before["busy"]) / window - process)
        sources.insert(0, "/proc/stat")
    throttled = None
    if before["throttle"] and after["throttle"]:
        periods = after["throttle"][0] - before["throttle"][0]
        throttled = (after["throttle"][1] - before["throttle"][1]) / periods if periods else 0.0
        sources.append("cgroup cpu.stat")
    load = _load_average()
    sources.append("os.getloadavg")
    reasons = []
    # On CPU torch's threads want a core each; on CUDA one thread launches the work.
    wanted = 1 if cuda else threads
    if others is not None and others > SLACK_CORES and others + wanted > cores + SLACK_CORES:
        reasons.append(
            f"other processes used {others:.1f} of {cores} cores while torch runs {threads} threads"
            if not cuda
            else f"other processes used {others:.1f} of {cores} cores, leaving none free "
            "to launch the GPU work"
        )
    if others is None and load is not None and load > cores:
        reasons.append(f"the load average, {load:.1f}, is over the {cores} cores")
    # Less CPU than the loop wants, while others ran: it waited for a CPU (not for a sleep).
    if not cuda and process < STARVED_CORES and (others is None or others > SLACK_CORES):
        reasons.append(f"this process ran only {process:.0%} of the time: it waited for a CPU")
    if throttled is not None and throttled > THROTTLED_SHARE:
        reasons.append(f"the container's CPU quota throttled {throttled:.0%} of its periods")
    machine = {
        "fit_threads": _threads_to_fit(cores, others, threads),
        "busy": bool(reasons),
        "reasons": reasons,
        "cores": cores,
        "torch_threads": threads,
        "load_average": load,
        "others_cores": others,
        "process_cores": process,
        "throttled_share": throttled,
        "window_s": window,
        "source": ", ".join(sources),
    }
    if cuda:
        gpu = gpu_sharing()
        machine["gpu"] = gpu
        if gpu["others"]:
            reasons.append(f"{gpu['others']} other process(es) have work on this GPU")
            machine["busy"] = True
    return machine


def _threads_to_fit(cores: int, others: float | None, threads: int) -> int | None:
    """The torch thread count that fits the cores other processes left free, if fewer."""
    if others is None:
        return None
    free = int(cores - others)
    return free if 1 <= free < threads else None


def _gpu_uuid(index: int) -> str | None:
    uuid = getattr(torch.cuda.get_device_properties(index), "uuid", None)
    return f"GPU-{uuid}" if uuid is not None else None


def _nvml_processes(uuid: str | None, index: int) -> dict[str, Any] | None:
    """The compute processes and utilization NVML reports, or None without NVML."""
    try:
        import pynvml  # optional, present with many CUDA installs

        pynvml.nvmlInit()
    except Exception:  # noqa: BLE001 - not installed, or no driver library
        return None
    try:
        handle = (
            pynvml.nvmlDeviceGetHandleByUUID(uuid)
            if uuid
            else pynvml.nvmlDeviceGetHandleByIndex(index)
        )
        pids = [p.pid for p in pynvml.nvmlDeviceGetComputeRunningProcesses(handle)]
        utilization = pynvml.nvmlDeviceGetUtilizationRates(handle).gpu
    except Exception:  # noqa: BLE001 - an NVML without these calls: nvidia-smi answers
        return None
    finally:
        pynvml.nvmlShutdown()
    return {"pids": pids, "utilization_percent": utilization, "source": "NVML"}


def gpu_sharing() -> dict[str, Any]:
    """Other processes computing on this process's GPU: NVML, else ``nvidia-smi``."""
    mine, index = os.getpid(), torch.cuda.current_device()
    uuid = _gpu_uuid(index)
    nvml = _nvml_processes(uuid, index)
    if nvml is not None:
        return {**nvml, **_others(nvml.pop("pids"), mine)}
    smi = shutil.which("nvidia-smi")
    if not smi or not uuid:
        return {"pids": [], "others": 0, "source": "unavailable (no NVML, no nvidia-smi or GPU id)"}
    try:
        apps = subprocess.run(
            [smi, "--query-compute-apps=pid,gpu_uuid", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        return {"pids": [], "others": 0, "source": f"unavailable (nvidia-smi: {exc})"}
    pids = [
        int(pid)
        for pid, gpu in (line.split(",")[:2] for line in apps.splitlines() if "," in line)
        if gpu.strip() == uuid
    ]
    return {**_others(pids, mine), "source": "nvidia-smi"}


def _others(pids: list[int], mine: int) -> dict[str, Any]:
    """Processes on the GPU besides this one. Seen from another PID namespace (a container
    whose driver reports host PIDs) this process is not among them by its PID, yet it holds
    the GPU while it times: then it is one of them, whichever."""
    listed = sorted(set(pids))
    others = len(listed) - 1 if listed and mine not in listed else len(set(listed) - {mine})
    return {"pids": listed, "others": max(others, 0), "own_pid_listed": mine in listed}
