"""Zone scoring, vectorised over any number of pucks and simulated outcomes.

The target is a set of concentric rings (radii ``R_0 < R_1 < ...``, innermost first); zone
``i`` is the annulus between ``R_{i-1}`` and ``R_i`` and zone ``n`` (past the last ring) is
worth 0. A puck of radius ``r`` whose centre is at distance ``d`` from the target centre:

* ``lower`` (the seed's rule): counts the lowest value among the zones it overlaps, so a puck
  on a line counts the lower zone and a puck over the outer edge counts 0. With values that
  decrease outward this is the smallest ring that fully contains the puck (``d + r <= R_i``).
* ``higher``: the highest value among the zones it overlaps (the best ring it touches).
* ``centre``: the zone holding its centre; a centre exactly on a line counts the lower zone.

A puck *overlaps* a zone when their interiors intersect: a puck whose edge is exactly tangent to
a line (within :data:`EDGE_TOL`) does not cross it, so ``lower`` and ``higher`` then agree.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from .schema import ZoneRules

__all__ = ["Scorer", "scorer", "EDGE_TOL", "LINE_RULE_CODES", "zone_points"]

#: Distances within this tolerance (m) of a ring's radius count as exactly on it.
EDGE_TOL = 1e-9

#: ``zones.line_rule`` as the integer the compiled :func:`zone_points` takes.
LINE_RULE_CODES = {"lower": 0, "higher": 1, "centre": 2}


@njit(cache=True, error_model="numpy", _nrt=False)
def zone_points(x, y, cx, cy, radii, values, rule, radius, decreasing):
    """Points of one puck centred at ``(x, y)`` (m) (compiled: :meth:`Scorer.points` and the
    planner's inner loops call it).

    ``radii`` (R,) m innermost first, ``values`` (R + 1,) with 0 appended (outside), ``rule``
    a :data:`LINE_RULE_CODES` value, ``radius`` the puck's (m), ``decreasing`` whether the
    values never grow outward."""
    d = np.hypot(x - cx, y - cy)
    n = radii.shape[0]
    if rule == 2:
        lo_key, hi_key = d - EDGE_TOL, d + EDGE_TOL
    else:
        lo_key, hi_key = d - radius + EDGE_TOL, d + radius - EDGE_TOL
    inner, outer = 0, 0  # (radii increase) centre: rings with R < d and R <= d; else R <= d - r and R < d + r
    for i in range(n):
        if radii[i] < lo_key or (rule != 2 and radii[i] == lo_key):
            inner += 1
        if radii[i] < hi_key or (rule == 2 and radii[i] == hi_key):
            outer += 1
    take_low = rule != 1
    if decreasing:
        return values[outer] if take_low else values[inner]
    if inner > outer:  # overlaps no zone (a puck thinner than the tolerance): as the reduction
        return np.iinfo(np.int64).max if take_low else np.iinfo(np.int64).min
    best = values[inner]
    for i in range(inner, min(outer, n) + 1):
        if (values[i] < best) if take_low else (values[i] > best):
            best = values[i]
    return best


@njit(cache=True, error_model="numpy")
def _points_of(xy, cx, cy, radii, values, rule, radius, decreasing):
    """:func:`zone_points` of every row of ``xy`` (N, 2)."""
    out = np.empty(xy.shape[0], dtype=np.int64)
    for i in range(xy.shape[0]):
        out[i] = zone_points(xy[i, 0], xy[i, 1], cx, cy, radii, values, rule, radius, decreasing)
    return out


class Scorer:
    """Points of pucks for one set of zone rules and one puck radius.

    Args:
        zones: the zone rules (values, radii, line rule, centre).
        radius: the puck radius (m).

    Examples:
        >>> from sim.curlastique.rules.schema import ZoneRules
        >>> s = Scorer(ZoneRules(), radius=0.0175)
        >>> d = np.array([0.0, 0.06, 0.07, 0.19])        # distances from the centre (m)
        >>> s.points(np.c_[np.zeros(4), 0.75 + d]).tolist()  # 0.07: on the 80 | 40 line
        [100, 80, 40, 0]
    """

    def __init__(self, zones: ZoneRules, radius: float):
        self.rule = zones.line_rule
        self.radius = float(radius)
        self.centre = np.array([0.0, zones.centre_y])
        self.radii = np.asarray(zones.radii, dtype=float)
        self.values = np.append(np.asarray(zones.values, dtype=np.int64), 0)  # last: outside
        self._decreasing = bool(np.all(np.diff(self.values) <= 0))
        self.rule_code = LINE_RULE_CODES[self.rule]
        #: The trailing arguments of :func:`zone_points` for these zones:
        #: ``(cx, cy, radii, values, rule, radius, decreasing)``.
        self.kernel_args = (
            float(self.centre[0]),
            float(self.centre[1]),
            self.radii,
            self.values,
            self.rule_code,
            self.radius,
            self._decreasing,
        )

    def points(self, pos: np.ndarray, on_board: np.ndarray | None = None) -> np.ndarray:
        """Points of each puck (int64, shape ``pos.shape[:-1]``); pucks not on the board score 0.

        Args:
            pos: puck centres, shape ``(..., 2)`` (m).
            on_board: optional boolean mask of the same leading shape (False = out of play).
        """
        pos = np.asarray(pos, dtype=float)
        flat = np.ascontiguousarray(pos.reshape(-1, 2))
        pts = _points_of(flat, *self.kernel_args).reshape(pos.shape[:-1])
        if on_board is not None:
            pts = np.where(on_board, pts, 0)
        return pts

    def zone_value(self, x: float, y: float) -> int:
        """Points of one puck at ``(x, y)`` (a plain int)."""
        return zone_points(float(x), float(y), *self.kernel_args)


@lru_cache(maxsize=64)
def scorer(zones: ZoneRules, radius: float) -> Scorer:
    """A cached :class:`Scorer` (rules are frozen and hashable)."""
    return Scorer(zones, radius)
