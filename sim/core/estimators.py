"""Cluster-aware estimators shared by the experiments and the analysis (numpy and scipy only).

Matches that share a seed are correlated: under seat rotation every seed is played once per
rotation and a player keeps its own random streams, so the rotations of one seed form a
*cluster*; a variant that replays the baseline's seeds (common random numbers) is paired with
it seed by seed. Every estimator here takes the cluster of each observation (the ``seed``
column of the tables) and treats clusters, not matches, as the independent units:

* **rates**: Wilson score interval (Wilson 1927, "Probable inference, the law of succession,
  and statistical inference", JASA 22; near-nominal coverage where the Wald interval
  under-covers: Brown, Cai & DasGupta 2001) on the effective sample size
  n/(deff·c), where the design effect deff = V_cluster / V_binomial comes from the
  cluster-robust (ratio-estimator) variance of the rate (Korn & Graubard 1998). deff is what
  the data show, below 1 too: under seat rotation a seat's wins within a seed are negatively
  correlated (a lucky player takes every seat in turn), and the rate is then *more* precise
  than independent matches would make it. Two guards, both sized by the known-truth grid of
  ``tests/analysis/seat_rotation_truth.py``: deff ≥ 1/G over G clusters (G identical clusters
  would give deff = 0 and a point interval), and the small-sample factor
  c = (t_{G−1}/z)² at the level of the interval (:func:`small_sample_factor`), which turns
  the normal quantile into Student's t with G − 1 degrees of freedom, as the variance is
  estimated from G clusters. Clopper–Pearson (exact, never below its level) on the same
  effective size where a guarantee is needed (simultaneous seat intervals, seat fairness);
* **means and other statistics**: bootstrap over clusters (:func:`bootstrap_counts` gives the
  resampled clusters as counts, so any statistic of per-cluster sums is a matrix product);
* **paired differences** (variant − baseline on the same seeds): a t statistic on per-seed
  sums with the cluster-robust variance (:func:`cluster_t`), and for 0/1 outcomes the score
  test and score interval of a paired difference of proportions (Tango 1998; at Δ = 0 the
  test is McNemar's without continuity correction) with the same design effect
  (:func:`paired_rate_difference`): one test behind each interval and p-value.

``sim`` never imports ``analysis``; the experiment's precision target and every report table
use these same functions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

__all__ = [
    "z_value",
    "wilson_interval",
    "exact_interval",
    "exact_tails",
    "design_effect",
    "design_effects",
    "estimable",
    "small_sample_factor",
    "cluster_index",
    "cluster_counts",
    "cluster_sums",
    "clustered_wilson",
    "bootstrap_counts",
    "ClusterT",
    "cluster_t",
    "paired_rate_difference",
    "paired_rate_interval",
]


def z_value(confidence: float) -> float:
    """The two-sided normal quantile of a ``confidence`` interval (1.96 at 0.95)."""
    return float(stats.norm.ppf(0.5 + confidence / 2))


def wilson_interval(successes, trials, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval(s) for binomial proportion(s); vectorised, real-valued counts allowed.

    Args:
        successes: count(s) of wins k (may be non-integer: effective counts k/deff).
        trials: count(s) of games n (> 0).
        confidence: coverage of the interval (0.95 = 95 %).

    Returns:
        (low, high) arrays of proportions in [0, 1]; low = 0 at k = 0, high = 1 at k = n.

    Examples:
        >>> low, high = wilson_interval(50, 100)
        >>> round(float(low), 4), round(float(high), 4)
        (0.4038, 0.5962)
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    z = z_value(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = np.clip(np.fmin(centre - half, p), 0.0, 1.0)
    high = np.clip(np.fmax(centre + half, p), 0.0, 1.0)
    return np.where(k <= 0, 0.0, low), np.where(k >= n, 1.0, high)


def exact_tails(successes, trials, p0) -> tuple[np.ndarray, np.ndarray]:
    """P(X ≥ k) and P(X ≤ k) for X ~ Binomial(n, p0), through the regularised incomplete beta.

    Equal to ``binom.sf(k - 1, n, p0)`` and ``binom.cdf(k, n, p0)`` for integer counts, and
    defined for effective (non-integer) counts; these are the tails that the Clopper–Pearson
    interval inverts, so the interval and the tests agree exactly.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    p0 = np.asarray(p0, dtype=float)
    with np.errstate(invalid="ignore"):
        upper = np.where(k <= 0, 1.0, stats.beta.cdf(p0, np.maximum(k, 1e-300), n - k + 1))
        lower = np.where(k >= n, 1.0, stats.beta.sf(p0, k + 1, np.maximum(n - k, 1e-300)))
    return upper, lower


