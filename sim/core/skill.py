"""A continuous skill axis through a game's presets (novice → expert): the one-number player
that calibration fits and skill sweeps vary.

A game names its path in ``GameSpec.skill_path`` (presets in increasing skill). Skill ``s`` in
``[0, len(path) - 1]`` is the profile between presets ``floor(s)`` and ``floor(s) + 1``: every
number is interpolated linearly (integers rounded to the nearest), every other field (a policy
name, a switch) must be the same along the path. Skill 1.0 is exactly the second preset.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from typing import Any

from .config import ConfigError
from .game import GameSpec, Player
from .profiles import load_profile

__all__ = ["skill_path", "profile_at_skill", "player_at_skill", "skill_range"]


def skill_path(spec: GameSpec) -> tuple[str, ...]:
    """The game's skill path; refused (ConfigError, one line) if it has none."""
    path = tuple(getattr(spec, "skill_path", ()) or ())
    if len(path) < 2:
        raise ConfigError([f"skill: {spec.name} declares no skill path (GameSpec.skill_path: two presets or more)"])
    return path


def skill_range(spec: GameSpec) -> tuple[float, float]:
    """The allowed skill values: 0 (the first preset) to len(path) - 1 (the last)."""
    return 0.0, float(len(skill_path(spec)) - 1)


def _mix(low: Any, high: Any, weight: float, name: str, tp: Any) -> Any:
    if dataclasses.is_dataclass(low):
        return _interpolate(low, high, weight)
    if isinstance(low, bool) or not isinstance(low, int | float):
        if low != high:
            raise ConfigError(
                [f"skill: {name} differs along the skill path ({low!r} vs {high!r}); only numbers can be interpolated"]
            )
        return low
    value = low + weight * (high - low)
    return int(round(value)) if tp is int else float(value)


def _interpolate(low: Any, high: Any, weight: float) -> Any:
    hints = typing.get_type_hints(type(low))
    values = {}
    for field in dataclasses.fields(low):
        a, b = getattr(low, field.name), getattr(high, field.name)
        if isinstance(a, tuple):
            values[field.name] = tuple(_mix(x, y, weight, field.name, type(x)) for x, y in zip(a, b))
        else:
            values[field.name] = _mix(a, b, weight, field.name, hints[field.name])
    return dataclasses.replace(low, **values)


def profile_at_skill(spec: GameSpec, skill: float) -> Any:
    """The profile at ``skill`` on the game's path (see the module docstring)."""
    path = skill_path(spec)
    lo, hi = skill_range(spec)
    if not (isinstance(skill, int | float) and math.isfinite(skill) and lo <= skill <= hi):
        raise ConfigError([f"skill: got {skill!r}; allowed: {lo:g} ({path[0]}) to {hi:g} ({path[-1]})"])
    index = min(int(math.floor(skill)), len(path) - 2)
    low, high = (load_profile(spec, name).profile for name in path[index : index + 2])
    return _interpolate(low, high, skill - index)


def player_at_skill(spec: GameSpec, skill: float, name: str | None = None) -> Player:
    """A :class:`Player` at ``skill``, named ``name`` or ``skill-<s>``."""
    return Player(name or f"skill-{skill:g}", profile_at_skill(spec, skill))
