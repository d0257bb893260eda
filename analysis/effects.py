"""Variant effects against the baseline as paired differences (common random numbers).

Match i of every variant is played with the same seeds (and seat rotation), so the outcome
of a variant's match i pairs with the baseline's match i (research/stats.md §1–2):

* **binary outcomes** (seat s won, a profile won, the match hit the cap): the effect is the
  difference of the two rates, d̄ = (c − b)/n (b: pairs won only under the baseline, c: only
  under the variant). Its CI is the paired t interval on the per-match differences
  (``scipy.stats.ttest_rel(variant, baseline).confidence_interval()``, clipped to [−1, 1])
  and its p-value
  McNemar's test (``statsmodels.stats.contingency_tables.mcnemar``; exact binomial when
  b + c < 25, else χ² with continuity correction).
* **continuous outcomes** (length, scores, design metrics): the effect is the mean paired
  difference; its CI a BCa bootstrap of the per-seed differences
  (``scipy.stats.bootstrap``, seeded Generator) and its p-value the paired t-test.

When seeds hold several matches (seat rotation), matches of a seed are resampled together:
the CI and p-value use the cluster-robust variance of the mean difference over seeds (for
binary outcomes the paired t on per-seed sums replaces McNemar, whose pairs must be
independent). Without rotation this is exactly ``ttest_rel``.

A variant whose per-match outcomes equal the baseline's has effect 0 with CI [0, 0] and p = 1.
P-values of the whole table are corrected together for multiplicity: Holm (default, family-
wise error, for claims shown to designers) or Benjamini–Hochberg (``fdr_bh``, screening).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from .bootstrap import DEFAULT_RESAMPLES, cluster_sums, mean_ci
from .outcomes import binary_outcomes, continuous_outcomes, describe_outcome

__all__ = ["paired_binary_effect", "paired_mean_effect", "cluster_t", "adjust_pvalues",
           "paired_outcomes", "variant_effects", "CORRECTIONS", "MCNEMAR_EXACT_BELOW"]

#: Multiplicity corrections (statsmodels ``multipletests`` method names).
CORRECTIONS = ("holm", "fdr_bh")
#: McNemar is exact (binomial on the discordant pairs) below this many discordant pairs.
MCNEMAR_EXACT_BELOW = 25


def cluster_t(differences, clusters=None, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """Mean of paired differences with a t interval and p-value, cluster-robust over seeds.

    With singleton clusters: ``scipy.stats.ttest_1samp(d, 0)`` (≡ ``ttest_rel``). With G
    clusters of sizes m_g and sums S_g: d̄ = ΣS/Σm, SE² = G/(G−1) · Σ(S_g − d̄ m_g)² / (Σm)²,
    t with G − 1 degrees of freedom. A zero SE gives the point interval and p = 1 if d̄ = 0,
    else p = 0.

    Returns:
        (mean, low, high, p) in the unit of ``differences``.
    """
    sums, sizes = cluster_sums(differences, clusters)
    g, n = sums.size, sizes.sum()
    if n == 0:
        return (math.nan,) * 4
    mean = float(sums.sum() / n)
    if g < 2:
        return mean, math.nan, math.nan, math.nan
    se = math.sqrt(g / (g - 1) * float(np.sum((sums - mean * sizes) ** 2)) / n**2)
    if se == 0.0:
        return mean, mean, mean, 1.0 if mean == 0.0 else 0.0
    half = stats.t.ppf(0.5 + confidence / 2, g - 1) * se
    p = float(2 * stats.t.sf(abs(mean) / se, g - 1))
    return mean, mean - half, mean + half, p


def paired_binary_effect(variant, baseline, clusters=None, confidence: float = 0.95) -> dict:
    """Paired difference of two binary outcomes (variant − baseline), as proportions.

    Args:
        variant, baseline: 0/1 per paired match (same order).
        clusters: seed of each pair (None or all distinct: independent pairs).
        confidence: coverage of the CI.

    Returns:
        ``effect``, ``ci_low``, ``ci_high`` (differences of proportions), ``p``, ``test``,
        ``n`` (pairs), ``b`` (1 under baseline only), ``c`` (1 under variant only),
        ``base_rate``, ``variant_rate``.
    """
    x = np.asarray(variant, dtype=float)
    y = np.asarray(baseline, dtype=float)
    b = int(np.sum((y == 1) & (x == 0)))
    c = int(np.sum((y == 0) & (x == 1)))
    out = {"n": int(x.size), "b": b, "c": c,
           "base_rate": float(y.mean()) if y.size else math.nan,
           "variant_rate": float(x.mean()) if x.size else math.nan}
    if x.size == 0:
        return {**out, "effect": math.nan, "ci_low": math.nan, "ci_high": math.nan, "p": math.nan, "test": "none"}
    if b + c == 0:
        return {**out, "effect": 0.0, "ci_low": 0.0, "ci_high": 0.0, "p": 1.0, "test": "identical outcomes"}
    clustered = clusters is not None and pd.Series(clusters).duplicated().any()
    effect, low, high, p_t = cluster_t(x - y, clusters if clustered else None, confidence)
    low, high = max(low, -1.0), min(high, 1.0)  # a difference of proportions lies in [-1, 1]
    if clustered:
        return {**out, "effect": effect, "ci_low": low, "ci_high": high, "p": p_t,
                "test": "paired t over seeds"}
    a = int(np.sum((y == 1) & (x == 1)))
    d = int(np.sum((y == 0) & (x == 0)))
    exact = b + c < MCNEMAR_EXACT_BELOW
    p = float(mcnemar([[a, b], [c, d]], exact=exact, correction=True).pvalue)
    return {**out, "effect": effect, "ci_low": low, "ci_high": high, "p": p,
            "test": "McNemar exact" if exact else "McNemar χ²"}


def paired_mean_effect(variant, baseline, clusters=None, confidence: float = 0.95,
                       method: str = "BCa", n_resamples: int = DEFAULT_RESAMPLES,
                       rng: np.random.Generator | int | None = 0) -> dict:
    """Mean paired difference (variant − baseline) with a bootstrap CI over seeds.

    Pairs where either value is NaN are dropped.

    Returns:
        ``effect``, ``ci_low``, ``ci_high`` (unit of the outcome), ``p`` (paired t over
        seeds), ``test``, ``n`` (pairs), ``base_mean``, ``variant_mean``.
    """
    x = np.asarray(variant, dtype=float)
    y = np.asarray(baseline, dtype=float)
    keep = ~(np.isnan(x) | np.isnan(y))
    x, y = x[keep], y[keep]
    labels = None if clusters is None else np.asarray(clusters)[keep]
    out = {"n": int(x.size), "base_mean": float(y.mean()) if y.size else math.nan,
           "variant_mean": float(x.mean()) if x.size else math.nan}
    if x.size == 0:
        return {**out, "effect": math.nan, "ci_low": math.nan, "ci_high": math.nan, "p": math.nan, "test": "none"}
    diff = x - y
    if np.all(diff == 0):
        return {**out, "effect": 0.0, "ci_low": 0.0, "ci_high": 0.0, "p": 1.0, "test": "identical outcomes"}
    _, _, _, p = cluster_t(diff, labels, confidence)
    effect, low, high = mean_ci(diff, labels, confidence, method, n_resamples, rng)
    return {**out, "effect": effect, "ci_low": low, "ci_high": high, "p": p,
            "test": f"paired t; {method} bootstrap over seeds"}


def adjust_pvalues(p, method: str = "holm") -> np.ndarray:
    """Multiplicity-adjusted p-values (``statsmodels.stats.multitest.multipletests``).

    NaN p-values are left NaN and not counted in the family.

    Args:
        p: raw p-values.
        method: ``"holm"`` (family-wise error) or ``"fdr_bh"`` (false discovery rate).
    """
    if method not in CORRECTIONS:
        raise ValueError(f"correction: got {method!r}; allowed: {', '.join(CORRECTIONS)}")
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], method=method)[1]
    return out


def paired_outcomes(outcomes: pd.DataFrame, variant: str, lineup: str,
                    baseline: str = "baseline") -> pd.DataFrame:
    """The matches of one variant and line-up joined to the baseline's on the match index.

    Returns:
        one row per paired match: ``match``, ``seed`` and each outcome column twice, with
        suffixes ``_v`` (variant) and ``_b`` (baseline).

    Raises:
        ValueError: if a pair's seeds differ (the tables were not played with common random
            numbers).
    """
    cell = outcomes[(outcomes["variant"] == variant) & (outcomes["lineup"] == lineup)]
    base = outcomes[(outcomes["variant"] == baseline) & (outcomes["lineup"] == lineup)]
    pairs = cell.merge(base, on="match", suffixes=("_v", "_b"), how="inner")
    if not (pairs["seed_v"] == pairs["seed_b"]).all():
        raise ValueError(f"{variant}/{lineup}: match indices do not share seeds with the baseline; "
                         "variant effects need common random numbers")
    return pairs.rename(columns={"seed_v": "seed"})


def variant_effects(outcomes: pd.DataFrame, baseline: str = "baseline", confidence: float = 0.95,
                    correction: str = "holm", binary: list[str] | None = None,
                    continuous: list[str] | None = None, n_resamples: int = DEFAULT_RESAMPLES,
                    seed: int = 0) -> pd.DataFrame:
    """Effect of every variant on every outcome, per line-up, against the baseline.

    Args:
        outcomes: the frame of :func:`analysis.outcomes.match_outcomes`.
        baseline: the reference variant's name.
        confidence: coverage of the CIs.
        correction: ``"holm"`` or ``"fdr_bh"``, applied to all p-values of the table at once.
        binary, continuous: outcome columns to compare (default: every one present).
        n_resamples: bootstrap resamples per continuous effect.
        seed: seed of the bootstrap generators (one per row, derived from it).

    An outcome that takes one single value in every match of a line-up, whatever the variant
    (e.g. no match ever hit the cap), is left out: there is nothing to compare.

    Returns:
        one row per line-up × variant × outcome: ``lineup``, ``variant``, ``outcome``,
        ``label``, ``unit``, ``binary``, ``n``, ``base`` and ``value`` (baseline and variant
        rate or mean), ``effect``, ``ci_low``, ``ci_high`` (variant − baseline; proportions
        for binary outcomes), ``p``, ``p_adjusted``, ``test``, ``correction``.
    """
    columns = ["lineup", "variant", "outcome", "label", "unit", "binary", "n", "base", "value",
               "effect", "ci_low", "ci_high", "p", "p_adjusted", "test", "correction"]
    if outcomes.empty or baseline not in set(outcomes["variant"]):
        return pd.DataFrame(columns=columns)
    binary = binary_outcomes(outcomes) if binary is None else binary
    continuous = continuous_outcomes(outcomes) if continuous is None else continuous
    records = []
    cells = outcomes[["lineup", "variant"]].drop_duplicates().sort_values(["lineup", "variant"])
    constant = {lineup: {c for c in binary + continuous if group[c].nunique(dropna=True) <= 1}
                for lineup, group in outcomes.groupby("lineup")}
    for lineup, variant in cells.itertuples(index=False):
        if variant == baseline:
            continue
        pairs = paired_outcomes(outcomes, variant, lineup, baseline)
        for column in binary + continuous:
            if f"{column}_v" not in pairs or pairs[f"{column}_v"].isna().all() or column in constant[lineup]:
                continue
            label, unit, is_binary = describe_outcome(column)
            xv, xb = pairs[f"{column}_v"].to_numpy(float), pairs[f"{column}_b"].to_numpy(float)
            if is_binary:
                keep = ~(np.isnan(xv) | np.isnan(xb))
                result = paired_binary_effect(xv[keep], xb[keep], pairs["seed"].to_numpy()[keep], confidence)
                base, value = result["base_rate"], result["variant_rate"]
            else:
                rng = np.random.default_rng([seed, len(records)])
                result = paired_mean_effect(xv, xb, pairs["seed"].to_numpy(), confidence,
                                            n_resamples=n_resamples, rng=rng)
                base, value = result["base_mean"], result["variant_mean"]
            records.append({"lineup": lineup, "variant": variant, "outcome": column, "label": label,
                            "unit": unit, "binary": is_binary, "n": result["n"], "base": base,
                            "value": value, "effect": result["effect"], "ci_low": result["ci_low"],
                            "ci_high": result["ci_high"], "p": result["p"], "test": result["test"]})
    table = pd.DataFrame.from_records(records, columns=[c for c in columns if c not in ("p_adjusted", "correction")])
    table["p_adjusted"] = adjust_pvalues(table["p"].to_numpy(), correction) if len(table) else []
    table["correction"] = correction
    return table[columns]
