"""Win rates with confidence intervals (research/stats.md §1).

* One rate: Wilson score interval.
* All seats of a line-up at once: Goodman simultaneous intervals (identical to Wilson at
  α/k, i.e. Bonferroni over the k seats).
* Matches that share a seed (seat rotation plays each seed under every rotation) are not
  independent: a seat keeps its own random stream across the rotations of a seed. Rates are
  then computed with a design-effect-adjusted Wilson interval (effective sample size
  n / deff, deff from the cluster-robust variance of the rate; Korn & Graubard 1998),
  never narrower than the plain Wilson interval.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import multinomial_proportions_confint, proportion_confint

__all__ = ["wilson_interval", "win_rates", "design_effect", "clustered_wilson",
           "seat_win_rates", "team_win_rates", "profile_win_rates", "group_keys"]

#: Columns that identify one cell (variant × line-up) of a results directory.
CELL = ("variant", "lineup")


def group_keys(frame: pd.DataFrame, extra: Sequence[str] = ()) -> list[str]:
    """The cell columns present in ``frame`` followed by ``extra``."""
    return [c for c in CELL if c in frame.columns] + list(extra)


def wilson_interval(successes, trials, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval(s) for binomial proportion(s); vectorised.

    Args:
        successes: count(s) of wins.
        trials: count(s) of games (> 0).
        confidence: coverage of the interval (0.95 = 95 %).

    Returns:
        (low, high) arrays of proportions in [0, 1].

    Examples:
        >>> low, high = wilson_interval(50, 100)
        >>> round(float(low), 4), round(float(high), 4)
        (0.4038, 0.5962)
    """
    low, high = proportion_confint(np.asarray(successes), np.asarray(trials),
                                   alpha=1 - confidence, method="wilson")
    low = np.clip(np.asarray(low, dtype=float), 0.0, 1.0)  # statsmodels may return -1e-18 at k = 0
    high = np.clip(np.asarray(high, dtype=float), 0.0, 1.0)
    return low, high


def win_rates(players: pd.DataFrame, by: str | list[str], confidence: float = 0.95) -> pd.DataFrame:
    """Win rate of each group of the players table (e.g. by ``seat`` or ``profile``).

    A group's rate is its wins over its appearances (a match with two ``club`` seats counts
    two appearances). Unfinished matches count as played and not won.

    Returns:
        one row per group: the group columns, ``games``, ``wins``, ``win_rate``, ``ci_low``,
        ``ci_high``.
    """
    by = [by] if isinstance(by, str) else list(by)
    grouped = players.groupby(by, sort=True)["won"].agg(games="size", wins="sum").reset_index()
    grouped["wins"] = grouped["wins"].astype(int)
    grouped["win_rate"] = grouped["wins"] / grouped["games"]
    low, high = wilson_interval(grouped["wins"].to_numpy(), grouped["games"].to_numpy(), confidence)
    grouped["ci_low"], grouped["ci_high"] = low, high
    return grouped


def design_effect(successes_per_cluster, trials_per_cluster) -> float:
    """Design effect of a proportion estimated from clusters (1 = as good as independent).

    deff = V_cluster / V_binomial, where V_cluster = G/(G-1) · Σ_g (k_g − p̂ m_g)² / n² is the
    cluster-robust (ratio-estimator) variance of p̂ = Σk/Σm over G clusters and
    V_binomial = p̂(1−p̂)/n. Returns 1 when every cluster holds one trial, when p̂ is 0 or 1
    or when there is a single cluster; clipped below at 1 (never claims more precision than
    independent trials).

    Args:
        successes_per_cluster: wins k_g in each cluster (e.g. each seed).
        trials_per_cluster: trials m_g in each cluster.
    """
    k = np.asarray(successes_per_cluster, dtype=float)
    m = np.asarray(trials_per_cluster, dtype=float)
    n, g = m.sum(), m.size
    if g < 2 or n <= 0 or np.all(m <= 1):
        return 1.0
    p = k.sum() / n
    if p <= 0.0 or p >= 1.0:
        return 1.0
    v_cluster = g / (g - 1) * np.sum((k - p * m) ** 2) / n**2
    return float(max(1.0, v_cluster / (p * (1 - p) / n)))


def clustered_wilson(successes_per_cluster, trials_per_cluster,
                     confidence: float = 0.95) -> tuple[float, float, float, float]:
    """Wilson interval of a proportion from clustered trials, with the design effect.

    Uses the effective sample size n/deff and p̂·n/deff successes (see :func:`design_effect`);
    with singleton clusters this is exactly the Wilson interval.

    Returns:
        (p̂, low, high, deff); p̂ and bounds are proportions in [0, 1].
    """
    k = np.asarray(successes_per_cluster, dtype=float)
    m = np.asarray(trials_per_cluster, dtype=float)
    n = m.sum()
    if n <= 0:
        return float("nan"), float("nan"), float("nan"), float("nan")
    deff = design_effect(k, m)
    p = k.sum() / n
    low, high = wilson_interval(p * n / deff, n / deff, confidence)
    return float(p), float(low), float(high), deff


