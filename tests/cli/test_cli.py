"""The `tablesim` command end to end on the toy game: summaries, JSON, errors, resuming."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from sim.cli import main
from sim.core import load_tables
from tests.core import toygame  # noqa: F401  (registers toy-dice)

ROOT = Path(__file__).resolve().parents[2]


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_registered_games(capsys):
    code, out, _ = run_cli(capsys, "games", "--format", "json")
    assert code == 0
    assert "toy-dice" in [g["name"] for g in json.loads(out)]


def test_the_games_table_keeps_its_columns_whatever_the_title(capsys, monkeypatch):
    import dataclasses

    from sim.cli import info
    from sim.core.game import get_game

    long_title = dataclasses.replace(
        get_game("toy-dice"), name="toy-dice-with-a-long-name", title="A Toy Dice Game With A Very Long Title"
    )
    specs = {"toy-dice": get_game("toy-dice"), long_title.name: long_title}
    monkeypatch.setattr(info, "game_names", lambda: list(specs))
    monkeypatch.setattr(info, "get_game", specs.__getitem__)
    code, out, _ = run_cli(capsys, "games")
    lines = out.strip().splitlines()
    assert code == 0 and len(lines) == 2
    assert len({line.index("players:") for line in lines}) == 1  # one column for every game
    assert lines[1].startswith("toy-dice-with-a-long-name  A Toy Dice Game With A Very Long Title  players:")


def test_rules_prints_the_default_file_and_effective_overrides(capsys):
    code, out, _ = run_cli(capsys, "rules", "toy-dice")
    assert code == 0 and out == (toygame.HERE / "toy_rules.toml").read_text()
    code, out, _ = run_cli(capsys, "rules", "toy-dice", "--set", "game.target=33")
    assert code == 0 and "target = 33" in out


def test_run_json_summary_has_win_rates_with_cis(capsys):
    code, out, _ = run_cli(
        capsys, "run", "toy-dice", "--matches", "60", "--players", "plain,lucky", "--format", "json", "--seed", "3"
    )
    assert code == 0
    summary = json.loads(out)
    seats = summary["win_rate_by_seat"]
    assert [row["seat"] for row in seats] == [0, 1]
    assert sum(row["games"] for row in seats) == 120
    for row in seats:
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]
    by_profile = {row["profile"]: row for row in summary["win_rate_by_profile"]}
    assert by_profile["lucky"]["win_rate"] > by_profile["plain"]["win_rate"]


def test_run_out_dir_tables_identical_for_jobs_and_chunks(capsys, tmp_path):
    dirs = []
    for jobs, chunk in [("1", "60"), ("2", "7")]:
        out_dir = tmp_path / f"j{jobs}"
        code, _, _ = run_cli(
            capsys,
            "run",
            "toy-dice",
            "--matches",
            "60",
            "--players",
            "plain,lucky,plain",
            "--jobs",
            jobs,
            "--chunk-size",
            chunk,
            "--out",
            str(out_dir),
            "--seed",
            "9",
        )
        assert code == 0
        dirs.append(load_tables(out_dir))
    for table in dirs[0]:
        pd.testing.assert_frame_equal(dirs[0][table], dirs[1][table])
    manifest = json.loads((tmp_path / "j1" / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["seed"] == 9
    assert manifest["cells"][0]["rules"]["game"]["target"] == 20


def test_bad_input_one_line_each_exit_2_nothing_written(capsys, tmp_path):
    out_dir = tmp_path / "never"
    cases = [
        (["--set", "game.colour=1"], "game.colour: unknown key"),
        (["--set", "game.target=abc"], "game.target: expected an integer"),
        (["--set", "dice.faces=[1,2]"], "dice.faces: expected 6 values"),
        (["--players", "plain,wizard"], "unknown profile 'wizard'"),
        (["--players", "plain,plain,plain,plain,plain"], "takes 2, 3, 4 players, got 5"),
        (["--matches", "0"], "--matches: got 0; allowed: 1 to 1000000000000000"),
    ]
    for extra, expected in cases:
        argv = ["run", "toy-dice", "--matches", "5", "--players", "plain,lucky", "--out", str(out_dir)]
        # later options win in argparse, so the case's own --players / --matches apply
        code, out, err = run_cli(capsys, *argv, *extra)
        assert code == 2, extra
        lines = err.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0], (extra, err)
        assert not out_dir.exists()


def test_malformed_rules_file(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[game\n")
    code, _, err = run_cli(
        capsys,
        "run",
        "toy-dice",
        "--matches",
        "5",
        "--players",
        "plain,lucky",
        "--rules",
        str(bad),
        "--out",
        str(tmp_path / "o"),
    )
    assert code == 2 and "malformed TOML" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


def test_unknown_game_and_unknown_option(capsys):
    code, _, err = run_cli(capsys, "run", "chess", "--matches", "5", "--players", "a,b")
    assert code == 2 and "unknown game 'chess'" in err
    code, _, err = run_cli(capsys, "run", "toy-dice", "--matches", "5", "--players", "a,b", "--bogus")
    assert code == 2 and "--bogus" in err and len(err.strip().splitlines()) == 1


def test_out_dir_of_a_different_run_is_refused(capsys, tmp_path):
    out_dir = str(tmp_path / "o")
    assert run_cli(capsys, "run", "toy-dice", "--matches", "5", "--players", "plain,lucky", "--out", out_dir)[0] == 0
    code, _, err = run_cli(
        capsys, "run", "toy-dice", "--matches", "5", "--players", "plain,lucky", "--seed", "1", "--out", out_dir
    )
    assert code == 2 and "holds a different run (seed differs)" in err


SCRIPT = """
import sys
sys.path.insert(0, {root!r})
import tests.core.toygame
from sim.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_ctrl_c_keeps_finished_chunks_and_rerun_resumes(tmp_path):
    out_dir = tmp_path / "o"
    script = tmp_path / "cli.py"
    script.write_text(SCRIPT.format(root=str(ROOT)))
    argv = [
        sys.executable,
        str(script),
        "run",
        "toy-dice",
        "--matches",
        "200",
        "--players",
        "plain,lucky",
        "--set",
        "game.delay_s=0.01",
        "--chunk-size",
        "10",
        "--out",
        str(out_dir),
        "--seed",
        "2",
    ]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and len(list((out_dir / "matches").glob("*.parquet"))) < 3:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "rerun the same command to resume" in err
    stored = len(load_tables(out_dir)["matches"])
    assert 30 <= stored < 200 and stored % 10 == 0
    finished = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    resumed = load_tables(out_dir)
    fresh_dir = tmp_path / "fresh"
    fresh = subprocess.run(
        [*argv[:-4], "--out", str(fresh_dir), "--seed", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
    )
    assert fresh.returncode == 0, fresh.stderr
    for table, frame in load_tables(fresh_dir).items():
        pd.testing.assert_frame_equal(frame, resumed[table])


def test_run_help_lists_the_installed_games_and_where_the_players_come_from(capsys):
    from sim.core.game import game_names

    assert main(["run", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert all(name in out for name in game_names()) and "toy-dice" in out
    assert "tablesim profiles GAME" in out
