"""Scripted strokes and players: positions set up by hand, for rule tests and the conformance
suite's fingerprint of the rules (no physics, no noise)."""

from __future__ import annotations

from collections import deque

from sim.core.game import Player
from sim.dexterity import ShotParams

from ..rules.board import StrokeOutcome
from ..rules.view import Stroke

__all__ = [
    "QUEEN_ID",
    "MISS",
    "hit",
    "ScriptedPlayer",
    "scripted_players",
    "QueueResolver",
    "clearing_resolver",
    "never_touches",
    "last_coins_first",
]

QUEEN_ID = 0


def hit(*pocketed: int, striker: bool = False, touched: bool = True) -> StrokeOutcome:
    """A scripted stroke: these coins fell (in this order); nothing else moved."""
    return StrokeOutcome(pocketed=tuple(pocketed), striker_pocketed=striker, touched=touched)


MISS = StrokeOutcome()


class ScriptedPlayer:
    """A profile that is its own policy: always the same stroke, no noise."""

    def decide(self, view, rng):
        return Stroke(0.0, 0.0, 1.0, "scripted")

    def execute(self, stroke, rng):
        return ShotParams(stroke.x, stroke.angle_deg, stroke.speed)


def scripted_players(n: int) -> tuple[Player, ...]:
    return tuple(Player(f"p{i}", ScriptedPlayer()) for i in range(n))


class QueueResolver:
    """Plays queued outcomes, then misses; records who played each stroke."""

    def __init__(self, outcomes=()):
        self.queue = deque(outcomes)
        self.seats: list[int] = []

    def __call__(self, state, seat, x, angle, speed):
        self.seats.append(seat)
        return self.queue.popleft() if self.queue else MISS


def _own(state, seat) -> list[int]:
    return [i for i in range(len(state.on)) if state.on[i] and state.own_mask(seat)[i]]


def clearing_resolver(state, seat, x, angle, speed):
    """The shooter pockets all its own coins and the queen in one stroke."""
    queen = [QUEEN_ID] if state.on[QUEEN_ID] else []
    return StrokeOutcome(pocketed=tuple(_own(state, seat) + queen), touched=True)


def never_touches(state, seat, x, angle, speed):
    """Every stroke misses everything."""
    return StrokeOutcome(touched=False)


def last_coins_first(state, seat, x, angle, speed):
    """The shooter pockets all its own coins, never the queen."""
    return StrokeOutcome(pocketed=tuple(_own(state, seat)), touched=True)
