#!/usr/bin/env python
"""How fast does the JupyterLab extension draw a big capture, and how big is the notebook?

Captures a 12-layer GPT-style model (benchmarks/gpt_model.py: plain torch modules, forward
and backward, on CPU) with ``tcexplore.capture()``, saves a notebook whose one output is
that exploration's MIME bundle, opens it in JupyterLab in headless Chromium (no kernel)
and measures, in the page:

* Overview: from the notebook-open command to the explorer's tabs and findings on screen;
* Graphs tab: from the click to the Dynamo graph drawn (big graphs open collapsed);
* full graph: from "open all" to every node of the Dynamo graph drawn;
* zoom and pan on the full graph: the mean time of a zoom step (Ctrl+wheel) and of a pan
  step (wheel) until painted, over 10 steps each;

each after two animation frames (the browser has painted). Targets: Overview <= 1 s,
full graph <= 3 s, notebook < 5 MB. Needs chromium, playwright and jupyterlab (the
browser tests' requirements).

    python benchmarks/render_speed.py                 # capture (a few minutes on 2 cores), then measure
    python benchmarks/render_speed.py --document gpt.json --shots shots/
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from tests.lab_support import (  # noqa: E402
    chromium_page,
    dismiss_kernel_dialog,
    lab_server,
    missing,
    write_notebook,
)

OVERVIEW_S, GRAPH_S, NOTEBOOK_MB, STEP_S = 1.0, 3.0, 5.0, 0.1


def capture_gpt(layers: int) -> dict:
    import torch  # noqa: PLC0415
    from gpt_model import GPT  # noqa: PLC0415

    import tcexplore  # noqa: PLC0415

    torch.manual_seed(0)
    model = GPT(layers=layers)
    tokens = torch.randint(0, 256, (2, 16))
    began = time.perf_counter()
    with tcexplore.capture() as session:
        torch.compile(model)(tokens).float().pow(2).mean().backward()
    print(f"capture: {time.perf_counter() - began:.0f} s for {layers} layers, forward and backward")
    return session.document.data


def timed(page, action: str, selector: str, count: int) -> float:
    """Seconds from running ``action`` (JS) until ``count`` elements match ``selector``, painted."""
    return (
        page.evaluate(f"""async () => {{
      const t0 = performance.now();
      {action}
      while (document.querySelectorAll({json.dumps(selector)}).length < {count}) {{
        await new Promise(r => requestAnimationFrame(r));
      }}
      await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
      return performance.now() - t0;
    }}""")
        / 1000
    )


def measure(notebook: Path, dynamo_nodes: int, shots: Path | None, work: Path) -> dict[str, float]:
    with lab_server(notebook.parent, work) as lab, chromium_page() as page:
        page.goto(lab.url())
        page.wait_for_selector(".jp-DirListing", timeout=90_000)
        opened = timed(
            page,
            f"window.jupyterapp.commands.execute('docmanager:open', {{path: '{notebook.name}'}});",
            ".tcx-explorer .tcx-findings li",
            1,
        )
        dismiss_kernel_dialog(page)
        if shots:
            page.screenshot(path=str(shots / "big-overview.png"))
        graphs = timed(
            page,
            "document.querySelector('.tcx-explorer [data-tab=graphs][role=tab]').click();",
            ".tcx-explorer .tcx-graph-svg .tcx-node",
            1,
        )
        if shots:
            page.locator(".tcx-explorer").first.screenshot(
                path=str(shots / "big-graphs-collapsed.png")
            )
        expanded = timed(
            page,
            "[...document.querySelectorAll('.tcx-explorer [role=tabpanel]:not([hidden]) button')]"
            ".find(b => b.textContent === 'open all').click();",
            ".tcx-explorer .tcx-graph-svg .tcx-node",
            dynamo_nodes,
        )
        if shots:
            page.locator(".tcx-explorer").first.screenshot(
                path=str(shots / "big-graphs-expanded.png")
            )
        steps = {
            kind: page.evaluate(f"""async () => {{
          const svg = document.querySelector('.tcx-explorer [role=tabpanel]:not([hidden]) .tcx-graph-svg');
          const box = svg.getBoundingClientRect();
          const t0 = performance.now();
          for (let i = 0; i < 10; i++) {{
            svg.dispatchEvent(new WheelEvent('wheel', {{ deltaY: {delta}, ctrlKey: {ctrl}, clientX: box.left + 200,
                                                       clientY: box.top + 200, bubbles: true, cancelable: true }}));
            await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
          }}
          return (performance.now() - t0) / 10;
        }}""")
            / 1000
            for kind, delta, ctrl in (("zoom_step_s", -100, "true"), ("pan_step_s", 120, "false"))
        }
        errors = list(page.errors)
    if errors:
        raise SystemExit(f"page errors: {errors}")
    return {"overview_s": opened, "graphs_tab_s": graphs, "full_graph_s": expanded, **steps}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--layers", type=int, default=12)
    parser.add_argument(
        "--document", type=Path, help="reuse a saved capture (JSON) instead of capturing"
    )
    parser.add_argument("--save-document", type=Path, help="also write the capture here")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--shots", type=Path, help="folder for screenshots")
    args = parser.parse_args()
    reason = missing()
    if reason:
        print(f"render_speed: cannot run: {reason}")
        return 2
    from tcexplore import Document, Exploration  # noqa: PLC0415

    data = json.loads(args.document.read_text()) if args.document else capture_gpt(args.layers)
    if args.save_document:
        args.save_document.write_text(json.dumps(data))
    record = data["compiles"][0]
    dynamo_nodes = len(record["dynamo_graph"]["nodes"])
    print(
        f"graphs: Dynamo {dynamo_nodes} nodes, "
        + ", ".join(f"AOT {k} {len(g['nodes'])}" for k, g in record["aot_graphs"].items())
        + ", post-grad "
        + " + ".join(str(len(g["nodes"])) for g in record["post_grad_graphs"])
        + f"; document {len(json.dumps(data)) / 1e6:.1f} MB of JSON"
    )
    bundle = Exploration(Document(data))._repr_mimebundle_()
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    runs = []
    with tempfile.TemporaryDirectory(prefix="tcx-render-") as tmp:
        root = Path(tmp) / "root"
        root.mkdir()
        notebook = write_notebook(root / "gpt.ipynb", [bundle])
        size_mb = notebook.stat().st_size / 1e6
        for rep in range(args.reps):
            work = Path(tmp) / f"work{rep}"
            work.mkdir()
            runs.append(measure(notebook, dynamo_nodes, args.shots if rep == 0 else None, work))
    figures = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
    print(f"saved notebook: {size_mb:.2f} MB (target < {NOTEBOOK_MB} MB)")
    print(f"Overview appears: {figures['overview_s']:.2f} s (target <= {OVERVIEW_S} s)")
    print(f"Graphs tab, collapsed: {figures['graphs_tab_s']:.2f} s")
    print(
        f"full graph ({dynamo_nodes} nodes expanded): {figures['full_graph_s']:.2f} s (target <= {GRAPH_S} s)"
    )
    print(
        f"on it, a zoom step {figures['zoom_step_s'] * 1000:.0f} ms, a pan step {figures['pan_step_s'] * 1000:.0f} ms "
        f"(painted; target <= {STEP_S * 1000:.0f} ms)"
    )
    print(
        f"(medians of {args.reps} page loads; each: {[{k: round(v, 2) for k, v in r.items()} for r in runs]})"
    )
    ok = (
        size_mb < NOTEBOOK_MB
        and figures["overview_s"] <= OVERVIEW_S
        and figures["full_graph_s"] <= GRAPH_S
        and max(figures["zoom_step_s"], figures["pan_step_s"]) <= STEP_S
    )
    print("PASS" if ok else "MISSES A TARGET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
