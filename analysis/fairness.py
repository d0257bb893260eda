"""Seat fairness: equivalence (TOST) of win shares against a fairness band (two one-sided tests:
Schuirmann 1987, J. Pharmacokinet. Biopharm. 15).

"Not significantly unfair" is not evidence of fairness. A seat is shown to be fair when its
win share lies inside the band 1/n ± δ by two one-sided tests (TOST): H01 "share ≤ 1/n − δ"
and H02 "share ≥ 1/n + δ" are both rejected. A line-up is fair when every seat is (an
intersection-union test: its p-value is the largest of its seats'). The tests are exact
binomial tests (the tails the Clopper–Pearson interval inverts), on the effective sample
size n / deff when seeds hold several rotations (:mod:`sim.core.estimators`).

A line-up is *biased* when some seat's share differs from 1/n: each seat's two-sided exact
test (twice the smaller tail), Bonferroni over the seats of the line-up.

**Several line-ups.** Every cell (variant × line-up) of a report makes up to two claims —
"fair" and "biased" — and the report's claims are one family: their p-values are adjusted
together by Holm's step-down procedure sharpened with the logical constraint that at most one
of a cell's two null hypotheses can be true (the shares cannot be both exactly 1/n and outside
the band; Shaffer 1986): at each step the p-value is multiplied by the number of cells that
still have an unrejected hypothesis. The chance that any verdict of the report is false stays
at most α; with a single line-up this is exactly the unadjusted tests. Each seat's interval is
shown at the level that matches its cell's adjusted p-value (the Holm-consistent level
α·p/p_adjusted, Clopper–Pearson, Bonferroni over the seats), so a seat's interval excludes
1/n exactly when its cell is flagged as biased.

The share is taken over the matches *that had a winner* (a seat's wins over decided
matches), so a fair game has share 1/n whatever its draw rate. Team games are judged by team.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import stats

from sim.core.estimators import design_effects, estimable, exact_interval, exact_tails, small_sample_factor

from .winrates import group_keys

__all__ = [
    "tost_rate",
    "bias_pvalue",
    "matches_for_equivalence",
    "fair_power",
    "lineup_matches_needed",
    "seat_fairness",
    "family_adjust",
    "cell_verdict",
    "omnibus_test",
    "VERDICTS",
]

#: Verdict of a seat (or of a whole line-up), from best to worst.
VERDICTS = {
    "fair": "inside the band (TOST, family-wise over the report's line-ups)",
    "inconclusive": "not enough matches to decide",
    "small bias": "differs from 1/n, but not shown to leave the band",
    "unfair": "outside the band",
}


def tost_rate(
    successes: float, trials: float, low: float, high: float, alpha: float = 0.05, design_eff: float = 1.0
) -> dict[str, float | bool]:
    """Two one-sided exact tests that a proportion lies in ``(low, high)``.

    ``P(X ≥ k | low)`` and ``P(X ≤ k | high)`` for X binomial — with integer counts and
    ``design_eff == 1`` exactly ``scipy.stats.binomtest(k, n, low, alternative="greater")``
    and ``binomtest(k, n, high, alternative="less")``; with clustered data the same tails on
    the effective counts k/deff of n/deff (regularised incomplete beta). Both reject at α
    exactly when the (1 − 2α) Clopper–Pearson interval lies inside the band.

    Returns:
        ``p_low`` (test of H01: p ≤ low), ``p_high`` (H02: p ≥ high), ``p`` (their maximum,
        the TOST p-value) and ``equivalent`` (p < alpha).
    """
    if trials <= 0:
        return {"p_low": math.nan, "p_high": math.nan, "p": math.nan, "equivalent": False}
    k, n = successes / design_eff, trials / design_eff
    p_low = float(exact_tails(k, n, low)[0]) if low > 0 else 0.0
    p_high = float(exact_tails(k, n, high)[1]) if high < 1 else 0.0
    p = max(p_low, p_high)
    return {"p_low": p_low, "p_high": p_high, "p": p, "equivalent": bool(p < alpha)}


def bias_pvalue(successes, trials, target, design_eff=1.0) -> np.ndarray:
    """Two-sided exact p-value of "share = target": twice the smaller binomial tail (vectorised).

    The test the two-sided Clopper–Pearson interval inverts: the (1 − a) interval excludes
    ``target`` exactly when this p-value is below a.
    """
    deff = np.asarray(design_eff, dtype=float)
    upper, lower = exact_tails(np.asarray(successes, float) / deff, np.asarray(trials, float) / deff, target)
    return np.minimum(1.0, 2 * np.minimum(upper, lower))


def matches_for_equivalence(
    share: float, margin: float, alpha: float = 0.05, power: float = 0.8, design_eff: float = 1.0
) -> int:
    """Decided matches for one seat's TOST to show ``share`` within ± ``margin`` (normal formula).

    n = (z_{1−α} + z_{1−β/2})² · p(1−p) / δ² · deff (the normal approximation for the
    equivalence test of one proportion: Chow, Shao & Wang 2008, "Sample Size Calculations in
    Clinical Research"). This is per seat; a line-up is fair only if every seat is, which
    needs more (:func:`lineup_matches_needed`).
    """
    z = stats.norm.ppf(1 - alpha) + stats.norm.ppf(1 - (1 - power) / 2)
    return int(math.ceil(z**2 * share * (1 - share) / margin**2 * design_eff))


def _acceptance(n: int, low: float, high: float, alpha: float) -> tuple[int, int]:
    """Counts k whose exact TOST passes at ``alpha``: the integers in [k_low, k_high] (maybe empty)."""
    k_low = int(stats.binom.isf(alpha, n, low)) + 1 if low > 0 else 0
    while k_low > 0 and exact_tails(k_low - 1, n, low)[0] < alpha:
        k_low -= 1
    while k_low <= n and low > 0 and exact_tails(k_low, n, low)[0] >= alpha:
        k_low += 1
    k_high = int(stats.binom.ppf(alpha, n, high)) - 1 if high < 1 else n
    while k_high < n and exact_tails(k_high + 1, n, high)[1] < alpha:
        k_high += 1
    while k_high >= 0 and high < 1 and exact_tails(k_high, n, high)[1] >= alpha:
        k_high -= 1
    return k_low, k_high


def fair_power(
    decided: int,
    seats: int,
    margin: float,
    alpha: float = 0.05,
    design_eff: float = 1.0,
    simulations: int = 10000,
    seed: int = 0,
    clustered: bool = False,
) -> float:
    """P(an exactly fair line-up is shown fair): the report's rule, simulated.

    ``simulations`` line-ups of ``decided`` matches whose winner is uniform over ``seats``
    seats (on the effective size decided/deff under clustering, and with ``clustered`` the
    small-sample factor of decided/seats seeds, one seat rotation each); the line-up passes
    when every seat's exact TOST (:func:`tost_rate`) has p < ``alpha`` — i.e. when every
    seat's count lies in the TOST's acceptance region, computed once from the exact tails.
    """
    factor = float(small_sample_factor(max(decided // seats, 1), alpha, clustered))
    n = max(1, int(round(decided / (design_eff * factor))))
    target = 1.0 / seats
    k_low, k_high = _acceptance(n, max(target - margin, 0.0), min(target + margin, 1.0), alpha)
    if k_low > k_high:
        return 0.0
    counts = np.random.default_rng(seed).multinomial(n, [target] * seats, size=simulations)
    return float(((counts >= k_low) & (counts <= k_high)).all(axis=1).mean())


@lru_cache(maxsize=256)
def lineup_matches_needed(
    seats: int,
    margin: float,
    alpha: float = 0.05,
    power: float = 0.8,
    design_eff: float = 1.0,
    clustered: bool = False,
    simulations: int = 10000,
) -> int:
    """Decided matches for an exactly fair line-up to be shown fair (every seat) with ``power``.

    The smallest n (to 0.5 %) at which :func:`fair_power` reaches ``power``; the simulation
    applies the report's decision rule to all seats jointly. Pass ``alpha`` divided by the
    number of line-ups of the report's family to get a figure that holds whatever the other
    line-ups do (the family-wise procedure rejects at least what Bonferroni does).
    """

    def reaches(n: int) -> bool:
        return fair_power(n, seats, margin, alpha, design_eff, simulations, clustered=clustered) >= power

    low = max(seats, matches_for_equivalence(1.0 / seats, margin, alpha, power, design_eff) // 2)
    high = 2 * low
    while not reaches(high):
        low, high = high, 2 * high
    while high - low > max(1, high // 200):
        middle = (low + high) // 2
        low, high = (low, middle) if reaches(middle) else (middle, high)
    return int(high)


def _verdict(share_low: float, share_high: float, target: float, margin: float, equivalent: bool) -> str:
    if equivalent:
        return "fair"
    if share_low > target + margin or share_high < target - margin:
        return "unfair"
    if share_low > target or share_high < target:
        return "small bias"
    return "inconclusive"


def family_adjust(p_fair, p_bias) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Family-wise adjusted p-values of the cells' "fair" and "biased" claims (module docstring).

    Holm's step-down order over all 2C p-values; at step i the multiplier is the number of
    cells with an unrejected hypothesis left (at most one null per cell can be true).

    Returns:
        (fair_adjusted, bias_adjusted, fair_multiplier, bias_multiplier): the multipliers are
        the ratio adjusted/raw, so a claim at level α·(raw/adjusted) matches the adjustment.
    """
    p_fair, p_bias = np.asarray(p_fair, float), np.asarray(p_bias, float)
    cells = p_fair.size
    values = np.concatenate([p_fair, p_bias])
    owner = np.concatenate([np.arange(cells), np.arange(cells)])
    order = np.argsort(values, kind="stable")
    remaining = np.bincount(owner, minlength=cells)
    adjusted = np.empty_like(values)
    divisor = np.empty_like(values)
    running = 0.0
    for position in order:
        t = int((remaining > 0).sum())
        divisor[position] = t
        running = max(running, min(1.0, t * values[position]))
        adjusted[position] = running
        remaining[owner[position]] -= 1
    with np.errstate(invalid="ignore", divide="ignore"):
        multiplier = np.where(values > 0, adjusted / values, divisor)
    return adjusted[:cells], adjusted[cells:], multiplier[:cells], multiplier[cells:]


def _codes(*columns) -> np.ndarray:
    """One integer code per distinct combination of the columns' values (0, 1, ...)."""
    code = np.zeros(len(columns[0]), dtype=np.int64)
    for column in columns:
        values, uniques = pd.factorize(np.asarray(column))
        code = code * (len(uniques) + 1) + values
    return pd.factorize(code)[0]


def _first(codes: np.ndarray) -> np.ndarray:
    """Index of the first occurrence of each code 0 .. max (codes from :func:`_codes`)."""
    out = np.empty(codes.max() + 1 if codes.size else 0, dtype=np.int64)
    out[codes[::-1]] = np.arange(codes.size)[::-1]
    return out


def _unit_rates(players: pd.DataFrame, cluster: str | None) -> tuple[pd.DataFrame, str, list[str]]:
    """Per cell × unit: wins, decided matches, share and the design effect over the clusters.

    A unit (seat, or team in team games) wins a match if any of its rows won; only decided
    matches (someone won) count. Clusters are the values of ``cluster`` (seeds), else matches.
    """
    cells = group_keys(players)
    teams = "team" in players.columns and (players["team"] >= 0).any()
    unit = "team" if teams else "seat"
    rows = players[players["team"] >= 0] if teams else players
    cell = rows.groupby(cells, sort=True).ngroup().to_numpy() if cells else np.zeros(len(rows), np.int64)
    match = _codes(cell, rows["match"].to_numpy()) if len(rows) else np.zeros(0, int)
    ids = rows[unit].to_numpy()
    won = rows["won"].to_numpy(bool)
    group = rows[cluster].to_numpy() if cluster is not None and cluster in rows.columns else rows["match"].to_numpy()
    clusters = _codes(cell, group) if len(rows) else np.zeros(0, int)
    decided = np.bincount(match, weights=won, minlength=match.max() + 1 if len(match) else 0)[match] > 0
    # one entry per (cell, unit, match): did the unit win it? (teams: several rows per match)
    unit_match = _codes(match, ids)
    first = _first(unit_match)
    unit_won = np.bincount(unit_match, weights=won)[unit_match[first]] > 0
    keep = decided[first]
    cell_u, id_u, cluster_u, won_u = cell[first][keep], ids[first][keep], clusters[first][keep], unit_won[keep]
    # units numbered in (cell, id) order, as the table is sorted
    order = np.lexsort((id_u, cell_u))
    unit_code = _codes(cell_u, id_u)
    rank = np.empty(unit_code.max() + 1 if unit_code.size else 0, np.int64)
    seen = pd.unique(unit_code[order])
    rank[seen] = np.arange(seen.size)
    unit_of = rank[unit_code]
    where = _first(unit_of)
    unit_key = np.stack([cell_u[where], id_u[where]])
    pair = _codes(unit_of, cluster_u)
    k_g = np.bincount(pair, weights=won_u)
    m_g = np.bincount(pair).astype(float)
    owner = np.zeros(k_g.size, np.int64)
    owner[pair] = unit_of
    k, n = np.bincount(owner, weights=k_g), np.bincount(owner, weights=m_g)
    g, big = np.bincount(owner), np.zeros(k.size)
    np.maximum.at(big, owner, m_g)
    share = k / n
    residual = np.bincount(owner, weights=(k_g - share[owner] * m_g) ** 2)
    frame = pd.DataFrame(
        {
            "_cell": pd.factorize(unit_key[0])[0],
            unit: unit_key[1],
            "k": k,
            "n": n,
            "share": share,
            "deff": design_effects(residual, n, share, g, big),
            "clusters": g,
            "clustered": big > 1,
            "estimated": estimable(share, g, big),
        }
    )
    if cells:
        cell_rows = rows.groupby(cells, sort=True).size().reset_index()[cells]
        frame = pd.concat([cell_rows.iloc[unit_key[0]].reset_index(drop=True), frame], axis=1)
    return frame, unit, cells


def seat_fairness(
    players: pd.DataFrame,
    margin: float = 0.02,
    alpha: float = 0.05,
    cluster: str | None = "seed",
    applicable: dict | None = None,
) -> pd.DataFrame:
    """Fairness of each seat (or team) of each cell, with family-wise verdicts over the cells.

    Args:
        players: the players table (``seat``, ``won``, ``match``, optional ``team``, cell keys).
        margin: δ, half-width of the band, as a proportion (0.02 = ±2 points).
        alpha: family-wise error rate of every verdict of the table (each one-sided TOST test
            of a single line-up at α ⇔ its (1 − 2α) interval inside the band).
        cluster: column of correlated matches (``seed`` under seat rotation), or None.
        applicable: optional {(variant, lineup): bool}; cells marked False (a mixed line-up
            without seat rotation, where seat and profile are confounded) get the verdict
            ``not applicable`` and stay out of the family.

    Returns:
        one row per cell × seat (or team): ``unit`` (seat/team), ``id``, ``decided``,
        ``wins``, ``share``, ``ci_low``, ``ci_high`` (at ``ci_level``), ``target`` (1/n),
        ``margin``, ``p_tost``, ``p_bias`` (per seat), ``p_fair_cell``, ``p_bias_cell`` and their
        family-wise adjusted values ``p_fair_adjusted``, ``p_bias_adjusted``, ``verdict``,
        ``design_effect``, ``matches_needed`` (decided matches for an exactly fair line-up of
        this size to be shown fair with 80 % power, all seats jointly, at the family's level).
    """
    rates, unit, cells = _unit_rates(players, cluster)
    if rates.empty:
        return pd.DataFrame()
    cell = rates["_cell"].to_numpy()
    first = _first(cell)  # one row per cell
    k, n, deff, groups = (rates[c].to_numpy(float) for c in ("k", "n", "deff", "clusters"))
    clustered, estimated = rates["clustered"].to_numpy(bool), rates["estimated"].to_numpy(bool)
    seats = np.bincount(cell)[cell]
    target = 1.0 / seats

    def scaled(tail):  # the design effect times the small-sample factor at a one-sided tail
        return deff * small_sample_factor(groups, tail, estimated)

    p_tost = _tost_pvalues(k, n, target, margin, scaled(alpha))
    p_bias = bias_pvalue(k, n, target, scaled(alpha / (2 * seats)))
    fair_cell = np.zeros(first.size)
    np.maximum.at(fair_cell, cell, p_tost)
    bias_min = np.ones(first.size)
    np.minimum.at(bias_min, cell, p_bias)
    bias_cell = np.minimum(1.0, bias_min * seats[first])
    keys = [tuple(r) for r in rates[cells].to_numpy()[first]] if cells else [()]
    member = np.array([True if applicable is None else bool(applicable.get(key, True)) for key in keys])
    fair_adj, bias_adj, level_of_cell = np.ones(first.size), np.ones(first.size), np.full(first.size, alpha)
    if member.any():
        fair_adj[member], bias_adj[member], _, multiplier = family_adjust(fair_cell[member], bias_cell[member])
        level_of_cell[member] = alpha / multiplier
    level = 1 - level_of_cell[cell] / seats
    scale = scaled((1 - level) / 2)
    low, high = exact_interval(k / scale, n / scale, level)
    fair = fair_adj[cell] < alpha
    verdicts = [
        _verdict(lo, hi, t, margin, f) if ok else "not applicable"
        for lo, hi, t, f, ok in zip(low, high, target, fair, member[cell])
    ]
    family = max(1, int(member.sum()))
    worst = np.zeros(first.size)
    np.maximum.at(worst, cell, deff)
    needed = np.array(
        [
            lineup_matches_needed(
                int(seats[i]), margin, alpha / family, 0.8, float(f"{worst[c]:.2g}"), bool(clustered[cell == c].any())
            )
            for c, i in enumerate(first)
        ]
    )[cell]
    out = rates[cells].reset_index(drop=True) if cells else pd.DataFrame(index=range(len(rates)))
    columns = {
        "unit": unit,
        "id": rates[unit].to_numpy().astype(int),
        "decided": n.astype(int),
        "wins": k.astype(int),
        "share": rates["share"].to_numpy(),
        "ci_low": low,
        "ci_high": high,
        "ci_level": level,
        "target": target,
        "margin": margin,
        "p_tost": p_tost,
        "p_bias": p_bias,
        "p_fair_cell": fair_cell[cell],
        "p_bias_cell": bias_cell[cell],
        "p_fair_adjusted": fair_adj[cell],
        "p_bias_adjusted": bias_adj[cell],
        "verdict": verdicts,
        "design_effect": deff,
        "matches_needed": needed,
        "applicable": member[cell],
    }
    return pd.concat([out, pd.DataFrame(columns)], axis=1)


def _tost_pvalues(k, n, target, margin: float, design_eff) -> np.ndarray:
    """:func:`tost_rate`'s p-value for every row at once (exact tails on the effective counts)."""
    k_eff = np.asarray(k, float) / np.asarray(design_eff, float)
    n_eff = np.asarray(n, float) / np.asarray(design_eff, float)
    low, high = np.asarray(target) - margin, np.asarray(target) + margin
    p_low = np.where(low > 0, exact_tails(k_eff, n_eff, np.clip(low, 1e-12, 1))[0], 0.0)
    p_high = np.where(high < 1, exact_tails(k_eff, n_eff, np.clip(high, 0, 1 - 1e-12))[1], 0.0)
    return np.maximum(p_low, p_high)


def cell_verdict(seats: pd.DataFrame) -> str:
    """One verdict for a cell from its seats' verdicts: fair only if every seat is fair."""
    verdicts = set(seats["verdict"])
    for worst in ("not applicable", "unfair", "small bias", "inconclusive"):
        if worst in verdicts:
            return worst
    return "fair"


def omnibus_test(seats: pd.DataFrame) -> float:
    """Chi-square p-value that all seats (or teams) of one cell share the decided matches equally.

    ``scipy.stats.chisquare(wins)`` with uniform expected counts (Pearson's goodness of fit). Under
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
