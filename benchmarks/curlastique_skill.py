"""Skill check of the presets: head-to-head win rates with seed-clustered CIs, points per throw.

Run ``python benchmarks/curlastique_skill.py --games 2000 --jobs 2 [--reference club] [--speed 500]`` (2-player
games on the default rules, seats rotated: each seed is played with both seatings). The slow test
``tests/curlastique/players/test_skill.py`` runs the same checks on fewer games.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from sim.core.game import get_game
from sim.core.headtohead import HeadToHead
from sim.core.headtohead import head_to_head as core_head_to_head
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules
from sim.curlastique.metrics import points_per_throw, seat_points

__all__ = ["HeadToHead", "head_to_head", "points_per_throw", "points_per_throw_ci", "one_core_speed", "main"]


def head_to_head(
    a: str, b: str, games: int, seed: int = 1, jobs: int = 1, overrides: tuple[str, ...] = ()
) -> HeadToHead:
    """Play ``games`` 2-player games of ``a`` vs ``b`` (even ``games``: both seatings per seed),
    through the one head-to-head measurement of :mod:`sim.core.headtohead`."""
    return core_head_to_head("curlastique", a, b, games, seed, jobs, overrides)


def points_per_throw_ci(tables: dict, profile: str, resamples: int = 2000, seed: int = 0) -> tuple[float, float, float]:
    """Points per throw of ``profile`` and a 95 % percentile bootstrap CI (games resampled)."""
    games = seat_points(tables).query("profile == @profile").groupby("match")[["points", "throws"]].sum()
    pts, throws = games["points"].to_numpy(float), games["throws"].to_numpy(float)
    idx = np.random.default_rng(seed).integers(0, len(pts), (resamples, len(pts)))
    boot = pts[idx].sum(axis=1) / throws[idx].sum(axis=1)
    low, high = np.percentile(boot, [2.5, 97.5])
    return float(pts.sum() / throws.sum()), float(low), float(high)


def one_core_speed(games: int) -> dict:
    """Games per second of 2-player club vs club games to 500: a plain loop over play_match in
    this process (wall clock and CPU time, after one warm-up game)."""
    from sim.core.seeding import MatchSeeds

    spec = get_game("curlastique")
    rules = load_rules(spec)
    players = load_lineup(spec, ["club", "club"], rules)
    spec.play_match(rules, players, MatchSeeds(0, 10**6))  # loads the compiled engine
    wall, cpu, throws = time.perf_counter(), time.process_time(), 0
    for i in range(games):
        throws += spec.play_match(rules, players, MatchSeeds(0, i)).matches["throws"]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "games": games,
        "games_per_s_wall": round(games / wall, 1),
        "games_per_cpu_s": round(games / cpu, 1),
        "throws_per_game": round(throws / games, 1),
        "ms_cpu_per_throw": round(1000 * cpu / throws, 3),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing (even)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pairs",
        default="expert:novice,club:casual",
        help="comma-separated A:B pairings whose win rate of A is reported",
    )
    parser.add_argument(
        "--reference", default=None, help="also play every preset against this one and report points per throw"
    )
    parser.add_argument(
        "--speed",
        type=int,
        default=0,
        metavar="N",
        help="also time N club vs club games in a plain loop on this one core",
    )
    args = parser.parse_args(argv)
    report: dict = {}
    if args.speed:
        report["one_core_club_vs_club"] = one_core_speed(args.speed)
    for pair in filter(None, args.pairs.split(",")):
        a, b = pair.split(":")
        start = time.perf_counter()
        h = head_to_head(a, b, args.games, args.seed, args.jobs)
        report[f"{a} beats {b}"] = {
            "games": h.games,
            "wins": h.a_wins,
            "rate": round(h.a_rate, 4),
            "wilson95_seed_clustered": [round(h.ci_low, 4), round(h.ci_high, 4)],
            "unfinished": h.unfinished,
            "points_per_throw": {k: round(float(v), 2) for k, v in points_per_throw(h.tables).items()},
            "seconds": round(time.perf_counter() - start, 1),
        }
        print(json.dumps({pair: report[f"{a} beats {b}"]}), file=sys.stderr, flush=True)
    if args.reference:
        ppt = {}
        for profile in ("novice", "casual", "club", "expert"):
            h = head_to_head(profile, args.reference, args.games, args.seed, args.jobs)
            value, low, high = points_per_throw_ci(h.tables, profile)  # self-play: both seats
            ppt[profile] = {
                "points_per_throw": round(value, 2),
                "ci95": [round(low, 2), round(high, 2)],
                "win_rate": round(h.a_rate, 4) if profile != args.reference else None,
            }
            print(json.dumps({profile: ppt[profile]}), file=sys.stderr, flush=True)
        report[f"points_per_throw_vs_{args.reference}"] = ppt
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
