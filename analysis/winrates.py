"""Win rates with confidence intervals (Wilson for one rate; see research/stats.md §1)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

__all__ = ["wilson_interval", "win_rates"]


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
    return np.asarray(low, dtype=float), np.asarray(high, dtype=float)


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
