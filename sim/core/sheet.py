"""What a game tells ``tablesim calibrate`` about its playtest score sheets.

A score sheet is the CSV a designer fills in by hand at a playtest: one row per match × round
× player, with one value column, ``points`` (``match,round,player,points``) or ``position``
(``match,race,player,position``, 1 = first, or a word such as ``ko``). The reader
(:mod:`analysis.calibrate.sheet`) checks its shape for every game; a game's
:class:`ScoreSheet` (``GameSpec.sheet``) adds what only the game knows: which column of its
``rounds`` table a sheet column is compared with, and which values its rules can produce.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .protocols import SheetCheck

__all__ = ["ScoreSheet"]


@dataclass(frozen=True)
class ScoreSheet:
    """A game's score sheets.

    Attributes:
        columns: sheet column → the ``rounds`` table column it is compared with, for a column
            the game records under another name (a race game's ``position`` ← ``arrival``);
            a column not named here is read from the column of the same name.
        check: optional ``(rules, column, value, n_players) -> str | None``
            (:class:`~sim.core.protocols.SheetCheck`): the game's check of one sheet value
            under the rules the sheet was played with; None when the rules can produce it,
            else one line saying what was got and what is allowed (``got 13; allowed: 0 to
            12``). It replaces the generic bounds (whole points >= 0, positions >= 1) for
            numbers and sees the words of a ``position`` column (``ko``).

    Examples:
        >>> ScoreSheet(columns={"position": "arrival"}).source("position")
        'arrival'
        >>> ScoreSheet().source("points")
        'points'
    """

    columns: Mapping[str, str] = field(default_factory=dict)
    check: SheetCheck | None = None

    def source(self, column: str) -> str:
        """The ``rounds`` table column a sheet column is compared with."""
        return self.columns.get(column, column)
