"""`tablesim run` rotates the seats by default and prints the report's seed-clustered intervals;
a rerun says how many matches were already stored."""

import json

from sim.cli import main
from tests.core import toygame  # noqa: F401  (registers toy-dice)

# seat 0 gets +3 points per roll: a strong seat effect, as Curlastique's starting rule has
SEAT_EFFECT = ["--set", "game.seat0_bonus=3"]


def _profiles(capsys, players, *extra):
    assert (
        main(
            [
                "run",
                "toy-dice",
                "--matches",
                "600",
                "--players",
                players,
                "--seed",
                "5",
                "--format",
                "json",
                *SEAT_EFFECT,
                *extra,
            ]
        )
        == 0
    )
    out, err = capsys.readouterr()
    summary = json.loads(out)
    return {row["profile"]: row for row in summary["win_rate_by_profile"]}, summary, err


def test_swapping_the_line_up_moves_each_profile_by_less_than_its_interval(capsys):
    first, summary, _ = _profiles(capsys, "plain,lucky")
    second, _, _ = _profiles(capsys, "lucky,plain")
    assert "seats rotated" in summary["seating"] and summary["seeds"] == 300
    for name in ("plain", "lucky"):
        a, b = first[name], second[name]
        change = abs(a["win_rate"] - b["win_rate"])
        assert change < a["ci_high"] - a["ci_low"] and change < b["ci_high"] - b["ci_low"], (name, a, b)
        assert "clustered by seed" in a["method"]
    # without rotation the same swap is a seat effect: the profiles' rates move far beyond their CIs
    fixed_a, _, _ = _profiles(capsys, "plain,lucky", "--no-rotate")
    fixed_b, _, _ = _profiles(capsys, "lucky,plain", "--no-rotate")
    moved = abs(fixed_a["lucky"]["win_rate"] - fixed_b["lucky"]["win_rate"])
    assert moved > 3 * (fixed_a["lucky"]["ci_high"] - fixed_a["lucky"]["ci_low"])


def test_text_summary_says_seats_are_rotated_and_names_the_intervals(capsys):
    assert main(["run", "toy-dice", "--matches", "41", "--players", "plain,lucky", "--seed", "2"]) == 0
    out, err = capsys.readouterr()
    assert "--matches 41 rounded up to 42" in err
    assert "seats rotated: each of the 21 seeds is played under all 2 rotations" in out
    assert "win rate by seat (95 % simultaneous CI: Bonferroni–Clopper–Pearson" in out
    assert "win rate by profile (95 % CI: Wilson, clustered by seed)" in out
    assert main(["run", "toy-dice", "--matches", "41", "--players", "plain,lucky", "--no-rotate"]) == 0
    out, err = capsys.readouterr()
    assert "rounded" not in err and "seats fixed (--no-rotate)" in out and "41 matches" in out


def test_a_rerun_says_how_many_matches_were_already_stored(capsys, tmp_path):
    argv = ["run", "toy-dice", "--matches", "20", "--players", "plain,lucky", "--out", str(tmp_path / "r")]
    assert main(argv) == 0
    assert "resumed" not in capsys.readouterr().err
    assert main(argv[:3] + ["30"] + argv[4:]) == 0
    assert "tablesim run: resumed: 20 of 30 matches already stored" in capsys.readouterr().err
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["cells"][0]["rotate_seats"] is True and manifest["matches"] == 30


def test_an_experiment_rerun_says_resumed(capsys, tmp_path):
    from tests.analysis.toydata import EXPERIMENT

    path = tmp_path / "e.toml"
    path.write_text(EXPERIMENT.format(matches=6))
    out = str(tmp_path / "res")
    assert main(["experiment", str(path), "--out", out]) == 0
    capsys.readouterr()
    assert main(["experiment", str(path), "--out", out, "--matches", "9"]) == 0
    err = capsys.readouterr().err
    assert "tablesim experiment: resumed: 48 of 72 matches already stored" in err  # 8 cells x 6 of 9


