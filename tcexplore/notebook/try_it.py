"""What JupyterLab's "Try it" asks the notebook's kernel for: one fix of a finding, tried.

The extension (extension/src/model/tryfix.ts) runs ``print_tried(REQUEST)`` in the kernel,
REQUEST being JSON: the document id of the output (an exploration or a ``%%tcompile`` cell
this kernel made, kept by measure/try_fixes.py) and the fix's label. Nothing of the request
is run: it names what to try among the settings that exploration's findings advise. The
reply is one line on stdout, ``tcexplore-tried: {"tried": RECORD}`` or ``{"error":
MESSAGE}``; a try that fails is a record with its error, never a traceback.
"""

from __future__ import annotations

import json
from typing import Any

from ..measure.try_fixes import try_fix

REPLY_MARK = "tcexplore-tried:"


def print_tried(request_json: str) -> None:
    try:
        request = json.loads(request_json)
        reply: dict[str, Any] = try_fix(str(request["document"]), str(request["label"]))
    except (ValueError, KeyError, TypeError) as exc:
        reply = {"error": f"a malformed request ({type(exc).__name__}: {exc})"}
    print(REPLY_MARK + json.dumps(reply), flush=True)
