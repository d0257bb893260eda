"""Property tests: the 19 coins are always accounted for; the striker is always placed legally."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.carrom.match import physics_resolver
from sim.carrom.rules.board import N_COINS, QUEEN, StrokeOutcome, geometry
from sim.carrom.rules.flow import BoardState
from sim.carrom.rules.schema import SWITCHES

from ..helpers import rules

SWITCH_NAMES = sorted(SWITCHES)


def check_accounted(s: BoardState) -> None:
    """Every coin is on the board (inside, not overlapping) or pocketed and accounted for."""
    assert s.on.shape == (N_COINS,)
    assert (s.colour == 0).sum() == 9 and (s.colour == 1).sum() == 9 and (s.colour == QUEEN).sum() == 1
    off = ~s.on
    coins_off = off & (s.colour != QUEEN)
    assert np.all(s.credit[coins_off] >= 0)  # a pocketed coin counts for someone
    assert np.all(s.credit[s.on] == -1)
    queen_off = bool(off[0])
    assert queen_off == (s.queen_state in ("pending", "covered"))
    assert int(s.on.sum()) + int(coins_off.sum()) + int(queen_off) == N_COINS
    p = s.pos[s.on]
    lim = s.geo.half - s.geo.rc + 1e-9
    assert np.all(np.abs(p) <= lim)
    if len(p) > 1:
        d = np.hypot(*(p[:, None, :] - p[None, :, :]).transpose(2, 0, 1))
        np.fill_diagonal(d, np.inf)
        assert d.min() >= 2 * s.geo.rc - 1e-6
    assert all(o >= 0 for o in s.owed)
    assert all(0 <= x for x in s.points)
    if not s.three:
        assert max(s.points) <= s.rules.scoring.max_board_points


strokes = st.lists(
    st.tuples(st.sets(st.integers(0, N_COINS - 1), max_size=4), st.booleans(), st.booleans()), min_size=1, max_size=60
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n_seats=st.sampled_from([2, 3, 4]),
    ruleset=st.sampled_from(["family", "icf"]),
    flips=st.lists(st.sampled_from(SWITCH_NAMES), max_size=4, unique=True),
    script=strokes,
    seed=st.integers(0, 1000),
)
def test_scripted_strokes_keep_all_19_coins_accounted(n_seats, ruleset, flips, script, seed):
    base = rules(f"ruleset={ruleset}").switches
    overrides = [f"ruleset={ruleset}"] + [f"rules.{n}={str(not getattr(base, n)).lower()}" for n in flips]
    s = BoardState(rules(*overrides), n_seats, seed % n_seats, rng=np.random.default_rng(seed))
    check_accounted(s)
    for fell, striker, touched in script:
        if s.over:
            break
        order = sorted(c for c in fell if s.on[c])
        s.apply(StrokeOutcome(pocketed=tuple(order), striker_pocketed=striker, touched=touched or bool(order)))
        check_accounted(s)
        assert 0 <= s.turn < n_seats


coin_xy = st.tuples(st.floats(-0.34, 0.34), st.floats(-0.34, 0.34))


@settings(max_examples=200, deadline=None)
@given(coins=st.lists(coin_xy, max_size=19), x=st.floats(-0.4, 0.4), near=st.lists(st.floats(-0.25, 0.25), max_size=6))
def test_striker_is_always_placed_legally(coins, x, near):
    geo = geometry(rules())
    pts = [c for c in coins] + [(nx, geo.striker_y + 0.01) for nx in near]
    arr = np.array(pts, dtype=float).reshape(-1, 2)
    placed = geo.place_striker(x, arr)
    if placed is None:
        assert geo.free_intervals(arr) == []
    else:
        assert geo.striker_is_legal(placed, arr)
        # nearest legal spot: no legal free point closer to x
        for lo, hi in geo.free_intervals(arr):
            assert abs(min(max(x, lo), hi) - x) >= abs(placed - x) - 1e-12


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ruleset=st.sampled_from(["family", "icf"]),
    n_seats=st.sampled_from([2, 4]),
    shots=st.lists(st.tuples(st.floats(-0.25, 0.25), st.floats(-85, 85), st.floats(0.3, 6.0)), min_size=1, max_size=12),
)
def test_physics_strokes_keep_all_19_coins_accounted(ruleset, n_seats, shots):
    s = BoardState(rules(f"ruleset={ruleset}"), n_seats, 0, rng=np.random.default_rng(1))
    geo = s.geo
    for x, angle, speed in shots:
        if s.over:
            break
        seat = s.turn
        local = geo.to_local(n_seats, seat, s.pos[s.on])
        placed = geo.place_striker(x, local)
        assert placed is not None and geo.striker_is_legal(placed, local)
        s.apply(physics_resolver(s, seat, placed, angle, speed))
        check_accounted(s)
