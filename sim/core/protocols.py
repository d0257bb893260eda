"""The typed seams between a game and the rest of tablesim: what each hook of a
:class:`~sim.core.game.GameSpec` takes and returns. A game implements them as plain functions;
these Protocols let a type checker (and a reader) see the contract in one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import pandas as pd

    from .records import MatchLog, Player
    from .seeding import MatchSeeds

__all__ = [
    "PlayMatch",
    "LineupProblems",
    "Summary",
    "Plots",
    "Replay",
    "ShotOutcome",
    "Shot",
    "MetricParts",
    "MetricsFromParts",
    "SummaryTally",
    "SummaryFromTally",
    "Frames",
    "ResolvedRules",
    "SheetCheck",
]

Tables = Mapping[str, "pd.DataFrame"]


class PlayMatch(Protocol):
    """One match, pure: the same rules, players and seeds give the same log."""

    def __call__(self, rules: Any, players: Sequence[Player], seeds: MatchSeeds) -> MatchLog: ...


class LineupProblems(Protocol):
    """Extra checks of a line-up size against the rules: one error line each."""

    def __call__(self, rules: Any, n_players: int) -> list[str]: ...


class Summary(Protocol):
    """The game's own metrics of some tables (keys ``family.member``)."""

    def __call__(self, tables: Tables) -> dict[str, float]: ...


class SummaryTally(Protocol):
    """The counts and sums a game's summary needs, from some whole matches (:mod:`sim.core.tally`)."""

    def __call__(self, tables: Tables) -> dict: ...


class SummaryFromTally(Protocol):
    """The game's own metrics from a tally merged over slices of a run."""

    def __call__(self, tally: dict) -> dict[str, float]: ...


class Plots(Protocol):
    """The game's own report plots: (title, matplotlib Figure) pairs."""

    def __call__(self, tables: Tables) -> list[tuple[str, Any]]: ...


class Replay(Protocol):
    """One match told turn by turn, as text."""

    def __call__(self, rules: Any, players: Sequence[Player], seeds: MatchSeeds) -> str: ...


class ShotOutcome(Protocol):
    """What ``tablesim shot`` prints and draws."""

    def as_dict(self) -> dict[str, Any]: ...

    def text(self) -> str: ...

    def plot(self, path: str | Path) -> None: ...


class Shot(Protocol):
    """One shot of a dexterity game (x in m, angle in degrees, speed in m/s)."""

    def __call__(
        self, rules: Any, x: float | None, angle_deg: float, speed: float, state: str | None
    ) -> ShotOutcome: ...


class MetricParts(Protocol):
    """Per-match additive parts of the summary metrics, one row per row of ``matches``."""

    def __call__(self, tables: Tables) -> pd.DataFrame: ...


class MetricsFromParts(Protocol):
    """The summary metrics of each row of summed parts (vectorised)."""

    def __call__(self, sums: pd.DataFrame) -> pd.DataFrame: ...


class Frames(Protocol):
    """One match as drawing frames for the animated page of ``tablesim replay --html``.

    Pure, like ``play_match`` (same rules, players and seeds, same frames); its final scores
    are the match's ``players.score`` by seat. The dict is JSON-able (numbers, strings, lists,
    dicts only) and drawn by one game-independent renderer (:mod:`analysis.replay_page`)::

        {"title": str,                                  # one line above the board
         "board": {"extent": [xmin, ymin, xmax, ymax],  # board units (m, grid cells, ...); y up
                   "background": "#f4efe1",             # optional CSS colour
                   "shapes": [SHAPE, ...]},             # drawn under every frame (rings, pockets, map)
         "seats": [{"name": str, "colour": str}, ...],  # one per seat, in seat order
         "frames": [{"label": str,                      # "round 3 · seat 1 (bold): throw 2"
                     "scores": [number, ...],           # every seat's score after this frame
                     "shapes": [SHAPE, ...],            # the state at the frame's end (discs at rest)
                     "paths": [PATH, ...],              # optional: trajectories animated in the frame
                     "text": str}, ...],                # optional: one line of detail
         "final_scores": [number, ...]}                 # the match's final scores by seat

        SHAPE = {"kind": "circle", "x", "y", "r", "fill"?, "stroke"?, "label"?, "id"?}
              | {"kind": "rect", "x", "y", "w", "h", "fill"?, "stroke"?, "id"?}   # (x, y) lower left
              | {"kind": "line", "points": [[x, y], ...], "stroke"?, "width"?, "closed"?, "fill"?}
              | {"kind": "text", "x", "y", "text", "size"?, "fill"?, "anchor"?}  # start|middle|end
        PATH  = {"id"?: str, "points": [[t, x, y], ...], "r": float, "fill"?: str}
                # t in s from the frame's start: the engine's polyline vertices (straight
                # motion between them), e.g. sim.physics.simulate(..., record_paths=True).paths

    Lengths (x, y, r, w, h) are in board units; ``width`` (a line's stroke) and ``size`` (a
    text's height) in screen pixels. While a frame's paths play, the shapes of the frame
    before are drawn except those whose ``id`` a path of this frame carries (the discs that
    move); then this frame's ``shapes`` are drawn.
    """

    def __call__(self, rules: Any, players: Sequence[Player], seeds: MatchSeeds) -> dict[str, Any]: ...


class SheetCheck(Protocol):
    """A game's check of one value of a playtest score sheet (``ScoreSheet.check``).

    ``column`` is the sheet's value column (``points`` or ``position``), ``value`` a number
    or, in a ``position`` column, a lower-case word (``ko``), ``n_players`` the size of the
    value's match. Returns None when the rules can produce the value, else one line saying
    what was got and what is allowed: ``got 13; allowed: 0 to 12 (...)``.
    """

    def __call__(self, rules: Any, column: str, value: float | str, n_players: int) -> str | None: ...


class ResolvedRules(Protocol):
    """Optional method of a rules object: the values its derived keys take.

    ``rules.resolved() -> {dotted key: value}``: e.g. Carrom's ``rules.dues = "auto"``
    resolves to the ruleset's value; ``tablesim rules`` shows it beside the key as a comment.
    """

    def resolved(self) -> Mapping[str, Any]: ...
