"""benchmarks/gasterospeed_decisions.py: its parts add up to the championship's time and the
policies are left as found. (It measures nothing here: one championship, checked for
consistency only, never against timings.)"""

import math

from tests.benchmarks.scripts import load


def test_the_parts_add_up_and_the_policies_are_left_as_found():
    mod = load("gasterospeed_decisions")
    from sim.gasterospeed.players import tactician_phases
    from sim.gasterospeed.players.policies import POLICIES

    before = {cls: dict(vars(cls)) for cls in set(POLICIES.values())}
    compiled = {name: getattr(tactician_phases, name) for name in mod.COMPILED}
    f = mod.run_benchmarks(matches=1, seed=3, players="tactician")
    assert {cls: dict(vars(cls)) for cls in before} == before
    assert {name: getattr(tactician_phases, name) for name in mod.COMPILED} == compiled
    # four tacticians: a turn's speed phase and action-card choices are one compiled call
    assert f["gasterospeed_compiled_speed_phase_calls"] > 0 and f["gasterospeed_speed_card_calls"] == 0
    assert f["gasterospeed_action_card_calls"] == 0
    kinds = sum(f[f"gasterospeed_{name}_ms"] for name in mod.DECISIONS)
    assert math.isclose(kinds, f["gasterospeed_decisions_ms"], rel_tol=1e-9)
    compiled_parts = sum(f[f"gasterospeed_compiled_{name}_ms"] for name in mod.COMPILED)
    assert math.isclose(compiled_parts, f["gasterospeed_compiled_ms"], rel_tol=1e-9)
    parts = f["gasterospeed_decisions_ms"] + f["gasterospeed_compiled_ms"] + f["gasterospeed_rest_ms"]
    assert math.isclose(parts, f["gasterospeed_total_ms"], rel_tol=1e-9)
    assert f["gasterospeed_rest_ms"] > 0 and f["gasterospeed_decisions_ms"] > 0


def test_greedy_players_decide_their_speed_cards_in_python():
    mod = load("gasterospeed_decisions")
    f = mod.run_benchmarks(matches=1, seed=3, players="greedy")
    assert f["gasterospeed_speed_card_calls"] > 0 and f["gasterospeed_compiled_ms"] == 0
