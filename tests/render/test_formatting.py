"""Numbers as the views write them (tcexplore.common.formatting), pinned to the fixture the
extension's model/format.ts is pinned to (src/__tests__/format.spec.ts): one spelling in
both languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tcexplore.common.formatting import (
    count,
    fmt_duration,
    fmt_num,
    format_bytes,
    plural,
    rate,
    share,
    sig3,
    tick,
    time_us,
)

EXPECTED = json.loads((Path(__file__).parents[1] / "fixtures" / "formatting" / "expected.json")
                      .read_text(encoding="utf-8"))
FUNCTIONS = {"sig3": sig3, "duration_ms": fmt_duration, "duration_us": time_us,
             "bytes": format_bytes, "num": fmt_num, "count": count, "share": share,
             "rate": lambda args: rate(*args), "tick": tick, "plural": lambda args: plural(*args)}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_each_number_is_written_as_the_shared_fixture_says(name):
    assert [[value, FUNCTIONS[name](value)] for value, _ in EXPECTED[name]] == EXPECTED[name]


def test_the_fixture_covers_every_function():
    assert set(EXPECTED) - {"about"} == set(FUNCTIONS)


def test_no_figure_is_written_with_an_exponent():
    texts = [text for name in FUNCTIONS for _, text in EXPECTED[name]]
    assert not [t for t in texts if "e+" in t or "e-" in t]
