"""Times of impact against brute force: the earliest contact is found, grazing contacts are
never missed, touching rules hold."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.physics.detect import circle_hit, pair_toi, segment_hit, static_hit

from .conftest import PHYSICS

TOL = 1e-9
INF = np.inf


def _pos(p, s, u, a, t):
    """Closed-form Coulomb motion, evaluated independently of the engine (vectorised in t)."""
    tt = np.minimum(t, s / a) if s > 0 else np.zeros_like(t)
    d = tt * (s - 0.5 * a * tt)
    return p[0] + u[0] * d, p[1] + u[1] * d


def _dist(pi, si, ui, pj, sj, uj, a, t):
    xi, yi = _pos(pi, si, ui, a, t)
    xj, yj = _pos(pj, sj, uj, a, t)
    return np.hypot(xi - xj, yi - yj)


def _check_pair(pi, si, ui, pj, sj, uj, rr, a):
    tau = pair_toi(pi[0], pi[1], si, ui[0], ui[1], pj[0], pj[1], sj, uj[0], uj[1], rr, a, TOL)
    horizon = max(si, sj) / a
    ts = np.linspace(0.0, horizon, 20001)
    dist = _dist(pi, si, ui, pj, sj, uj, a, ts)
    if tau == INF:
        # no contact: the discs never overlap (beyond the touching tolerance)
        assert dist.min() >= rr - 1e-9
        return tau
    assert 0.0 <= tau <= horizon * (1 + 1e-12)
    # a real contact at tau ...
    d_at = _dist(pi, si, ui, pj, sj, uj, a, np.array([tau]))[0]
    assert abs(d_at - rr) <= 1e-9
    # ... and the earliest: no overlap before it
    before = ts[ts < tau - 1e-12]
    if before.size:
        assert _dist(pi, si, ui, pj, sj, uj, a, before).min() >= rr - 1e-9
    return tau


unit = st.floats(0.0, 2 * np.pi).map(lambda t: np.array([np.cos(t), np.sin(t)]))
speed = st.one_of(st.just(0.0), st.floats(0.01, 10.0))


@settings(PHYSICS, max_examples=1000)
@given(
    dx=st.floats(-0.6, 0.6),
    dy=st.floats(-0.6, 0.6),
    si=speed,
    sj=speed,
    ui=unit,
    uj=unit,
    rr=st.floats(0.02, 0.06),
    mu=st.floats(0.05, 0.3),
)
def test_pair_toi_random(dx, dy, si, sj, ui, uj, rr, mu):
    pj = np.array([dx, dy])
    if np.hypot(dx, dy) < rr + 1e-6:
        return
    _check_pair(np.zeros(2), si, ui, pj, sj, uj, rr, mu * 9.81)


@settings(PHYSICS, max_examples=1000)
@given(
    t_hit=st.floats(0.0, 0.98),
    si=st.floats(0.05, 6.0),
    sj=st.floats(0.0, 6.0),
    ui=unit,
    uj=unit,
    side=unit,
    rr=st.floats(0.02, 0.06),
    mu=st.floats(0.05, 0.3),
)
def test_pair_toi_aimed(t_hit, si, sj, ui, uj, side, rr, mu):
    """Discs placed so that they would touch at some time: most examples are contacts,
    many of them oblique or grazing."""
    a = mu * 9.81
    th = t_hit * max(si, sj) / a
    xi, yi = _pos(np.zeros(2), si, ui, a, np.array([th]))
    xj, yj = _pos(np.zeros(2), sj, uj, a, np.array([th]))
    # j placed so that at th the centres are rr apart along `side`
    pj = np.array([xi[0] - xj[0], yi[0] - yj[0]]) + rr * side
    if np.hypot(*pj) < rr + 1e-6:
        return
    tau = _check_pair(np.zeros(2), si, ui, pj, sj, uj, rr, a)
    assert tau <= th + 1e-9  # they do touch at th, so the first contact is no later


@settings(PHYSICS, max_examples=600)
@given(
    si=st.floats(0.2, 6.0),
    sj=st.floats(0.0, 6.0),
    ui=unit,
    uj=unit,
    side=unit,
    t_hit=st.floats(0.05, 0.95),
    rr=st.floats(0.02, 0.06),
    depth=st.floats(1e-8, 1e-5),
)
def test_pair_toi_never_misses_grazing(si, sj, ui, uj, side, t_hit, rr, depth):
    """Place j so that the closest approach is exactly `depth` inside contact (a graze of 1e-8
    to 1e-5 of the radius sum): the engine must report the contact."""
    a = 0.981
    th = np.array([t_hit * max(si, sj) / a])
    xi, yi = _pos(np.zeros(2), si, ui, a, th)
    xj, yj = _pos(np.zeros(2), sj, uj, a, th)
    rel = np.array([xi[0] - xj[0], yi[0] - yj[0]])  # d(th) - (p_i(0) - p_j(0)) with p_j(0) = 0
    n = rel / np.hypot(*rel) if np.hypot(*rel) > 1e-12 else side
    pj = rel - (rr - depth * rr) * n  # now d(th) = (rr − depth·rr)·n
    if np.hypot(*pj) < rr + 1e-6:
        return
    tau = _check_pair(np.zeros(2), si, ui, pj, sj, uj, rr, a)
    assert tau < INF


@pytest.mark.parametrize(
    "offset, hit", [(1 - 1e-9, True), (1 - 1e-6, True), (1 + 1e-7, False), (1 + 2e-9 / 0.0318 * 2, False)]
)
def test_head_on_pass_by_offsets(offset, hit):
    """Two discs passing each other with opposite velocities: the relative path is a
    straight line at a distance offset·rr."""
    rr = 0.0318
    tau = pair_toi(0.0, 0.0, 2.0, 1.0, 0.0, 1.0, offset * rr, 2.0, -1.0, 0.0, rr, 0.981, TOL)
    assert (tau < INF) == hit


def test_touching_rules():
    rr = 0.04
    a = 0.981
    # touching, approaching (both moving): contact now
    assert pair_toi(0.0, 0.0, 1.0, 1.0, 0.0, rr, 0.0, 0.5, 1.0, 0.0, rr, a, TOL) == 0.0
    # touching within 1e-9, separating: no event
    assert pair_toi(0.0, 0.0, 0.5, 1.0, 0.0, rr + 5e-10, 0.0, 1.0, 1.0, 0.0, rr, a, TOL) == INF
    # overlapping by round-off, separating, one at rest: no event
    assert pair_toi(0.0, 0.0, 0.0, 0.0, 0.0, rr - 1e-12, 0.0, 1.0, 1.0, 0.0, rr, a, TOL) == INF
    # touching, approaching the resting one: contact now
    assert pair_toi(0.0, 0.0, 0.0, 0.0, 0.0, rr, 0.0, 1.0, -1.0, 0.0, rr, a, TOL) == 0.0
    # gap of 1e-6, approaching: a genuine crossing later
    tau = pair_toi(0.0, 0.0, 0.0, 0.0, 0.0, rr + 1e-6, 0.0, 1.0, -1.0, 0.0, rr, a, TOL)
    assert 0 < tau < 2e-6


def test_piece_after_the_first_stop():
    """j stops first, i arrives later where j rests: found after j's stop time."""
    a = 0.981
    rr = 0.03
    # j: from (0.3, 0) moving +x at 0.2 m/s, rests at 0.3 + 0.2²/(2a) after 0.2/a s;
    # i: from 0 at 0.9 m/s, still sliding when it reaches j
    tau = pair_toi(0.0, 0.0, 0.9, 1.0, 0.0, 0.3, 0.0, 0.2, 1.0, 0.0, rr, a, TOL)
    s = 0.3 + 0.04 / (2 * a) - rr
    t_expect = (0.9 - np.sqrt(0.81 - 2 * a * s)) / a
    assert tau > 0.2 / a and tau == pytest.approx(t_expect, rel=1e-12)


