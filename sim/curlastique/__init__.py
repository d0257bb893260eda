"""Curlastique: pucks flicked by an elastic into a scoring target (2–4 players or 2 teams of 2).

Laid out by role, like every game:

- ``rules/``: what a referee knows. ``schema`` (the rule keys; defaults in ``rules.toml``),
  ``board`` (the physics table, the per-rules :class:`~sim.curlastique.rules.board.Arena` and
  throws), ``flight`` (throws that touch nothing, settled without the engine), ``settling``
  (the others, through the engine's batch kernel), ``scoring`` (zone points), ``situation``
  (what a player is shown before a throw, and what it may answer; the start line).
- ``players/``: what a player knows. ``profile`` (skill and style as keys; presets in
  ``profiles.toml``), ``policies`` (the policy protocol and how a profile becomes one),
  ``throwing`` (the executed shot, the launcher's limits, the random and exact players),
  ``families`` (the planner's candidate shots), ``planner``.
- ``show/``: ``replay`` (one game told throw by throw), ``frames`` (its animated page),
  ``shot`` (``tablesim shot``), ``plot`` (the board and trajectories).
- At the top: ``match`` (one game → tables: where rules and players meet), ``metrics``,
  ``sheet`` (playtest score sheets), ``restrictions`` (the choices a profile may ``forbid``:
  target rings and shot families) and ``conformance`` (hints for the generic suite).
"""

from __future__ import annotations

from pathlib import Path

from sim.core.game import GameSpec, register
from sim.physics.kernel_cache import clear_stale_package

from .conformance import CONFORMANCE
from .match import play_match
from .metrics import TALLY_COLUMNS, summary_from_tally, tally
from .metrics import summary as game_metrics
from .players.profile import CurlastiqueProfile
from .restrictions import RESTRICTIONS
from .rules.schema import CurlastiqueRules, lineup_problems
from .sheet import SHEET
from .show.frames import frames
from .show.replay import replay as replay_match
from .show.shot import shot as throw_one


def plots(tables):
    """Figures of a run for reports (matplotlib is imported only when asked)."""
    from .show.plot import game_plots

    return game_plots(tables)


HERE = Path(__file__).parent
#: a kernel's disk cache is dropped when any module of the game changed (numba checks one file)
clear_stale_package(HERE, "curlastique_kernels.stamp")

GAME = register(
    GameSpec(
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
        tally=tally,
        summary_from_tally=summary_from_tally,
        tally_columns=TALLY_COLUMNS,
        shot=throw_one,
        plots=plots,
        replay=replay_match,
        demo_players=("club", "casual"),
        conformance=CONFORMANCE,
        skill_path=("novice", "casual", "club", "expert"),
        frames=frames,
        examples=HERE / "examples",
        sheet=SHEET,
        restrictions=RESTRICTIONS,
    )
)

__all__ = ["GAME", "CurlastiqueRules", "CurlastiqueProfile", "play_match"]
