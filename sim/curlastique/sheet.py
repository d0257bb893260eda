"""Curlastique's playtest score sheets (``match,round,player,points``): which round points the
rules can produce (``GameSpec.sheet``, read by ``tablesim calibrate``).

What a round scores (``match.py``, ``_Game.play_round``): each player the zone values of its
own pucks still on the board when the round ends (``scoring.py``); nothing else, no bonus, the
same in a decisive round. So a player's round points are a sum of ``game.pucks_per_player``
puck values, each bounded by a rule:

* a puck scores one of ``zones.values`` or 0 (outside the last ring, or out of play); which
  ring values a puck can score at all, and out to which distance from the centre, follow
  ``zones.line_rule``, ``zones.radii`` and the puck's radius (``puck.diameter``): they are read
  off the game's own scorer (:func:`~sim.curlastique.rules.scoring.zone_points`) at every distance
  where its value can change (a ring narrower than the puck can never hold it wholly, so under
  the "lower" line rule it never scores);
* pucks never overlap (the physics), so the pucks that score values reached only within a
  distance ``D`` of the centre lie in a disc of radius ``D + r``, which holds at most as many
  pucks of radius ``r`` as the densest packing of equal circles in a circle allows
  (:data:`PACKING`). Under the default rules three pucks fit wholly inside the 100 ring
  (radius 0.04 m, pucks 0.0175 m), not four: 500 and 480 are impossible, a round scores at
  most 460.

Not modelled: whether a throw can reach a spot (launch limits, pucks in the way). The bound
comes from the scoring rules and the geometry only, so no score a game can produce is refused.
"""

from __future__ import annotations

import math
from functools import lru_cache

from sim.core.sheet import ScoreSheet

from .rules.schema import CurlastiqueRules, ZoneRules
from .rules.scoring import scorer

__all__ = ["SHEET", "PACKING", "check_sheet_value", "puck_reach", "round_points"]

#: ``PACKING[n - 1]``: the radius of the smallest circle that holds ``n`` non-overlapping unit
#: circles (the densest packings of equal circles in a circle, proven optimal up to n = 13:
#: Graham, Lubachevsky et al. 1998, Fodor 1999-2003; values as tabulated by E. Specht,
#: packomania.com). 1 + 2/√3, 1 + √2, 1 + 1/sin(π/5), 3, 3, 1 + 1/sin(π/7), ...
PACKING = (
    1.0,
    2.0,
    2.1547005384,
    2.4142135624,
    2.7013016167,
    3.0,
    3.0,
    3.3047648710,
    3.6131259298,
    3.8130256313,
    3.9238044002,
    4.0296019301,
    4.2360679775,
)


def fits(ratio: float, most: int) -> int:
    """How many discs of radius 1 fit in a circle of radius ``ratio`` (at most ``most``; beyond
    the table, ``most``: no bound is claimed)."""
    n = sum(1 for rho in PACKING if rho <= ratio + 1e-9)
    return most if n == len(PACKING) else min(n, most)


def puck_reach(zones: ZoneRules, radius: float) -> dict[int, float]:
    """Each value one puck can score → the largest distance (m) of its centre from the target
    centre at which it scores it (``inf`` for 0: a puck anywhere outside, or out of play).

    Examples:
        >>> reach = puck_reach(ZoneRules(), 0.0175)   # "lower": the ring must hold the whole puck
        >>> {v: round(d, 4) for v, d in reach.items()}
        {100: 0.0225, 80: 0.0625, 40: 0.1125, 20: 0.1725, 0: inf}
    """
    edges = sorted({0.0, *(d for ring in zones.radii for d in (ring - radius, ring, ring + radius) if d > 0)})
    samples = [(d, d) for d in edges] + [((a + b) / 2, b) for a, b in zip(edges, edges[1:])]
    samples.append((edges[-1] + 1.0, math.inf))
    score = scorer(zones, radius)
    allowed = {*zones.values, 0}
    reach: dict[int, float] = {0: math.inf}
    for distance, upto in samples:
        value = score.zone_value(0.0, zones.centre_y + distance)
        if value in allowed:
            reach[value] = max(reach.get(value, 0.0), upto)
    return dict(sorted(reach.items(), key=lambda item: (item[1], -item[0])))


