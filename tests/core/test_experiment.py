"""Experiments: variants × line-ups paired by seed, resumable, extendable, validated."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from sim.cli import main
from sim.core import ConfigError, ResultStore, load_tables
from sim.core.experiment import load_experiment, run_experiment

from . import toygame  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]

EXPERIMENT = """
game = "toy-dice"
matches = {matches}
seed = 7
rotate_seats = true
chunk_size = 6
[baseline]
set = {{ "game.target" = 25 }}
[[variants]]
name = "same-as-baseline"
set = {{ "game.target" = 25 }}
[[variants]]
name = "loaded-die"
set = {{ "dice.faces" = [1, 2, 3, 4, 5, 12] }}
[[lineups]]
name = "plain-lucky"
players = ["plain", "lucky"]
"""


def write(tmp_path, matches=24, extra=""):
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT.format(matches=matches) + extra)
    return path


def test_variants_share_seeds_and_an_identical_variant_is_identical(tmp_path):
    experiment = load_experiment(write(tmp_path))
    assert [c.variant for c in experiment.cells] == ["baseline", "same-as-baseline", "loaded-die"]
    tables = run_experiment(experiment, ResultStore(tmp_path / "out"), progress=False)
    matches = tables["matches"]
    assert matches.groupby("variant").size().to_dict() == {"baseline": 24, "loaded-die": 24, "same-as-baseline": 24}
    base = matches[matches.variant == "baseline"].drop(columns="variant").reset_index(drop=True)
    same = matches[matches.variant == "same-as-baseline"].drop(columns="variant").reset_index(drop=True)
    pd.testing.assert_frame_equal(base, same)
    events = tables["events"]
    loaded = events[events.variant == "loaded-die"]
    base_events = events[events.variant == "baseline"]
    # the loaded die maps the same rolls (same seeds) to other faces: a 6 becomes a 12
    merged = base_events.merge(loaded, on=["lineup", "match", "index"], suffixes=("", "_v"))
    assert len(merged) > 0
    assert ((merged["roll"] == merged["roll_v"]) | ((merged["roll"] == 6) & (merged["roll_v"] == 12))).all()


def test_rerun_plays_nothing_and_extending_plays_only_new_matches(tmp_path):
    path = write(tmp_path)
    store = ResultStore(tmp_path / "out")
    run_experiment(load_experiment(path), store, progress=False)
    parts = {p: p.stat().st_mtime_ns for p in (tmp_path / "out" / "matches").glob("*.parquet")}
    run_experiment(load_experiment(path), store, progress=False)
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "out" / "matches").glob("*.parquet")} == parts
    path = write(tmp_path, matches=36)
    extended = run_experiment(load_experiment(path), store, progress=False)
    assert len(extended["matches"]) == 3 * 36
    for part, mtime in parts.items():
        assert part.stat().st_mtime_ns == mtime  # old chunks untouched
    fresh = run_experiment(load_experiment(path), ResultStore(tmp_path / "fresh"), progress=False)
    for table in fresh:
        pd.testing.assert_frame_equal(fresh[table], extended[table])


def test_precision_target_plays_on_until_the_ci_is_tight(tmp_path):
    path = write(tmp_path, matches=20, extra="[precision]\nhalf_width = 0.12\nmax_matches = 400\nstep = 20\n")
    # without rotation: under rotation each toy-dice seat wins exactly once per seed (a player's
    # dice follow it round the table), so the seat rates are exactly 1/2 and tight at once
    path.write_text(path.read_text().replace("rotate_seats = true", "rotate_seats = false"))
    tables = run_experiment(load_experiment(path), ResultStore(tmp_path / "out"), progress=False)
    per_cell = tables["matches"].groupby("variant").size()
    assert (per_cell > 20).all() and (per_cell <= 400).all()
    from sim.core.experiment import seat_half_width

    assert seat_half_width(tables["players"]) <= 0.12


def test_bad_experiment_files_name_each_problem(tmp_path):
    path = write(tmp_path).read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(
        path.replace('"dice.faces" = [1, 2, 3, 4, 5, 12]', '"dice.faces" = [1, 2]')
        .replace('["plain", "lucky"]', '["plain", "wizard"]')
        .replace("matches = 24", "matches = 0")
    )
    with pytest.raises(ConfigError) as info:
        load_experiment(bad)
    assert info.value.problems == [f"{bad}: matches: got 0; allowed: >= 1"]
    bad.write_text(bad.read_text().replace("matches = 0", "matches = 4"))
    with pytest.raises(ConfigError) as info:
        load_experiment(bad)
    lines = info.value.problems
    assert f"{bad}: variant 'loaded-die': dice.faces: expected 6 values (one per side), got 2" in lines
    assert any("unknown profile 'wizard'" in line for line in lines)


def test_a_line_up_problem_of_every_variant_is_said_once_and_one_of_some_variants_names_them(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(write(tmp_path).read_text().replace('["plain", "lucky"]', '["plain", "wizard"]'))
    with pytest.raises(ConfigError) as info:
        load_experiment(bad)
    wizard = [line for line in info.value.problems if "wizard" in line]
    assert len(wizard) == 1 and wizard[0].startswith(f"{bad}: lineup 'plain-lucky': players: unknown profile")
    teams = tmp_path / "teams.toml"
    teams.write_text(
        'game = "curlastique"\nmatches = 10\n[[variants]]\nname = "teams"\n'
        'set = { "game.teams" = true }\n[[variants]]\nname = "other"\n'
        'set = { "game.target_score" = 300 }\n[[lineups]]\nname = "three"\n'
        'players = ["club", "club", "club"]\n'
    )
    with pytest.raises(ConfigError) as info:
        load_experiment(teams)
    assert info.value.problems == [
        f"{teams}: lineup 'three' (teams): players: game.teams = true needs 4 players (2 teams of 2), got 3"
    ]


def test_cli_experiment_bad_file_exit_2_nothing_written(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'game = "toy-dice"\nmatches = 3\nseed = 1\n[[lineups]]\nname = "x"\nplayers = ["plain", "plain"]\n'
        '[[variants]]\nname = "v"\nset = { "game.nope" = 1 }\n'
    )
    code = main(["experiment", str(bad), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "variant 'v': game.nope: unknown key" in err
    assert not (tmp_path / "o").exists()


KILL_SCRIPT = """
import sys
sys.path.insert(0, {root!r})
import tests.core.toygame
from sim.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_sigkill_halfway_then_rerun_gives_identical_tables(tmp_path):
    path = write(tmp_path, matches=120)
    path.write_text(path.read_text().replace('"game.target" = 25 }', '"game.target" = 25, "game.delay_s" = 0.01 }', 1))
    script = tmp_path / "cli.py"
    script.write_text(KILL_SCRIPT.format(root=str(ROOT)))
    argv = [sys.executable, str(script), "experiment", str(path), "--out", str(tmp_path / "killed")]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline and len(list((tmp_path / "killed" / "matches").glob("*.parquet"))) < 10:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    stored = len(load_tables(tmp_path / "killed")["matches"])
    assert 0 < stored < 360
    assert subprocess.run(argv, capture_output=True, timeout=120).returncode == 0
    whole = run_experiment(load_experiment(path), ResultStore(tmp_path / "whole"), progress=False)
    resumed = load_tables(tmp_path / "killed")
    for table in whole:
        pd.testing.assert_frame_equal(whole[table], resumed[table])


