"""Variant effects: paired tests against scipy/statsmodels, exact zero, Holm, coverage, toy game."""

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from analysis.effects import (adjust_pvalues, cluster_t, paired_binary_effect, paired_mean_effect,
                              paired_outcomes, variant_effects)
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


def test_binary_effect_is_mcnemar_and_the_paired_t_interval():
    variant, base = _pairs(2000, 0.3, 0.1, seed=1)
    result = paired_binary_effect(variant, base)
    b, c = int(np.sum((base == 1) & (variant == 0))), int(np.sum((base == 0) & (variant == 1)))
    a, d = int(np.sum((base == 1) & (variant == 1))), int(np.sum((base == 0) & (variant == 0)))
    assert (result["b"], result["c"]) == (b, c) and b + c >= 25
    assert result["p"] == pytest.approx(mcnemar([[a, b], [c, d]], exact=False, correction=True).pvalue)
    ci = stats.ttest_rel(variant, base).confidence_interval(0.95)
    assert (result["ci_low"], result["ci_high"]) == pytest.approx((ci.low, ci.high))
    assert result["effect"] == pytest.approx((c - b) / 2000)


def test_binary_effect_is_exact_mcnemar_with_few_discordant_pairs():
    variant, base = _pairs(200, 0.4, 0.05, seed=2)
    result = paired_binary_effect(variant, base)
    assert result["b"] + result["c"] < 25 and result["test"] == "McNemar exact"
    table = [[int(np.sum((base == 1) & (variant == 1))), result["b"]],
             [result["c"], int(np.sum((base == 0) & (variant == 0)))]]
    assert result["p"] == pytest.approx(mcnemar(table, exact=True).pvalue)


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


def test_mean_effect_interval_is_scipy_bca_bootstrap_of_the_differences():
    rng = np.random.default_rng(4)
    base = rng.gamma(3, 2, 400)
    variant = base + rng.normal(0.5, 1, 400)
    result = paired_mean_effect(variant, base, rng=np.random.default_rng(9), n_resamples=2000)
    expected = stats.bootstrap((variant - base,), np.mean, method="BCa", n_resamples=2000,
                               rng=np.random.default_rng(9)).confidence_interval
    assert (result["ci_low"], result["ci_high"]) == pytest.approx((expected.low, expected.high))
    assert result["p"] == pytest.approx(stats.ttest_rel(variant, base).pvalue)


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
    assert bonus["test"] == "paired t over seeds"  # rotations: matches of a seed are clustered
    capped = effects.loc[("plain-3", "capped", "capped")]
    assert capped["base"] == 0.0 and capped["value"] > 0.5 and capped["p_adjusted"] < 0.001
    assert effects.loc[("lucky-vs-2", "capped", "rounds")]["effect"] < 0


def test_holm_and_bh_adjustments(experiment):
    p = np.array([0.01, 0.04, 0.03, 0.005, np.nan])
    holm = adjust_pvalues(p, "holm")
    assert holm[:4] == pytest.approx([0.03, 0.06, 0.06, 0.02])  # sorted .005 .01 .03 .04 × 4 3 2 1, monotone
    assert np.isnan(holm[4])
    assert adjust_pvalues(p, "fdr_bh")[:4] == pytest.approx(multipletests(p[:4], method="fdr_bh")[1])
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
