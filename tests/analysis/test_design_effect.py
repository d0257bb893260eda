"""Seat intervals under seat rotation against a known truth: the design effect the data show.

The model and the grid are in :mod:`tests.analysis.seat_rotation_truth` (which prints the whole
grid); these tests run cells of it whose truth is exact (seat 0's rate is 1/S without advantage,
or a Gauss–Hermite integral at the band's edge).
"""

import numpy as np
import pytest

from analysis.fairness import lineup_matches_needed, seat_fairness
from analysis.winrates import seat_win_rates
from sim.core.estimators import design_effect, design_effects, small_sample_factor, wilson_interval
from tests.analysis.seat_rotation_truth import (
    Design,
    advantage_for,
    advised_power,
    joint_intervals,
    measure,
    paired_effect,
    per_seat_interval,
    play,
    players_table,
    seat_counts,
    tost_p,
    true_rate,
    winners,
)

REPS = 2000  # coverage to ±0.01 (two standard errors)


@pytest.mark.parametrize(
    "design",
    [
        Design(2, 100, 0.0, "negative"),
        Design(3, 100, 0.0, "positive"),
        Design(4, 300, 0.0, "negative"),
        Design(4, 30, 0.0, "none"),
        Design(2, 1000, 0.0, "positive"),
    ],
    ids=str,
)
def test_seat_intervals_keep_their_level_and_are_as_wide_as_the_estimate_spreads(design):
    r = measure(design, 1.0 / design.seats, REPS, seed=design.seeds + design.seats)
    assert 0.935 <= r.coverage <= 0.965
    assert 0.90 <= r.width <= 1.10
    assert r.joint_coverage >= 0.95 - 0.01  # Bonferroni–Clopper–Pearson: at least its level
    # exact (Clopper–Pearson) bounds are wider than normal ones at small counts: 120 matches here
    assert r.joint_width <= (1.10 if design.seeds >= 100 else 1.15)


def test_a_negative_within_seed_correlation_narrows_the_interval_where_clipping_at_1_did_not():
    design = Design(2, 300, 0.0, "negative")
    c = seat_counts(play(design, REPS, np.random.default_rng(1)))
    assert np.median(c["deff"][:, 0]) < 0.5  # a lucky player takes both seats in turn
    sd = c["p"][:, 0].std()
    low, high = per_seat_interval(c)
    clipped = np.maximum(c["deff"], 1.0) * small_sample_factor(c["groups"], 0.025)
    old_low, old_high = wilson_interval(c["k"] / clipped, c["n"] / clipped)
    assert np.mean(high - low)[()] / (2 * 1.96 * sd) == pytest.approx(1.0, abs=0.1)
    assert np.mean(old_high[:, 0] - old_low[:, 0]) / (2 * 1.96 * sd) > 1.4  # the width this replaces
    assert np.mean((old_low[:, 0] <= 0.5) & (0.5 <= old_high[:, 0])) > 0.99


def test_the_report_tables_use_exactly_these_bounds():
    design = Design(3, 40, advantage_for(3, 0.4, "negative"), "negative")
    won = winners(design, 1, np.random.default_rng(2))
    c = seat_counts((won[..., None] == np.arange(3)).sum(axis=2))
    players = players_table(won[0])
    per_seat = seat_win_rates(players, simultaneous=False)
    np.testing.assert_allclose(per_seat["design_effect"], c["deff"][0])
    np.testing.assert_allclose(per_seat[["ci_low", "ci_high"]].to_numpy().T, np.stack(per_seat_interval(c))[:, 0])
    joint = seat_win_rates(players)
    np.testing.assert_allclose(joint[["ci_low", "ci_high"]].to_numpy().T, np.stack(joint_intervals(c))[:, 0])
    fair = seat_fairness(players, margin=0.1)
    np.testing.assert_allclose(fair["p_tost"], tost_p(c, 0.1)[0])


@pytest.mark.parametrize("seats, correlation", [(2, "negative"), (4, "positive"), (3, "none")])
def test_tost_at_the_band_edge_is_shown_fair_at_most_alpha_of_the_time(seats, correlation):
    edge = 1.0 / seats + 0.05
    advantage = advantage_for(seats, edge, correlation)
    assert true_rate(seats, advantage, correlation) == pytest.approx(edge, abs=1e-8)
    c = seat_counts(play(Design(seats, 300, advantage, correlation), REPS, np.random.default_rng(seats)))
    type_one = np.mean(tost_p(c, 0.05)[:, 0] < 0.05)
    assert type_one <= 0.05 + 0.01  # two standard errors of 2,000 replicates
    assert type_one >= 0.02  # and not bought by an interval wider than the data need


@pytest.mark.parametrize("correlation", ["negative", "positive"])
def test_at_the_advised_matches_a_fair_lineup_is_shown_fair_80_percent_of_the_time(correlation):
    needed, deff, shown = advised_power(2, correlation, 0.05, REPS)
    independent = lineup_matches_needed(2, 0.05)
    if correlation == "negative":  # deff ≈ 0.4: fewer than half the matches of independent ones
        assert deff < 0.5 and needed < independent / 2
    else:
        assert deff > 1.2 and needed > independent
    assert 0.77 <= shown <= 0.90


@pytest.mark.parametrize("seats, correlation, seeds", [(2, "negative", 300), (4, "positive", 100)])
def test_paired_effects_on_a_seat_rate_keep_their_level(seats, correlation, seeds):
    r = paired_effect(seats, correlation, 0.5, seeds, 1000)
    assert r["truth"] > 0.04
    assert 0.93 <= r["coverage"] <= 0.97  # two standard errors of 1,000 data sets
    assert r["width"] <= 1.15


def test_design_effect_floor_and_undefined_cases():
    # every seed gives seat 0 one win in two: no variation between seeds, deff at its floor 1/G
    assert design_effect(np.ones(50), np.full(50, 2.0)) == pytest.approx(1 / 50)
    assert design_effect(np.zeros(5), np.full(5, 2.0)) == 1.0  # p̂ = 0: not estimable
    assert design_effect(np.array([1.0, 0, 1]), np.ones(3)) == 1.0  # one trial per cluster: binomial
    assert design_effects([0.0], [10.0], [0.5], [1], [10]) == 1.0  # a single cluster
    assert small_sample_factor(10, 0.025) == pytest.approx((2.2622 / 1.96) ** 2, rel=1e-4)
    assert small_sample_factor(10, 0.025, estimated=False) == 1.0
