"""benchmarks/gasterospeed_decisions.py: its parts add up to the championship's time and the
policies are left as found. (It measures nothing here: one championship, checked for
consistency only, never against timings.)"""

import importlib.util
import math
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "gasterospeed_decisions.py"


def test_the_parts_add_up_and_the_policies_are_left_as_found():
    spec = importlib.util.spec_from_file_location("gasterospeed_decisions", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    from sim.gasterospeed.players import POLICIES

    before = {cls: dict(vars(cls)) for cls in set(POLICIES.values())}
    f = mod.run_benchmarks(matches=1, seed=3, players="tactician")
    assert {cls: dict(vars(cls)) for cls in before} == before
    assert f["gasterospeed_speed_card_calls"] > 0 and f["gasterospeed_action_card_calls"] > 0
    kinds = sum(f[f"gasterospeed_{name}_ms"] for name in mod.DECISIONS)
    assert math.isclose(kinds, f["gasterospeed_decisions_ms"], rel_tol=1e-9)
    assert math.isclose(f["gasterospeed_decisions_ms"] + f["gasterospeed_rest_ms"], f["gasterospeed_total_ms"],
                        rel_tol=1e-9)
    assert f["gasterospeed_rest_ms"] > 0 and f["gasterospeed_decisions_ms"] > 0
