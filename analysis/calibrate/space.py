"""What a calibration fits for each player: a point of a profile space.

Two spaces: :class:`SkillSpace`, one number per player on a skill path through the game's
presets (:mod:`sim.core.skill`: novice → expert, numbers interpolated), and :class:`KeySpace`,
named profile keys of a base preset (``--fit angle_sigma_deg,speed_sigma_rel``), each within a
range (by default the span of that key over the presets of the base's kind). Either way a
player is a vector of numbers in natural units, one per :class:`Axis`, and the space turns it
into a profile to simulate and into the profile TOML file written for ``--players``.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import tomli_w

from sim.core.config import ConfigError, build, field_docs, read_toml, to_dict
from sim.core.game import GameSpec
from sim.core.profiles import load_profile, preset_names
from sim.core.skill import profile_at_skill

__all__ = ["Axis", "KeySpace", "SkillSpace", "parse_fit_keys", "parse_path"]


@dataclass(frozen=True)
class Axis:
    """One fitted number: its key, range (natural units) and unit."""

    key: str
    low: float
    high: float
    unit: str = ""
    integer: bool = False

    def to_unit(self, value: float) -> float:
        return (value - self.low) / (self.high - self.low)

    def from_unit(self, u: float) -> float:
        return self.low + u * (self.high - self.low)


def _number(value: float) -> float:
    """A value as written in a profile file: 6 significant digits."""
    return float(f"{value:.6g}")


def _flat(data: dict, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[prefix + key] = value
    return out


def _nested(flat: dict[str, Any]) -> dict:
    out: dict = {}
    for key, value in flat.items():
        *parents, leaf = key.split(".")
        node = out
        for parent in parents:
            node = node.setdefault(parent, {})
        node[leaf] = value
    return out


def _profile_text(name: str, base: str, keys: dict[str, Any], comments: Sequence[str]) -> str:
    body = tomli_w.dumps({"name": name, "base": base, **_nested(keys)})
    return "".join(f"# {line}\n" for line in comments) + body


def parse_path(spec: GameSpec, text: str | None) -> tuple[str, ...]:
    """The skill path: ``--path a,b,c`` or the game's ``skill_path``; refused if it cannot be used."""
    if text is None:
        path = tuple(getattr(spec, "skill_path", ()) or ())
        if len(path) < 2:
            raise ConfigError(
                [
                    f"--path: {spec.name} declares no skill path yet; name one, e.g. --path "
                    + ",".join(preset_names(spec)[:3])
                    + " (presets of one kind, least skilled first)"
                ]
            )
    else:
        path = tuple(p.strip() for p in text.split(",") if p.strip())
        unknown = [p for p in path if p not in preset_names(spec)]
        if unknown:
            raise ConfigError([f"--path: unknown preset {unknown[0]!r}; allowed: {', '.join(preset_names(spec))}"])
        if len(path) < 2 or len(set(path)) < len(path):
            raise ConfigError([f"--path: got {text!r}; allowed: two presets or more, each once, least skilled first"])
    return path


@dataclass(frozen=True)
class SkillSpace:
    """One skill number per player on ``path`` (0 = its first preset, len - 1 = its last)."""

    spec: GameSpec
    path: tuple[str, ...]

    def __post_init__(self):
        walked = dataclasses.replace(self.spec, skill_path=self.path)
        for index in range(len(self.path) - 1):  # every segment interpolates (same policy): checked now
            profile_at_skill(walked, index + 0.5)
        object.__setattr__(self, "_walked", walked)

    @property
    def axes(self) -> tuple[Axis, ...]:
        return (Axis("skill", 0.0, float(len(self.path) - 1), "presets along the path"),)

    @property
    def description(self) -> str:
        return "skill on the path " + " → ".join(f"{p} ({i})" for i, p in enumerate(self.path))

    def profile(self, values: Sequence[float]) -> Any:
        return profile_at_skill(self._walked, min(max(float(values[0]), 0.0), len(self.path) - 1.0))

    def profile_file(self, name: str, values: Sequence[float], comments: Sequence[str] = ()) -> str:
        skill = min(max(float(values[0]), 0.0), len(self.path) - 1.0)
        base = self.path[min(int(math.floor(skill + 1e-9)), len(self.path) - 1)]
        here = _flat(to_dict(self.profile([skill])))
        there = _flat(to_dict(load_profile(self.spec, base).profile))
        keys = {k: (_number(v) if isinstance(v, float) else v) for k, v in here.items() if v != there[k]}
        return _profile_text(name, base, keys, comments)


