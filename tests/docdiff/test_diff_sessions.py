"""Sessions that end in a diff, played in one process as a user plays them (real
torch.compile, tiny code): explore a function, explore it again, diff; explore it
changed, diff; capture a recompiling loop twice, diff; compare, then diff two rows; a
%%tcompile cell run twice in a notebook kernel, diff.

torch numbers compiles over the whole process (a function explored a second time
compiles as 0/1), so each pairing below crosses torch's numbers: the diff pairs compiles
by which compile of their frame they are in their own document (`frame_compile_index`).
"""

from __future__ import annotations

import json

import pytest
import torch

import tcexplore

from ..diff_programs.activation import build

QUICK = {"measure_timing": False, "find_divergence": False}


def breaking(x):
    y = torch.relu(x) * 2
    print("a graph break")  # two frames: breaking, and the resume function after this line
    return y.sum() + 1


def _ids(exploration) -> list[str]:
    return [c["id"] for c in exploration.document.data["compiles"]]


def _pairs(result) -> list[tuple[str, str | None, str | None]]:
    return [(e["status"], (e["a"] or {}).get("id"), (e["b"] or {}).get("id"))
            for e in result.to_dict()["compiles"]]


@pytest.fixture(scope="module")
def explored_twice():
    """`breaking` compiled by the user first (a warm process), then explored twice, cold
    (with the caches the second is served from what the first wrote: the next test)."""
    x = torch.randn(8)
    torch.compile(breaking, backend="eager")(x)
    return [tcexplore.explore(breaking, x, bypass_caches=True, **QUICK) for _ in range(2)]


def test_explored_twice_with_the_caches_the_diff_says_only_the_second_was_served_from_them():
    x = torch.randn(8)
    first, second = (tcexplore.explore(breaking, x, **QUICK) for _ in range(2))
    hits = [e for c in second.document.data["compiles"] for e in c["cache"] if e["result"] == "hit"]
    assert hits and all(e["earlier_exploration"] for e in hits)
    text = tcexplore.diff(first, second).to_text()
    said = {line.strip() for line in text.splitlines() if line.startswith("  ")}
    assert said == {"status: ok -> cache_hit"}, text
    assert "nodes: +0 -0 ~0 · kernels: +0 -0 ~0" in text


def test_a_function_explored_twice_in_one_process_diffs_empty(explored_twice):
    first, second = explored_twice
    assert _ids(first) != _ids(second)  # torch's ids, kept as torch gave them
    assert [c["frame_compile_index"] for e in explored_twice
            for c in e.document.data["compiles"]] == [0, 0, 0, 0]
    result = tcexplore.diff(first, second)
    assert result.empty, result.to_text()
    assert _pairs(result) == [("same", a, b) for a, b in zip(_ids(first), _ids(second))]
    functions = [e["a"]["frame"]["function"] for e in result.to_dict()["compiles"]]
    assert functions[0] == "breaking" and functions[1].startswith("torch_dynamo_resume_in_breaking")


def test_the_diff_report_of_one_function_explored_twice_says_nothing_changed(explored_twice):
    page = tcexplore.diff(*explored_twice).to_html()
    assert "No differences in what torch.compile produced." in page
    assert "compiled this" not in page  # "Only A compiled this": a compile left unpaired


def test_a_changed_function_explored_in_the_same_process_pairs_and_shows_the_change():
    explored = []
    for name in ("relu", "gelu"):
        loss_fn, inputs = build(name)  # one code object: torch numbers its compiles on
        explored.append(tcexplore.explore(loss_fn, *inputs, **QUICK))
    assert _ids(explored[0]) != _ids(explored[1])
    result = tcexplore.diff(*explored)
    summary = result.summary
    assert (summary["compiles_added"], summary["compiles_removed"], summary["compiles_changed"]) == (
        0, 0, 1)
    dynamo = [n for g in result.to_dict()["compiles"][0]["graphs"] if g["graph"] == "dynamo"
              for n in g["nodes"]]
    assert [(n["status"], n["a"]["target"], n["b"]["target"]) for n in dynamo] == [
        ("changed", "torch.relu", "torch._C._nn.gelu")]
    assert summary["kernels_changed"] >= 1 and summary["guards_added"] == summary["guards_removed"] == 0


