"""The game's own metrics with intervals and paired variant effects, clustered by seed.

A game's metrics (its ``summary`` hook) are arbitrary functions of a cell's tables (a KO rate,
a card's win rate, a share of capped races), so their uncertainty is estimated by the
*delete-a-group jackknife* over seeds (Kott 2001; Efron & Stein 1981): the seeds of a line-up
are cut into K groups of consecutive seeds (K = min(20, seeds); seeds are independent draws, so
any split into equal groups serves; a seed's matches — its seat rotations — stay in one group, as in every clustered estimator of :mod:`sim.core.estimators`), the metric is computed
K more times with one group left out, and the pseudo-values K·θ − (K − 1)·θ₍ₖ₎ are the K
independent observations of a t interval with K − 1 degrees of freedom around θ.

Variant effects are paired exactly as the core outcomes' (:mod:`analysis.effects`): variant and
baseline share their seeds (common random numbers) and therefore their groups, and the effect's
pseudo-values are the differences of the two cells' pseudo-values group by group; the
t-test of their mean and the t interval around θ_variant − θ_baseline invert the same test.
P-values of the whole table are corrected together (Holm by default), with the adjusted
intervals of :func:`analysis.effects.adjusted_intervals` (excluding 0 exactly when the adjusted
p-value is below α). When the game's metrics add up over slices (``tally``/``summary_from_tally``,
:mod:`sim.core.tally`) each group is tallied once and every left-out evaluation merges the
others' tallies, so a large run is read once, slice by slice; with additive per-match parts
(``metric_parts``/``metrics_from_parts``) the K + 1 evaluations are one vectorised call.

The jackknife suits smooth metrics (rates, means, ratios of sums); for a maximum or a spread
across many items its variance is only approximate (the balance search bootstraps those).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from sim.core.tally import merged

from .effects import adjust_pvalues, adjusted_intervals
from .hooks import cell_tables
from .jackknife import MAX_GROUPS, group_tallies, has_tally, jackknife_groups
from .results import BASELINE

__all__ = [
    "jackknife_groups",
    "cell_pseudo_values",
    "game_metric_levels",
    "game_metric_effects",
    "MAX_GROUPS",
    "METHOD",
]

METHOD = "grouped jackknife over seeds, t interval"


def _numeric(metrics) -> dict[str, float]:
    out = {}
    for key, value in dict(metrics or {}).items():
        try:
            number = float(value)
        except (TypeError, ValueError):
            continue
        if math.isfinite(number):
            out[str(key)] = number
    return out


def _drop(tables, matches: set[int]) -> dict[str, pd.DataFrame]:
    return {
        name: frame[~frame["match"].isin(matches)] if "match" in frame.columns else frame
        for name, frame in tables.items()
    }


def _evaluations_by_summary(spec, tables, group_of_match: pd.Series, k: int) -> list[dict[str, float]]:
    """[θ, θ₍₀₎, ..., θ₍ₖ₋₁₎] from the summary hook on the cell's tables."""
    out = [_numeric(spec.summary(tables))]
    for group in range(k):
        out.append(_numeric(spec.summary(_drop(tables, set(group_of_match.index[group_of_match == group])))))
    return out


def _evaluations_by_parts(spec, tables, group_of_match: pd.Series, k: int) -> list[dict[str, float]]:
    """The same from additive per-match parts: one vectorised ``metrics_from_parts`` call."""
    parts = spec.metric_parts(tables).reset_index(drop=True)
    groups = group_of_match.reindex(tables["matches"]["match"].to_numpy()).to_numpy()
    parts = parts.select_dtypes("number")
    total = parts.sum()
    rows = [total] + [total - parts[groups == g].sum() for g in range(k)]
    metrics = spec.metrics_from_parts(pd.DataFrame(rows).reset_index(drop=True))
    return [_numeric(row) for row in metrics.to_dict("records")]


