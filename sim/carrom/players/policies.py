"""Simulated carrom players: a profile (skill and style as numbers) and the policies built from it.

A stroke is decided in the shooter's local frame (x along its base line, y forward) as a
striker position ``x`` (m), an aim angle (degrees anticlockwise from straight ahead) and a
speed (m/s). The planner (:mod:`sim.carrom.players.planner`):

1. lists candidate strokes from geometry (:mod:`sim.carrom.players.aim`): for every own coin (and the
   queen when it may be taken) and every pocket, the ghost-ball cut from the best striker
   position on the legal base line and base circles, directly or with the striker off one
   cushion, the coin going straight or off a cushion beside the pocket; on the break, shots
   of the break grid into the formation (``break_plan``: planned on every board, or on the
   seat's first break of the match and then played again, or a rehearsed break played
   without planning, :mod:`sim.carrom.rehearse`); fallback and safety shots (straight pushes
   of a coin);
2. ranks them by their analytic pot probability under the player's own noise;
3. simulates the best ``candidates`` of them with the player's OWN execution noise through
   :func:`sim.physics.simulate_batch`: ``samples`` noisy simulations each (or, with
   ``screen_samples`` < ``samples``, successive halving: ``screen_samples`` each, then the
   best ``finalists`` again until each has ``samples``);
4. values every simulated outcome with the rules (:mod:`sim.carrom.players.value`: own coins, the
   queen and its cover, dues, last-coin hazards, whether the turn continues) plus the
   position left: the best pot the player keeps if the turn continues, minus (``safety``)
   the best pot the next opponent gets;
5. plays the finalist with the best mean value; its execution is then perturbed once more by
   the same noise (:func:`sim.dexterity.execute_shot`).

Every number of that procedure is a key of :class:`CarromProfile` (units, bounds and meaning
below; the presets in ``profiles.toml`` differ in skill and in style). ``policy = "random"``
plays a uniformly random legal stroke. All draws come from the seat's own generator.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from sim.dexterity import ShotParams

from ..rules.board import Geometry
from ..rules.view import PlanView, Stroke, execute_stroke, striker_spans
from .planner import Planner
from .profile import CarromProfile

__all__ = ["CarromProfile", "CarromPolicy", "Stroke", "PlanView", "Planner", "RandomPlayer", "make_policy"]


class CarromPolicy(Protocol):
    """A seat's player (:class:`sim.dexterity.DexterityPolicy` over carrom's view and stroke):
    both methods draw only from ``rng``, the seat's own stream."""

    def decide(self, view: PlanView, rng: np.random.Generator) -> Stroke:
        """The intended stroke (``x`` NaN: no legal spot, the stroke is forfeited)."""
        ...

    def execute(self, stroke: Stroke, rng: np.random.Generator) -> ShotParams:
        """The stroke as played, after the execution noise (no draw for a forfeited one)."""
        ...


class RandomPlayer:
    """A uniformly random legal stroke: striker anywhere legal, aim within
    ±``random_max_angle_deg``, speed from ``random_min_speed`` to ``random_max_speed_share`` of
    the maximum."""

    def __init__(self, profile: CarromProfile, geo: Geometry):
        self.profile = profile
        self.geo = geo
        self.noise = profile.noise

    def decide(self, view: PlanView, rng: np.random.Generator) -> Stroke:
        spans = striker_spans(view)
        if len(spans) == 0:
            return Stroke(float("nan"), 0.0, 0.0, "random")
        p = self.profile
        widths = spans[:, 1] - spans[:, 0] + 1e-9
        k = int(rng.choice(len(spans), p=widths / widths.sum()))
        x = float(rng.uniform(spans[k, 0], spans[k, 1]))
        angle = float(rng.uniform(-p.random_max_angle_deg, p.random_max_angle_deg))
        speed = float(rng.uniform(p.random_min_speed, p.random_max_speed_share * self.geo.rules.striker.max_speed))
        return Stroke(x, angle, speed, "random")

    def execute(self, stroke: Stroke, rng: np.random.Generator) -> ShotParams:
        return execute_stroke(self.noise, self.geo.rules.striker.max_speed, stroke, rng)


def make_policy(profile, geo: Geometry) -> CarromPolicy:
    """The policy of a profile: a profile object with a ``decide`` method is its own policy
    (tests inject scripted players); otherwise a :class:`~sim.carrom.players.planner.Planner` or a
    :class:`RandomPlayer`."""
    if hasattr(profile, "decide"):
        return profile
    if profile.policy == "random":
        return RandomPlayer(profile, geo)
    return Planner(profile, geo)
