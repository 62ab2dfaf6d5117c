"""capture() puts back every logger, handler and config value it touched, however it ends."""

from __future__ import annotations

import logging

import pytest
import torch

import tcexplore
from tcexplore import _torch_compat
from tcexplore._torch_compat import lookup


def _logger_state():
    logger = _torch_compat.trace_logger()
    return logger.level, list(logger.handlers), logger.propagate


def _state():
    return _logger_state(), _torch_compat.settings_snapshot()


def _output_code_of_plain_compile():
    """Compile something new without tcexplore and return the output code torch emitted."""
    codes = []

    class Grab(logging.Handler):
        def emit(self, record):
            if "inductor_output_code" in getattr(record, "metadata", {}):
                codes.append(record.payload)

    logger = _torch_compat.trace_logger()
    handler = Grab(level=logging.DEBUG)
    logger.addHandler(handler)
    try:
        torch.compile(lambda x: (x * 3).tanh())(torch.randn(5))
    finally:
        logger.removeHandler(handler)
    return codes


def test_state_restored_after_normal_exit():
    before = _state()
    with tcexplore.capture() as session:
        torch.compile(lambda x: x.sin() + 1)(torch.randn(4))
    assert _state() == before
    assert session.document.summary["graphs"] == 1


def test_state_restored_after_exception_and_capture_kept():
    before = _state()

    def f(x):
        return x.cos() * 2

    with pytest.raises(ValueError, match="user error"):
        with tcexplore.capture() as session:
            torch.compile(f)(torch.randn(4))
            raise ValueError("user error")
    assert _state() == before
    assert session.document.summary["graphs"] == 1
    assert session.document.data["error"]["type"] == "ValueError"


def test_state_restored_after_keyboard_interrupt_mid_compile():
    before = _state()

    def interrupting_backend(gm, example_inputs):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        with tcexplore.capture() as session:
            torch.compile(lambda x: x.exp(), backend=interrupting_backend)(torch.randn(4))
    assert _state() == before
    document = session.document
    assert document.data["error"]["type"] == "KeyboardInterrupt"
    assert document.compiles and document.compiles[0]["dynamo_graph"] is not None


def test_later_plain_compile_behaves_as_without_tcexplore():
    with tcexplore.capture():
        torch.compile(lambda x: x.sigmoid())(torch.randn(3))
    codes = _output_code_of_plain_compile()
    assert codes, "torch emitted no output code"
    assert all("Provenance debug handles" not in code for code in codes)


def test_compat_layer_resolves_every_private_api():
    assert _torch_compat.check() == [], "torch changed a private API tcexplore relies on"


def test_compat_error_names_the_missing_api():
    with pytest.raises(_torch_compat.TorchCompatError, match="torch._logging.no_such_thing"):
        lookup.resolve("torch._logging.no_such_thing")


def test_artifact_loggers_are_restored_and_stay_quiet(capfd):
    loggers = _torch_compat.artifact_loggers()
    before = [(logger.level, logger.propagate, list(logger.handlers)) for logger in loggers]
    with tcexplore.capture() as session:
        for logger in loggers:
            logger.debug("a debug message the user never asked to see")
    assert [e.kind for e in session.events] == [
        f"log_{lg.name.rpartition('.__')[2]}" for lg in loggers]
    assert [(lg.level, lg.propagate, list(lg.handlers)) for lg in loggers] == before
    assert "never asked to see" not in capfd.readouterr().err


def test_bytecode_hook_is_removed_and_a_users_own_hook_kept():
    heard = []
    handle = torch._dynamo.convert_frame.register_bytecode_hook(
        lambda code, out: heard.append(code.co_name))
    try:
        before = _state()
        with tcexplore.capture() as session:
            torch.compile(lambda x: x.tan())(torch.randn(3))
        assert _state() == before  # ours is gone, the user's still registered
        assert heard == ["<lambda>"]
        assert session.document.compiles[0]["bytecode"]["source"] == "bytecode_hook"
    finally:
        handle.remove()


def test_a_users_dynamo_profiler_is_restored_after_an_error():
    if not _torch_compat.has_dynamo_profiler():
        pytest.skip("this torch has no Dynamo profiler")
    with torch._dynamo.config.patch(dynamo_profiler=True):
        before = _state()
        with pytest.raises(ValueError, match="user error"):
            with tcexplore.capture():
                raise ValueError("user error")
        assert _state() == before


def test_capture_never_switches_dynamo_profiler_on(capfd):
    """torch 2.13's profiler breaks compiles with a graph break in a nested call."""
    def helper(x):
        torch._dynamo.graph_break()
        return x.relu()

    with tcexplore.capture() as session:
        torch.compile(lambda x: helper(x.exp()) * 3)(torch.randn(4))
    assert session.document.data["error"] is None
    assert "Dynamo Profiler" not in capfd.readouterr().out


def test_a_warning_at_a_line_of_tcexplores_is_neither_shown_nor_recorded():
    import warnings

    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        with tcexplore.capture() as session:
            warnings.warn_explicit("about tcexplore's work", UserWarning, tcexplore.__file__, 1)
            warnings.warn("the user's", stacklevel=1)
    assert [str(w.message) for w in shown] == ["the user's"]
    assert [e.kind for e in session.events] == ["python_warning"]
