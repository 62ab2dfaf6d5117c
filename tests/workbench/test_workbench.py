"""The kernel workbench on CPU: every kernel of four programs, taken out and run on its own.

For each program, in fresh processes (tests/workbench_check.py): the compiled module runs
with a tracer that saves every launch's arguments before and after it; then every
reproducer is loaded, builds arguments of the recorded sizes, strides and dtypes, relaunches
ORIGINAL on the saved arguments — matching the compiled module bit for bit — and runs its
workbench (timing line, OK verdict). Planted edits run as `python kernel.py`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tcexplore import Document, Exploration
from tcexplore.cli import main as cli_main
from tcexplore.render.notebook import display_document
from tcexplore.workbench import WorkbenchError
from tcexplore.workbench.harness import describe_compile_error, pin_triton_config

PROGRAMS = ("training_step", "batchnorm_train", "dynamic_true", "inplace_mutation")
CHECK = Path(__file__).parents[1] / "workbench_check.py"
GELU = "0/0:forward:cpp_fused_gelu_0"  # training_step's first kernel


def _env(run) -> dict[str, str]:
    """The program's own Inductor cache (its compiled kernels and autotuning choices), and
    no pool of compile workers: everything is compiled there already."""
    return dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(run.workdir / "inductor-cache"),
                TORCHINDUCTOR_COMPILE_THREADS="1", PYTHONUNBUFFERED="1")


def _check(run, out: Path) -> list[dict]:
    doc = run.workdir / "doc.json"
    for command in (["snapshot", str(doc), str(out)], ["replay", str(out)]):
        proc = subprocess.run([sys.executable, str(CHECK), *command], env=_env(run),
                              capture_output=True, text=True, timeout=600, check=False)
        assert proc.returncode == 0, f"{run.name} {command[0]}:\n{proc.stderr[-3000:]}"
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


@pytest.fixture(scope="module")
def replays(program_runs, tmp_path_factory) -> dict[str, list[dict]]:
    root = tmp_path_factory.mktemp("workbench")
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(lambda n: (n, _check(program_runs[n], root / n)), PROGRAMS))


@pytest.fixture(scope="module")
def document(program_runs) -> Document:
    return Document(program_runs["training_step"].document)


def _launches(document: dict) -> list[tuple[str, str]]:
    return [(f"{c['id']}:{o['kind']}", k["name"]) for c in document["compiles"]
            for o in c["output_codes"] for k in o["kernels"] for _ in k["calls"]]


def test_every_launch_of_every_kernel_gets_a_reproducer(program_runs, replays):
    for name in PROGRAMS:
        records = replays[name]
        expected = _launches(program_runs[name].document)
        assert len(records) == len(expected) > 0, name
        assert [(r["kernel"].rsplit(":", 1)[0], r["kernel"].rsplit(":", 1)[1].split("#")[0])
                for r in records] == expected
        assert not [r for r in records if "error" in r], [r for r in records if "error" in r]
    kinds = {r["kernel"].split(":")[1] for r in replays["training_step"]}
    assert kinds == {"forward", "backward"}
    assert {"cpp", "extern"} <= {
        "extern" if "extern" in r["kernel"] or "torch.ops" in r["kernel"] else "cpp"
        for name in PROGRAMS for r in replays[name]}


def test_reproducers_build_arguments_of_the_recorded_sizes_strides_and_dtypes(replays):
    for name in PROGRAMS:
        for record in replays[name]:
            assert record["args_match"], (name, record["kernel"])


def test_reproducers_relaunch_the_kernel_bit_for_bit_like_the_compiled_module(replays):
    for name in PROGRAMS:
        for record in replays[name]:
            assert record["written"], (name, record["kernel"], "the launch wrote nothing")
            assert record["differences"] == [], (name, record["kernel"])


def test_reproducers_print_a_timing_and_an_ok_verdict(replays):
    for name in PROGRAMS:
        for record in replays[name]:
            lines = record["printed"].splitlines()
            assert record["status"] == 0, record
            assert lines[0].startswith(f"time {record['kernel']}: ORIGINAL "), lines
            assert lines[-1].startswith(f"OK {record['kernel']}: EDITED (unchanged) matches "
                                        "ORIGINAL bit for bit"), lines


def _run_edited(program_runs, tmp_path, old: str, new: str) -> subprocess.CompletedProcess:
    text = Document(program_runs["training_step"].document).kernel(GELU).reproducer()
    head, edited = text.split("\nEDITED = ", 1)
    assert old in edited
    path = tmp_path / "kernel.py"
    path.write_text(head + "\nEDITED = " + edited.replace(old, new, 1))
    return subprocess.run([sys.executable, str(path)], env=_env(program_runs["training_step"]),
                          capture_output=True, text=True, timeout=600, check=False)


@pytest.fixture(scope="module")
def planted(program_runs, tmp_path_factory) -> dict[str, subprocess.CompletedProcess]:
    edits = {"math": ("static_cast<float>(0.5)", "static_cast<float>(0.25)"),
             "syntax": ("auto tmp3 = tmp0 * tmp2;", "auto tmp3 = tmp0 * ;")}
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = pool.map(lambda item: (item[0], _run_edited(
            program_runs, tmp_path_factory.mktemp(item[0]), *item[1])), edits.items())
        return dict(runs)


def test_a_planted_math_edit_is_a_mismatch_and_exits_1(planted):
    proc = planted["math"]
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1, proc.stdout + proc.stderr[-2000:]
    assert lines[0].startswith(f"time {GELU}: ORIGINAL ")
    assert lines[-1].startswith(f"MISMATCH {GELU}: EDITED differs from ORIGINAL: buf1 differs: "
                                "Mismatched elements: 256 / 256")


def test_a_planted_syntax_error_is_one_line_naming_the_edited_line(planted):
    proc = planted["syntax"]
    assert proc.returncode == 2, proc.stdout + proc.stderr[-2000:]
    assert proc.stdout.count("\n") == 1, proc.stdout
    line = proc.stdout.strip()
    assert line.startswith(f"ERROR {GELU}: EDITED does not compile: line 17 of EDITED (")
    assert "kernel.py:" in line and "`auto tmp3 = tmp0 * ;`: error: expected primary-expression" in line
    assert "Traceback" not in proc.stdout + proc.stderr


def test_a_syntax_error_wrapped_by_torch_still_names_the_edited_line():
    source = "\nimport triton\n\n\ndef kernel(x):\n    y = x *\n    return y\n"
    try:
        try:
            compile(source, "/tmp/cache/ck.py", "exec")
        except SyntaxError as exc:  # how torch 2.11 reports a kernel module that does not load
            raise RuntimeError(f"Failed to import /tmp/cache/ck.py\nSyntaxError: {exc}") from exc
    except RuntimeError as wrapped:
        expected = "line 6 of EDITED: `y = x *`: SyntaxError: invalid syntax"
        assert describe_compile_error(wrapped, source) == expected
        assert describe_compile_error(RuntimeError(str(wrapped)), source) == expected


TRITON_POINTWISE = """
import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers, triton_heuristics

