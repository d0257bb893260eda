"""The planner's candidate shots, by family, compiled (numba): what a player could try.

Families (every number a :class:`~sim.curlastique.players.profile.CurlastiqueProfile` key):

* ``draw``: to the free draw spots, best zone first (a spot is free when no resting puck's
  centre is within ``draw_clearance`` diameters), ``draw_spots`` of them, each straight and
  from ``draw_offset_m`` either side; a speed that stops a lone puck there, ``√(2μg·dist)``.
* ``takeout``: of the opponents' scoring pucks, most points first (then farthest), the first
  ``takeout_targets``: full at ``takeout_firm_speed``, full at ``takeout_soft_speed``, then cut
  ``takeout_cut`` radii either side at the firm speed (impact speeds, m/s).
* ``raise``: one's own pucks below the best zone, most points first, ``raise_targets`` of them,
  pushed along the line of centres with the impact that sends them (restitution e) to the centre.
* ``double``: a take-out aimed so that the hit puck (the first ``double_targets`` of the take-out
  order) runs into a second opponent puck (the first ``double_partners``) at most
  ``double_max_gap_m`` away, at ``double_speed``.
* ``guard``: stopping ``guard_distances_m`` short of the side's best puck (of the centre if none).

Each row also records the ring it aims at (:func:`ring_of`: where a draw or guard is meant to
stop, the puck a take-out, raise or double hits first). A ring the profile's ``forbid`` names is
never aimed at: the draws take the next free spots, the take-outs, raises and doubles the next
pucks outside it; a family it names makes no rows. :func:`candidate_rows` builds each family's
rows in its own order and fills the budget in the profile's ``fill_order``; :func:`finish` turns
them into shots. The arithmetic is the one the planner always used: the angles come from
numpy's ``arctan2`` and the speeds of raises and doubles from CPython's ``math.hypot`` (both
differ from the compiled ones in the last bit), so the same seeds give the same tables.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numba import njit

from ..rules.schema import CurlastiqueRules
from ..rules.scoring import scorer, zone_points

__all__ = ["FAMILIES", "FAMILY_IDS", "RANDOM", "Kit", "kit", "candidate_rows", "finish", "ring_of"]

#: The planner's shot families.
FAMILIES = ("draw", "takeout", "raise", "double", "guard")

#: Family ids of the compiled code; RANDOM: a fallback shot (no family offered one).
FAMILY_IDS = {name: i for i, name in enumerate(FAMILIES)}
DRAW, TAKEOUT, RAISE, DOUBLE, GUARD = range(5)
RANDOM = 5

#: Columns of a candidate row: family, start x0 (m), aim direction (ax, ay), speed (m/s),
#: whether the speed is finished in Python, then (rx, ry) m and the impact (m/s) it needs, and
#: the ring aimed at (:func:`ring_of` of the aim point: 1 the innermost, 0 none).
FAM, X0, AX, AY, SPEED, EXACT, RX, RY, IMPACT, AIM = range(10)
WIDTH = 10

#: Below this distance (m) a puck counts as already on the target centre (nothing to raise).
ON_CENTRE_M = 1e-6


@dataclass(frozen=True)
class Kit:
    """What the families need of the rules and the profile, as the compiled code takes it."""

    spots: np.ndarray  # (P, 2) m draw spots, best zone first
    geometry: np.ndarray  # r, d, y0, x_max, a_max, v_max, μg, e, cx, cy, best zone value
    zones: tuple  # scorer.kernel_args
    style: np.ndarray  # draw_clearance, draw_offset_m, takeout_cut, double_max_gap_m,
    #                       firm², soft², double_speed
    counts: np.ndarray  # draw_spots, takeout_targets, raise_targets, double_targets, double_partners
    guards: np.ndarray  # guard_distances_m
    allowed: np.ndarray  # (5,) bool: the profile's families, less those it forbids
    order: np.ndarray  # fill_order as family ids
    rings: np.ndarray  # (R + 1,) bool: may aim at ring i (index 0: at no ring, always True)


@lru_cache(maxsize=64)
def draw_spots(rules: CurlastiqueRules, per_ring: int) -> tuple[np.ndarray, np.ndarray]:
    """Draw spots (P, 2) m and their points, best zone first: the centre, then ``per_ring``
    on the middle circle of each ring (every other ring turned by half a step); within a zone,
    nearest the centre, then nearest the axis, then the near side; spots off the board dropped."""
    r, cy = rules.puck.radius, rules.zones.centre_y
    score = scorer(rules.zones, r)
    rows, inner = [np.array([[0.0, cy]])], 0.0
    step = 2 * np.pi / per_ring
    for radius in rules.zones.radii:
        lo, hi = inner + r, radius - r
        rho = 0.5 * (lo + hi) if hi > lo else 0.5 * (inner + radius)
        phi = np.arange(per_ring) * step + (step / 2 if len(rows) % 2 else 0.0)
        if rho > 0:
            rows.append(np.c_[rho * np.sin(phi), cy - rho * np.cos(phi)])
        inner = radius
    spots = np.vstack(rows)
    on_board = (
        (np.abs(spots[:, 0]) <= rules.board.width / 2 - r)
        & (spots[:, 1] <= rules.board.length - r)
        & (spots[:, 1] >= rules.launch_y + rules.puck.diameter)
    )
    spots = spots[on_board]
    values = score.points(spots)
    order = np.lexsort((spots[:, 1], np.abs(spots[:, 0]), np.hypot(spots[:, 0], spots[:, 1] - cy), -values))
    return np.ascontiguousarray(spots[order]), values[order]


#: Fields of the Kit's ``geometry`` array (m, m/s, degrees; ``G_DECEL`` = μg in m/s²; the
#: target's centre; the best draw spot's value), ``style`` array (the planner's profile keys:
#: ``draw_clearance``, ``draw_offset_m``, ``takeout_cut``, ``double_max_gap_m``, the squared
#: takeout speeds, ``double_speed``) and ``counts`` array (candidates per family). Module-level
#: ints are compile-time constants to numba: a named index costs what a literal one did.
(
    G_RADIUS,
    G_DIAMETER,
    G_LAUNCH_Y,
    G_X_MAX,
    G_ANGLE_MAX,
    G_V_MAX,
    G_DECEL,
    G_RESTITUTION,
    G_CENTRE_X,
    G_CENTRE_Y,
    G_TOP_VALUE,
) = range(11)
(S_DRAW_CLEARANCE, S_DRAW_OFFSET, S_TAKEOUT_CUT, S_DOUBLE_MAX_GAP, S_FIRM_SPEED_SQ, S_SOFT_SPEED_SQ, S_DOUBLE_SPEED) = (
    range(7)
)
C_DRAW_SPOTS, C_TAKEOUT_TARGETS, C_RAISE_TARGETS, C_DOUBLE_TARGETS, C_DOUBLE_PARTNERS = range(5)


def kit(rules: CurlastiqueRules, profile) -> Kit:
    """The :class:`Kit` of a rules set and a planner's profile."""
    spots, values = draw_spots(rules, int(profile.draw_spots_per_ring))
    p, lim = rules.physics, rules.launch
    geometry = np.array(
        [
            rules.puck.radius,
            rules.puck.diameter,
            rules.launch_y,
            lim.x_max,
            lim.angle_max_deg,
            rules.max_speed,
            p.friction * p.gravity,
            p.restitution,
            0.0,
            rules.zones.centre_y,
            float(values[0]) if len(values) else 0.0,
        ]
    )
    style = np.array(
        [
            profile.draw_clearance,
            profile.draw_offset_m,
            profile.takeout_cut,
            profile.double_max_gap_m,
            profile.takeout_firm_speed**2,
            profile.takeout_soft_speed**2,
            profile.double_speed,
        ],
        dtype=float,
    )
    counts = np.array(
        [
            profile.draw_spots,
            profile.takeout_targets,
            profile.raise_targets,
            profile.double_targets,
            profile.double_partners,
        ],
        dtype=np.int64,
    )
    forbid = set(getattr(profile, "forbid", ()))
    allowed = np.array([name in profile.families and f"shot.{name}" not in forbid for name in FAMILY_IDS])
    rings = np.array([True] + [f"zone.{i}" not in forbid for i in range(1, len(rules.zones.radii) + 1)])
    return Kit(
        spots=spots,
        geometry=geometry,
        zones=scorer(rules.zones, rules.puck.radius).kernel_args,
        style=style,
        counts=counts,
        guards=np.asarray(profile.guard_distances_m, dtype=float),
        allowed=allowed,
        order=np.array([FAMILY_IDS[f] for f in profile.fill_order], dtype=np.int64),
        rings=rings,
    )


