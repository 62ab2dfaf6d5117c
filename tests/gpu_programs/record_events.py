"""Record the fusion-map events of GPU programs for tests/capture/test_fusion_map.py to replay on CPU.

    python tests/gpu_programs/record_events.py OUT.json.gz PROGRAM.py [PROGRAM.py ...]

Runs each program under `tcexplore run` with TORCH_TRACE on and keeps, from its log, what
the fusion map reads: post-grad graphs, output code and provenance mappings.
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

from tcexplore.traces.log_file import read_trace_log

KEPT = ("inductor_post_grad_graph", "inductor_output_code",
        "inductor_provenance_tracking_node_mappings")


def kept(metadata: dict) -> bool:
    artifact = metadata.get("artifact") or {}
    return any(key in metadata for key in KEPT) or artifact.get("name") in KEPT


def record(program: Path, workdir: Path) -> list:
    workdir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, TORCH_TRACE=str(workdir / "trace"),
               TORCHINDUCTOR_CACHE_DIR=str(workdir / "inductor-cache"))
    subprocess.run([sys.executable, "-m", "tcexplore", "run", str(program), "--json",
                    str(workdir / "doc.json")], env=env, check=True)
    (log,) = sorted((workdir / "trace").glob("*.log"))
    return [[metadata, payload] for _line, metadata, payload in read_trace_log(log).records()
            if kept(metadata)]


def main() -> None:
    out, programs = Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]]
    with tempfile.TemporaryDirectory() as tmp:
        recorded = {p.stem: record(p, Path(tmp) / p.stem) for p in programs}
    environment = {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0)}
    out.write_bytes(gzip.compress(json.dumps({"environment": environment,
                                              "programs": recorded}).encode()))
    print(f"wrote {out}: {environment}, " + ", ".join(f"{k} {len(v)} events"
                                                      for k, v in recorded.items()))


if __name__ == "__main__":
    main()
