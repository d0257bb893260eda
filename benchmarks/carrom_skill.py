"""Skill and speed checks of the presets.

    PYTHONPATH=. .venv/bin/python benchmarks/carrom_skill.py --games 200 --pairs champion-beginner,club-casual
    PYTHONPATH=. .venv/bin/python benchmarks/carrom_skill.py --speed 40 [--set ruleset=icf]

Head to head: 2-player games on the given rules, seats rotated (each seed is played with both
seatings); prints the win rate of the first profile with its 95 % Wilson CI, draws, stuck
boards and games decided by the board cap. Speed: a plain loop on ONE core (no runner, no
workers) of ``club`` against ``club``; prints games/s and strokes/s and the load average,
since other processes share the CPU.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from sim.core.game import get_game
from sim.core.headtohead import HeadToHead
from sim.core.headtohead import head_to_head as core_head_to_head
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules
from sim.core.seeding import MatchSeeds

__all__ = ["HeadToHead", "head_to_head", "board_line", "speed", "main"]


def head_to_head(
    a: str, b: str, games: int, seed: int = 1, jobs: int = 1, overrides: tuple[str, ...] = ()
) -> HeadToHead:
    """Play ``games`` 2-player games of ``a`` vs ``b``, seats rotated, through the one
    head-to-head measurement of :mod:`sim.core.headtohead` (seed-clustered interval)."""
    return core_head_to_head("carrom", a, b, games, seed, jobs, overrides)


def board_line(h: HeadToHead) -> str:
    """Carrom's figures of a head-to-head run: draws, stuck boards, board-capped games."""
    m = h.tables["matches"]
    return (
        f"draws {int(m['draw'].sum())}, stuck boards {int(m['stuck_boards'].sum())}/{int(m['rounds'].sum())}, "
        f"board-capped games {int(m['capped_games'].sum())}"
    )


def speed(games: int, overrides: tuple[str, ...] = (), lineup=("club", "club"), seed: int = 3) -> dict:
    """Games/s and strokes/s of a plain single-core loop (after one warm-up game)."""
    spec = get_game("carrom")
    rules = load_rules(spec, None, overrides)
    players = load_lineup(spec, list(lineup), rules)
    spec.play_match(rules, players, MatchSeeds(seed, 10_000))  # warm-up: numba caches, imports
    load_before = os.getloadavg()[0]
    strokes = boards = 0
    started = time.perf_counter()
    for m in range(games):
        log = spec.play_match(rules, players, MatchSeeds(seed, m))
        strokes += log.matches["strokes"]
        boards += log.matches["rounds"]
    elapsed = time.perf_counter() - started
    return {
        "games": games,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "strokes_per_s": strokes / elapsed,
        "strokes_per_game": strokes / games,
        "boards_per_game": boards / games,
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--pairs", default="champion-beginner")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--speed", type=int, default=0, help="games of the single-core speed loop")
    parser.add_argument("--set", action="append", default=[], dest="overrides")
    args = parser.parse_args(argv)
    overrides = tuple(args.overrides)
    if args.speed:
        r = speed(args.speed, overrides)
        print(
            f"club vs club, one core, {r['games']} games in {r['seconds']:.1f} s: "
            f"{r['games_per_s']:.2f} games/s ({60 * r['games_per_s']:.0f}/min), "
            f"{r['strokes_per_s']:.0f} strokes/s, {r['strokes_per_game']:.0f} strokes and "
            f"{r['boards_per_game']:.1f} boards a game; load average {r['load_before']:.1f} -> "
            f"{r['load_after']:.1f} (2 cores)"
        )
        return 0
    for pair in args.pairs.split(","):
        a, b = pair.split("-")
        h = head_to_head(a, b, args.games, args.seed, args.jobs, overrides)
        print(f"{h.line()}; {board_line(h)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
