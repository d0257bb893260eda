"""Analytic oracles of sliding and colliding discs (docs/physics.md): the engine must match each
to far better than 0.5 % (we assert 1e-6 relative: the engine is exact up to round-off and the
1e-9 m post-impact separation)."""

import numpy as np
import pytest

from sim.physics import (
    DISC,
    OBSTACLE,
    OUT,
    POCKET,
    STATUS_ON,
    STATUS_OUT,
    STATUS_POCKETED,
    WALL,
    Discs,
    Physics,
    Table,
    simulate,
    trace,
)

from .conftest import post_speed

G = 9.81
REL = 1e-6


# --------------------------------------------------------------------------- Coulomb friction
@pytest.mark.parametrize("mu", [0.05, 0.1, 0.15, 0.3])
@pytest.mark.parametrize("v", [0.2, 1.0, 2.5, 5.0, 10.0])
def test_stopping_distance_and_time(v, mu):
    d = Discs(pos=[[0.1, -0.2]], vel=[[v * 0.6, v * 0.8]], radius=0.02, mass=0.015)
    r = simulate(Table(), Physics(friction=mu, restitution=0.9), d, record_paths=True)
    dist = np.hypot(*(r.final_pos[0] - d.pos[0]))
    assert dist == pytest.approx(v * v / (2 * mu * G), rel=1e-12)
    # straight line along the initial velocity, stopping exactly at t* = v / (μg)
    assert np.allclose((r.final_pos[0] - d.pos[0]) / dist, [0.6, 0.8], rtol=0, atol=1e-12)
    assert r.paths[0][-1, 0] == pytest.approx(v / (mu * G), rel=1e-12)
    assert r.n_events == 0 and r.status[0] == STATUS_ON


def test_coulomb_not_viscous_half_distance_at_71_percent_speed():
    """Under Coulomb friction the remaining distance is v²/(2μg): a disc sent at v/√2 stops
    at exactly half the distance (viscous damping would give 1/√2)."""
    ph = Physics(friction=0.1, restitution=1.0)
    full = simulate(Table(), ph, Discs([[0, 0]], [[0, 2.0]], 0.02, 0.01)).final_pos[0, 1]
    half = simulate(Table(), ph, Discs([[0, 0]], [[0, 2.0 / np.sqrt(2)]], 0.02, 0.01)).final_pos[0, 1]
    assert half / full == pytest.approx(0.5, rel=1e-12)


# ---------------------------------------------------------------------------- 1-D head-on
def _head_on(m1, m2, r1, r2, e, u0=2.0, mu=0.1, gap=0.1):
    d = Discs(pos=[[0.0, 0.0], [0.0, r1 + r2 + gap]], vel=[[0.0, u0], [0.0, 0.0]], radius=[r1, r2], mass=[m1, m2])
    r = simulate(Table(), Physics(friction=mu, restitution=e), d, record_paths=True)
    ev = r.events[0]
    assert ev["kind"] == DISC and (ev["a"], ev["b"]) == (0, 1)
    u = np.sqrt(u0 * u0 - 2 * mu * G * gap)  # speed of the striker at the impact
    p0, p1 = r.paths
    assert p0[1, 0] == p1[1, 0] == ev["time"]
    v1 = post_speed(p0, 1, mu * G)[0] if len(p0) > 2 else 0.0
    v2, dir2 = post_speed(p1, 1, mu * G)
    assert np.allclose(dir2, [0.0, 1.0], atol=1e-9)
    return u, v1, v2


@pytest.mark.parametrize("e", [1.0, 0.9, 0.8])
def test_head_on_equal_masses(e):
    u, v1, v2 = _head_on(0.0055, 0.0055, 0.0159, 0.0159, e)
    assert v2 == pytest.approx((1 + e) / 2 * u, rel=REL)
    assert v1 == pytest.approx((1 - e) / 2 * u, rel=REL, abs=1e-9)


@pytest.mark.parametrize("e, coin, striker", [(1.0, 1.463, 0.463), (0.9, 1.390, 0.490), (0.8, 1.317, 0.517)])
def test_head_on_striker_on_coin(e, coin, striker):
    """15 g striker on a 5.5 g coin: the 1-D restitution formulas and their values at
    e = 1, 0.9, 0.8 (the table of docs/physics.md)."""
    m1, m2 = 0.015, 0.0055
    u, v1, v2 = _head_on(m1, m2, 0.02065, 0.0159, e)
    assert v1 == pytest.approx((m1 - e * m2) / (m1 + m2) * u, rel=REL)
    assert v2 == pytest.approx((1 + e) * m1 / (m1 + m2) * u, rel=REL)
    # the table's values, to their 3 printed digits
    assert v2 / u == pytest.approx(coin, abs=6e-4)
    assert v1 / u == pytest.approx(striker, abs=6e-4)


