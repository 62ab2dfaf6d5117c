"""A cell as a function (tcexplore.notebook.cell): Python's scoping, compiled by Dynamo."""

from __future__ import annotations

import linecache

import pytest
import torch

from tcexplore.notebook.cell import compile_cell

FILE = "/tmp/tcexplore-test-cell/1234.py"


def run(source: str, namespace: dict, backend: str = "eager"):
    """Compile ``source`` as a cell under %%tcompile, run it compiled, write back."""
    raw = "%%tcompile\n" + source
    linecache.cache[FILE] = (len(raw), None, raw.splitlines(keepends=True), FILE)
    cell = compile_cell(source, FILE, namespace, first_line=2)
    returned = torch.compile(cell.fn, backend=backend)(*cell.arguments(namespace))
    cell.write_back(namespace, cell.named_values(returned))
    return cell, returned[0]


@pytest.fixture(autouse=True)
def fresh_dynamo():
    torch.compiler.reset()
    yield
    torch.compiler.reset()


def test_bound_names_are_written_back_and_the_last_expression_returned():
    ns = {"torch": torch, "x": torch.ones(3), "k": 2}
    cell, result = run("y = x * k\nif k > 5:\n    never = 1\nz = y.sum()\nz + 1", ns)
    assert cell.has_result and float(result) == 7.0
    assert torch.equal(ns["y"], torch.full((3,), 2.0)) and float(ns["z"]) == 6.0
    assert "never" not in ns, "a name the run did not bind is not created"
    assert cell.params == ["x"], "only tensor-holding reads are parameters"


def test_a_cell_ending_in_a_statement_has_no_result():
    ns = {"x": torch.ones(2)}
    cell, result = run("y = x + 1", ns)
    assert not cell.has_result and result is None and "y" in ns


def test_rebinding_an_existing_name_reads_its_old_value():
    ns = {"n": 3, "x": torch.ones(2)}
    run("n = n + 1\nx = x * n", ns)
    assert ns["n"] == 4 and torch.equal(ns["x"], torch.full((2,), 4.0))


def test_del_removes_the_name_and_except_names_do_not_leak():
    ns = {"x": torch.ones(2), "tmp": 5}
    cell, _ = run("del tmp\ntry:\n    1 / 0\nexcept ZeroDivisionError as e:\n    caught = 1\n"
                  "y = x + 1", ns)
    assert "tmp" not in ns and "e" not in ns and ns["caught"] == 1
    assert "e" not in cell.bound


def test_functions_and_comprehensions_of_the_cell_see_its_names():
    ns = {"torch": torch, "xs": [torch.ones(2), torch.zeros(2)], "w": torch.full((2,), 3.0)}
    cell, result = run("def scale(t):\n    return t * w\nout = [scale(t) for t in xs]\n"
                       "sum(o.sum() for o in out)", ns)
    assert float(result) == 6.0 and callable(ns["scale"]) and len(ns["out"]) == 2
    assert set(cell.params) == {"w", "xs"}, "reads inside nested scopes count"


def test_global_declarations_write_to_the_namespace_directly():
    ns = {"counter": 1, "x": torch.ones(1)}
    cell, _ = run("global counter\ncounter = counter + 1\ny = x * counter", ns)
    assert ns["counter"] == 2 and "counter" not in cell.params + cell.bound


def test_graph_breaks_and_nodes_point_at_the_notebook_lines():
    import tcexplore

    ns = {"x": torch.ones(3)}
    with tcexplore.capture() as session:
        run("a = x.sin()\nprint('break')\nb = a.cos()\nb", ns, backend="aot_eager")
    document = session.document.data
    (brk,) = document["graph_breaks"]
    assert (brk["file"], brk["line"]) == (FILE, 3)
    lines = {n["name"]: n["source"]["line"] for c in document["compiles"]
             for n in c["dynamo_graph"]["nodes"] if n.get("source")}
    assert lines["a"] == 2 and lines["b"] == 4


def test_the_wrapping_adds_no_guard_on_tcexplore_objects():
    import tcexplore

    ns = {"x": torch.ones(3)}
    with tcexplore.capture() as session:
        run("fresh = x + 1\nfresh", ns)
    sources = {g.get("source") for c in session.document.compiles for g in c["guards"]}
    assert sources == {None, "L['x']"}, "only the cell's own input and torch's global state"


def test_top_level_return_is_a_syntax_error_at_the_notebook_line():
    with pytest.raises(SyntaxError) as info:
        compile_cell("x = 1\nreturn x", FILE, {}, first_line=2)
    assert info.value.lineno == 3


def test_an_error_keeps_what_the_cell_bound_before_it_and_its_traceback_starts_in_the_cell():
    ns = {"x": torch.ones(2)}
    raw = "%%tcompile\nbefore = x * 2\nraise ValueError('boom')\nafter = 1"
    linecache.cache[FILE] = (len(raw), None, raw.splitlines(keepends=True), FILE)
    cell = compile_cell(raw.split("\n", 1)[1], FILE, ns, first_line=2)
    with pytest.raises(ValueError) as info:
        torch.compile(cell.fn, backend="eager")(*cell.arguments(ns))
    assert set(cell.locals_at_error(info.value)) == {"before"}
    trimmed = cell.from_cell(info.value)
    assert trimmed.__traceback__.tb_frame.f_code.co_filename == FILE


def test_the_cells_bytecode_shows_no_tcexplore_internals():
    """Names a cell binds start with a marker constant; the Bytecode tab shows it, so it
    names what it is in the user's terms, not tcexplore's."""
    import dis

    ns = {"torch": torch, "x": torch.ones(3), "k": 2}
    cell, _ = run("y = x * k\nif k > 5:\n    never = 1\ny", ns)
    constants = [i.argval for i in dis.get_instructions(cell.fn) if i.opname == "LOAD_CONST"]
    texts = [c for c in constants if isinstance(c, str)]
    assert texts == ["<not assigned by this cell (yet)>"]
    assert "never" not in ns
