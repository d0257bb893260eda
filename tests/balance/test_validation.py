"""Balance validation against a known truth: seat rotation and repeated looks.

Candidates whose true value sits exactly on the edge of a target's band must be declared
"meets every target" at most α of the time. Each data set is built by ``rotation_tables``: a
profile's result is identical across the rotations of a seed (design effect = seats), which
the validation used to ignore (15.6 % false "met" with 2 seats, 22.1 % with 4).
"""

import numpy as np
import pytest

from analysis.balance.looks import Ledger, load_ledger
from analysis.balance.targets import Target, check_tables, measure_all
from analysis.distributions import length_distribution
from analysis.winrates import profile_win_rates
from tests.analysis.toydata import rotation_tables

#: data sets per simulated rate: MC standard error of a rate near 0.05 is about 0.011, so a
#: bound of three of them (0.083) still tells α = 0.05 from the 0.156 of the unclustered check
REPS = 400


def _limit(rate: float = 0.05, reps: int = REPS) -> float:
    """Nominal rate plus three Monte Carlo standard errors (several such bounds are asserted)."""
    return rate + 3 * np.sqrt(rate * (1 - rate) / reps)


def _unclustered(tables):
    """The same tables with the seeds forgotten (a validation that ignores the clusters)."""
    return {name: frame.drop(columns=["seed"], errors="ignore") for name, frame in tables.items()}