# ---------------------------------------------------------------------------- oblique
@pytest.mark.parametrize("phi_deg", [10.0, 30.0, 45.0, 60.0, 80.0])
def test_oblique_equal_mass_elastic_separates_at_90_degrees(phi_deg):
    R = 0.0159
    phi = np.deg2rad(phi_deg)
    mu = 0.1
    d = Discs(pos=[[0.0, 0.0], [2 * R * np.sin(phi), 0.3]], vel=[[0.0, 3.0], [0.0, 0.0]], radius=R, mass=0.0055)
    r = simulate(Table(), Physics(friction=mu, restitution=1.0), d, record_paths=True)
    assert r.n_events == 1 and r.events[0]["kind"] == DISC
    p0, p1 = r.paths
    u = np.sqrt(9.0 - 2 * mu * G * p0[1, 2])
    v0, d0 = post_speed(p0, 1, mu * G)
    v1, d1 = post_speed(p1, 1, mu * G)
    angle = np.degrees(np.arccos(np.clip(d0 @ d1, -1, 1)))
    assert angle == pytest.approx(90.0, abs=1e-6)
    assert v1 == pytest.approx(u * np.cos(phi), rel=REL)  # coin along the line of centres
    assert v0 == pytest.approx(u * np.sin(phi), rel=REL)
    n = (p1[1, 1:] - p0[1, 1:]) / np.hypot(*(p1[1, 1:] - p0[1, 1:]))
    assert np.allclose(d1, n, atol=1e-9)
    # recorded after the impact: the pair is set KISS_GAP_M (2e-9 m) apart
    assert np.hypot(*(p1[1, 1:] - p0[1, 1:])) == pytest.approx(2 * R + 2e-9, abs=1e-12)


# ---------------------------------------------------------------------------- walls
@pytest.mark.parametrize("e_w", [1.0, 0.7, 0.5])
@pytest.mark.parametrize("theta_deg", [0.0, 20.0, 45.0, 70.0])
def test_wall_rebound_angle(e_w, theta_deg):
    r_d, mu, u = 0.02, 0.1, 2.0
    th = np.deg2rad(theta_deg)
    table = Table.build(walls=[(-3.0, 0.5, 3.0, 0.5, e_w)])
    d = Discs([[0.0, 0.0]], [[u * np.sin(th), u * np.cos(th)]], r_d, 0.015)
    r = simulate(table, Physics(friction=mu, restitution=1.0), d, record_paths=True)
    ev = r.events[0]
    assert ev["kind"] == WALL and ev["b"] == 0
    assert ev["y"] == pytest.approx(0.5 - r_d, abs=1e-12)  # edge touches the wall
    p = r.paths[0]
    v_in = np.sqrt(u * u - 2 * mu * G * np.hypot(*(p[1, 1:] - p[0, 1:])))
    v_out, dout = post_speed(p, 1, mu * G)
    assert dout[1] < 0  # going back
    vt, vn = v_in * np.sin(th), v_in * np.cos(th)
    assert abs(v_out * dout[0]) == pytest.approx(vt, rel=REL, abs=1e-12)
    assert abs(v_out * dout[1]) == pytest.approx(e_w * vn, rel=REL)
    if theta_deg > 0:
        theta_out = np.arctan2(abs(dout[0]), abs(dout[1]))
        assert np.tan(theta_out) == pytest.approx(np.tan(th) / e_w, rel=REL)


def test_wall_hit_from_either_side_and_end_point_is_a_post():
    table = Table.build(walls=[(-0.1, 0.0, 0.1, 0.0, 1.0)])
    ph = Physics(friction=0.1, restitution=1.0)
    below = simulate(table, ph, Discs([[0.0, -0.3]], [[0.0, 2.0]], 0.02, 0.01))
    above = simulate(table, ph, Discs([[0.0, 0.3]], [[0.0, -2.0]], 0.02, 0.01))
    assert below.events[0]["kind"] == WALL and below.final_pos[0, 1] < -0.02
    assert above.events[0]["kind"] == WALL and above.final_pos[0, 1] > 0.02
    # aimed at the end point (0.1, 0) head-on along x: bounces straight back like off a post
    post = simulate(table, ph, Discs([[0.5, 0.0]], [[-2.0, 0.0]], 0.02, 0.01), record_paths=True)
    ev = post.events[0]
    assert ev["kind"] == WALL and ev["x"] == pytest.approx(0.12, abs=1e-12)
    assert post.final_pos[0, 0] > 0.12 and abs(post.final_pos[0, 1]) < 1e-12
    # parallel to the wall, past its end: no contact
    miss = simulate(table, ph, Discs([[-0.5, 0.021]], [[2.0, 0.0]], 0.02, 0.01))
    assert miss.n_events == 0


