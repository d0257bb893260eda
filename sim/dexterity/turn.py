"""One turn of a dexterity game: decide, add the player's noise, place, resolve.

:func:`play_turn` is the step both Curlastique and Carrom take for every throw or stroke; the
game supplies what is its own (what the seat sees, where a shot may start, how the physics is
called, what a lost shot does) as arguments, and logs the :class:`Turn` it gets back.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, NamedTuple, Protocol, TypeVar

import numpy as np

from sim.physics import ExecutionNoise, executed

__all__ = ["ShotParams", "DexterityPolicy", "Turn", "play_turn", "execute_shot"]


class ShotParams(NamedTuple):
    """A shot as the physics takes it, in the shooter's frame.

    Attributes:
        x: lateral start position (m; NaN: the player has no legal start, the shot is lost).
        angle_deg: aim, degrees anticlockwise from straight ahead.
        speed: m/s.
    """

    x: float
    angle_deg: float
    speed: float


ViewT = TypeVar("ViewT", contravariant=True)
IntentT = TypeVar("IntentT")
OutcomeT = TypeVar("OutcomeT")


class DexterityPolicy(Protocol[ViewT, IntentT]):
    """A seat's player: an intended shot from what it sees, then its noisy execution.

    Both draw only from ``rng`` (the seat's own stream). ``execute`` returns the shot as
    played before placement; a game's policy may clip it to what its launcher allows.
    """

    def decide(self, view: ViewT, rng: np.random.Generator) -> IntentT: ...

    def execute(self, intent: IntentT, rng: np.random.Generator) -> ShotParams: ...


@dataclass(frozen=True)
class Turn(Generic[IntentT, OutcomeT]):
    """What one turn did.

    Attributes:
        intent: the policy's decision (the game's own record: a shot with its family, target,
            planned value...).
        executed: the shot after the execution noise, before placement.
        placed: the legal start the shot was played from (m; NaN: there was none, the shot
            was lost and ``outcome`` is the game's forfeit).
        outcome: what the resolver (or the forfeit) returned.
    """

    intent: IntentT
    executed: ShotParams
    placed: float
    outcome: OutcomeT

    @property
    def played(self) -> ShotParams:
        """The shot the physics received (``x`` = the placed start)."""
        return ShotParams(self.placed, self.executed.angle_deg, self.executed.speed)


def play_turn(
    policy: DexterityPolicy[ViewT, IntentT],
    view: ViewT,
    rng: np.random.Generator,
    place: Callable[[float], float],
    resolve: Callable[[ShotParams], OutcomeT],
    forfeit: Callable[[], OutcomeT],
) -> Turn[IntentT, OutcomeT]:
    """Decide, execute, place and resolve one shot.

    Args:
        policy: the seat's policy; view: what it sees.
        rng: the seat's own generator (the only source of randomness of the turn).
        place: executed start x → the legal start nearest to it (m), NaN if none (not called
            when the executed x is already NaN).
        resolve: the shot as placed → the game's outcome (the physics, or a scripted resolver).
        forfeit: the outcome of a shot that has no legal start.
    """
    intent = policy.decide(view, rng)
    executed = policy.execute(intent, rng)
    placed = float(place(executed.x)) if math.isfinite(executed.x) else math.nan
    if math.isfinite(placed):
        outcome = resolve(ShotParams(placed, executed.angle_deg, executed.speed))
    else:
        outcome = forfeit()
    return Turn(intent, executed, placed, outcome)


def execute_shot(intended: ShotParams, noise: ExecutionNoise, rng: np.random.Generator) -> ShotParams:
    """One noisy execution of an intended shot, exactly as :func:`sim.physics.execute_shots`
    draws it (three standard normals: position, angle, speed; the speed kept >= 0), without
    its array set-up (this runs once per turn)."""
    zx, za, zv = rng.standard_normal(3).tolist()
    x, angle, speed = executed(
        float(intended.x),
        float(intended.angle_deg),
        float(intended.speed),
        (noise.position_m, noise.angle_deg, noise.speed_rel),
        zx,
        za,
        zv,
    )
    return ShotParams(x, angle, float(speed))
