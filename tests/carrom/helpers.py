"""Shared helpers of the carrom tests: rules with overrides, scripted boards and strokes."""

from __future__ import annotations

import numpy as np

from sim.carrom.players.scripted import (  # noqa: F401
    MISS,
    QUEEN_ID,
    QueueResolver,
    ScriptedPlayer,
    clearing_resolver,
    hit,
    scripted_players,
)
from sim.carrom.rules.board import BLACK, WHITE, formation
from sim.carrom.rules.flow import BoardState
from sim.core import load_rules
from sim.core.game import get_game

SPEC = get_game("carrom")


def rules(*overrides: str):
    return load_rules(SPEC, None, list(overrides))


def ids(colour: int) -> list[int]:
    """Coin ids of a colour in the formation (queen = 0)."""
    _, col = formation(rules())
    return [int(i) for i in np.flatnonzero(col == colour)]


WHITES = ids(WHITE)
BLACKS = ids(BLACK)


def board(
    *overrides: str, n_seats: int = 2, breaker: int = 0, scores=None, white_side: int | None = 0, seed: int = 0
) -> BoardState:
    """A board past its break (the formation, coins ready to be 'pocketed' by script)."""
    r = rules(*overrides)
    state = BoardState(r, n_seats, breaker, scores, np.random.default_rng(seed), white_side=white_side)
    state.break_pending = False
    return state
