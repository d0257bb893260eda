"""`tablesim bench --only split` end to end: both games' splits, each adding up to its total.
(Nothing is measured against a timing.)"""

import json
import math

from sim.cli import main


def test_tablesim_bench_split_prints_both_games_splits(capsys):
    assert main(["bench", "--only", "split", "--seconds", "0.1", "--format", "json"]) == 0
    f = json.loads(capsys.readouterr().out)
    carrom = f["carrom_break_decisions_ms"] + f["carrom_other_decisions_ms"] + f["carrom_rest_ms"]
    assert math.isclose(carrom, f["carrom_total_ms"], rel_tol=1e-9)
    gasterospeed = f["gasterospeed_decisions_ms"] + f["gasterospeed_compiled_ms"] + f["gasterospeed_rest_ms"]
    assert math.isclose(gasterospeed, f["gasterospeed_total_ms"], rel_tol=1e-9)
    assert f["carrom_break_decisions_per_match"] >= 1 and f["gasterospeed_compiled_speed_phase_calls"] > 0
