"""Balancing: a planted problem with a known answer is found, validated and resumable."""

import json

import numpy as np
import pytest

from analysis.balance.ntbea import NTBEA
from analysis.balance.search import load_balance, run_balance
from analysis.balance.space import Parameter, SearchSpace, repair_counts
from sim.core import ConfigError

from tests.core import toygame  # noqa: F401

PLANTED = """
game = "toy-dice"
seed = 3
matches = {matches}
[[lineups]]
name = "plain-vs-lucky"
players = ["plain", "lucky"]        # seat 1 gets +1 per roll: seat0_bonus = 1 makes it fair
[[parameters]]
key = "game.seat0_bonus"
kind = "int"
low = -3
high = 5
[[targets]]
metric = "seat_win_rate"
seat = 0
target = 0.5
tolerance = 0.03
[search]
optimizer = "{optimizer}"
trials = {trials}
blocks = 2
validate_top = 2
validate_matches = 1500
"""


def write(tmp_path, optimizer="tpe", trials=16, matches=300):
    path = tmp_path / "balance.toml"
    path.write_text(PLANTED.format(optimizer=optimizer, trials=trials, matches=matches))
    return path


@pytest.mark.parametrize("optimizer", ["tpe", "ntbea"])
def test_planted_first_seat_bonus_is_found_and_validated(tmp_path, optimizer):
    summary = run_balance(load_balance(write(tmp_path, optimizer)), tmp_path / "out", progress=False)
    best = summary["best"]
    assert best["point"]["game.seat0_bonus"] == 1, best["point"]
    assert summary["meets_all_targets"], best["targets"]
    check = best["targets"][0]
    assert check["ci_low"] >= 0.47 and check["ci_high"] <= 0.53
    rules = (tmp_path / "out" / "best_rules.toml").read_text()
    assert "seat0_bonus" in rules


def test_a_target_missed_on_fresh_seeds_is_not_reported_as_met(tmp_path):
    path = write(tmp_path, "random", trials=4, matches=60)
    # an impossible band: 0.5 ± 0.001 cannot be shown on 1,500 fresh matches
    path.write_text(path.read_text().replace("tolerance = 0.03", "tolerance = 0.001"))
    summary = run_balance(load_balance(path), tmp_path / "out", progress=False)
    assert not summary["meets_all_targets"]
    assert all(not c["meets_all"] for c in json.loads((tmp_path / "out" / "validation.json").read_text())["candidates"])


def test_killed_search_resumes_from_its_stored_trials(tmp_path):
    path = write(tmp_path, "tpe", trials=6, matches=60)
    out = tmp_path / "out"
    full = run_balance(load_balance(path), tmp_path / "full", progress=False)
    run_balance(load_balance(path), out, progress=False)
    for stale in sorted((out / "trials").glob("*.json"))[3:]:
        stale.unlink()  # as if killed after three trials
    (out / "validation.json").unlink()
    resumed = run_balance(load_balance(path), out, progress=False)
    assert resumed["trials"] == 6
    first_three = [json.loads(p.read_text())["point"] for p in sorted((tmp_path / "full" / "trials").glob("*.json"))[:3]]
    assert [json.loads(p.read_text())["point"] for p in sorted((out / "trials").glob("*.json"))[:3]] == first_three
    assert full["trials"] == resumed["trials"]


def test_bad_balance_files_name_the_problem(tmp_path):
    path = write(tmp_path)
    path.write_text(path.read_text().replace('key = "game.seat0_bonus"', 'key = "game.nope"'))
    with pytest.raises(ConfigError) as info:
        load_balance(path)
    assert any("game.nope: unknown key" in line for line in info.value.problems)
    path.write_text(write(tmp_path).read_text().replace("tolerance = 0.03", ""))
    with pytest.raises(ConfigError) as info:
        load_balance(path)
    assert info.value.problems == [f"{path}: targets[0].tolerance: must be > 0 with a target"]


def test_counts_keep_their_total_and_bounds():
    for raw in ([1, 1, 1, 1], [9, 0, 0, 0], [0, 0, 0, 0], [3.4, 2.2, 7.9, 1.0]):
        counts = repair_counts(raw, 1, 8, 20)
        assert sum(counts) == 20 and all(1 <= c <= 8 for c in counts)


def test_list_elements_merge_into_the_baseline_list():
    space = SearchSpace((Parameter(key="zones.values[0]", kind="int", low=50, high=200),),
                        {"zones": {"values": [100, 80, 40, 20]}})
    assert space.overrides({"zones.values[0]": 150}) == [("zones.values", [150, 80, 40, 20])]


@pytest.mark.parametrize("seed", range(4))
def test_ntbea_gets_near_the_optimum_of_a_noisy_discrete_function(seed):
    """300 evaluations of a 1,000-point grid with noise σ = 1 (a unit step costs 1 or more)."""
    noise = np.random.default_rng(seed)
    dims = [(f"x{i}", list(range(10))) for i in range(3)]
    search = NTBEA(dims, np.random.default_rng(seed + 1), neighbours=30)
    for _ in range(300):
        point = search.ask()
        value = -sum((point[f"x{i}"] - (2 + 3 * i)) ** 2 for i in range(3)) + noise.normal(0, 1)
        search.tell(point, value)
    best = search.recommend()
    assert sum((best[f"x{i}"] - (2 + 3 * i)) ** 2 for i in range(3)) <= 2, best


def test_balance_and_sensitivity_reports(tmp_path, capsys):
    from sim.cli import main

    run_balance(load_balance(write(tmp_path, "random", trials=3, matches=40)), tmp_path / "out", progress=False)
    assert main(["report", str(tmp_path / "out")]) == 0
    text = (tmp_path / "out" / "report.html").read_text()
    for needle in ("Verdict", "Validated candidates", "Convergence", "Every trial", "Best rules", "data:image/png"):
        assert needle in text
