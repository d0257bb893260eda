"""Seat fairness: TOST against scipy's exact tests, the sample-size formula, verdicts."""

import numpy as np
import pytest
from scipy import stats

from analysis.fairness import cell_verdict, matches_for_equivalence, omnibus_test, seat_fairness, tost_rate

from .toydata import bernoulli_players, one_winner


@pytest.mark.parametrize("k", [400, 470, 500, 530, 560])
def test_tost_is_two_exact_binomial_tests_and_the_90_percent_clopper_pearson_inside_the_band(k):
    n, low, high = 1000, 0.45, 0.55
    result = tost_rate(k, n, low, high, alpha=0.05)
    assert result["p_low"] == stats.binomtest(k, n, low, alternative="greater").pvalue
    assert result["p_high"] == stats.binomtest(k, n, high, alternative="less").pvalue
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.90, method="exact")
    assert result["equivalent"] == (low < ci.low and ci.high < high)


def test_tost_with_a_design_effect_uses_the_effective_sample_size():
    plain = tost_rate(500, 1000, 0.45, 0.55)
    clustered = tost_rate(500, 1000, 0.45, 0.55, design_eff=4.0)
    expected = stats.norm.sf((0.5 - 0.45) / np.sqrt(0.45 * 0.55 / (1000 / 4)))
    assert clustered["p_low"] == pytest.approx(expected)
    assert plain["equivalent"] and not clustered["equivalent"]


def test_matches_for_equivalence_reproduces_the_stats_note_table():
    # research/stats.md §3: TOST within ±2 points, power .8: 5353 at p = .5, 4015 at p = .25
    assert matches_for_equivalence(0.5, 0.02) == 5353
    assert matches_for_equivalence(0.25, 0.02) == 4015
    z = stats.norm.ppf(0.95) + stats.norm.ppf(0.9)
    assert matches_for_equivalence(0.25, 0.02, design_eff=2.0) == int(np.ceil(z**2 * 0.1875 / 0.0004 * 2))


def _verdict(probabilities, matches, seed=0, **kwargs):
    players = bernoulli_players(one_winner(matches, probabilities, np.random.default_rng(seed)))
    seats = seat_fairness(players, **kwargs)
    return seats, cell_verdict(seats)


def test_verdicts_fair_unfair_bias_inconclusive():
    seats, verdict = _verdict([1 / 3] * 3, 60000)
    assert verdict == "fair" and (seats["verdict"] == "fair").all()
    assert _verdict([0.45, 0.30, 0.25], 3000)[1] == "unfair"
    assert _verdict([0.345, 0.33, 0.325], 200000, margin=0.02)[1] == "fair"  # biased, but inside the band
    assert _verdict([0.36, 0.33, 0.31], 5000, margin=0.02)[1] == "small bias"
    exactly_even = np.tile(np.eye(3, dtype=int), (100, 1))  # 100 wins per seat out of 300
    seats = seat_fairness(bernoulli_players(exactly_even))
    assert cell_verdict(seats) == "inconclusive"
    assert seats["matches_needed"].iloc[0] == matches_for_equivalence(1 / 3, 0.02)


def test_shares_are_over_decided_matches_and_mixed_lineups_are_not_judged():
    wins = one_winner(1000, [0.5, 0.5], np.random.default_rng(4))
    wins[:200] = 0  # 200 matches without a winner
    seats = seat_fairness(bernoulli_players(wins))
    assert seats["decided"].tolist() == [800, 800]
    assert seats["share"].sum() == pytest.approx(1.0)
    skipped = seat_fairness(bernoulli_players(wins), applicable={("baseline", "x"): False})
    assert (skipped["verdict"] == "not applicable").all()


def test_omnibus_is_scipy_chisquare_without_clustering():
    seats, _ = _verdict([0.4, 0.3, 0.3], 900, seed=3)
    assert omnibus_test(seats) == pytest.approx(stats.chisquare(seats["wins"]).pvalue)
