"""Simulated Curlastique players: a profile (skill and style as numbers) and the policies built from it.

Skill is execution noise (Gaussian σ on the lateral start, the aim angle and, relatively, the
speed) and planning budget (how many candidate shots are considered and how many noisy
outcomes are averaged for each). Style is the planner's shot families and their numbers (impact
speeds, guard distances, draw spots...): every one a profile key with its unit and bounds, so a
tuner or a calibration can reach it and presets may differ in style.

A policy (:class:`Policy`) decides an intended :class:`~sim.curlastique.rules.situation.Shot` from a
:class:`~sim.curlastique.rules.situation.Situation` and executes it (an
:class:`~sim.curlastique.players.throwing.ExecutedShot`), drawing only from the seat's generator;
:func:`make_policy` builds a seat's policy from its profile: the
:class:`~sim.curlastique.players.planner.Planner`, which simulates candidate shots of the families of
:mod:`sim.curlastique.players.families` under its own noise and keeps the best on average, or the
:class:`~sim.curlastique.players.throwing.RandomPlayer` (uniform legal shots, a baseline). Module
``throwing`` holds the executing bases (re-exported here): :class:`ExactPolicy`, the base of
scripted policies (tests), and :class:`NoisyPolicy`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from ..rules.schema import CurlastiqueRules
from ..rules.situation import Shot, Situation
from .families import FAMILIES
from .planner import Planner
from .profile import FILL_ORDER, POLICIES, CurlastiqueProfile
from .throwing import ExactPolicy, ExecutedShot, NoisyPolicy, RandomPlayer, clip_shot, launch_limits

if TYPE_CHECKING:
    from ..rules.board import Arena


__all__ = [
    "CurlastiqueProfile",
    "Policy",
    "make_policy",
    "ExecutedShot",
    "ExactPolicy",
    "RandomPlayer",
    "NoisyPolicy",
    "launch_limits",
    "clip_shot",
    "FAMILIES",
    "FILL_ORDER",
    "POLICIES",
]


@runtime_checkable
class Policy(Protocol):
    """What the match asks of a seat: an intended shot, then that shot as executed.

    Both draw only from ``rng`` (the seat's own stream), ``decide`` first."""

    def decide(self, situation: Situation, rng: np.random.Generator) -> Shot:
        """The intended shot for this situation."""
        ...

    def execute(self, shot: Shot, rng: np.random.Generator) -> ExecutedShot:
        """The shot as thrown: the intended one perturbed by the player's noise, within the launcher's limits."""
        ...


def make_policy(profile, rules: CurlastiqueRules, board: Arena | None = None) -> Policy:
    """The policy of a seat: its profile itself if it already is one (scripted tests), else
    a :class:`~sim.curlastique.players.planner.Planner` (simulating on ``board``, the game's physics)
    or a :class:`~sim.curlastique.players.throwing.RandomPlayer` built from a :class:`CurlastiqueProfile`.

    A planner keeps nothing of a match (its caches are functions of the board it is shown), so
    one is built per (profile, rules, board) and reused by every match of a process."""
    if not isinstance(profile, CurlastiqueProfile) and isinstance(profile, Policy):
        return profile
    if profile.policy == "random":
        return RandomPlayer(rules)
    return _planner(profile, rules, board)


@lru_cache(maxsize=64)
def _planner(profile: CurlastiqueProfile, rules: CurlastiqueRules, board: Arena | None) -> Planner:
    return Planner(rules, profile, board)
