"""Per-championship metric parts: they add up to the summary, and make the bootstrap fast and equal."""

import pytest

from analysis.balance.targets import Target, measure_all
from sim.core.game import get_game
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules
from sim.core.runner import Cell, run_cells


@pytest.fixture(scope="module")
def tables():
    spec = get_game("gasterospeed")
    rules = load_rules(spec, None, [("deck.tir.count", 8)])  # more KOs: ko_rate is not 0
    players = load_lineup(spec, ["tactician", "greedy", "greedy", "random"], rules)
    return run_cells(spec, [Cell("v", "l", rules, players)], 12, root_seed=5, jobs=1, progress=False)


def test_parts_sum_to_the_summary(tables):
    spec = get_game("gasterospeed")
    parts = spec.metric_parts(tables)
    assert len(parts) == len(tables["matches"])
    assert (parts.to_numpy() >= 0).all()
    summary = spec.summary(tables)
    combined = spec.metrics_from_parts(parts.sum().to_frame().T).iloc[0]
    assert summary["ko_rate"] > 0
    for name, value in combined.items():
        assert value == pytest.approx(summary[name], abs=1e-12), name


def test_the_parts_bootstrap_draws_the_same_intervals_as_resampled_tables(tables):
    spec = get_game("gasterospeed")
    targets = [Target(metric="game", name=name, low=0.0, high=0.2) for name in ("ko_rate", "card_win_rate_spread")]
    fast = measure_all(
        targets, tables, spec.summary, bootstrap=40, seed=9, game_parts=(spec.metric_parts, spec.metrics_from_parts)
    )
    slow = measure_all(targets, tables, spec.summary, bootstrap=40, seed=9)
    for f, s in zip(fast, slow):
        assert f["value"] == s["value"]
        assert f["ci_low"] == pytest.approx(s["ci_low"], abs=1e-12)
        assert f["ci_high"] == pytest.approx(s["ci_high"], abs=1e-12)


def test_the_observed_rate_beside_a_card_worth_is_its_card_win_rate(tables):
    """restrictions.observed (set beside the worth by reports) is the summary's card_win_rate.<id>."""
    spec = get_game("gasterospeed")
    summary = spec.summary(tables)
    observed = spec.restrictions.observed(tables)
    assert observed and set(observed) <= {c.name for c in spec.restrictions.choices(load_rules(spec))}
    for card, rate in observed.items():
        assert rate == pytest.approx(summary[f"card_win_rate.{card}"], abs=1e-12), card