def _caps(reach: dict[int, float], radius: float, pucks: int) -> list[tuple[int, int]]:
    """(value, at most this many pucks score it or a value reached no farther out)."""
    return [(v, pucks if math.isinf(d) else fits((d + radius) / radius, pucks)) for v, d in reach.items()]


@lru_cache(maxsize=32)
def _round_points(zones: ZoneRules, radius: float, pucks: int) -> frozenset[int]:
    reach = puck_reach(zones, radius)
    sums: dict[int, set[int]] = {0: {0}}  # pucks placed so far → their possible sums
    for value, cap in _caps(reach, radius, pucks):
        grown: dict[int, set[int]] = {}
        for count, totals in sums.items():
            for extra in range(pucks - count + 1):
                if count + extra > cap and extra:
                    break
                grown.setdefault(count + extra, set()).update(t + extra * value for t in totals)
        sums = grown
    return frozenset().union(*sums.values())


def round_points(rules: CurlastiqueRules) -> frozenset[int]:
    """Every score one player's round can have under ``rules``.

    Examples:
        >>> from sim.curlastique.rules.schema import CurlastiqueRules
        >>> points = round_points(CurlastiqueRules())
        >>> max(points), 480 in points, 95 in points, 440 in points
        (460, False, False, True)
    """
    return _round_points(rules.zones, rules.puck.radius, rules.game.pucks_per_player)


def _nearest(allowed: frozenset[int], value: float) -> str:
    below = [p for p in allowed if p < value]
    above = [p for p in allowed if p > value]
    if not above:
        return f"the most is {max(allowed)}"
    return "nearest: " + " and ".join(str(p) for p in ([max(below)] if below else []) + [min(above)])


def check_sheet_value(rules: CurlastiqueRules, column: str, value: float | str, n_players: int) -> str | None:
    """``GameSpec.sheet.check``: None if a player's round can score ``value`` points, else why not.

    Examples:
        >>> from sim.curlastique.rules.schema import CurlastiqueRules
        >>> check_sheet_value(CurlastiqueRules(), "points", 440, 2) is None
        True
        >>> print(check_sheet_value(CurlastiqueRules(), "points", 95, 2))
        got 95; allowed: the sum of 5 pucks' points, each 100, 80, 40, 20 or 0 (zones.values, game.pucks_per_player), at most 3 pucks scoring 100 (no more fit there); nearest: 80 and 100
    """
    if column != "points":
        return f"got a {column} column; allowed: points (a Curlastique sheet is match,round,player,points)"
    allowed = round_points(rules)
    if isinstance(value, (int, float)) and float(value).is_integer() and int(value) in allowed:
        return None
    pucks, radius = rules.game.pucks_per_player, rules.puck.radius
    reach = puck_reach(rules.zones, radius)
    values = ", ".join(str(v) for v in sorted(reach, reverse=True) if v) + " or 0"
    caps, shown, farther = [], pucks, []
    for v, cap in _caps(reach, radius, pucks):
        farther.append(str(v))
        if cap < shown:
            caps.append(f"at most {cap} pucks scoring {' or '.join(farther)} (no more fit there)")
            shown = cap
    fits_text = ", " + ", ".join(caps) if caps else ""
    number = float(value) if isinstance(value, (int, float)) else math.nan  # (a word: refused before)
    return (
        f"got {value if isinstance(value, str) else format(number, 'g')}; allowed: the sum of {pucks} "
        f"pucks' points, each {values} (zones.values, game.pucks_per_player){fits_text}; "
        f"{_nearest(allowed, number)}"
    )


#: What ``tablesim calibrate`` needs to read the game's score sheets (``GameSpec.sheet``).
SHEET = ScoreSheet(check=check_sheet_value)
