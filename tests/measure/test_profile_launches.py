"""Each launch is charged to its own node and line: three Linear layers at three lines of
``forward``, profiled by ``explore(profile=True)`` twice in one process (the second
exploration compiles beside the first, as a user exploring again does).

Inductor makes each Linear an ``extern_kernels.addmm`` call and defines the two ReLUs'
identical code once (``cpp_fused_relu_0``, launched from two lines): every one of those
launches is timed on its own and charged to the nodes it computes.
"""

from __future__ import annotations

import inspect

import pytest
import torch
from torch import nn

import tcexplore
from tcexplore.document import validate


class ThreeLinears(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.first = nn.Linear(32, 32)
        self.second = nn.Linear(32, 32)
        self.third = nn.Linear(32, 32)

    def forward(self, x):
        x = self.first(x)
        x = torch.relu(x)
        x = self.second(x)
        x = torch.relu(x)
        return self.third(x)


def _line_of(text: str) -> int:
    lines, start = inspect.getsourcelines(ThreeLinears.forward)
    return start + next(i for i, line in enumerate(lines) if text in line)


LINEARS = [_line_of(f"self.{name}(x)") for name in ("first", "second", "third")]
RELUS = [n for n in range(LINEARS[0], LINEARS[2]) if n not in LINEARS]


@pytest.fixture(scope="module")
def sessions(tmp_path_factory) -> list[dict]:
    """explore(), then explore() again of the same model in the same process."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TCEXPLORE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        torch.manual_seed(0)
        model, x = ThreeLinears(), torch.randn(16, 32)
        # cold both times: the second would be served from the entries the first wrote (its
        # note says so: tests/capture/test_caches.py), with no post-grad graph to charge
        return [tcexplore.explore(model, x, profile=True, time_budget_s=0.1,
                                  bypass_caches=True).document.data
                for _ in range(2)]


def _output(document: dict) -> dict:
    (compile_record,) = document["compiles"]
    (output,) = compile_record["output_codes"]
    return output


def _lines(document: dict) -> dict[int, dict]:
    return {line["line"]: line for line in document["profile"]["lines"]
            if line["file"] == __file__}


def test_documents_validate(sessions):
    for document in sessions:
        validate(document)


def test_each_linear_has_its_own_call_node_and_line(sessions):
    for document in sessions:
        kernels = _output(document)["kernels"]
        calls = [(i, k) for i, k in enumerate(kernels) if k["kind"] == "extern"]
        assert len(calls) == 3 and len({k["name"] for _, k in calls}) == 1
        assert [[s["line"] for s in k["launch_sites"]] for _, k in calls] == \
            [[k["line"]] for _, k in calls]
        assert len({n for _, k in calls for n in k["post_grad_nodes"]}) == 3
        assert [[u["line"] for u in k["user_lines"]] for _, k in calls] == [[n] for n in LINEARS]
        rows = [r for r in document["profile"]["kernels"] if r["kind"] == "extern"]
        assert sorted(r["kernel"] for r in rows) == [i for i, _ in calls]
        assert sorted(r["label"] for r in rows) == [f"{calls[0][1]['name']}#{n}" for n in (1, 2, 3)]


def test_each_linears_line_has_its_own_time(sessions):
    for document in sessions:
        lines = _lines(document)
        labels = {r["kernel"]: r["label"] for r in document["profile"]["kernels"]}
        calls = [i for i, k in enumerate(_output(document)["kernels"]) if k["kind"] == "extern"]
        for line, index in zip(LINEARS, calls):
            assert lines[line]["time_us"] > 0
            assert lines[line]["kernels"] == [labels[index]]  # its own call, no other


def test_a_kernel_launched_from_two_lines_keeps_each_launchs_time_and_nodes(sessions):
    for document in sessions:
        (index, relu) = next((i, k) for i, k in enumerate(_output(document)["kernels"])
                             if k["kind"] != "extern")
        assert relu["launches"] == 2
        sites = relu["launch_sites"]
        assert [len(s["post_grad_nodes"]) for s in sites] == [1, 1]
        assert {n for s in sites for n in s["post_grad_nodes"]} == set(relu["post_grad_nodes"])
        (row,) = [r for r in document["profile"]["kernels"] if r["kernel"] == index]
        assert [s["line"] for s in row["launch_sites"]] == [s["line"] for s in sites]
        assert all(s["time_us"] > 0 and s["calls"] == 1 for s in row["launch_sites"])
        lines = _lines(document)
        for line, launch in zip(RELUS, row["launch_sites"]):
            assert lines[line]["kernels"] == [row["label"]]
            assert lines[line]["time_us"] == pytest.approx(launch["time_us"])


def test_lines_add_up_to_the_kernels_and_no_launch_is_counted_twice(sessions):
    for document in sessions:
        profile = document["profile"]
        rows = profile["kernels"]
        total = sum(r["time_us"] for r in rows)
        assert total == pytest.approx(profile["step"]["kernel_us"])
        assert sum(line["time_us"] for line in profile["lines"]) == pytest.approx(total)
        for row in rows:
            assert sum(s["time_us"] for s in row["launch_sites"]) == pytest.approx(row["time_us"])
            assert sum(s["calls"] for s in row["launch_sites"]) == row["calls"]
        # every launch statement of the output code ran once per call, in exactly one row
        statements = sum(len(k["calls"]) for k in _output(document)["kernels"])
        assert sum(r["calls"] for r in rows) == statements
        sites = [(r["kernel"], s["line"]) for r in rows for s in r["launch_sites"]]
        assert len(sites) == len(set(sites)) == statements
        assert {line for line in _lines(document)} == set(LINEARS + RELUS)


def test_a_launch_from_a_line_the_document_does_not_list_is_a_row_of_its_own():
    """The calling line picks the launch; a name launched from one listed line keeps every
    call; a name with several takes an unlisted line as a row of its own, with no kernel
    (so no node or line is guessed for it)."""
    from tcexplore.measure.instrument import Instrument, _Name

    instrument = Instrument()
    calls = _Name(instrument, "out.py", "extern_kernels.mm", "extern")
    for kernel, line in ((1, 80), (2, 91)):
        calls.add(instrument._site("out.py", "extern_kernels.mm", "extern", kernel,
                                   f"extern_kernels.mm#{kernel}", [line]))
    assert [calls.at(line)[0].kernel for line in (80, 91)] == [1, 2]
    site, launch = calls.at(120)
    assert (site.kernel, site.lines, launch) == (None, [120], 0)
    assert calls.at(120) == (site, 0) and len(instrument.sites) == 3
    single = _Name(instrument, "out.py", "cpp_fused_relu_0", "cpp")
    single.add(instrument._site("out.py", "cpp_fused_relu_0", "cpp", 0, "cpp_fused_relu_0", [87]))
    assert single.at(None)[0].kernel == 0 and len(instrument.sites) == 4
