"""The checked-in zone-value search result holds up on seeds it has never seen."""

import json
from pathlib import Path

import numpy as np
import pytest

from analysis.winrates import wilson_interval
from sim.core.game import get_game
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules
from sim.core.runner import Cell, run_cells

STORED = Path(__file__).resolve().parents[2] / "reports" / "examples" / "curlastique_balance"


def test_the_stored_search_claims_what_its_validation_shows():
    summary = json.loads((STORED / "balance.json").read_text())
    best = summary["best"]
    assert summary["meets_all_targets"] and best["meets_all"] and best["matches"] >= 6000
    for check in best["targets"]:
        low, high = check["band"]
        assert low <= check["ci_low"] <= check["value"] <= check["ci_high"] <= high
    rules = load_rules(get_game("curlastique"), STORED / "best_rules.toml")
    assert list(rules.zones.values) == best["point"]["zones.values"] and rules.game.target_score == 500


@pytest.mark.slow
def test_the_balanced_zone_values_keep_seat_0_near_25_percent_on_new_seeds():
    """320 new 4-player club games: seat 0's 99 % CI meets the 23-27 % band, median 4-7 rounds.

    320 games (not the validation's 6,000: this is a re-check on seeds the search never saw,
    bounded to about 16 CPU s) give a 99 % Wilson half-width of about 6 points: the check fails
    when seat 0 wins fewer than 17.2 % or more than 33.1 % of them (the stored validation:
    25.5 %, interval 24.6-26.5 %)."""
    spec = get_game("curlastique")
    rules = load_rules(spec, STORED / "best_rules.toml")
    players = load_lineup(spec, ["club"] * 4, rules)
    tables = run_cells(spec, [Cell("best", "club-4p", rules, players)], 320, root_seed=20261129, jobs=2,
                       progress=False)
    seat0 = tables["players"][tables["players"]["seat"] == 0]
    low, high = wilson_interval(int(seat0["won"].sum()), len(seat0), 0.99)
    assert low <= 0.27 and high >= 0.23, (seat0["won"].mean(), low, high)
    assert 4 <= np.median(tables["matches"]["rounds"]) <= 7
