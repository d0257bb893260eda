"""Score and game-length distributions with bootstrap CIs (BCa: Efron 1987).

Means get a BCa bootstrap interval (seeds resampled as clusters under seat rotation, see
:mod:`analysis.bootstrap`); quantiles are reported without an interval because a bootstrap
CI of the median of integer lengths collapses to a point (on a toy dice game, a median length
of 8 rounds had the 95 % bootstrap interval [8, 8]). For
lengths the share of matches stopped by the cap is shown beside, as the mean counts a
capped match at the cap (see :mod:`analysis.survival` for the censoring-aware view).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .bootstrap import DEFAULT_RESAMPLES, mean_ci
from .winrates import group_keys

__all__ = ["describe", "length_distribution", "score_distribution"]


def describe(
    frame: pd.DataFrame,
    value: str,
    by: Sequence[str],
    cluster: str | None = "seed",
    confidence: float = 0.95,
    method: str = "BCa",
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> pd.DataFrame:
    """Count, mean with bootstrap CI, SD and quantiles of ``value`` per group of ``by``.

    Args:
        frame: rows to summarise (NaN values ignored).
        value: the column (its unit is the unit of every returned statistic).
        by: grouping columns.
        cluster: column of resampling clusters (``seed``), or None for independent rows.
        confidence: coverage of the CI of the mean.
        method: ``"BCa"`` or ``"percentile"``.
        n_resamples: bootstrap resamples.
        seed: seed of the generators (one per group, derived from it).

    Returns:
        one row per group: ``n``, ``mean``, ``ci_low``, ``ci_high``, ``sd``, ``min``,
        ``p10``, ``median``, ``p90``, ``max``.
    """
    records = []
    for index, (key, group) in enumerate(frame.groupby(list(by), sort=True)):
        key = key if isinstance(key, tuple) else (key,)
        values = group[value].to_numpy(dtype=float)
        ok = ~np.isnan(values)
        clusters = group[cluster].to_numpy()[ok] if cluster and cluster in group.columns else None
        values = values[ok]
        if values.size == 0:
            continue
        mean, low, high = mean_ci(
            values, clusters, confidence, method, n_resamples, np.random.default_rng([seed, index])
        )
        q = np.quantile(values, [0.1, 0.5, 0.9])
        records.append(
            {
                **dict(zip(by, key)),
                "n": int(values.size),
                "mean": mean,
                "ci_low": low,
                "ci_high": high,
                "sd": float(values.std(ddof=1)) if values.size > 1 else np.nan,
                "min": float(values.min()),
                "p10": float(q[0]),
                "median": float(q[1]),
                "p90": float(q[2]),
                "max": float(values.max()),
            }
        )
    return pd.DataFrame.from_records(records)


def length_distribution(matches: pd.DataFrame, **options) -> pd.DataFrame:
    """Rounds per match per cell (:func:`describe`) plus ``capped`` (share stopped by the cap).

    Args:
        matches: the matches table.
        **options: passed to :func:`describe`.
    """
    by = group_keys(matches)
    table = describe(matches, "rounds", by, **options)
    capped = (~matches["finished"].astype(bool)).groupby([matches[c] for c in by]).mean()
    return table.merge(capped.rename("capped").reset_index(), on=by, how="left")


def score_distribution(players: pd.DataFrame, by: str = "profile", **options) -> pd.DataFrame:
    """Final scores per cell and ``by`` (``profile``, ``seat`` or ``slot``), see :func:`describe`.

    Args:
        players: the players table.
        by: the column splitting each cell's players.
        **options: passed to :func:`describe`.
    """
    return describe(players, "score", group_keys(players, [by]), **options)
