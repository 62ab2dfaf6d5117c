"""What JupyterLab's "Open as cell" asks the notebook's kernel for: one kernel's reproducer.

The extension (extension/src/model/workbench.ts) runs ``print_reproducer(REQUEST)`` in the
kernel, REQUEST being JSON: the output code the notebook output carries (its text and its
kernels), the compile id, the kernel's index and the environment. The reply is one line on
stdout, ``tcexplore-reproducer: {"cell": TEXT}`` or ``{"error": MESSAGE}``. Nothing of the
request is run: it is parsed as data and the reproducer is written as ``Kernel.reproducer``
writes it, so a saved notebook needs only a kernel with tcexplore installed.
"""

from __future__ import annotations

import json
from typing import Any

from .kernel import kernel_at
from .wrapper import WorkbenchError

REPLY_MARK = "tcexplore-reproducer:"


def reproducer_for(request: dict[str, Any]) -> str:
    output = request["output"]
    if not isinstance(output, dict) or not isinstance(request.get("kernel"), int):
        raise WorkbenchError("a malformed request")
    data = {
        "compiles": [{"id": str(request["compile_id"]), "output_codes": [output]}],
        "environment": request.get("environment") or {},
    }
    return kernel_at(data, 0, 0, request["kernel"]).reproducer()


def print_reproducer(request_json: str) -> None:
    try:
        reply: dict[str, str] = {"cell": reproducer_for(json.loads(request_json))}
    except (WorkbenchError, ValueError, KeyError, TypeError, IndexError) as exc:
        reply = {"error": str(exc)}
    print(REPLY_MARK + json.dumps(reply), flush=True)
