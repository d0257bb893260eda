"""Variant effects: paired tests against scipy/statsmodels, exact zero, Holm, coverage, toy game."""

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from analysis.effects import (
    adjust_pvalues,
    cluster_t,
    paired_binary_effect,
    paired_mean_effect,
    paired_outcomes,
    variant_effects,
)
from analysis.outcomes import match_outcomes
from sim.core import load_tables

from .toydata import make_experiment


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    path = make_experiment(tmp_path_factory.mktemp("effects"), matches=90)
    return match_outcomes(load_tables(path))


def _pairs(n, p_base, flip, seed):
    rng = np.random.default_rng(seed)
    base = (rng.random(n) < p_base).astype(float)
    variant = np.where(rng.random(n) < flip, 1 - base, base)
    return variant, base


def _tango_statistic(b, c, n, delta):
    """Tango's score statistic with the restricted MLE found numerically (an independent check)."""
    from scipy.optimize import minimize_scalar

    def negative_loglik(q):
        return -(c * np.log(q + delta) + b * np.log(q) + (n - b - c) * np.log(1 - 2 * q - delta))

    lo, hi = max(0.0, -delta) + 1e-12, (1 - delta) / 2 - 1e-12
    q = minimize_scalar(negative_loglik, bounds=(lo, hi), method="bounded", options={"xatol": 1e-13}).x
    return (c - b - n * delta) / np.sqrt(n * (2 * q + delta - delta**2))


def test_binary_effect_is_the_mcnemar_score_test_and_the_interval_that_inverts_it():
    variant, base = _pairs(2000, 0.3, 0.1, seed=1)
    result = paired_binary_effect(variant, base)
    b, c = int(np.sum((base == 1) & (variant == 0))), int(np.sum((base == 0) & (variant == 1)))
    a, d = int(np.sum((base == 1) & (variant == 1))), int(np.sum((base == 0) & (variant == 0)))
    assert (result["b"], result["c"]) == (b, c) and result["test"] == "score test (McNemar)"
    assert result["p"] == pytest.approx(mcnemar([[a, b], [c, d]], exact=False, correction=False).pvalue)
    assert result["effect"] == pytest.approx((c - b) / 2000)
    z = stats.norm.ppf(0.975)  # at each bound the score statistic equals ∓z: the test, inverted
    assert _tango_statistic(b, c, 2000, result["ci_low"]) == pytest.approx(z, rel=1e-5)
    assert _tango_statistic(b, c, 2000, result["ci_high"]) == pytest.approx(-z, rel=1e-5)


def test_binary_effect_with_few_discordant_pairs_is_still_one_test():
    variant, base = _pairs(200, 0.4, 0.05, seed=2)
    result = paired_binary_effect(variant, base)
    assert result["b"] + result["c"] < 25
    table = [
        [int(np.sum((base == 1) & (variant == 1))), result["b"]],
        [result["c"], int(np.sum((base == 0) & (variant == 0)))],
    ]
    assert result["p"] == pytest.approx(mcnemar(table, exact=False, correction=False).pvalue)
    assert (result["ci_low"] > 0 or result["ci_high"] < 0) == (result["p"] < 0.05)


def test_cluster_t_matches_statsmodels_cluster_robust_mean():
    rng = np.random.default_rng(3)
    seeds = np.repeat(np.arange(150), 3)
    diff = rng.normal(0.2, 1, 150).repeat(3) + rng.normal(0, 0.5, 450)
    mean, low, high, p = cluster_t(diff, seeds)
    fit = sm.OLS(diff, np.ones(450)).fit(cov_type="cluster", cov_kwds={"groups": seeds}, use_t=True)
    assert mean == pytest.approx(fit.params[0])
    assert (low, high) == pytest.approx(tuple(fit.conf_int(0.05)[0]), rel=1e-9)
    assert p == pytest.approx(fit.pvalues[0], rel=1e-9)
    singles = cluster_t(diff, None)
    ttest = stats.ttest_1samp(diff, 0)
    assert singles[3] == pytest.approx(ttest.pvalue)
    assert singles[1:3] == pytest.approx(tuple(ttest.confidence_interval(0.95)))


def test_mean_effect_interval_and_p_value_are_one_paired_t_test():
    rng = np.random.default_rng(4)
    base = rng.gamma(3, 2, 400)
    variant = base + rng.normal(0.5, 1, 400)
    result = paired_mean_effect(variant, base)
    test = stats.ttest_rel(variant, base)
    ci = test.confidence_interval(0.95)
    assert (result["ci_low"], result["ci_high"]) == pytest.approx((ci.low, ci.high))
    assert result["p"] == pytest.approx(test.pvalue)


