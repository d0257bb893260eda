"""Out elements that remove a disc at contact (`out_mode="remove"`, the default) or bounce it
on as a LOST disc (`out_mode="bounce"`): analytic outcomes, validation, batch = single."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.physics import (
    DISC,
    OUT,
    POCKET,
    STATUS_LOST,
    STATUS_ON,
    STATUS_OUT,
    STATUS_POCKETED,
    Discs,
    Physics,
    Table,
    simulate,
    simulate_batch,
    trace,
)

from .conftest import PHYSICS, max_overlap
from .test_properties import _layout

MU, G = 0.1, 9.81
A = MU * G  # deceleration, m/s²
R = 0.02  # disc radius, m
LINE_Y = 0.5  # an out line across the board at y = 0.5 m


def line_table(mode, e=0.5):
    return Table.build(out_segments=[(-1.0, LINE_Y, 1.0, LINE_Y, e)], out_mode=mode)


def test_bounce_mode_reflects_with_the_element_restitution_and_marks_the_disc_lost():
    v, e = 2.0, 0.5
    d = Discs([[0.0, 0.0]], [[0.0, v]], R, 0.01)
    r = simulate(line_table("bounce", e), Physics(MU, 0.9), d)
    u = np.sqrt(v * v - 2 * A * (LINE_Y - R))  # speed at the contact
    assert [int(k) for k in r.events["kind"]] == [OUT]
    assert r.status[0] == STATUS_LOST
    assert r.final_pos[0, 1] == pytest.approx(LINE_Y - R - (e * u) ** 2 / (2 * A), abs=1e-12)
    # remove mode (the default): out at the contact point, stopped there
    k = simulate(line_table("remove", e), Physics(MU, 0.9), d)
    assert [int(x) for x in k.events["kind"]] == [OUT] and k.status[0] == STATUS_OUT
    assert k.final_pos[0, 1] == pytest.approx(LINE_Y - R, abs=1e-12)
    assert Table.build(out_segments=[(-1, LINE_Y, 1, LINE_Y)]).out_mode == "remove"


def test_a_lost_disc_comes_back_and_knocks_a_disc_at_rest():
    """Disc 0 touches the out line, comes back and hits disc 1 head-on (equal masses, e = 1):
    disc 1 leaves with disc 0's speed at the impact; disc 0 stops there, LOST."""
    v, e_w = 2.5, 0.8
    d = Discs([[0.0, 0.3], [0.0, 0.1]], [[0.0, v], [0.0, 0.0]], R, 0.01)
    ph = Physics(MU, 1.0)
    r = simulate(line_table("bounce", e_w), ph, d)
    assert [int(k) for k in r.events["kind"]] == [OUT, DISC]
    assert r.status.tolist() == [STATUS_LOST, STATUS_ON]
    u1_sq = v * v - 2 * A * (LINE_Y - R - 0.3)  # at the out line
    u2_sq = e_w**2 * u1_sq - 2 * A * (LINE_Y - R - (0.1 + 2 * R))  # at the disc
    assert r.final_pos[1, 1] == pytest.approx(0.1 - u2_sq / (2 * A), abs=1e-8)
    assert r.final_pos[0, 1] == pytest.approx(0.1 + 2 * R, abs=1e-8)
    # removed at contact, the same shot never reaches disc 1
    k = simulate(line_table("remove", e_w), ph, d)
    assert k.status.tolist() == [STATUS_OUT, STATUS_ON]
    assert np.array_equal(k.final_pos[1], [0.0, 0.1])


def test_a_lost_disc_bounces_off_every_out_element_it_touches():
    """Between two out lines a lost disc bounces back and forth: an OUT event per contact,
    each reflecting with its line's restitution, until it stops between them."""
    table = Table.build(
        out_segments=[(-1, 0.5, 1, 0.5, 0.9), (-1, -0.5, 1, -0.5, 0.9)],
        out_circles=[(3.0, 0.0, 0.1, 0.5)],
        out_mode="bounce",
    )
    r = simulate(table, Physics(MU, 0.9), Discs([[0.0, 0.0]], [[0.0, 3.0]], R, 0.01))
    assert len(r.events) >= 3 and set(r.events["kind"].tolist()) == {OUT}
    assert r.events["b"].tolist()[:3] == [0, 1, 0]
    assert r.status[0] == STATUS_LOST and abs(r.final_pos[0, 1]) < 0.5 - R
    # the speed after each contact is 0.9 times the normal speed before it
    imp = trace(table, Physics(MU, 0.9), Discs([[0.0, 0.0]], [[0.0, 3.0]], R, 0.01)).impacts
    assert np.allclose(imp[:, 7], -0.9 * imp[:, 1], rtol=1e-12, atol=0)


