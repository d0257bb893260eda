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
    # exact in theory, off by rounding in floating point (e.g. 5e-17 at k = 0): make it exact
    successes, trials = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = successes / trials
    low = np.clip(np.fmin(np.asarray(low, dtype=float), share), 0.0, 1.0)
    high = np.clip(np.fmax(np.asarray(high, dtype=float), share), 0.0, 1.0)
    return np.where(successes <= 0, 0.0, low), np.where(successes >= trials, 1.0, high)


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
    """Rate of ``outcome`` per cell × ``item`` with (clustered, Bonferroni-adjusted) Wilson CIs.

    Vectorised form of :func:`clustered_wilson` over every group at once.
    """
    cells = group_keys(rows)
    keys = cells + [item]
    frame = rows[keys].copy()
    frame["k"] = rows[outcome].astype(float).to_numpy()
    if cluster is not None:
        frame["_cluster"] = rows[cluster].to_numpy()
        per = frame.groupby(keys + ["_cluster"], sort=True)["k"].agg(k="sum", m="size").reset_index()
    else:
        per = frame.assign(m=1.0)
    per["m"] = per["m"].astype(float)
    totals = per.groupby(keys, sort=True).agg(k=("k", "sum"), m=("m", "sum"), g=("k", "size"),
                                               big=("m", "max"))
    p = totals["k"] / totals["m"]
    shares = per.merge(p.rename("p").reset_index(), on=keys, how="left")
    residual = ((shares["k"] - shares["p"] * shares["m"]) ** 2).groupby(
        [shares[c] for c in keys], sort=True).sum()
    n, g = totals["m"], totals["g"]
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = (g / (g - 1) * residual / n**2) / (p * (1 - p) / n)
    defined = (g >= 2) & (totals["big"] > 1) & (p > 0) & (p < 1)
    deff = np.where(defined, np.fmax(1.0, ratio), 1.0)
    if simultaneous:
        items = totals["k"].groupby(level=cells).transform("size") if cells else pd.Series(len(totals), totals.index)
        levels = 1 - (1 - confidence) / items.to_numpy()
    else:
        levels = np.full(len(totals), confidence)
    low, high = np.empty(len(totals)), np.empty(len(totals))
    for level in np.unique(levels):
        at = levels == level
        low[at], high[at] = wilson_interval((p * n / deff)[at], (n / deff)[at], float(level))
    out = totals.reset_index()[keys]
    out["games"] = n.to_numpy().astype(int)
    out["wins"] = np.round(totals["k"].to_numpy()).astype(int)
    out["win_rate"], out["ci_low"], out["ci_high"], out["design_effect"] = p.to_numpy(), low, high, deff
    return out


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
    per_match = players.groupby(cells + ["match"], sort=False)["won"].sum()
    # draws or shared wins: not one multinomial draw per match, the Bonferroni bounds stay
    single = (per_match == 1).groupby(level=cells, sort=False).all() if cells else per_match.eq(1).all()
    if not cells and not single:
        return
    selected = table.set_index(cells).index.isin(single[single].index) if cells else np.ones(len(table), bool)
    for _, group in table[selected].groupby(cells, sort=False) if cells else [((), table)]:
        wins, games = group["wins"].to_numpy(float), group["games"].to_numpy(float)
        ci = multinomial_proportions_confint(wins, alpha=1 - confidence, method="goodman")
        share = wins / games  # as for Wilson: rounding must not push a bound past the estimate
        table.loc[group.index, "ci_low"] = np.where(wins <= 0, 0.0, np.clip(np.fmin(ci[:, 0], share), 0, 1))
        table.loc[group.index, "ci_high"] = np.where(wins >= games, 1.0, np.clip(np.fmax(ci[:, 1], share), 0, 1))
        table.loc[group.index, "method"] = "Goodman"


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
