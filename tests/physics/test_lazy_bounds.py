"""The engine's lower bounds of moving-pair contact times (`engine._toi_or_bound`): never
later than the exact time, and the exact time itself (bit for bit) when not a bound."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.physics.engine import LAZY_GAP_M, _toi, _toi_or_bound
from sim.physics.state import MASS, NCOL, RAD, W, at, set_motion

from .conftest import PHYSICS

TOL = 1e-9

unit = st.floats(0.0, 2 * np.pi)
speed = st.floats(0.01, 10.0)


def _state(p, v, radius, a):
    S = np.zeros((2, NCOL))
    for i in range(2):
        S[i, W] = 0.0
        S[i, RAD] = radius
        S[i, MASS] = 0.005
        set_motion(S, i, 0.0, p[i][0], p[i][1], v[i][0], v[i][1], a)
    return S


@settings(PHYSICS, max_examples=2000)
@given(
    dx=st.floats(-0.7, 0.7),
    dy=st.floats(-0.7, 0.7),
    si=speed,
    sj=speed,
    hi=unit,
    hj=unit,
    radius=st.floats(0.01, 0.03),
    mu=st.floats(0.05, 0.3),
    t=st.floats(0.0, 0.5),
)
def test_bound_never_after_the_exact_time(dx, dy, si, sj, hi, hj, radius, mu, t):
    a = mu * 9.81
    if np.hypot(dx, dy) < 2 * radius + 1e-6:
        return
    v = [(si * np.cos(hi), si * np.sin(hi)), (sj * np.cos(hj), sj * np.sin(hj))]
    S = _state([(0.0, 0.0), (dx, dy)], v, radius, a)
    xi, yi, s_i = at(S, 0, t, a)  # predictions from time t (the discs have moved)
    xk, yk, s_k = at(S, 1, t, a)
    exact = _toi(S, 0, 1, xi, yi, s_i, xk, yk, s_k, t, a, TOL)
    value, lazy = _toi_or_bound(S, 0, 1, xi, yi, s_i, xk, yk, s_k, t, a, TOL)
    if lazy:
        assert value <= exact
        assert np.hypot(xi - xk, yi - yk) - 2 * radius - 2 * TOL > LAZY_GAP_M
    else:
        assert value == exact or (np.isinf(value) and np.isinf(exact))


@settings(PHYSICS, max_examples=2000)
@given(
    dist=st.floats(0.03, 0.6),
    off=st.floats(-0.05, 0.05),
    si=speed,
    sj=speed,
    hi=unit,
    hj=unit,
    radius=st.floats(0.01, 0.03),
    mu=st.floats(0.05, 0.3),
)
def test_bound_never_after_the_exact_time_aimed(dist, off, si, sj, hi, hj, radius, mu):
    """Disc j lies ahead on disc i's path (near it): most examples are contacts."""
    a = mu * 9.81
    dx = dist * np.cos(hi) - off * np.sin(hi)
    dy = dist * np.sin(hi) + off * np.cos(hi)
    if np.hypot(dx, dy) < 2 * radius + 1e-6:
        return
    v = [(si * np.cos(hi), si * np.sin(hi)), (sj * np.cos(hj), sj * np.sin(hj))]
    S = _state([(0.0, 0.0), (dx, dy)], v, radius, a)
    xi, yi, s_i = at(S, 0, 0.0, a)
    xk, yk, s_k = at(S, 1, 0.0, a)
    exact = _toi(S, 0, 1, xi, yi, s_i, xk, yk, s_k, 0.0, a, TOL)
    value, lazy = _toi_or_bound(S, 0, 1, xi, yi, s_i, xk, yk, s_k, 0.0, a, TOL)
    assert value <= exact if lazy else (value == exact or (np.isinf(value) and np.isinf(exact)))
