"""The execution noise of a simulated player, as profile keys shared by the dexterity games.

A game's profile inherits :class:`ExecutionProfile` and may give other defaults with the
field helpers, which keep the same unit, bounds and meaning in every game::

    @dataclass(frozen=True)
    class CarromProfile(ExecutionProfile):
        angle_sigma_deg: float = angle_sigma(0.8)
        ...

The noise model is :func:`sim.physics.execute_shots`: independent Gaussian errors on the
lateral start position (m), the aim angle (degrees) and, relatively, the speed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.core.config import param
from sim.physics import ExecutionNoise

__all__ = [
    "ExecutionProfile",
    "position_sigma",
    "angle_sigma",
    "speed_sigma",
    "MAX_POSITION_SIGMA_M",
    "MAX_ANGLE_SIGMA_DEG",
    "MAX_SPEED_SIGMA_REL",
]

#: Upper bounds of the noise keys: beyond them a "player" no longer aims at all (a 0.1 m
#: placement error is a third of a carrom base line; 30° misses a curling house from the line).
MAX_POSITION_SIGMA_M = 0.1
MAX_ANGLE_SIGMA_DEG = 30.0
MAX_SPEED_SIGMA_REL = 1.0


def position_sigma(default: float) -> Any:
    """The ``position_sigma_m`` field: σ of the lateral start position, m, in [0, 0.1]."""
    return param(
        default,
        min=0.0,
        max=MAX_POSITION_SIGMA_M,
        unit="m",
        doc="σ of the lateral start position (striker placement, launch point)",
    )


def angle_sigma(default: float) -> Any:
    """The ``angle_sigma_deg`` field: σ of the aim angle, degrees, in [0, 30]."""
    return param(default, min=0.0, max=MAX_ANGLE_SIGMA_DEG, unit="deg", doc="σ of the aim angle")


def speed_sigma(default: float) -> Any:
    """The ``speed_sigma_rel`` field: σ of the speed relative to the intended one, in [0, 1]."""
    return param(
        default,
        min=0.0,
        max=MAX_SPEED_SIGMA_REL,
        unit="fraction of the speed",
        doc="σ of the speed, relative (0.05 = 5 % of the intended speed)",
    )


@dataclass(frozen=True)
class ExecutionProfile:
    """The noise fields of a player profile (a mixin: games inherit it).

    Attributes:
        position_sigma_m: σ of the lateral start position (m).
        angle_sigma_deg: σ of the aim angle (degrees).
        speed_sigma_rel: σ of the speed, relative to the intended speed.
    """

    position_sigma_m: float = position_sigma(0.0)
    angle_sigma_deg: float = angle_sigma(0.0)
    speed_sigma_rel: float = speed_sigma(0.0)

    @property
    def noise(self) -> ExecutionNoise:
        """The noise as :func:`sim.physics.execute_shots` takes it."""
        return ExecutionNoise(self.position_sigma_m, self.angle_sigma_deg, self.speed_sigma_rel)
