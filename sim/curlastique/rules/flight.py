"""Throws that touch nothing, settled without the engine (a compiled broad phase).

A thrown puck slides on a straight line and stops after ``v²/(2μg)``. When the disc it sweeps
on the way stays clear, by :data:`CLEARANCE_M`, of every puck at rest and of every board
element (inside the rim and the corner pieces, off the pegs; it leaves the elastic it starts on,
moving forward), the engine records no
event and leaves it at the closed-form rest point, every other puck where it lies. That rest
point is computed here with the engine's own arithmetic (``sim.physics.engine``'s settle step:
speed ``s = √(vx² + vy²)``, unit ``v / s``, reach ``s² / (2a)``), so the result is identical
to :func:`sim.physics.simulate_batch`'s; only the other throws go to the engine
(``tests/curlastique/rules/test_flight.py`` compares both on random boards).

Launch velocities use :func:`sim.physics.heading`'s arithmetic, so the velocities given to the
engine for the other throws are the ones :func:`~sim.curlastique.rules.board.launch_velocity` gives.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from sim.physics import TOUCH_TOL_M
from sim.physics.constants import REST_SPEED

__all__ = ["CLEARANCE_M", "launch_velocity_of", "board_edges", "free_flights", "one_flight"]

#: A path counts as touching nothing when it stays this far (m) beyond contact with every
#: puck and element: 100 × the engine's contact tolerance, so the engine agrees.
CLEARANCE_M = 100 * TOUCH_TOL_M


@njit(cache=True, error_model="numpy", _nrt=False)
def launch_velocity_of(angle_deg, speed):
    """Velocity (vx, vy) (m/s) of a launch ``angle_deg`` from straight ahead (counterclockwise
    positive) at ``speed``: :func:`sim.physics.heading` ``(angle) · speed``, same arithmetic."""
    a = np.deg2rad(angle_deg)
    c, s = np.cos(a), np.sin(a)
    return (c * 0.0 - s * 1.0) * speed, (s * 0.0 + c * 1.0) * speed


@njit(cache=True, error_model="numpy", _nrt=False)
def _point_segment_sq(ax, ay, bx, by, px, py):
    """Squared distance (m²) from point ``p`` to segment ``a``–``b``."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 <= 0.0 else min(max(((px - ax) * dx + (py - ay) * dy) / length2, 0.0), 1.0)
    ex, ey = px - (ax + t * dx), py - (ay + t * dy)
    return ex * ex + ey * ey


@njit(cache=True, error_model="numpy", _nrt=False)
def _clear(x0, y0, x1, y1, pos, r, edges, circles):
    """Whether the disc of radius ``r`` swept from (x0, y0) to (x1, y1) stays clear of the
    pucks at ``pos`` (radius ``r``), of the pegs ``circles`` (x, y, radius) and inside the
    board: the board is convex, so the swept disc is inside it when both end discs are, i.e.
    when both ends lie at least ``r`` inside every edge line ``edges`` (nx, ny, c: inward unit
    normal, ``n·p + c`` the distance inside)."""
    for j in range(edges.shape[0]):
        nx, ny, c = edges[j, 0], edges[j, 1], edges[j, 2]
        if nx * x0 + ny * y0 + c <= r + CLEARANCE_M or nx * x1 + ny * y1 + c <= r + CLEARANCE_M:
            return False
    for j in range(circles.shape[0]):
        reach = r + circles[j, 2] + CLEARANCE_M
        if _point_segment_sq(x0, y0, x1, y1, circles[j, 0], circles[j, 1]) <= reach * reach:
            return False
    reach = 2.0 * r + CLEARANCE_M
    lo_x, hi_x = min(x0, x1) - reach, max(x0, x1) + reach
    lo_y, hi_y = min(y0, y1) - reach, max(y0, y1) + reach
    for j in range(pos.shape[0]):
        px, py = pos[j, 0], pos[j, 1]
        if lo_x <= px <= hi_x and lo_y <= py <= hi_y and _point_segment_sq(x0, y0, x1, y1, px, py) <= reach * reach:
            return False
    return True


