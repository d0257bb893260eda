"""The seam between a game and the rest of tablesim.

A game registers one :class:`GameSpec` (the hooks' types are in :mod:`sim.core.protocols`): its rules type (a frozen dataclass tree loaded from
its default TOML), its player profile type and presets, the player counts it allows, and a
pure function that plays one match from (rules, line-up, seeds) and returns a
:class:`MatchLog`. Parallelism, storage, statistics and reports only ever see those.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .hints import Conformance
from .protocols import (
    Frames,
    LineupProblems,
    MetricParts,
    MetricsFromParts,
    PlayMatch,
    Plots,
    Replay,
    Shot,
    Summary,
    SummaryFromTally,
    SummaryTally,
)
from .records import MatchLog, Player
from .restrict import Restrictions
from .sheet import ScoreSheet

__all__ = [
    "GameSpec",
    "GameLength",
    "MatchLog",
    "Player",
    "register",
    "registered_while",
    "get_game",
    "game_names",
    "installed_game_names",
    "TABLES",
    "REQUIRED_COLUMNS",
]

#: The tidy tables every game fills (``events`` may stay empty).
TABLES = ("matches", "players", "rounds", "events")

#: The columns every game's tables must have (the runner adds the keys and ``seed``,
#: ``rotation``, ``slot``); games add their own columns beside them.
REQUIRED_COLUMNS = {
    "matches": ("variant", "lineup", "match", "seed", "rotation", "winner", "winning_team", "rounds", "finished"),
    "players": ("variant", "lineup", "match", "seat", "profile", "team", "score", "rank", "won", "slot"),
    "rounds": ("variant", "lineup", "match", "round", "seat", "points", "cumulative"),
}


@dataclass(frozen=True)
class GameLength:
    """What a game's "length" is in reports: a numeric column of the ``matches`` table.

    Attributes:
        column: the column (default ``rounds``; a game may add its own, e.g. turns per race).
        unit: its unit, plural (``rounds``, ``turns per race``).
        label: what it measures, for headings and sentences. Default: ``game length`` for the
            ``rounds`` column, ``game length in <unit>`` for a game's own column, so that the
            report never shows two effects called "game length" in different units.
    """

    column: str = "rounds"
    unit: str = "rounds"
    label: str = ""

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(
                self, "label", "game length" if self.column == "rounds" else f"game length in {self.unit}"
            )


@dataclass(frozen=True)
class GameSpec:
    """Everything the game-independent layers need to know about a game.

    Attributes:
        name: registry key and CLI name (``curlastique``).
        title: display name.
        rules_type: the frozen dataclass of the rules.
        default_rules: path of the default rules TOML (commented; printed by ``tablesim rules``).
        profile_type: the frozen dataclass of a player profile.
        profiles: path of the presets TOML (one table per named profile).
        play_match: ``(rules, players: tuple[Player, ...], seeds: MatchSeeds) -> MatchLog``;
            pure: the same inputs give the same log.
        player_counts: the line-up sizes the game allows.
        lineup_problems: ``(rules, n_players) -> list[str]``: extra checks of a line-up size
            against the rules (e.g. teams need 4 seats); each string is one error line.
        summary: ``(tables: dict[str, DataFrame]) -> dict[str, float]``: the game's own metrics.
        tally, summary_from_tally: optional pair that computes the same metrics slice by slice:
            ``tally(tables) -> dict`` of counts and sums over some whole matches (merged with
            :func:`sim.core.tally.merge_tallies`), ``summary_from_tally(tally)`` the metrics.
            With them a run of any size is summarised without loading its tables
            (:func:`analysis.summary.stored_summary`); without them the summary reads the
            whole tables into memory.
        tally_columns: optional ``{table: (column, ...)}``: the columns ``tally`` reads from each
            table beside the keys (a table left out: every column; an empty tuple: none), so a
            large run is read a few columns at a time.
        shot: optional ``(rules, x, angle_deg, speed, state) -> outcome`` for ``tablesim shot``
            (dexterity games); the outcome has ``as_dict()``, ``text()`` and ``plot(path)``.
        plots: optional ``(tables) -> list[(title, matplotlib Figure)]``: the game's own plots
            for reports (e.g. where pucks stop over the target).
        replay: optional ``(rules, players, seeds) -> str``: a match told turn by turn for
            ``tablesim replay`` (e.g. an ASCII map per turn).
        demo_players: the line-up of ``tablesim demo`` and of the games benchmark.
        metric_parts: optional ``(tables) -> DataFrame``: per-match additive parts of summary
            metrics (one row per row of ``tables["matches"]``, same order; numeric columns that
            add up over matches), with ``metrics_from_parts``.
        metrics_from_parts: optional ``(sums: DataFrame) -> DataFrame``: the summary metrics of
            each row of summed parts (vectorised). Together they let a bootstrap of game metrics
            reweight matches instead of re-running ``summary`` on resampled tables.
        conformance: optional :class:`~sim.core.hints.Conformance`: the line-up, short-match
            overrides and per-key scenarios the conformance suite (``sim.testing``) uses.
        skill_path: presets in increasing skill (same policy): the continuous skill axis of
            :mod:`sim.core.skill`, which calibration fits and skill sweeps vary.
        frames: optional ``(rules, players, seeds) -> dict``: one match as JSON-able drawing
            frames (board primitives, per-turn states and trajectories, scores) for the
            animated page of ``tablesim replay --html`` (:class:`~sim.core.protocols.Frames`).
        examples: optional folder of the game's example files (experiment, balance, profile
            TOML) that ``tablesim examples`` lists and copies; ``*_demo.toml`` (or
            ``demo.toml``) there is what ``tablesim demo`` plays.
        length: what the reports call the game's length (:class:`GameLength`; default the
            ``rounds`` column of ``matches``).
        sheet: optional :class:`~sim.core.sheet.ScoreSheet`: how ``tablesim calibrate`` reads
            the game's playtest score sheets: the ``rounds`` column a sheet column is compared
            with when the names differ (``{"position": "arrival"}``) and the game's check of
            each value against the rules (``check(rules, column, value, n_players)``, e.g. the
            points a round can score). None: the columns of the same name, generic bounds.
        restrictions: optional :class:`~sim.core.restrict.Restrictions`: the choices a profile
            may forbid (``forbid = [...]``: cards, target zones, shot kinds) and how often the
            tables show each made; what ``tablesim worth`` measures. None: nothing to forbid.
    """

    name: str
    title: str
    rules_type: type
    default_rules: Path
    profile_type: type
    profiles: Path
    play_match: PlayMatch
    player_counts: tuple[int, ...]
    lineup_problems: LineupProblems | None = None
    summary: Summary | None = None
    tally: SummaryTally | None = None
    summary_from_tally: SummaryFromTally | None = None
    tally_columns: Mapping[str, tuple[str, ...]] | None = None
    shot: Shot | None = None
    plots: Plots | None = None
    replay: Replay | None = None
    demo_players: tuple[str, ...] = ()
    metric_parts: MetricParts | None = None
    metrics_from_parts: MetricsFromParts | None = None
    conformance: Conformance | None = None
    skill_path: tuple[str, ...] = ()
    frames: Frames | None = None
    examples: Path | None = None
    length: GameLength = GameLength()
    sheet: ScoreSheet | None = None
    restrictions: Restrictions | None = None


#: The entry-point group through which every game, shipped or not, makes itself known. Each
#: entry names a game and resolves to its :class:`GameSpec` (``sim.curlastique:GAME``); loading
#: the entry imports the game's package, which registers it. This is the one list of games:
#: nothing outside a game's own package names it.
ENTRY_POINT_GROUP = "tablesim.games"
_REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Register a game (its package calls this at import and exposes ``GAME = register(...)``)."""
    _REGISTRY[spec.name] = spec
    return spec


