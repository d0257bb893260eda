"""Skill versus luck: how much a stronger profile's edge decides matches (stats.md §4).

* **Skill share** of a profile holding m of the n seats of a line-up: its per-seat win rate
  p rescaled so that 0 = pure luck (p = 1/n, what identical players get) and 1 = that profile
  always wins (p = 1/m): s = (p − 1/n) / (1/m − 1/n). With m = 1 this is stats.md's
  normalised skill share (p_strong − 1/n)/(1 − 1/n), the fraction of "skill-decided"
  matches in a skill-or-coin-flip mixture. Its CI is the Wilson CI of p mapped linearly.
  Only profiles that win at least their fair share (p ≥ 1/n) get a skill share.
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

from .winrates import clustered_wilson

__all__ = ["skill_share", "profile_matrix", "elo_gap"]


def elo_gap(p: float) -> float:
    """Elo rating gap equivalent to winning a head-to-head share ``p`` (NaN outside (0, 1))."""
    if not 0.0 < p < 1.0:
        return math.nan
    return 400.0 * math.log10(p / (1.0 - p))


def _clusters(frame: pd.DataFrame) -> str:
    return "seed" if "seed" in frame.columns else "match"


def skill_share(players: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Skill share of every profile of every mixed line-up (>= 2 distinct profiles).

    Args:
        players: the players table.
        confidence: coverage of the CIs.

    Returns:
        one row per cell × profile: ``seats`` (m), ``n_seats`` (n), ``games`` (seat
        appearances), ``win_rate``, ``ci_low``, ``ci_high`` (per seat), ``share``,
        ``share_low``, ``share_high`` (skill share, 0 = luck, 1 = always wins; NaN below the
        fair share), sorted by win rate within each cell.
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
            per = rows["won"].astype(float).groupby(rows[cluster]).agg(["sum", "size"])
            p, low, high, _ = clustered_wilson(per["sum"], per["size"], confidence)
            scale = 1.0 / m - 1.0 / n
            stronger = scale > 0 and p >= 1.0 / n
            to_share = (lambda x: (x - 1.0 / n) / scale) if stronger else (lambda x: math.nan)
            records.append({"variant": variant, "lineup": lineup, "profile": profile, "seats": m,
                            "n_seats": n, "games": int(per["size"].sum()), "win_rate": p,
                            "ci_low": low, "ci_high": high, "share": to_share(p),
                            "share_low": to_share(low), "share_high": to_share(high)})
    table = pd.DataFrame.from_records(records)
    if table.empty:
        return table
    return table.sort_values(["variant", "lineup", "win_rate"], ascending=[True, True, False],
                             kind="stable").reset_index(drop=True)


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
    pairs = pairs.assign(score=np.where(pairs["rank"] < pairs["rank_opp"], 1.0,
                                        np.where(pairs["rank"] == pairs["rank_opp"], 0.5, 0.0)))
    records = []
    for (variant, lineup, profile, opponent), group in pairs.groupby(
            ["variant", "lineup", "profile", "profile_opp"], sort=True):
        per = group.groupby(cluster)["score"].agg(["sum", "size"])
        p, low, high, _ = clustered_wilson(per["sum"], per["size"], confidence)
        records.append({"variant": variant, "lineup": lineup, "profile": profile, "opponent": opponent,
                        "pairs": int(per["size"].sum()), "ahead": float(per["sum"].sum()),
                        "p_ahead": p, "ci_low": low, "ci_high": high, "elo": elo_gap(p)})
    return pd.DataFrame.from_records(records)