def _rates_table(rows: pd.DataFrame, item: str, outcome: str, confidence: float,
                 cluster: str | None, simultaneous: bool) -> pd.DataFrame:
    """Rate of ``outcome`` per cell × ``item`` with (clustered, Bonferroni-adjusted) Wilson CIs."""
    cells = group_keys(rows)
    records = []
    for cell_key, cell_rows in (rows.groupby(cells, sort=True) if cells else [((), rows)]):
        cell_key = cell_key if isinstance(cell_key, tuple) else (cell_key,)
        items = sorted(cell_rows[item].unique())
        level = 1 - (1 - confidence) / len(items) if simultaneous else confidence
        for value in items:
            group = cell_rows[cell_rows[item] == value]
            won = group[outcome].astype(float)
            if cluster is not None:
                per = won.groupby(group[cluster].to_numpy()).agg(["sum", "size"])
                k_g, m_g = per["sum"].to_numpy(), per["size"].to_numpy()
            else:
                k_g, m_g = won.to_numpy(), np.ones(len(won))
            p, low, high, deff = clustered_wilson(k_g, m_g, level)
            records.append({**dict(zip(cells, cell_key)), item: value, "games": int(m_g.sum()),
                            "wins": int(round(k_g.sum())), "win_rate": p, "ci_low": low,
                            "ci_high": high, "design_effect": deff})
    return pd.DataFrame.from_records(records)


def _effective_cluster(rows: pd.DataFrame, item: str, cluster: str | None) -> str | None:
    """``cluster`` if some cluster holds several rows of one cell × item, else None."""
    if cluster is None or cluster not in rows.columns:
        return None
    sizes = rows.groupby(group_keys(rows, [item, cluster]), sort=False).size()
    return cluster if (sizes > 1).any() else None


def seat_win_rates(players: pd.DataFrame, confidence: float = 0.95, simultaneous: bool = True,
                   cluster: str | None = "seed") -> pd.DataFrame:
    """Win rate of each seat per cell (variant × line-up), with simultaneous CIs.

    Simultaneous (``simultaneous=True``) intervals cover all n seats of a cell at once with
    probability >= ``confidence``: Goodman's intervals for the multinomial "which seat won"
    (statsmodels ``multinomial_proportions_confint(..., method="goodman")``) when every match
    of the cell has exactly one winning seat and no clustering applies; otherwise Wilson at
    α/n (Bonferroni), which is the same formula. ``cluster`` (default ``seed``) names the
    column whose equal values mark correlated matches; it is ignored when every cluster holds
    one match of the cell.

    Args:
        players: the players table (``seat``, ``won``, ``match`` and the cell keys).
        confidence: simultaneous (or per-seat) coverage, e.g. 0.95.
        simultaneous: False gives per-seat Wilson intervals.
        cluster: column of the clusters, or None to treat matches as independent.

    Returns:
        one row per cell × seat: ``games``, ``wins``, ``win_rate``, ``ci_low``, ``ci_high``
        (proportions), ``design_effect``, ``method``.
    """
    cluster = _effective_cluster(players, "seat", cluster)
    table = _rates_table(players, "seat", "won", confidence, cluster, simultaneous)
    if not simultaneous:
        table["method"] = "Wilson" + (f", clustered by {cluster}" if cluster else "")
    else:
        table["method"] = f"Bonferroni–Wilson, clustered by {cluster}" if cluster else "Bonferroni–Wilson"
    if simultaneous and cluster is None:
        _goodman_inplace(players, table, confidence)
    return table


def _goodman_inplace(players: pd.DataFrame, table: pd.DataFrame, confidence: float) -> None:
    """Take statsmodels' Goodman bounds for the cells where "which seat won" is multinomial."""
    cells = group_keys(players)
    for key, group in (players.groupby(cells, sort=True) if cells else [((), players)]):
        key = key if isinstance(key, tuple) else (key,)
        if group.groupby("match")["won"].sum().ne(1).any():
            continue  # draws or shared wins: not one multinomial draw per match; Bonferroni stays
        counts = group.groupby("seat", sort=True)["won"].sum().to_numpy()
        bounds = multinomial_proportions_confint(counts, alpha=1 - confidence, method="goodman")
        mask = np.ones(len(table), dtype=bool)
        for column, value in zip(cells, key):
            mask &= (table[column] == value).to_numpy()
        table.loc[mask, "ci_low"] = bounds[:, 0]
        table.loc[mask, "ci_high"] = bounds[:, 1]
        table.loc[mask, "method"] = "Goodman"


def team_win_rates(players: pd.DataFrame, confidence: float = 0.95, simultaneous: bool = True,
                   cluster: str | None = "seed") -> pd.DataFrame:
    """Win rate of each team per cell, like :func:`seat_win_rates` (empty without teams).

    A team appears once per match (its seats merged); it won if any of its seats won.
    Simultaneous intervals are Wilson at α/(number of teams) (Bonferroni).
    """
    if "team" not in players.columns or not (players["team"] >= 0).any():
        return pd.DataFrame()
    extra = [cluster] if cluster is not None and cluster in players.columns else []
    keys = group_keys(players, ["match", "team", *extra])
    teams = players[players["team"] >= 0].groupby(keys, sort=True)["won"].any().reset_index()
    cluster = _effective_cluster(teams, "team", cluster)
    table = _rates_table(teams, "team", "won", confidence, cluster, simultaneous)
    table["method"] = ("Bonferroni–Wilson" if simultaneous else "Wilson") + \
        (f", clustered by {cluster}" if cluster else "")
    return table


def profile_win_rates(players: pd.DataFrame, confidence: float = 0.95,
                      cluster: str | None = "seed") -> pd.DataFrame:
    """Per-seat win rate of each profile per cell, with Wilson CIs clustered by seed.

    A profile holding several seats counts one appearance per seat (as :func:`win_rates`);
    appearances in one seed are correlated, hence the design-effect adjustment.

    Returns:
        one row per cell × profile: ``games`` (appearances), ``wins``, ``win_rate``,
        ``ci_low``, ``ci_high``, ``design_effect``, ``method``.
    """
    cluster = _effective_cluster(players, "profile", cluster)
    table = _rates_table(players, "profile", "won", confidence, cluster, simultaneous=False)
    table["method"] = "Wilson" + (f", clustered by {cluster}" if cluster else "")
    return table
