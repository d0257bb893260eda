"""Bootstrap confidence intervals, optionally resampling whole clusters (BCa: Efron 1987,
"Better bootstrap confidence intervals", JASA 82; clusters: Davison & Hinkley 1997, Bootstrap
Methods and their Application).

Matches that share a seed (seat rotations) are resampled together: the statistic is then a
ratio of cluster sums (Σ values / Σ counts), which equals the plain mean when every cluster
holds one match. Intervals come from :func:`scipy.stats.bootstrap` (BCa by default, or
percentile) with a seeded :class:`numpy.random.Generator`, so a report is reproducible.
The per-cluster sums come from :func:`sim.core.estimators.cluster_sums`, the one place of the
cluster-aware estimators.

A large run has too many clusters to resample one by one: scipy draws n_resamples × G indices
and BCa's jackknife builds a G × (G − 1) array, 20 GB at G = 50,000. Above
:data:`LARGE_CLUSTERS` clusters, the clusters are dealt at random (from the interval's seeded
generator) into :data:`POOLED_GROUPS` groups and the groups are resampled: a cluster bootstrap
whose clusters are groups of seeds, valid because the groups are independent and identically
distributed, for any statistic that depends on the arrays through their sums (every statistic
here: means, ratios of sums, the balance of seat rates). Its coverage is checked against a
known truth in ``tests/analysis/test_bootstrap_pooled.py``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import stats

from sim.core.estimators import cluster_sums

__all__ = ["DEFAULT_RESAMPLES", "LARGE_CLUSTERS", "POOLED_GROUPS", "cluster_sums", "mean_ci", "bootstrap_ci", "pooled"]

#: Resamples per interval: Monte Carlo error of a 95 % bound about 1 % of the interval width.
DEFAULT_RESAMPLES = 2000
#: Above this many clusters they are pooled into :data:`POOLED_GROUPS` random groups first.
LARGE_CLUSTERS = 4_000
#: Groups of a pooled bootstrap: enough that the bootstrap's variance is within a few per cent
#: of the clusters' (its relative SE is about √(2/1000) = 4.5 % on the variance).
POOLED_GROUPS = 1_000


def pooled(arrays: tuple[np.ndarray, ...], rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Per-cluster arrays summed over :data:`POOLED_GROUPS` random groups of clusters (the arrays
    themselves up to :data:`LARGE_CLUSTERS` clusters)."""
    count = arrays[0].shape[0]
    if count <= LARGE_CLUSTERS:
        return arrays
    group = rng.permutation(count) % POOLED_GROUPS
    return tuple(np.bincount(group, weights=a, minlength=POOLED_GROUPS) for a in arrays)


def _ratio(sums, sizes, axis=-1):
    return np.sum(sums, axis=axis) / np.sum(sizes, axis=axis)


def mean_ci(
    values,
    clusters=None,
    confidence: float = 0.95,
    method: str = "BCa",
    n_resamples: int = DEFAULT_RESAMPLES,
    rng: np.random.Generator | int | None = 0,
) -> tuple[float, float, float]:
    """Mean of ``values`` with a bootstrap CI (cluster bootstrap when ``clusters`` is given).

    Without clusters (or with singleton clusters) this is exactly
    ``scipy.stats.bootstrap((values,), np.mean, method=method, rng=rng)``. With clusters the
    clusters are resampled with replacement and the statistic is Σ sums / Σ sizes.
    Degenerate samples (all values equal) give the point interval [v, v]; fewer than two
    clusters give NaN bounds.

    Args:
        values: observations (NaN dropped), in the unit of the quantity.
        clusters: cluster label per observation (e.g. the seed), or None.
        confidence: coverage of the interval.
        method: ``"BCa"`` or ``"percentile"`` (scipy names).
        n_resamples: bootstrap resamples.
        rng: a Generator or a seed for ``numpy.random.default_rng``.

    Returns:
        (mean, low, high) in the unit of ``values``.
    """
    sums, sizes = cluster_sums(values, clusters)
    if sizes.sum() == 0:
        return float("nan"), float("nan"), float("nan")
    estimate = float(sums.sum() / sizes.sum())
    if sums.size < 2:
        return estimate, float("nan"), float("nan")
    rng = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    sums, sizes = pooled((sums, sizes), rng)
    if np.all(sizes == 1):
        if np.all(sums == sums[0]):
            return estimate, estimate, estimate
        result = stats.bootstrap(
            (sums,),
            np.mean,
            confidence_level=confidence,
            method=method,
            n_resamples=n_resamples,
            rng=rng,
            vectorized=True,
        )
    else:
        if np.allclose(sums, estimate * sizes):
            return estimate, estimate, estimate
        result = stats.bootstrap(
            (sums, sizes),
            _ratio,
            paired=True,
            confidence_level=confidence,
            method=method,
            n_resamples=n_resamples,
            rng=rng,
            vectorized=True,
        )
    low, high = result.confidence_interval
    return estimate, float(low), float(high)


def bootstrap_ci(
    data: tuple[np.ndarray, ...],
    statistic: Callable[..., np.ndarray],
    confidence: float = 0.95,
    method: str = "percentile",
    n_resamples: int = DEFAULT_RESAMPLES,
    rng: np.random.Generator | int | None = 0,
) -> tuple[float, float, float]:
    """Estimate and paired bootstrap CI of any vectorised statistic of per-cluster arrays.

    Args:
        data: 1-D arrays of equal length (one entry per cluster), resampled together.
        statistic: ``statistic(*arrays, axis=-1)``, vectorised over the last axis.
        confidence, method, n_resamples, rng: as in :func:`mean_ci`.

    Returns:
        (estimate, low, high); a constant bootstrap distribution gives [estimate, estimate].
    """
    data = tuple(np.asarray(a, dtype=float) for a in data)
    estimate = float(statistic(*data, axis=-1))
    if data[0].shape[0] < 2:
        return estimate, float("nan"), float("nan")
    rng = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    data = pooled(data, rng)
    result = stats.bootstrap(
        data,
        statistic,
        paired=True,
        confidence_level=confidence,
        method=method,
        n_resamples=n_resamples,
        rng=rng,
        vectorized=True,
    )
    low, high = result.confidence_interval
    if np.isnan(low) and np.all(np.isclose(result.bootstrap_distribution, estimate)):
        return estimate, estimate, estimate
    return estimate, float(low), float(high)