@contextlib.contextmanager
def registered_while(spec: GameSpec) -> Iterator[GameSpec]:
    """``spec`` registered for the ``with`` block only (a test's or a study's own game), then
    the registry as it was: a game of the same name registered before comes back.

    Worker processes import games by name from their packages: a game registered this way is
    for runs in this process (``jobs = 1``)."""
    previous = _REGISTRY.get(spec.name)
    _REGISTRY[spec.name] = spec
    try:
        yield spec
    finally:
        if previous is None:
            _REGISTRY.pop(spec.name, None)
        else:
            _REGISTRY[spec.name] = previous


def _entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points

    return {entry.name: entry for entry in entry_points(group=ENTRY_POINT_GROUP)}


def game_names() -> list[str]:
    """Every game installed (entry points) or registered in this process, sorted."""
    return sorted(set(_entry_points()) | set(_REGISTRY))


def installed_game_names() -> list[str]:
    """The games installed through the ``tablesim.games`` entry point, sorted: not the ones a
    process registered by importing a module (a test's toy game), which no user can run."""
    return sorted(_entry_points())


def get_game(name: str) -> GameSpec:
    """The game ``name``, loading its entry point on first use; ``KeyError`` names the allowed ones.

    Worker processes call this too, so a game installed as a separate package is found there
    exactly as in the parent process.
    """
    if name not in _REGISTRY:
        entry = _entry_points().get(name)
        if entry is not None:
            spec = entry.load()
            if not isinstance(spec, GameSpec):
                raise TypeError(f"entry point {ENTRY_POINT_GROUP}:{name} ({entry.value}) is not a GameSpec")
            _REGISTRY.setdefault(name, spec)
    if name not in _REGISTRY:
        raise KeyError(f"unknown game {name!r}; allowed: {', '.join(game_names())}")
    return _REGISTRY[name]
