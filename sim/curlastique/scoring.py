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

from .rules import ZoneRules

__all__ = ["Scorer", "scorer", "EDGE_TOL"]

#: Distances within this tolerance (m) of a ring's radius count as exactly on it.
EDGE_TOL = 1e-9


class Scorer:
    """Points of pucks for one set of zone rules and one puck radius.

    Args:
        zones: the zone rules (values, radii, line rule, centre).
        radius: the puck radius (m).

    Examples:
        >>> from sim.curlastique.rules import ZoneRules
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

    def zone_range(self, pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Innermost and outermost zone index each puck counts among (``len(radii)`` = outside)."""
        d = np.hypot(pos[..., 0] - self.centre[0], pos[..., 1] - self.centre[1])
        radii = self.radii
        if self.rule == "centre":
            inner = np.searchsorted(radii, d - EDGE_TOL, side="left")   # rings with R < d
            outer = np.searchsorted(radii, d + EDGE_TOL, side="right")  # rings with R <= d
            return inner, outer
        r = self.radius
        inner = np.searchsorted(radii, d - r + EDGE_TOL, side="right")  # rings with R <= d - r
        outer = np.searchsorted(radii, d + r - EDGE_TOL, side="left")   # rings with R < d + r
        return inner, outer

    def points(self, pos: np.ndarray, on_board: np.ndarray | None = None) -> np.ndarray:
        """Points of each puck (int64, shape ``pos.shape[:-1]``); pucks not on the board score 0.

        Args:
            pos: puck centres, shape ``(..., 2)`` (m).
            on_board: optional boolean mask of the same leading shape (False = out of play).
        """
        pos = np.asarray(pos, dtype=float)
        inner, outer = self.zone_range(pos)
        take_low = self.rule in ("lower", "centre")
        if self._decreasing:
            pts = self.values[outer if take_low else inner]
        else:  # arbitrary values: reduce over the overlapped zones
            idx = np.arange(len(self.values))
            mask = (idx >= inner[..., None]) & (idx <= outer[..., None])
            if take_low:
                pts = np.where(mask, self.values, np.iinfo(np.int64).max).min(axis=-1)
            else:
                pts = np.where(mask, self.values, np.iinfo(np.int64).min).max(axis=-1)
        if on_board is not None:
            pts = np.where(on_board, pts, 0)
        return pts

    def zone_value(self, x: float, y: float) -> int:
        """Points of one puck at ``(x, y)`` (a plain int)."""
        return int(self.points(np.array([x, y]))[()])


@lru_cache(maxsize=64)
def scorer(zones: ZoneRules, radius: float) -> Scorer:
    """A cached :class:`Scorer` (rules are frozen and hashable)."""
    return Scorer(zones, radius)