# ---------------------------------------------------------------------------- obstacles
@pytest.mark.parametrize("e_o", [1.0, 0.6])
def test_obstacle_head_on(e_o):
    mu = 0.1
    table = Table.build(obstacles=[(0.0, 0.5, 0.01, e_o)])
    r = simulate(
        table, Physics(friction=mu, restitution=1.0), Discs([[0.0, 0.0]], [[0.0, 2.0]], 0.02, 0.01), record_paths=True
    )
    ev = r.events[0]
    assert ev["kind"] == OBSTACLE and ev["b"] == 0 and ev["y"] == pytest.approx(0.47, abs=1e-12)
    u = np.sqrt(4.0 - 2 * mu * G * 0.47)
    v, direction = post_speed(r.paths[0], 1, mu * G)
    assert v == pytest.approx(e_o * u, rel=REL)
    assert np.allclose(direction, [0, -1], atol=1e-12)


# ---------------------------------------------------------------------------- pockets / out
def test_pocket_captures_centre_at_capture_radius():
    table = Table.build(pockets=[(0.0, 1.0, 0.015)])
    r = simulate(table, Physics(0.1, 0.9), Discs([[0.0, 0.0]], [[0.0, 3.0]], 0.0159, 0.0055))
    ev = r.events[0]
    assert ev["kind"] == POCKET and ev["b"] == 0
    assert ev["y"] == pytest.approx(1.0 - 0.015, abs=1e-12)
    assert r.status[0] == STATUS_POCKETED
    assert np.array_equal(r.final_pos[0], [ev["x"], ev["y"]])
    # centre passes 0.0151 m from the pocket centre: the edge overlaps, but no capture
    miss = simulate(table, Physics(0.1, 0.9), Discs([[0.0151, 0.0]], [[0.0, 3.0]], 0.0159, 0.0055))
    assert miss.n_events == 0 and miss.status[0] == STATUS_ON


def test_out_segment_first_contact_and_launch_from_it():
    elastic = (-0.2, 0.1, 0.2, 0.1)
    table = Table.build(out_segments=[elastic], out_circles=[(0.5, 0.5, 0.01)])
    ph = Physics(0.15, 0.85)
    r = 0.0175
    # launched from against the elastic, moving away: not out
    launch = simulate(table, ph, Discs([[0.0, 0.1 + r]], [[0.0, 1.4]], r, 0.008))
    assert launch.n_events == 0 and launch.status[0] == STATUS_ON
    # coming back onto it: out at first contact, edge touching
    back = simulate(table, ph, Discs([[0.0, 0.4]], [[0.0, -1.4]], r, 0.008))
    ev = back.events[0]
    assert ev["kind"] == OUT and ev["b"] == 0 and ev["y"] == pytest.approx(0.1 + r, abs=1e-12)
    assert back.status[0] == STATUS_OUT and back.touched(0, OUT)
    # out circles are reported with index offset by the number of out segments
    peg = simulate(table, ph, Discs([[0.5, 0.2]], [[0.0, 1.4]], r, 0.008))
    assert peg.events[0]["kind"] == OUT and peg.events[0]["b"] == 1
    assert table.out_index(1) == ("circle", 0) and table.out_index(0) == ("segment", 0)


def test_removed_disc_takes_no_further_part():
    """A disc that went out stops interacting: the disc behind the line is never hit."""
    table = Table.build(out_segments=[(-1.0, 0.5, 1.0, 0.5)])
    d = Discs([[0.0, 0.0], [0.0, 0.6]], [[0.0, 3.0], [0.0, 0.0]], 0.02, 0.01)
    r = simulate(table, Physics(0.1, 0.9), d)
    assert [int(k) for k in r.events["kind"]] == [OUT]
    assert r.status.tolist() == [STATUS_OUT, STATUS_ON]
    # discs not in play at the start are ignored altogether
    d2 = Discs([[0.0, 0.0], [0.0, 0.3]], [[0.0, 3.0], [0.0, 0.0]], 0.02, 0.01, status=[STATUS_ON, STATUS_POCKETED])
    r2 = simulate(Table(), Physics(0.1, 0.9), d2)
    assert r2.n_events == 0 and np.array_equal(r2.final_pos[1], [0.0, 0.3])


