"""`tablesim matrix` against a known truth: a purely transitive game and rock-paper-scissors.

Not a test module: ``tests/analysis/test_metagame_truth.py`` runs it with few repetitions, and

    PYTHONPATH=. .venv/bin/python -m tests.analysis.metagame_truth --reps 100 --matches 200

prints, per game, how often each interval holds its truth.

**The game** (``meta-duel``, registered only inside :func:`registered`): two players and no
decisions; the first seat wins when a uniform draw of the match's chance stream falls below

    σ(x + game.seat),  x = strength_first − strength_second   (game.mode = "strength")
    x = ± logit(game.edge) by the hands (rock beats scissors beats paper beats rock; the same
    hand: x = 0)                                                  (game.mode = "hands")

so the Bradley–Terry model with a seat term holds exactly in the first game (ratings the
strengths, centred; seat term ``game.seat``), and the second is rock-paper-scissors. The true
win matrix averages both seatings, P[i, j] = (σ(x_ij + h) + σ(x_ij − h)) / 2, and every truth
of the meta-game is computed from it with the very functions the analysis uses: the Nash
mixture, α-Rank and the cyclic share (0.0000 in the transitive game up to the seat term's
curvature, exactly 1 for rock-paper-scissors).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import math
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from analysis.metagame import alpha_rank, cyclic_share, metagame, nash
from sim.core import game as registry
from sim.core.config import param
from sim.core.game import GameSpec, MatchLog
from sim.core.profiles import load_profile
from sim.core.rules import load_rules
from sim.core.runner import Cell, run_cells
from tests.analysis.duel import logistic_duel

NAME = "meta-duel"
HANDS = ("rock", "paper", "scissors")
STRENGTHS = {"weak": 0.0, "fair": 0.5, "good": 1.0, "best": 1.5}

RULES_TOML = """\
[game]
mode = "strength"  # "strength" (one number per player) or "hands" (rock-paper-scissors)
seat = 0.2         # the first seat's advantage, logits
edge = 0.8         # hands: chance that the beating hand wins at equal seats
"""

PROFILES_TOML = "\n".join(
    [
        *(f"[{name}]\nstrength = {value}\n" for name, value in STRENGTHS.items()),
        *(f'[{hand}]\nhand = "{hand}"\n' for hand in HANDS),
    ]
)


@dataclass(frozen=True)
class Duel:
    mode: Literal["strength", "hands"] = param("strength", doc="what decides the winner")
    seat: float = param(0.2, min=-5.0, max=5.0, unit="logits", doc="the first seat's advantage")
    edge: float = param(0.8, min=0.5, max=0.99, unit="probability", doc="hands: the beating hand's chance")


@dataclass(frozen=True)
class DuelRules:
    game: Duel = Duel()


@dataclass(frozen=True)
class DuelProfile:
    strength: float = param(0.0, min=-10.0, max=10.0, unit="logits", doc="strength mode: the player's strength")
    hand: Literal["rock", "paper", "scissors"] = param("rock", doc="hands mode: the player's hand")


def logit_edge(rules: DuelRules, first: DuelProfile, second: DuelProfile) -> float:
    """x of the module docstring: the first seat's edge before the seat term, logits."""
    if rules.game.mode == "strength":
        return first.strength - second.strength
    a, b = HANDS.index(first.hand), HANDS.index(second.hand)
    if a == b:
        return 0.0
    edge = math.log(rules.game.edge / (1 - rules.game.edge))
    return edge if (a - b) % 3 == 1 else -edge  # paper beats rock, scissors paper, rock scissors


def play_match(rules: DuelRules, players, seeds) -> MatchLog:
    x = logit_edge(rules, players[0].profile, players[1].profile) + rules.game.seat
    return logistic_duel(x, players, seeds)


def spec(folder: Path) -> GameSpec:
    rules, profiles = folder / "meta_duel_rules.toml", folder / "meta_duel_profiles.toml"
    rules.write_text(RULES_TOML, encoding="utf-8")
    profiles.write_text(PROFILES_TOML, encoding="utf-8")
    return GameSpec(
        name=NAME,
        title="Meta duel",
        rules_type=DuelRules,
        default_rules=rules,
        profile_type=DuelProfile,
        profiles=profiles,
        play_match=play_match,
        player_counts=(2,),
    )


