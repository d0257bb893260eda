"""Anytime-valid answers: confidence sequences that a run may look at after every chunk.

A confidence sequence (CS) is a sequence of intervals that hold the true value at *every* time at
once with probability at least 1 − α, so a run may look after each chunk and stop the moment an
answer is clear, and the answer stays right with probability 1 − α however often it looked
(an interval at fixed n looked at after every chunk would not: its error grows with the looks).

The CS here is the betting CS of Waudby-Smith & Ramdas (2023, "Estimating means of bounded
random variables by betting", JRSS-B 86, Theorem 3 with the predictable plug-in empirical-
Bernstein bets and hedging θ = 1/2): for a candidate mean m, a gambler bets a predictable
fraction λ_t of its wealth that X_t is above m (and, with the other half, below); under mean m
its wealth is a nonnegative martingale, so by Ville's inequality it reaches 1/α with
probability at most α. The CS is every m whose wealth has never reached 1/α (the running
intersection). Its width adapts to the variance of the observations, as an empirical-Bernstein
interval does, and shrinks like √(log log t / t).

The observations are the **seeds**: under seat rotation a seed's matches are one cluster and
seeds are independent, so each seed gives one bounded value (a seat's share of the seed's
decided matches, or a variant's paired difference on the seed's matches) and the CS is valid
under the design that produced the data, negative within-seed correlation included.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["betting_cs", "BettingSequence", "SequentialInterval", "GRID", "HEDGE", "TRUNCATION"]

#: Candidate means tried per unit interval (the bounds are exact to half a grid step, outward).
GRID = 2000
#: Half the wealth bets on "above m", half on "below" (θ of the hedged capital process).
HEDGE = 0.5
#: Largest bet as a share of what a bet could lose at most (c of the truncated bets).
TRUNCATION = 0.5
#: Time steps whose wealth is held at once (memory: BLOCK × GRID floats).
BLOCK = 512


@dataclass(frozen=True)
class SequentialInterval:
    """An anytime-valid interval of a mean in [0, 1] after ``n`` observations.

    Attributes:
        mean: the observations' mean.
        low, high: the bounds of the confidence sequence at this time (running intersection).
        n: observations (seeds) so far.
        alpha: its error: the chance that the true mean ever leaves it, at any time.
    """

    mean: float
    low: float
    high: float
    n: int
    alpha: float

    @property
    def half_width(self) -> float:
        """Half the interval's width (same unit as the mean)."""
        return (self.high - self.low) / 2


class BettingSequence:
    """The betting confidence sequence of a mean in [0, 1], extended as observations arrive.

    A run that looks after every chunk extends it with the seeds new since its last look, so
    a look costs what the new seeds cost, not the whole history again. Extending by the same
    blocks always gives the same interval (a rerun looks at the same counts).

    Args:
        alpha: the chance that the sequence ever misses the true mean (0 < α < 1).
        grid: candidate means tried (bounds exact to 1/(2·grid), rounded outward).
        horizon: observations at which the sequence should be tightest (a run's cap): the bets
            are then tuned for that time, λ_t = √(2 log(2/α) / (σ̂²_{t−1} · horizon)) (the
            paper's fixed-time tuning, still a confidence sequence at every time); None: tuned
            for every time at once, λ_t = √(2 log(2/α) / (σ̂²_{t−1} t log(1 + t))).
    """

    def __init__(self, alpha: float = 0.05, grid: int = GRID, horizon: int | None = None):
        self.alpha = alpha
        self.horizon = horizon
        self.m = (np.arange(grid) + 0.5) / grid
        self.log_up, self.log_down = np.zeros(grid), np.zeros(grid)
        self.rejected = np.zeros(grid, dtype=bool)
        self.n, self.total, self.squares, self.variance = 0, 0.0, 0.0, 0.25

    def extend(self, observations) -> BettingSequence:
        """Bet on each new value in turn (the paper's predictable plug-in bets); returns itself."""
        x = np.clip(np.asarray(observations, dtype=float), 0.0, 1.0)
        if x.size == 0:
            return self
        # λ_t = √(2 log(2/α) / (σ̂²_{t−1} t log(1 + t))), σ̂² and μ̂ shrunk towards 1/4 and 1/2
        t = self.n + np.arange(1, x.size + 1, dtype=float)
        sums = self.total + np.cumsum(x)
        mean = (0.5 + sums) / (t + 1)
        squares = self.squares + np.cumsum((x - mean) ** 2)
        variance = (0.25 + squares) / (t + 1)
        previous = np.concatenate([[self.variance], variance[:-1]])
        spread = float(self.horizon) if self.horizon else t * np.log1p(t)
        bets = np.sqrt(2 * math.log(2 / self.alpha) / (previous * spread))
        m, threshold = self.m, math.log(1 / self.alpha)
        for start in range(0, x.size, BLOCK):
            xs = x[start : start + BLOCK, None] - m
            lam = bets[start : start + BLOCK, None]
            up = self.log_up + np.cumsum(np.log1p(np.minimum(lam, TRUNCATION / m) * xs), axis=0)
            down = self.log_down + np.cumsum(np.log1p(-np.minimum(lam, TRUNCATION / (1 - m)) * xs), axis=0)
            wealth = np.logaddexp(up + math.log(HEDGE), down + math.log(1 - HEDGE))
            self.rejected |= (wealth >= threshold).any(axis=0)
            self.log_up, self.log_down = up[-1], down[-1]
        self.n += x.size
        self.total, self.squares, self.variance = float(sums[-1]), float(squares[-1]), float(variance[-1])
        return self

    def interval(self) -> SequentialInterval:
        """The interval after the last observation (the running intersection); (0, 1) before any."""
        if self.n == 0:
            return SequentialInterval(math.nan, 0.0, 1.0, 0, self.alpha)
        mean = self.total / self.n
        kept = self.m[~self.rejected]
        if kept.size == 0:  # every candidate rejected at some time (an event of probability ≤ α)
            return SequentialInterval(mean, mean, mean, self.n, self.alpha)
        step = 0.5 / self.m.size
        return SequentialInterval(
            mean, float(max(0.0, kept.min() - step)), float(min(1.0, kept.max() + step)), self.n, self.alpha
        )


def betting_cs(observations, alpha: float = 0.05, grid: int = GRID) -> SequentialInterval:
    """The betting confidence sequence of a mean in [0, 1], at the last observation.

    Args:
        observations: values in [0, 1], in the order they arrived (one per seed).
        alpha: the chance that the sequence ever misses the true mean (0 < α < 1).
        grid: candidate means tried (bounds exact to 1/(2·grid), rounded outward).

    Returns:
        the interval after the last observation; (0, 1) before any.
    """
    return BettingSequence(alpha, grid).extend(observations).interval()
