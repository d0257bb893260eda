"""A tiny dice race used to test the game-independent core without any real game.

Each round every seat rolls a die plus its profile's ``bonus``; the first to ``target`` points
wins after the round; ``max_rounds`` caps the game. Registered as ``toy-dice``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sim.core import GameSpec, MatchLog, param, register

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Game:
    target: int = param(20, min=1, max=10**6, unit="points", doc="points to win")
    max_rounds: int = param(50, min=1, max=1000, doc="round cap")
    delay_s: float = param(0.0, min=0.0, max=0.2, unit="s", doc="sleep per match (to test interruptions)")
    seat0_bonus: float = param(0.0, min=-10.0, max=10.0, unit="points", doc="added to seat 0's rolls")


@dataclass(frozen=True)
class Dice:
    sides: int = param(6, min=2, max=1000, doc="faces of the die")
    faces: tuple[int, ...] = param((), min=-1000, max=1000, doc="custom face values (empty: 1..sides)")
    mode: Literal["sum", "max"] = "sum"


@dataclass(frozen=True)
class ToyRules:
    game: Game = Game()
    dice: Dice = Dice()

    def problems(self):
        if self.dice.faces and len(self.dice.faces) != self.dice.sides:
            yield "dice.faces", f"expected {self.dice.sides} values (one per side), got {len(self.dice.faces)}"
        top = max(self.dice.faces) if self.dice.faces else self.dice.sides
        if self.game.target > self.game.max_rounds * top:
            yield (
                "game.target",
                (
                    f"got {self.game.target}; allowed: <= {self.game.max_rounds * top} "
                    "(reachable within game.max_rounds rounds)"
                ),
            )

    def notes(self):
        if list(self.dice.faces) != sorted(self.dice.faces):
            yield "dice.faces", "the face values are not in increasing order (allowed; a typo?)"


@dataclass(frozen=True)
class ToyProfile:
    bonus: float = param(0.0, min=0.0, doc="added to every roll")


def play_match(rules: ToyRules, players, seeds) -> MatchLog:
    if rules.game.delay_s:
        time.sleep(rules.game.delay_s)
    rngs = [seeds.seat(seat) for seat in range(len(players))]
    scores = [0.0] * len(players)
    rounds, events, index = [], [], 0
    finished = False
    for round_number in range(1, rules.game.max_rounds + 1):
        for seat, player in enumerate(players):
            roll = int(rngs[seat].integers(1, rules.dice.sides + 1))
            if rules.dice.faces:
                roll = rules.dice.faces[roll - 1]
            points = roll + player.profile.bonus + (rules.game.seat0_bonus if seat == 0 else 0.0)
            scores[seat] += points
            rounds.append(
                {"round": round_number, "seat": seat, "points": float(points), "cumulative": float(scores[seat])}
            )
            events.append({"index": index, "round": round_number, "seat": seat, "roll": roll})
            index += 1
        if max(scores) >= rules.game.target:
            finished = True
            break
    best = max(scores)
    while finished and scores.count(best) > 1:  # tie-break: the tied seats roll again
        for seat in [s for s, v in enumerate(scores) if v == best]:
            scores[seat] += int(rngs[seat].integers(1, rules.dice.sides + 1)) + players[seat].profile.bonus
        best = max(scores)
    winner = scores.index(best) if finished else -1
    order = sorted(range(len(players)), key=lambda s: -scores[s])
    players_rows = [
        {
            "seat": s,
            "profile": p.name,
            "team": -1,
            "score": float(scores[s]),
            "rank": order.index(s) + 1,
            "won": s == winner,
        }
        for s, p in enumerate(players)
    ]
    return MatchLog(
        matches={"winner": winner, "winning_team": -1, "rounds": round_number, "finished": finished},
        players=players_rows,
        rounds=rounds,
        events=events,
    )


GAME = register(
    GameSpec(
        name="toy-dice",
        title="Toy dice",
        rules_type=ToyRules,
        default_rules=HERE / "toy_rules.toml",
        profile_type=ToyProfile,
        profiles=HERE / "toy_profiles.toml",
        play_match=play_match,
        player_counts=(2, 3, 4),
    )
)
