"""Gastérospeed: the snail race, its deck and circuits as data, championships and variants.

Registered as ``gasterospeed``. Modules: ``rules`` (the rules dataclasses), ``circuit`` (maps,
distance fields), ``cards`` (the physical deck, dice), ``board`` (public state and movement
mechanics), ``race`` (one race: phases, reactions, points), ``players`` (simulated players),
``match`` (a championship, tables, replay), ``metrics`` (the game's summary),
``conformance`` (what the conformance suite needs to know).
"""

from __future__ import annotations

from pathlib import Path

from sim.core.game import GameSpec, register

from .conformance import CONFORMANCE
from .match import play_match, replay
from .metrics import metric_parts, metrics_from_parts, summary
from .players import Profile
from .rules import GasterospeedRules, lineup_problems

__all__ = ["GAME", "play_match", "replay", "summary", "GasterospeedRules", "Profile"]

HERE = Path(__file__).parent

GAME = register(GameSpec(
    name="gasterospeed",
    title="Gastérospeed",
    rules_type=GasterospeedRules,
    default_rules=HERE / "rules.toml",
    profile_type=Profile,
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
))
