"""Seat rates under seat rotation with a known truth: coverage and width of every seat interval.

Not a test module: ``tests/analysis/test_design_effect.py`` runs a few cells of it, and

    PYTHONPATH=. .venv/bin/python -m tests.analysis.seat_rotation_truth [--reps 4000]

prints the whole grid (2, 3 and 4 seats; 10 to 1,000 seeds; seat-0 rates 0.05 to 0.95; within-seed
correlation negative, none and positive), about 10 minutes on one core.

The model: every seed is played once per rotation (seat s holds player (s + r) mod S in
rotation r). A match's winner is the seat with the largest a_s + u_player + b_seat + e, where a
is the seat advantage (a_0 sets seat 0's rate, the other seats have 0), u ~ N(0, σ_u²) is the
player's luck in that seed, kept across its rotations (it follows the player round the table: a
seat's wins within a seed are *negatively* correlated), b ~ N(0, σ_b²) the seat's luck in that
seed (the board of the seed favours a seat in every rotation: *positive*), e Gumbel match noise.
The truth (seat 0's rate) is a Gaussian integral (:func:`true_rate`), exactly 1/S when a_0 = 0.

Every interval is computed with the library's own functions (:mod:`sim.core.estimators`,
:mod:`analysis.winrates`, :mod:`analysis.fairness`) on per-seed counts, vectorised over the
replicates; the test checks that the report's tables give the very same bounds.
"""

from __future__ import annotations

import argparse
import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize, stats

from analysis.fairness import _tost_pvalues, lineup_matches_needed
from analysis.winrates import simultaneous_intervals
from sim.core.estimators import (
    design_effects,
    estimable,
    paired_rate_difference,
    small_sample_factor,
    wilson_interval,
)

#: (σ_u player luck, σ_b seat luck) of each kind of within-seed correlation.
CORRELATION = {"negative": (2.5, 0.0), "none": (0.0, 0.0), "positive": (0.0, 1.5)}


@dataclass(frozen=True)
class Design:
    """One cell of the grid: seats, seeds, seat 0's advantage and the correlation."""

    seats: int
    seeds: int
    advantage: float
    correlation: str


def winners(design: Design, reps: int, rng: np.random.Generator) -> np.ndarray:
    """The winning seat of every match: an int array (reps, seeds, rotations)."""
    player_sd, seat_sd = CORRELATION[design.correlation]
    s = design.seats
    luck = rng.standard_normal((reps, design.seeds, s)) * player_sd
    board = rng.standard_normal((reps, design.seeds, s)) * seat_sd
    advantage = np.zeros(s)
    advantage[0] = design.advantage
    out = np.empty((reps, design.seeds, s), np.int64)
    for rotation in range(s):
        players = (np.arange(s) + rotation) % s
        score = advantage + luck[:, :, players] + board + rng.gumbel(size=(reps, design.seeds, s))
        out[:, :, rotation] = score.argmax(axis=2)
    return out


def play(design: Design, reps: int, rng: np.random.Generator) -> np.ndarray:
    """Wins of every seat in every seed: an int array (reps, seeds, seats), counts out of ``seats``."""
    won = winners(design, reps, rng)
    return (won[..., None] == np.arange(design.seats)).sum(axis=2)


