"""How a Curlastique seat throws: the executed shot, the launcher's limits, and the policy
bases that execute shots exactly (:class:`ExactPolicy`, scripted tests) or with a profile's
execution noise (:class:`NoisyPolicy`), and the :class:`RandomPlayer` (uniform legal shots).
"""

from __future__ import annotations

import numpy as np

from sim.dexterity import ShotParams, execute_shot
from sim.physics import execute_shots

from ..rules.schema import CurlastiqueRules
from ..rules.situation import Shot, Situation

__all__ = ["ExecutedShot", "launch_limits", "clip_shot", "ExactPolicy", "RandomPlayer", "NoisyPolicy"]


#: A throw as executed (after noise and the launcher's limits): start ``x`` (m), angle (degrees,
#: counterclockwise positive) and ``speed`` (m/s) — the dexterity games' one shot type.
ExecutedShot = ShotParams


def launch_limits(rules: CurlastiqueRules) -> tuple[float, float, float]:
    """The launcher's limits: largest ``|x|`` (m), ``|angle|`` (degrees) and speed (m/s)."""
    lim = rules.launch
    return float(lim.x_max), float(lim.angle_max_deg), float(rules.max_speed)


def clip_shot(limits: tuple[float, float, float], x: float, angle: float, speed: float) -> ExecutedShot:
    """A shot within the launcher's ``limits`` (:func:`launch_limits`): ``|x| <= x_max``,
    ``|angle| <= angle_max``, ``0 <= speed <= max``."""
    x_max, a_max, v_max = limits
    return ExecutedShot(min(max(x, -x_max), x_max), min(max(angle, -a_max), a_max), min(max(speed, 0.0), v_max))


class ExactPolicy:
    """Base of policies that execute their shots exactly (no noise); subclasses decide."""

    def __init__(self, rules: CurlastiqueRules):
        self.rules = rules
        self.limits = launch_limits(rules)

    def decide(self, situation: Situation, rng: np.random.Generator) -> Shot:
        raise NotImplementedError

    def execute(self, shot: Shot, rng: np.random.Generator) -> ExecutedShot:
        return clip_shot(self.limits, float(shot.x), float(shot.angle_deg), float(shot.speed))


class RandomPlayer(ExactPolicy):
    """Uniform legal shots: start, angle and speed each uniform over their allowed range."""

    def decide(self, situation: Situation, rng: np.random.Generator) -> Shot:
        lim = self.rules.launch
        x = rng.uniform(-lim.x_max, lim.x_max)
        a = rng.uniform(-lim.angle_max_deg, lim.angle_max_deg)
        v = rng.uniform(0.0, self.rules.max_speed)
        return Shot(float(x), float(a), float(v), "random")


class NoisyPolicy(ExactPolicy):
    """A policy whose throws are perturbed by the profile's execution noise.

    The noise is :func:`sim.physics.execute_shots`'s (three standard normals drawn in the
    order position, angle, speed; ``x + σ_x·z``, ``angle + σ_a·z``, ``max(v·(1 + σ_v·z), 0)``),
    computed on plain floats for one shot (``tests/curlastique/players/test_planner.py`` checks they agree)."""

    def __init__(self, rules: CurlastiqueRules, profile):
        super().__init__(rules)
        self.profile = profile
        self.execution_noise = profile.noise
        self.sigmas = self.execution_noise.sigmas()

    def execute(self, shot: Shot, rng: np.random.Generator) -> ExecutedShot:
        executed = execute_shot(ShotParams(shot.x, shot.angle_deg, shot.speed), self.execution_noise, rng)
        return clip_shot(self.limits, *executed)

    def noisy(self, x, angle, speed, rng: np.random.Generator, samples: int | None = None):
        """Executed shots (x, angle, speed arrays) for intended ones, clipped to the launcher's
        limits; ``samples=S`` adds a trailing axis of S (vectorised, for plots and studies)."""
        ex, ea, ev = execute_shots(
            np.asarray(x, float),
            np.asarray(angle, float),
            np.asarray(speed, float),
            self.execution_noise,
            rng,
            samples=samples,
        )
        x_max, a_max, v_max = self.limits
        return np.clip(ex, -x_max, x_max), np.clip(ea, -a_max, a_max), np.clip(ev, 0.0, v_max)
