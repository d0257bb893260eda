"""Skill check of the presets: head-to-head win rates with Wilson CIs, points per throw.

Run ``python -m sim.curlastique.skill --games 2000 --jobs 2`` (2-player games on the default
rules, seats rotated: each seed is played with both seatings). The slow test
``tests/curlastique/test_skill.py`` runs the same checks on fewer games.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass

import pandas as pd

from sim.core.game import get_game
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules
from sim.core.runner import Cell, run_cells

__all__ = ["HeadToHead", "head_to_head", "points_per_throw", "main"]


@dataclass(frozen=True)
class HeadToHead:
    """Result of ``games`` games of profile ``a`` against ``b`` (seats rotated)."""

    a: str
    b: str
    games: int
    a_wins: int
    unfinished: int
    ci_low: float
    ci_high: float
    tables: dict

    @property
    def a_rate(self) -> float:
        return self.a_wins / self.games


def head_to_head(a: str, b: str, games: int, seed: int = 1, jobs: int = 1,
                 overrides: tuple[str, ...] = ()) -> HeadToHead:
    """Play ``games`` 2-player games of ``a`` vs ``b`` (even ``games``: both seatings per seed)."""
    from scipy.stats import binomtest

    spec = get_game("curlastique")
    rules = load_rules(spec, None, overrides)
    players = load_lineup(spec, [a, b], rules)
    cell = Cell("baseline", f"{a}-{b}", rules, players, rotate_seats=True)
    tables = run_cells(spec, [cell], games, seed, jobs=jobs, progress=False)
    won = tables["players"].query("profile == @a")["won"].astype(bool)
    wins = int(won.sum())
    ci = binomtest(wins, games).proportion_ci(method="wilson")
    unfinished = int((~tables["matches"]["finished"].astype(bool)).sum())
    return HeadToHead(a, b, games, wins, unfinished, float(ci.low), float(ci.high), tables)


def points_per_throw(tables: dict) -> pd.Series:
    """Round points per puck thrown, by profile."""
    rounds, players = tables["rounds"], tables["players"]
    keys = ["variant", "lineup", "match", "seat"]
    pts = rounds.groupby(keys)["points"].sum().rename("points").reset_index()
    merged = players[keys + ["profile", "throws"]].merge(pts, on=keys)
    per = merged.groupby("profile")[["points", "throws"]].sum()
    return per["points"] / per["throws"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    report = {}
    ppt: dict[str, list[float]] = {}
    for a, b in (("expert", "novice"), ("club", "casual"), ("casual", "novice"), ("expert", "club")):
        start = time.perf_counter()
        h = head_to_head(a, b, args.games, args.seed, args.jobs)
        for profile, value in points_per_throw(h.tables).items():
            ppt.setdefault(profile, []).append(float(value))
        report[f"{a}>{b}"] = {"games": h.games, "wins": h.a_wins, "rate": round(h.a_rate, 4),
                              "wilson95": [round(h.ci_low, 4), round(h.ci_high, 4)],
                              "unfinished": h.unfinished,
                              "seconds": round(time.perf_counter() - start, 1)}
    report["points_per_throw"] = {p: round(sum(v) / len(v), 2) for p, v in ppt.items()}
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