_FIT = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(?:=\s*([-+0-9.eE]+)\s*:\s*([-+0-9.eE]+))?\s*$")


#: How sim.core.config.field_docs names the numeric types.
_NUMERIC = ("int", "float", "an integer", "a number")


def parse_fit_keys(spec: GameSpec, text: str, base: str) -> tuple[Axis, ...]:
    """``--fit KEY[=LOW:HIGH],...``: numeric profile keys, each with a range."""
    docs = field_docs(spec.profile_type)
    presets = read_toml(spec.profiles)
    if base not in presets:
        raise ConfigError([f"--base: unknown preset {base!r}; allowed: {', '.join(presets)}"])
    reference = _flat(to_dict(load_profile(spec, base).profile))
    numeric = [k for k, d in docs.items() if d["type"] in _NUMERIC]
    axes = []
    for item in [t for t in text.split(",") if t.strip()] or [""]:
        found = _FIT.match(item)
        if not found or found.group(1) not in numeric:
            key = found.group(1) if found else item.strip()
            raise ConfigError(
                [
                    f"--fit: {key!r} is not a numeric profile key; allowed: {', '.join(numeric)} "
                    "(optionally KEY=LOW:HIGH)"
                ]
            )
        key, low, high = found.groups()
        doc = docs[key]
        if low is None:
            low, high = _preset_span(spec, key, reference)
        low, high = float(low), float(high)
        bounds = (doc.get("min", -math.inf), doc.get("max", math.inf))
        if not (bounds[0] <= low < high <= bounds[1]):
            raise ConfigError(
                [
                    f"--fit: {key}: range {low:g}:{high:g}; allowed: LOW < HIGH within "
                    f"{bounds[0]:g} to {bounds[1]:g} {doc.get('unit') or ''}".rstrip()
                ]
            )
        axes.append(Axis(key, low, high, doc.get("unit") or "", doc["type"] in ("int", "an integer")))
    if len({a.key for a in axes}) < len(axes):
        raise ConfigError([f"--fit: {text!r} names a key twice"])
    return tuple(axes)


def _preset_span(spec: GameSpec, key: str, reference: dict[str, Any]) -> tuple[float, float]:
    """The span of ``key`` over the presets whose non-numeric fields match the base's."""
    values = []
    for name in preset_names(spec):
        flat = _flat(to_dict(load_profile(spec, name).profile))
        if all(flat[k] == v for k, v in reference.items() if not isinstance(v, int | float) or isinstance(v, bool)):
            values.append(flat[key])
    low, high = min(values), max(values)
    if low == high:
        raise ConfigError(
            [f"--fit: {key} is {low:g} in every preset like the base; give its range: --fit {key}=LOW:HIGH"]
        )
    return low, high


@dataclass(frozen=True)
class KeySpace:
    """Named profile keys of the preset ``base``, one number each."""

    spec: GameSpec
    base: str
    axes: tuple[Axis, ...]

    @property
    def description(self) -> str:
        return f"profile keys of {self.base}: " + ", ".join(
            f"{a.key} ({a.low:g} to {a.high:g} {a.unit})".replace(" )", ")") for a in self.axes
        )

    def _values(self, values: Sequence[float]) -> dict[str, Any]:
        out = {}
        for axis, value in zip(self.axes, values):
            value = min(max(float(value), axis.low), axis.high)
            out[axis.key] = int(round(value)) if axis.integer else _number(value)
        return out

    def profile(self, values: Sequence[float]) -> Any:
        data = _flat(to_dict(load_profile(self.spec, self.base).profile))
        data.update(self._values(values))
        return build(self.spec.profile_type, _nested(data), default_source="calibrate")

    def profile_file(self, name: str, values: Sequence[float], comments: Sequence[str] = ()) -> str:
        return _profile_text(name, self.base, self._values(values), comments)
