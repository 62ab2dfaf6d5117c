"""A warm process: explore() of code Dynamo compiled earlier in this process captures the
same compile as a fresh process, leaves the user's compiled function as it was, and a
capture that compiles nothing says why, in torch's words (real torch.compile, tiny code)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from tcexplore import _torch_compat, explore
from tcexplore._torch_compat import dynamo, lookup, warm_process
from tcexplore.decided import Document
from tcexplore.measure.profiled_capture import capture

COUNTS = ("graphs", "graph_breaks", "recompiles")


def breaking(x):
    y = torch.sin(x) * 2
    print("a graph break")
    return torch.cos(y) + 1


def counts(exploration) -> dict[str, int]:
    return {key: exploration.document.data["summary"][key] for key in COUNTS}


FRESH_PROCESS = textwrap.dedent(f"""
    import json, torch
    from tcexplore import explore
    from tests.capture.test_warm_process import breaking
    e = explore(breaking, torch.randn(8), measure_timing=False, find_divergence=False)
    print(json.dumps({{k: e.document.data["summary"][k] for k in {COUNTS!r}}}))
""")


@pytest.fixture(scope="module")
def fresh_counts() -> dict[str, int]:
    out = subprocess.run([sys.executable, "-c", FRESH_PROCESS], capture_output=True,
                         text=True, check=True, cwd=str(Path(__file__).parents[2]))
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_explore_after_an_earlier_compile_counts_as_a_fresh_process(fresh_counts, capsys):
    user_compiled = torch.compile(breaking)
    user_compiled(torch.randn(8))
    user_compiled(torch.randn(9))  # the user's own recompile: automatic dynamic from now on
    warm = explore(breaking, torch.randn(8), measure_timing=False, find_divergence=False)
    assert fresh_counts["graphs"] == 2 and fresh_counts["graph_breaks"] == 1
    assert counts(warm) == fresh_counts
    assert warm.document.data["not_compiled"] == [] or all(
        entry["category"] == "skipfiles" for entry in warm.document.data["not_compiled"])


def test_the_users_compiled_function_still_runs_without_recompiling():
    from torch._dynamo.utils import counters

    def scaled(x):
        return torch.tanh(x) * 3

    mine = torch.compile(scaled)
    mine(torch.randn(4))
    before = counters["stats"]["unique_graphs"]
    explore(scaled, torch.randn(4), measure_timing=False, find_divergence=False)
    after_explore = counters["stats"]["unique_graphs"]
    assert after_explore == before + 1  # explore compiled its own copy
    mine(torch.randn(4))
    assert counters["stats"]["unique_graphs"] == after_explore  # the user's entry served


def test_dynamic_state_is_put_back():
    pgo = lookup.torch_module("torch._dynamo.pgo")
    before = pgo._CODE_STATE
    explore(breaking, torch.randn(8), measure_timing=False, find_divergence=False)
    assert pgo._CODE_STATE is before


@pytest.fixture(scope="module")
def skipped_layer():
    """A built-in layer compiled in place, captured once: Dynamo decides a frame's skip once
    per process, so a second capture of the same layer code hears no reason."""
    if not _torch_compat.has_skip_reasons():
        pytest.skip("this torch records no skip reasons (torch < 2.13)")
    layer = torch.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True).eval()
    layer.compile()  # compiles the module's _call_impl: a frame of torch's own
    with capture() as session:
        layer(torch.randn(2, 3, 8))
    if session.document.data["summary"]["graphs"]:
        pytest.skip(f"torch {torch.__version__} compiles a built-in layer compiled in place "
                    "(torch 2.13 skips its _call_impl): no skipped frame to explain")
    return session.document


def test_a_built_in_layer_compiled_in_place_is_explained(skipped_layer):
    data = skipped_layer.data
    assert data["summary"]["graphs"] == 0
    first = data["not_compiled"][0]
    assert first["category"] == "skipfiles"
    assert "skipfiles" in first["reason"]  # torch's own words
    assert "/torch/nn/modules/" in first["file"] and isinstance(first["line"], int)
    assert "wrap the built-in layer" in first["advice"]
    Document(data)  # validates against the schema


def test_nothing_compiled_names_the_module_the_user_compiled(skipped_layer):
    (found,) = [f for f in skipped_layer.data["findings"] if f["kind"] == "nothing_compiled"]
    named = found["title"].split(" ran eagerly")[0]
    assert named.startswith("Nothing was compiled: TransformerEncoderLayer")
    assert "_call_impl and" not in named  # torch's frame is not named as the user's
    assert found["locations"][0]["file"].endswith("transformer.py")
    forward = next(s for s in skipped_layer.data["not_compiled"] if s["function"] == "forward")
    assert forward["qualname"] == "TransformerEncoderLayer.forward"
    first = skipped_layer.data["not_compiled"][0]
    if first["function"] == "_call_impl":  # unless an earlier module compile decided its skip
        assert first["qualname"] == "Module._call_impl"
        assert ("TransformerEncoderLayer (the module compiled: its forward, called by "
                "Module._call_impl)") in named


def test_force_eager_and_disable_are_explained():
    def plain(x):
        return x.cos() + 1

    with torch.compiler.set_stance("force_eager"):
        eager = explore(plain, torch.randn(4), measure_timing=False, find_divergence=False)
    [entry] = eager.document.data["not_compiled"]
    assert entry["category"] == "stance" and "force_eager" in entry["reason"]
    assert entry["function"].endswith("plain") and entry["line"] is not None

    class Off(torch.nn.Module):
        @torch.compiler.disable
        def forward(self, x):
            return x.cos() + 1

    disabled = explore(Off(), torch.randn(4), measure_timing=False, find_divergence=False)
    assert disabled.document.data["summary"]["graphs"] == 0
    first = disabled.document.data["not_compiled"][0]
    assert first["category"] == "disabled" and first["function"].endswith("forward")
    Document(eager.document.data)


def test_the_html_overview_explains_a_skipped_layer_and_never_says_no_graph_breaks(
        skipped_layer):
    from tcexplore.render.html import render_html

    data = dict(skipped_layer.data)
    data["not_compiled"] = [{**data["not_compiled"][0], "function": "<script>x</script>"},
                            *data["not_compiled"]]
    page = render_html(Document(data))
    assert "Not compiled" in page and "nothing was compiled" in page
    assert "No graph breaks" not in page
    assert "wrap the built-in layer" in page
    assert "<script>x</script>" not in page and "&lt;script&gt;" in page


def test_recompiles_against_entries_compiled_before_the_capture_are_not_counted():
    """torch 2.11's case, made here on any torch: a fresh backend without an isolated region
    logs its first compile as a recompile of the user's entries (BACKEND_MATCH)."""
    from tcexplore.measure.foreign_entries import without_foreign_entries

    def shifted(x):
        return torch.exp(x) - 1

    torch.compile(shifted)(torch.randn(4))
    fresh = warm_process._fresh_backend_class(lookup.resolve(
        "torch._TorchCompileInductorWrapper"))(None, None, None)
    with capture() as session:
        torch.compile(shifted, backend=fresh)(torch.randn(4))
    raw = session.document
    assert raw.data["summary"]["recompiles"] == 1
    assert "BACKEND_MATCH" in str(raw.data["compiles"][0]["recompile_reasons"])
    kept = without_foreign_entries(raw)
    assert kept.data["summary"]["recompiles"] == 0
    assert kept.data["summary"]["graphs"] == raw.data["summary"]["graphs"] == 1