def test_an_experiment_file_without_matches_is_one_line_naming_the_key(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "toy-dice"\nseed = 1\n[[lineups]]\nname = "x"\nplayers = ["plain", "plain"]\n')
    code = main(["experiment", str(bad), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert (
        code == 2
        and err
        == f"tablesim: error: {bad}: matches: missing; the matches per variant and line-up, e.g. matches = 200\n"
    )
    assert not (tmp_path / "o").exists()


def test_matches_given_on_the_command_line_are_rounded_up_to_whole_rotations(tmp_path, capsys):
    path = tmp_path / "three.toml"
    path.write_text(
        'game = "toy-dice"\nmatches = 12\nseed = 1\nchunk_size = 4\nrotate_seats = true\n'
        '[[lineups]]\nname = "x"\nplayers = ["plain", "lucky", "plain"]\n'
    )
    out = tmp_path / "o"
    code = main(["experiment", str(path), "--matches", "10", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert (
        "tablesim experiment: --matches 10 rounded up to 12: with seat rotation every seed is played under "
        "each rotation of every line-up"
    ) in err
    matches = load_tables(out)["matches"]
    assert len(matches) == 12 and matches.groupby("seed").size().eq(3).all()


def test_experiment_seed_replays_the_design_on_other_seeds(tmp_path, capsys, monkeypatch):
    import json

    path = write(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["experiment", str(path), "--format", "json"]) == 0  # the file's seed, 7
    assert main(["experiment", str(path), "--seed", "7", "--format", "json"]) == 0
    assert main(["experiment", str(path), "--seed", "8", "--format", "json"]) == 0
    capsys.readouterr()
    file_seed, seven, eight = (
        load_tables(tmp_path / "results" / name)["matches"] for name in ("exp", "exp-seed7", "exp-seed8")
    )
    pd.testing.assert_frame_equal(file_seed, seven)
    assert len(eight) == len(file_seed)  # the same design ...
    assert not file_seed[["winner", "rounds"]].equals(eight[["winner", "rounds"]])  # ... on other seeds
    assert json.loads((tmp_path / "results" / "exp-seed8" / "manifest.json").read_text())["seed"] == 8
    assert main(["experiment", str(path), "--seed", "-1"]) == 2
    assert "--seed: got -1" in capsys.readouterr().err
