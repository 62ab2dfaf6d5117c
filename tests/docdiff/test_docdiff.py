"""tcexplore.diff / `tcexplore diff`: two compilations of one program, one op apart, and twice the same."""

from __future__ import annotations

import copy
import difflib
import json
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import tcexplore
from tcexplore import cli
from tcexplore.capture.parsers.fx_text import parse_graph
from tcexplore.docdiff import MIME_TYPE, SUMMARY_KEYS, load_diff
from tcexplore.docdiff.unified import unified
from tcexplore.render.notebook import display_document

from ..conftest import run_program

PROGRAM = Path(__file__).parents[1] / "diff_programs" / "activation.py"
FIXTURE = Path(__file__).parents[1] / "fixtures" / "docdiff"
ISSUE_KEYS = {"compiles_added", "compiles_removed", "compiles_changed", "nodes_added",
              "nodes_removed", "kernels_added", "kernels_removed", "kernels_changed",
              "guards_added", "guards_removed"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """activation.py with relu, with gelu, with relu again from another directory
    (another path, another Inductor cache), and with gelu kept as train_v2.py: each a
    `tcexplore run` in a fresh process."""
    root = tmp_path_factory.mktemp("docdiff")
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    copied = shutil.copy(PROGRAM, elsewhere / PROGRAM.name)
    renamed = shutil.copy(PROGRAM, elsewhere / "train_v2.py")
    jobs = {"relu": (str(PROGRAM), ["relu"]), "gelu": (str(PROGRAM), ["gelu"]),
            "relu_again": (str(copied), ["relu"]), "gelu_v2": (str(renamed), ["gelu"])}
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = {name: pool.submit(run_program, script, root / name, args)
                for name, (script, args) in jobs.items()}
        for future in done.values():
            assert future.result().returncode == 0, future.result().stderr[-3000:]
    return {name: root / name / "doc.json" for name in jobs}


def _node_entries(data):
    return [(graph["graph"], node) for entry in data["compiles"] for graph in entry["graphs"]
            for node in graph["nodes"]]


def _kernels_fusing_the_activation(document) -> set[tuple[str, str]]:
    """(output code kind, kernel) of each kernel fusing a post-grad node of the activation:
    one torch attributes to the activation's line, one computed from those alone only to be
    saved for the backward (torch 2.15 gives relu's mask `le(relu)` the next line), or, in
    the backward, a node without
    a user line reading a tensor the forward's activation nodes saved (torch 2.15 records
    no user lines there)."""
    found = set()
    for record in document["compiles"]:
        saved: set[str] = set()
        for output in sorted(record["output_codes"], key=lambda o: o["kind"] != "forward"):
            graph = record["post_grad_graphs"][output["post_grad_graph"]]
            activation: set[str] = set()
            for node in graph["nodes"]:
                source = node.get("source") or {}
                if ("activation(" in (source.get("code") or "")
                        or (node["op"] == "placeholder" and node["name"] in saved)
                        or (node["op"] == "call_function" and node["args"]
                            and all(arg in activation for arg in node["args"])
                            and node["users"] == ["output"])
                        or (node["op"] == "call_function" and not source
                            and any(arg in saved for arg in node["args"]))):
                    activation.add(node["name"])
            saved |= activation
            found |= {(output["kind"], k["name"]) for k in output["kernels"]
                      if activation & set(k["post_grad_nodes"])}
    return found


def test_relu_to_gelu_names_exactly_that_node_and_the_kernels_fusing_it(runs):
    _names_exactly_the_activation(tcexplore.diff(runs["relu"], runs["gelu"]), runs)


def test_two_scripts_pair_by_function_and_compile_number_and_say_so(runs):
    # relu in activation.py, gelu in train_v2.py: one program kept in two files.
    result = tcexplore.diff(runs["relu"], runs["gelu_v2"])
    for entry in result.to_dict()["compiles"]:
        assert entry["changes"][-1] == {"field": "file", "a": "activation.py",
                                        "b": "train_v2.py"}
    _names_exactly_the_activation(result, runs)
    assert "file: activation.py -> train_v2.py" in result.to_text()


def _names_exactly_the_activation(result, runs):
    data = result.to_dict()
    summary = result.summary
    assert set(summary) >= ISSUE_KEYS
    assert (summary["compiles_added"], summary["compiles_removed"], summary["compiles_changed"]) == (0, 0, 1)
    assert (summary["guards_added"], summary["guards_removed"]) == (0, 0)

    dynamo = [node for graph, node in _node_entries(data) if graph == "dynamo"]
    assert [(n["status"], n["a"]["target"], n["b"]["target"], n["changes"]) for n in dynamo] == [
        ("changed", "torch.relu", "torch._C._nn.gelu", ["target"])]
    # AOT and post-grad graphs, forward and backward: every difference is the activation
    # (gelu decomposes into several ops), the tensors saved for backward, or a node that
    # consumes a difference: torch 2.15 records no user line for gelu's backward nodes and
    # gives relu's backward mask, `le(relu)`, the next line.
    graphs = {graph for graph, _ in _node_entries(data)}
    assert {"aot:forward", "aot:backward", "post:forward", "post:backward"} <= graphs
    differing = {(graph, side, node[side]["name"]) for graph, node in _node_entries(data)
                 for side in ("a", "b") if node[side]}
    for graph, node in _node_entries(data):
        side = "b" if node["b"] else "a"
        view = node[side]
        from_activation = "activation(" in ((view["source"] or {}).get("code") or "")
        consumes_it = any((graph, side, arg) in differing for arg in view["args"])
        assert from_activation or consumes_it or view["op"] in ("placeholder", "output"), (
            graph, node)
    fusing = _kernels_fusing_the_activation(json.loads(runs["relu"].read_text()))
    changed = [(output["output"], k) for entry in data["compiles"] for output in entry["outputs"]
               for k in output["kernels"]]
    assert {(output, k["a"]["name"]) for output, k in changed} == fusing
    assert {output for output, _ in fusing} == {"forward", "backward"}
    assert all(k["status"] == "changed" and k["source_diff"] for _, k in changed)
    assert (summary["kernels_added"], summary["kernels_removed"], summary["kernels_changed"]) == (
        0, 0, len(fusing))


def test_same_program_twice_diffs_empty(runs):
    result = tcexplore.diff(runs["relu"], runs["relu_again"])
    assert result.empty, result.to_text()
    assert all(v == 0 for v in result.summary.values())
    assert {entry["status"] for entry in result.to_dict()["compiles"]} == {"same"}


def test_cli_writes_valid_json_and_html_and_exits_1_on_differences(runs, tmp_path, capsys):
    out_json, out_html = tmp_path / "d.json", tmp_path / "d.html"
    code = cli.main(["diff", str(runs["relu"]), str(runs["gelu"]), "--json", str(out_json),
                     "--html", str(out_html)])
    assert code == 1
    assert "~ h_1: torch.relu -> torch._C._nn.gelu" in capsys.readouterr().out
    loaded = load_diff(out_json)  # validated against tcexplore-diff-1.schema.json
    assert list(loaded.summary) == list(SUMMARY_KEYS)
    page = out_html.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert "cpp_fused_gelu_mul_0" in page
    assert cli.main(["diff", str(runs["relu"]), str(runs["relu_again"])]) == 0
    assert cli.main(["diff", str(runs["relu"]), str(tmp_path / "missing.json")]) == 2


def test_notebook_outputs_diff_like_the_saved_documents(runs):
    """The browser diffs the documents of notebook outputs; they must give the same diff."""
    full = [json.loads(runs[name].read_text()) for name in ("relu", "gelu")]
    shown = [display_document(doc) for doc in full]
    assert tcexplore.diff(*shown).to_dict() == tcexplore.diff(*full).to_dict()


def test_python_diff_of_the_shared_fixture_is_the_pinned_result():
    """extension/src/__tests__/docdiff.spec.ts pins the TypeScript diff to the same file."""
    result = tcexplore.diff(FIXTURE / "relu.json", FIXTURE / "gelu.json", labels=("relu", "gelu"))
    assert result.to_dict() == json.loads((FIXTURE / "expected.json").read_text())


def _fixture(name: str) -> dict:
    return json.loads((FIXTURE / f"{name}.json").read_text())


def test_a_compile_pairs_across_files_only_when_nothing_in_its_own_file_does():
    """extension/src/__tests__/docdiff.spec.ts checks the TypeScript diff alike."""
    a, b = _fixture("relu"), _fixture("gelu")
    moved = json.loads(json.dumps(b).replace("tests/fixtures/docdiff/regenerate.py",
                                             "elsewhere/train_v2.py"))
    same_file, across = tcexplore.diff(a, b).to_dict(), tcexplore.diff(a, moved).to_dict()
    for plain, paired in zip(same_file["compiles"], across["compiles"]):
        assert paired["status"] == "changed"
        assert paired["changes"] == [*plain["changes"], {"field": "file", "a": "regenerate.py",
                                                         "b": "train_v2.py"}]
        assert _shape(paired) == _shape(plain)
    assert {**across["summary"], "compiles_changed": 0} == {**same_file["summary"],
                                                            "compiles_changed": 0}
    both = json.loads(json.dumps(moved))
    both["compiles"].append(copy.deepcopy(b["compiles"][0]))  # `step` in its own file too
    entries = tcexplore.diff(a, both).to_dict()["compiles"]
    assert [(e["status"], [c["field"] for c in e["changes"]]) for e in entries] == [
        ("changed", ["FX graph cache key: gm"]), ("changed", ["file"]), ("added", [])]


def _shape(entry):
    """A compile entry's nodes and kernels as statuses, targets and names."""
    return ([(g["graph"], n["status"], (n["a"] or {}).get("target"), (n["b"] or {}).get("target"),
              n["changes"]) for g in entry["graphs"] for n in g["nodes"]],
            [(o["output"], k["status"], (k["a"] or {}).get("name"), (k["b"] or {}).get("name"))
             for o in entry["outputs"] for k in o["kernels"]])


def test_explorations_of_one_process_pair_by_their_place_in_each_document():
    """relu, gelu and relu again were explored in one process (regenerate.py): torch
    numbered the step's compiles 0/0, 2/0, 4/0 (and their resume functions' 1/0, 3/0, 5/0).
    relu again is the same program: only its status differs, a hit in Inductor's FX graph
    cache that relu filled. docdiff.spec.ts checks the TypeScript diff alike."""
    entries = tcexplore.diff(_fixture("relu"), _fixture("relu_again")).to_dict()["compiles"]
    assert [(e["status"], e["a"]["id"], e["b"]["id"]) for e in entries] == [
        ("changed", "0/0", "4/0"), ("same", "1/0", "5/0")]
    assert entries[0]["changes"] == [{"field": "status", "a": "ok", "b": "cache_hit"}]
    changed = tcexplore.diff(_fixture("relu"), _fixture("gelu")).to_dict()["compiles"]
    assert [(e["status"], e["a"]["id"], e["b"]["id"]) for e in changed] == [
        ("changed", "0/0", "2/0"), ("same", "1/0", "3/0")]


def test_documents_written_before_frame_compile_index_pair_by_torchs_numbers():
    old = [_fixture(name) for name in ("relu", "relu_again")]
    for record in (r for doc in old for r in doc["compiles"]):
        del record["frame_compile_index"]
    summary = tcexplore.diff(*old).summary  # each a frame's first compile (0/0 and 4/0)
    assert (summary["compiles_added"], summary["compiles_removed"], summary["compiles_changed"]) == (
        0, 0, 1)
    for record in old[1]["compiles"]:  # as a %%tcompile cell run again numbers them (0/2)
        record["frame_compile_id"] = 2
    summary = tcexplore.diff(*old).summary
    assert (summary["compiles_added"], summary["compiles_removed"], summary["compiles_changed"]) == (
        2, 2, 0)


def test_a_resume_function_whose_break_moved_still_pairs():
    moved = _fixture("relu_again")
    for record in moved["compiles"]:
        record["frame"]["line"] += 3
        record["frame"]["function"] = re.sub(r"_at_39$", "_at_42", record["frame"]["function"])
    entries = tcexplore.diff(_fixture("relu"), moved).to_dict()["compiles"]
    assert [(e["status"], e["b"]["frame"]["function"]) for e in entries] == [
        ("changed", "step"), ("same", "torch_dynamo_resume_in_step_at_42")]  # step: its status


def test_moved_frames_and_per_process_guard_ids_are_not_differences():
    a, b = _fixture("relu"), _fixture("relu")
    for record in b["compiles"]:
        record["frame"]["line"] += 5
        for guard in record["guards"]:
            guard["expression"] = re.sub(r"(___check_(?:obj|type)_id\(.*?, )(\d+)\)",
                                         lambda m: f"{m[1]}{int(m[2]) + 4096})", guard["expression"])
            for field in ("source", "expression"):  # Dynamo's installed globals, numbered
                if guard[field]:
                    guard[field] = guard[field].replace("__builtins_dict___1'", "__builtins_dict___9'")
    assert tcexplore.diff(a, b).empty
    b["compiles"][0]["guards"].append({"type": "EQUALS_MATCH", "source": "G['act']",
                                       "expression": "G['act'] == 'gelu'", "user_code": None,
                                       "user_location": None})
    assert tcexplore.diff(a, b).summary["guards_added"] == 1


def test_html_escapes_hostile_node_names_and_code():
    evil = '<img src=x onerror="alert(1)">'
    a, b = _fixture("relu"), _fixture("gelu")
    b["compiles"][0]["dynamo_graph"]["nodes"][-2]["name"] = evil
    b["compiles"][0]["output_codes"][0]["kernels"][0]["source"] += evil
    page = tcexplore.diff(a, b, labels=(evil, "b")).to_html()
    assert evil not in page and "<img" not in page
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in page


def test_the_report_names_each_side_once():
    """Default labels are the letters: no "A | A" row (the extension: diffview.spec.ts)."""
    plain = tcexplore.diff(_fixture("relu"), _fixture("gelu")).to_html()
    sides = plain.split('class="tcx-sides"')[1].split("</table>")[0]
    assert "document" not in sides and sides.count("<td>A</td>") == 1
    named = tcexplore.diff(_fixture("relu"), _fixture("gelu"), labels=("relu", "gelu")).to_html()
    sides = named.split('class="tcx-sides"')[1].split("</table>")[0]
    assert "document" in sides and "<td>relu</td>" in sides


def test_a_diff_displays_in_a_notebook_as_its_own_mime_type():
    result = tcexplore.diff(_fixture("relu"), _fixture("gelu"))
    bundle = result._repr_mimebundle_()
    assert set(bundle) == {MIME_TYPE, "text/html", "text/plain"}
    assert bundle[MIME_TYPE]["schema"] == "tcexplore-diff/1"
    assert "tcx-report" in bundle["text/html"]
    assert bundle["text/plain"].startswith("tcexplore diff: A -> B")


def test_unified_kernel_diff_is_difflib_format():
    a, b = _fixture("relu"), _fixture("gelu")
    x = a["compiles"][0]["output_codes"][0]["kernels"][0]["source"].split("\n")
    y = b["compiles"][0]["output_codes"][0]["kernels"][0]["source"].split("\n")
    expected = "\n".join(difflib.unified_diff(x, y, "a", "b", lineterm=""))
    assert unified(x, y, x, y, "a", "b") == expected


def test_fx_inputs_are_node_names_not_op_attributes():
    text = ('def forward(self, mul: "f32[4]", tangents_1: "f32[4]"):\n'
            '    mul_1: "f32[4]" = torch.ops.aten.mul.Tensor(tangents_1, 2)\n'
            '    return (mul_1,)\n')
    nodes = {n["name"]: n for n in parse_graph(text)["nodes"]}
    assert nodes["mul_1"]["args"] == ["tangents_1"]
    assert nodes["mul"]["users"] == []


def test_a_plain_dict_that_is_not_a_document_is_refused():
    bad = copy.deepcopy(_fixture("relu"))
    del bad["compiles"]
    with pytest.raises(tcexplore.DocumentError):
        tcexplore.diff(bad, _fixture("gelu"))


def test_capture_stores_the_masked_forms_both_diffs_compare():
    """Object ids, installed globals' counters, hashes, buffer numbers and FX's numbering are
    masked once, at capture (capture/parsers/identity.py); the extension's diff reads the
    stored forms (identity.ts), the Python diff the same functions."""
    from tcexplore.capture.parsers.identity import add_identity
    from tcexplore.docdiff.identity import guard_key, kernel_text, node_target

    def record(n: int, obj: int) -> dict:
        return {
            "frame": {"function": f"torch_dynamo_resume_in_f_at_{n}"},
            "guards": [{"type": "ID_MATCH", "source": f"G['__builtins_dict___{n}']['len']",
                        "expression": f"___check_obj_id(G['__builtins_dict___{n}']['len'], {obj})"}],
            "dynamo_graph": {"nodes": [{"name": f"arg{n}_1", "op": "placeholder",
                                        "target": f"arg{n}_1"}]},
            "output_codes": [{"kernels": [
                {"name": "extern_kernels.mm", "kind": "extern",
                 "source": f"extern_kernels.mm(buf{n}, mul_{n}, out=buf{n + 1})"},
                {"name": f"triton_poi_{n}", "kind": "triton",
                 "source": f"def triton_poi_{n}(): pass  # {'ab' * 16}{n}"}]}],
        }

    a, b = record(1, 140176378379248), record(6, 94624617429712)
    add_identity([a, b])
    assert a["unmoved_function"] == b["unmoved_function"] == "torch_dynamo_resume_in_f"
    assert guard_key(a["guards"][0]) == guard_key(b["guards"][0])
    assert a["guards"][0]["masked"]["expression"] == "___check_obj_id(G['__builtins_dict___?']['len'], ?)"
    assert node_target(a["dynamo_graph"]["nodes"][0]) == a["dynamo_graph"]["nodes"][0]["target_key"] == "arg1"
    (mm_a, k_a), (mm_b, k_b) = a["output_codes"][0]["kernels"], b["output_codes"][0]["kernels"]
    assert kernel_text(mm_a, {"mul_1": "mul_6"}) == kernel_text(mm_b) == "".join(
        t["text"] if t["text"] != "mul_1" else "mul_6" for t in mm_a["tokens"])
    assert kernel_text(k_a) == kernel_text(k_b) and k_a["hashes"] == [f"{'ab' * 16}1"]