@triton_heuristics.pointwise(
    size_hints={'x': 4096},
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_relu_0'},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_relu_0(in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
"""  # the shape of torch 2.11's pointwise kernels (tests/workbench/test_workbench_gpu.py runs real ones)


def test_pinning_a_triton_config_swaps_the_decorator_and_keeps_line_numbers():
    pinned = pin_triton_config(TRITON_POINTWISE, {"XBLOCK": 256, "num_warps": 4})
    lines, before = pinned.split("\n"), TRITON_POINTWISE.split("\n")
    assert len(lines) == len(before) and lines[12:] == before[12:]
    assert lines[5] == ("@triton_heuristics.fixed_config(config={'XBLOCK': 256, 'num_warps': 4}, "
                        "filename=__file__, triton_meta={'signature': {'in_ptr0': '*fp32', "
                        "'xnumel': 'i32', 'XBLOCK': 'constexpr'}}, inductor_meta={'grid_type': "
                        "'Grid1D', 'kernel_name': 'triton_poi_fused_relu_0'}")
    assert "size_hints" not in pinned and "min_elem_per_thread" not in pinned
    compile(pinned, "kernel.py", "exec")
    with pytest.raises(ValueError, match="no @triton_heuristics decorator"):
        pin_triton_config("def f():\n    pass\n", {"XBLOCK": 1})


def test_a_kernel_carries_its_source_fused_nodes_ops_user_lines_and_output(document):
    kernel = document.kernel("cpp_fused_gelu_0")
    assert kernel.qualified_name == GELU
    assert (kernel.kind, kernel.compile_id, kernel.output_kind) == ("cpp", "0/0", "forward")
    assert 'extern "C"' in kernel.source and kernel.calls == ["cpp_fused_gelu_0(buf0, buf1)"]
    assert "erf" in kernel.post_grad_nodes and "torch.ops.aten.erf.default" in kernel.aten_ops
    assert [loc["file"].rsplit("/", 1)[-1] for loc in kernel.user_lines] == ["training_step.py"]
    assert Exploration(document).kernel(GELU).qualified_name == GELU


def test_an_ambiguous_name_lists_the_candidates_and_each_full_name_works(document):
    with pytest.raises(WorkbenchError) as info:
        document.kernel("extern_kernels.mm")
    assert "(or compile=..., output=...)" in str(info.value).splitlines()[0]
    candidates = [f"0/0:backward:extern_kernels.mm#{i}" for i in (1, 2, 3)]
    assert str(info.value).splitlines()[1:] == [f"  {c}" for c in candidates]
    assert [document.kernel(c).calls for c in candidates] == [
        [k.calls[0]] for k in document.kernels() if k.name == "extern_kernels.mm"]
    assert document.kernel("extern_kernels.mm#2", output="backward").qualified_name == candidates[1]
    assert document.kernel("backward:extern_kernels.mm#2").qualified_name == candidates[1]
    with pytest.raises(WorkbenchError, match="did you mean cpp_fused_gelu_0"):
        document.kernel("cpp_fused_gelu")


def test_untrusted_text_stays_inside_the_reproducers_docstring(program_runs):
    data = json.loads(json.dumps(program_runs["training_step"].document))
    hostile = '""" + __import__("os").system("echo pwned") + """ \\'
    data["compiles"][0]["output_codes"][0]["kernels"][0]["user_lines"][0]["code"] = hostile
    text = Document(data).kernel(GELU).reproducer()
    module = compile(text, "kernel.py", "exec")
    docstring = text.split('"""', 1)[1]
    assert module.co_consts[0].count(hostile) == 1 and "pwned" in docstring


def test_cli_repro_lists_kernels_and_writes_one_reproducer(program_runs, tmp_path, capsys):
    doc = str(program_runs["training_step"].workdir / "doc.json")
    assert cli_main(["repro", doc]) == 0
    assert f"{GELU}  cpp" in capsys.readouterr().out.splitlines()
    out = tmp_path / "kernel.py"
    assert cli_main(["repro", doc, "cpp_fused_gelu_0", "-o", str(out)]) == 0
    assert out.read_text() == Document.load(doc).kernel(GELU).reproducer()
    assert cli_main(["repro", doc, "extern_kernels.mm"]) == 2
    err = capsys.readouterr().err
    assert "0/0:backward:extern_kernels.mm#3" in err and "compile=" not in err
    assert f"(e.g. tcexplore repro {doc} 0/0:backward:extern_kernels.mm#1)" in err


def test_tkernel_puts_the_reproducer_in_the_next_cell(document, capsys):
    pytest.importorskip("IPython", reason="IPython is in the `notebook` extra")
    from IPython.core.error import UsageError  # noqa: PLC0415
    from IPython.core.interactiveshell import InteractiveShell  # noqa: PLC0415

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "tcexplore")
    shell.user_ns["run"] = Exploration(document)
    shell.run_line_magic("tkernel", "--from run")
    assert f"{GELU}  cpp" in capsys.readouterr().out
    shell.run_line_magic("tkernel", "0/0:backward:extern_kernels.mm#2 --from run")
    assert shell.rl_next_input == document.kernel("backward:extern_kernels.mm#2").reproducer()
    magics = shell.magics_manager.registry["TcompileMagics"]
    magics.last_exploration = None
    with pytest.raises(UsageError, match="no %%tcompile result yet"):
        magics.tkernel("cpp_fused_gelu_0")
    with pytest.raises(UsageError, match="names 3 kernels") as info:
        magics.tkernel("extern_kernels.mm --from run")
    assert "(e.g. %tkernel 0/0:backward:extern_kernels.mm#1)" in str(info.value)
    assert "compile=" not in str(info.value)


