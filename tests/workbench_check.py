"""Check reproducers against the compiled module, each side in a fresh process.

``snapshot DOC OUT``: write the reproducer of every launch of every kernel (``OUT/<n>.py``);
load every output-code module of the document (its text, as Inductor
wrote it), build its inputs with ``get_args()`` (seeded), and run ``call()`` with a line
tracer that saves, at every kernel launch, the launch's arguments before and after it (and
an extern call's result) to ``OUT/<n>.pt``, aliasing kept; ``OUT/launches.json`` lists them.

``replay DIR``: for each launch, run its reproducer file (``DIR/<n>.py``) as a module, check
that ``make_args()`` builds arguments of the recorded sizes, strides and dtypes, launch
ORIGINAL on the saved arguments with the reproducer's ``launch()`` and compare every
tensor bit for bit with what the compiled module produced; then run its ``main()`` (the
compare-and-time workbench) and keep what it printed. Prints one JSON line per launch.
"""

from __future__ import annotations

import contextlib
import io
import json
import runpy
import sys
from pathlib import Path

import torch

from tcexplore.workbench import all_kernels
from tcexplore.workbench.reproducer import slice_launch

RESULT = "__result__"


def _cloner():
    """Clones that keep aliasing: tensors sharing a storage share the cloned storage."""
    storages: dict = {}

    def clone(value):
        if isinstance(value, (tuple, list)):
            return type(value)(clone(v) for v in value)
        if not isinstance(value, torch.Tensor):
            return value
        storage = value.untyped_storage()
        key = (storage.data_ptr(), str(value.device))
        if key not in storages:
            storages[key] = storage.clone()
        out = torch.empty(0, dtype=value.dtype, device=value.device)
        return out.set_(storages[key], value.storage_offset(), value.size(), value.stride())

    return clone


def snapshot(doc_path: str, out_dir: str) -> None:
    data = json.loads(Path(doc_path).read_text())
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    listing = []
    by_output: dict[str, list] = {}
    for kernel in all_kernels(data):
        launches = 1 if kernel.kind == "extern" else len(kernel.calls)
        for index in range(1, launches + 1):
            launch = slice_launch(kernel, index)
            number = len(listing)
            (out / f"{number}.py").write_text(kernel.reproducer(index))
            listing.append({"number": number, "kernel": kernel.qualified_name, "launch": index,
                            "kind": kernel.kind, "atomic": "atomic_add" in kernel.source})
            output = kernel.qualified_name.rsplit(":", 1)[0]
            by_output.setdefault(output, [kernel.output_code, {}])[1][launch.line] = (
                number, launch.params, launch.result)
    for code, at_line in by_output.values():
        _run_traced(code, at_line, out)
    (out / "launches.json").write_text(json.dumps(listing))


def _run_traced(code: str, at_line: dict, out: Path) -> None:
    filename = f"<output code {len(code)}>"
    namespace = {"__name__": "tcx_output_code", "__file__": filename}
    exec(compile(code, filename, "exec"), namespace)  # noqa: S102 - Inductor's own module
    pending: dict = {}  # frame -> (number, params, result, before)

    def local(frame, event, _):
        if frame in pending and event in ("line", "return"):
            number, params, result, before = pending.pop(frame)
            clone = _cloner()
            after = {p: clone(frame.f_locals[p]) for p in params}
            if result:
                after[RESULT] = clone(frame.f_locals[result])
            torch.save({"before": before, "after": after}, out / f"{number}.pt")
        if event == "line" and frame.f_lineno in at_line:
            number, params, result = at_line[frame.f_lineno]
            clone = _cloner()
            pending[frame] = (number, params, result,
                              {p: clone(frame.f_locals[p]) for p in params})
        return local

    def trace(frame, event, _):
        return local if frame.f_code.co_filename == filename else None

    torch.manual_seed(0)
    args = namespace["get_args"]()
    sys.settrace(trace)
    try:
        namespace["call"](list(args))
    finally:
        sys.settrace(None)
    if any(isinstance(a, torch.Tensor) and a.is_cuda for a in args):
        torch.cuda.synchronize()


def _meta(value):
    if isinstance(value, torch.Tensor):
        return [list(value.shape), list(value.stride()), str(value.dtype),
                value.device.type, value.storage_offset()]
    return value


def _differences(got: dict, want: dict, atomic: bool) -> list[str]:
    found = []
    for name, expected in want.items():
        actual = got[name]
        pairs = list(zip(actual, expected)) if isinstance(expected, (tuple, list)) else [
            (actual, expected)]
        for a, e in pairs:
            if not isinstance(e, torch.Tensor):
                continue
            if atomic:  # atomic adds: the order of additions, so the bits, vary run to run
                try:
                    torch.testing.assert_close(a, e, equal_nan=True)
                except AssertionError as exc:
                    found.append(f"{name}: {exc}")
                continue
            if a.dtype != e.dtype or a.shape != e.shape or not torch.equal(
                    a.reshape(-1).view(torch.uint8), e.reshape(-1).view(torch.uint8)):
                found.append(name)
    return found


def replay(directory: str) -> None:
    root = Path(directory)
    for entry in json.loads((root / "launches.json").read_text()):
        number = entry["number"]
        record = {"kernel": entry["kernel"], "launch": entry["launch"]}
        try:
            ns = runpy.run_path(str(root / f"{number}.py"), run_name="tcx_reproducer")
            saved = torch.load(root / f"{number}.pt", weights_only=True)
            before, after = saved["before"], saved["after"]
            record["written"] = [name for name in after if name == RESULT or _differences(
                {name: after[name]}, {name: before[name]}, False)]
            built = ns["make_args"](0)
            record["args_match"] = {k: _meta(v) for k, v in built.items()} == {
                k: _meta(v) for k, v in before.items()}
            kernel = ns["compile_kernel"](ns["ORIGINAL"])
            result = ns["launch"](kernel, **before)
            if any(isinstance(v, torch.Tensor) and v.is_cuda for v in before.values()):
                torch.cuda.synchronize()
            got = dict(before)
            if RESULT in after:
                got[RESULT] = result
            record["differences"] = _differences(got, after, entry["atomic"])
            stdout = io.StringIO()
            with contextlib.redirect_stdout(stdout):
                record["status"] = ns["main"](time_budget_s=0.02)
            record["printed"] = stdout.getvalue()
        except Exception as exc:  # noqa: BLE001 - reported to the test, which fails on it
            record["error"] = f"{type(exc).__name__}: {exc}"
        print(json.dumps(record), flush=True)


if __name__ == "__main__":
    command, *rest = sys.argv[1:]
    {"snapshot": snapshot, "replay": replay}[command](*rest)
