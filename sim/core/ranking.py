"""Ranks with ties and the ``players`` table's rows: one copy for every game.

Ranks are standard competition ranks ("1224"): a seat's rank is one more than the number of
*sides* (teams, or seats when there are no teams) whose key is strictly better, so team-mates
share a rank and equal keys share a rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["competition_ranks", "player_rows"]


def competition_ranks(keys: Sequence[Any], sides: Sequence[int] | None = None) -> list[int]:
    """The rank (1 = best) of each seat from its key (larger is better; tuples compare in order).

    Args:
        keys: one comparable key per seat (e.g. ``(won, points)``).
        sides: the side (team) of each seat; ``None``: every seat is its own side.

    >>> competition_ranks([10, 30, 30, 5])
    [3, 1, 1, 4]
    >>> competition_ranks([(1, 40), (0, 60), (1, 40), (0, 60)], sides=[0, 1, 0, 1])
    [1, 2, 1, 2]
    """
    sides = list(range(len(keys))) if sides is None else list(sides)
    return [1 + len({sides[t] for t in range(len(keys)) if keys[t] > keys[s]}) for s in range(len(keys))]


def player_rows(
    players: Sequence[Any],
    score: Sequence[float],
    rank: Sequence[int],
    won: Sequence[bool],
    team: Sequence[int] | None = None,
    **columns: Sequence[Any],
) -> list[dict[str, Any]]:
    """The ``players`` rows of one match: the required columns, then the game's own ``columns``
    (each one value per seat).

    Args:
        players: the seated :class:`~sim.core.game.Player` objects, seat 0 first.
        score, rank, won: one value per seat.
        team: one team index per seat (``None``: no teams, written as -1).

    >>> from sim.core.game import Player
    >>> player_rows([Player("a", None), Player("b", None)], [3, 5], [2, 1], [False, True], fouls=[0, 2])[1]
    {'seat': 1, 'profile': 'b', 'team': -1, 'score': 5, 'rank': 1, 'won': True, 'fouls': 2}
    """
    rows = []
    for seat, player in enumerate(players):
        row = {
            "seat": seat,
            "profile": player.name,
            "team": -1 if team is None else int(team[seat]),
            "score": score[seat],
            "rank": int(rank[seat]),
            "won": bool(won[seat]),
        }
        row.update({name: values[seat] for name, values in columns.items()})
        rows.append(row)
    return rows
