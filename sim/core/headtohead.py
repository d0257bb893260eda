"""Head-to-head skill measurement for any game: profile ``a`` against ``b``, seats rotated.

One copy for every game (the games' ``skill`` scripts add their own figures on top). Each seed
is played once per seating, so the two matches of a seed are a cluster: the interval is the
seed-clustered Wilson interval of :mod:`sim.core.estimators`, not a Wilson interval over
matches.

From the command line: ``benchmarks/headtohead.py``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from .estimators import clustered_wilson
from .game import get_game
from .profiles import load_lineup
from .rules import load_rules
from .runner import Cell, run_cells

__all__ = ["HeadToHead", "head_to_head", "win_interval"]


@dataclass(frozen=True)
class HeadToHead:
    """``games`` matches of ``a`` against ``b`` (2 seats, rotated).

    Attributes:
        a_wins: matches won by ``a`` (with ``a == b``: by the first seat of the line-up).
        ci_low, ci_high: 95 % seed-clustered Wilson interval of a's win rate (proportions).
        unfinished: matches a cap stopped.
        seconds: wall time of the run (s).
        tables: the tidy tables (``matches``, ``players``, ...), for game-specific figures.
    """

    game: str
    a: str
    b: str
    games: int
    a_wins: int
    ci_low: float
    ci_high: float
    unfinished: int
    seconds: float
    tables: dict[str, pd.DataFrame] = field(repr=False, compare=False)

    @property
    def a_rate(self) -> float:
        """a's win rate (a proportion)."""
        return self.a_wins / self.games

    def line(self) -> str:
        """One printable line: wins, rate and interval, unfinished matches, time."""
        return (
            f"{self.game}: {self.a} vs {self.b}: {self.a_wins}/{self.games} = {self.a_rate:.3f} "
            f"[{self.ci_low:.3f}, {self.ci_high:.3f}] (95 %, seed-clustered); "
            f"unfinished {self.unfinished} ({self.seconds:.0f} s)"
        )


def head_to_head(
    game: str, a: str, b: str, games: int, seed: int = 1, jobs: int = 1, overrides: Sequence[str] = ()
) -> HeadToHead:
    """Play ``games`` 2-player matches of ``a`` vs ``b`` on the game's rules with ``overrides``.

    Args:
        game: an installed game's name.
        a, b: profile names or profile files, as ``--players`` takes them.
        games: matches (rounded by the runner to whole rotations: use an even number).
        seed: the root seed.
        jobs: worker processes.
        overrides: ``dotted.key=VALUE`` rule overrides.
    """
    spec = get_game(game)
    rules = load_rules(spec, None, list(overrides))
    players = load_lineup(spec, [a, b], rules)
    cell = Cell("baseline", f"{a}-{b}", rules, players, rotate_seats=True)
    started = time.perf_counter()
    tables = run_cells(spec, [cell], games, seed, jobs=jobs, progress=False)
    elapsed = time.perf_counter() - started
    matches = tables["matches"]
    # a profile file's player is named by its ``name`` key (or the file's stem), not by its path
    names = [player.name for player in players]
    wins, low, high = win_interval(tables, None if names[0] == names[1] else names[0])
    unfinished = int((~matches["finished"].astype(bool)).sum())
    return HeadToHead(game, a, b, int(len(matches)), wins, low, high, unfinished, elapsed, tables)


def win_interval(
    tables: dict[str, pd.DataFrame], profile: str | None, confidence: float = 0.95
) -> tuple[int, float, float]:
    """(wins, low, high) of one player of a rotated run: the seat of ``profile`` (held by one
    seat per match), or the line-up's first slot when ``profile`` is None; the interval is the
    seed-clustered Wilson interval (the rotations of a seed are one cluster), as proportions."""
    matches, rows = tables["matches"], tables["players"]
    if profile is None:
        focal = rows[rows["slot"] == 0] if "slot" in rows else rows[rows["seat"] == 0]
    else:
        focal = rows[rows["profile"] == profile]
    if "seed" not in focal:
        focal = focal.merge(matches[["match", "seed"]], on="match")
    per_seed = focal.assign(won=focal["won"].astype(float)).groupby("seed")["won"].agg(["sum", "count"])
    _, low, high, _ = clustered_wilson(per_seed["sum"].to_numpy(float), per_seed["count"].to_numpy(float), confidence)
    return int(per_seed["sum"].sum()), low, high
