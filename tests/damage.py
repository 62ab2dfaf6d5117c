"""Seeded damage to a TORCH_TRACE log: what a killed job, a full disk or a newer torch
leaves. Used by tests/traces/test_damaged_logs.py; ``python -m tests.damage LOG OUT SEED`` writes one.

Each damaged event line gets one of the kinds below; the others are left as torch wrote them.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path

KINDS = ("key_dropped", "wrong_type", "line_cut", "payload_cut")


def damage(text: bytes, seed: int, share: float = 0.10) -> tuple[bytes, Counter]:
    """``text`` with ``share`` of its event lines damaged, and how many of each kind."""
    rng = random.Random(seed)
    lines = text.split(b"\n")
    events = [i for i, line in enumerate(lines) if b"] {" in line[:120] and line[:1] != b"\t"]
    chosen = sorted(rng.sample(events, max(1, int(len(events) * share))))
    done: Counter = Counter()
    dropped: set[int] = set()
    for i in chosen:
        kind = rng.choice(KINDS)
        head, _, body = lines[i].partition(b"] ")
        if kind == "payload_cut":
            payload = range(i + 1, next((j for j in range(i + 1, len(lines))
                                         if lines[j][:1] != b"\t"), len(lines)))
            if len(payload) < 1:
                kind = "line_cut"
            else:
                keep = rng.randrange(len(payload))
                dropped.update(payload[keep:])
                if keep:
                    last = payload[keep - 1]
                    lines[last] = lines[last][:rng.randrange(1, max(2, len(lines[last])))]
        if kind in ("key_dropped", "wrong_type"):
            envelope = json.loads(body)
            key = rng.choice(list(envelope))
            if kind == "key_dropped":
                del envelope[key]
            else:
                envelope[key] = rng.choice([[], "x", {"a": 1}, 1.5])
            lines[i] = head + b"] " + json.dumps(envelope).encode()
        if kind == "line_cut":
            lines[i] = lines[i][:rng.randrange(len(head) + 3, len(lines[i]))]
        done[kind] += 1
    kept = [line for j, line in enumerate(lines) if j not in dropped]
    return b"\n".join(kept), done


if __name__ == "__main__":
    source, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    damaged, done = damage(Path(source).read_bytes(), seed)
    Path(out).write_bytes(damaged)
    print(dict(done))
