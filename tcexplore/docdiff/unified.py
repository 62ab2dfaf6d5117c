"""A unified diff (``diff -u`` format) of two texts, compared line by line through keys.

Lines are compared by their keys (the normalised text of :func:`identity.kernel_text`)
and shown as they were written; context lines show side A. Spelled step for step like
``extension/src/model/unified.ts``.
"""

from __future__ import annotations

from .align import matches

CONTEXT = 3  # unchanged lines around each change
MAX_LINES = 2000  # lines of one diff; the rest is cut with a marker line


def _range(start: int, length: int) -> str:
    """``start,length`` of a hunk header, 1-based, as diff -u and difflib write it."""
    if length == 1:
        return str(start + 1)
    if length == 0:
        return f"{start},0"
    return f"{start + 1},{length}"


def unified(
    a_lines: list[str],
    b_lines: list[str],
    a_keys: list[str],
    b_keys: list[str],
    a_name: str,
    b_name: str,
) -> str:
    """The diff, or "" when the keys are equal."""
    found, _ = matches(a_keys, b_keys)
    ops: list[tuple[str, int, int]] = []  # (tag, position in a, position in b)
    i = j = 0
    for mi, mj in [*found, (len(a_keys), len(b_keys))]:
        ops += [("-", k, j) for k in range(i, mi)]
        ops += [("+", mi, k) for k in range(j, mj)]
        if mi < len(a_keys):
            ops.append((" ", mi, mj))
        i, j = mi + 1, mj + 1
    changed = [n for n, op in enumerate(ops) if op[0] != " "]
    if not changed:
        return ""
    out = [f"--- {a_name}", f"+++ {b_name}"]
    n = 0
    while n < len(changed):
        first = changed[n]
        while n + 1 < len(changed) and changed[n + 1] - changed[n] <= 2 * CONTEXT + 1:
            n += 1
        lo, hi = max(0, first - CONTEXT), min(len(ops), changed[n] + CONTEXT + 1)
        hunk = ops[lo:hi]
        a_count = sum(1 for tag, _, _ in hunk if tag != "+")
        b_count = sum(1 for tag, _, _ in hunk if tag != "-")
        out.append(f"@@ -{_range(hunk[0][1], a_count)} +{_range(hunk[0][2], b_count)} @@")
        for tag, ai, bi in hunk:
            out.append(tag + (b_lines[bi] if tag == "+" else a_lines[ai]))
        n += 1
    if len(out) > MAX_LINES:
        out = out[:MAX_LINES] + [f"… {len(out) - MAX_LINES} more lines (truncated)"]
    return "\n".join(out)
