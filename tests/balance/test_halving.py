"""Successive halving of trials on common random numbers: matches where they decide."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.balance.halving import promoted, rungs
from analysis.balance.search import load_balance, run_balance
from tests.core import toygame  # noqa: F401

PLANTED = """
game = "toy-dice"
seed = 3
matches = 600
[[lineups]]
name = "plain-vs-lucky"
players = ["plain", "lucky"]        # seat 1 gets +1 per roll: seat0_bonus = 1 makes it fair
[[parameters]]
key = "game.seat0_bonus"
kind = "int"
low = -8
high = 8
[[targets]]
metric = "seat_win_rate"
seat = 0
target = 0.5
tolerance = 0.04
[search]
optimizer = "{optimizer}"
trials = 14
pruner = "{pruner}"
first_rung = 60
reduction = 3
validate_top = 1
validate_matches = 1500
validate_baseline = false
"""


def test_rungs_grow_by_the_reduction_factor_up_to_the_full_size():
    assert rungs(600, 60, 3) == [60, 180, 540, 600]
    assert rungs(800, 100, 3) == [100, 300, 800]
    assert rungs(100, 100, 2) == [100]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 10, allow_nan=False), max_size=30), st.floats(0, 10, allow_nan=False), st.integers(2, 5))
def test_the_best_so_far_always_goes_on_and_at_most_a_share_of_the_rung_beats_the_bar(earlier, value, eta):
    if all(value <= v for v in earlier):
        assert promoted(value, earlier, eta)
    n = len(earlier) + 1
    keep = max(1, n // eta)
    # a trial goes on only if fewer than `keep` trials of the rung are strictly better
    if promoted(value, earlier, eta):
        assert sum(v < value for v in earlier) < keep


def _run(tmp_path, optimizer, pruner):
    path = tmp_path / f"{optimizer}-{pruner}.toml"
    path.write_text(PLANTED.format(optimizer=optimizer, pruner=pruner))
    out = tmp_path / f"out-{optimizer}-{pruner}"
    summary = run_balance(load_balance(path), out, progress=False)
    trials = [json.loads(p.read_text()) for p in sorted((out / "trials").glob("*.json"))]
    return summary, trials


def test_halving_finds_the_planted_bonus_for_a_fraction_of_the_matches(tmp_path):
    summary, trials = _run(tmp_path, "random", "halving")
    assert summary["best"]["point"]["game.seat0_bonus"] == 1 and summary["meets_all_targets"]
    # 14 points: without halving each would play 600 matches; most of them stopped after a rung or two
    assert summary["matches_played"]["search"] == sum(t["matches"] for t in trials) < 0.5 * 14 * 600
    pruned = [t for t in trials if t["state"] == "pruned"]
    assert pruned and all(t["matches"] < 600 and len(t["block_losses"]) < 4 for t in pruned)
    for t in pruned:  # only clearly worse points are cut: the planted bonus is never among them
        assert t["point"]["game.seat0_bonus"] != 1
    complete = [t for t in trials if t["state"] == "complete"]
    assert all(t["matches"] == 600 and len(t["block_losses"]) == 4 for t in complete)
    assert all(t["intervals"] for t in complete)  # in-sample 90 % intervals stored for the validation plan


def test_each_promotion_follows_the_rule_on_the_trials_before_it(tmp_path):
    _, trials = _run(tmp_path, "tpe", "halving")
    final = len(rungs(600, 60, 3)) - 1
    for index, trial in enumerate(trials):
        for rung, loss in enumerate(trial["block_losses"][:final]):
            earlier = [t["block_losses"][rung] for t in trials[:index] if len(t["block_losses"]) > rung]
            goes_on = rung + 1 < len(trial["block_losses"])
            assert goes_on == promoted(loss, earlier, 3), (index, rung)
        assert (trial["state"] == "pruned") == (len(trial["block_losses"]) <= final)