def test_dynamic_state_and_skip_reasons_are_put_back_after_a_keyboard_interrupt():
    pgo = lookup.torch_module("torch._dynamo.pgo")
    before = (pgo._CODE_STATE, pgo._INIT_CODE_STATE)
    tls_before = (dynamo._dynamo_tls().skip_reasons
                  if _torch_compat.has_skip_reasons() else None)
    with pytest.raises(KeyboardInterrupt):
        with _torch_compat.fresh_dynamic_state(), _torch_compat.skip_reasons():
            raise KeyboardInterrupt
    assert (pgo._CODE_STATE, pgo._INIT_CODE_STATE) == before
    if _torch_compat.has_skip_reasons():
        assert dynamo._dynamo_tls().skip_reasons is tls_before


def test_a_later_compile_never_counts_an_entry_tcexplore_compiled_for_itself():
    """torch 2.11/2.12's case, made here on any torch: an entry of tcexplore's own backend
    outside any isolated region (as the divergence search leaves on 2.11) is met by the
    user's later compile of the same code; the user's own entries still count."""
    def halved(x):
        return torch.sin(x) / 2

    own = warm_process._fresh_backend_class(lookup.resolve("torch._TorchCompileWrapper"))(
        "eager", None, None, None)
    torch.compile(halved, backend=own)(torch.randn(4))
    assert _torch_compat.own_entry_ids()
    with capture() as first:
        torch.compile(halved, backend="eager")(torch.randn(4))
    assert [e.kind for e in first.events].count("recompile_reasons") == 1  # torch logged it
    assert first.document.data["summary"]["recompiles"] == 0
    assert first.document.data["summary"]["graphs"] == 1
    (users,) = [c["id"] for c in first.document.data["compiles"]]
    with capture() as second:
        torch.compile(halved, backend="aot_eager")(torch.randn(4))
    reasons = [r for c in second.document.data["compiles"] for g in c["recompile_reasons"]
               for r in g]
    assert {r["failed_compile_id"] for r in reasons} == {users}


