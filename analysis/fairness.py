"""Seat fairness: equivalence (TOST) of win shares against a fairness band (stats.md §1, §3).

"Not significantly unfair" is not evidence of fairness. A seat is shown to be fair when its
win share lies inside the band 1/n ± δ by two one-sided tests (TOST): H01 "share ≤ 1/n − δ"
and H02 "share ≥ 1/n + δ" are both rejected at level α. That is the same as the (1 − 2α)
interval lying inside the band.

The share is taken over the matches *that had a winner* (a seat's wins over decided
matches), so a fair game has share 1/n whatever its draw rate. Team games are judged by team.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from .winrates import clustered_wilson, group_keys

__all__ = ["tost_rate", "matches_for_equivalence", "seat_fairness", "cell_verdict", "omnibus_test",
           "VERDICTS"]

#: Verdict of a seat (or of a whole line-up), from best to worst.
VERDICTS = {
    "fair": "inside the band (TOST)",
    "inconclusive": "not enough matches to decide",
    "small bias": "differs from 1/n, but not shown to leave the band",
    "unfair": "outside the band",
}


def tost_rate(successes: float, trials: float, low: float, high: float, alpha: float = 0.05,
              design_eff: float = 1.0) -> dict[str, float | bool]:
    """Two one-sided tests that a proportion lies in ``(low, high)``.

    With ``design_eff == 1`` and integer counts, exact binomial tests
    (``scipy.stats.binomtest(k, n, low, alternative="greater")`` and
    ``binomtest(k, n, high, alternative="less")``); with clustered data, score (z) tests on
    the effective sample size n/deff, consistent with the clustered Wilson interval.

    Args:
        successes: wins k.
        trials: decided matches n (> 0).
        low, high: the band, as proportions.
        alpha: level of each one-sided test.
        design_eff: design effect of the clustering (>= 1).

    Returns:
        ``p_low`` (test of H01: p ≤ low), ``p_high`` (H02: p ≥ high), ``p`` (their maximum,
        the TOST p-value) and ``equivalent`` (p < alpha).
    """
    if trials <= 0:
        return {"p_low": math.nan, "p_high": math.nan, "p": math.nan, "equivalent": False}
    exact = design_eff == 1.0 and float(successes).is_integer() and float(trials).is_integer()
    if exact:
        k, n = int(successes), int(trials)
        p_low = stats.binomtest(k, n, low, alternative="greater").pvalue if low > 0 else 0.0
        p_high = stats.binomtest(k, n, high, alternative="less").pvalue if high < 1 else 0.0
    else:
        n = trials / design_eff
        p_hat = successes / trials
        p_low = float(stats.norm.sf((p_hat - low) / math.sqrt(low * (1 - low) / n))) if low > 0 else 0.0
        p_high = float(stats.norm.cdf((p_hat - high) / math.sqrt(high * (1 - high) / n))) if high < 1 else 0.0
    p = max(p_low, p_high)
    return {"p_low": float(p_low), "p_high": float(p_high), "p": float(p), "equivalent": bool(p < alpha)}


def matches_for_equivalence(share: float, margin: float, alpha: float = 0.05,
                            power: float = 0.8, design_eff: float = 1.0) -> int:
    """Decided matches for TOST to show ``share`` within ± ``margin`` when it is on target.

    n = (z_{1−α} + z_{1−β/2})² · p(1−p) / δ² · deff (stats.md §3).
    """
    z = stats.norm.ppf(1 - alpha) + stats.norm.ppf(1 - (1 - power) / 2)
    return int(math.ceil(z**2 * share * (1 - share) / margin**2 * design_eff))


def _verdict(share_low: float, share_high: float, target: float, margin: float, equivalent: bool) -> str:
    if equivalent:
        return "fair"
    if share_low > target + margin or share_high < target - margin:
        return "unfair"
    if share_low > target or share_high < target:
        return "small bias"
    return "inconclusive"


def seat_fairness(players: pd.DataFrame, margin: float = 0.02, alpha: float = 0.05,
                  confidence: float = 0.95, cluster: str | None = "seed",
                  applicable: dict | None = None) -> pd.DataFrame:
    """Fairness of each seat (or team) of each cell: share of decided matches won vs 1/n ± δ.

    Args:
        players: the players table (``seat``, ``won``, ``match``, optional ``team``, cell keys).
        margin: δ, half-width of the band, as a proportion (0.02 = ±2 points).
        alpha: level of each one-sided TOST test (α = 0.05 ⇔ a 90 % CI inside the band).
        confidence: simultaneous coverage of the CIs of a cell's shares (Wilson at α/n, so a
            "bias" verdict on any of the n seats keeps its error rate below 1 − confidence;
            "fair" needs every seat's TOST, an intersection-union test needing no correction).
        cluster: column of correlated matches (``seed`` under seat rotation), or None.
        applicable: optional {(variant, lineup): bool}; cells marked False (a mixed line-up
            without seat rotation, where seat and profile are confounded) get the verdict
            ``not applicable``.

    Returns:
        one row per cell × seat (or team): ``unit`` (seat/team), ``id``, ``decided``,
        ``wins``, ``share``, ``ci_low``, ``ci_high``, ``target`` (1/n), ``p_tost``,
        ``verdict``, ``matches_needed`` (decided matches TOST would need if on target).
    """
    cells = group_keys(players)
    teams = "team" in players.columns and (players["team"] >= 0).any()
    unit = "team" if teams else "seat"
    rows = players[players["team"] >= 0] if teams else players
    extra = [cluster] if cluster is not None and cluster in rows.columns else []
    per_match = rows.groupby(cells + ["match", unit] + extra, sort=True)["won"].any().reset_index()
    decided = per_match.groupby(cells + ["match"])["won"].transform("any")
    per_match = per_match[decided]
    all_ids = ({k if isinstance(k, tuple) else (k,): sorted(v)
                for k, v in rows.groupby(cells, sort=True)[unit].unique().items()}
               if cells else {(): sorted(rows[unit].unique())})
    records = []
    for key, cell in (per_match.groupby(cells, sort=True) if cells else [((), per_match)]):
        key = key if isinstance(key, tuple) else (key,)
        ids = all_ids[key]
        target = 1.0 / len(ids)
        simultaneous = 1 - (1 - confidence) / len(ids)  # Bonferroni over the cell's seats
        ok = True if applicable is None else applicable.get(key, True)
        for ident in ids:
            won = ((cell[unit] == ident) & cell["won"]).groupby([cell[c] for c in ["match"] + extra]).any()
            if extra:
                per = won.groupby(level=extra[0]).agg(["sum", "size"])
                k_g, m_g = per["sum"].to_numpy(float), per["size"].to_numpy(float)
            else:
                k_g, m_g = won.to_numpy(float), np.ones(len(won))
            share, low, high, deff = clustered_wilson(k_g, m_g, simultaneous)
            test = tost_rate(k_g.sum(), m_g.sum(), target - margin, target + margin, alpha, deff)
            verdict = _verdict(low, high, target, margin, test["equivalent"]) if ok else "not applicable"
            records.append({**dict(zip(cells, key)), "unit": unit, "id": int(ident),
                            "decided": int(m_g.sum()), "wins": int(k_g.sum()), "share": share,
                            "ci_low": low, "ci_high": high, "target": target, "margin": margin,
                            "p_tost": test["p"], "verdict": verdict, "design_effect": deff,
                            "matches_needed": matches_for_equivalence(target, margin, alpha, 0.8, deff)})
    return pd.DataFrame.from_records(records)


def cell_verdict(seats: pd.DataFrame) -> str:
    """One verdict for a cell from its seats' verdicts: fair only if every seat is fair."""
    verdicts = set(seats["verdict"])
    for worst in ("not applicable", "unfair", "small bias", "inconclusive"):
        if worst in verdicts:
            return worst
    return "fair"


def omnibus_test(seats: pd.DataFrame) -> float:
    """Chi-square p-value that all seats (or teams) of one cell share the decided matches equally.

    ``scipy.stats.chisquare(wins)`` with uniform expected counts (stats.md §1). Under
    clustering (seat rotation) the statistic is divided by the mean design effect of the seats
    (first-order Rao–Scott correction) before its p-value is taken.

    Args:
        seats: the rows of one cell from :func:`seat_fairness`.
    """
    wins = seats["wins"].to_numpy(dtype=float)
    if wins.sum() == 0 or len(wins) < 2:
        return float("nan")
    result = stats.chisquare(wins)
    deff = float(seats["design_effect"].mean()) if "design_effect" in seats else 1.0
    if deff == 1.0:
        return float(result.pvalue)
    return float(stats.chi2.sf(result.statistic / deff, len(wins) - 1))
