"""What a Curlastique player sees and decides: the :class:`Situation` before a throw, the
intended :class:`Shot`, and where a puck can be set on the start line (``free_launch_x``).

Shared by the match flow (``match``) and the policies (``players``), which import it and not
each other's module.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .schema import CurlastiqueRules

__all__ = ["Situation", "Shot", "free_launch_x", "free_start", "free_starts"]


class Situation(NamedTuple):
    """What a player sees before a throw (a NamedTuple: built once per throw, cheaply).

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


class Shot(NamedTuple):
    """An intended throw: lateral start ``x`` (m), aim ``angle_deg`` from straight ahead
    (degrees, counterclockwise positive, i.e. towards −x), launch ``speed`` (m/s); ``family`` names the shot kind
    chosen (``draw``, ``takeout``, ...; free text), ``value`` the planner's expected margin
    (points; NaN when not planned) and ``aim_zone`` the ring aimed at (1 the innermost; 0
    none: a random or scripted shot, or a guard stopping outside the rings)."""

    x: float
    angle_deg: float
    speed: float
    family: str = ""
    value: float = float("nan")
    aim_zone: int = 0


@njit(cache=True, error_model="numpy")
def start_line_spans(pos, launch_y, d):
    """The stretches of the start line covered by resting pucks, merged and sorted: (S, 2)
    rows ``(lo, hi)`` of x (m) where a start disc would overlap one (centres closer than ``d``)."""
    m = 0
    for i in range(pos.shape[0]):
        if abs(pos[i, 1] - launch_y) < d:
            m += 1
    spans = np.empty((m, 2))
    k = 0
    for i in range(pos.shape[0]):
        dy = pos[i, 1] - launch_y
        if abs(dy) < d:
            half = np.sqrt(max(d * d - dy * dy, 0.0))
            spans[k, 0], spans[k, 1] = pos[i, 0] - half, pos[i, 0] + half
            k += 1
    for i in range(1, m):  # insertion sort on (lo, hi)
        lo, hi, j = spans[i, 0], spans[i, 1], i - 1
        while j >= 0 and (spans[j, 0] > lo or (spans[j, 0] == lo and spans[j, 1] > hi)):
            spans[j + 1, 0], spans[j + 1, 1] = spans[j, 0], spans[j, 1]
            j -= 1
        spans[j + 1, 0], spans[j + 1, 1] = lo, hi
    merged = np.empty((m, 2))
    n = 0
    for i in range(m):
        if n > 0 and spans[i, 0] <= merged[n - 1, 1]:
            merged[n - 1, 1] = max(merged[n - 1, 1], spans[i, 1])
        else:
            merged[n, 0], merged[n, 1] = spans[i, 0], spans[i, 1]
            n += 1
    return merged[:n]


@njit(cache=True, error_model="numpy", _nrt=False)
def off_spans(x, spans, x_max):
    """``x`` moved to the nearer free end of the span it lies in (NaN when neither end is
    within ``±x_max``); unchanged outside every span."""
    for i in range(spans.shape[0]):
        lo, hi = spans[i, 0], spans[i, 1]
        if lo < x < hi:
            left_ok, right_ok = lo >= -x_max, hi <= x_max
            if not (left_ok or right_ok):
                return np.nan
            to_left = (x - lo) <= (hi - x) if (left_ok and right_ok) else left_ok
            return lo if to_left else hi
    return x


@njit(cache=True, error_model="numpy")
def free_start(x, pos, launch_y, d, x_max):
    """:func:`off_spans` of one start ``x`` (m) for the pucks at ``pos`` (M, 2)."""
    spans = start_line_spans(pos, launch_y, d)
    return off_spans(x, spans, x_max) if spans.shape[0] else x


@njit(cache=True, error_model="numpy")
def free_starts(x, pos, launch_y, d, x_max):
    """:func:`off_spans` of every start in ``x`` (N,) for the pucks at ``pos`` (M, 2)."""
    spans = start_line_spans(pos, launch_y, d)
    out = x.copy()
    if spans.shape[0]:
        for k in range(x.shape[0]):
            out[k] = off_spans(x[k], spans, x_max)
    return out


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
    flat = np.ascontiguousarray(x.reshape(-1))
    pos = np.ascontiguousarray(np.asarray(pos, dtype=float).reshape(-1, 2))
    out = free_starts(flat, pos, rules.launch_y, rules.puck.diameter, rules.launch.x_max)
    return out.reshape(x.shape)
