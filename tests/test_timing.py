"""The timing rule: when a measurement is noisy, and when it cannot tell faster from slower."""

from __future__ import annotations

import pytest

from tcexplore.measure import timing
from tcexplore.render import measurements


def test_speedup_interval_is_the_sign_test_interval_of_the_paired_ratios():
    # 100 rounds; round i: eager 2.0 + i/1000 s, compiled 1.0 s -> ratios 2.000 .. 2.099
    eager = [2.0 + i / 1000 for i in range(100)]
    low, high = timing.speedup_interval(eager, [1.0] * 100)
    # k = floor((100 - 1.96 * 10) / 2) = 40: the 41st and the 60th smallest ratio
    assert (low, high) == (pytest.approx(2.040), pytest.approx(2.059))


def test_few_samples_give_their_whole_range_and_one_inside_it_means_undecided():
    low, high = timing.speedup_interval([1.0, 1.2, 0.9, 1.1, 1.0, 0.95, 1.05],
                                        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    assert (low, high) == (0.9, 1.2)
    assert timing.speedup_interval([], []) is None


def test_the_report_reads_the_same_noise_threshold_as_the_measurement():
    assert measurements.NOISY_IQR_FRACTION == timing.NOISY_IQR_FRACTION
