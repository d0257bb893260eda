"""Goodness of fit: the sheet's rounds per outcome category against what the fitted players
produce in emulated play, per player.

For each player, the observed count of rounds in each category (points bins, positions,
``ko``) is compared with the expected count: the sum over the player's match × seat rows of
the emulator's category probabilities at the fitted numbers (the line-up as on the sheet).
Categories expecting fewer than ``MIN_EXPECTED`` rounds are pooled with their neighbour, and
Pearson's statistic is referred to χ² with (cells − 1) degrees of freedom per player, less one
per fitted number. The test is approximate: the estimate came from the same rounds (that is
what the lost degrees of freedom account for) and rounds of one match may be dependent (which
makes it liberal). A small p-value says the fitted axis cannot reproduce the sheet's spread of
outcomes: fit more keys (``--fit``), or the players play in a way the presets do not span.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import chi2

__all__ = ["MIN_EXPECTED", "Goodness", "PlayerGoodness", "goodness_of_fit"]

MIN_EXPECTED = 5.0


@dataclass(frozen=True)
class PlayerGoodness:
    """One player's observed and expected rounds per category (unpooled, for the plots)."""

    name: str
    observed: np.ndarray
    expected: np.ndarray
    statistic: float
    cells: int


@dataclass(frozen=True)
class Goodness:
    """How well the fitted players reproduce the sheet: the outcome categories, each player's
    figures, and the pooled chi-square statistic with its degrees of freedom and p-value."""

    labels: list[str]
    players: list[PlayerGoodness]
    statistic: float
    df: int
    p_value: float


def _pooled(observed: np.ndarray, expected: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge neighbouring categories until each expects at least MIN_EXPECTED rounds."""
    o, e = list(observed), list(expected)
    while len(e) > 1 and min(e) < MIN_EXPECTED:
        k = int(np.argmin(e))
        j = k + 1 if k == 0 or (k < len(e) - 1 and e[k + 1] < e[k - 1]) else k - 1
        lo, hi = sorted((k, j))
        o[lo : hi + 1], e[lo : hi + 1] = [o[lo] + o[hi]], [e[lo] + e[hi]]
    return np.array(o), np.array(e)


def goodness_of_fit(likelihood, theta: np.ndarray, names: tuple[str, ...], labels: list[str]) -> Goodness:
    """Observed vs emulated rounds per category for every player at ``theta`` (players, d)."""
    theta = np.asarray(theta, dtype=float).reshape(likelihood.players, likelihood.d)
    size = len(labels)
    observed = np.zeros((len(names), size))
    expected = np.zeros((len(names), size))
    for group in likelihood.groups:
        probs = np.exp(likelihood.log_probs(theta, group))
        totals = group.counts.sum(axis=1, keepdims=True)
        np.add.at(observed, group.own, group.counts)
        np.add.at(expected, group.own, probs * totals)
    players, statistic, df = [], 0.0, 0
    for p, name in enumerate(names):
        o, e = _pooled(observed[p], expected[p])
        stat = float(((o - e) ** 2 / np.maximum(e, 1e-12)).sum())
        players.append(PlayerGoodness(name, observed[p], expected[p], stat, len(o)))
        statistic += stat
        df += len(o) - 1 - likelihood.d
    df = max(df, 1)
    return Goodness(labels, players, statistic, df, float(chi2.sf(statistic, df)))
