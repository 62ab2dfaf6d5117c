"""%%tcompile's options: help text, torch.compile arguments, and UsageErrors naming the option."""

from __future__ import annotations

import pytest

pytest.importorskip("IPython", reason="IPython is in the `notebook` extra")

from IPython.core.error import UsageError  # noqa: E402
from IPython.core.magic_arguments import parse_argstring  # noqa: E402

from tcexplore.notebook.magic import TcompileMagics, _configuration  # noqa: E402
from tcexplore.notebook.options import Grid, parse_compare  # noqa: E402


def configure(line: str) -> dict:
    return _configuration(parse_argstring(TcompileMagics.tcompile, line))


def test_help_documents_every_option_and_the_compare_syntax():
    doc = " ".join(TcompileMagics.tcompile.__doc__.split())  # argparse wraps the help
    for option in ("--mode", "--backend", "--dynamic", "--no-dynamic", "--fullgraph",
                   "--options", "--compare", "--no-eager", "--out", "--time-budget", "--profile",
                   "--memory", "--bypass-caches", "--try-fixes"):
        assert option in doc, option
    assert "modes=default,reduce-overhead backends=inductor,eager dynamic=none,true" in doc


def test_options_become_torch_compile_arguments():
    assert configure("") == {"backend": "inductor", "fullgraph": False}
    assert configure("--mode default --no-dynamic") == {"backend": "inductor",
                                                        "fullgraph": False, "dynamic": False}
    assert configure("--backend aot_eager --dynamic --fullgraph "
                     "--options '{\"max_autotune\": true}'") == {
        "backend": "aot_eager", "fullgraph": True, "dynamic": True,
        "options": {"max_autotune": True}}


@pytest.mark.parametrize("line, option", [
    ("--mode fastest", "--mode"), ("--backend nope", "--backend"),
    ("--options '[1, 2]'", "--options"), ("--options '{bad'", "--options"),
    ("--mode max-autotune --options '{}'", "--mode and --options"),
    ("--dynamic --no-dynamic", "--dynamic and --no-dynamic"),
    ("--out 1x", "--out"), ("--time-budget 0", "--time-budget"),
    ("--memory --no-eager", "--memory runs the cell again"),
])
def test_bad_values_are_usage_errors_naming_the_option(line, option):
    with pytest.raises(UsageError, match=f"^{option}"):
        configure(line)


def test_unknown_options_are_usage_errors():
    with pytest.raises(UsageError, match="--bogus"):
        configure("--bogus")


def test_compare_grid_keeps_the_single_values_of_axes_left_out():
    grid = parse_compare(["modes=default,reduce-overhead", "dynamic=none,true"], None,
                         "aot_eager", False)
    assert grid == Grid(modes=[None, "reduce-overhead"], backends=["aot_eager"],
                        dynamic=[None, True])
    with pytest.raises(UsageError, match="^--compare modes and --options"):
        parse_compare(["modes=max-autotune"], None, "inductor", None, {"max_autotune": True})
    with pytest.raises(UsageError, match="^--compare backends: unknown backend 'fast'"):
        parse_compare(["backends=inductor,fast"], None, "inductor", None)
    with pytest.raises(UsageError, match="^--compare dynamic"):
        parse_compare(["dynamic=maybe"], None, "inductor", None)
    with pytest.raises(UsageError, match="^--compare: expected KEY=V1,V2"):
        parse_compare(["modes"], None, "inductor", None)
