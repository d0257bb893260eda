"""Zone scoring and the three line rules, at and around every boundary."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.curlastique.rules.schema import ZoneRules
from sim.curlastique.rules.scoring import Scorer

R = 0.0175
CY = 0.75
EPS = 1e-6


def points(rule, d, direction=(0.0, 1.0), values=(100, 80, 40, 20), radii=(0.04, 0.08, 0.13, 0.19)):
    s = Scorer(ZoneRules(values=values, radii=radii, line_rule=rule), R)
    ux, uy = np.array(direction) / math.hypot(*direction)
    return int(s.points(np.array([d * ux, CY + d * uy])))


DIRECTIONS = [(0, 1), (1, 0), (-1, -1), (0.3, -0.7)]


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_lower_rule_smallest_ring_fully_containing_the_puck(direction):
    p = lambda d: points("lower", d, direction)  # noqa: E731
    assert p(0.0) == 100
    assert p(0.04 - R) == 100  # tangent inside ring 1: fully contained
    assert p(0.04 - R + EPS) == 80  # on the 100/80 line: the lower zone
    assert p(0.04) == 80 and p(0.04 + R) == 80
    assert p(0.08 - R) == 80 and p(0.08 - R + EPS) == 40
    assert p(0.13 - R + EPS) == 20
    assert p(0.19 - R) == 20  # tangent inside the last ring
    assert p(0.19 - R + EPS) == 0  # overlapping the outer edge counts 0
    assert p(0.19) == 0 and p(0.3) == 0


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_higher_rule_best_ring_the_puck_touches(direction):
    p = lambda d: points("higher", d, direction)  # noqa: E731
    assert p(0.04 + R - EPS) == 100  # still overlapping the 100 ring
    assert p(0.04 + R) == 80  # tangent outside ring 1: does not touch it
    assert p(0.08 + R - EPS) == 80 and p(0.08 + R) == 40
    assert p(0.19 + R - EPS) == 20  # overlapping the outer edge still scores 20
    assert p(0.19 + R) == 0


@pytest.mark.parametrize("direction", DIRECTIONS)
def test_centre_rule_ring_holding_the_centre_and_a_centre_on_a_line_counts_lower(direction):
    p = lambda d: points("centre", d, direction)  # noqa: E731
    assert p(0.04 - EPS) == 100
    assert p(0.04) == 80  # centre exactly on the line
    assert p(0.04 + EPS) == 80
    assert p(0.13) == 20 and p(0.19 - EPS) == 20
    assert p(0.19) == 0


def test_rules_agree_when_a_puck_crosses_no_line():
    for d in (0.0, 0.06, 0.105, 0.16, 0.25):
        assert points("lower", d) == points("higher", d) == points("centre", d)


def test_arbitrary_values_take_the_lowest_or_highest_zone_overlapped():
    values = (40, 100, 20, 80)
    assert points("lower", 0.04, values=values) == 40  # on the 40 | 100 line
    assert points("higher", 0.04, values=values) == 100
    assert points("lower", 0.0, values=values) == 40
    assert points("lower", 0.19, values=values) == 0  # over the outer edge
    assert points("higher", 0.19, values=values) == 80
    assert points("centre", 0.08, values=values) == 20  # centre on the 100 | 20 line
    # a puck wider than several rings: the minimum / maximum over all the zones it covers
    thin = dict(values=(10, 50, 30, 5), radii=(0.01, 0.02, 0.03, 0.2))
    assert points("lower", 0.02, **thin) == 5 and points("higher", 0.02, **thin) == 50


def test_vectorised_shapes_and_out_mask():
    s = Scorer(ZoneRules(), R)
    pos = np.zeros((3, 4, 2))
    pos[..., 1] = CY
    pos[1, :, 0] = 0.06
    on = np.ones((3, 4), bool)
    on[2, 1] = False
    pts = s.points(pos, on)
    assert pts.shape == (3, 4) and pts.dtype == np.int64
    assert (pts[0] == 100).all() and (pts[1] == 80).all() and pts[2].tolist() == [100, 0, 100, 100]


@given(st.floats(0.0, 0.3), st.floats(0.0, 2 * math.pi), st.sampled_from(["lower", "higher", "centre"]))
def test_scores_are_zone_values_and_monotone_rules_order(d, phi, rule):
    value = points(rule, d, (math.sin(phi), math.cos(phi)))
    assert value in (100, 80, 40, 20, 0)
    lo, hi = points("lower", d, (math.sin(phi), math.cos(phi))), points("higher", d, (math.sin(phi), math.cos(phi)))
    assert lo <= value <= hi
