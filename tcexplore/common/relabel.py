"""Labelled file names in torch's text as their labels: ``/tmp/ipykernel_1/123.py:3`` ->
``cell [5], line 3``; also where torch cut the name's start (``mp/ipykernel_1/123.py:3`` in
a guard tree's comments). The report relabels the texts it shows (graph code, tracebacks,
guard trees); findings/ stores what the extension shows of torch's text already relabelled."""

from __future__ import annotations

import re


def relabel(text: str, labels: dict[str, str]) -> str:
    for file, label in labels.items():
        base = file.rpartition("/")[2]
        if not base or base not in text:
            continue

        def named(match: re.Match[str], file: str = file, label: str = label) -> str:
            if not file.endswith(match[1]):
                return match[0]  # another file with the same base name
            return f"{label}, line {match[2]}" if match[2] else label

        text = re.sub(r"([\w./-]*" + re.escape(base) + r")(?::(\d+))?", named, text)
    return text
