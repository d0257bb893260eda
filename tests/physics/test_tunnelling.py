"""No tunnelling at 10 m/s: times of impact are solved, never stepped."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.physics import DISC, STATUS_ON, WALL, Discs, Physics, Table, heading, simulate
from sim.physics import scenes as S

from .conftest import PHYSICS, max_overlap

V = 10.0  # m/s, well above the hardest flick (carrom striker.max_speed 6 m/s)


@settings(PHYSICS, max_examples=1000)
@given(
    r_move=st.floats(0.003, 0.03),
    r_target=st.floats(0.002, 0.02),
    dist=st.floats(0.05, 1.0),
    b_frac=st.floats(-1.5, 1.5),
    angle=st.floats(0, 360),
    mu=st.floats(0.05, 0.3),
)
def test_fast_disc_never_tunnels_through_a_disc(r_move, r_target, dist, b_frac, angle, mu):
    rr = r_move + r_target
    if abs(abs(b_frac) - 1.0) < 1e-6:
        return  # exact graze: either answer is right
    u = heading(angle)
    perp = np.array([-u[1], u[0]])
    target = dist * u + b_frac * rr * perp  # impact parameter b_frac·(r1 + r2)
    d = Discs([[0.0, 0.0], target], [V * u, [0.0, 0.0]], [r_move, r_target], [0.015, 0.0055])
    r = simulate(Table(), Physics(mu, 0.9), d)
    hit = r.n_events > 0 and r.events[0]["kind"] == DISC
    assert hit == (abs(b_frac) < 1.0)
    assert max_overlap(r.final_pos, d.radius, r.status) <= 1e-9


@settings(PHYSICS, max_examples=1000)
@given(
    wall_angle=st.floats(0, 180),
    incidence=st.floats(-85.0, 85.0),
    dist=st.floats(0.001, 1.0),
    r=st.floats(0.003, 0.03),
    e_w=st.floats(0.0, 1.0),
)
def test_fast_disc_never_tunnels_through_a_wall(wall_angle, incidence, dist, r, e_w):
    t = heading(wall_angle, forward=(1.0, 0.0))  # wall direction
    n = np.array([-t[1], t[0]])  # wall normal; the disc starts on the +n side
    wall = (*(-100 * t), *(100 * t), e_w)
    start = (r + dist) * n
    u = heading(incidence, forward=-n)  # toward the wall, up to 85° from the normal
    res = simulate(Table.build(walls=[wall]), Physics(0.1, 0.9), Discs([start], [V * u], r, 0.01), record_paths=True)
    assert res.events[0]["kind"] == WALL
    side = res.paths[0][:, 1:] @ n  # signed distance of every vertex from the wall line
    assert np.all(side >= r - 1e-9)


@settings(PHYSICS, max_examples=100)
@given(angle=st.floats(0, 360), x=st.floats(-0.05, 0.05), y=st.floats(-0.05, 0.05), e_w=st.floats(0.9, 1.0))
def test_fast_disc_stays_in_a_small_box(angle, x, y, e_w):
    """10 m/s in a 0.2 m box at μ = 0.05: dozens to hundreds of cushion hits."""
    h = 0.1
    walls = [(-h, -h, h, -h, e_w), (h, -h, h, h, e_w), (h, h, -h, h, e_w), (-h, h, -h, -h, e_w)]
    r = 0.02
    res = simulate(
        Table.build(walls=walls), Physics(0.05, 0.9), Discs([[x, y]], [V * heading(angle)], r, 0.01), record_paths=True
    )
    assert not res.truncated and res.n_events > 10
    assert np.all(np.abs(res.paths[0][:, 1:]) <= h - r + 1e-9)


def test_fast_striker_into_the_pack():
    table = S.carrom_table()
    for x, ang in [(0.0, 0.0), (0.013, 0.7), (-0.05, -4.0), (0.2, -25.0)]:
        d = S.carrom_break(speed=V, striker_x=x, angle_deg=ang)
        res = simulate(table, S.CARROM_PHYSICS, d)
        assert not res.truncated
        assert max_overlap(res.final_pos, d.radius, res.status) <= 1e-9
        on = res.status == STATUS_ON
        assert np.all(np.abs(res.final_pos[on]) <= S.CARROM_HALF - d.radius[on, None] + 1e-9)
