"""Game length as survival: Kaplan–Meier with the cap as censoring, log-rank, medians."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.duration.survfunc import SurvfuncRight, survdiff

from analysis.survival import km_curves, km_summary, logrank_vs_baseline


def _matches(lengths, finished, variant="baseline", lineup="x"):
    return pd.DataFrame({"variant": variant, "lineup": lineup, "match": np.arange(len(lengths)),
                         "rounds": lengths, "finished": finished})


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
    _, p = survdiff(both["rounds"].to_numpy(), both["finished"].astype(int).to_numpy(),
                    (both["variant"] == "slow").astype(int).to_numpy())
    assert table.loc["slow", "p"] == pytest.approx(p, rel=1e-6)
    assert table.loc["same", "p"] == 1.0
    assert table.loc["slow", "p_adjusted"] == pytest.approx(min(1.0, 2 * table.loc["slow", "p"]))


def test_discrete_median_is_pinned_when_no_time_has_half_the_matches_running():
    # S(3) = 1, S(4) = 1/3: the median is 4 and no pointwise band contains 0.5
    matches = _matches([4] * 400 + [5] * 200, [True] * 600)
    row = km_summary(matches).iloc[0]
    assert (row["median"], row["median_low"], row["median_high"]) == (4.0, 4.0, 4.0)
