"""Captures in several threads: what they share is put back only when the last one closes,
and a compile in a thread no capture covers is recorded with what it ran without."""

from __future__ import annotations

import threading
import warnings

import torch

import tcexplore
from tcexplore import _torch_compat
from tcexplore.document import validate
from tcexplore.render.html import render_html


def _shared_state():
    logger = _torch_compat.trace_logger()
    return {
        "trace_logger": (logger.level, list(logger.handlers), logger.propagate),
        "artifact_loggers": {lg.name: (lg.level, lg.propagate, list(lg.handlers))
                             for lg in _torch_compat.artifact_loggers()},
        "showwarning": warnings.showwarning,
        "settings": _torch_compat.settings_snapshot(),
    }


def _in_thread(target, name):
    errors = []

    def run():
        try:
            target()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            errors.append(exc)

    thread = threading.Thread(target=run, name=name)
    thread.start()
    return thread, errors


def test_captures_overlapping_in_two_threads_put_everything_back_and_stop_listening():
    torch.compiler.reset()
    before = _shared_state()
    a_open, b_open, a_closed = threading.Event(), threading.Event(), threading.Event()
    sessions = {}

    def a():
        with tcexplore.capture() as session:
            sessions["a"] = session
            a_open.set()
            assert b_open.wait(60)
            torch.compile(lambda x: x.sin() + 1, backend="eager")(torch.randn(3))
        a_closed.set()

    def b():
        assert a_open.wait(60)
        with tcexplore.capture() as session:
            sessions["b"] = session
            b_open.set()
            assert a_closed.wait(60)
            # A closed first: B still hears its own compile.
            torch.compile(lambda x: x.cos() * 2, backend="eager")(torch.randn(3))

    threads = [_in_thread(a, "capture-a"), _in_thread(b, "capture-b")]
    for thread, errors in threads:
        thread.join(120)
        assert not errors, errors
    after = _shared_state()
    after["artifact_loggers"] = {name: after["artifact_loggers"][name]  # a compile may add some
                                 for name in before["artifact_loggers"]}
    assert after == before
    heard = {name: len(session.events) for name, session in sessions.items()}
    assert sessions["a"].document.summary["graphs"] == 1
    assert sessions["b"].document.summary["graphs"] == 2  # its own and A's, both while open

    torch.compile(lambda x: x.tan() - 1, backend="eager")(torch.randn(3))
    warnings.warn("after both captures closed", stacklevel=1)
    assert {name: len(session.events) for name, session in sessions.items()} == heard


def test_a_compile_in_a_thread_outside_the_capture_says_what_it_ran_without():
    torch.compiler.reset()
    with tcexplore.capture(bypass_caches=True) as session:  # a cold capture
        torch.compile(lambda x: x.exp(), backend="eager")(torch.randn(3))
        worker, errors = _in_thread(
            lambda: torch.compile(lambda x: x.relu() + 3, backend="eager")(torch.randn(3)),
            "loader-7")
        worker.join(120)
    assert not errors, errors
    here, there = session.document.compiles
    assert "without_capture_settings" not in here
    assert there["without_capture_settings"] == {"settings": ["provenance", "cache_bypass"],
                                                 "threads": ["loader-7"]}
    validate(session.document.data)
    assert "Compiled in thread loader-7, outside the capture&#x27;s settings" in render_html(
        session.document)


def test_a_thread_that_opens_its_own_capture_compiles_with_the_settings():
    torch.compiler.reset()
    with tcexplore.capture() as session:
        def compile_captured():
            with tcexplore.capture():
                torch.compile(lambda x: x.relu() + 3, backend="eager")(torch.randn(3))

        worker, errors = _in_thread(compile_captured, "loader-8")
        worker.join(120)
    assert not errors, errors
    (record,) = session.document.compiles
    assert "without_capture_settings" not in record


def test_a_capture_that_keeps_the_caches_asks_only_for_provenance():
    torch.compiler.reset()
    with tcexplore.capture() as session:  # the caches as the program has them
        worker, errors = _in_thread(
            lambda: torch.compile(lambda x: x.abs(), backend="eager")(torch.randn(3)), "w")
        worker.join(120)
    assert not errors, errors
    (record,) = session.document.compiles
    assert record["without_capture_settings"]["settings"] == ["provenance"]