# ---------------------------------------------------------------------------------------------
# Compiled rows, one function per family
# ---------------------------------------------------------------------------------------------


# The compiled helpers below take their counters, family ids and flags as np.int64 / np.bool_
# values: a literal constant argument would compile each helper once more per literal value.
@njit(cache=True, error_model="numpy", _nrt=False)
def ring_of(x, y, cx, cy, radii):
    """The ring holding the point ``(x, y)`` (m): 1 the innermost .. R, 0 past the last; a
    point on a line belongs to the inner ring."""
    d = np.hypot(x - cx, y - cy)
    for i in range(radii.shape[0]):
        if d <= radii[i]:
            return i + 1
    return 0


@njit(cache=True, error_model="numpy", _nrt=False)
def _row(rows, n, family, x0, ax, ay, speed, aim):
    rows[n, FAM], rows[n, X0], rows[n, AX], rows[n, AY], rows[n, SPEED] = family, x0, ax, ay, speed
    rows[n, EXACT], rows[n, RX], rows[n, RY], rows[n, IMPACT], rows[n, AIM] = 0.0, 0.0, 0.0, 0.0, aim
    return n + 1


@njit(cache=True, error_model="numpy", _nrt=False)
def _clip(v, lim):
    return min(max(v, -lim), lim)