def test_an_empty_seat_in_the_line_up_is_one_error_line_and_nothing_is_written(capsys, tmp_path):
    out = tmp_path / "never"
    assert main(["run", "toy-dice", "--matches", "2", "--players", "plain,,lucky", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "tablesim: error: players: seat 2 of 'plain,,lucky' has no profile; allowed: a preset of "
        "toy-dice or the path of a .toml profile file for every seat"
    ]
    assert not out.exists()


def test_a_rules_file_with_a_byte_order_mark_is_read(capsys, tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_bytes("\ufeff[game]\nseat0_bonus = 3\n".encode())
    assert (
        main(
            ["run", "toy-dice", "--matches", "4", "--players", "plain,lucky", "--rules", str(rules), "--format", "json"]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["matches"] == 4


def test_a_full_disk_is_one_line_naming_the_directory_and_a_rerun_resumes(capsys, tmp_path, monkeypatch):
    import errno

    from sim.core import load_tables
    from sim.core.store import ResultStore

    out = tmp_path / "r"
    write_chunk, written = ResultStore.write_chunk, []

    def fills_up(store, tables):
        if written:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(len(tables["matches"]))
        write_chunk(store, tables)

    monkeypatch.setattr(ResultStore, "write_chunk", fills_up)
    argv = ["run", "toy-dice", "--matches", "40", "--players", "plain,lucky", "--chunk-size", "10", "--out", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (
        f"tablesim: error: the disk is full (No space left on device) while writing {out}; the "
        "matches finished so far are kept: free some space and rerun the same command to resume"
    )
    assert len(load_tables(out)["matches"]) == written[0] == 10
    monkeypatch.setattr(ResultStore, "write_chunk", write_chunk)
    assert main(argv) == 0
    assert "resumed" in capsys.readouterr().err and len(load_tables(out)["matches"]) == 40


def test_run_stops_once_the_seats_are_shown_unfair_and_a_rerun_plays_nothing(capsys, tmp_path):
    out = tmp_path / "res"
    argv = [
        "run",
        "toy-dice",
        "--matches",
        "20",
        "--players",
        "plain,plain",
        "--seed",
        "3",
        *SEAT_EFFECT,
        "--stop-fair",
        "0.05",
        "--max-matches",
        "4000",
        "--chunk-size",
        "20",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    text = capsys.readouterr().out
    manifest = json.loads((out / "manifest.json").read_text())
    (stop,) = manifest["stopping"]
    assert stop["answers"] == {"fairness": "unfair"} and 20 < stop["matches"] < 4000
    assert f"baseline / plain,plain: {stop['matches']:,} matches; fairness: unfair" in text
    parts = {p: p.stat().st_mtime_ns for p in (out / "matches").glob("*.parquet")}
    assert main(argv) == 0
    capsys.readouterr()
    assert {p: p.stat().st_mtime_ns for p in (out / "matches").glob("*.parquet")} == parts
    assert json.loads((out / "manifest.json").read_text())["stopping"] == manifest["stopping"]
    # the same answer without a results directory
    assert main(argv[:-2] + ["--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["matches"] == stop["matches"]


def test_bad_stopping_options_are_one_line_and_write_nothing(capsys, tmp_path):
    base = ["run", "toy-dice", "--matches", "20", "--players", "plain,plain", "--out", str(tmp_path / "never")]
    for extra, expected in (
        (["--stop-fair", "0.7"], "--stop-fair: got 0.7; allowed: a proportion above 0"),
        (["--max-matches", "100"], "--max-matches: only with --stop-fair or --stop-half-width"),
        (["--stop-fair", "0.02", "--max-matches", "10"], "--max-matches: got 10; allowed: 20 to"),
        (["--stop-half-width", "0.05", "--stop-alpha", "0"], "--stop-alpha: got 0.0"),
        (
            ["--stop-fair", "0.02", "--players", "plain,lucky", "--no-rotate"],
            "--stop-fair: the seats hold different profiles and are not rotated",
        ),
    ):
        assert main(base + extra) == 2, extra
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and expected in err[0], (extra, err)
        assert not (tmp_path / "never").exists()