# ------------------------------------------------------------------------- static targets
@settings(PHYSICS, max_examples=600)
@given(
    px=st.floats(-0.5, 0.5),
    py=st.floats(-0.5, 0.5),
    u=unit,
    s=st.floats(0.01, 10.0),
    r=st.floats(0.005, 0.03),
    mu=st.floats(0.05, 0.3),
)
def test_segment_hit_vs_brute_force(px, py, u, s, r, mu):
    a = mu * 9.81
    x1, y1, x2, y2 = -0.2, 0.1, 0.3, -0.05
    L = np.hypot(x2 - x1, y2 - y1)
    tx, ty = (x2 - x1) / L, (y2 - y1) / L

    def seg_dist(x, y):
        lam = np.clip((x - x1) * tx + (y - y1) * ty, 0, L)
        return np.hypot(x - (x1 + lam * tx), y - (y1 + lam * ty))

    if seg_dist(px, py) < r + 1e-6:
        return
    smax = s * s / (2 * a)
    sig = segment_hit(px, py, u[0], u[1], smax, x1, y1, tx, ty, L, r, TOL)
    ss = np.linspace(0, smax, 40001)
    dd = seg_dist(px + u[0] * ss, py + u[1] * ss)
    if sig == INF:
        assert dd.min() >= r - 1e-9
    else:
        assert abs(seg_dist(px + u[0] * sig, py + u[1] * sig) - r) < 1e-9
        assert dd[ss < sig - 1e-12].min(initial=np.inf) >= r - 1e-9