def dropping(x):
    return torch.nn.functional.dropout(x.sin(), 0.5) * 2


def test_a_users_compile_after_a_divergence_search_meets_nothing_of_tcexplores():
    """Run on torch 2.11 too (the device): there the search's and explore's entries share the
    code's cache with the user's, and the user's compile logs them."""
    searched = explore(dropping, torch.randn(16), measure_timing=False)
    assert searched.accuracy["first_divergence"] is not None  # Inductor's own random numbers
    with capture() as session:
        torch.compile(dropping, backend="eager")(torch.randn(16))
    data = session.document.data
    assert data["summary"]["graphs"] == 1 and data["summary"]["recompiles"] == 0
    assert "tcexplore" not in str([c["recompile_reasons"] for c in data["compiles"]])


def test_exploring_again_and_again_never_uses_up_the_users_recompile_limit():
    """Dynamo keeps cache entries, and counts its recompile limit, on the code object: on
    torch 2.11/2.12 the ninth explore() of a function failed at the limit and the user's own
    torch.compile of it then ran eagerly. explore() compiles a copy of the function's code, so
    its entries stay off the user's code on any torch."""
    entries_of = lookup.resolve("torch._C._dynamo.eval_frame._debug_get_cache_entry_list")

    def cubed(x):
        return torch.sin(x) ** 3

    with torch._dynamo.config.patch(recompile_limit=2):
        explored = [
            explore(
                cubed, torch.randn(4), backend="eager", measure_timing=False, find_divergence=False
            )
            for _ in range(3)
        ]
        assert [e.document.data["summary"]["graphs"] for e in explored] == [1, 1, 1]
        assert entries_of(cubed.__code__) == []
        with capture() as session:
            torch.compile(cubed, backend="eager")(torch.randn(4))
    assert session.document.data["summary"]["graphs"] == 1
    assert session.document.data["summary"]["recompiles"] == 0
    assert len(entries_of(cubed.__code__)) == 1  # the user's own


def test_a_function_is_compiled_from_a_copy_of_its_code_unless_dynamo_is_told_to_skip_it():
    def offset(x, *, by=1.0):
        """Adds."""
        return x + by

    offset.marker = "kept"
    copy = warm_process._with_own_code(offset)
    assert copy.__code__ is not offset.__code__ and copy.__code__ == offset.__code__
    assert (copy.__qualname__, copy.__doc__, copy.__kwdefaults__, copy.marker) == (
        offset.__qualname__,
        "Adds.",
        {"by": 1.0},
        "kept",
    )
    assert warm_process._with_own_code(torch.compile(offset)).__code__ is not offset.__code__
    disabled = torch.compiler.disable(offset)
    assert warm_process._with_own_code(disabled) is disabled
    skipped = lookup.resolve("torch._dynamo.decorators.skip")(offset)  # marks offset's code
    assert warm_process._with_own_code(skipped) is offset
    module = torch.nn.Linear(2, 2)
    assert warm_process._with_own_code(module) is module
