"""What a carrom policy sees and what it decides: :class:`PlanView` and :class:`Stroke`.

The seam between the match (which knows the rules' state) and the players (which only see
this): :func:`sim.carrom.match.plan_view` builds a view from a board state, a policy turns it
into a stroke (:class:`sim.carrom.players.policies.CarromPolicy`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from sim.dexterity import ShotParams, execute_shot
from sim.physics import ExecutionNoise

from .board import Geometry, nearest_in

__all__ = ["Stroke", "PlanView", "striker_spans", "execute_stroke"]


@dataclass(frozen=True)
class Stroke:
    """An intended stroke in the shooter's frame: striker ``x`` (m; NaN: no legal spot, the
    stroke is forfeited), ``angle_deg`` (anticlockwise from straight ahead), ``speed`` (m/s);
    ``kind`` (cut, rebound_*, bank_*, break, push, random), the target coin and local pocket,
    and the planner's mean score (coins; NaN if not planned)."""

    x: float
    angle_deg: float
    speed: float
    kind: str = ""
    target: int = -1
    pocket: int = -1
    value: float = float("nan")


@dataclass
class PlanView:
    """What the planner needs to know about the board, from the shooter's seat.

    Attributes:
        geo: board geometry. pos (19, 2): board positions; on (19,): coins on the board.
        rot, next_rot: local→board rotations of the shooter and of the seat that plays if
            the turn passes (equal in solo practice).
        own, opp: (19,) coins that score for / against the shooter (queen excluded).
        coin_value: (19,) value of each coin to the shooter, in coins (own 1, three
            players: points/10).
        next_targets: (19,) coins the next seat would pot.
        queen_on, queen_allowed, queen_prior, queen_pending: the queen on the board; may be
            taken without another coin; the shooter has the earlier own coin; waits for the
            shooter's cover.
        queen_settled: the queen is covered.
        queen_value: value of a covered queen to the shooter (coins).
        own_left, opp_left: own / opponents' coins on the board (2 and 4 players).
        is_break: the board's break.
        three: three players, each for themselves.
        solo: practice mode (one player, every coin counts, no rules).
        own_down: own coins already pocketed (the ICF queen condition).
        next_queen_allowed: the next seat may take the queen.
    """

    geo: Geometry
    pos: np.ndarray
    on: np.ndarray
    rot: np.ndarray
    next_rot: np.ndarray
    own: np.ndarray
    opp: np.ndarray
    coin_value: np.ndarray
    next_targets: np.ndarray
    queen_on: bool
    queen_allowed: bool
    queen_prior: bool
    queen_pending: bool
    queen_settled: bool
    queen_value: float
    own_left: int
    opp_left: int
    is_break: bool
    three: bool = False
    solo: bool = False
    own_down: int = 0
    next_queen_allowed: bool = False

    def local_coins(self) -> np.ndarray:
        """(M, 2) the coins on the board in the shooter's frame."""
        return self.pos[self.on] @ self.rot

    @cached_property
    def spans(self) -> np.ndarray:
        """(k, 2) local x intervals where the shooter may put the striker (legal and free);
        worked out once per view (the policy and the placement share them)."""
        return self.geo.free_spans(self.local_coins())

    def place(self, x: float) -> float:
        """The legal, free striker position nearest to ``x`` (local, m); NaN if there is none
        (:meth:`~sim.carrom.rules.board.Geometry.place_striker` on this view's coins)."""
        spans = self.spans
        return nearest_in(float(x), spans.tolist()) if len(spans) else math.nan


def striker_spans(view: PlanView) -> np.ndarray:
    """(k, 2) local x intervals where the shooter may put the striker (legal and free)."""
    return view.spans


def execute_stroke(noise: ExecutionNoise, max_speed: float, stroke: Stroke, rng: np.random.Generator) -> ShotParams:
    """The stroke after the execution noise, the speed capped at the striker's ``max_speed``
    (m/s); a forfeited stroke (``x`` NaN) draws nothing."""
    if not math.isfinite(stroke.x):
        return ShotParams(math.nan, 0.0, 0.0)
    shot = execute_shot(ShotParams(stroke.x, stroke.angle_deg, stroke.speed), noise, rng)
    return shot._replace(speed=min(shot.speed, max_speed))
