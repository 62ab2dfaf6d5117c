"""A busy machine is a warning: timing records the machine's state over its samples."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
import torch

import tcexplore
from tcexplore.document import validate
from tcexplore.measure.machine import machine_state, usable_cores
from tcexplore.render.measurements import _timing

MACHINE_FIELDS = {"busy", "reasons", "cores", "torch_threads", "load_average", "others_cores",
                  "process_cores", "throttled_share", "window_s", "source"}


def _step(x):
    return (x.sin() * 2 + 1).sum()


def _explore():
    return tcexplore.explore(_step, torch.randn(256), time_budget_s=0.3, find_divergence=False)


@pytest.fixture(scope="module")
def quiet():
    return _explore()


@pytest.fixture(scope="module")
def busy():
    """An exploration timed while a spinning process holds every core (two per core)."""
    spinners = [subprocess.Popen([sys.executable, "-S", "-c", "while True: pass"])
                for _ in range(2 * usable_cores())]
    try:
        time.sleep(0.3)  # the spinners are running before the samples start
        return _explore()
    finally:
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait()


def test_timing_records_the_machine_with_its_figures(quiet):
    machine = quiet.timing["machine"]
    assert MACHINE_FIELDS <= machine.keys()
    assert machine["cores"] == usable_cores()
    assert machine["torch_threads"] == torch.get_num_threads()
    assert machine["window_s"] > 0 and machine["process_cores"] > 0
    assert machine["busy"] == bool(machine["reasons"])
    assert quiet.timing["verdict"]["severity"] in ("ok", "warning")
    validate(quiet.document.data)


def test_spinning_processes_on_every_core_make_the_machine_busy_and_the_verdict_a_warning(busy):
    machine, verdict = busy.timing["machine"], busy.timing["verdict"]
    assert machine["busy"] is True
    assert machine["others_cores"] is None or machine["others_cores"] > 0.5
    assert verdict["severity"] == "warning"
    assert verdict["busy"].startswith("Busy machine: ")
    assert "Quiet the machine" in verdict["advice"]
    html = _timing(busy.timing)
    assert "Busy machine: " in html and "machine during the samples" in html
    assert "tcx-status-ok" not in html
    validate(busy.document.data)


def _window(process_s: float, busy_s: float, throttled: int = 0) -> tuple[dict, dict]:
    """Snapshots one second apart: this process's CPU seconds, all CPUs' busy seconds."""
    return ({"wall": 0.0, "process": 0.0, "busy": 0.0, "throttle": (0, 0)},
            {"wall": 1.0, "process": process_s, "busy": busy_s, "throttle": (100, throttled)})


def test_a_process_that_waited_on_nothing_but_itself_is_not_busy():
    machine = machine_state(*_window(0.1, 0.1), cuda=False)  # it slept; nobody else ran
    assert machine["busy"] is False and machine["reasons"] == []
    assert machine["others_cores"] == pytest.approx(0.0)


def test_others_on_every_core_and_throttling_are_each_a_reason():
    cores = usable_cores()
    machine = machine_state(*_window(0.5, cores, throttled=40), cuda=False)
    assert machine["busy"] is True
    assert machine["others_cores"] == pytest.approx(cores - 0.5)
    assert machine["throttled_share"] == pytest.approx(0.4)
    said = " ".join(machine["reasons"])
    assert "other processes used" in said and "ran only 50%" in said and "throttled 40%" in said


@pytest.fixture(scope="module")
def busy_profile():
    """A profiled exploration on every core taken (#43 item 8), with two torch threads."""
    spinners = [subprocess.Popen([sys.executable, "-S", "-c", "while True: pass"])
                for _ in range(2 * usable_cores())]
    threads = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        time.sleep(0.3)
        return tcexplore.explore(_step, torch.randn(4096), profile=True, time_budget_s=0.3,
                                 find_divergence=False)
    finally:
        torch.set_num_threads(threads)
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait()


def test_a_busy_machines_profile_verdict_says_it_is_unreliable_and_names_fewer_threads(busy_profile):
    data = busy_profile.document.data
    assert data["timing"]["machine"]["busy"] is True
    step = data["profile"]["step"]
    assert step["unreliable"].startswith("Unreliable: measured on a busy machine")
    assert "torch.set_num_threads(1)" in step["unreliable"]
    (found,) = [f for f in data["findings"] if f["kind"] == "profile"]
    assert found["severity"] == "warning" and "unreliable" in found["title"]
    assert "torch.set_num_threads(1)" in found["advice"]
    assert "torch.set_num_threads(1)" in data["timing"]["verdict"]["advice"]
    from tcexplore.render.html import render_html

    assert "Unreliable: measured on a busy machine" in render_html(busy_profile.document)
    validate(data)