# ---------------------------------------------------------------------------- contact friction
def _impact(mu_c, e, phi_deg, m2=1e4):
    """Disc 0 (10 g, R 2 cm) hits a (very heavy) disc 1 at cut angle phi; returns the
    impact log row and the normal / tangent unit vectors at the contact."""
    R = 0.02
    phi = np.deg2rad(phi_deg)
    d = Discs([[0.0, 0.0], [2 * R * np.sin(phi), 0.2]], [[0.0, 2.0], [0.0, 0.0]], R, [0.01, m2])
    tr = trace(Table(), Physics(0.1, e, contact_friction=mu_c), d, max_events=100)
    imp = tr.impacts
    p = tr.result.paths
    n = p[1][1, 1:] - p[0][1, 1:]
    n /= np.hypot(*n)
    return imp[0], n, np.array([-n[1], n[0]])


def test_contact_friction_sticking_leaves_two_thirds_of_the_slip():
    """Coulomb friction in an impact of solid discs (I = ½mR², docs/physics.md): a
    non-spinning disc that sticks keeps v_t' = (2/3)·v_t and spins at 2·v_t/(3R)."""
    row, n, t = _impact(mu_c=0.5, e=0.8, phi_deg=45.0)
    v_in, v_out = row[0:2], row[6:8]
    assert v_out @ n == pytest.approx(-0.8 * (v_in @ n), rel=1e-5)
    assert v_out @ t == pytest.approx(2.0 / 3.0 * (v_in @ t), rel=1e-5)
    assert abs(row[8]) == pytest.approx(2.0 * abs(v_in @ t) / (3 * 0.02), rel=1e-5)


def test_contact_friction_sliding_is_coulomb_limited():
    mu_c, e = 0.05, 0.8
    row, n, t = _impact(mu_c=mu_c, e=e, phi_deg=45.0)
    v_in, v_out = row[0:2], row[6:8]
    vn, vt = v_in @ n, v_in @ t
    assert v_out @ t == pytest.approx(vt - np.sign(vt) * mu_c * (1 + e) * vn, rel=1e-5)


@pytest.mark.parametrize("phi_deg", [10.0, 30.0, 50.0])
def test_contact_friction_throw_at_most_atan_mu(phi_deg):
    """The coin leaves within atan(μ_c) of the line of centres (Coulomb friction in the
    impact, docs/physics.md)."""
    mu_c = 0.1
    row, n, _ = _impact(mu_c=mu_c, e=0.9, phi_deg=phi_deg, m2=0.0055)
    coin = row[9:11]
    throw = np.arccos(np.clip(coin @ n / np.hypot(*coin), -1, 1))
    assert 0.0 < throw <= np.arctan(mu_c) + 1e-12


def test_frictionless_contact_has_no_throw():
    row, n, _ = _impact(mu_c=0.0, e=0.9, phi_deg=30.0, m2=0.0055)
    coin = row[9:11]
    assert np.allclose(coin / np.hypot(*coin), n, atol=1e-12)
    assert row[8] == 0.0 and row[11] == 0.0  # no spin


# ---------------------------------------------------------------------------- tie-breaks
def test_simultaneous_events_follow_the_documented_priority():
    """Mirror-symmetric contacts happen at the same instant: lower ids first; a disc sent
    exactly into a corner meets both walls at once: lower wall index first. Events are
    sorted by (time, kind, a, b)."""
    R = 0.0159
    x = 2 * R * np.sin(np.deg2rad(30.0))
    d = Discs([[0.0, 0.0], [x, 0.3], [-x, 0.3]], [[0.0, 2.0], [0.0, 0.0], [0.0, 0.0]], R, 0.0055)
    r = simulate(Table(), Physics(0.1, 1.0), d)
    ev = r.events
    assert ev[0]["time"] == ev[1]["time"]
    assert [(int(e["a"]), int(e["b"])) for e in ev[:2]] == [(0, 1), (0, 2)]
    corner = Table.build(walls=[(-1, 1, 1, 1, 0.8), (1, -1, 1, 1, 0.8)])
    rc = simulate(corner, Physics(0.1, 1.0), Discs([[0.0, 0.0]], [[3.0, 3.0]], 0.02, 0.01))
    e0, e1 = rc.events[0], rc.events[1]
    assert e0["time"] == e1["time"] and (e0["kind"], e1["kind"]) == (WALL, WALL)
    assert (e0["b"], e1["b"]) == (0, 1)
    assert rc.final_pos[0, 0] < 1 - 0.02 and rc.final_pos[0, 1] < 1 - 0.02
    keys = [(e["time"], e["kind"], e["a"], e["b"]) for e in ev]
    assert keys == sorted(keys)
