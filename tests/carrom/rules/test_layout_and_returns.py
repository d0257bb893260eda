"""The break layout against the ICF text, and where a returned queen or coin goes.

ICF Laws of Carrom, "Break" (http://www.carrom.org/icf/?page=1&subcat=20): «the Queen shall
occupy the Centre Circle and the rest of the C/m are placed around the Queen in the first row
keeping the Black and White C/m alternately. In the second row, three white C/m will form the
shape "Y" with the while C/m in the first row. The remaining space is filled up by placing
black and white C/m alternately. All C/m so arranged, should be in compact round, touching each
other, within the Outer Circle.» And on the queen: «The Queen shall be placed by the Umpire only
in the Centre Circle. [...] If the Centre Circle is partially or completely covered by other
C/m, the Queen shall be placed so as to occupy most of the uncovered portion or in any position
adjacent to the Centre Circle».
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.carrom.rules.board import BLACK, QUEEN, WHITE, formation, geometry
from sim.physics import FORMATION_GAP_M

from ..helpers import MISS, QUEEN_ID, WHITES, board, hit, rules

R = rules()
RC = R.coins.radius
TOUCH = 2 * RC + FORMATION_GAP_M  # centre distance of touching coins in the pack


def _rings(pos, col):
    """(inner, outer): coin ids of the first and second rows, each sorted by angle."""
    dist = np.hypot(*pos.T)
    inner = [i for i in range(1, 19) if abs(dist[i] - TOUCH) < 1e-9]
    outer = [i for i in range(1, 19) if i not in inner]
    by_angle = lambda ids: sorted(ids, key=lambda i: np.arctan2(pos[i, 1], pos[i, 0]))  # noqa: E731
    return by_angle(inner), by_angle(outer)


def _alternates(colours) -> bool:
    return all(colours[k] != colours[(k + 1) % len(colours)] for k in range(len(colours)))


@pytest.mark.parametrize("quarter", [0, 1, 2, 3])
@pytest.mark.parametrize("white_y", ["stem_to_breaker", "arms_to_breaker_corners"])
def test_icf_layout_matches_the_icf_text(quarter, white_y):
    r = rules(f"formation.white_y={white_y}")
    pos, col = formation(r, quarter)
    assert col[QUEEN_ID] == QUEEN and np.allclose(pos[QUEEN_ID], 0.0)  # the queen in the centre
    assert (col == WHITE).sum() == 9 and (col == BLACK).sum() == 9
    inner, outer = _rings(pos, col)
    assert len(inner) == 6 and len(outer) == 12
    assert _alternates([col[i] for i in inner])  # first row: black and white alternately
    assert _alternates([col[i] for i in outer])  # second row: the rest filled alternately
    # every second-row coin touches the first row; the pack is compact, inside the outer circle
    gaps = np.hypot(*(pos[:, None, :] - pos[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(gaps, np.inf)
    assert gaps.min() == pytest.approx(TOUCH, abs=1e-12)
    assert all(min(gaps[o, i] for i in inner) == pytest.approx(TOUCH, abs=1e-9) for o in outer)
    assert np.hypot(*pos.T).max() + RC < r.board.outer_circle_diameter / 2
    # the "Y": three second-row whites straight behind the three first-row whites
    arms = []
    for i in inner:
        behind = [
            o for o in outer if abs(pos[i, 0] * pos[o, 1] - pos[i, 1] * pos[o, 0]) < 1e-12 and pos[i] @ pos[o] > 0
        ]
        assert len(behind) == 1
        if col[i] == WHITE:
            assert col[behind[0]] == WHITE
            arms.append(np.degrees(np.arctan2(pos[i, 1], pos[i, 0])))
    spread = sorted((a - arms[0]) % 360 for a in arms)
    assert spread == pytest.approx([0, 120, 240], abs=1e-9)
    # one arm points at the breaker's side (stem) or straight away from it
    breaker = (-90.0 + 90.0 * quarter) % 360
    target = breaker if white_y == "stem_to_breaker" else (breaker + 180.0) % 360
    assert min(abs(((a - target) + 180) % 360 - 180) for a in arms) == pytest.approx(0.0, abs=1e-9)


def test_paired_layout_pairs_the_outer_ring_colours():
    pos, col = formation(rules("formation.outer_ring=paired"))
    inner, outer = _rings(pos, col)
    ring = [int(col[i]) for i in outer]
    assert _alternates([col[i] for i in inner]) and not _alternates(ring)
    k = ring.index(WHITE) if ring[-1] != WHITE else ring.index(BLACK)  # start of a pair
    ring = ring[k:] + ring[:k]
    assert all(ring[2 * j] == ring[2 * j + 1] != ring[(2 * j + 2) % 12] for j in range(6))  # W W B B
    assert (col == WHITE).sum() == 9 and (col == BLACK).sum() == 9
    assert np.array_equal(pos, formation(rules())[0])  # same places, other colours


# ------------------------------------------------------------------ returned queen
def test_queen_returned_next_to_an_untouched_pack_goes_back_to_the_centre():
    s = board("ruleset=family")
    outer_white = WHITES[-1]  # an outer coin: the rest of the pack stays as built
    s.apply(hit(outer_white))
    assert s.apply(hit(QUEEN_ID)).queen_event == "pocketed"
    assert s.apply(MISS).queen_event == "returned"  # no cover
    assert np.hypot(*s.pos[QUEEN_ID]) < 1e-12  # exactly in the centre


def test_the_centre_hole_of_a_full_pack_is_free():
    pos, _ = formation(R)
    spot = geometry(R).free_spot((0.0, 0.0), pos[1:])  # the centre itself, not a spot beside it
    assert np.hypot(*spot) < 1e-12


def test_queen_returned_onto_a_covered_centre_touches_the_covering_coin():
    s = board("ruleset=family")
    s.pos[:] += np.array([0.0, 0.2])  # the pack moved away ...
    s.pos[WHITES[0]] = (0.004, -0.003)  # ... but a white lies on the centre circle
    s.apply(hit(WHITES[1]))
    s.apply(hit(QUEEN_ID))
    s.apply(MISS)
    q = s.pos[QUEEN_ID]
    gaps = np.hypot(*(s.pos[s.on] - q).T)
    gaps = gaps[gaps > 0]
    assert gaps.min() >= TOUCH - 1e-9  # on the board, overlapping nothing
    assert np.hypot(*(q - s.pos[WHITES[0]])) == pytest.approx(TOUCH, abs=1e-9)  # touching it
    # as near the centre as possible: on the line from the covering coin through the centre
    assert np.hypot(*q) == pytest.approx(TOUCH - np.hypot(0.004, -0.003), abs=1e-9)
    assert np.hypot(*q) - RC < R.board.centre_circle_diameter / 2  # it covers part of the circle


def test_queen_on_a_coin_exactly_at_the_centre_lands_adjacent_to_the_circle():
    geo = geometry(R)
    spot = geo.free_spot((0.0, 0.0), np.array([[0.0, 0.0]]))
    assert np.hypot(*spot) == pytest.approx(TOUCH, abs=1e-12)


coin_sets = st.lists(st.tuples(st.floats(-0.06, 0.06), st.floats(-0.06, 0.06)), min_size=1, max_size=12)


@settings(max_examples=25, deadline=None)
@given(coin_sets)
def test_free_spot_is_free_and_no_free_spot_is_nearer(coins):
    geo = geometry(R)
    others = np.array(coins, dtype=float)
    spot = geo.free_spot((0.0, 0.0), others)
    assert geo._free_mask(spot, others)[0]
    d = float(np.hypot(*spot))
    # brute force: no point of a 0.5 mm grid strictly nearer the centre is free
    g = np.arange(-d, d + 5e-4, 5e-4)
    grid = np.stack(np.meshgrid(g, g), axis=-1).reshape(-1, 2)
    nearer = grid[np.hypot(*grid.T) < d - 1e-6]
    assert not geo._free_mask(nearer, others).any()
