"""Player profiles: named presets from a game's data file, or custom profiles in TOML.

A line-up is a list of profile references, one per seat. A reference is either a preset's
name (``club``) or the path of a TOML file (``my_player.toml``) holding a custom profile::

    name = "steady-hand"      # optional: the name shown in tables (default: the file's stem)
    base = "club"             # optional: start from a preset, then change some numbers
    angle_sigma_deg = 0.8

A file that sets nothing (no ``base`` and no key) is refused; one without ``base`` takes the
profile type's defaults for the keys it does not set, and a note says so. ``tablesim profiles
GAME`` lists the presets and every key with its unit, bounds and meaning.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .config import ConfigError, _emit_notes, build, read_toml
from .game import GameSpec, Player
from .restrict import forbid_problems

__all__ = ["preset_names", "presets", "load_profile", "load_lineup"]


def _presets(spec: GameSpec) -> dict:
    return read_toml(spec.profiles)


def presets(spec: GameSpec) -> dict[str, dict]:
    """Every preset of a game as its TOML table (name → keys), in file order."""
    return _presets(spec)


def preset_names(spec: GameSpec) -> list[str]:
    """The preset profile names of a game, in file order."""
    return list(_presets(spec))


def load_profile(spec: GameSpec, reference: str) -> Player:
    """One seat's :class:`Player` from a preset name or a custom profile TOML file."""
    presets = _presets(spec)
    if reference in presets:
        profile = build(
            spec.profile_type,
            presets[reference],
            default_source=str(spec.profiles),
            sources={k: f"{spec.profiles} [{reference}]" for k in presets[reference]},
        )
        return Player(reference, profile)
    path = Path(reference)
    if path.suffix != ".toml":
        raise ConfigError(
            [
                f"players: unknown profile {reference!r}; allowed: "
                f"{', '.join(presets)}, or the path of a .toml profile file"
            ]
        )
    data = read_toml(path)
    name = data.pop("name", path.stem)
    base = data.pop("base", None)
    if not isinstance(name, str) or not name.strip():
        raise ConfigError([f"{path}: name: expected a non-empty string, got {name!r}"])
    if base is None and not data:
        raise ConfigError(
            [
                f"{path}: an empty profile (no base and no key); start it from a preset with "
                f'base = "NAME" (one of: {", ".join(presets)}) and set the keys to change '
                f"(`tablesim profiles {spec.name}` lists them)"
            ]
        )
    if base is None:
        _emit_notes(
            [("base", f"none given: the keys it does not set take the defaults of `tablesim profiles {spec.name}`")],
            {"base": str(path)},
            str(path),
        )
    merged: dict = {}
    if base is not None:
        if not isinstance(base, str) or base not in presets:
            raise ConfigError([f"{path}: base: unknown profile {base!r}; allowed: {', '.join(presets)}"])
        merged.update(presets[base])
    merged.update(data)
    profile = build(
        spec.profile_type,
        merged,
        sources={k: str(path) for k in data},
        default_source=f"{spec.profiles} [{base}]",
        baseline=dict(presets.get(base, {})),
    )
    return Player(name, profile)


def load_lineup(spec: GameSpec, references: Sequence[str], rules=None) -> tuple[Player, ...]:
    """The players of a line-up, checked against the game's allowed player counts and rules. An
    empty name (``club,,club``) is a problem, never a seat dropped."""
    references = [r.strip() for r in references]
    problems: list[str] = []
    empty = [str(k + 1) for k, r in enumerate(references) if not r]
    if empty:
        problems.append(
            f"players: seat {', '.join(empty)} of {','.join(references)!r} has no profile; allowed: a "
            f"preset of {spec.name} or the path of a .toml profile file for every seat"
        )
        references = [r for r in references if r]
    if len(references) not in spec.player_counts:
        allowed = ", ".join(str(n) for n in spec.player_counts)
        problems.append(f"players: {spec.name} takes {allowed} players, got {len(references)}")
    if rules is not None and spec.lineup_problems is not None and not problems:
        problems.extend(spec.lineup_problems(rules, len(references)))
    players = []
    for reference in references:
        try:
            players.append(load_profile(spec, reference))
        except ConfigError as exc:
            problems.extend(exc.problems)
    if rules is not None and not problems:
        problems.extend(forbid_problems(spec.restrictions, rules, players, spec.name))
    if problems:
        raise ConfigError(problems)
    return tuple(players)