def _evaluations_by_tally(spec, tallies: dict[int, dict], k: int) -> list[dict[str, float]]:
    """[θ, θ₍₀₎, ..., θ₍ₖ₋₁₎] from the groups' tallies: each left-out evaluation merges the others."""
    everything = range(k)
    return [_numeric(spec.summary_from_tally(merged(tallies.get(g, {}) for g in everything)))] + [
        _numeric(spec.summary_from_tally(merged(tallies.get(g, {}) for g in everything if g != left)))
        for left in everything
    ]


def cell_pseudo_values(
    spec, tables, groups: dict[int, int], tallies: dict[int, dict] | None = None
) -> tuple[dict[str, float], pd.DataFrame]:
    """(θ by metric, pseudo-values: one row per group, one column per metric) of one cell.

    ``tallies``: the groups' tallies already gathered (:func:`group_tallies`, e.g. slice by slice
    from a large results directory); then ``tables`` is not read.
    """
    k = len(set(groups.values()))
    if tallies is not None or has_tally(spec):
        evaluations = _evaluations_by_tally(
            spec, tallies if tallies is not None else group_tallies(spec, tables, groups), k
        )
    else:
        matches = tables["matches"]
        group_of_match = pd.Series([groups[int(s)] for s in matches["seed"]], index=matches["match"].to_numpy())
        if getattr(spec, "metric_parts", None) is not None and getattr(spec, "metrics_from_parts", None) is not None:
            evaluations = _evaluations_by_parts(spec, tables, group_of_match, k)
        else:
            evaluations = _evaluations_by_summary(spec, tables, group_of_match, k)
    full = evaluations[0]
    pseudo = {
        metric: [k * value - (k - 1) * left.get(metric, np.nan) for left in evaluations[1:]]
        for metric, value in full.items()
    }
    return full, pd.DataFrame(pseudo)


def _t_interval(estimate: float, pseudo: np.ndarray, confidence: float) -> tuple[float, float, float, int]:
    """(low, high, se, df) of a t interval around ``estimate`` from K pseudo-values."""
    pseudo = pseudo[np.isfinite(pseudo)]
    if pseudo.size < 2:
        return math.nan, math.nan, math.nan, 0
    se = float(np.std(pseudo, ddof=1) / math.sqrt(pseudo.size))
    half = float(stats.t.ppf(0.5 + confidence / 2, pseudo.size - 1)) * se
    return estimate - half, estimate + half, se, pseudo.size - 1


def _statistics(analysis) -> dict[tuple[str, str], tuple[dict[str, float], pd.DataFrame]]:
    """(θ, pseudo-values) of every cell, computed once per analysis."""
    cached = getattr(analysis, "_game_jackknife", None)
    if cached is not None:
        return cached
    results = analysis.results
    spec, tables = results.spec, results.tables
    streamed = getattr(results, "streamed", None)
    out: dict = {}
    usable = streamed is None or has_tally(spec)  # a streamed run's metrics exist only as tallies
    if spec is not None and getattr(spec, "summary", None) is not None and len(tables["matches"]) and usable:
        matches = tables["matches"]
        for lineup, rows in matches.groupby("lineup", sort=False):
            groups = jackknife_groups(rows["seed"])
            for variant in rows["variant"].unique():
                try:
                    if streamed is not None:
                        out[(variant, lineup)] = cell_pseudo_values(
                            spec, None, groups, tallies=streamed.group_tallies.get((variant, lineup), {})
                        )
                    else:
                        out[(variant, lineup)] = cell_pseudo_values(spec, cell_tables(tables, variant, lineup), groups)
                except Exception:  # a game's extra must not break the report (hooks.py notes it)
                    continue
    analysis._game_jackknife = out
    return out


