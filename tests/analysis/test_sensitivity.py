"""Sensitivity: Morris and Sobol rank a parameter that matters above the dummy's noise floor."""

import json

import pandas as pd

from analysis.balance.sensitivity import DUMMY, run_sensitivity

from tests.core import toygame  # noqa: F401

FILE = """
game = "toy-dice"
seed = 4
matches = 30
[[lineups]]
name = "pl"
players = ["plain", "lucky"]
[[parameters]]
key = "game.seat0_bonus"
kind = "float"
low = -2.0
high = 4.0
[[parameters]]
key = "game.max_rounds"     # the game always ends long before: no effect
kind = "int"
low = 40
high = 60
[[outputs]]
metric = "seat_win_rate"
seat = 0
[[outputs]]
metric = "rounds_mean"
[morris]
trajectories = 6
[sobol]
samples = 16
top = 2
"""


def test_morris_and_sobol_rank_the_bonus_above_the_noise_floor(tmp_path):
    path = tmp_path / "sens.toml"
    path.write_text(FILE)
    summary = run_sensitivity(path, tmp_path / "out", jobs=1, progress=False)
    morris = pd.read_csv(tmp_path / "out" / "morris.csv")
    win = morris[morris["output"] == "seat_win_rate(seat 0) @pl"].set_index("parameter")["mu_star"]
    assert win["game.seat0_bonus"] > 5 * win[DUMMY]
    assert win["game.max_rounds"] == 0.0  # common random numbers: no effect at all
    assert win[DUMMY] > 0.0  # fresh seeds for the dummy: the noise floor is visible
    sobol = pd.read_csv(tmp_path / "out" / "sobol.csv")
    st = sobol[sobol["output"] == "seat_win_rate(seat 0) @pl"].set_index("parameter")["ST"]
    assert st["game.seat0_bonus"] > st[DUMMY]
    assert (tmp_path / "out" / "sensitivity.png").stat().st_size > 1000
    assert json.loads((tmp_path / "out" / "sensitivity.json").read_text())["noise_floor"]
    # rerunning resumes from the stored points: nothing is replayed
    parts = {p: p.stat().st_mtime_ns for p in (tmp_path / "out" / "morris" / "matches").glob("*.parquet")}
    run_sensitivity(path, tmp_path / "out", jobs=1, progress=False)
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "out" / "morris" / "matches").glob("*.parquet")} == parts


def test_cli_refuses_a_sensitivity_directory_of_another_analysis(tmp_path, capsys):
    from sim.cli import main

    (tmp_path / "a.toml").write_text(FILE.replace("trajectories = 6", "trajectories = 2").replace("samples = 16", "samples = 2"))
    out = tmp_path / "out"
    assert main(["sensitivity", str(tmp_path / "a.toml"), "--out", str(out), "--no-progress"]) == 0
    (tmp_path / "b.toml").write_text((tmp_path / "a.toml").read_text().replace("seed = 4", "seed = 5"))
    capsys.readouterr()
    assert main(["sensitivity", str(tmp_path / "b.toml"), "--out", str(out), "--no-progress"]) == 2
    assert "holds a different run (seed differs)" in capsys.readouterr().err
