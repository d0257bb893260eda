"""Carrom: a striker flicked at coins, four corner pockets (2 singles, 3 each for themselves,
4 in doubles), with the family rules of the French seed and the ICF Laws as switchable sets.

Laid out by role, like every game:

- ``rules/``: what a referee knows. ``schema`` (the rule keys and the ruleset switches;
  defaults in ``rules.toml``), ``board`` (ICF board geometry, seat frames, break formation,
  striker placement, a stroke through the physics), ``flow`` (one board as a state machine),
  ``view`` (what a player is shown, and the stroke it answers).
- ``players/``: what a player knows. ``profile`` (skill and style as keys; presets in
  ``profiles.toml``), ``policies`` (the random player, how a profile becomes a policy),
  ``planner``, ``aim`` (compiled shot geometry), ``candidates``, ``rollout`` and ``value``
  (the planner's compiled simulations and their values), ``scripted`` (strokes set by hand).
- ``show/``: ``replay`` (one match told stroke by stroke), ``frames`` (its animated page),
  ``shot`` (``tablesim shot``).
- At the top: ``match`` (one match → tables: where rules and players meet), ``metrics``
  (metrics and plots), ``sheet`` (playtest score sheets), ``restrictions`` (the shot kinds and
  break variants a profile may forbid, and their counts), ``conformance`` (hints for the
  generic suite), and the studies ``practice`` and ``rehearse``.
"""

from __future__ import annotations

from pathlib import Path

from sim.core.game import GameSpec, register
from sim.physics.kernel_cache import clear_stale_package

from .conformance import CONFORMANCE
from .match import play_match
from .metrics import TALLY_COLUMNS, plots, summary, summary_from_tally, tally
from .players.profile import CarromProfile
from .restrictions import RESTRICTIONS
from .rules.schema import CarromRules, lineup_problems
from .sheet import SHEET
from .show.frames import frames
from .show.replay import replay as replay_match
from .show.shot import shot

HERE = Path(__file__).parent
#: a kernel's disk cache is dropped when any module of the game changed (numba checks one file)
clear_stale_package(HERE, "carrom_kernels.stamp")

GAME = register(
    GameSpec(
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
        tally=tally,
        summary_from_tally=summary_from_tally,
        tally_columns=TALLY_COLUMNS,
        shot=shot,
        plots=plots,
        replay=replay_match,
        demo_players=("club", "casual"),
        conformance=CONFORMANCE,
        skill_path=("beginner", "casual", "club", "champion"),
        examples=HERE / "examples",
        frames=frames,
        sheet=SHEET,
        restrictions=RESTRICTIONS,
    )
)

__all__ = ["GAME", "CarromRules", "CarromProfile", "play_match"]
