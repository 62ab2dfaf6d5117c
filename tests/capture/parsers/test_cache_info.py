"""capture/parsers/cache_info.py on torch 2.13's FX graph cache events: a miss, then a hit of
the same key in the same cache folder (the first components of each; how: the excerpt's
regenerate.py)."""

from __future__ import annotations

import json

from tcexplore.capture.parsers.cache_info import MAX_VALUE_CHARS, cache_details, key_components

from ...excerpts import excerpt

CACHE = json.loads(excerpt("cached.fx_graph_cache.json"))


def test_each_key_component_is_read_by_name_with_its_hash():
    details = cache_details(CACHE["miss"])
    components = details["key_components"]
    assert len(components) == len(CACHE["miss"]["components"]) and "key_components_unread" not in details
    by_name = {c["name"]: c for c in components}
    assert by_name["fx_kwargs[is_inference]"]["value"] == "True"
    assert by_name["provenance_tracking_level"]["value"] == "2"
    for component, line in zip(components, CACHE["miss"]["components"]):
        assert line.startswith(f"[{component['hash']}] {component['name']}: ")


def test_a_long_value_is_cut_and_its_hash_still_tells_it_apart():
    graph = next(c for c in key_components(CACHE["miss"]["components"])[0] if c["name"] == "gm")
    assert graph["value"].startswith("<lambda>()") and len(graph["value"]) <= MAX_VALUE_CHARS
    assert "\n" in graph["value"]  # the graph module's text, over several lines


def test_a_hit_of_the_same_key_says_the_time_it_saved():
    miss, hit = cache_details(CACHE["miss"]), cache_details(CACHE["hit"])
    assert CACHE["hit"]["key"] == CACHE["miss"]["key"]
    assert hit["key_components"] == miss["key_components"]
    assert hit["time_saved_ms"] == round(CACHE["hit"]["time_saved_ns"] / 1e6, 3) > 0
    assert "time_saved_ms" not in miss


def test_lines_not_in_torchs_form_are_counted_not_read():
    lines = CACHE["miss"]["components"][:3] + ["no hash here", 42]
    assert key_components(lines)[1] == 2
    assert cache_details({"components": "not a list"}) == {}
