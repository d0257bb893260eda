"""Game length as survival: Kaplan–Meier with the cap as censoring, log-rank, medians."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.duration.survfunc import SurvfuncRight, survdiff

from analysis.survival import clustered_km, clustered_logrank, km_curves, km_summary, logrank_vs_baseline

from .toydata import shared_seed_lengths


def _matches(lengths, finished, variant="baseline", lineup="x"):
    return pd.DataFrame(
        {
            "variant": variant,
            "lineup": lineup,
            "match": np.arange(len(lengths)),
            "rounds": lengths,
            "finished": finished,
        }
    )


def test_kaplan_meier_by_hand_with_censoring_at_the_cap():
    # lengths 2, 3, 3, 5 finished; two matches stopped by the cap at 5 (censored)
    matches = _matches([2, 3, 3, 5, 5, 5], [True, True, True, True, False, False])
    curve = km_curves(matches).set_index("rounds")["survival"]
    assert curve[0] == 1.0
    assert curve[2] == pytest.approx(5 / 6)
    assert curve[3] == pytest.approx(5 / 6 * 3 / 5)  # 5 at risk at 3, two events
    assert curve[5] == pytest.approx(5 / 6 * 3 / 5 * 2 / 3)  # 3 at risk at 5, one event


def test_curves_and_medians_match_scipy_and_statsmodels():
    rng = np.random.default_rng(1)
    raw = rng.geometric(0.12, 800).astype(float)
    cap = 15.0
    finished = raw < cap
    lengths = np.minimum(raw, cap)
    matches = _matches(lengths, finished)
    curve = km_curves(matches).iloc[1:]
    sf = stats.ecdf(stats.CensoredData(uncensored=lengths[finished], right=lengths[~finished])).sf
    np.testing.assert_allclose(curve["survival"], sf.probabilities)
    ci = sf.confidence_interval(method="log-log")
    np.testing.assert_allclose(curve["ci_low"].to_numpy()[:-1], ci.low.probabilities[:-1])
    row = km_summary(matches).iloc[0]
    reference = SurvfuncRight(lengths, finished.astype(int))
    assert row["median"] == reference.quantile(0.5)
    assert (row["median_low"], row["median_high"]) == tuple(reference.quantile_ci(0.5))
    assert row["capped"] == int((~finished).sum()) and row["cap"] == cap


def test_logrank_matches_statsmodels_survdiff_and_is_one_for_identical_variants():
    rng = np.random.default_rng(2)

    def arm(p, variant):
        raw = rng.geometric(p, 500).astype(float)
        return _matches(np.minimum(raw, 20), raw < 20, variant)

    base, slow = arm(0.15, "baseline"), arm(0.12, "slow")
    same = base.assign(variant="same")
    table = logrank_vs_baseline(pd.concat([base, slow, same])).set_index("variant")
    both = pd.concat([base, slow])
    _, p = survdiff(
        both["rounds"].to_numpy(),
        both["finished"].astype(int).to_numpy(),
        (both["variant"] == "slow").astype(int).to_numpy(),
    )
    assert table.loc["slow", "p"] == pytest.approx(p, rel=1e-6)
    assert table.loc["same", "p"] == 1.0
    assert table.loc["slow", "p_adjusted"] == pytest.approx(min(1.0, 2 * table.loc["slow", "p"]))


def test_discrete_median_is_pinned_when_no_time_has_half_the_matches_running():
    # S(3) = 1, S(4) = 1/3: the median is 4 and no pointwise band contains 0.5
    matches = _matches([4] * 400 + [5] * 200, [True] * 600)
    row = km_summary(matches).iloc[0]
    assert (row["median"], row["median_low"], row["median_high"]) == (4.0, 4.0, 4.0)


def _many(reps, rng, **kwargs):
    """``reps`` independent data sets as line-ups r0, r1, ... of one matches table."""
    return pd.concat(
        [shared_seed_lengths(100, 4, rng, **kwargs).assign(lineup=f"r{i}") for i in range(reps)], ignore_index=True
    )


def _scipy_logrank(cell_v, cell_b):
    """The unclustered log-rank the report used before (independent matches)."""
    return stats.logrank(
        stats.CensoredData(
            uncensored=cell_v["rounds"][cell_v["finished"]], right=cell_v["rounds"][~cell_v["finished"]]
        ),
        stats.CensoredData(
            uncensored=cell_b["rounds"][cell_b["finished"]], right=cell_b["rounds"][~cell_b["finished"]]
        ),
    ).pvalue


@pytest.mark.slow
@pytest.mark.parametrize("paired", [False, True])
def test_logrank_under_rotation_keeps_its_level(paired):
    """No true effect, 100 seeds × 4 rotations: type-I ≤ 0.05.

    Every rotation of a seed lasts as long as the others. ``paired``: the variant replays the
    baseline's seeds (common random numbers); else its seeds are its own. The unclustered
    log-rank rejected about a third of these true nulls.
    """
    reps = 800  # MC SE of a rate near 0.05: 0.0077 (the unclustered test: about a third)
    matches = _many(reps, np.random.default_rng(30 + paired), paired=paired)
    table = logrank_vs_baseline(matches)
    rate = float((table["p"] < 0.05).mean())
    assert len(table) == reps and rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / reps), rate
    assert table["test"].str.contains("clustered by seed").all()
    if not paired:
        old = [
            _scipy_logrank(g[g["variant"] == "slower"], g[g["variant"] == "baseline"])
            for _, g in matches[matches["lineup"].isin([f"r{i}" for i in range(300)])].groupby("lineup")
        ]
        assert np.mean(np.asarray(old) < 0.05) > 0.2  # the failure this replaces


@pytest.mark.slow
def test_paired_logrank_has_more_power_than_the_unpaired_one_when_seeds_are_shared():
    """Shared seeds, the variant 15 % longer, 500 data sets."""
    reps = 500
    matches = _many(reps, np.random.default_rng(40), effect=0.15, paired=True)
    table = logrank_vs_baseline(matches).set_index("lineup")
    unpaired = np.array(
        [
            _scipy_logrank(g[g["variant"] == "slower"], g[g["variant"] == "baseline"])
            for _, g in matches.groupby("lineup")
        ]
    )
    power, unpaired_power = float((table["p"] < 0.05).mean()), float((unpaired < 0.05).mean())
    assert power > unpaired_power + 0.2 and power > 0.8, (power, unpaired_power)


@pytest.mark.slow
def test_kaplan_meier_median_interval_keeps_its_coverage_under_rotation():
    """Geometric lengths (true median 4: S(3) = 0.512, S(4) = 0.41), 100 seeds × 4 rotations."""
    reps = 800  # MC SE of a coverage near 0.95: 0.0077
    matches = _many(reps, np.random.default_rng(50), paired=False)
    base = matches[matches["variant"] == "baseline"]
    # the jitter-free baseline: geometric(0.2) lengths, so S(t) = 0.8^t below the cap
    rows = km_summary(base)
    covered = (rows["median_low"] <= 4) & ((rows["median_high"] >= 4) | rows["median_high"].isna())
    assert covered.mean() >= 0.95 - 3 * np.sqrt(0.05 * 0.95 / reps), covered.mean()
    assert (rows["method"] == "Brookmeyer–Crowley, clustered by seed").all()
    naive = km_summary(base[base["lineup"].isin([f"r{i}" for i in range(500)])].drop(columns="seed"))
    naive_covered = (naive["median_low"] <= 4) & ((naive["median_high"] >= 4) | naive["median_high"].isna())
    assert naive_covered.mean() < 0.92  # Greenwood ignores the seeds: the interval is too narrow


def test_clustered_kaplan_meier_reduces_to_greenwood_and_logrank_to_scipy_for_independent_matches():
    rng = np.random.default_rng(3)
    raw = rng.geometric(0.2, 400).astype(float)
    lengths, finished = np.minimum(raw, 12), raw < 12
    times, survival, se = clustered_km(lengths, finished, np.arange(400))
    reference = SurvfuncRight(lengths, finished.astype(int))
    np.testing.assert_allclose(survival, reference.surv_prob)
    np.testing.assert_allclose(se, reference.surv_prob_se * np.sqrt(400 / 399), rtol=1e-9)
    arm = (np.arange(400) < 200).astype(float)
    statistic, p, _ = clustered_logrank(lengths, finished, arm, np.arange(400))
    classic = stats.logrank(
        stats.CensoredData(uncensored=lengths[(arm == 1) & finished], right=lengths[(arm == 1) & ~finished]),
        stats.CensoredData(uncensored=lengths[(arm == 0) & finished], right=lengths[(arm == 0) & ~finished]),
    )
    assert statistic == pytest.approx(classic.statistic, rel=0.02) and p == pytest.approx(classic.pvalue, abs=0.01)