def exact_interval(successes, trials, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Clopper–Pearson interval(s): coverage at least ``confidence`` for every p and n.

    Real-valued (effective) counts are allowed (beta quantiles). Vectorised.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    tail = (1 - confidence) / 2
    with np.errstate(invalid="ignore"):
        low = np.where(k <= 0, 0.0, stats.beta.ppf(tail, np.maximum(k, 1e-300), n - k + 1))
        high = np.where(k >= n, 1.0, stats.beta.isf(tail, k + 1, np.maximum(n - k, 1e-300)))
    return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)


def cluster_index(clusters, size: int | None = None) -> tuple[np.ndarray, int]:
    """Cluster number of each observation (0, 1, ... in order of first appearance) and their count.

    ``clusters = None`` makes every observation its own cluster (``size`` observations).
    """
    if clusters is None:
        return np.arange(size or 0), int(size or 0)
    labels = np.asarray(clusters)
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    return rank[inverse.ravel()], int(first.size)


def cluster_sums(values, clusters=None) -> tuple[np.ndarray, np.ndarray]:
    """Per-cluster sums of ``values`` and cluster sizes, NaN values dropped.

    Returns:
        (sums, sizes), one entry per non-empty cluster in order of first appearance.
    """
    values = np.asarray(values, dtype=float)
    keep = ~np.isnan(values)
    values = values[keep]
    if clusters is None:
        return values, np.ones_like(values)
    index, groups = cluster_index(np.asarray(clusters)[keep])
    return (np.bincount(index, weights=values, minlength=groups), np.bincount(index, minlength=groups).astype(float))


def cluster_counts(outcome, clusters=None) -> tuple[np.ndarray, np.ndarray]:
    """Successes and trials per cluster of a 0/1 ``outcome`` (same as :func:`cluster_sums`)."""
    return cluster_sums(np.asarray(outcome, dtype=float), clusters)


def estimable(rate, groups, largest) -> np.ndarray:
    """Where a rate's design effect is estimated from its clusters (vectorised).

    At least two clusters, some cluster with several trials, and 0 < p̂ < 1; elsewhere the
    design effect is 1 by assumption and no small-sample factor applies.
    """
    p, g, big = (np.asarray(x, dtype=float) for x in (rate, groups, largest))
    return (g >= 2) & (big > 1) & (p > 0) & (p < 1)


def design_effects(residual, trials, rate, groups, largest) -> np.ndarray:
    """Design effect of rate(s) from clustered trials, from per-rate sums (vectorised).

    deff = V_cluster / V_binomial, where V_cluster = G/(G−1) · residual / n² is the
    cluster-robust variance of p̂ = Σk/Σm over G clusters and V_binomial = p̂(1−p̂)/n.

    Args:
        residual: Σ_g (k_g − p̂ m_g)² over the clusters of each rate.
        trials: n = Σ_g m_g; rate: p̂; groups: G; largest: the largest m_g.

    Returns:
        deff, floored at 1/G (G equal clusters would give 0, a point interval). Exactly 1
        where it is not estimable: every cluster holds one trial (the binomial model holds),
        p̂ is 0 or 1, or there is a single cluster.
    """
    residual, n, p, g, big = (np.asarray(x, dtype=float) for x in (residual, trials, rate, groups, largest))
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = (g / (g - 1) * residual / n**2) / (p * (1 - p) / n)
        floor = 1.0 / g
    return np.where(estimable(p, g, big), np.fmax(ratio, floor), 1.0)


def design_effect(successes_per_cluster, trials_per_cluster) -> float:
    """Design effect of one proportion estimated from clusters (1 = as good as independent).

    :func:`design_effects` on per-cluster counts: below 1 when the trials of a cluster are
    negatively correlated, above 1 when positively; floored at 1/G.
    """
    k = np.asarray(successes_per_cluster, dtype=float)
    m = np.asarray(trials_per_cluster, dtype=float)
    n = m.sum()
    if n <= 0:
        return 1.0
    p = k.sum() / n
    return float(design_effects(np.sum((k - p * m) ** 2), n, p, m.size, m.max()))


