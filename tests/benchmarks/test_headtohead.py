"""The one head-to-head measurement (sim.core.headtohead), on the outside test game Pig."""

import numpy as np

from sim.core.estimators import clustered_wilson, wilson_interval
from sim.core.headtohead import head_to_head
from tests.benchmarks.scripts import load

main = load("headtohead").main


def test_a_profile_against_itself_is_even_and_the_interval_is_clustered_by_seed():
    h = head_to_head("pig", "standard", "standard", 120, seed=4)
    assert h.games == 120 and h.ci_low < 0.5 < h.ci_high
    first = h.tables["players"].query("slot == 0")
    if "seed" not in first:
        first = first.merge(h.tables["matches"][["match", "seed"]], on="match")
    per_seed = first.assign(won=first["won"].astype(float)).groupby("seed")["won"].agg(["sum", "count"])
    assert (per_seed["count"] == 2).all()  # one match per seating of each seed: the cluster
    _, low, high, _ = clustered_wilson(per_seed["sum"].to_numpy(float), per_seed["count"].to_numpy(float))
    assert (h.ci_low, h.ci_high) == (low, high)


def test_the_stronger_profile_wins_more_and_the_cli_prints_one_line_per_pair(capsys):
    h = head_to_head("pig", "bold", "cautious", 200, seed=2)
    assert h.a_rate > 0.5  # bold is the top of Pig's skill path
    plain_low, plain_high = wilson_interval(h.a_wins, h.games)
    assert h.ci_high - h.ci_low >= float(np.asarray(plain_high - plain_low)) - 1e-12
    assert main(["pig", "bold:cautious,cautious:bold", "--games", "40"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith("pig: bold vs cautious: ")


def test_a_profile_file_is_counted_by_the_name_its_player_plays_under(tmp_path):
    # the players table names a file's player by its ``name`` key, not by the path given:
    # counting the path gave "0/N = 0.000 [nan, nan]" whatever was played
    bold = tmp_path / "my_bold.toml"
    bold.write_text('base = "bold"\nname = "my-bold"\n')
    by_file = head_to_head("pig", str(bold), "cautious", 120, seed=2)
    by_name = head_to_head("pig", "bold", "cautious", 120, seed=2)
    assert by_file.a_wins == by_name.a_wins > 60
    assert (by_file.ci_low, by_file.ci_high) == (by_name.ci_low, by_name.ci_high)
