"""What a Curlastique player sees and decides: the :class:`Situation` before a throw, the
intended :class:`Shot`, and where a puck can be set on the start line (``free_launch_x``).

Shared by the match flow (``match``) and the policies (``players``), which import it and not
each other's module.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .rules import CurlastiqueRules

__all__ = ["Situation", "Shot", "free_launch_x"]


@dataclass(frozen=True)
class Situation:
    """What a player sees before a throw.

    Attributes:
        rules: the rules.
        seat: the seat about to throw.
        round: round number (1-based; decisive rounds continue the count).
        decisive: whether this is a decisive round.
        pos: centres of the pucks on the board, shape (M, 2) (m).
        owner: seat owning each of those pucks, shape (M,).
        side: side of every seat (its team, or the seat itself without teams), shape (n_seats,).
        order: the round's participants in throwing order.
        left: pucks each seat still has to throw after this one, shape (n_seats,).
        cumulative: cumulative score of every seat before this round.
    """

    rules: CurlastiqueRules
    seat: int
    round: int
    decisive: bool
    pos: np.ndarray
    owner: np.ndarray
    side: np.ndarray
    order: tuple[int, ...]
    left: np.ndarray
    cumulative: tuple[int, ...]


@dataclass(frozen=True)
class Shot:
    """An intended throw: lateral start ``x`` (m), aim ``angle_deg`` from straight ahead
    (degrees, counterclockwise positive, i.e. towards −x), launch ``speed`` (m/s); ``family`` names the shot kind
    chosen (``draw``, ``takeout``, ...; free text) and ``value`` the planner's expected margin
    (points; NaN when not planned)."""

    x: float
    angle_deg: float
    speed: float
    family: str = ""
    value: float = float("nan")


def free_launch_x(rules: CurlastiqueRules, x: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """Move start positions off pucks lying on the start line.

    A puck cannot be placed on the elastic where a resting puck sits: an ``x`` whose start
    disc would overlap one is moved to the nearest free ``x`` in ``±launch.x_max``, or NaN when
    there is none.

    Args:
        x: start positions (m), any shape.
        pos: centres of the pucks on the board, shape (M, 2) (m).
    """
    x = np.asarray(x, dtype=float)
    d = rules.puck.diameter
    near = pos[np.abs(pos[:, 1] - rules.launch_y) < d] if len(pos) else pos
    if len(near) == 0:
        return x
    # half-width of the forbidden interval around each blocker's x
    half = np.sqrt(np.maximum(d * d - (near[:, 1] - rules.launch_y) ** 2, 0.0))
    spans = sorted(zip(near[:, 0] - half, near[:, 0] + half, strict=True))
    merged: list[list[float]] = []
    for lo, hi in spans:
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    x_max = rules.launch.x_max
    out = x.copy()
    for lo, hi in merged:
        inside = (x > lo) & (x < hi)
        if not inside.any():
            continue
        left_ok, right_ok = lo >= -x_max, hi <= x_max
        to_left = np.where(left_ok & right_ok, (x - lo) <= (hi - x), left_ok)
        moved = np.where(to_left, lo, hi)
        moved = np.where(left_ok | right_ok, moved, np.nan)
        out = np.where(inside, moved, out)
    return out
