"""Bootstrap CIs, score and length distributions, skill share and head-to-head matrix."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from analysis.bootstrap import bootstrap_ci, cluster_sums, mean_ci
from analysis.distributions import describe, length_distribution, score_distribution
from analysis.skill import elo_gap, profile_matrix, skill_share
from analysis.winrates import wilson_interval

from .toydata import rotation_tables


@pytest.mark.parametrize("method", ["BCa", "percentile"])
def test_mean_ci_is_scipy_bootstrap_with_the_same_generator(method):
    x = np.random.default_rng(1).exponential(3.0, 250)
    _, low, high = mean_ci(x, method=method, n_resamples=1500, rng=np.random.default_rng(42))
    ci = stats.bootstrap(
        (x,), np.mean, method=method, n_resamples=1500, rng=np.random.default_rng(42)
    ).confidence_interval
    assert (low, high) == pytest.approx((ci.low, ci.high))


def test_cluster_bootstrap_resamples_whole_seeds():
    sums, sizes = cluster_sums([1.0, 2.0, np.nan, 4.0, 5.0], [7, 7, 7, 3, 3])
    assert sums.tolist() == [3.0, 9.0] and sizes.tolist() == [2.0, 2.0]
    # duplicating every observation inside its seed adds no information: same interval width
    x = np.random.default_rng(2).normal(size=200)
    _, low1, high1 = mean_ci(x, np.arange(200), rng=1)
    _, low2, high2 = mean_ci(np.repeat(x, 3), np.repeat(np.arange(200), 3), rng=1)
    assert (high2 - low2) == pytest.approx(high1 - low1, rel=0.15)
    _, naive_low, naive_high = mean_ci(np.repeat(x, 3), rng=1)
    assert naive_high - naive_low < 0.7 * (high2 - low2)


def test_degenerate_samples():
    assert mean_ci(np.full(30, 4.0)) == (4.0, 4.0, 4.0)
    estimate, low, high = mean_ci([2.0])
    assert estimate == 2.0 and math.isnan(low) and math.isnan(high)
    assert bootstrap_ci((np.zeros(10), np.ones(10)), lambda a, b, axis=-1: a.sum(axis) / b.sum(axis)) == (0, 0, 0)


def test_coverage_of_the_cluster_bootstrap_mean():
    """Skewed lengths, 3 correlated matches per seed, known mean 5: the BCa interval covers ~95 %."""
    rng = np.random.default_rng(3)
    covered = 0
    for _ in range(400):
        seed_effect = rng.exponential(2.0, 150) - 2.0
        values = (5.0 + seed_effect[:, None] + rng.exponential(1.0, (150, 3)) - 1.0).ravel()
        _, low, high = mean_ci(values, np.repeat(np.arange(150), 3), n_resamples=999, rng=rng)
        covered += low <= 5.0 <= high
    assert 0.91 <= covered / 400 <= 0.98  # 400 experiments: ±2.2 points of Monte Carlo error


def test_length_and_score_tables():
    matches = pd.DataFrame(
        {
            "variant": "baseline",
            "lineup": "x",
            "match": range(6),
            "seed": range(6),
            "rounds": [3, 4, 4, 5, 9, 9],
            "finished": [True] * 4 + [False] * 2,
        }
    )
    row = length_distribution(matches, n_resamples=300).iloc[0]
    assert (row["n"], row["mean"], row["median"], row["capped"]) == (6, 34 / 6, 4.5, pytest.approx(1 / 3))
    assert row["ci_low"] < row["mean"] < row["ci_high"]
    players = pd.DataFrame(
        {
            "variant": "baseline",
            "lineup": "x",
            "match": [0, 0, 1, 1],
            "seed": [0, 0, 1, 1],
            "profile": ["a", "b", "a", "b"],
            "score": [10.0, 4.0, 12.0, np.nan],
        }
    )
    scores = score_distribution(players, n_resamples=300).set_index("profile")
    assert scores.loc["a", "mean"] == 11.0 and scores.loc["b", "n"] == 1
    assert describe(players, "score", ["profile"], cluster=None, n_resamples=300)["n"].tolist() == [2, 1]


def _mixed(outcomes, rotate=False):
    """Players of an expert-vs-2-novices line-up: ``outcomes`` = winning slot per match (-1 none).

    ``rotate``: the line-up's slots move one seat per match (each match its own seed).
    """
    rows = []
    for match, winner in enumerate(outcomes):
        for slot, profile in enumerate(["expert", "novice", "novice"]):
            seat = (slot + match) % 3 if rotate else slot
            rank = 1 if slot == winner else (2 if winner >= 0 else 1)
            rows.append(
                {
                    "variant": "baseline",
                    "lineup": "e-n-n",
                    "match": match,
                    "seed": match,
                    "seat": seat,
                    "profile": profile,
                    "won": slot == winner,
                    "rank": rank,
                }
            )
    return pd.DataFrame(rows)


def test_skill_share_and_its_interval_are_the_wilson_interval_mapped_and_clipped():
    players = _mixed([0] * 60 + [1] * 20 + [2] * 20, rotate=True)
    row = skill_share(players).set_index("profile").loc["expert"]
    assert row["win_rate"] == 0.6 and row["share"] == pytest.approx((0.6 - 1 / 3) / (1 - 1 / 3))
    low, high = wilson_interval(60, 100)
    assert row["share_low"] == pytest.approx((float(low) - 1 / 3) / (2 / 3))
    assert row["share_high"] == pytest.approx((float(high) - 1 / 3) / (2 / 3))
    novices = skill_share(players).set_index("profile").loc["novice"]
    # below its fair share (40 % of the matches for 2 of 3 seats): share 0, interval inside [0, 1]
    assert novices["seats"] == 2 and novices["share"] == 0.0
    assert 0.0 == novices["share_low"] <= novices["share_high"] <= 1.0
    fixed = skill_share(_mixed([0] * 60 + [1] * 20 + [2] * 20)).set_index("profile")
    assert not fixed["applicable"].any() and fixed["share"].isna().all()  # seat and skill confounded


def test_head_to_head_counts_ties_as_half():
    players = _mixed([0] * 6 + [1] * 2 + [-1] * 2)  # -1: everyone tied
    matrix = profile_matrix(players).set_index(["profile", "opponent"])
    # 2 expert-novice pairs per match, 20 in all. Ahead: 12 (the expert's 6 wins); when novice 1
    # wins, the expert ties novice 2 for second: 2 matches × 0.5; full ties: 2 matches × 2 × 0.5
    expert = matrix.loc[("expert", "novice")]
    assert expert["pairs"] == 20 and expert["ahead"] == 12 + 1 + 2
    assert matrix.loc[("novice", "expert"), "p_ahead"] == pytest.approx(1 - expert["p_ahead"])
    assert elo_gap(0.75) == pytest.approx(400 * math.log10(3))
    assert math.isnan(elo_gap(1.0))


def _two_of_four(matches: int, winner_profile: str = "a") -> pd.DataFrame:
    """4 seats, profiles a, a, b, b rotated one seat per match (4 rotations per seed)."""
    rows = []
    for match in range(matches):
        seed, rotation = divmod(match, 4)
        profiles = ["a", "a", "b", "b"]
        profiles = profiles[rotation:] + profiles[:rotation]
        winner = profiles.index(winner_profile)
        for seat, profile in enumerate(profiles):
            rows.append(
                {
                    "variant": "baseline",
                    "lineup": "2v2",
                    "match": match,
                    "seed": seed,
                    "seat": seat,
                    "profile": profile,
                    "won": seat == winner,
                    "rank": 1 if seat == winner else 2,
                }
            )
    return pd.DataFrame(rows)


def test_skill_share_of_a_profile_that_wins_every_match_from_two_seats_stays_in_0_1():
    """40/40 with two seats (the unclipped interval would be [0.572, 1.428])."""
    row = skill_share(_two_of_four(40)).set_index("profile").loc["a"]
    assert row["seats"] == 2 and row["share"] == 1.0
    assert 0.0 <= row["share_low"] < 1.0 == row["share_high"]


@pytest.mark.slow
def test_skill_share_is_about_zero_under_pure_luck():
    """400 data sets of a 1-vs-1 line-up, 1,000 seeds × 2 rotations, pure luck.

    The result of a seed is the same in both rotations (design effect 2). The share is defined
    in every data set (not NaN when the profile won less than half) and its mean is
    about 0.4·SE(q̂)/(1 − m/n) ≈ 0.013 here; every interval lies in [0, 1].
    """
    rng = np.random.default_rng(6)
    reps = 400  # MC SE of the mean share ~0.001: the bias (~0.013) stays clear of 0.02
    tables = pd.concat(
        [rotation_tables(1000, 2, 0.5, rng, lineup=f"r{i}")["players"] for i in range(reps)], ignore_index=True
    )
    shares = skill_share(tables)
    focal = shares[shares["profile"] == "focal"]
    assert len(focal) == reps and focal["share"].notna().all()
    assert abs(focal["share"].mean()) < 0.02, focal["share"].mean()
    assert 0.4 < (focal["share"] == 0).mean() < 0.6
    assert (
        (0 <= focal["share_low"])
        & (focal["share_low"] <= focal["share"])
        & (focal["share"] <= focal["share_high"])
        & (focal["share_high"] <= 1)
    ).all()
    # coverage of the true share 0 by the clipped interval
    assert (focal["share_low"] == 0).mean() >= 0.95 - 3 * np.sqrt(0.05 * 0.95 / reps)


def test_a_profile_fixed_in_one_seat_has_no_skill_share():
    """Without rotation the profile never changes seat: "not applicable"."""
    players = _mixed([0] * 30 + [1] * 10 + [2] * 10)
    table = skill_share(players)
    assert not table["applicable"].any() and table["share"].isna().all()
    assert table.set_index("profile").loc["expert", "note"].startswith("always in seat 0")
