"""Start fast: ``import tcexplore`` loads nothing heavy, and reading logs and documents
(import, ranks, diff, load, the renderers, repro's kernel list) never loads torch."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

FIXTURES = Path(__file__).parents[1] / "fixtures" / "docdiff"


def _run_without_torch(body: str, cwd: Path) -> None:
    """Run ``body`` in a fresh interpreter; fail if it loaded torch."""
    code = "import sys\n" + textwrap.dedent(body) + textwrap.dedent("""
        loaded = sorted(m for m in sys.modules if m == "torch" or m.startswith("torch."))
        assert not loaded, f"torch was imported: {loaded[:5]}"
    """)
    proc = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_import_tcexplore_loads_no_torch_schema_validator_or_renderer(tmp_path):
    _run_without_torch("""
        import tcexplore
        heavy = {"jsonschema", "jsonschema_rs", "pygments", "tcexplore.render.html",
                 "tcexplore.measure.explore", "tcexplore.docdiff"}
        assert not heavy & set(sys.modules), heavy & set(sys.modules)
        assert callable(tcexplore.capture) and callable(tcexplore.ranks)
    """, tmp_path)


def test_reading_logs_and_documents_loads_no_torch(program_runs, tmp_path):
    log = program_runs["training_step"].trace_log
    for rank in (0, 1):  # two ranks of one job, named as torch names them
        shutil.copy(log, tmp_path / f"dedicated_log_torch_trace_rank_{rank}_x.log")
    shutil.copy(FIXTURES / "relu.json", tmp_path / "relu.json")
    _run_without_torch("""
        import tcexplore
        from tcexplore.cli import main
        assert main(["import", "dedicated_log_torch_trace_rank_0_x.log", "--json", "doc.json",
                     "--html", "doc.html"]) == 0
        assert main(["ranks", ".", "--json", "ranks.json", "--html", "ranks.html",
                     "--jobs", "1"]) == 0
        doc = tcexplore.load("doc.json")
        doc.save("again.html")
        doc._repr_mimebundle_()
        tcexplore.load("ranks.json")._repr_mimebundle_()
        assert main(["diff", "doc.json", "relu.json"]) == 1
        assert main(["repro", "doc.json"]) == 0
        tcexplore.load_trace("dedicated_log_torch_trace_rank_1_x.log")
    """, tmp_path)
    assert json.loads((tmp_path / "doc.json").read_text())["summary"] == \
        program_runs["training_step"].document["summary"]
