"""Skill versus luck: how much a stronger profile's edge decides matches (games as mixtures of
skill and coin flips: Duersch, Lambrecht & Oechssler 2020, "Measuring skill and chance in
games", European Economic Review 127).

* **Skill share** of a profile holding m of the n seats of a line-up, from q, the share of
  the decided matches it wins (any of its seats wins). In a skill-or-coin-flip mixture — a
  fraction s of the matches is decided by skill, which this profile always wins, the rest by
  luck, which gives it m/n of them — q = s + (1 − s)·m/n, so s = (q − m/n)/(1 − m/n): 0 is
  pure luck, 1 means it always wins. The parameter lives on [0, 1]: a profile that wins less
  than its fair share gets s = 0 (its skill decides no match; any skill at play is the other
  profiles'), and its interval is the clustered Wilson interval of q mapped through the same
  formula and clipped to [0, 1] (the intersection of a valid interval with the parameter
  space keeps its coverage). With m = 1 this is the normalised skill share
  (p_strong − 1/n)/(1 − 1/n). The estimate is this restricted maximum likelihood estimate:
  under pure luck it is 0 in about half of the data sets and its mean is about
  0.4·SE(q̂)/(1 − m/n) above 0 (the price of staying inside [0, 1]).
* A profile that **never changes seat** (a mixed line-up without seat rotation) is
  confounded with its seat: its skill share is "not applicable", as is the fairness verdict.
* **Win-rate matrix**: for every ordered pair of distinct profiles (A, B) sharing matches,
  P(A finishes ahead of B), counting a tie as half; pairs are all seat pairs (a, b) with
  profiles A and B in one match. Wilson CI, design-effect adjusted over seeds (several pairs
  of one match, rotations of one seed are correlated), and the equivalent Elo gap
  400·log10(P/(1−P)).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim.core.estimators import cluster_counts, clustered_wilson

__all__ = ["skill_share", "share_from_rate", "profile_matrix", "elo_gap"]


def elo_gap(p: float) -> float:
    """Elo rating gap equivalent to winning a head-to-head share ``p`` (NaN outside (0, 1))."""
    if not 0.0 < p < 1.0:
        return math.nan
    return 400.0 * math.log10(p / (1.0 - p))


def _clusters(frame: pd.DataFrame) -> str:
    return "seed" if "seed" in frame.columns else "match"


def share_from_rate(q, seats: int, n_seats: int):
    """Skill share s = (q − m/n)/(1 − m/n) of a match win rate q, clipped to [0, 1] (vectorised)."""
    luck = seats / n_seats
    return np.clip((np.asarray(q, dtype=float) - luck) / (1.0 - luck), 0.0, 1.0)


def _profile_row(
    cell: pd.DataFrame, profile: str, rows: pd.DataFrame, m: int, n: int, cluster: str, confidence: float
) -> dict:
    """Per-seat win rate and skill share of one profile in one cell."""
    per = rows["won"].astype(float).groupby(rows[cluster]).agg(["sum", "size"])
    p, low, high, _ = clustered_wilson(per["sum"], per["size"], confidence)
    by_match = cell.groupby("match")
    decided = by_match["won"].any()
    won = rows.groupby("match")["won"].any().reindex(decided.index, fill_value=False)[decided]
    clusters = by_match[cluster].first()[decided] if cluster != "match" else won.index
    q, q_low, q_high, _ = clustered_wilson(*cluster_counts(won.to_numpy(float), np.asarray(clusters)), confidence)
    used = np.sort(rows["seat"].unique())
    applicable = m < n and used.size > m  # it holds m seats per match: more seats overall = it moves
    share, share_low, share_high = (
        share_from_rate([q, q_low, q_high], m, n) if applicable and decided.any() else (math.nan,) * 3
    )
    note = (
        ""
        if applicable
        else (f"always in seat{'s' if m > 1 else ''} {', '.join(map(str, used))}: seat and skill confounded")
    )
    return {
        "profile": profile,
        "seats": m,
        "n_seats": n,
        "games": int(per["size"].sum()),
        "win_rate": p,
        "ci_low": low,
        "ci_high": high,
        "decided": int(decided.sum()),
        "match_win_rate": q,
        "share": float(share),
        "share_low": float(share_low),
        "share_high": float(share_high),
        "applicable": bool(applicable),
        "note": note,
    }


def skill_share(players: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Skill share of every profile of every mixed line-up (>= 2 distinct profiles).

    Args:
        players: the players table.
        confidence: coverage of the CIs.

    Returns:
        one row per cell × profile: ``seats`` (m), ``n_seats`` (n), ``games`` (seat
        appearances), ``win_rate``, ``ci_low``, ``ci_high`` (per seat), ``decided``,
        ``match_win_rate`` (q), ``share``, ``share_low``, ``share_high`` (on [0, 1]; NaN when
        not applicable), ``applicable`` (False when the profile never changes seat), ``note``;
        sorted by win rate within each cell.
    """
    records = []
    cluster = _clusters(players)
    for (variant, lineup), cell in players.groupby(["variant", "lineup"], sort=True):
        if cell["profile"].nunique() < 2:
            continue
        n = int(cell["seat"].nunique())
        seats_of = cell[cell["match"] == cell["match"].iloc[0]]["profile"].value_counts()
        for profile, rows in cell.groupby("profile", sort=True):
            m = int(seats_of.get(profile, 1))
            records.append(
                {"variant": variant, "lineup": lineup, **_profile_row(cell, profile, rows, m, n, cluster, confidence)}
            )
    table = pd.DataFrame.from_records(records)
    if table.empty:
        return table
    return table.sort_values(
        ["variant", "lineup", "win_rate"], ascending=[True, True, False], kind="stable"
    ).reset_index(drop=True)