def sine(x):
    return torch.sin(x) + 1


def _capture_a_loop():
    """Two calls of new sizes under capture(): a compile and a recompile."""
    def backend(gm, example_inputs):  # each session a backend of its own, as a user's
        return gm.forward

    compiled = torch.compile(sine, backend=backend, dynamic=False)
    with tcexplore.capture() as session:
        for size in (4, 8):
            compiled(torch.randn(size))
    return session.document


def test_recompiles_pair_with_the_recompiles_of_a_later_capture():
    first, second = _capture_a_loop(), _capture_a_loop()
    records = [d.data["compiles"] for d in (first, second)]
    assert [[c["frame_compile_index"] for c in r] for r in records] == [[0, 1], [0, 1]]
    assert records[1][0]["frame_compile_id"] >= 2  # the second capture's first compile: 0/2 on
    result = tcexplore.diff(first, second)
    assert result.empty, result.to_text()
    assert _pairs(result) == [("same", a["id"], b["id"]) for a, b in zip(*records)]


def test_two_rows_of_a_compare_grid_pair():
    grid = tcexplore.compare(breaking, torch.randn(8), backends=("eager", "aot_eager"),
                             time_budget_s=0.05)
    rows = [row["exploration"] for row in grid.rows]
    assert _ids(rows[0]) != _ids(rows[1])
    result = tcexplore.diff(*rows)
    assert (result.summary["compiles_added"], result.summary["compiles_removed"]) == (0, 0)
    assert all(a is not None and b is not None for _, a, b in _pairs(result))
    # aot_eager adds AOT graphs to what eager compiled; the Dynamo graphs are the same
    graphs = {g["graph"] for e in result.to_dict()["compiles"] for g in e["graphs"]}
    assert "dynamo" not in graphs and "aot:inference" in graphs


CELLS = {
    "setup": """\
import json
import torch
import tcexplore
%load_ext tcexplore

class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(8, 8)

    def forward(self, x):
        y = self.lin(x).relu()
        print("a graph break")
        return y * 2

model, x = Block(), torch.randn(4, 8)""",
    "first": """\
%%tcompile --backend eager --time-budget 0.05 --out run
y = model(x)""",
    "keep": "first = run",
    "again": """\
%%tcompile --backend aot_eager --time-budget 0.05 --out run
y = model(x)""",
    "diff": """\
d = tcexplore.diff(first, run)
print(json.dumps({"summary": d.summary, "pairs": [
    [e["status"], (e["a"] or {}).get("id"), (e["b"] or {}).get("id"),
     (e["a"] or e["b"])["frame"]["function"]] for e in d.to_dict()["compiles"]]}))""",
}


def test_a_tcompile_cell_run_again_with_another_backend_pairs_every_compile(tmp_path):
    """The model's forward, compiled by both runs (its own frame: the break), is 2/0 then
    2/1 to torch; the cell's function is new each run."""
    for module in ("nbclient", "nbformat", "ipykernel"):
        pytest.importorskip(module, reason=f"{module} is in the `test` extra")
    from nbclient import NotebookClient

    from ..notebook_tour import checkout_env, named_notebook

    notebook = named_notebook(CELLS)
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute(env=checkout_env())
    printed = "".join(o.get("text", "") for o in notebook.cells[-1].outputs)
    found = json.loads(printed.strip().splitlines()[-1])
    assert (found["summary"]["compiles_added"], found["summary"]["compiles_removed"]) == (0, 0), found
    forward = [p for p in found["pairs"] if p[3] == "forward"]
    assert forward and all(a != b for _, a, b, _ in forward), found
