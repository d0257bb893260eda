"""`tablesim worth` against a known truth: its intervals cover, it claims no worth for a choice
worth nothing beyond α, and it finds the choices that are worth something.

The game and the study are in :mod:`tests.analysis.worth_truth` (which prints the whole table
with more repetitions): boost is worth exactly 0.18, nudge 0.04875, swap 0 (it changes every
match it is in, but not the chance of winning) and flourish 0 (played only by the player ahead,
so its observational win rate is 1). Both within-seed correlations of seat rotation
are played: draws from the seat's place in the chance stream (negative) and from each player's
own stream (positive, the rotations of a seed have the same winner).
"""

from __future__ import annotations

import pytest
from scipy import stats

from tests.analysis.worth_truth import TRUTH, study

REPS, MATCHES = 60, 160
#: One-sided level of the exact binomial tests (a claim that holds fails one in a thousand runs).
LEVEL = 0.001


@pytest.fixture(scope="module", params=["seat", "player"])
def studied(request):
    table, spread = study(REPS, MATCHES, request.param)
    return table.set_index("choice"), spread


@pytest.fixture
def table(studied):
    return studied[0]


@pytest.mark.slow
def test_the_95_percent_intervals_cover_every_true_worth(table):
    for choice, row in table.iterrows():
        covered = round(row["coverage"] * REPS)
        p = stats.binomtest(covered, REPS, 0.95, alternative="less").pvalue
        assert p >= LEVEL, f"{choice} ({row['streams']}): the truth {TRUTH[choice]} in {covered}/{REPS} intervals"


@pytest.mark.slow
def test_a_choice_worth_nothing_is_claimed_at_most_alpha_of_the_time(table):
    claims = round(table.loc["swap", "claims"] * REPS)
    assert stats.binomtest(claims, REPS, 0.05, alternative="greater").pvalue >= LEVEL, (
        f"swap claimed worth something in {claims}/{REPS} runs"
    )


@pytest.mark.slow
def test_the_worth_is_estimated_without_bias_and_a_large_worth_is_found(table):
    for choice, row in table.iterrows():
        se = row["sd_worth"] / REPS**0.5
        assert abs(row["mean_worth"] - TRUTH[choice]) < 4 * se + 1e-9, (choice, row.to_dict())
    # the minimum detectable worth is the one found with 80 % power: boost lies above it
    boost = table.loc["boost"]
    assert boost["detectable"] < TRUTH["boost"], boost.to_dict()
    found = round(boost["claims"] * REPS)
    assert stats.binomtest(found, REPS, 0.8, alternative="less").pvalue >= LEVEL, f"boost found in {found}/{REPS}"


@pytest.mark.slow
def test_the_worth_spread_interval_holds_the_true_spread(studied):
    """Simultaneous (every pair of choices, Bonferroni over the pairs): at least 95 %."""
    held = round(studied[1] * REPS)
    assert stats.binomtest(held, REPS, 0.95, alternative="less").pvalue >= LEVEL, f"held in {held}/{REPS}"


def test_a_do_nothing_card_played_when_ahead_looks_strong_but_is_worth_nothing(tmp_path):
    """Flourish: the observational win rate says 1.0 (every player who played it won), the
    worth says 0 (forbidding it changes no match); the comparison names it."""
    from analysis.worth import observed_comparison
    from tests.analysis.worth_truth import registered, runs

    with registered(tmp_path) as game:
        table = runs(game, "seat", 1, 400)[0].table
    rows = table.set_index("choice")
    assert rows.loc["flourish", "won_when_made"] == 1.0 and rows.loc["boost", "won_when_made"] == 0.5
    flourish = rows.loc["flourish"]
    assert flourish["worth"] == 0.0 and flourish["ci_low"] <= 0.0 <= flourish["ci_high"]
    assert flourish["verdict"] == "no detectable worth" and flourish["used_share"] == 0.5
    assert "Flourish" in observed_comparison(table)["flips"]  # highest observed rate, lowest worth
