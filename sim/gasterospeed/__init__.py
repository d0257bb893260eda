"""Gastérospeed: the snail race, its deck and circuits as data, championships and variants.

Registered as ``gasterospeed``. Modules: ``rules`` (the rules dataclasses), ``circuit`` (maps,
distance fields), ``cards`` (the physical deck, dice), ``board`` (public state and movement
mechanics), ``race`` (one race: phases, reactions, points), ``players`` (simulated players),
``match`` (a championship, tables, replay), ``frames`` (the animated replay), ``metrics``
(the game's summary), ``conformance`` (what the conformance suite needs to know).
"""

from __future__ import annotations

from pathlib import Path

from sim.core.game import GameLength, GameSpec, register

from .conformance import CONFORMANCE
from .frames import frames
from .match import play_match, replay
from .metrics import metric_parts, metrics_from_parts, summary
from .players import GasterospeedProfile
from .rules import GasterospeedRules, lineup_problems
from .sheet import SHEET

__all__ = ["GAME", "play_match", "replay", "summary", "GasterospeedRules", "GasterospeedProfile"]

HERE = Path(__file__).parent

GAME = register(GameSpec(
    name="gasterospeed",
    title="Gastérospeed",
    rules_type=GasterospeedRules,
    default_rules=HERE / "rules.toml",
    profile_type=GasterospeedProfile,
    profiles=HERE / "profiles.toml",
    play_match=play_match,
    player_counts=(2, 3, 4, 5, 6),
    lineup_problems=lineup_problems,
    summary=summary,
    metric_parts=metric_parts,
    metrics_from_parts=metrics_from_parts,
    replay=replay,
    demo_players=("tactician", "greedy", "casual", "random"),
    conformance=CONFORMANCE,
    frames=frames,
    examples=HERE / "examples",
    # the tactician from many slips to none: its softmax temperature 1.0, 0.2, 0
    skill_path=("novice", "casual", "tactician"),
    length=GameLength(column="turns_per_race", unit="turns per race", label="race length"),
    sheet=SHEET,
))
