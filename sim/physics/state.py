"""The per-disc state matrix of the compiled loop, and the helpers that read and set it.

Each row of ``S`` (n, NCOL) holds the reference of a disc's current closed-form motion (time
t0, position, speed, unit heading), its spin, radius and mass, and the bounding box of its
whole reference path (used to skip pairs that cannot meet). Between events a disc is never
updated: its position at any time follows from its reference (`sim.physics.motion`).
Shared by `sim.physics.resolve` (which sets new references) and `sim.physics.engine`.
"""

import math

from numba import njit

from .constants import REST_SPEED, STATUS_LOST, STATUS_ON
from .motion import state_at

# Columns of the per-disc state matrix S (n, NCOL).
T0, X, Y, SP, UX, UY, W, RAD, MASS, BX0, BX1, BY0, BY1 = range(13)
NCOL = 13


@njit(cache=True, error_model="numpy", _nrt=False)
def set_motion(S, i, t, x, y, vx, vy, a):
    """New reference for disc i: at time t at (x, y) with velocity (vx, vy) (speeds below
    REST_SPEED become exactly 0)."""
    s = math.sqrt(vx * vx + vy * vy)
    S[i, T0] = t
    S[i, X] = x
    S[i, Y] = y
    if s < REST_SPEED:
        S[i, SP] = 0.0
        S[i, UX] = 0.0
        S[i, UY] = 0.0
        S[i, BX0] = x
        S[i, BX1] = x
        S[i, BY0] = y
        S[i, BY1] = y
        return
    ux = vx / s
    uy = vy / s
    S[i, SP] = s
    S[i, UX] = ux
    S[i, UY] = uy
    d = s * s / (2.0 * a)
    ex = x + ux * d
    ey = y + uy * d
    S[i, BX0] = min(x, ex)
    S[i, BX1] = max(x, ex)
    S[i, BY0] = min(y, ey)
    S[i, BY1] = max(y, ey)


@njit(cache=True, error_model="numpy", _nrt=False)
def at(S, i, t, a):
    """Position (m) and speed (m/s) of disc i at time t."""
    return state_at(t, S[i, T0], S[i, X], S[i, Y], S[i, SP], S[i, UX], S[i, UY], a)


@njit(cache=True, error_model="numpy", _nrt=False)
def in_play(status, i):
    """True if disc i takes part in the shot: on the board, or lost (a lost disc stays a
    physical body, moving and colliding, until the shot ends)."""
    return status[i] == STATUS_ON or status[i] == STATUS_LOST
