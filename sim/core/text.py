"""Small helpers for the plain-text output of replays and summaries (English)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["plural", "join_and", "SeatNames", "replay_title"]


def plural(n: int, word: str) -> str:
    """``1 puck``, ``3 pucks``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def join_and(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class SeatNames:
    """Seat labels of a line-up (``seat 1 (casual)``), padded to one width for aligned lines."""

    def __init__(self, players: Sequence):
        self.players = players
        self.plain = [f"seat {s} ({p.name})" for s, p in enumerate(players)]
        self.width = max(len(x) for x in self.plain)

    def seat(self, s: int) -> str:
        return self.plain[s]

    def padded(self, s: int) -> str:
        return self.plain[s].ljust(self.width)


def replay_title(game_title: str, seeds) -> str:
    """``Carrom replay (seed 3, match 0)``; without seeds just ``Carrom replay``."""
    title = f"{game_title} replay"
    return title if seeds is None else f"{title} (seed {seeds.root}, match {seeds.match})"