def small_sample_factor(groups, tail, estimated=True) -> np.ndarray:
    """(t_{G−1} / z)² at one-sided tail probability ``tail``: the design effect's small-sample factor.

    A variance estimated from G clusters carries G − 1 degrees of freedom; multiplying the
    design effect by this factor makes an interval on the effective size n/(deff·c) use
    Student's t quantile in place of the normal one (1.33 at G = 10, 1.07 at G = 30,
    1.02 at G = 100 for a two-sided 95 % interval, tail 0.025). Exactly 1 where the design
    effect was not ``estimated`` (:func:`estimable`: the binomial variance is then assumed, not
    estimated) or G < 2. Vectorised over ``groups``, ``tail`` and ``estimated``.
    """
    g = np.asarray(groups, dtype=float)
    tail = np.asarray(tail, dtype=float)
    use = np.asarray(estimated, dtype=bool) & (g >= 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = stats.t.isf(tail, np.where(use, g - 1, 1.0)) / stats.norm.isf(tail)
    return np.where(use, ratio**2, 1.0)


def clustered_wilson(
    successes_per_cluster, trials_per_cluster, confidence: float = 0.95
) -> tuple[float, float, float, float]:
    """Wilson interval of a proportion from clustered trials, on the effective size n/(deff·c).

    deff from :func:`design_effect`, c from :func:`small_sample_factor` at the interval's
    level. With singleton clusters this is exactly the Wilson interval.

    Returns:
        (p̂, low, high, deff); p̂ and bounds are proportions in [0, 1]; deff is the data's
        design effect (without the small-sample factor).
    """
    k = np.asarray(successes_per_cluster, dtype=float)
    m = np.asarray(trials_per_cluster, dtype=float)
    n = m.sum()
    if n <= 0:
        return float("nan"), float("nan"), float("nan"), float("nan")
    deff = design_effect(k, m)
    p = k.sum() / n
    scale = deff * float(small_sample_factor(m.size, (1 - confidence) / 2, estimable(p, m.size, m.max())))
    low, high = wilson_interval(p * n / scale, n / scale, confidence)
    return float(p), float(low), float(high), deff


def bootstrap_counts(groups: int, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """How often each of ``groups`` clusters is drawn in each of ``resamples`` bootstrap samples.

    Row r is ``bincount(rng.integers(0, G, G))`` — the draws a resampler of whole clusters makes
    with the same generator, so a statistic of per-cluster sums is ``counts @ sums``.

    Returns:
        an int array (resamples × groups).
    """
    out = np.empty((resamples, groups), dtype=np.int64)
    for row in range(resamples):
        out[row] = np.bincount(rng.integers(0, groups, groups), minlength=groups)
    return out


@dataclass(frozen=True)
class ClusterT:
    """A mean with its cluster-robust t interval and two-sided p-value (one test behind both)."""

    mean: float
    low: float
    high: float
    p: float
    se: float
    df: int


def cluster_t(values, clusters=None, confidence: float = 0.95) -> ClusterT:
    """Mean of ``values`` (paired differences) with a t interval and p-value, robust over clusters.

    With singleton clusters: ``scipy.stats.ttest_1samp(values, 0)``. With G clusters of sizes
    m_g and sums S_g: mean = ΣS/Σm, SE² = G/(G−1) · Σ(S_g − mean·m_g)² / (Σm)², t with G − 1
    degrees of freedom. The interval excludes 0 exactly when p < 1 − confidence. A zero SE
    gives the point interval, with p = 1 if the mean is 0, else p = 0.
    """
    sums, sizes = cluster_sums(values, clusters)
    g, n = sums.size, sizes.sum()
    if n == 0:
        return ClusterT(math.nan, math.nan, math.nan, math.nan, math.nan, 0)
    mean = float(sums.sum() / n)
    if g < 2:
        return ClusterT(mean, math.nan, math.nan, math.nan, math.nan, 0)
    se = math.sqrt(g / (g - 1) * float(np.sum((sums - mean * sizes) ** 2)) / n**2)
    if se == 0.0:
        return ClusterT(mean, mean, mean, 1.0 if mean == 0.0 else 0.0, 0.0, g - 1)
    half = float(stats.t.ppf(0.5 + confidence / 2, g - 1)) * se
    p = float(2 * stats.t.sf(abs(mean) / se, g - 1))
    return ClusterT(mean, mean - half, mean + half, p, se, g - 1)


def _restricted_discordance(b: float, c: float, n: float, delta: float) -> float:
    """Maximum-likelihood P(baseline-only win) under the constraint p_c − p_b = delta (Tango 1998).

    Positive root of 2n q² − [(b + c) + Δ(c − b − 2n)] q − bΔ(1 − Δ) = 0.
    """
    linear = (b + c) + delta * (c - b - 2 * n)
    root = (linear + math.sqrt(max(0.0, linear * linear + 8 * n * b * delta * (1 - delta)))) / (4 * n)
    return min(max(root, max(0.0, -delta)), (1 - delta) / 2)


def _score(b: float, c: float, n: float, deff: float, delta: float) -> float:
    """Tango's score statistic for H: p_c − p_b = delta, variance times the design effect."""
    q = _restricted_discordance(b, c, n, delta)
    variance = n * max(2 * q + delta - delta * delta, 0.0) * deff
    if variance <= 0:
        return math.copysign(math.inf, c - b - n * delta) if c - b - n * delta else 0.0
    return (c - b - n * delta) / math.sqrt(variance)


def paired_rate_interval(
    b: float, c: float, n: float, deff: float = 1.0, confidence: float = 0.95
) -> tuple[float, float]:
    """Score interval of a paired difference of proportions (c − b)/n: {Δ : |Z(Δ)| ≤ z}.

    Args:
        b: pairs where only the baseline had the outcome; c: only the variant.
        n: pairs; deff: design effect of the seed clusters (small-sample factor included).
        confidence: coverage.
    """
    z = z_value(confidence)
    estimate = (c - b) / n
    eps = 1e-12

    def bound(target: float, start: float, stop: float) -> float:
        f = lambda d: _score(b, c, n, deff, d) - target  # noqa: E731
        if f(start) * f(stop) > 0:
            return stop
        lo, hi = min(start, stop), max(start, stop)
        return float(optimize.brentq(f, lo, hi, xtol=1e-12))

    low = -1.0 if estimate <= -1 + eps else bound(z, estimate, -1 + eps)
    high = 1.0 if estimate >= 1 - eps else bound(-z, estimate, 1 - eps)
    return max(-1.0, min(low, estimate)), min(1.0, max(high, estimate))


def paired_rate_difference(variant, baseline, clusters=None, confidence: float = 0.95) -> dict:
    """Paired difference of two 0/1 outcomes (variant − baseline): score test and its interval.

    The p-value is the score test of Δ = 0, z = (c − b)/√((b + c)·deff) — McNemar's test
    without continuity correction when deff = 1 (recommended over the exact conditional test
    by Fagerland et al. 2013) — and the interval inverts the same test at every Δ (Tango
    1998), so "the interval excludes 0" ⇔ "p < 1 − confidence". Under clustering deff is the
    cluster-robust variance of the mean difference over its multinomial variance (below 1
    too, floored at 1/G over G clusters), the p-value is Student's t with G − 1 degrees of
    freedom and the interval uses deff times the small-sample factor at its level.

    Returns:
        ``effect``, ``ci_low``, ``ci_high``, ``p``, ``se0`` (standard error under Δ = 0),
        ``deff``, ``clusters`` (G when the design effect was estimated, else 0), ``b``, ``c``,
        ``n`` (pairs).
    """
    x = np.asarray(variant, dtype=float)
    y = np.asarray(baseline, dtype=float)
    n = x.size
    b, c = float(np.sum((y == 1) & (x == 0))), float(np.sum((y == 0) & (x == 1)))
    effect = (c - b) / n if n else math.nan
    out = {"effect": effect, "b": int(b), "c": int(c), "n": int(n), "deff": 1.0, "clusters": 0}
    if n == 0 or b + c == 0:
        return {
            **out,
            "ci_low": 0.0 if n else math.nan,
            "ci_high": 0.0 if n else math.nan,
            "p": 1.0 if n else math.nan,
            "se0": 0.0,
        }
    df = None
    if clusters is not None:
        sums, sizes = cluster_sums(x - y, clusters)
        g = sums.size
        multinomial = ((b + c) / n - effect**2) / n
        if g >= 2 and multinomial > 0 and np.any(sizes > 1):
            robust = g / (g - 1) * float(np.sum((sums - effect * sizes) ** 2)) / n**2
            out["deff"], out["clusters"], df = max(robust / multinomial, 1.0 / g), g, g - 1
    deff = out["deff"]
    z0 = (c - b) / math.sqrt((b + c) * deff)
    factor = float(small_sample_factor(df + 1, (1 - confidence) / 2)) if df else 1.0
    low, high = paired_rate_interval(b, c, n, deff * factor, confidence)
    p = float(2 * (stats.t.sf(abs(z0), df) if df else stats.norm.sf(abs(z0))))
    return {**out, "ci_low": low, "ci_high": high, "p": p, "se0": math.sqrt((b + c) * deff) / n}