def game_metric_levels(analysis) -> pd.DataFrame:
    """Every game metric of every cell with its interval.

    Returns:
        ``variant``, ``lineup``, ``metric``, ``value``, ``ci_low``, ``ci_high``, ``se``, ``df``,
        ``groups``, ``method``.
    """
    confidence = analysis.options.confidence
    records = []
    for (variant, lineup), (full, pseudo) in _statistics(analysis).items():
        for metric, value in full.items():
            low, high, se, df = _t_interval(value, pseudo[metric].to_numpy(float), confidence)
            if se == 0:
                low = high = value
            records.append(
                {
                    "variant": variant,
                    "lineup": lineup,
                    "metric": metric,
                    "value": value,
                    "ci_low": low,
                    "ci_high": high,
                    "se": se,
                    "df": df,
                    "groups": len(pseudo),
                    "method": METHOD,
                }
            )
    return pd.DataFrame.from_records(
        records, columns=["variant", "lineup", "metric", "value", "ci_low", "ci_high", "se", "df", "groups", "method"]
    )


def _effect(base: float, value: float, diff: np.ndarray, confidence: float) -> dict:
    effect = value - base
    finite = diff[np.isfinite(diff)]
    if finite.size and np.all(finite == 0) and effect == 0:
        return {
            "effect": 0.0,
            "ci_low": 0.0,
            "ci_high": 0.0,
            "p": 1.0,
            "se": 0.0,
            "df": finite.size - 1,
            "test": "identical outcomes",
        }
    low, high, se, df = _t_interval(effect, finite, confidence)
    if not se > 0:
        return {"effect": effect, "ci_low": low, "ci_high": high, "p": math.nan, "se": se, "df": df, "test": "none"}
    p = float(2 * stats.t.sf(abs(effect) / se, df))
    return {
        "effect": effect,
        "ci_low": low,
        "ci_high": high,
        "p": p,
        "se": se,
        "df": df,
        "test": "paired jackknife t, clustered by seed",
    }


def game_metric_effects(analysis, baseline: str = BASELINE) -> pd.DataFrame:
    """Paired effect (variant − baseline) of every variant on every game metric, per line-up.

    Returns:
        ``lineup``, ``variant``, ``metric``, ``base``, ``value``, ``effect``, ``ci_low``,
        ``ci_high``, ``p``, ``p_adjusted``, ``ci_low_adjusted``, ``ci_high_adjusted``, ``se``,
        ``df``, ``test``, ``correction``. A metric the variant leaves unchanged in every group
        shows 0 [0, 0] ("identical outcomes"), as in :func:`analysis.effects.variant_effects`.
    """
    options = analysis.options
    columns = [
        "lineup",
        "variant",
        "metric",
        "base",
        "value",
        "effect",
        "ci_low",
        "ci_high",
        "p",
        "p_adjusted",
        "ci_low_adjusted",
        "ci_high_adjusted",
        "se",
        "df",
        "test",
        "correction",
    ]
    cells = _statistics(analysis)
    records = []
    for (variant, lineup), (full, pseudo) in cells.items():
        if variant == baseline or (baseline, lineup) not in cells:
            continue
        base_full, base_pseudo = cells[(baseline, lineup)]
        for metric, value in full.items():
            if metric not in base_full or metric not in base_pseudo:
                continue
            diff = pseudo[metric].to_numpy(float) - base_pseudo[metric].to_numpy(float)
            records.append(
                {
                    "lineup": lineup,
                    "variant": variant,
                    "metric": metric,
                    "base": base_full[metric],
                    "value": value,
                    **_effect(base_full[metric], value, diff, options.confidence),
                }
            )
    table = pd.DataFrame.from_records(records)
    if table.empty:
        return pd.DataFrame(columns=columns)
    table["p_adjusted"] = adjust_pvalues(table["p"].to_numpy(), options.correction)
    table["binary"], table["b"], table["c"], table["n"], table["deff"], table["clusters"] = False, 0, 0, 0, 1.0, 0
    table["ci_low_adjusted"], table["ci_high_adjusted"] = adjusted_intervals(table, options.alpha)
    table["correction"] = options.correction
    return table[columns]