@njit(cache=True, error_model="numpy")
def _draws(rows, n, pos, spots, g, style, count, radii, aims):
    """Straight, then left, then right approaches to the first ``count`` free spots in rings
    that ``aims`` allows (aimed at the spot's ring)."""
    d, y0, x_max, mug = g[G_DIAMETER], g[G_LAUNCH_Y], g[G_X_MAX], g[G_DECEL]
    free = np.empty(spots.shape[0], dtype=np.int64)
    ring = np.empty(spots.shape[0], dtype=np.int64)
    m = 0
    for i in range(spots.shape[0]):
        if m >= count:
            break
        ring[m] = ring_of(spots[i, 0], spots[i, 1], g[G_CENTRE_X], g[G_CENTRE_Y], radii)
        if not aims[ring[m]]:
            continue
        gap = np.inf
        for j in range(pos.shape[0]):
            dx, dy = spots[i, 0] - pos[j, 0], spots[i, 1] - pos[j, 1]
            gap = min(gap, np.sqrt(dx * dx + dy * dy))
        if pos.shape[0] == 0 or gap > d * style[S_DRAW_CLEARANCE]:
            free[m] = i
            m += 1
    for x_off in (0.0, -style[S_DRAW_OFFSET], style[S_DRAW_OFFSET]):
        for q in range(m):
            sx, sy = spots[free[q], 0], spots[free[q], 1]
            x0 = _clip(sx + x_off, x_max)
            dx, dy = sx - x0, sy - y0
            n = _row(rows, n, np.int64(DRAW), x0, dx, dy, np.sqrt(2 * mug * max(np.hypot(dx, dy), 0.0)), ring[q])
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def _takeouts(rows, n, pos, theirs, g, style, count, rings):
    """Firm, soft, then the two cut take-outs of the first ``count`` targets (aimed at the
    target's ring, ``rings`` of each puck)."""
    r, d, y0, x_max, v_max, mug = g[G_RADIUS], g[G_DIAMETER], g[G_LAUNCH_Y], g[G_X_MAX], g[G_V_MAX], g[G_DECEL]
    for kind in range(3):
        impact_sq = style[S_SOFT_SPEED_SQ] if kind == 1 else style[S_FIRM_SPEED_SQ]
        offsets = (-style[S_TAKEOUT_CUT], style[S_TAKEOUT_CUT]) if kind == 2 else (0.0, 0.0)
        for q in range(min(count, theirs.shape[0])):
            i = theirs[q]
            for o in range(2 if kind == 2 else 1):
                tx = pos[i, 0] + offsets[o] * r
                x0 = _clip(tx, x_max)
                dx, dy = tx - x0, pos[i, 1] - y0
                dist = np.hypot(dx, dy)
                speed = min(np.sqrt(impact_sq + 2 * mug * max(dist - d, 0.0)), v_max)
                n = _row(rows, n, np.int64(TAKEOUT), x0, dx, dy, speed, rings[i])
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def _along(rows, n, family, px, py, nx, ny, impact, g, aim):
    """A row for the path through contact point (px, py) moving along unit (nx, ny), if its
    start and angle are legal: the speed that arrives at ``impact`` is finished in Python."""
    y0, x_max, a_max = g[G_LAUNCH_Y], g[G_X_MAX], g[G_ANGLE_MAX]
    if ny <= 0.0:
        return n
    x0 = px - (py - y0) * nx / ny
    if abs(x0) > x_max or abs(np.degrees(np.arctan2(-nx, ny))) > a_max:
        return n
    n = _row(rows, n, family, x0, nx, ny, 0.0, aim)
    rows[n - 1, EXACT], rows[n - 1, RX], rows[n - 1, RY], rows[n - 1, IMPACT] = 1.0, px - x0, py - y0, impact
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def _raises(rows, n, pos, own, g, count, rings):
    """Own pucks (most points first) pushed along the line of centres onto the target centre
    (aimed at the pushed puck's ring)."""
    d, mug, e, cx, cy = g[G_DIAMETER], g[G_DECEL], g[G_RESTITUTION], g[G_CENTRE_X], g[G_CENTRE_Y]
    for q in range(min(count, own.shape[0])):
        i = own[q]
        gx, gy = cx - pos[i, 0], cy - pos[i, 1]
        dist_t = np.hypot(gx, gy)
        if dist_t < ON_CENTRE_M:
            continue
        nx, ny = gx / dist_t, gy / dist_t
        impact = 2 * math.sqrt(2 * mug * dist_t) / (1 + e)
        n = _along(rows, n, np.int64(RAISE), pos[i, 0] - d * nx, pos[i, 1] - d * ny, nx, ny, impact, g, rings[i])
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def _doubles(rows, n, pos, hit, theirs, g, style, first, partners, rings):
    """Take-outs of one opponent puck (of ``hit``) along the line to another (of ``theirs``)
    within the largest gap (aimed at the first puck's ring)."""
    d = g[G_DIAMETER]
    if theirs.shape[0] < 2:
        return n
    for p in range(min(first, hit.shape[0])):
        i = hit[p]
        for q in range(min(partners, theirs.shape[0])):
            j = theirs[q]
            gx, gy = pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1]
            dist = np.hypot(gx, gy)
            if i == j or dist > style[S_DOUBLE_MAX_GAP]:
                continue
            nx, ny = gx / dist, gy / dist
            n = _along(
                rows,
                n,
                np.int64(DOUBLE),
                pos[i, 0] - d * nx,
                pos[i, 1] - d * ny,
                nx,
                ny,
                style[S_DOUBLE_SPEED],
                g,
                rings[i],
            )
    return n


