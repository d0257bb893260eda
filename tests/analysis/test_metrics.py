"""Design metrics: hand-computed matches, and cell metrics against their definitions."""

import numpy as np
import pandas as pd
import pytest

from analysis.metrics import METRICS, design_metrics, per_match_metrics
from analysis.outcomes import binary_outcomes, match_outcomes
from analysis.winrates import wilson_interval
from sim.core import load_tables

from .toydata import make_experiment

# cumulative scores after each round, per seat; winners
MATCHES = {
    0: ([[3, 1], [4, 5], [8, 8], [12, 10]], [True, False]),  # lead changes every round
    1: ([[6, 2], [9, 4], [10, 5]], [True, False]),  # runaway leader
    2: ([[1, 1], [2, 3]], [False, False]),  # no winner
}


def _tables():
    rounds, players = [], []
    for match, (cumulative, won) in MATCHES.items():
        for r, row in enumerate(cumulative, start=1):
            for seat, value in enumerate(row):
                rounds.append(
                    {
                        "variant": "baseline",
                        "lineup": "x",
                        "match": match,
                        "round": r,
                        "seat": seat,
                        "points": 0.0,
                        "cumulative": float(value),
                    }
                )
        for seat, flag in enumerate(won):
            players.append(
                {
                    "variant": "baseline",
                    "lineup": "x",
                    "match": match,
                    "seat": seat,
                    "won": flag,
                    "score": float(cumulative[-1][seat]),
                    "profile": "p",
                    "rank": 1 if flag else 2,
                    "team": -1,
                    "seed": match,
                }
            )
    return pd.DataFrame(rounds), pd.DataFrame(players)


def test_per_match_metrics_by_hand():
    rounds, players = _tables()
    metrics = per_match_metrics(rounds, players).set_index("match")
    assert metrics.loc[0, "lead_changes"] == 3 and metrics.loc[0, "lead_change_rate"] == 1.0
    assert metrics.loc[0, "drama"] == pytest.approx((5 - 4) / 12 / 4)  # behind by 1 of 12, 1 round of 4
    assert metrics.loc[0, "winner_trailing"] == 0.25
    assert metrics.loc[0, "decisiveness"] == 1.0  # passes the loser's best (10) only at the end
    assert metrics.loc[1, "lead_changes"] == 0 and metrics.loc[1, "drama"] == 0.0
    assert metrics.loc[1, "decisiveness"] == pytest.approx(1 / 3)  # 6 > 5 after round 1 of 3
    assert metrics.loc[2, "lead_changes"] == 1
    assert np.isnan(metrics.loc[2, "drama"]) and np.isnan(metrics.loc[2, "decisiveness"])


def test_missing_rounds_table_gives_no_per_match_metrics():
    _, players = _tables()
    assert per_match_metrics(pd.DataFrame(), players).empty


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    return match_outcomes(load_tables(make_experiment(tmp_path_factory.mktemp("metrics"), matches=45)))


def test_cell_metrics_follow_their_definitions(outcomes):
    table = design_metrics(outcomes, n_resamples=500)
    assert set(table["metric"]) <= set(METRICS)
    for (variant, lineup), cell in outcomes.groupby(["variant", "lineup"]):
        values = table[(table["variant"] == variant) & (table["lineup"] == lineup)].set_index("metric")
        rates = cell[[c for c in binary_outcomes(cell) if c.startswith("seat")]].mean()
        assert values.loc["balance", "value"] == pytest.approx(1 - (rates.max() - rates.min()))
        assert values.loc["advantage_seat0", "value"] == pytest.approx(rates["seat0_won"])
        assert values.loc["timeouts", "value"] == pytest.approx(cell["capped"].mean())
        assert values.loc["duration", "value"] == pytest.approx(cell["rounds"].mean())
        for metric, row in values.iterrows():
            if not np.isnan(row["ci_low"]):
                assert row["ci_low"] - 1e-12 <= row["value"] <= row["ci_high"] + 1e-12, metric


def test_rate_metrics_are_wilson_when_seeds_hold_one_match():
    outcomes = pd.DataFrame(
        {
            "variant": "baseline",
            "lineup": "x",
            "match": range(50),
            "seed": range(50),
            "rounds": 5,
            "capped": [1.0] * 10 + [0.0] * 40,
            "decided": 1.0,
            "seat0_won": [1.0] * 20 + [0.0] * 30,
            "seat1_won": [0.0] * 20 + [1.0] * 30,
        }
    )
    values = design_metrics(outcomes, n_resamples=200).set_index("metric")
    low, high = wilson_interval(10, 50)
    assert (values.loc["timeouts", "ci_low"], values.loc["timeouts", "ci_high"]) == pytest.approx(
        (float(low), float(high))
    )
    assert values.loc["balance", "value"] == pytest.approx(0.8)
