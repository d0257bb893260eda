"""benchmarks/carrom_decisions.py: its parts add up to the match's time and count decisions.
(It measures nothing here: one match, checked for consistency only, never against timings.)"""

import math

from tests.benchmarks.scripts import load


def test_the_parts_add_up_and_the_planner_is_left_as_found():
    mod = load("carrom_decisions")
    from sim.carrom.players.planner import Planner

    decide = Planner.decide
    f = mod.run_benchmarks(matches=1, seed=3)
    assert Planner.decide is decide
    assert f["carrom_break_decisions_per_match"] >= 1 and f["carrom_other_decisions_per_match"] >= 1
    assert 0 < f["carrom_other_candidates_ms"] <= f["carrom_other_decisions_ms"]
    parts = f["carrom_break_decisions_ms"] + f["carrom_other_decisions_ms"] + f["carrom_rest_ms"]
    assert math.isclose(parts, f["carrom_total_ms"], rel_tol=1e-9)
    assert f["carrom_rest_ms"] > 0