def profile_matrix(players: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """P(row profile finishes ahead of column profile) for every cell, with CIs.

    Args:
        players: the players table (``rank``: 1 = best; ``profile``; keys).
        confidence: coverage of the Wilson CIs.

    Returns:
        long frame: ``variant``, ``lineup``, ``profile``, ``opponent``, ``pairs``, ``ahead``
        (wins + ties/2), ``p_ahead``, ``ci_low``, ``ci_high``, ``elo``; only ordered pairs
        of distinct profiles.
    """
    keys = ["variant", "lineup", "match"]
    cluster = _clusters(players)
    cols = keys + ["seat", "profile", "rank"] + ([cluster] if cluster not in keys else [])
    mixed = players.groupby(["variant", "lineup"])["profile"].transform("nunique") >= 2
    rows = players.loc[mixed, cols]
    if rows.empty:
        return pd.DataFrame()
    pairs = rows.merge(rows, on=keys + ([cluster] if cluster not in keys else []), suffixes=("", "_opp"))
    pairs = pairs[pairs["profile"] != pairs["profile_opp"]]
    pairs = pairs.assign(
        score=np.where(pairs["rank"] < pairs["rank_opp"], 1.0, np.where(pairs["rank"] == pairs["rank_opp"], 0.5, 0.0))
    )
    records = []
    for (variant, lineup, profile, opponent), group in pairs.groupby(
        ["variant", "lineup", "profile", "profile_opp"], sort=True
    ):
        per = group.groupby(cluster)["score"].agg(["sum", "size"])
        p, low, high, _ = clustered_wilson(per["sum"], per["size"], confidence)
        records.append(
            {
                "variant": variant,
                "lineup": lineup,
                "profile": profile,
                "opponent": opponent,
                "pairs": int(per["size"].sum()),
                "ahead": float(per["sum"].sum()),
                "p_ahead": p,
                "ci_low": low,
                "ci_high": high,
                "elo": elo_gap(p),
            }
        )
    return pd.DataFrame.from_records(records)
