"""Curlastique: pucks flicked by an elastic into a scoring target (2–4 players or 2 teams of 2).

Modules: ``rules`` (the rules dataclasses; defaults in ``rules.toml``), ``board`` (the physics
table, the per-rules :class:`~sim.curlastique.board.Arena` and throws), ``flight`` (throws that
touch nothing, settled without the engine), ``settling`` (the others, through the engine's batch
kernel called from compiled code), ``scoring`` (zone points), ``situation`` (what a
player sees and decides; the start line), ``players`` (profiles, the policy protocol, the random
player; presets in ``profiles.toml``), ``families`` (the planner's candidate shots),
``planner`` (the planner), ``match`` (one game → tables), ``metrics`` (game metrics), ``shot``
(``tablesim shot``), ``plot`` (board and trajectories), ``replay`` (``tablesim replay``: one
game told throw by throw), ``frames`` (its animated page: one frame per throw), ``skill`` (the presets' head-to-head check) and ``conformance``
(hints for the generic suite).
"""

from __future__ import annotations

from pathlib import Path

from sim.core.game import GameSpec, register

from .conformance import CONFORMANCE
from .frames import frames
from .match import play_match
from .players import CurlastiqueProfile
from .replay import replay as replay_match   # (keeps ``sim.curlastique.replay`` the module)
from .sheet import SHEET
from .rules import CurlastiqueRules, lineup_problems
from .shot import shot as throw_one   # (keeps ``sim.curlastique.shot`` the module)
from .metrics import summary as game_metrics


def plots(tables):
    """Figures of a run for reports (matplotlib is imported only when asked)."""
    from .plot import game_plots

    return game_plots(tables)


HERE = Path(__file__).parent

GAME = register(GameSpec(
    name="curlastique",
    title="Curlastique",
    rules_type=CurlastiqueRules,
    default_rules=HERE / "rules.toml",
    profile_type=CurlastiqueProfile,
    profiles=HERE / "profiles.toml",
    play_match=play_match,
    player_counts=(2, 3, 4),
    lineup_problems=lineup_problems,
    summary=game_metrics,
    shot=throw_one,
    plots=plots,
    replay=replay_match,
    demo_players=("club", "casual"),
    conformance=CONFORMANCE,
    skill_path=("novice", "casual", "club", "expert"),
    frames=frames,
    examples=HERE / "examples",
    sheet=SHEET,
))

__all__ = ["GAME", "CurlastiqueRules", "CurlastiqueProfile", "play_match"]