@njit(cache=True, error_model="numpy", _nrt=False)
def _guards(rows, n, pos, pts, mine, guards, g, radii, aims):
    """Draws that stop short of the side's best puck (the target centre if it has none),
    aimed at the ring of where they stop, if ``aims`` allows it."""
    d, y0, x_max, mug = g[G_DIAMETER], g[G_LAUNCH_Y], g[G_X_MAX], g[G_DECEL]
    tx, ty, best = g[G_CENTRE_X], g[G_CENTRE_Y], 0
    for i in range(pos.shape[0]):
        if mine[i] and pts[i] > best:
            tx, ty, best = pos[i, 0], pos[i, 1], pts[i]
    for back in guards:
        gy = ty - back
        aim = ring_of(tx, gy, g[G_CENTRE_X], g[G_CENTRE_Y], radii)
        if gy > y0 + d and aims[aim]:
            x0 = _clip(tx, x_max)
            dx, dy = tx - x0, gy - y0
            n = _row(rows, n, np.int64(GUARD), x0, dx, dy, np.sqrt(2 * mug * max(np.hypot(dx, dy), 0.0)), aim)
    return n


@njit(cache=True, error_model="numpy")
def _ranked(pos, pts, select, by_y):
    """Indices where ``select``, most points first, ties by the farther puck (``by_y``) or by
    index (a stable insertion sort)."""
    idx = np.flatnonzero(select)
    for a in range(1, idx.shape[0]):
        i, b = idx[a], a - 1
        while b >= 0 and (pts[idx[b]] < pts[i] or (by_y and pts[idx[b]] == pts[i] and pos[idx[b], 1] < pos[i, 1])):
            idx[b + 1] = idx[b]
            b -= 1
        idx[b + 1] = i
    return idx