def players_table(won: np.ndarray) -> pd.DataFrame:
    """The players table of one replicate's winners (seeds, rotations), as the runner stores it."""
    seeds, seats = won.shape
    match = np.arange(seeds * seats)
    seat = np.tile(np.arange(seats), match.size)
    winner = np.repeat(won.ravel(), seats)
    return pd.DataFrame(
        {
            "variant": "baseline",
            "lineup": "x",
            "match": np.repeat(match, seats),
            "seat": seat,
            "profile": "p",
            "team": -1,
            "won": seat == winner,
            "seed": np.repeat(match // seats, seats),
        }
    )


def true_rate(seats: int, advantage: float, correlation: str, nodes: int = 40) -> float:
    """Seat 0's win rate: E[softmax_0(a + U)] over S independent N(0, σ_u² + σ_b²) lucks.

    Within one match the players' and seats' lucks are independent normals and the Gumbel noise
    makes the winner's law a softmax, so the truth is an S-dimensional Gaussian integral,
    computed by a product Gauss–Hermite rule (``nodes`` per dimension; exact to about 1e-9).
    """
    player_sd, seat_sd = CORRELATION[correlation]
    sd = float(np.hypot(player_sd, seat_sd))
    x, w = np.polynomial.hermite_e.hermegauss(nodes if sd > 0 else 1)
    w = w / w.sum()
    grids = np.meshgrid(*([x * sd] * seats), indexing="ij", sparse=True)
    weight = np.ones(())
    for axis in range(seats):
        weight = weight * w.reshape([-1 if a == axis else 1 for a in range(seats)])
    top = np.exp(advantage + grids[0])
    total = top + sum(np.exp(g) for g in grids[1:])
    return float(np.sum(weight * top / total))


def advantage_for(seats: int, rate: float, correlation: str) -> float:
    """Seat 0's advantage a_0 that gives it ``rate`` exactly (0 when ``rate`` is 1/S)."""
    if abs(rate - 1.0 / seats) < 1e-12:
        return 0.0
    return float(optimize.brentq(lambda a: true_rate(seats, a, correlation) - rate, -20.0, 20.0, xtol=1e-10))


def seat_counts(wins: np.ndarray) -> dict[str, np.ndarray]:
    """Per seat and replicate: estimate, trials, clusters and design effect (the library's)."""
    reps, seeds, seats = wins.shape
    k = wins.sum(axis=1).astype(float)  # (reps, seats)
    n = float(seeds * seats)
    p = k / n
    residual = ((wins - p[:, None, :] * seats) ** 2).sum(axis=1)
    deff = design_effects(residual, n, p, seeds, seats)
    return {
        "k": k,
        "n": np.full_like(k, n),
        "p": p,
        "deff": deff,
        "groups": np.full_like(k, seeds),
        "estimated": estimable(p, seeds, seats),
    }


def per_seat_interval(c: dict, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """The report's per-seat Wilson interval (``seat_win_rates(simultaneous=False)``)."""
    scale = c["deff"] * small_sample_factor(c["groups"], (1 - confidence) / 2, c["estimated"])
    return wilson_interval(c["p"] * c["n"] / scale, c["n"] / scale, confidence)


def joint_intervals(c: dict, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """The report's simultaneous seat intervals (``seat_win_rates()``)."""
    items = c["k"].shape[-1]
    scale = c["deff"] * small_sample_factor(c["groups"], (1 - confidence) / (2 * items), c["estimated"])
    return simultaneous_intervals(c["k"], c["n"], items, confidence, scale)


def tost_p(c: dict, margin: float, alpha: float = 0.05) -> np.ndarray:
    """Each seat's TOST p-value against 1/S ± margin, as :func:`analysis.fairness.seat_fairness`."""
    seats = c["k"].shape[-1]
    scale = c["deff"] * small_sample_factor(c["groups"], alpha, c["estimated"])
    return _tost_pvalues(c["k"], c["n"], 1.0 / seats, margin, scale)


@dataclass(frozen=True)
class Coverage:
    """What the replicates of one design show for seat 0 (widths relative to 2·z·SD)."""

    truth: float
    sd: float
    deff: float
    coverage: float
    width: float
    joint_coverage: float
    joint_width: float
    clipped_coverage: float
    clipped_width: float


def measure(design: Design, truth: float, reps: int, seed: int = 0) -> Coverage:
    """Coverage of seat 0's interval and of the joint intervals over ``reps`` replicates.

    The joint intervals cover when every seat's does; seat s's truth is (1 − truth)/(S − 1)
    for s > 0 (the other seats are alike). Widths are means over the replicates divided by
    2 × 1.96 × SD (per seat) and 2 × z_{1−α/2S} × SD (joint), SD the replicates' spread of
    seat 0's estimate.
    """
    rng = np.random.default_rng(seed)
    batch = max(1, 2_000_000 // (design.seeds * design.seats * design.seats))
    parts = [seat_counts(play(design, min(batch, reps - done), rng)) for done in range(0, reps, batch)]
    c = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    truths = np.full(design.seats, (1 - truth) / (design.seats - 1))
    truths[0] = truth
    sd = float(c["p"][:, 0].std())
    low, high = per_seat_interval(c)
    j_low, j_high = joint_intervals(c)
    z_joint = float(stats.norm.isf(0.05 / (2 * design.seats)))
    clipped = np.maximum(c["deff"][:, 0], 1.0)  # the design effect clipped at 1, normal quantile
    c_low, c_high = wilson_interval(c["k"][:, 0] / clipped, c["n"][:, 0] / clipped)
    with np.errstate(invalid="ignore", divide="ignore"):
        return Coverage(
            truth=truth,
            sd=sd,
            deff=float(np.median(c["deff"][:, 0])),
            coverage=float(np.mean((low[:, 0] <= truth) & (truth <= high[:, 0]))),
            width=float(np.mean(high[:, 0] - low[:, 0]) / (2 * 1.96 * sd)),
            joint_coverage=float(np.mean(((j_low <= truths) & (truths <= j_high)).all(axis=1))),
            joint_width=float(np.mean(j_high[:, 0] - j_low[:, 0]) / (2 * z_joint * sd)),
            clipped_coverage=float(np.mean((c_low <= truth) & (truth <= c_high))),
            clipped_width=float(np.mean(c_high - c_low) / (2 * 1.96 * sd)),
        )


def tost_rates(seats: int, seeds: int, correlation: str, margin: float, reps: int, seed: int = 0) -> dict:
    """Seat 0's TOST at the band's edge (type-I error) and at 1/S (power), with the truth of the edge."""
    edge = 1.0 / seats + margin
    out = {}
    for name, rate in (("edge", edge), ("fair", 1.0 / seats)):
        advantage = advantage_for(seats, rate, correlation)
        truth = true_rate(seats, advantage, correlation)
        wins = play(Design(seats, seeds, advantage, correlation), reps, np.random.default_rng(seed))
        out[name] = float(np.mean(tost_p(seat_counts(wins), margin)[:, 0] < 0.05))
        out[f"{name}_truth"] = truth
    return out


def paired_effect(
    seats: int, correlation: str, advantage: float, seeds: int, reps: int, seed: int = 5
) -> dict[str, float]:
    """Coverage and width of the paired effect on seat 0's rate of a variant that gives it ``advantage``.

    Baseline and variant replay the same draws (common random numbers); the interval is
    :func:`sim.core.estimators.paired_rate_difference` on the matches, clustered by seed.
    """
    truth = true_rate(seats, advantage, correlation) - 1.0 / seats
    base = winners(Design(seats, seeds, 0.0, correlation), reps, np.random.default_rng(seed))
    variant = winners(Design(seats, seeds, advantage, correlation), reps, np.random.default_rng(seed))
    clusters = np.repeat(np.arange(seeds), seats)
    effects, covered, widths = [], [], []
    for rep in range(reps):
        r = paired_rate_difference((variant[rep] == 0).ravel(), (base[rep] == 0).ravel(), clusters)
        effects.append(r["effect"])
        covered.append(r["ci_low"] <= truth <= r["ci_high"])
        widths.append(r["ci_high"] - r["ci_low"])
    return {
        "truth": truth,
        "coverage": float(np.mean(covered)),
        "width": float(np.mean(widths) / (2 * 1.96 * np.std(effects))),
    }


def advised_power(seats: int, correlation: str, margin: float, reps: int, seed: int = 3) -> tuple[int, float, float]:
    """The report's *matches needed* for a fair line-up, and how often it is then shown fair.

    The design effect is the largest seat's estimate from a pilot of 2,000 seeds (as the report
    takes it from the run); the line-up is shown fair when every seat's TOST passes.
    """
    pilot = seat_counts(play(Design(seats, 2000, 0.0, correlation), 1, np.random.default_rng(seed)))
    deff = float(pilot["deff"][0].max())
    needed = lineup_matches_needed(seats, margin, 0.05, 0.8, float(f"{deff:.2g}"), True)
    c = seat_counts(play(Design(seats, needed // seats, 0.0, correlation), reps, np.random.default_rng(seed + 1)))
    return needed, deff, float(np.mean((tost_p(c, margin) < 0.05).all(axis=1)))


def main(argv: list[str] | None = None) -> None:
    """Print the grid: per-seat and joint coverage and width, then TOST at the edge and at 1/S."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=4000)
    args = parser.parse_args(argv)
    print(f"{args.reps} replicates per cell; width = mean width / (2 z SD)")
    print("seats corr      rate  seeds  deff  | cover  width | joint cover  width | deff clipped at 1: cover  width")
    for seats, correlation, rate in itertools.product((2, 3, 4), CORRELATION, (0.05, 0.2, 0.5, 0.8, 0.95)):
        advantage = advantage_for(seats, rate, correlation)
        truth = true_rate(seats, advantage, correlation)
        for seeds in (10, 30, 100, 1000):
            r = measure(Design(seats, seeds, advantage, correlation), truth, args.reps)
            print(
                f"{seats:5d} {correlation:8s} {truth:5.3f} {seeds:6d} {r.deff:5.2f} | {r.coverage:.3f}  "
                f"{r.width:5.2f} | {r.joint_coverage:.3f}        {r.joint_width:5.2f} | "
                f"{r.clipped_coverage:.3f}  {r.clipped_width:5.2f}",
                flush=True,
            )
    print("paired effect on seat 0's rate of a variant with seat advantage 0.5 (common random numbers)")
    for seats, correlation, seeds in itertools.product((2, 4), CORRELATION, (30, 300)):
        e = paired_effect(seats, correlation, 0.5, seeds, min(args.reps, 2000))
        print(
            f"  {seats} seats {correlation:8s} {seeds:4d} seeds: effect {e['truth']:+.4f}, "
            f"coverage {e['coverage']:.3f}, width {e['width']:.2f}",
            flush=True,
        )
    print("matches needed for a fair 2-seat line-up to be shown fair within ±5 points, deff of 2,000 seeds:")
    for correlation in CORRELATION:
        needed, deff, shown = advised_power(2, correlation, 0.05, args.reps)
        print(f"  {correlation:8s} deff {deff:.2f}: {needed} matches, shown fair {shown:.3f}", flush=True)
    print("TOST of seat 0, band 1/S ± 0.05: P(shown fair) at the edge (type-I) and at 1/S (power)")
    for seats, correlation, seeds in itertools.product((2, 3, 4), CORRELATION, (30, 100, 300)):
        t = tost_rates(seats, seeds, correlation, 0.05, args.reps)
        print(
            f"{seats} seats {correlation:8s} {seeds:4d} seeds: type-I {t['edge']:.3f} "
            f"(truth {t['edge_truth']:.4f}), power {t['fair']:.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
