"""Win rates with confidence intervals (Wilson 1927; Clopper & Pearson 1934).

* One rate: Wilson score interval — approximate: its exact coverage oscillates around the
  nominal level; at 95 % and p in [0.1, 0.9] its minimum is 92.6 % at n = 20, 93.3 % at
  n = 100, 94.4 % at n = 1,000 (mean about 95 %). Use the simultaneous intervals below when a
  guarantee is needed.
* All seats (or teams) of a line-up at once: Bonferroni–Clopper–Pearson, i.e. the exact
  Clopper–Pearson interval of each seat at α/k. Each seat's interval covers with probability
  at least 1 − α/k whatever n and p, so all k cover at once with probability at least
  1 − α (union bound): a guarantee at n = 10 as at n = 10,000, where Goodman's intervals
  fall below their level at small n (exact joint coverage with four equal seats 0.921 at
  n = 10, 0.935 at n = 20, 0.940 at n = 40; these are 0.986, 0.973, 0.965). At large n they
  are about as wide as Goodman's.
* Matches that share a seed (seat rotation plays each seed under every rotation) are not
  independent: a seat keeps its own random stream across the rotations of a seed. Rates are
  then computed on the effective sample size n / (deff·c), with deff from the cluster-robust
  variance of the rate (Korn & Graubard 1998) — below 1 when a seat's wins within a seed are
  negatively correlated, so the interval is narrower than that of independent matches — and
  c the small-sample factor (Student's t over the G seeds; :mod:`sim.core.estimators`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from sim.core.estimators import (
    clustered_wilson,
    design_effect,
    design_effects,
    estimable,
    exact_interval,
    small_sample_factor,
    wilson_interval,
)

__all__ = [
    "wilson_interval",
    "exact_interval",
    "win_rates",
    "design_effect",
    "clustered_wilson",
    "simultaneous_intervals",
    "seat_win_rates",
    "team_win_rates",
    "profile_win_rates",
    "rate_moments",
    "merge_moments",
    "rates_from_moments",
    "MOMENTS",
    "team_rows",
    "group_keys",
]

#: Columns that identify one cell (variant × line-up) of a results directory.
CELL = ("variant", "lineup")


def group_keys(frame: pd.DataFrame, extra: Sequence[str] = ()) -> list[str]:
    """The cell columns present in ``frame`` followed by ``extra``."""
    return [c for c in CELL if c in frame.columns] + list(extra)


def simultaneous_intervals(
    successes, trials, items, confidence: float = 0.95, design_eff=1.0
) -> tuple[np.ndarray, np.ndarray]:
    """Bonferroni–Clopper–Pearson bounds: each rate at level 1 − (1 − confidence)/items.

    Args:
        successes, trials: counts per rate (arrays).
        items: how many rates share the family (e.g. the seats of a line-up), per rate.
        confidence: joint coverage of the family (at least this, for every n and p).
        design_eff: design effect per rate, small-sample factor included (the interval uses
            k/deff of n/deff).
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    deff = np.asarray(design_eff, dtype=float)
    level = 1 - (1 - confidence) / np.asarray(items, dtype=float)
    return exact_interval(k / deff, n / deff, level)


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


#: The sums over clusters that a rate's clustered interval needs (:func:`rate_moments`).
MOMENTS = ("k", "m", "g", "big", "k2", "km", "m2")


def rate_moments(rows: pd.DataFrame, item: str, outcome: str, cluster: str | None) -> pd.DataFrame:
    """Per cell × ``item``: the sums over clusters a clustered rate needs.

    ``k`` successes, ``m`` trials, ``g`` clusters, ``big`` the largest cluster, and Σk², Σkm,
    Σm² over clusters (``k2``, ``km``, ``m2``). Moments of disjoint sets of clusters add up
    (``big``: the larger), so a run read slice by slice, whole clusters per slice, gives the
    moments of the whole run (:func:`merge_moments`). ``cluster`` None: every row a cluster.
    """
    keys = group_keys(rows, [item])
    frame = rows[keys].copy()
    frame["k"] = rows[outcome].astype(float).to_numpy()
    if cluster is not None:
        frame["_cluster"] = rows[cluster].to_numpy()
        per = frame.groupby(keys + ["_cluster"], sort=True)["k"].agg(k="sum", m="size").reset_index()
    else:
        per = frame.assign(m=1.0)
    per["m"] = per["m"].astype(float)
    per["k2"], per["km"], per["m2"] = per["k"] ** 2, per["k"] * per["m"], per["m"] ** 2
    return (
        per.groupby(keys, sort=True)
        .agg(
            k=("k", "sum"),
            m=("m", "sum"),
            g=("k", "size"),
            big=("m", "max"),
            k2=("k2", "sum"),
            km=("km", "sum"),
            m2=("m2", "sum"),
        )
        .reset_index()
    )