@pytest.mark.slow
@pytest.mark.parametrize("seats, p_focal", [(2, 0.55), (4, 0.30)])
def test_validation_under_rotation_keeps_its_false_met_rate_at_alpha(seats, p_focal):
    """Edge candidates under rotation, 2 and 4 seats: false "meets all" ≤ 0.05.

    Two candidates per data set: one whose profile win rate sits on its band's upper edge, one
    whose mean length does (a target that is false "met" makes "meets all" false too, so each
    edge is checked alone: the sharpest case).
    """
    rng = np.random.default_rng(seats)
    rate_edge = [Target(metric="profile_win_rate", profile="focal", low=p_focal - 0.1, high=p_focal)]
    length_edge = [Target(metric="rounds_mean", low=6.0 - 1, high=6.0)]  # true mean 2 + 4
    met = {"rate": 0, "length": 0, "rate, seeds ignored": 0}
    for rep in range(REPS):
        tables = rotation_tables(600 // seats * 2, seats, p_focal, rng)
        met["rate"] += check_tables(rate_edge, tables)[0]["met"]
        met["length"] += check_tables(length_edge, tables, bootstrap=200, seed=rep)[0]["met"]
        met["rate, seeds ignored"] += check_tables(rate_edge, _unclustered(tables))[0]["met"]
    rates = {k: v / REPS for k, v in met.items()}
    assert rates["rate"] <= _limit() and rates["length"] <= _limit(), rates
    assert rates["rate, seeds ignored"] > 0.09, rates  # the failure this replaces: the test has bite


def test_validation_intervals_are_the_reports_clustered_intervals():
    """Same tables, same width as the report's clustered CIs."""
    tables = rotation_tables(1500, 4, 0.3, np.random.default_rng(1))
    rate, length = measure_all(
        [
            Target(metric="profile_win_rate", profile="focal", low=0, high=1),
            Target(metric="rounds_mean", low=0, high=99),
        ],
        tables,
        bootstrap=2000,
        confidence=0.90,
    )
    report = profile_win_rates(tables["players"], confidence=0.90).set_index("profile").loc["focal"]
    assert (rate["ci_low"], rate["ci_high"]) == pytest.approx((report["ci_low"], report["ci_high"]), abs=1e-12)
    assert rate["design_effect"] == pytest.approx(report["design_effect"]) and rate["design_effect"] > 3.5
    lengths = length_distribution(tables["matches"], confidence=0.90, n_resamples=2000).iloc[0]
    width, report_width = length["ci_high"] - length["ci_low"], lengths["ci_high"] - lengths["ci_low"]
    assert width == pytest.approx(report_width, rel=0.1)
    naive = measure_all(
        [Target(metric="rounds_mean", low=0, high=99)], _unclustered(tables), bootstrap=2000, confidence=0.90
    )[0]
    assert naive["ci_high"] - naive["ci_low"] < 0.6 * width  # a bootstrap over matches: half as wide


def _claims(looks, tables_of, ledger: Ledger) -> bool:
    """Run the looks through the ledger; True if any look claims "met"."""
    target = [Target(metric="profile_win_rate", profile="focal", low=0.45, high=0.55)]
    claimed = False
    for validation_round, matches in looks:
        number, alpha, claimable = ledger.alpha_for(validation_round, matches)
        met = check_tables(target, tables_of(validation_round, matches), alpha=alpha)[0]["met"] and claimable
        ledger.record(
            {
                "look": number,
                "validation_round": validation_round,
                "matches": matches,
                "alpha": alpha,
                "claimable": claimable,
                "meets_all_targets": met,
                "confidence": 1 - 2 * alpha,
            }
        )
        claimed = claimed or met
    return claimed


@pytest.mark.slow
def test_three_looks_at_one_candidate_keep_the_overall_false_met_rate_at_alpha():
    """2,000 matches, then 4,000 on the same fresh seeds, then a new round of 2,000.

    Truth at the band's edge (0.55 of [0.45, 0.55]), 2 seats under rotation. With the ledger
    (α = 0.05 over 3 planned looks) the chance that any look claims "met" stays ≤ 0.05; at
    α = 0.05 per look (no correction for the looks) it does not.
    """
    rng = np.random.default_rng(2)
    looks = [(0, 2000), (0, 4000), (1, 2000)]
    false_met, old_false_met, old_reps = 0, 0, REPS // 2
    for rep in range(REPS):
        rounds = {0: rotation_tables(2000, 2, 0.55, rng), 1: rotation_tables(1000, 2, 0.55, rng, first_seed=10**6)}

        def tables_of(validation_round, matches):
            tables = rounds[validation_round]
            return {
                name: frame[frame["match"] % 10**6 < matches] if len(frame) else frame for name, frame in tables.items()
            }

        false_met += _claims(looks, tables_of, Ledger(None, 0.05, 3))
        if rep < old_reps:  # the old behaviour, α = 0.05 at every look, on half of the data sets
            old_false_met += _claims(looks, tables_of, Ledger(None, 0.15, 3))
    assert false_met / REPS <= _limit(), false_met / REPS
    assert old_false_met / old_reps > 0.07, old_false_met / old_reps


def test_a_look_past_the_plan_claims_nothing_and_legacy_directories_count_as_one_look(tmp_path):
    ledger = Ledger(tmp_path / "looks.json", 0.05, 2)
    assert ledger.alpha_for(0, 2000) == (1, 0.025, True)
    ledger.record({"look": 1, "validation_round": 0, "matches": 2000, "alpha": 0.025, "claimable": True})
    assert ledger.alpha_for(0, 2000) == (1, 0.025, True)  # the same settings: the same look, no new α
    assert ledger.alpha_for(0, 4000) == (2, 0.025, True)
    ledger.record({"look": 2, "validation_round": 0, "matches": 4000, "alpha": 0.025, "claimable": True})
    assert ledger.alpha_for(1, 4000) == (3, 0.0, False)
    reloaded = load_ledger(tmp_path, 0.05, 5, seed=3, offset=1_000_003)
    assert (reloaded.alpha, reloaded.planned) == (0.05, 2) and reloaded.notes  # the first plan stays
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    (legacy / "validation.json").write_text(
        '{"candidates": [{"trial": 4, "matches": 6000, "fresh_seed": 2000009, "meets_all": true}]}'
    )
    old = load_ledger(legacy, 0.05, 3, seed=3, offset=1_000_003)
    assert [(x["look"], x["validation_round"], x["matches"], x["alpha"]) for x in old.looks] == [(1, 1, 6000, 0.05)]
    assert old.alpha_for(1, 6000) == (1, 0.05, True)  # re-reading the stored validation: the same verdict
    assert old.alpha_for(1, 8000) == (2, 0.0, False)  # its α is spent


def test_the_experiments_precision_target_uses_the_clustered_interval():
    from analysis.winrates import seat_win_rates
    from sim.core.experiment import seat_half_width

    tables = rotation_tables(500, 2, 0.6, np.random.default_rng(3))
    players = tables["players"]
    per_seat = seat_win_rates(players, simultaneous=False)
    # each seat wins once in every seed: its rate is exactly 1/2 whatever the seed, and the
    # design effect is its floor 1/G (the data show no variation between the 500 seeds)
    assert per_seat["design_effect"].to_numpy() == pytest.approx([1 / 500, 1 / 500])
    assert (per_seat["win_rate"] == 0.5).all() and (per_seat["ci_high"] - per_seat["ci_low"] < 0.01).all()
    focal = players[players["profile"] == "focal"].assign(seat=0)  # the focal player's "seat": deff 2
    report = seat_win_rates(focal, simultaneous=False).iloc[0]
    assert report["design_effect"] > 1.9
    half = seat_half_width(focal)
    assert half == pytest.approx((report["ci_high"] - report["ci_low"]) / 2)
    assert half > 1.35 * seat_half_width(focal.drop(columns="seed"))


def test_the_seed_resampler_draws_whole_seeds():
    from analysis.balance.targets import MatchResampler

    tables = rotation_tables(50, 4, 0.3, np.random.default_rng(4))
    resample = MatchResampler(tables)
    assert resample.n == 50
    sample = resample(np.random.default_rng(0))
    drawn = sample["matches"]
    assert len(drawn) == 200 and list(drawn["match"]) == list(range(200))
    # every drawn seed brings its four rotations, in order
    assert (drawn["rotation"].to_numpy().reshape(50, 4) == np.arange(4)).all()
    assert (drawn["seed"].to_numpy().reshape(50, 4) == drawn["seed"].to_numpy().reshape(50, 4)[:, :1]).all()
    assert len(sample["players"]) == 800
