"""The broad phase (throws that touch nothing, settled without the engine) and the compiled
calls of the engine in the Arena (sim.curlastique.rules.settling) give exactly what the engine gives
on its own."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core.rules import load_rules
from sim.curlastique import GAME
from sim.curlastique.rules.board import arena, discs_for, launch_velocity, physics, simulate_throws, table
from sim.curlastique.rules.flight import free_flights, launch_velocity_of
from sim.physics import STATUS_ON, heading, simulate_batch

VARIANTS = (
    [],
    ["out.rim=false", "out.corners=false"],
    ["out.lost_puck=removed"],
    ["out.pegs=false", "out.elastic=false"],
    ["board.corner_size=0"],
)


def engine_only(rules, pos, owner, seat, x, angle, speed):
    """Every throw through simulate_batch on a fresh Discs (what simulate_throws did before)."""
    blocked = ~np.isfinite(x)
    discs = discs_for(rules, pos, owner, seat)
    mover = discs.n - 1
    starts = np.column_stack(
        [np.where(blocked, discs.pos[mover, 0], x), np.where(blocked, discs.pos[mover, 1], rules.launch_y)]
    )
    vel = launch_velocity(angle, np.where(blocked, 0.0, speed))
    result = simulate_batch(table(rules), physics(rules), discs, mover, starts, vel)
    on = result.status == STATUS_ON
    on[blocked, mover] = False
    return result.final_pos, on


def board(seed, m):
    """``m`` non-overlapping pucks on the board (some near the start line), random owners."""
    rng = np.random.default_rng(seed)
    pos = []
    while len(pos) < m:
        p = np.array([rng.uniform(-0.23, 0.23), rng.uniform(0.12, 0.98)])
        if all(np.hypot(*(p - q)) > 0.035 for q in pos):
            pos.append(p)
    return np.array(pos).reshape(-1, 2), rng.integers(0, 3, m)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), m=st.integers(0, 10), variant=st.sampled_from(range(len(VARIANTS))))
def test_the_arena_settles_every_throw_as_the_engine_alone(seed, m, variant):
    rules = load_rules(GAME, None, VARIANTS[variant])
    pos, owner = board(seed, m)
    rng = np.random.default_rng(seed + 1)
    k = 48
    x = rng.uniform(-0.19, 0.19, k)
    angle = rng.uniform(-35.0, 35.0, k)
    speed = np.r_[rng.uniform(0.0, 1.0, k // 2), rng.uniform(1.0, 3.0, k - k // 2)]
    x[:2], speed[2:4] = np.nan, 0.0  # blocked starts, throws that do not move
    expected = engine_only(rules, pos, owner, 1, x, angle, speed)
    got = simulate_throws(rules, pos, owner, 1, x, angle, speed)
    assert np.array_equal(got[0], expected[0]) and np.array_equal(got[1], expected[1])


def test_the_broad_phase_settles_lone_draws_and_leaves_contacts_to_the_engine():
    rules = load_rules(GAME)
    a = arena(rules)
    pos = np.array([[0.0, 0.75]])
    speeds = np.array([1.0, 1.38, 1.6, 2.9])  # short, on the centre (touching), past it, into the rim
    starts = np.column_stack([np.full(4, 0.1), np.full(4, rules.launch_y)])  # beside the puck: free
    starts[1:, 0] = 0.0  # straight at it
    vel = launch_velocity(np.zeros(4), speeds)
    free, rest, hit_starts, _ = free_flights(pos, starts, vel, a.deceleration, a.radius, a.edges, a.circles, a.parked)
    assert free.tolist() == [True, False, False, False] and len(hit_starts) == 3
    reach = speeds[0] ** 2 / (2 * a.deceleration)
    assert rest[0] == pytest.approx([0.1, rules.launch_y + reach], abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(angle=st.floats(-80.0, 80.0), speed=st.floats(0.0, 3.0))
def test_the_compiled_launch_velocity_is_the_engines_heading(angle, speed):
    expected = heading(angle) * speed
    assert launch_velocity_of(angle, speed) == (expected[0], expected[1])


def test_no_state_carries_between_boards():
    rules = load_rules(GAME)
    first, second = board(1, 4), board(2, 4)
    x, angle, speed = np.zeros(8), np.linspace(-10, 10, 8), np.full(8, 1.5)
    for pos, owner in (first, second, first):
        assert np.array_equal(
            simulate_throws(rules, pos, owner, 0, x, angle, speed)[0],
            engine_only(rules, pos, owner, 0, x, angle, speed)[0],
        )


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), m=st.integers(0, 10), variant=st.sampled_from(range(len(VARIANTS))))
def test_a_real_throw_lands_as_the_arena_settles_it(seed, m, variant):
    """Arena.throw (one compiled call: launch velocity, broad phase, engine) = settle of one throw."""
    rules = load_rules(GAME, None, VARIANTS[variant])
    pos, owner = board(seed, m)
    rng = np.random.default_rng(seed + 2)
    for x, angle, speed in zip(rng.uniform(-0.19, 0.19, 6), rng.uniform(-35.0, 35.0, 6), rng.uniform(0.0, 3.0, 6)):
        final, on = arena(rules).throw(pos, owner, 1, float(x), float(angle), float(speed))
        expected = simulate_throws(rules, pos, owner, 1, [x], [angle], [speed])
        assert np.array_equal(final, expected[0][0]) and np.array_equal(on, expected[1][0])


def test_the_engine_time_of_compiled_calls_is_counted():
    """settling.engine_batch reads the CPU clock around the engine: sim.physics.engine_seconds grows."""
    import sys

    from sim.physics import engine_seconds

    if sys.platform not in ("linux", "darwin"):
        pytest.skip("no process CPU clock for compiled code on this platform")
    rules = load_rules(GAME)
    pos, owner = board(3, 8)
    before = engine_seconds()
    for _ in range(30):
        simulate_throws(rules, pos, owner, 0, np.zeros(16), np.linspace(-20, 20, 16), np.full(16, 1.6))
    assert engine_seconds() > before
