"""Shared helpers of the carrom tests: rules with overrides, scripted boards and strokes."""

from __future__ import annotations

from collections import deque

import numpy as np

from sim.carrom.board import BLACK, WHITE, StrokeOutcome, formation
from sim.carrom.flow import BoardState
from sim.carrom.players import Stroke
from sim.core import load_rules
from sim.core.game import Player, get_game

SPEC = get_game("carrom")
QUEEN_ID = 0


def rules(*overrides: str):
    return load_rules(SPEC, None, list(overrides))


def ids(colour: int) -> list[int]:
    """Coin ids of a colour in the formation (queen = 0)."""
    _, col = formation(rules())
    return [int(i) for i in np.flatnonzero(col == colour)]


WHITES = ids(WHITE)
BLACKS = ids(BLACK)


def board(*overrides: str, n_seats: int = 2, breaker: int = 0, scores=None,
          white_side: int | None = 0, seed: int = 0) -> BoardState:
    """A board past its break (the formation, coins ready to be 'pocketed' by script)."""
    r = rules(*overrides)
    state = BoardState(r, n_seats, breaker, scores, np.random.default_rng(seed), white_side=white_side)
    state.break_pending = False
    return state


def hit(*pocketed: int, striker: bool = False, touched: bool = True) -> StrokeOutcome:
    """A scripted stroke: these coins fell (in this order); nothing else moved."""
    return StrokeOutcome(pocketed=tuple(pocketed), striker_pocketed=striker, touched=touched)


MISS = StrokeOutcome()


class ScriptedPlayer:
    """A profile that is its own policy: always the same stroke, no noise."""

    def decide(self, view, rng):
        return Stroke(0.0, 0.0, 1.0, "scripted")

    def execute(self, stroke, rng):
        return stroke.x, stroke.angle_deg, stroke.speed


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


def clearing_resolver(state, seat, x, angle, speed):
    """The shooter pockets all its own coins and the queen in one stroke."""
    own = [i for i in range(19) if state.on[i] and state.own_mask(seat)[i]]
    queen = [QUEEN_ID] if state.on[QUEEN_ID] else []
    return StrokeOutcome(pocketed=tuple(own + queen), touched=True)
