"""Evolve: closed-form motion of a disc under Coulomb sliding friction (compiled helpers).

A sliding disc decelerates at a = μg opposite to its velocity (Coulomb friction,
docs/physics.md): it moves on a straight line, its speed falls linearly, v(τ) = v0 − aτ, and
it stops exactly at τ* = v0/a after travelling d* = v0²/(2a). The motion never reverses and is independent of
mass. Units: metres, seconds, m/s.
"""

import math

from numba import njit


@njit(cache=True, error_model="numpy", _nrt=False)
def state_at(t, t0, x0, y0, sp0, ux, uy, a):
    """Position (m) and speed (m/s) at absolute time t of a disc that was at (x0, y0) with
    speed sp0 along unit vector (ux, uy) at time t0, decelerating at a (m/s²).

    Returns (x, y, speed); after the stop time the disc sits at its rest point, speed 0.
    """
    if sp0 <= 0.0:
        return x0, y0, 0.0
    tau = t - t0
    if tau <= 0.0:
        return x0, y0, sp0
    if tau * a >= sp0:
        d = sp0 * sp0 / (2.0 * a)
        return x0 + ux * d, y0 + uy * d, 0.0
    d = tau * (sp0 - 0.5 * a * tau)
    return x0 + ux * d, y0 + uy * d, sp0 - a * tau


@njit(cache=True, error_model="numpy", _nrt=False)
def reach(sp, a):
    """Distance (m) left to travel before stopping from speed sp (m/s): v²/(2a)."""
    return sp * sp / (2.0 * a)


@njit(cache=True, error_model="numpy", _nrt=False)
def travel_time(s, sp, a):
    """Time (s) to travel arc length s (m) from speed sp under deceleration a.

    Solves s = sp·τ − ½aτ² for the smaller root in the cancellation-free form
    τ = 2s / (sp + √(sp² − 2as)). Requires s ≤ sp²/(2a) (clamped at the stop time).
    """
    if s <= 0.0:
        return 0.0
    rad = sp * sp - 2.0 * a * s
    if rad < 0.0:
        rad = 0.0
    return 2.0 * s / (sp + math.sqrt(rad))
