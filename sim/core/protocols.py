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

    from .game import MatchLog, Player
    from .seeding import MatchSeeds

__all__ = ["PlayMatch", "LineupProblems", "Summary", "Plots", "Replay", "ShotOutcome", "Shot",
           "MetricParts", "MetricsFromParts"]

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

    def __call__(self, rules: Any, x: float | None, angle_deg: float, speed: float,
                 state: str | None) -> ShotOutcome: ...


class MetricParts(Protocol):
    """Per-match additive parts of the summary metrics, one row per row of ``matches``."""

    def __call__(self, tables: Tables) -> pd.DataFrame: ...


class MetricsFromParts(Protocol):
    """The summary metrics of each row of summed parts (vectorised)."""

    def __call__(self, sums: pd.DataFrame) -> pd.DataFrame: ...
