"""capture/parsers/buffers.py on wrappers Inductor wrote: a CPU training step's (torch 2.13),
a user Triton kernel's and GPT-2's under dynamic shapes, on an H200 (torch 2.11)."""

from __future__ import annotations

import re

import pytest

from tcexplore.capture.parsers.buffers import parse_buffers, storage_bytes

from ...excerpts import excerpt

GPT2 = excerpt("hf_gpt2_ro.wrapper.txt")  # partition_0 and the Runner whose call() runs it
TRITON = excerpt("user_triton_empty_like.inductor_output_code.txt")
CPU = excerpt("tiny_train.inductor_output_code.txt")


def _body(text: str, name: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"^\s*def {name}\(", line))
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].strip() and len(lines[i]) - len(lines[i].lstrip()) <= indent), len(lines))
    return [line for line in lines[start + 1 : end] if line.strip()]


@pytest.mark.parametrize("text", [GPT2, TRITON, CPU], ids=["gpt2", "triton", "cpu"])
def test_every_allocation_of_each_generated_function_is_a_buffer(text):
    parsed = parse_buffers(text)
    assert parsed["functions"] and parsed["buffers"] == sum(len(f["buffers"]) for f in parsed["functions"])
    for fn in parsed["functions"]:
        allocated = [line.split(" = ")[0].strip() for line in _body(text, fn["name"])
                     if " = empty_strided" in line]
        assert [b["name"] for b in fn["buffers"]] == allocated


def test_sizes_given_by_symbols_are_listed_not_summed():
    (partition, call) = parse_buffers(GPT2)["functions"]
    assert (partition["name"], call["name"]) == ("partition_0", "call")
    assert call["buffers"] == []  # the Runner's call() only hands its inputs to partition_0
    assert partition["unsized"] == len(partition["buffers"]) > 10  # every size depends on s27
    assert all(b["bytes"] is None and b["device"] == "cuda" for b in partition["buffers"])
    buf7 = next(b for b in partition["buffers"] if b["name"] == "buf7")
    assert buf7["shape"] == ["2", "1", "s27", "s27"]  # its stride holds parentheses of its own
    assert partition["allocated_bytes"] == partition["planned_peak_bytes"] == 0


def test_a_buffer_reused_under_another_shape_is_one_storage_until_its_last_name_is_freed():
    (partition, _) = parse_buffers(GPT2)["functions"]
    names = {b["name"] for b in partition["buffers"]}
    expected = []
    for line in _body(GPT2, "partition_0"):
        found = re.match(r"^\s*(buf\d+) = (?:reinterpret_tensor\()?(buf\d+)\b.*; del \2\s+# reuse$", line)
        if found and found[2] in names:  # a storage Inductor allocated (not an extern op's result)
            expected.append((found[1], found[2]))
            names.add(found[1])
    assert [(r["name"], r["reuses"]) for r in partition["reuses"]] == expected
    assert ("buf5", "buf3") in expected and ("buf29", "buf7") in expected
    returned = set(re.findall(r"buf\d+", _body(GPT2, "partition_0")[-1]))
    storage_of = {r["name"]: r["reuses"] for r in partition["reuses"]}
    never_freed = {b["name"] for b in partition["buffers"] if b["freed_line"] is None}
    live_at_return = set()
    for name in returned:
        while name in storage_of:
            name = storage_of[name]
        live_at_return.add(name)
    assert never_freed == live_at_return & {b["name"] for b in partition["buffers"]}


def test_a_user_triton_kernels_output_is_counted_with_the_fused_kernel_after_it():
    (call,) = parse_buffers(TRITON)["functions"]
    assert [(b["name"], b["shape"], b["dtype"], b["device"], b["bytes"]) for b in call["buffers"]] == [
        ("buf0", ["4096"], "float32", "cuda", 4 * 4096), ("buf2", ["4096"], "float32", "cuda", 4 * 4096)]
    buf0, buf2 = call["buffers"]
    assert buf0["freed_line"] is not None and buf2["freed_line"] is None  # buf2 is returned
    assert call["planned_peak_bytes"] == call["allocated_bytes"] == 2 * 4 * 4096


def test_a_cpu_wrappers_bytes_add_up_and_its_peak_is_at_most_their_sum():
    parsed = parse_buffers(CPU)
    (call,) = parsed["functions"]
    assert call["unsized"] == 0 and call["buffers"]
    assert call["allocated_bytes"] == sum(b["bytes"] for b in call["buffers"]) > 0
    assert 0 < call["planned_peak_bytes"] <= call["allocated_bytes"] <= call["without_reuse_bytes"]
    assert parsed["planned_peak_bytes"] == call["planned_peak_bytes"]


def test_storage_bytes_spans_the_strides():
    assert storage_bytes([2, 8], [8, 1], "float32") == 64
    assert storage_bytes([8, 2], [1, 8], "float32") == 64  # a transposed layout
    assert storage_bytes([4, 4], [0, 1], "float16") == 8  # an expanded dimension
    assert storage_bytes([0, 8], [8, 1], "float32") == 0
    assert storage_bytes(None, [1], "float32") is None  # a symbolic size
    assert storage_bytes([2], [1], "float4_e2m1fn_x2") is None  # an item size not known here
