"""Stopping rules against a known truth: wrong verdicts under a look after every seed.

Not a test module: ``tests/core/test_stopping.py`` runs small cases, and

    PYTHONPATH=. .venv/bin/python -m tests.core.stopping_truth [--reps 1000]

prints the figures of docs/statistics.md (a few minutes on one core).

The data are the seat-rotation model of :mod:`tests.analysis.seat_rotation_truth` (player luck
per seed: negative within-seed correlation; seat luck per seed: positive). A look after every
seed is the most often a run can look; because each answer comes from the running intersection
of a confidence sequence, an answer given at some look still holds at every later one, so the
chance of ever giving a wrong answer within T seeds is the chance that the answer at T is wrong.
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np

from sim.core.sequential import betting_cs
from sim.core.stopping import Question, Stopping, answer_cell, effect_observations
from tests.analysis.seat_rotation_truth import Design, advantage_for, players_table, true_rate, winners


def fairness_verdicts(
    seats: int,
    rate: float,
    correlation: str,
    seeds: int,
    reps: int,
    margin: float,
    alpha: float = 0.05,
    looks: int = 8,
    seed: int = 0,
) -> dict[str, float]:
    """Share of replicates answered fair / unfair within ``seeds`` seeds, and the median seeds to an answer.

    Seat 0's rate is ``rate`` (the others share the rest); the answer is
    :func:`sim.core.stopping.answer_cell`'s, looked at after every seed (at the end: see the
    module docstring) and at ``looks`` evenly spaced sizes for the seeds it took.
    """
    advantage = advantage_for(seats, rate, correlation)
    rule = Stopping(fairness=margin, alpha=alpha)

    question = [Question("fairness", alpha)]
    won = winners(Design(seats, seeds, advantage, correlation), reps, np.random.default_rng(seed))
    counts = {"fair": 0, "unfair": 0}
    taken = []
    sizes = np.linspace(seeds / looks, seeds, looks).astype(int)
    for rep in range(reps):
        players = players_table(won[rep])
        answer = answer_cell(question, rule, players, None, seeds * seats).answers["fairness"]
        if answer:
            counts[answer] += 1
            first = next(
                size
                for size in sizes
                if answer_cell(question, rule, players[players["seed"] < size], None, size * seats).answers["fairness"]
            )
            taken.append(first)
    return {
        "truth": true_rate(seats, advantage, correlation),
        "fair": counts["fair"] / reps,
        "unfair": counts["unfair"] / reps,
        "median_seeds": float(np.median(taken)) if taken else float("nan"),
    }


def effect_signs(
    seats: int, correlation: str, advantage: float, seeds: int, reps: int, alpha: float = 0.05, seed: int = 1
) -> dict[str, float]:
    """Share of replicates whose variant (seat 0 given ``advantage``) is answered "raises" / "lowers".

    The variant replays the baseline's draws (common random numbers), except without an
    advantage: it then draws its own, so it plays differently with the same truth (a variant
    that changes play but not the rate; replaying the draws would make every match identical).
    """
    base = winners(Design(seats, seeds, 0.0, correlation), reps, np.random.default_rng(seed))
    own = seed if advantage else seed + 1
    variant = winners(Design(seats, seeds, advantage, correlation), reps, np.random.default_rng(own))
    raises = lowers = 0
    for rep in range(reps):
        x = effect_observations(players_table(variant[rep]), players_table(base[rep]), "seat 0")
        r = betting_cs(x, alpha)
        raises += r.low > 0.5
        lowers += r.high < 0.5
    return {
        "effect": true_rate(seats, advantage, correlation) - 1 / seats,
        "raises": raises / reps,
        "lowers": lowers / reps,
    }


def main(argv: list[str] | None = None) -> None:
    """Print wrong-verdict rates at the band's edge, power at 1/n, and effect signs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    args = parser.parse_args(argv)
    print(f"{args.reps} replicates; fairness band 1/n ± 0.05, α = 0.05, a look after every seed")
    for seats, correlation in itertools.product((2, 4), ("negative", "none", "positive")):
        edge = fairness_verdicts(seats, 1 / seats + 0.05, correlation, 600, args.reps, 0.05)
        fair = fairness_verdicts(seats, 1 / seats, correlation, 600, args.reps // 4, 0.05)
        print(
            f"{seats} seats {correlation:8s}: at the edge wrong {edge['fair'] + edge['unfair']:.3f} "
            f"(fair {edge['fair']:.3f}); at 1/n shown fair {fair['fair']:.3f} within 600 seeds, "
            f"median {fair['median_seeds']:.0f} seeds",
            flush=True,
        )
    for seats, correlation in itertools.product((2, 4), ("negative", "positive")):
        null = effect_signs(seats, correlation, 0.0, 600, args.reps)
        real = effect_signs(seats, correlation, 0.5, 600, args.reps // 4)
        print(
            f"{seats} seats {correlation:8s}: no effect, a sign claimed {null['raises'] + null['lowers']:.3f}; "
            f"effect {real['effect']:+.3f}: raises {real['raises']:.3f}, lowers {real['lowers']:.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