@settings(PHYSICS, max_examples=600)
@given(px=st.floats(-0.5, 0.5), py=st.floats(-0.5, 0.5), u=unit, s=st.floats(0.01, 10.0), rho=st.floats(0.005, 0.05))
def test_circle_hit_vs_brute_force(px, py, u, s, rho):
    if np.hypot(px, py) < rho + 1e-6:
        return
    smax = s * s / 2.0
    sig = circle_hit(px, py, u[0], u[1], smax, 0.0, 0.0, rho, TOL)
    ss = np.linspace(0, smax, 40001)
    dd = np.hypot(px + u[0] * ss, py + u[1] * ss)
    if sig == INF:
        assert dd.min() >= rho - 1e-9
    else:
        assert abs(np.hypot(px + u[0] * sig, py + u[1] * sig) - rho) < 1e-9
        assert dd[ss < sig - 1e-12].min(initial=np.inf) >= rho - 1e-9


def test_static_hit_ties_prefer_lower_kind_then_index():
    """Exact ties (identical geometry): WALL (1) before OUT (2) before POCKET (3); between
    two identical walls the lower index."""
    r = 0.02
    seg = [-1.0, 1.0, 1.0, 1.0]
    extra = [1.0, 0.0, 2.0, -1.0, 1.0, 1.0, 1.0]
    walls = np.array([seg + [0.8] + extra, seg + [0.8] + extra])
    outs = np.array([seg + [-1.0] + extra])  # packed like walls; e = -1: removed at contact
    z3 = np.zeros((0, 3))
    z4 = np.zeros((0, 4))
    args = (0.0, 0.0, 3.0, 0.0, 1.0, r, 0.981)
    t_w, k_w, i_w = static_hit(*args, walls, outs, z4, z4, z3, TOL)
    assert (k_w, i_w) == (1, 0)
    t_o, k_o, i_o = static_hit(*args, walls[:0], outs, z4, z4, z3, TOL)
    assert (k_o, i_o) == (2, 0) and t_o == t_w
    rho = 0.03
    outc = np.array([[0.0, 1.0, rho, -1.0]])
    pockets = np.array([[0.0, 1.0, r + rho]])
    _, k_c, i_c = static_hit(*args, walls[:0], outs[:0], z4, outc, pockets, TOL)
    assert (k_c, i_c) == (2, 0)
    _, k_p, i_p = static_hit(*args, walls[:0], outs[:0], z4, z4, pockets, TOL)
    assert (k_p, i_p) == (3, 0)
