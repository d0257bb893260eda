"""Staged validation: stop as soon as decided, each stage a look, the directory's α kept.

The candidates' fresh-seed tables are synthetic with a known truth (tests/balance/synthetic.py),
so the error rates are checked against it.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis.balance.validation import plan_stages, validate

from .synthetic import balance_file, candidate, synthetic_play


def run(balance, out, truth, replicate=0, trial=None, counter=None):
    trial = trial or candidate(balance, 0.5, 0.001)
    return validate(balance, out, [trial], jobs=1, backend="sequential", play=synthetic_play(truth, replicate, counter))


def test_the_first_stage_is_the_size_the_in_sample_interval_predicts_then_doubling(tmp_path):
    balance = balance_file(tmp_path, matches=8000, stages=4)
    alpha = 0.05 / 3
    # a tight in-sample interval: the smallest stage allowed, 8000 / 2^3
    assert plan_stages(balance, candidate(balance, 0.5, 0.001), alpha) == [1000, 2000, 4000, 8000]
    # 400 in-sample matches, 90 % half-width 0.041: TOST power 0.8 at margin 0.03 needs ~2,430
    assert plan_stages(balance, candidate(balance, 0.5, 0.041), alpha) == [2500, 5000, 8000]
    assert plan_stages(balance, candidate(balance, 0.5, 0.2), alpha) == [8000]
    # no interval stored (an older trial): the largest; outside the band in sample: from the cheapest
    assert plan_stages(balance, candidate(balance, 0.5), alpha) == [8000]
    assert plan_stages(balance, candidate(balance, 0.6, 0.01), alpha) == [1000, 2000, 4000, 8000]
    assert plan_stages(balance_file(tmp_path, matches=2000, stages=1), candidate(balance, 0.5, 0.001), alpha) == [2000]


def test_a_clear_candidate_is_claimed_at_the_first_stage_with_its_matches_only(tmp_path):
    balance = balance_file(tmp_path, matches=8000, stages=3)  # 2000, 4000, 8000 (a tight in-sample CI)
    played: list[int] = []
    summary = run(balance, tmp_path / "out", {"l0": 0.5}, counter=played)
    assert summary["meets_all_targets"] and summary["look"] == 1 and played == [2000]
    looks = json.loads((tmp_path / "out" / "looks.json").read_text())["looks"]
    assert [(x["look"], x["matches"], x["stage"]) for x in looks] == [(1, 2000, 1)]
    assert summary["best"]["targets"][0]["alpha"] == pytest.approx(0.05 / 3)


def test_an_undecided_stage_goes_on_on_the_same_seeds_each_stage_a_look(tmp_path):
    balance = balance_file(tmp_path, matches=4000, stages=3)  # 1000, 2000, 4000
    played: list[int] = []
    run(balance, tmp_path / "out", {"l0": 0.517}, replicate=1, counter=played)
    looks = json.loads((tmp_path / "out" / "looks.json").read_text())["looks"]
    assert len(looks) >= 2, looks
    assert [x["matches"] for x in looks] == [1000, 2000, 4000][: len(looks)]
    assert [x["alpha"] for x in looks] == pytest.approx([0.05 / 3] * len(looks))
    assert sum(played) == looks[-1]["matches"]  # a larger stage plays only the matches it adds
    assert all(not x["meets_all_targets"] for x in looks[:-1])


def test_a_candidate_shown_outside_its_band_stops_the_validation(tmp_path):
    balance = balance_file(tmp_path, matches=4000, stages=3)
    played: list[int] = []
    summary = run(balance, tmp_path / "out", {"l0": 0.62}, trial=candidate(balance, 0.5, 0.001), counter=played)
    assert summary["shown_unmet"] and not summary["meets_all_targets"] and played == [1000]
    assert summary["best"]["targets"][0]["ci_low"] > 0.53


def test_a_rerun_reuses_the_stored_looks_and_checks(tmp_path):
    balance = balance_file(tmp_path, matches=4000, stages=3)
    first = run(balance, tmp_path / "out", {"l0": 0.517}, replicate=1)

    def refuse(*args, **kwargs):
        raise AssertionError("a stored check was played again")

    again = validate(
        balance, tmp_path / "out", [candidate(balance, 0.5, 0.001)], jobs=1, backend="sequential", play=refuse
    )
    assert again["look"] == first["look"] and again["best"]["targets"] == first["best"]["targets"]
    assert len(json.loads((tmp_path / "out" / "looks.json").read_text())["looks"]) == first["look"]


def _claim_rate(tmp_path, truth, reps, stages, matches, in_sample=0.5, half_width=0.001):
    tmp_path.mkdir(parents=True, exist_ok=True)
    balance = balance_file(tmp_path, lineups=len(truth), matches=matches, stages=stages)
    claims, played = 0, []
    for rep in range(reps):
        out = tmp_path / f"rep{rep}"
        summary = run(
            balance, out, truth, replicate=rep, trial=candidate(balance, in_sample, half_width), counter=played
        )
        claims += summary["meets_all_targets"]
    return claims / reps, sum(played) / reps


def _limit(rate: float, reps: int) -> float:
    return rate + 3 * np.sqrt(rate * (1 - rate) / reps)


@pytest.mark.slow
def test_stages_keep_the_false_met_rate_of_a_candidate_on_the_band_edge_below_alpha(tmp_path):
    """Three nested stages on a candidate whose truth is the band's edge (0.53): ≤ α = 0.05."""
    reps = 300  # MC SE of a rate near 0.05: 0.0126
    rate, _ = _claim_rate(tmp_path, {"l0": 0.53}, reps, stages=3, matches=4000)
    assert rate <= _limit(0.05, reps), rate


@pytest.mark.slow
def test_stages_spend_fewer_matches_than_the_largest_size_for_the_same_power(tmp_path):
    """A truly fair candidate (0.5) with a realistic in-sample interval (400 matches): claimed as
    often as with one validation of 4,000 matches, for fewer matches (stages 2,500 then 4,000).
    Both runs play the same replicates (common draws), so the claim rates differ only where the
    staged run claims at 2,500 or stops there for futility: a small sample tells them apart."""
    reps = 60
    staged, staged_matches = _claim_rate(tmp_path / "s", {"l0": 0.5}, reps, stages=3, matches=4000, half_width=0.041)
    single, single_matches = _claim_rate(tmp_path / "one", {"l0": 0.5}, reps, stages=1, matches=4000, half_width=0.041)
    assert single_matches == 4000 and staged_matches < 0.85 * single_matches, (staged_matches, single_matches)
    assert staged >= single - 0.05, (staged, single)
