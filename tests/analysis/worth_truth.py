"""`tablesim worth` against a known truth: coverage of its intervals, false claims and power.

Not a test module: ``tests/analysis/test_worth_truth.py`` runs it with few repetitions, and

    PYTHONPATH=. .venv/bin/python -m tests.analysis.worth_truth --reps 400 --matches 200

prints the whole table: per choice and stream design, the true worth, the mean estimate, the
coverage of the 95 % interval, how often the Holm-adjusted verdict claims a worth (false claims
for a choice worth nothing, power for the others), and the mean interval width; then how often
the worth spread's simultaneous interval (:func:`analysis.worth.worth_spread`) holds the true
spread, 0.18, and its mean width beside the width of each worth's own interval combined.

**The game** (``worth-duel``, registered only inside :func:`registered`): two players, three
restrictable choices, no other decision. A player's score is a uniform draw W on [0, 1) plus
the bonus of every choice it may make:

* ``boost`` adds ``game.boost`` (0.2), ``nudge`` adds ``game.nudge`` (0.05);
* ``swap`` replaces W by a second uniform draw: it changes the match but is worth nothing;
* ``flourish`` is played only by the player already ahead (the higher score) and does nothing:
  worth nothing, yet every seat that played it won. Its observational win rate (the share of
  the matches in which it was played that its player won: the worth table's
  ``won_when_made``) is 1, the correlation a card-mix balance on win rates would read.

The higher score wins. With the opponent allowed everything and the restricted player missing
bonus b, P(win) = (1 − b)²/2 against 1/2 unrestricted, so the true worths are exactly
boost 0.18, nudge 0.04875, swap 0 and flourish 0.

``game.streams`` sets the within-seed correlation under seat rotation: ``"player"`` draws W
from each player's own stream (a player keeps its draws in both seatings: both rotations of a
seed have the same winner, correlation +1); ``"seat"`` draws them from the seat's position in
the match's chance stream (the two rotations swap the draws: negatively correlated).
"""

from __future__ import annotations

import argparse
import contextlib
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from analysis.worth import restricted_wins, worth_interval, worth_spread, worth_table
from sim.core import game as registry
from sim.core.config import param
from sim.core.game import GameSpec, MatchLog
from sim.core.profiles import load_lineup
from sim.core.restrict import Choice, Restrictions, restricted_lineups, worth_manifest
from sim.core.rules import load_rules
from sim.core.runner import Cell, run_cells

NAME = "worth-duel"
TRUTH = {"boost": 0.18, "nudge": 0.04875, "swap": 0.0, "flourish": 0.0}

RULES_TOML = """\
[game]
boost = 0.2       # score added by the boost choice
nudge = 0.05      # score added by the nudge choice
streams = "seat"  # where a player's draws come from: "seat" (the match's chance stream) or "player"
"""

PROFILES_TOML = """\
[plain]
forbid = []
"""


@dataclass(frozen=True)
class Duel:
    boost: float = param(0.2, min=0.0, max=1.0, unit="score", doc="score added by boost")
    nudge: float = param(0.05, min=0.0, max=1.0, unit="score", doc="score added by nudge")
    streams: Literal["seat", "player"] = param("seat", doc="where a player's draws come from")


@dataclass(frozen=True)
class DuelRules:
    game: Duel = Duel()


@dataclass(frozen=True)
class DuelProfile:
    forbid: tuple[str, ...] = param((), doc="choices this player never makes")


CHOICES = (
    Choice("boost", "bonus", "Boost"),
    Choice("nudge", "bonus", "Nudge"),
    Choice("swap", "draw", "Swap"),
    Choice("flourish", "show", "Flourish"),
)


def play_match(rules: DuelRules, players, seeds) -> MatchLog:
    """One match: each seat's score from its draws and allowed choices; the higher wins (pure)."""
    chance = seeds.rng("chance").random((2, 2))
    scores, events = [], []
    for seat, player in enumerate(players):
        draws = seeds.seat(seat).random(2) if rules.game.streams == "player" else chance[seat]
        allowed = [c.name for c in CHOICES if c.name not in player.profile.forbid]
        score = draws[1] if "swap" in allowed else draws[0]
        score += rules.game.boost * ("boost" in allowed) + rules.game.nudge * ("nudge" in allowed)
        scores.append(score)
        events += [{"seat": seat, "choice": name} for name in allowed if name != "flourish"]
    winner = int(np.argmax(scores))
    if "flourish" not in players[winner].profile.forbid:  # played by the one ahead; changes nothing
        events.append({"seat": winner, "choice": "flourish"})
    rows = [{"round": 1, "seat": s, "points": float(s == winner), "cumulative": float(s == winner)} for s in range(2)]
    return MatchLog(
        matches={"winner": winner, "winning_team": -1, "rounds": 1, "finished": True},
        players=[
            {
                "seat": s,
                "profile": p.name,
                "team": -1,
                "score": float(scores[s]),
                "rank": 1 if s == winner else 2,
                "won": s == winner,
            }
            for s, p in enumerate(players)
        ],
        rounds=rows,
        events=events,
    )


def used(tables) -> pd.DataFrame:
    """Each allowed choice counts as made once per match and seat (flourish: by the winner)."""
    events = tables["events"]
    counted = events.groupby(["variant", "lineup", "match", "seat", "choice"]).size().rename("uses")
    return counted.reset_index()


