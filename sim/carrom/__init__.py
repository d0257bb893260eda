"""Carrom: a striker flicked at coins, four corner pockets (2 singles, 3 each for themselves,
4 in doubles), with the family rules of the French seed and the ICF Laws as switchable sets.

Modules: ``rules`` (the rules dataclasses and the ruleset switches; defaults in
``rules.toml``), ``board`` (ICF board geometry, seat frames, break formation, striker
placement, a stroke through the physics), ``flow`` (one board as a state machine: the rules),
``aim`` (compiled shot geometry), ``players`` (profiles, planner, random player; presets in
``profiles.toml``), ``match`` (one match → tables), ``metrics`` (metrics and plots),
``shot`` (``tablesim shot``), ``practice`` (solo practice: strokes to clear a board) and
``replay`` (``tablesim replay``: one match told stroke by stroke).
"""

from __future__ import annotations

from pathlib import Path

from sim.core.game import GameSpec, register

from .conformance import CONFORMANCE
from .frames import frames
from .match import play_match
from .players import CarromProfile
from .replay import replay as replay_match   # (keeps ``sim.carrom.replay`` the module)
from .metrics import plots, summary
from .sheet import SHEET
from .rules import CarromRules, lineup_problems
from .shot import shot

HERE = Path(__file__).parent

GAME = register(GameSpec(
    name="carrom",
    title="Carrom",
    rules_type=CarromRules,
    default_rules=HERE / "rules.toml",
    profile_type=CarromProfile,
    profiles=HERE / "profiles.toml",
    play_match=play_match,
    player_counts=(2, 3, 4),
    lineup_problems=lineup_problems,
    summary=summary,
    shot=shot,
    plots=plots,
    replay=replay_match,
    demo_players=("club", "casual"),
    conformance=CONFORMANCE,
    skill_path=("beginner", "casual", "club", "champion"),
    examples=HERE / "examples",
    frames=frames,
    sheet=SHEET,
))

__all__ = ["GAME", "CarromRules", "CarromProfile", "play_match"]