def board_edges(segments: np.ndarray, inside: tuple[float, float]) -> np.ndarray:
    """Edge lines (E, 3) ``nx, ny, c`` of a convex board's segments (x1, y1, x2, y2), the unit
    normal pointing to the ``inside`` point."""
    out = np.empty((len(segments), 3))
    for j, (x1, y1, x2, y2) in enumerate(np.asarray(segments, dtype=float)):
        length = math.hypot(x2 - x1, y2 - y1)
        nx, ny = -(y2 - y1) / length, (x2 - x1) / length
        c = -(nx * x1 + ny * y1)
        if nx * inside[0] + ny * inside[1] + c < 0:
            nx, ny, c = -nx, -ny, -c
        out[j] = nx, ny, c
    return out


@njit(cache=True, error_model="numpy", _nrt=False)
def _flight(x, y, vx, vy, pos, a, r, edges, circles):
    """Whether a throw from (x, y) (finite) at (vx, vy) touches nothing, and where its puck
    then stops (m): the engine's settle arithmetic."""
    s = math.sqrt(vx * vx + vy * vy)
    ex, ey, moving_on = x, y, s >= REST_SPEED
    if moving_on and vy > 0.0:
        d = s * s / (2.0 * a)
        ex, ey = x + vx / s * d, y + vy / s * d
    return (not moving_on or vy > 0.0) and _clear(x, y, ex, ey, pos, r, edges, circles), ex, ey


@njit(cache=True, error_model="numpy")
def free_flights(pos, starts, vel, a, r, edges, circles, parked):
    """Settle the throws that touch nothing; gather the others for the engine.

    Args:
        pos: pucks at rest (M, 2) m.
        starts: start of the thrown puck (K, 2) m; a NaN x means it could not be placed: it
            stays ``parked`` (x, y), not in play, and touches nothing.
        vel: launch velocities (K, 2) m/s, forward (vy > 0) for a throw off the elastic.
        a: deceleration μg (m/s²); r: puck radius (m).
        edges: the board's edge lines (:func:`board_edges` of the rim and the corner pieces);
            circles: the pegs (C, 3) x, y, radius.

    Returns:
        ``free`` (K,) bool, the throws settled here; ``rest`` (K, 2), where their thrown puck
        stops; the starts and velocities (E, 2) of the other throws, in order.
    """
    nk = starts.shape[0]
    free = np.zeros(nk, dtype=np.bool_)
    rest = np.empty((nk, 2))
    hit_starts, hit_vel = np.empty((nk, 2)), np.empty((nk, 2))
    n_hit = 0
    for k in range(nk):
        x, y, vx, vy = starts[k, 0], starts[k, 1], vel[k, 0], vel[k, 1]
        if not np.isfinite(x):
            rest[k, 0], rest[k, 1] = parked[0], parked[1]
            free[k] = True
            continue
        clear, ex, ey = _flight(x, y, vx, vy, pos, a, r, edges, circles)
        if clear:
            rest[k, 0], rest[k, 1] = ex, ey
            free[k] = True
        else:
            hit_starts[n_hit, 0], hit_starts[n_hit, 1] = x, y
            hit_vel[n_hit, 0], hit_vel[n_hit, 1] = vx, vy
            n_hit += 1
    return free, rest, hit_starts[:n_hit], hit_vel[:n_hit]


@njit(cache=True, error_model="numpy")
def one_flight(pos, x, y, angle_deg, speed, a, r, edges, circles):
    """One throw from (x, y) (finite) at ``angle_deg``, ``speed``: whether it touches nothing,
    the board after it if so ((M+1, 2) m: ``pos``, then where the thrown puck stops) and its
    launch velocity (:func:`launch_velocity_of`)."""
    vx, vy = launch_velocity_of(angle_deg, speed)
    clear, ex, ey = _flight(x, y, vx, vy, pos, a, r, edges, circles)
    m = pos.shape[0]
    final = np.empty((m + 1, 2))
    for i in range(m):
        final[i, 0], final[i, 1] = pos[i, 0], pos[i, 1]
    final[m, 0], final[m, 1] = ex, ey
    return clear, final, vx, vy
