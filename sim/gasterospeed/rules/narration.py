"""What a race tells: the narration of the replay and the rows of the ``events`` table."""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["Narrated", "snail_labels", "say", "log", "name", "card_label", "where"]


class Narrated(Protocol):
    """What narration reads of a race (:class:`~sim.gasterospeed.rules.state.RaceState` has it)."""

    trace: list[str] | None
    events: list[dict[str, Any]] | None
    deck: Any
    board: Any
    snails_of: list[list[int]]
    labels: list[str]
    race_no: int
    turn: int


def snail_labels(n_seats: int, per_seat: int) -> list[str]:
    """Map labels: seat letters A, B, ... (a second snail in lower case)."""
    letters = "ABCDEFGHIJKL"
    out = []
    for seat in range(n_seats):
        out.append(letters[seat])
        if per_seat == 2:
            out.append(letters[seat].lower())
    return out


def say(race: Narrated, text: str) -> None:
    """Add a line to the narration (when the race is narrated)."""
    if race.trace is not None:
        race.trace.append(text)


def log(race: Narrated, phase: str, s: int, uid: int, outcome: str) -> dict[str, Any] | None:
    """Append an ``events`` row (a card of snail ``s``; ``uid`` -1: no card); None if not logged."""
    if race.events is None:
        return None
    deck = race.deck
    seat = race.board.owner[s]
    row = {
        "index": len(race.events),
        "round": race.race_no,
        "turn": race.turn,
        "phase": phase,
        "seat": seat,
        "snail": race.snails_of[seat].index(s),
        "card": deck.cid[uid] if uid >= 0 else "",
        "number": deck.number[uid] if uid >= 0 else 0,
        "outcome": outcome,
    }
    race.events.append(row)
    return row


def name(race: Narrated, s: int) -> str:
    return race.labels[s]


def card_label(race: Narrated, uid: int) -> str:
    return race.deck.cards[uid].label


def where(race: Narrated, cell: int) -> str:
    r, c = divmod(int(cell), race.board.c.width)
    return f"r{r}c{c}"
