"""Anytime-valid validation of a balance candidate: a look after every ``search.look_every`` fresh matches.

With ``search.look_every = N`` the first candidate is replayed on fresh seeds N matches at a
time, and after each step every target's confidence sequences (:mod:`sim.core.sequential`,
betting CSs over the seeds) are extended with the new seeds. The validation stops as soon as
every target is shown inside its band (the claim) or one is shown outside it, and otherwise at
``validate_matches``. However often it looks, the whole sequence is **one look** of the
directory's ledger (:mod:`analysis.balance.looks`): it spends α_j once, because a confidence
sequence holds its level at every time at once.

A target is a bounded mean of per-seed values, so that a nonparametric confidence sequence
exists:

* ``seat_win_rate``, ``profile_win_rate``, ``completion``: the seed's share of wins (of
  finished matches) — met when the CS at α_j lies inside the band;
* ``rounds_quantile``, ``length_quantile`` (q, band [low, high]): the q-quantile Q lies in the
  band exactly when F(high) = P(X ≤ high) ≥ q and P(X < low) < q; each is the mean of a seed's
  share of matches below the edge, and the target is met when both CSs at α_j show it.

Means (``rounds_mean``, ``length_mean``) and game metrics have no known bounds here, and a
confidence sequence for an unbounded mean does not exist without them: a balance file with
such a target keeps the staged validation (``validation_stages``).

Errors. "Meets every target" is an intersection–union claim: a false one needs the CS of a
target outside its band to exclude its true value at some time, chance ≤ α_j (for a quantile
only one of its two conditions can be false at once), so α_j is not split over targets. "A
target is missed" (the validation stops without a claim) uses CSs at α_j/T (T conditions,
Bonferroni), so a wrong "missed" has chance ≤ α_j too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sim.core.sequential import BettingSequence

from .targets import Target, length_column, select_lineup

__all__ = ["SEQUENTIAL_METRICS", "TargetMonitor", "monitors", "unsupported_targets"]

#: The targets an anytime-valid validation can decide (bounded per-seed values).
SEQUENTIAL_METRICS = ("seat_win_rate", "profile_win_rate", "completion", "rounds_quantile", "length_quantile")
QUANTILES = ("rounds_quantile", "length_quantile")


def unsupported_targets(targets) -> list[str]:
    """Labels of the targets an anytime-valid validation cannot decide."""
    return [t.label for t in targets if t.metric not in SEQUENTIAL_METRICS]


@dataclass
class Condition:
    """One bounded mean of a target and the side of ``threshold`` it must lie on to meet it.

    ``at_least``: met when the mean is ≥ threshold (else: < threshold, or ≤ for a rate's high edge).
    """

    threshold: float
    at_least: bool
    met_cs: BettingSequence
    missed_cs: BettingSequence
    strict: bool = False

    def shown_met(self) -> bool:
        cs = self.met_cs.interval()
        if self.at_least:
            return cs.low >= self.threshold
        return cs.high < self.threshold if self.strict else cs.high <= self.threshold

    def shown_missed(self) -> bool:
        cs = self.missed_cs.interval()
        if self.at_least:
            return cs.high < self.threshold
        return cs.low >= self.threshold if self.strict else cs.low > self.threshold


@dataclass
class TargetMonitor:
    """The confidence sequences of one target, extended look by look with the new seeds.

    Args:
        target: the target, placed on its line-up.
        alpha: the look's α_j (the claim's CSs).
        missed_alpha: the level of the CSs that stop for a missed target (α_j / conditions).
    """

    target: Target
    alpha: float
    missed_alpha: float
    horizon: int | None = None  # seeds at the validation's cap: the sequences are tightest there
    seen: int = 0  # matches of the line-up already in the sequences
    conditions: list[Condition] = field(default_factory=list)

    def __post_init__(self) -> None:
        low, high = self.target.band

        def condition(threshold: float, at_least: bool, strict: bool = False) -> Condition:
            return Condition(
                threshold,
                at_least,
                BettingSequence(self.alpha, horizon=self.horizon),
                BettingSequence(self.missed_alpha, horizon=self.horizon),
                strict,
            )

        if self.target.metric in QUANTILES:
            q = self.target.quantile
            # Q ≤ high ⇔ P(X ≤ high) ≥ q;  Q ≥ low ⇔ P(X < low) < q
            self.conditions = [condition(q, True), condition(q, False, strict=True)]
        else:  # one mean, two edges: the same sequences serve both conditions
            at_low = condition(low, True)
            self.conditions = [at_low, Condition(high, False, at_low.met_cs, at_low.missed_cs)]

    def per_seed(self, tables: dict[str, pd.DataFrame]) -> list[np.ndarray]:
        """Each condition's per-seed values of the matches not yet seen, by seed."""
        target = self.target
        selected = select_lineup(tables, target.lineup)
        matches = selected["matches"]
        fresh = matches[matches["match"] >= self.seen]
        if target.metric in QUANTILES:
            low, high = target.band
            values = fresh[length_column(target)].astype(float)
            frame = pd.DataFrame({"seed": fresh["seed"], "below_high": values <= high, "below_low": values < low})
            by_seed = frame.groupby("seed", sort=True)[["below_high", "below_low"]].mean()
            return [by_seed["below_high"].to_numpy(float), by_seed["below_low"].to_numpy(float)]
        if target.metric == "completion":
            share = fresh.groupby("seed", sort=True)["finished"].mean().to_numpy(float)
            return [share, share]
        players = selected["players"]
        players = players[players["match"] >= self.seen]
        rows = (
            players[players["seat"] == target.seat]
            if target.metric == "seat_win_rate"
            else players[players["profile"] == target.profile]
        )
        share = rows.groupby("seed", sort=True)["won"].mean().to_numpy(float)
        return [share, share]

    def extend(self, tables: dict[str, pd.DataFrame], matches: int) -> None:
        """Extend every sequence with the seeds of matches ``seen .. matches - 1`` (whole seeds)."""
        extended: set[int] = set()
        for condition, values in zip(self.conditions, self.per_seed(tables)):
            for sequence in (condition.met_cs, condition.missed_cs):
                if id(sequence) not in extended:
                    sequence.extend(values)
                    extended.add(id(sequence))
        self.seen = matches

    def verdict(self) -> str:
        """``met``, ``missed`` or ``undecided`` after the last look."""
        if all(c.shown_met() for c in self.conditions):
            return "met"
        if any(c.shown_missed() for c in self.conditions):
            return "missed"
        return "undecided"

    def result(self, tables: dict[str, pd.DataFrame]) -> dict[str, Any]:
        """The target's entry in the validation: value, the claim's interval, verdict, sequences."""
        target = self.target
        low, high = target.band
        selected = select_lineup(tables, target.lineup)
        matches = selected["matches"][selected["matches"]["match"] < self.seen]
        sequences = [
            {
                "threshold": c.threshold,
                "at_least": c.at_least,
                "low": c.met_cs.interval().low,
                "high": c.met_cs.interval().high,
            }
            for c in self.conditions
        ]
        if target.metric in QUANTILES:
            value = float(np.quantile(matches[length_column(target)].astype(float), target.quantile))
            # what the CSs show of Q: at least `low` / at most `high` once shown; a side not shown
            # yet is the observed range's end (descriptive: the verdict is the CSs')
            column = matches[length_column(target)].astype(float)
            ci_low = low if self.conditions[1].shown_met() else float(column.min())
            ci_high = high if self.conditions[0].shown_met() else float(column.max())
        else:
            cs = self.conditions[0].met_cs.interval()
            value, ci_low, ci_high = cs.mean, cs.low, cs.high
        verdict = self.verdict()
        return {
            "target": target.label,
            "band": [low, high],
            "value": value,
            "ci_low": ci_low,
            "ci_high": ci_high,
            "n": int(len(matches)),
            "clusters": int(self.conditions[0].met_cs.n),
            "met": verdict == "met",
            "verdict": verdict,
            "alpha": self.alpha,
            "method": "confidence sequence",
            "sequences": sequences,
        }


def monitors(targets, alpha: float, horizon: int | None = None) -> list[TargetMonitor]:
    """One monitor per target; the missed-side CSs share α over every condition (Bonferroni).

    ``horizon``: the seeds at the validation's cap, where the sequences are tuned to be tightest.
    """
    count = 2 * len(targets)  # two conditions per target
    return [TargetMonitor(t, alpha, alpha / count, horizon) for t in targets]
