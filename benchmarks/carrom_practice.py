"""Carrom solo practice: strokes to clear a board, per profile.

    PYTHONPATH=. .venv/bin/python benchmarks/carrom_practice.py --players beginner,casual,club,champion --boards 40

prints, per profile, the mean strokes to clear the board with a 95 % t confidence interval,
the fraction of boards cleared within the stroke cap and the strikers pocketed
(:func:`sim.carrom.practice.practice_table`).
"""

from __future__ import annotations

import argparse
import sys

from sim.carrom.practice import practice_table


def main(argv=None) -> int:
    from scipy import stats

    from sim.core import load_lineup, load_rules
    from sim.core.game import get_game

    parser = argparse.ArgumentParser(description="carrom solo practice: strokes to clear a board")
    parser.add_argument("--players", default="beginner,casual,club,champion")
    parser.add_argument("--boards", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-strokes", type=int, default=300)
    parser.add_argument("--set", action="append", default=[], dest="overrides")
    args = parser.parse_args(argv)
    spec = get_game("carrom")
    rules = load_rules(spec, None, args.overrides)
    names = args.players.split(",")
    players = [load_lineup(spec, [n, n], rules)[0] for n in names]
    table = practice_table(rules, players, args.boards, args.seed, args.max_strokes)
    print(f"{'profile':<12} {'boards':>6} {'strokes (mean, 95% CI)':>28} {'cleared':>8} {'striker in':>10}")
    for name, g in table.groupby("profile", sort=False):
        s = g["strokes"].to_numpy(float)
        lo, hi = stats.t.interval(0.95, len(s) - 1, loc=s.mean(), scale=stats.sem(s)) if len(s) > 1 else (s[0], s[0])
        print(
            f"{name:<12} {len(s):>6} {s.mean():>10.1f}  [{lo:6.1f}, {hi:6.1f}]   "
            f"{g['cleared'].mean():>7.0%} {g['striker_pocketed'].mean():>10.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
