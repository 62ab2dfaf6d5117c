"""Sequence alignment: which items of two sequences correspond.

Used for graph nodes (keyed by op and target, never by name: names are renumbered) and
for the lines of a unified diff. Spelled step for step like
``extension/src/model/align.ts``; ``tests/fixtures/docdiff`` pins both to one result.

1. The common prefix and suffix match (a one-op change in a big graph costs nothing more).
2. The middle is aligned by a longest common subsequence, preferring the earliest match;
   a middle over :data:`LCS_CELLS` cells is not searched (``approximate``) and falls to 3.
3. In each gap between matches, items are paired from the end of the gap while
   ``can_pair`` allows: a replaced run's last item is what later items consume
   (``relu`` -> the last op of ``gelu``'s decomposition). The rest are removed/added.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

LCS_CELLS = 1_000_000  # the middle's len(a) * len(b) above which no LCS is searched

Row = tuple["int | None", "int | None"]


def matches(a: Sequence[Hashable], b: Sequence[Hashable]) -> tuple[list[tuple[int, int]], bool]:
    """Index pairs of equal keys, in order, and whether the middle was too big to search."""
    n, m = len(a), len(b)
    start = 0
    while start < n and start < m and a[start] == b[start]:
        start += 1
    end = 0
    while end < n - start and end < m - start and a[n - 1 - end] == b[m - 1 - end]:
        end += 1
    found = [(i, i) for i in range(start)]
    rows, cols = n - start - end, m - start - end
    approximate = rows * cols > LCS_CELLS
    if not approximate:
        found += [(start + i, start + j) for i, j in _lcs(a[start : n - end], b[start : m - end])]
    found += [(n - end + k, m - end + k) for k in range(end)]
    return found, approximate


def _lcs(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple[int, int]]:
    n, m = len(a), len(b)
    width = m + 1
    table = [0] * ((n + 1) * width)  # table[i * width + j]: LCS length of a[i:], b[j:]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            if a[i] == b[j]:
                table[i * width + j] = table[(i + 1) * width + j + 1] + 1
            else:
                table[i * width + j] = max(table[(i + 1) * width + j], table[i * width + j + 1])
    found = []
    i = j = 0
    while i < n and j < m:
        if a[i] == b[j]:
            found.append((i, j))
            i += 1
            j += 1
        elif table[(i + 1) * width + j] >= table[i * width + j + 1]:
            i += 1
        else:
            j += 1
    return found


def rows(
    n: int, m: int, found: list[tuple[int, int]], can_pair: Callable[[int, int], bool]
) -> list[Row]:
    """Every index of both sides once, in order: ``(i, j)`` pairs, ``(i, None)`` removed,
    ``(None, j)`` added. Gaps between matches are paired from their end (see above)."""
    out: list[Row] = []
    prev_i = prev_j = 0
    for i, j in found:
        out += _gap(list(range(prev_i, i)), list(range(prev_j, j)), can_pair)
        out.append((i, j))
        prev_i, prev_j = i + 1, j + 1
    return out + _gap(list(range(prev_i, n)), list(range(prev_j, m)), can_pair)


def _gap(gap_a: list[int], gap_b: list[int], can_pair: Callable[[int, int], bool]) -> list[Row]:
    tail: list[Row] = []
    while gap_a and gap_b and can_pair(gap_a[-1], gap_b[-1]):
        tail.insert(0, (gap_a.pop(), gap_b.pop()))
    return [(i, None) for i in gap_a] + [(None, j) for j in gap_b] + tail