def test_the_notebook_output_carries_what_open_as_cell_needs(program_runs, capsys):
    from tcexplore.workbench.frontend import REPLY_MARK, print_reproducer  # noqa: PLC0415

    data = program_runs["training_step"].document
    shown = display_document(data)
    output = shown["compiles"][0]["output_codes"][1]
    request = {"compile_id": "0/0", "kernel": 1, "environment": shown["environment"],
               "output": {k: output[k] for k in ("kind", "text", "truncated", "kernels")}}
    print_reproducer(json.dumps(request))
    reply = json.loads(capsys.readouterr().out.removeprefix(REPLY_MARK))
    assert reply == {"cell": Document(data).kernel(
        f"0/0:backward:{output['kernels'][1]['name']}").reproducer()}
    print_reproducer(json.dumps({**request, "kernel": 99}))
    assert "no kernel 99" in capsys.readouterr().out


def test_a_first_timing_counts_launches_past_a_slow_first_launch():
    """A kernel whose first launch pays a one-off cost (loading, first touch) is still timed
    in samples of many launches, and the line says how many in plain words."""
    import re
    import time

    from tcexplore.workbench.harness import _time_both

    def kernel():
        seen = []

        def launch():
            if not seen:
                time.sleep(0.01)
            seen.append(1)
        return launch

    _, how = _time_both(lambda k: k(), [kernel(), kernel()], lambda seed: {}, 0, 0.02)
    m = re.fullmatch(r"median of (\d+) samples of (\d+) launches each, interleaved, "
                     r"after warm-up", how)
    assert m and int(m[2]) > 1, how
