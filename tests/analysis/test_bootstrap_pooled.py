"""The pooled cluster bootstrap of large runs against a known truth.

Above :data:`analysis.bootstrap.LARGE_CLUSTERS` clusters, :func:`mean_ci` and
:func:`bootstrap_ci` resample random groups of clusters. Simulated here: seeds of two matches
whose lengths share a skewed (geometric) component, so the clusters are correlated and the
values far from normal, with the true mean known exactly. Asserted over repeated runs:
coverage within binomial error of the level, mean width within 10 % of 2 × 1.96 × the
estimate's true SD, and memory that does not grow with the square of the clusters.
"""

from __future__ import annotations

import tracemalloc

import numpy as np

from analysis.bootstrap import LARGE_CLUSTERS, bootstrap_ci, mean_ci

SEEDS = 6_000
assert SEEDS > LARGE_CLUSTERS
P_SHARED, P_OWN = 0.25, 0.4
#: E[length] = E[shared] + E[own], geometric on 1, 2, ... with mean 1/p
TRUE_MEAN = 1 / P_SHARED + 1 / P_OWN


def draw(rng: np.random.Generator, seeds: int = SEEDS) -> tuple[np.ndarray, np.ndarray]:
    shared = rng.geometric(P_SHARED, seeds)
    lengths = np.repeat(shared, 2) + rng.geometric(P_OWN, 2 * seeds)
    return lengths.astype(float), np.repeat(np.arange(seeds), 2)


def test_the_pooled_bootstrap_of_a_clustered_skewed_mean_covers_at_its_level_and_is_as_wide_as_its_sd():
    rng = np.random.default_rng(2024)
    reps, covered, widths, estimates = 200, 0, [], []
    for rep in range(reps):
        values, clusters = draw(rng)
        mean, low, high = mean_ci(values, clusters, 0.95, "BCa", n_resamples=1000, rng=rep)
        covered += low <= TRUE_MEAN <= high
        widths.append(high - low)
        estimates.append(mean)
    # 95 % of 200: sd 3.1 runs; the bounds are about ±3 sd
    assert 181 <= covered <= 199, covered
    ratio = np.mean(widths) / (2 * 1.96 * np.std(estimates, ddof=1))
    assert 0.9 <= ratio <= 1.1, ratio


def test_a_statistic_of_sums_pooled_covers_its_truth():
    rng = np.random.default_rng(7)

    def ratio(sums, sizes, axis=-1):
        return np.sum(sums, axis=axis) / np.sum(sizes, axis=axis)

    covered = 0
    for rep in range(200):
        values, clusters = draw(rng)
        sums = np.bincount(clusters, weights=values)
        sizes = np.bincount(clusters).astype(float)
        _, low, high = bootstrap_ci((sums, sizes), ratio, 0.95, "percentile", n_resamples=1000, rng=rep)
        covered += low <= TRUE_MEAN <= high
    assert 181 <= covered <= 199, covered


def test_fifty_thousand_clusters_take_memory_of_the_groups_not_of_their_square():
    values, clusters = draw(np.random.default_rng(1), seeds=50_000)
    tracemalloc.start()
    mean, low, high = mean_ci(values, clusters, 0.95, "BCa", rng=0)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert low < mean < high and abs(mean - TRUE_MEAN) < 0.1
    assert peak < 100 * 2**20, peak  # resampling clusters one by one: 2,000 × 50,000 × 8 B = 800 MB
