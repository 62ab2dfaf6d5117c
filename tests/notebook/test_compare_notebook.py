"""The notebook's compare paths (``%%tcompile --compare``, ComparePanel) and a reproducer cell,
played in a real IPython shell: the grid folds the rows torch runs alike as compare() does
and prints none of torch's warnings, its rows compile cold whatever their order, its peak
memory column is measured, its output stays within its bound; a reproducer cell whose
EDITED differs shows the mismatch and does not exit."""

from __future__ import annotations

import json
import logging

import pytest
import torch

import tcexplore
from tcexplore.document import validate
from tcexplore.measure.cold import IN_PROCESS
from tcexplore.measure.exploration import MIME_TYPE
from tcexplore.render.comparison import BUNDLE_EMBED_LIMIT

pytest.importorskip("IPython", reason="IPython is in the `notebook` extra")

from IPython.core.interactiveshell import InteractiveShell  # noqa: E402
from IPython.utils.capture import capture_output  # noqa: E402

BODY = "y = (x.sin() * w).relu()\ny.sum()"


class Heard(logging.Handler):
    """What reaches torch's own log handlers (on the ``torch`` logger): what a user sees."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture(scope="module")
def shell():
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "tcexplore")
    torch.manual_seed(0)
    shell.user_ns.update(x=torch.randn(16, 16), w=torch.randn(16))
    return shell


def run(shell, line: str, body: str = BODY) -> tuple[dict, list[str], str]:
    """The cell's last grid output, what reached torch's log handlers, and its stderr."""
    heard = Heard()
    logging.getLogger("torch").addHandler(heard)
    try:
        with capture_output() as captured:
            result = shell.run_cell(f"%%tcompile {line}\n{body}")
    finally:
        logging.getLogger("torch").removeHandler(heard)
    assert result.error_in_exec is None, result.error_in_exec
    grids = [o.data for o in captured.outputs if MIME_TYPE in o.data]
    return grids[-1], heard.messages, captured.stderr


@pytest.fixture(scope="module")
def folded(shell):
    return run(shell, "--compare backends=aot_eager modes=default,reduce-overhead "
                      "--time-budget 0.02 --out folded")


def test_a_compare_cell_folds_the_rows_torch_runs_alike_in_torchs_words(shell, folded):
    bundle, heard, stderr = folded
    grid = bundle[MIME_TYPE]
    validate(grid)
    (row,) = grid["rows"]
    assert (row["backend"], row["mode"]) == ("aot_eager", None)
    (same,) = row["same_runs"]
    assert same["label"] == "aot_eager / reduce-overhead / dynamic=None"
    assert "ignoring extra kwargs {'mode': 'reduce-overhead'}" in same["reason"]
    assert "= aot_eager / reduce-overhead / dynamic=None: the same run (torch: " in bundle["text/html"]
    assert len(shell.user_ns["folded"].rows) == 1
    # torch's warning is kept as the row's data, never printed for a compile of ours
    assert not [m for m in heard if "ignoring extra kwargs" in m], heard
    assert "ignoring extra kwargs" not in stderr


def test_the_notebook_grid_measures_peak_memory(folded):
    (row,) = folded[0][MIME_TYPE]["rows"]
    assert isinstance(row["peak_memory_bytes"], int) and row["peak_memory_bytes"] > 0
    assert row["document"]["memory"]["peak_bytes"]["compiled"]["above_before_bytes"] == \
        row["peak_memory_bytes"]


def test_the_grid_output_stays_within_its_bound(folded):
    bundle = folded[0]
    assert sum(len(json.dumps(v)) for v in bundle.values()) <= BUNDLE_EMBED_LIMIT
    assert all(r["document"] is not None for r in bundle[MIME_TYPE]["rows"])


@pytest.fixture(scope="module")
def both_orders(shell):
    line = "--compare backends=inductor modes={} --time-budget 0.02 --no-eager"
    return [run(shell, line.format(modes))[0][MIME_TYPE]
            for modes in ("default,max-autotune-no-cudagraphs", "max-autotune-no-cudagraphs,default")]


def test_rows_compile_cold_whatever_their_order(both_orders):
    forward, backward = both_orders
    assert [r["mode"] for r in forward["rows"]] == [None, "max-autotune-no-cudagraphs"]
    assert [r["mode"] for r in backward["rows"]] == ["max-autotune-no-cudagraphs", None]
    by_mode = [{r["mode"]: r for r in grid["rows"]} for grid in both_orders]
    assert set(by_mode[0]) == set(by_mode[1]) == {None, "max-autotune-no-cudagraphs"}
    for grid in both_orders:
        assert grid["notes"][0] == f"Compile times are cold, every row alike: {IN_PROCESS}."
        for row in grid["rows"]:
            # each row's own document says it compiled with empty caches
            assert row["document"]["explore"]["cold_compile"] == IN_PROCESS
            assert row["cold_compile"] == IN_PROCESS
    for mode in by_mode[0]:
        first, second = by_mode[0][mode], by_mode[1][mode]
        assert (first["graphs"], first["kernels"]) == (second["graphs"], second["kernels"])
        assert first["kernels"] > 0


def test_the_panel_runs_its_rows_as_the_cell_does(capfd):
    panel = tcexplore.ComparePanel(lambda t: (t.cos() * 2).relu(), torch.randn(8, 8),
                                   modes=("default", "max-autotune"), backends=("eager",),
                                   time_budget_s=0.02)
    heard = Heard()
    logging.getLogger("torch").addHandler(heard)
    try:
        comparison = panel.run()
    finally:
        logging.getLogger("torch").removeHandler(heard)
    (row,) = comparison.rows
    assert [s["label"] for s in row["same_runs"]] == ["eager / max-autotune / dynamic=None"]
    assert not [m for m in heard.messages if "ignoring extra kwargs" in m], heard.messages
    grid = panel.grid.bundle[MIME_TYPE]
    assert grid["rows"][0]["peak_memory_bytes"] > 0
    assert grid["notes"] == [f"Compile times are cold, every row alike: {IN_PROCESS}."]
    # measuring memory starts the profiler: its native start/stop lines stay out of stderr
    assert "USDT" not in capfd.readouterr().err


def halve(t):
    return t * 0.5 + 1


def test_a_reproducer_cell_whose_edit_differs_shows_the_mismatch_and_does_not_exit(shell):
    exploration = tcexplore.explore(halve, torch.randn(64), time_budget_s=0.02)
    (kernel,) = [k["name"] for c in exploration.document.data["compiles"]
                 for o in c["output_codes"] for k in o["kernels"]]
    text = exploration.document.kernel(kernel).reproducer()
    head, edited = text.split("\nEDITED = ", 1)
    assert "static_cast<float>(0.5)" in edited
    cell = head + "\nEDITED = " + edited.replace("static_cast<float>(0.5)",
                                                 "static_cast<float>(0.25)", 1)
    with capture_output() as captured:
        result = shell.run_cell(cell)
    assert result.error_in_exec is None, result.error_in_exec  # no SystemExit
    assert "To exit: use 'exit'" not in captured.stderr + captured.stdout
    last = captured.stdout.strip().splitlines()[-1]
    assert last.startswith(f"MISMATCH {exploration.document.kernel(kernel).qualified_name}: "
                           "EDITED differs from ORIGINAL")
    assert shell.user_ns["last_run"]["status"] == 1


@pytest.mark.gpu
def test_gpu_rows_compile_cold_whatever_their_order():
    """On CUDA, Triton's cache is emptied per row as well (torch puts it under Inductor's)."""
    x = torch.randn(512, 512, device="cuda")
    grids = [tcexplore.compare(halve, x, modes=modes, backends=["inductor"], time_budget_s=0.05)
             for modes in ([None, "max-autotune-no-cudagraphs"],
                           ["max-autotune-no-cudagraphs", None])]
    for grid in grids:
        for row in grid.rows:
            assert row["status"] == "ok", row["error"]
            assert row["exploration"].document.data["explore"]["cold_compile"] == IN_PROCESS
            assert row["exploration"].document.data["explore"]["device"] == "cuda"
    kernels = [{r["mode"]: (r["graphs"], r["kernels"]) for r in grid.rows} for grid in grids]
    assert kernels[0] == kernels[1] and all(k > 0 for _, k in kernels[0].values())
