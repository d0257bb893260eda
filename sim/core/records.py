"""What a match is played by and what it produces: a seat's :class:`Player` and the
:class:`MatchLog` of tidy-table rows a game's ``play_match`` returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["MatchLog", "Player"]


@dataclass(frozen=True)
class Player:
    """One seat of a line-up: the profile's name (as shown in tables) and its parameters."""

    name: str
    profile: Any


@dataclass
class MatchLog:
    """What one match produced, as rows of the tidy tables.

    The runner adds the keys ``variant``, ``lineup`` and ``match`` to every row.

    Required columns:
        matches: one row: ``winner`` (seat, -1 if none), ``winning_team`` (-1 if no teams),
            ``rounds``, ``finished`` (bool: False when a cap stopped the game).
        players: one row per seat: ``seat``, ``profile``, ``team`` (-1 if none), ``score``,
            ``rank`` (1 = best), ``won`` (bool).
        rounds: one row per round × seat that played it: ``round``, ``seat``, ``points``,
            ``cumulative``; rounds numbered 1 .. ``rounds`` without a gap, every seat in round
            1, and seats left out only in a match's last rounds (a race won mid-round, a
            tie-break): the conformance suite's ``rounds_shape`` check.
        events: free-form, one row per game event (a throw, a stroke, a card).
    """

    matches: dict[str, Any]
    players: list[dict[str, Any]]
    rounds: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)

    def tables(self) -> dict[str, list[dict[str, Any]]]:
        return {"matches": [self.matches], "players": self.players, "rounds": self.rounds, "events": self.events}

    def by_round(self) -> tuple[dict[int, list[dict[str, Any]]], dict[int, list[dict[str, Any]]]]:
        """(events, rounds rows) grouped by their ``round`` number, in log order."""
        events: dict[int, list[dict[str, Any]]] = {}
        rounds: dict[int, list[dict[str, Any]]] = {}
        for row in self.events:
            events.setdefault(int(row["round"]), []).append(row)
        for row in self.rounds:
            rounds.setdefault(int(row["round"]), []).append(row)
        return events, rounds
