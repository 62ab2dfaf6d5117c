"""The timing rule: when a measurement is noisy, and when it cannot tell faster from slower."""

from __future__ import annotations

import random
import statistics

import pytest
import torch

from tcexplore.measure import timing


def _reference_interval(eager, compiled):
    """The same bootstrap, the slow way: each resample's pairs drawn (the same draws) and
    both medians taken by statistics.median."""
    n, generator, ratios = len(eager), torch.Generator().manual_seed(0), []
    for _ in range(0, timing.BOOTSTRAP_RESAMPLES, timing._RESAMPLES_AT_ONCE):
        for row in torch.randint(n, (timing._RESAMPLES_AT_ONCE, n), generator=generator).tolist():
            ratios.append(statistics.median(eager[i] for i in row)
                          / statistics.median(compiled[i] for i in row))
    low, high = torch.quantile(torch.tensor(ratios, dtype=torch.float64),
                               torch.tensor([0.025, 0.975], dtype=torch.float64)).tolist()
    return low, high


def test_speedup_interval_is_the_paired_bootstrap_of_the_ratio_of_medians():
    # A busy machine: every fourth round both sides ran five times slower.
    rng = random.Random(0)
    eager = [rng.gauss(0.88, 0.02) * (5 if i % 4 == 0 else 1) for i in range(96)]
    compiled = [rng.gauss(0.51, 0.02) * (5 if i % 4 == 0 else 1) for i in range(96)]
    low, high = timing.speedup_interval(eager, compiled)
    assert (low, high) == pytest.approx(_reference_interval(eager, compiled))
    speedup = statistics.median(eager) / statistics.median(compiled)
    assert low <= speedup <= high  # the interval qualifies the figure shown


def test_a_constant_ratio_has_no_width_and_one_inside_the_interval_means_undecided():
    assert timing.speedup_interval([2.0] * 10, [1.0] * 10) == [2.0, 2.0]
    low, high = timing.speedup_interval([1.0, 1.2, 0.9, 1.1, 1.0, 0.95, 1.05],
                                        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    assert low < 1 < high
    assert timing.speedup_interval([], []) is None