def test_identical_outcomes_give_exactly_zero_with_ci_zero_zero():
    values = np.random.default_rng(5).integers(0, 2, 300).astype(float)
    for result in (paired_binary_effect(values, values), paired_mean_effect(values * 7, values * 7)):
        assert (result["effect"], result["ci_low"], result["ci_high"], result["p"]) == (0.0, 0.0, 0.0, 1.0)


def test_a_variant_that_changes_nothing_has_zero_effects_on_every_outcome(experiment):
    effects = variant_effects(experiment)
    same = effects[effects["variant"] == "same"]
    assert len(same) >= 2 * 10  # every outcome of both line-ups
    assert (same[["effect", "ci_low", "ci_high"]].to_numpy() == 0.0).all()
    assert (same["p"] == 1.0).all() and (same["p_adjusted"] == 1.0).all()


def test_toy_variant_effects_have_the_known_direction(experiment):
    effects = variant_effects(experiment).set_index(["lineup", "variant", "outcome"])
    bonus = effects.loc[("plain-3", "seat0-bonus", "seat0_won")]
    assert bonus["effect"] > 0.2 and bonus["ci_low"] > 0 and bonus["p_adjusted"] < 0.001
    assert bonus["test"] == "score test, clustered by seed"  # rotations: matches of a seed are clustered
    capped = effects.loc[("plain-3", "capped", "capped")]
    # 20 seeds: Student's t with 19 degrees of freedom behind the p-value, so not below 0.001
    assert capped["base"] == 0.0 and capped["value"] > 0.5 and capped["p_adjusted"] < 0.01
    assert effects.loc[("lucky-vs-2", "capped", "rounds")]["effect"] < 0


def test_holm_and_bh_adjustments(experiment):
    p = np.array([0.01, 0.04, 0.03, 0.005, np.nan])
    holm = adjust_pvalues(p, "holm")
    assert holm[:4] == pytest.approx([0.03, 0.06, 0.06, 0.02])  # sorted .005 .01 .03 .04 × 4 3 2 1, monotone
    assert np.isnan(holm[4])
    assert adjust_pvalues(p, "fdr_bh")[:4] == pytest.approx(multipletests(p[:4], method="fdr_bh")[1])
    rng = np.random.default_rng(3)
    for size in (1, 2, 7, 40):  # Holm is computed directly: the same as statsmodels', ties included
        q = np.round(rng.random(size) ** 3, 2)
        assert adjust_pvalues(q, "holm") == pytest.approx(multipletests(q, method="holm")[1], abs=1e-15)
    with pytest.raises(ValueError, match="allowed: holm, fdr_bh"):
        adjust_pvalues(p, "bonferonni")
    table = variant_effects(experiment, correction="fdr_bh")
    assert (table["p_adjusted"] >= table["p"] - 1e-15).all()
    assert table["p_adjusted"].to_numpy() == pytest.approx(multipletests(table["p"], method="fdr_bh")[1])


def test_pairs_must_share_seeds(experiment):
    broken = experiment.copy()
    broken.loc[broken["variant"] == "seat0-bonus", "seed"] += 1
    with pytest.raises(ValueError, match="common random numbers"):
        paired_outcomes(broken, "seat0-bonus", "plain-3")


def test_coverage_of_the_paired_difference_interval():
    """Known true difference: base ~ B(0.3); the variant flips a base loss to a win w.p. 0.1."""
    rng = np.random.default_rng(11)
    truth = 0.7 * 0.1
    covered = 0
    for _ in range(2000):
        base = rng.random(400) < 0.3
        variant = base | (~base & (rng.random(400) < 0.1))
        result = paired_binary_effect(variant.astype(float), base.astype(float))
        covered += result["ci_low"] <= truth <= result["ci_high"]
    assert 0.93 <= covered / 2000 <= 0.97


def test_binary_ci_and_p_agree_on_every_data_set():
    """n = 200 pairs with a true +5 points effect, independent and clustered.

    A paired t interval beside McNemar's p would disagree with it in about 10 % of such data
    sets; the interval inverts the score test behind p, so they always agree.
    """
    rng = np.random.default_rng(13)
    disagreements, rejections = 0, 0
    for data_set in range(1000):
        base = rng.random(200) < 0.4
        # losses turn to wins w.p. 0.15, wins to losses w.p. 0.1: 0.6·0.15 − 0.4·0.1 = +5 points
        variant = np.where(base, rng.random(200) >= 0.10, rng.random(200) < 0.15)
        clusters = np.repeat(np.arange(100), 2) if data_set % 2 else None
        if clusters is not None:  # the two rotations of a seed share their outcomes half of the time
            same = rng.random(100) < 0.5
            base[1::2] = np.where(same, base[0::2], base[1::2])
            variant[1::2] = np.where(same, variant[0::2], variant[1::2])
        result = paired_binary_effect(variant.astype(float), base.astype(float), clusters)
        excludes = result["ci_low"] > 0 or result["ci_high"] < 0
        disagreements += excludes != (result["p"] < 0.05)
        rejections += result["p"] < 0.05
    assert disagreements == 0
    assert 0.05 < rejections / 1000 < 0.95  # the data sets straddle the decision: the check has bite