@njit(cache=True, error_model="numpy")
def _family_rows(pos, owner, side, seat, spots, g, zones, style, counts, guards, allowed, aims):
    """Every family's rows, each in its own order: (rows, start of each family, its count).
    Rows aimed at a ring that ``aims`` (R + 1,) bool forbids are never made: the draws take the
    next free spots, the take-outs, raises and doubles the next pucks in allowed rings."""
    cx, cy, radii, values, rule, radius, decreasing = zones
    m = pos.shape[0]
    pts = np.empty(m, dtype=np.int64)
    mine = np.empty(m, dtype=np.bool_)
    rings = np.empty(m, dtype=np.int64)
    aimable = np.empty(m, dtype=np.bool_)
    for i in range(m):
        pts[i] = zone_points(pos[i, 0], pos[i, 1], cx, cy, radii, values, rule, radius, decreasing)
        mine[i] = side[owner[i]] == side[seat]
        rings[i] = ring_of(pos[i, 0], pos[i, 1], g[G_CENTRE_X], g[G_CENTRE_Y], radii)
        aimable[i] = aims[rings[i]]
    theirs = _ranked(pos, pts, ~mine & (pts > 0), np.bool_(True))
    hit = _ranked(pos, pts, ~mine & (pts > 0) & aimable, np.bool_(True))  # theirs, unless aims forbids
    own = _ranked(pos, pts, mine & (pts < g[G_TOP_VALUE]) & aimable, np.bool_(False))
    cap = 3 * spots.shape[0] + 4 * m + m + m * m + guards.shape[0] + 1
    rows = np.empty((cap, WIDTH))
    start, size = np.zeros(5, dtype=np.int64), np.zeros(5, dtype=np.int64)
    n = np.int64(0)
    for family in range(5):
        start[family] = n
        if allowed[family]:
            if family == DRAW:
                n = _draws(rows, n, pos, spots, g, style, counts[C_DRAW_SPOTS], radii, aims)
            elif family == TAKEOUT:
                n = _takeouts(rows, n, pos, hit, g, style, counts[C_TAKEOUT_TARGETS], rings)
            elif family == RAISE:
                n = _raises(rows, n, pos, own, g, counts[C_RAISE_TARGETS], rings)
            elif family == DOUBLE:
                n = _doubles(
                    rows, n, pos, hit, theirs, g, style, counts[C_DOUBLE_TARGETS], counts[C_DOUBLE_PARTNERS], rings
                )
            else:
                n = _guards(rows, n, pos, pts, mine, guards, g, radii, aims)
        size[family] = n - start[family]
    return rows, start, size


@njit(cache=True, error_model="numpy")
def _fill(rows, start, size, order, budget):
    """Up to ``budget`` rows, taking the next row of each family in ``order``, repeated."""
    picked = np.empty((budget, WIDTH))
    cursor = np.zeros(5, dtype=np.int64)
    n = 0
    while n < budget:
        progressed = False
        for family in order:
            if n >= budget:
                break
            if cursor[family] < size[family]:
                row = start[family] + cursor[family]
                for col in range(WIDTH):  # (a loop: a row assignment compiles shape-error formatting)
                    picked[n, col] = rows[row, col]
                cursor[family] += 1
                n += 1
                progressed = True
        if not progressed:
            break
    return picked[:n]


@njit(cache=True, error_model="numpy")
def _picked_rows(pos, owner, side, seat, spots, g, zones, style, counts, guards, allowed, order, budget, aims):
    """:func:`_family_rows` then :func:`_fill`: the picked rows, in one compiled call."""
    rows, start, size = _family_rows(pos, owner, side, seat, spots, g, zones, style, counts, guards, allowed, aims)
    return _fill(rows, start, size, order, budget)


def candidate_rows(k: Kit, pos: np.ndarray, owner: np.ndarray, side: np.ndarray, seat: int, budget: int) -> np.ndarray:
    """The picked candidate rows (n <= budget, columns ``FAM .. AIM``) for a board: none of a
    family or aimed at a ring the profile forbids (``k.allowed``, ``k.rings``)."""
    return _picked_rows(
        pos,
        owner,
        side,
        seat,
        k.spots,
        k.geometry,
        k.zones,
        k.style,
        k.counts,
        k.guards,
        k.allowed,
        k.order,
        budget,
        k.rings,
    )


def finish(k: Kit, rows: np.ndarray) -> np.ndarray:
    """Shots (n, 3) ``x0, angle_deg, speed`` of candidate rows."""
    shots = np.empty((len(rows), 3))
    shots[:, 0] = rows[:, X0]
    shots[:, 1] = np.degrees(np.arctan2(-rows[:, AX], rows[:, AY]))
    shots[:, 2] = rows[:, SPEED]
    exact = rows[:, EXACT].nonzero()[0]
    if len(exact):
        mug, v_max = float(k.geometry[G_DECEL]), float(k.geometry[G_V_MAX])
        for i, impact, rx, ry in zip(
            exact.tolist(), rows[exact, IMPACT].tolist(), rows[exact, RX].tolist(), rows[exact, RY].tolist()
        ):
            shots[i, 2] = min(math.sqrt(impact**2 + 2 * mug * max(math.hypot(rx, ry), 0.0)), v_max)
    return shots