def spec(folder: Path) -> GameSpec:
    rules, profiles = folder / "worth_duel_rules.toml", folder / "worth_duel_profiles.toml"
    rules.write_text(RULES_TOML, encoding="utf-8")
    profiles.write_text(PROFILES_TOML, encoding="utf-8")
    return GameSpec(
        name=NAME,
        title="Worth duel",
        rules_type=DuelRules,
        default_rules=rules,
        profile_type=DuelProfile,
        profiles=profiles,
        play_match=play_match,
        player_counts=(2,),
        restrictions=Restrictions(choices=lambda rules: CHOICES, used=used),
    )


@contextlib.contextmanager
def registered(folder: Path) -> Iterator[GameSpec]:
    """``worth-duel`` in the game registry for the ``with`` block (runs in this process only)."""
    with registry.registered_while(spec(folder)) as game:
        yield game


@dataclass(frozen=True)
class Run:
    """One run's worth table and its :func:`~analysis.worth.restricted_wins`."""

    table: pd.DataFrame
    wins: pd.DataFrame


def runs(game: GameSpec, streams: str, reps: int, matches: int, first_seed: int = 0) -> list[Run]:
    """The worth tables of ``reps`` independent runs of ``matches`` per line-up (seats rotated):
    played as one run of ``reps × matches`` from root seed ``first_seed``, of which run r takes
    the matches r·matches .. (r + 1)·matches − 1 (seeds of its own)."""
    rules = load_rules(game, None, [("game.streams", streams)])
    players = load_lineup(game, ["plain", "plain"], rules)
    expanded = list(restricted_lineups("duel", players, 0, CHOICES))
    cells = [Cell("baseline", name, rules, seated, rotate_seats=True) for name, _, seated in expanded]
    total = reps * matches
    tables = run_cells(game, cells, total, first_seed, chunk_size=total, backend="sequential", progress=False)
    worth = worth_manifest(0, CHOICES, {n: ("duel", c) for n, c, _ in expanded})
    out = []
    for rep in range(reps):
        part = {name: table[(table["match"] // matches) == rep] for name, table in tables.items()}
        out.append(Run(worth_table(part, worth, used), restricted_wins(part, worth, "baseline", "duel")))
    return out


def summarise(played: list[Run], streams: str, matches: int) -> pd.DataFrame:
    """Per choice over the runs' worth tables: truth, mean worth, coverage, claims, width."""
    runs_ = pd.concat([run.table for run in played], ignore_index=True)
    runs_["truth"] = runs_["choice"].map(TRUTH)
    runs_["covered"] = (runs_["ci_low"] <= runs_["truth"]) & (runs_["truth"] <= runs_["ci_high"])
    runs_["claimed"] = runs_["verdict"] != "no detectable worth"
    runs_["width"] = runs_["ci_high"] - runs_["ci_low"]
    out = runs_.groupby("choice").agg(
        truth=("truth", "first"),
        mean_worth=("worth", "mean"),
        sd_worth=("worth", "std"),
        coverage=("covered", "mean"),
        claims=("claimed", "mean"),
        width=("width", "mean"),
        detectable=("detectable", "mean"),
    )
    return out.reset_index().assign(streams=streams, reps=len(played), matches=matches)


def spread_coverage(played: list[Run]) -> float:
    """Share of the runs whose worth-spread interval holds the true spread (0.18 − 0 = 0.18)."""
    truth = max(TRUTH.values()) - min(TRUTH.values())
    spreads = [worth_spread(run.table, run.wins) for run in played]
    return float(np.mean([s["low"] <= truth <= s["high"] for s in spreads]))


def spread_widths(played: list[Run]) -> tuple[float, float]:
    """Mean width of the spread's 95 % interval over the runs: pairing the restricted line-ups
    (:func:`~analysis.worth.worth_spread`), and combining each worth's own interval at the
    Bonferroni level over the choices (max upper − min lower, the bound without pairing)."""
    paired, combined = [], []
    for run in played:
        table = run.table
        spread = worth_spread(table, run.wins)
        paired.append(spread["high"] - spread["low"])
        bounds = np.array([worth_interval(r, 1 - 0.05 / len(table)) for r in table.to_dict("records")])
        combined.append(bounds[:, 1].max() - bounds[:, 0].min() - max(0.0, bounds[:, 0].max() - bounds[:, 1].min()))
    return float(np.mean(paired)), float(np.mean(combined))


def study(
    reps: int, matches: int, streams: str, first_seed: int = 0, widths: bool = False
) -> tuple[pd.DataFrame, float] | tuple[pd.DataFrame, float, tuple[float, float]]:
    """:func:`summarise` of ``reps`` runs, and their :func:`spread_coverage` (and, with
    ``widths``, their :func:`spread_widths`)."""
    with tempfile.TemporaryDirectory() as scratch, registered(Path(scratch)) as game:
        played = runs(game, streams, reps, matches, first_seed)
    if widths:
        return summarise(played, streams, matches), spread_coverage(played), spread_widths(played)
    return summarise(played, streams, matches), spread_coverage(played)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--matches", type=int, default=200, help="matches per line-up (whole rotations)")
    args = parser.parse_args()
    started = time.perf_counter()
    for streams in ("seat", "player"):
        table, spread, (paired, combined) = study(args.reps, args.matches, streams, widths=True)
        print(table.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
        print(
            f"worth spread (true 0.18): its simultaneous 95 % interval holds it in {spread:.4f} of the runs; "
            f"mean width {paired:.4f} (each worth's own intervals combined: {combined:.4f})"
        )
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
