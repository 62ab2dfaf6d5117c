"""Timing on a shared GPU: the same exploration with and without a second process running
matmuls on the same GPU. Both are reported (printed for the closing note); the shared run
names the other process and is never an "ok" measurement."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
import torch

import tcexplore

pytestmark = pytest.mark.gpu

# Runs matmuls until killed; says "ready" once its work is on the GPU.
GPU_JOB = """
import torch
a = torch.randn(8192, 8192, device="cuda")
a @ a
torch.cuda.synchronize()
print("ready", flush=True)
while True:
    a @ a
"""


def _matmul_step(a, b):
    return torch.relu(a @ b).sum()


def _explore():
    inputs = [torch.randn(2048, 2048, device="cuda") for _ in range(2)]
    return tcexplore.explore(_matmul_step, *inputs, time_budget_s=0.5, find_divergence=False)


def test_timing_with_and_without_a_concurrent_gpu_job():
    alone = _explore()
    job = subprocess.Popen([sys.executable, "-c", GPU_JOB], stdout=subprocess.PIPE, text=True)
    try:
        assert job.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        shared = _explore()
    finally:
        job.kill()
        job.wait()
    for name, run in (("alone", alone), ("shared", shared)):
        t = run.timing
        print(f"\n{name}: compiled {t['compiled']['median_ms']:.3f} ms, eager "
              f"{t['eager']['median_ms']:.3f} ms, verdict {t['verdict']['severity']}: "
              f"{t['verdict']['headline']}; machine {t['machine']}")
    gpu = shared.timing["machine"]["gpu"]
    assert set(alone.timing["machine"]["gpu"]) >= {"others", "pids", "source"}
    if gpu["source"].startswith("unavailable"):
        pytest.skip(f"no view of the GPU's processes here: {gpu['source']}")
    assert gpu["others"] >= 1, gpu
    assert shared.timing["machine"]["busy"] is True
    assert shared.timing["verdict"]["severity"] == "warning"
    assert "GPU" in shared.timing["verdict"]["busy"]
