"""The result of a race: the order of the snails and their race points."""

from __future__ import annotations

from .board import Board

__all__ = ["ranking", "points"]


def ranking(board: Board) -> list[int]:
    """Snails in race order: arrivals, then (capped race) the running ones by distance to the
    finish (then more shells, then snail index); KO and out snails are not ranked."""
    running = sorted(board.running(), key=lambda s: (board.distance(s), -int(board.shells[s]), s))
    return board.arrivals + running


def points(board: Board, config) -> list[int]:
    """Race points per snail: by ranking, the KO (and out) snails ``ko_points``; with
    ``last_gets_ko_points`` the last ranked snail too (when at least two are ranked)."""
    pts = [config.ko_points] * board.n
    order = ranking(board)
    for k, s in enumerate(order):
        pts[s] = config.points[min(k, len(config.points) - 1)]
    if config.last_gets_ko_points and len(order) >= 2:
        pts[order[-1]] = config.ko_points
    return pts