@contextlib.contextmanager
def registered(folder: Path) -> Iterator[GameSpec]:
    """``meta-duel`` in the game registry for the ``with`` block (runs in this process only)."""
    with registry.registered_while(spec(folder)) as game:
        yield game


def true_matrix(rules: DuelRules, profiles: list[DuelProfile]) -> np.ndarray:
    """P[i, j] averaged over both seatings (module docstring)."""
    n, h = len(profiles), rules.game.seat
    p = np.full((n, n), 0.5)
    for i, j in itertools.permutations(range(n), 2):
        x = logit_edge(rules, profiles[i], profiles[j])
        p[i, j] = (1 / (1 + math.exp(-(x + h))) + 1 / (1 + math.exp(-(x - h)))) / 2
    return p


def one_run(game: GameSpec, mode: str, names: list[str], matches: int, seed: int, bootstrap: int):
    """The meta-game of one run of ``matches`` per pair, and the truths."""
    rules = load_rules(game, None, [("game.mode", mode)])
    players = [load_profile(game, name) for name in names]
    lineups = {f"{a.name} vs {b.name}": (a, b) for a, b in itertools.combinations(players, 2)}
    cells = [Cell("baseline", name, rules, pair, rotate_seats=True) for name, pair in lineups.items()]
    tables = run_cells(game, cells, matches, seed, chunk_size=matches, backend="sequential", progress=False)
    found = metagame(
        tables, {k: [a.name, b.name] for k, (a, b) in lineups.items()}, names, bootstrap=bootstrap, seed=seed
    )
    return found, rules, [p.profile for p in players]


def held(found, rules, profiles) -> dict[str, bool]:
    """Which intervals of one run hold their truths."""
    truth = true_matrix(rules, profiles)
    ratings = found.ratings.set_index("profile").loc[found.profiles]
    out = {
        "seat": found.seat_ci[0] <= rules.game.seat <= found.seat_ci[1],
        "cyclic": found.cyclic_ci[0] - 1e-9 <= cyclic_share(truth) <= found.cyclic_ci[1] + 1e-9,
    }
    if rules.game.mode == "strength":
        strengths = np.array([p.strength for p in profiles])
        centred = strengths - strengths.mean()
        out["ratings"] = bool(((ratings["ci_low"] <= centred) & (centred <= ratings["ci_high"])).all())
    out["nash"] = bool(
        ((ratings["nash_low"] - 1e-9 <= nash(truth)) & (nash(truth) <= ratings["nash_high"] + 1e-9)).all()
    )
    out["alpha_rank"] = bool(
        ((ratings["alpha_low"] - 1e-9 <= alpha_rank(truth)) & (alpha_rank(truth) <= ratings["alpha_high"] + 1e-9)).all()
    )
    return out


def study(mode: str, reps: int, matches: int, bootstrap: int = 200) -> pd.DataFrame:
    """Per repetition: which intervals held, the cyclic share and its interval."""
    names = list(STRENGTHS) if mode == "strength" else list(HANDS)
    rows = []
    with tempfile.TemporaryDirectory() as scratch, registered(Path(scratch)) as game:
        for rep in range(reps):
            found, rules, profiles = one_run(game, mode, names, matches, rep, bootstrap)
            rows.append(
                {
                    **held(found, rules, profiles),
                    "cyclic_share": found.cyclic,
                    "cyclic_low": found.cyclic_ci[0],
                    "cyclic_high": found.cyclic_ci[1],
                    "top": found.ratings["profile"].iloc[0],
                    "support": int((found.ratings["nash"] > 1e-3).sum()),
                }
            )
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=100)
    parser.add_argument("--matches", type=int, default=200, help="matches per pair (both seatings)")
    args = parser.parse_args()
    for mode in ("strength", "hands"):
        frame = study(mode, args.reps, args.matches)
        held_share = frame.drop(columns=["cyclic_share", "cyclic_low", "cyclic_high", "top", "support"]).mean()
        print(
            f"{mode}: intervals holding the truth {held_share.round(3).to_dict()}; cyclic share mean "
            f"{frame['cyclic_share'].mean():.3f} (interval mean [{frame['cyclic_low'].mean():.3f}, "
            f"{frame['cyclic_high'].mean():.3f}]); top profile {frame['top'].value_counts().to_dict()}; "
            f"Nash support sizes {frame['support'].value_counts().to_dict()}"
        )


if __name__ == "__main__":
    main()
