"""Scripted players and a teleport resolver: the Curlastique match flow without physics.

A :class:`Scripted` player is told how many points each seat scores in each round; its k-th
throw of a round lands on a spot of the zone that its decomposition of those points needs (or
goes out). The :func:`teleport` resolver puts the thrown puck exactly where the shot says:
``x`` is the landing x and ``speed`` the landing y (negative = out); pucks at rest never move.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from sim.core.game import Player
from sim.curlastique.match import Shot, Situation
from sim.curlastique.players.policies import ExactPolicy, ExecutedShot
from sim.curlastique.rules.board import Landing
from sim.curlastique.rules.schema import CurlastiqueRules

# distance from the target centre of a puck fully inside each default ring ("lower" rule)
ZONE_DISTANCE = {100: 0.0, 80: 0.06, 40: 0.105, 20: 0.16}


def decompose(points: int, pucks: int = 5) -> list[int]:
    """Zone values (default rings) of ``pucks`` throws summing to ``points`` (0 = out)."""
    for values in itertools.combinations_with_replacement((100, 80, 40, 20, 0), pucks):
        if sum(values) == points:
            return list(values)
    raise ValueError(f"cannot score {points} with {pucks} pucks")


def spot(value: int, k: int, centre_y: float = 0.75) -> tuple[float, float]:
    """Landing point (x, y) of a puck worth ``value``; ``k`` spreads pucks around the ring."""
    if value == 0:
        return 0.0, -1.0
    rho = ZONE_DISTANCE[value]
    phi = k * 2 * math.pi / 5 + 0.3
    return rho * math.sin(phi), centre_y + rho * math.cos(phi)


class Scripted(ExactPolicy):
    """Scores ``plan[(round, seat)]`` points in that round (default 0: every puck out).

    Attributes:
        seen: every :class:`Situation` this player was shown, in order.
    """

    def __init__(self, rules: CurlastiqueRules, plan: dict[tuple[int, int], int] | None = None, default: int = 0):
        super().__init__(rules)
        self.plan = plan or {}
        self.default = default
        self.seen: list[Situation] = []

    def decide(self, situation: Situation, rng: np.random.Generator) -> Shot:
        self.seen.append(situation)
        pucks = self.rules.game.pucks_per_player
        k = pucks - 1 - int(situation.left[situation.seat])
        points = self.plan.get((situation.round, situation.seat), self.default)
        value = decompose(points, pucks)[k]
        x, y = spot(value, k, self.rules.zones.centre_y)
        return Shot(x, 0.0, y, "scripted")

    def execute(self, shot: Shot, rng: np.random.Generator) -> ExecutedShot:
        return ExecutedShot(shot.x, shot.angle_deg, shot.speed)


def teleport(rules, pos, owner, seat, x, angle_deg, speed):
    """Resolver: the thrown puck lands at (x, speed), or goes out when speed < 0."""
    final = np.vstack([np.reshape(pos, (-1, 2)), [[x, speed]]])
    on = np.ones(len(final), dtype=bool)
    on[-1] = speed >= 0
    return Landing(final, on)


def scripted_players(rules, plan, n, default=0) -> tuple[Player, ...]:
    """``n`` seats sharing one scripted plan."""
    return tuple(Player(f"scripted{s}", Scripted(rules, plan, default)) for s in range(n))
