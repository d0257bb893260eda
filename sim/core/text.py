"""Small helpers for the plain-text output of replays and summaries (English)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["plural", "join_and", "SeatNames", "replay_title", "final_scores_block"]


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


def final_scores_block(
    players: Sequence[Mapping[str, Any]],
    winner: int,
    seat_label: Callable[[int], str],
    detail: Callable[[Mapping[str, Any]], str],
    heading: str = "Final scores:",
) -> list[str]:
    """The replay's closing block, one copy for every game: a heading, then one line per seat in
    rank order (ties by seat): ``  1. seat 0 (club)   27 points ...  (winner)``.

    Args:
        players: the match's ``players`` rows (``seat``, ``rank``, ``won``).
        winner: the winning seat (-1: none); other seats that won (team-mates) say ``(won)``.
        seat_label: the label of a seat (e.g. :meth:`SeatNames.seat`).
        detail: the rest of a seat's line after its label (its score and the game's own figures).

    >>> rows = [{"seat": 0, "rank": 2, "won": False, "score": 3}, {"seat": 1, "rank": 1, "won": True, "score": 5}]
    >>> final_scores_block(rows, 1, lambda s: f"seat {s}", lambda p: f"{p['score']} points")
    ['Final scores:', '  1. seat 1  5 points  (winner)', '  2. seat 0  3 points']
    """
    ranked = sorted(players, key=lambda p: (p["rank"], p["seat"]))
    width = max(len(seat_label(int(p["seat"]))) for p in ranked)
    lines = [heading]
    for p in ranked:
        s = int(p["seat"])
        mark = "  (winner)" if s == winner else "  (won)" if p["won"] else ""
        lines.append(f"  {p['rank']}. {seat_label(s).ljust(width)}  {detail(p)}{mark}")
    return lines
