"""Known-truth figures of a balance's ``worth_spread`` target: its TOST keeps its level.

    PYTHONPATH=. .venv/bin/python -m tests.balance.worth_spread_truth --reps 1000

Synthetic paired tables (:func:`paired_tables`): slot 0 of a two-seat line-up (seats rotated,
two matches per seed) wins a base match with probability 0.5; in each restricted line-up a lost
match turns into a win with probability 0.05 and a won match into a loss with the probability
that makes the choice's worth exactly the planted one. With the planted spread on the band's
upper edge, "met" is a false claim, whose rate the validation's TOST must keep at most α; with
every worth equal (spread 0) the share shown met is the power.
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from analysis.balance.targets import Target, check_tables
from analysis.balance.worth import WITHOUT

#: planted worths on the band's edge (spread 0.08) and flat ones (spread 0)
EDGE, FLAT = {"a": 0.08, "b": 0.0, "c": 0.04}, {"a": 0.0, "b": 0.0, "c": 0.0}
BAND_HIGH, ALPHA = 0.08, 0.05


def paired_tables(
    rng: np.random.Generator,
    worths: dict[str, float],
    seeds: int,
    seats: int = 2,
    allowed_rate: float = 0.5,
    flips: float = 0.05,
) -> dict[str, pd.DataFrame]:
    """A base line-up and one restricted line-up per choice (``base without <choice>``), paired
    by match, with the planted worths (see the module docstring)."""
    n = seeds * seats
    base = rng.random(n) < allowed_rate
    lineups = {"base": base}
    for choice, worth in worths.items():
        # worth = P(base win) − P(restricted win) = p·q1 − (1 − p)·flips
        q1 = (worth + (1 - allowed_rate) * flips) / allowed_rate
        lost = base & (rng.random(n) < q1)
        gained = ~base & (rng.random(n) < flips)
        lineups[f"base{WITHOUT}{choice}"] = (base & ~lost) | gained
    matches, players = [], []
    match = np.arange(n)
    for name, won in lineups.items():
        matches.append(
            pd.DataFrame(
                {
                    "variant": "trial",
                    "lineup": name,
                    "match": match,
                    "seed": match // seats,
                    "rounds": 5,
                    "finished": True,
                }
            )
        )
        for slot in range(seats):
            players.append(
                pd.DataFrame(
                    {
                        "variant": "trial",
                        "lineup": name,
                        "match": match,
                        "seat": (match + slot) % seats,
                        "slot": slot,
                        "seed": match // seats,
                        "profile": "p",
                        "won": won if slot == 0 else np.zeros(n, bool),
                    }
                )
            )
    return {"matches": pd.concat(matches, ignore_index=True), "players": pd.concat(players, ignore_index=True)}


def shown_met(rng: np.random.Generator, worths: dict[str, float], seeds: int, reps: int) -> int:
    """How many of ``reps`` validations show the spread inside [0, BAND_HIGH] at α."""
    target = Target(metric="worth_spread", lineup="base", low=0.0, high=BAND_HIGH)
    return sum(
        bool(check_tables([target], paired_tables(rng, worths, seeds), alpha=ALPHA)[0]["met"]) for _ in range(reps)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    for label, worths, seeds in (
        ("edge, 300 pairs", EDGE, 150),
        ("edge, 800 pairs", EDGE, 400),
        ("flat, 300 pairs", FLAT, 150),
        ("flat, 800 pairs", FLAT, 400),
    ):
        met = shown_met(rng, worths, seeds, args.reps)
        print(f"{label}: shown met {met}/{args.reps} = {met / args.reps:.3f}", flush=True)


if __name__ == "__main__":
    main()