def test_out_circle_bounce_uses_its_own_restitution():
    table = Table.build(out_circles=[(0.0, 0.5, 0.05, 0.25)], out_mode="bounce")
    v = 2.0
    r = simulate(table, Physics(MU, 0.9), Discs([[0.0, 0.0]], [[0.0, v]], R, 0.01))
    u = np.sqrt(v * v - 2 * A * (0.5 - 0.05 - R))
    assert r.events["kind"].tolist() == [OUT] and r.events["b"].tolist() == [0]
    assert r.final_pos[0, 1] == pytest.approx(0.5 - 0.05 - R - (0.25 * u) ** 2 / (2 * A), abs=1e-12)
    assert r.status[0] == STATUS_LOST


def test_pockets_remove_at_once_in_either_mode():
    for mode in ("remove", "bounce"):
        table = Table.build(pockets=[(0.0, 0.3, 0.02)], out_segments=[(-1, 1, 1, 1, 0.5)], out_mode=mode)
        r = simulate(table, Physics(MU, 0.9), Discs([[0.0, 0.0]], [[0.0, 2.0]], R, 0.01))
        assert r.events["kind"].tolist() == [POCKET] and r.status[0] == STATUS_POCKETED


def test_table_validation_names_the_field():
    with pytest.raises(ValueError, match="Table.out_mode: expected one of remove, bounce"):
        Table.build(out_mode="vanish")
    with pytest.raises(ValueError, match="Table.out_segments: out_mode 'bounce' needs a restitution"):
        Table.build(out_segments=[(-1, 1, 1, 1)], out_mode="bounce")
    with pytest.raises(ValueError, match="Table.out_circles: out_mode 'bounce' needs a restitution"):
        Table.build(out_circles=[(0, 1, 0.1)], out_mode="bounce")
    with pytest.raises(ValueError, match=r"Table.out_segments: restitution must be in \[0, 1\]"):
        Table.build(out_segments=[(-1, 1, 1, 1, 1.5)], out_mode="bounce")
    with pytest.raises(ValueError, match="Table.out_segments: expected rows of 4 or 5 numbers"):
        Table.build(out_segments=[(-1, 1, 1)])
    with pytest.raises(ValueError, match="Discs.status"):
        Discs([[0.0, 0.0]], radius=R, mass=0.01, status=[STATUS_LOST])  # an outcome only


def test_batch_and_trace_equal_simulate_bit_for_bit_in_bounce_mode():
    table = line_table("bounce", 0.7)
    d = Discs([[0.0, 0.0], [0.05, 0.2], [-0.1, 0.35]], radius=R, mass=0.01)
    rng = np.random.default_rng(3)
    starts = np.c_[rng.uniform(-0.2, 0.2, 40), np.zeros(40)]
    vels = np.c_[rng.uniform(-0.5, 0.5, 40), rng.uniform(1.0, 3.5, 40)]
    ph = Physics(MU, 0.85)
    br = simulate_batch(table, ph, d, 0, starts, vels)
    assert (br.status == STATUS_LOST).any()
    for k in range(40):
        dk = d.copy()
        dk.pos[0], dk.vel[0] = starts[k], vels[k]
        single = simulate(table, ph, dk, record_paths=True)
        assert single.final_pos.tobytes() == br.final_pos[k].tobytes()
        assert np.array_equal(single.status, br.status[k])
        tr = trace(table, ph, dk).result
        assert tr.final_pos.tobytes() == single.final_pos.tobytes()
        assert tr.events.tobytes() == single.events.tobytes()


@settings(PHYSICS, max_examples=200)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 12), e=st.floats(0.3, 1.0), fast=st.booleans())
def test_random_layouts_with_bouncing_outs_keep_every_disc_on_the_board(seed, n, e, fast):
    """On the "outs" board (two walls, two out sides, an out line across the middle and an
    out post) with bouncing outs, nothing ever leaves the box: every disc ends ON or LOST,
    at rest, inside, with no overlap."""
    table, discs, h = _layout(seed, n, "outs", fast)
    table = Table(
        walls=table.walls,
        out_segments=np.c_[table.out_segments, np.full(3, 0.6)],
        out_circles=np.c_[table.out_circles, [0.5]],
        out_mode="bounce",
    )
    r = simulate(table, Physics(0.15, e), discs)
    assert not r.truncated
    played = discs.status == STATUS_ON
    assert np.isin(r.status[played], (STATUS_ON, STATUS_LOST)).all()
    lost_or_on = np.where(played, STATUS_ON, r.status)
    assert max_overlap(r.final_pos, discs.radius, lost_or_on) <= 1e-9
    inside = np.abs(r.final_pos[played]) <= h - discs.radius[played, None] + 1e-9
    assert inside.all()
    out_touch = set(r.events["a"][r.events["kind"] == OUT].tolist())
    assert {int(i) for i in np.flatnonzero(r.status == STATUS_LOST)} == out_touch


def test_public_names_of_the_lost_status_and_the_trace():
    import sim.physics as P

    assert P.STATUS_LOST == 3 and {"STATUS_LOST", "trace", "Trace", "IMPACT_COLUMNS"} <= set(P.__all__)
    assert len(P.IMPACT_COLUMNS) == 12
