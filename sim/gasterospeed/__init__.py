"""Gastérospeed: the snail race, its deck and circuits as data, championships and variants.

Laid out by role, like every game:

- ``rules/``: what a referee knows. ``schema`` (the rule keys; defaults in ``rules.toml``),
  ``circuit`` (maps, distance fields), ``cards`` (the physical deck, dice), ``board`` (public
  state and movement), ``kernels/`` (the movement rules compiled), ``race`` (one race and its
  turns), ``phases``, ``effects``, ``reactions``, ``dealing``, ``piles``, ``scoring``,
  ``narration`` (the replay's text and the events table), ``view`` (what a player is shown,
  the options it chooses among and the :class:`~sim.gasterospeed.rules.view.Policy` protocol).
- ``players/``: what a player knows. ``profile`` (strategy as keys; presets in
  ``profiles.toml``), ``policies`` (random, and how a profile becomes a policy), ``choice``,
  ``greedy``, ``tactician``, ``evaluation``, ``inference``, ``tactician_phases`` and
  ``kernels/`` (the look-ahead compiled).
- ``show/``: ``frames`` (the animated replay).
- At the top: ``match`` (a championship → tables and the replay: where rules and players
  meet), ``metrics``, ``restrictions`` (the cards a profile may ``forbid``), ``sheet``
  (playtest score sheets), ``conformance``.
"""

from __future__ import annotations

from pathlib import Path

from sim.core.game import GameLength, GameSpec, register
from sim.physics.kernel_cache import clear_stale_package

from .conformance import CONFORMANCE
from .match import play_match, replay
from .metrics import TALLY_COLUMNS, metric_parts, metrics_from_parts, summary, summary_from_tally, tally
from .players.profile import GasterospeedProfile
from .restrictions import RESTRICTIONS
from .rules.schema import GasterospeedRules, lineup_problems
from .sheet import SHEET
from .show.frames import frames

__all__ = ["GAME", "play_match", "replay", "summary", "GasterospeedRules", "GasterospeedProfile"]

HERE = Path(__file__).parent
#: a kernel's disk cache is dropped when any module of the game changed (numba checks one file)
clear_stale_package(HERE, "gasterospeed_kernels.stamp")

GAME = register(
    GameSpec(
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
        tally=tally,
        summary_from_tally=summary_from_tally,
        tally_columns=TALLY_COLUMNS,
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
        restrictions=RESTRICTIONS,
    )
)
