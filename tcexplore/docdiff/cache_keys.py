"""Which parts of a cache key changed between two runs of a compile, in torch's words:
every FX-graph and AOTAutograd cache event carries its key's components (``key_components``,
parsed at capture from torch's "[hash] name: value" lines), so a hit in one run and a miss
in the other is explained by the components whose values differ
(``inductor_config[max_fusion_size]: 64 -> 32``). A component is compared by torch's hash,
which is what enters the key: a value printed with an address (``<function ... at
0x7f...>``) differs from run to run where the hash, and the key, do not."""

from __future__ import annotations

from typing import Any

Data = dict[str, Any]
MAX_CHANGES = 12  # per cache of a compile
NAMES = {"fx_graph": "FX graph", "aotautograd": "AOTAutograd"}


def _components(record: Data, cache: str) -> dict[str, tuple[str, str]] | None:
    """name -> (hash, value): the hash is what enters the key (and tells apart values the
    document cut short)."""
    for entry in record.get("cache") or []:
        if entry.get("cache") == cache and isinstance(entry.get("key_components"), list):
            return {c["name"]: (c["hash"], c["value"]) for c in entry["key_components"]}
    return None


def cache_key_changes(x: Data, y: Data) -> list[Data]:
    """One change per key component whose hash differs, for each cache both runs keyed."""
    out = []
    for cache, name in NAMES.items():
        a, b = _components(x, cache), _components(y, cache)
        if a is None or b is None:
            continue
        names = [n for n in dict.fromkeys([*a, *b]) if _hash(a, n) != _hash(b, n)]
        for component in names[:MAX_CHANGES]:
            out.append(
                {
                    "field": f"{name} cache key: {component}",
                    "a": _value(a, component),
                    "b": _value(b, component),
                }
            )
    return out


def _hash(components: dict[str, tuple[str, str]], name: str) -> str | None:
    return components[name][0] if name in components else None


def _value(components: dict[str, tuple[str, str]], name: str) -> str | None:
    return components[name][1] if name in components else None