def merge_moments(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """The moments of the union of disjoint sets of clusters (:func:`rate_moments`)."""
    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame()
    both = pd.concat(frames, ignore_index=True)
    keys = [c for c in both.columns if c not in MOMENTS]
    sums = {c: "sum" for c in MOMENTS}
    sums["big"] = "max"
    return both.groupby(keys, sort=True).agg(sums).reset_index()


def rates_from_moments(moments: pd.DataFrame, item: str, confidence: float, simultaneous: bool) -> pd.DataFrame:
    """Rate per cell × ``item`` with clustered CIs, from :func:`rate_moments` (no ``method``).

    Vectorised form of :func:`~sim.core.estimators.clustered_wilson` over every group at
    once; ``simultaneous`` gives Bonferroni–Clopper–Pearson bounds over the items of a cell
    (on the same effective sample sizes) instead of per-item Wilson bounds. The residual
    Σ(k − p̂m)² is Σk² − 2p̂Σkm + p̂²Σm².
    """
    cells = group_keys(moments)
    keys = cells + [item]
    totals = moments.set_index(keys).sort_index()
    n, g = totals["m"], totals["g"]
    p = totals["k"] / n
    residual = (totals["k2"] - 2 * p * totals["km"] + p**2 * totals["m2"]).clip(lower=0.0)
    deff = design_effects(residual, n, p, g, totals["big"])
    estimated = estimable(p, g, totals["big"])
    if simultaneous:
        items = totals["k"].groupby(level=cells).transform("size") if cells else pd.Series(len(totals), totals.index)
        items = items.to_numpy()
        scale = deff * small_sample_factor(g, (1 - confidence) / (2 * items), estimated)
        low, high = simultaneous_intervals(totals["k"], n, items, confidence, scale)
    else:
        scale = deff * small_sample_factor(g, (1 - confidence) / 2, estimated)
        low, high = wilson_interval((p * n / scale).to_numpy(), (n / scale).to_numpy(), confidence)
    out = totals.reset_index()[keys]
    out["games"] = n.to_numpy().astype(int)
    out["wins"] = np.round(totals["k"].to_numpy()).astype(int)
    out["win_rate"], out["ci_low"], out["ci_high"], out["design_effect"] = p.to_numpy(), low, high, deff
    return out


def _rates_table(
    rows: pd.DataFrame, item: str, outcome: str, confidence: float, cluster: str | None, simultaneous: bool
) -> pd.DataFrame:
    """Rate of ``outcome`` per cell × ``item`` with clustered CIs (:func:`rates_from_moments`)."""
    return rates_from_moments(rate_moments(rows, item, outcome, cluster), item, confidence, simultaneous)


def _effective_cluster(rows: pd.DataFrame, item: str, cluster: str | None) -> str | None:
    """``cluster`` if some cluster holds several rows of one cell × item, else None."""
    if cluster is None or cluster not in rows.columns:
        return None
    sizes = rows.groupby(group_keys(rows, [item, cluster]), sort=False).size()
    return cluster if (sizes > 1).any() else None


def seat_win_rates(
    players: pd.DataFrame, confidence: float = 0.95, simultaneous: bool = True, cluster: str | None = "seed"
) -> pd.DataFrame:
    """Win rate of each seat per cell (variant × line-up), with simultaneous CIs.

    Simultaneous (``simultaneous=True``) intervals cover all n seats of a cell at once with
    probability >= ``confidence`` for every number of matches: Bonferroni–Clopper–Pearson
    (:func:`simultaneous_intervals`). ``cluster`` (default ``seed``) names the column whose
    equal values mark correlated matches; it is ignored when every cluster holds one match
    of the cell, and otherwise the intervals use the effective sample size n / deff.

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
    method = "Bonferroni–Clopper–Pearson" if simultaneous else "Wilson"
    table["method"] = method + (f", clustered by {cluster}" if cluster else "")
    return table


def team_rows(players: pd.DataFrame, cluster: str | None = "seed") -> pd.DataFrame:
    """One row per match × team: its seats merged, ``won`` if any of them won (with the cell keys
    and ``cluster`` when present); empty without teams."""
    if "team" not in players.columns or not (players["team"] >= 0).any():
        return pd.DataFrame()
    extra = [cluster] if cluster is not None and cluster in players.columns else []
    keys = group_keys(players, ["match", "team", *extra])
    return players[players["team"] >= 0].groupby(keys, sort=True)["won"].any().reset_index()


def team_win_rates(
    players: pd.DataFrame, confidence: float = 0.95, simultaneous: bool = True, cluster: str | None = "seed"
) -> pd.DataFrame:
    """Win rate of each team per cell, like :func:`seat_win_rates` (empty without teams).

    A team appears once per match (its seats merged); it won if any of its seats won.
    Simultaneous intervals are Clopper–Pearson at α/(number of teams) (Bonferroni).
    """
    teams = team_rows(players, cluster)
    if teams.empty:
        return pd.DataFrame()
    cluster = _effective_cluster(teams, "team", cluster)
    table = _rates_table(teams, "team", "won", confidence, cluster, simultaneous)
    table["method"] = ("Bonferroni–Clopper–Pearson" if simultaneous else "Wilson") + (
        f", clustered by {cluster}" if cluster else ""
    )
    return table


def profile_win_rates(players: pd.DataFrame, confidence: float = 0.95, cluster: str | None = "seed") -> pd.DataFrame:
    """Per-seat win rate of each profile per cell, with Wilson CIs clustered by seed.

    These are the intervals balance validation uses for ``profile_win_rate`` targets
    (:func:`analysis.balance.targets.measure_all`): the same function on the same tables.

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