def test_adjusted_intervals_agree_with_the_adjusted_p_values(experiment):
    """Holm-adjusted interval excludes 0 ⇔ Holm-adjusted p < α, row by row; likewise for BH."""
    for correction in ("holm", "fdr_bh"):
        table = variant_effects(experiment, correction=correction)
        table = table[table["test"] != "identical outcomes"]
        assert len(table) > 10 and (table["p_adjusted"] < 0.05).any() and (table["p_adjusted"] >= 0.05).any()
        excludes = (table["ci_low_adjusted"] > 0) | (table["ci_high_adjusted"] < 0)
        assert (excludes == (table["p_adjusted"] < 0.05)).all()
        raw = (table["ci_low"] > 0) | (table["ci_high"] < 0)
        assert (raw == (table["p"] < 0.05)).all()
        # the adjusted interval contains the unadjusted one
        assert (table["ci_low_adjusted"] <= table["ci_low"] + 1e-12).all()
        assert (table["ci_high_adjusted"] >= table["ci_high"] - 1e-12).all()


def test_minimum_detectable_effect_is_detected_with_80_percent_power():
    """A true effect equal to the printed minimum detectable effect is found about 80 % of the time.

    Paired binary outcomes, 400 pairs, discordance about 20 %, 5 outcomes in the family
    (Bonferroni level 0.01); the MDE is computed from the design's SE under no effect, which a
    run estimates from its discordant pairs (checked on a pilot).
    """
    from analysis.effects import detectable_effect

    rng = np.random.default_rng(21)
    n, flip, tests = 400, 0.2, 5

    def draw(shift):
        base = rng.random(n) < 0.5
        changed = rng.random(n) < flip
        up = rng.random(n) < 0.5 + shift / (2 * flip)  # E[variant − base] = shift
        variant = np.where(changed, up, base)
        base = np.where(changed, ~up, base)
        return variant.astype(float), base.astype(float)

    pilot = paired_binary_effect(*draw(0.0))
    assert pilot["se"] == pytest.approx(np.sqrt(flip / n), rel=0.2)  # what a run reports
    mde = float(detectable_effect([np.sqrt(flip / n)], [n - 1], tests, 0.05, 0.8, [True])[0])
    assert 0.02 < mde < 0.2
    reps = 2000
    hits = sum(paired_binary_effect(*draw(mde))["p"] < 0.05 / tests for _ in range(reps))
    se = np.sqrt(0.8 * 0.2 / reps)
    assert hits / reps >= 0.8 - 3 * se


def test_a_game_declared_length_is_an_outcome_with_its_label_and_a_paired_effect(experiment, tmp_path):
    """A length column of the game's own (``GameSpec.length``, e.g. turns per race) is compared
    between variants like the game length in rounds: the paired t on the same seeds."""
    from sim.core.game import GameLength

    tables = load_tables(make_experiment(tmp_path, matches=40))
    matches = tables["matches"]
    # a declared length that the variant raises by exactly 2 turns on every seed
    matches["turns"] = matches["rounds"] * 3.0 + np.where(matches["variant"] == "baseline", 0.0, 2.0)
    outcomes = match_outcomes(tables, GameLength(column="turns", unit="turns per race", label="race length"))
    assert "turns" in outcomes.columns and outcomes.attrs["described"] == {"turns": ("race length", "turns per race")}
    effects = variant_effects(outcomes)
    rows = effects[effects["outcome"] == "turns"]
    assert len(rows) and (rows["label"] == "race length").all() and (rows["unit"] == "turns per race").all()
    rounds = effects[effects["outcome"] == "rounds"].set_index(["lineup", "variant"])
    for row in rows.itertuples():
        assert row.effect == pytest.approx(3.0 * rounds.loc[(row.lineup, row.variant), "effect"] + 2.0)
    assert "turns" not in match_outcomes(tables).columns  # without the declaration: not an outcome


def test_a_declared_length_without_a_label_is_not_a_second_game_length(experiment, tmp_path):
    """A game that declares its own length column but no label gets "game length in <unit>", so
    its report never shows two effects called "game length" in different units."""
    from sim.core.game import GameLength

    tables = load_tables(make_experiment(tmp_path, matches=40))
    tables["matches"]["turns"] = tables["matches"]["rounds"] * 3.0
    effects = variant_effects(match_outcomes(tables, GameLength(column="turns", unit="turns")))
    labels = effects.drop_duplicates("outcome").set_index("outcome")["label"]
    assert labels["turns"] == "game length in turns" and labels["rounds"] == "game length"
