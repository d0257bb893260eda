"""Results are never lost, duplicated or half-written.

Each test asserts the exit status, the one line the user sees, and what is on disk afterwards.
"""

import json
import os
import shutil
import signal

import pandas as pd
import pytest

from sim.core import ResultStore, load_tables
from sim.core.store import cell_key, part_name

from .reliability import error_lines, parts, popen, run_cli, snapshot, wait_for

TWO_LINEUPS = """
game = "toy-dice"
matches = {matches}
seed = 5
chunk_size = 4
[[lineups]]
name = "{a}"
players = ["plain", "lucky"]
[[lineups]]
name = "{b}"
players = ["lucky", "plain"]
"""


def assert_same_tables(a, b):
    for table in ("matches", "players", "rounds", "events"):
        pd.testing.assert_frame_equal(a[table], b[table])


def run_args(out, matches=40, *extra):
    return [
        "run",
        "toy-dice",
        "--matches",
        matches,
        "--players",
        "plain,lucky",
        "--seed",
        3,
        "--chunk-size",
        10,
        "--out",
        out,
        "--no-progress",
        *extra,
    ]


# line-up names -----------------------------------------------------------------------------


def test_lineups_differing_only_in_cleaned_characters_keep_their_own_matches(capsys, tmp_path):
    path = tmp_path / "exp.toml"
    path.write_text(TWO_LINEUPS.format(matches=10, a="club vs casual", b="club/vs/casual"))
    out = tmp_path / "out"
    code, stdout, err = run_cli(capsys, "experiment", path, "--out", out, "--no-progress")
    assert code == 0, err
    assert f"20 matches stored in {out}" in stdout
    tables = load_tables(out)
    assert tables["matches"].groupby("lineup").size().to_dict() == {"club vs casual": 10, "club/vs/casual": 10}
    assert len(parts(out)) == 6  # 3 chunks of 4, 4, 2 matches per line-up
    assert {p.name.split("_")[0] for p in parts(out)} == {
        cell_key("baseline", "club vs casual"),
        cell_key("baseline", "club/vs/casual"),
    }
    # the players of each line-up are the ones it declared (nothing swapped by an overwrite)
    first_seat = tables["players"].query(
        "seat == 0 and rotation == 0" if "rotation" in tables["players"] else "seat == 0"
    )
    assert set(first_seat[first_seat.lineup == "club vs casual"]["profile"]) == {"plain"}
    assert set(first_seat[first_seat.lineup == "club/vs/casual"]["profile"]) == {"lucky"}
    before = {p: p.stat().st_mtime_ns for p in parts(out)}
    code, stdout, _ = run_cli(capsys, "experiment", path, "--out", out, "--no-progress")
    assert code == 0 and "20 matches stored" in stdout
    assert {p: p.stat().st_mtime_ns for p in parts(out)} == before  # a rerun replays nothing


# locked directories ------------------------------------------------------------------------


def test_a_second_run_into_a_locked_directory_exits_2_and_no_key_is_duplicated(capsys, tmp_path):
    out = tmp_path / "out"
    first = popen(tmp_path, *run_args(out, 120, "--set", "game.delay_s=0.02", "--chunk-size", 25))
    try:
        assert wait_for(lambda: len(parts(out)) >= 1), "the first run never stored a chunk"
        before = snapshot(out)
        code, _, err = run_cli(capsys, *run_args(out, 120, "--set", "game.delay_s=0.02", "--chunk-size", 30))
        assert first.poll() is None, "the first run ended before the second was tried"
        [line] = error_lines(err)
        assert code == 2
        assert line.startswith(f"tablesim: error: {out}: in use by another tablesim run (pid {first.pid} on ")
        assert "--chunk-size 25" in line  # the holder's command
        after = snapshot(out)
        assert set(after) >= set(before) and after.get("manifest.json") == before.get("manifest.json")
    finally:
        stdout, stderr = first.communicate(timeout=120)
    assert first.returncode == 0, stderr
    matches = load_tables(out)["matches"]
    assert len(matches) == 120 and not matches.duplicated(["variant", "lineup", "match"]).any()
    assert not (out / ".lock").exists()
    code, stdout, err = run_cli(capsys, *run_args(out, 120, "--set", "game.delay_s=0.02", "--chunk-size", 30))
    assert code == 0 and "120 matches" in stdout, err


def test_a_lock_left_by_a_killed_run_does_not_block(capsys, tmp_path):
    out = tmp_path / "out"
    first = popen(tmp_path, *run_args(out, 400, "--set", "game.delay_s=0.0002", "--chunk-size", 1))
    assert wait_for(lambda: len(parts(out)) >= 1)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait(timeout=30)
    assert (out / ".lock").exists()  # the file stays; the kernel released its flock
    code, stdout, err = run_cli(capsys, *run_args(out, 400, "--set", "game.delay_s=0.0002"))
    assert code == 0, err
    matches = load_tables(out)["matches"]
    assert len(matches) == 400 and not matches.duplicated(["variant", "lineup", "match"]).any()


# damaged parts -----------------------------------------------------------------------------


@pytest.mark.parametrize("damage", ["truncated", "empty", "players-garbage"])
def test_a_damaged_part_is_named_moved_aside_and_replayed(capsys, tmp_path, damage):
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    assert run_cli(capsys, *run_args(fresh))[0] == 0
    assert run_cli(capsys, *run_args(out))[0] == 0
    victim = parts(out)[1]
    if damage == "truncated":
        victim.write_bytes(victim.read_bytes()[:100])
    elif damage == "empty":
        victim.write_bytes(b"")
    else:
        (out / "players" / victim.name).write_bytes(os.urandom(300))
    code, stdout, err = run_cli(capsys, "report", out)
    assert code == 3, err  # written, labelled incomplete (tests/core/test_incomplete_store.py)
    # pytest's tmp path holds this test's name ("...damaged..."): look for the phrase, not the word
    [line] = [x for x in error_lines(err) if ": damaged (" in x]
    assert line.startswith(f"tablesim: warning: {out / 'matches' / victim.name}: damaged (")
    assert "moved to" in line and "played again by the next run" in line
    assert not victim.exists() and (out / "damaged" / "matches" / victim.name).exists()
    assert len(load_tables(out)["matches"]) == 30
    code, stdout, err = run_cli(capsys, *run_args(out))
    assert code == 0, err
    assert "damaged" not in err.replace(str(tmp_path), "<tmp>")
    assert_same_tables(load_tables(out), load_tables(fresh))


def test_a_rerun_alone_finds_the_damaged_part_and_replays_it(capsys, tmp_path):
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    assert run_cli(capsys, *run_args(fresh))[0] == 0
    assert run_cli(capsys, *run_args(out))[0] == 0
    victim = parts(out)[2]
    victim.write_bytes(victim.read_bytes()[: len(victim.read_bytes()) // 2])
    code, stdout, err = run_cli(capsys, *run_args(out))
    assert code == 0, err
    [line] = [x for x in error_lines(err.replace(str(tmp_path), "<tmp>")) if "damaged" in x]
    assert victim.name in line and "unreadable" in line
    assert_same_tables(load_tables(out), load_tables(fresh))
    assert victim.exists()  # replayed under the same name


def test_a_part_whose_rows_belong_to_another_cell_is_refused(capsys, tmp_path):
    out = tmp_path / "out"
    assert run_cli(capsys, *run_args(out))[0] == 0
    source = parts(out)[0]
    foreign = part_name("baseline", "someone else", 0, 9)
    for table in ("matches", "players", "rounds", "events"):
        shutil.copy(out / table / source.name, out / table / foreign)
    tables = load_tables(out)
    err = capsys.readouterr().err
    assert len(tables["matches"]) == 40 and set(tables["matches"]["lineup"]) == {"plain,lucky"}
    assert f"{foreign}: damaged (its rows belong to another variant or line-up" in err


# damaged manifests -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content,reason",
    [
        (bytes(range(7, 256, 4)) + b"\xff", "damaged (not valid JSON"),
        (b'{"kind": "run", "game": "toy-di', "damaged (not valid JSON"),
        (b"[]", "damaged (expected a JSON object, got list)"),
        (b"{}", "not a tablesim manifest (no 'kind')"),
        (b'{"kind": "run"}', "not a tablesim manifest (no 'game')"),
    ],
)
def test_a_damaged_manifest_is_one_line_for_every_command(capsys, tmp_path, content, reason):
    out = tmp_path / "out"
    assert run_cli(capsys, *run_args(out))[0] == 0
    (out / "manifest.json").write_bytes(content)
    experiment = tmp_path / "exp.toml"
    experiment.write_text(TWO_LINEUPS.format(matches=4, a="a", b="b"))
    before = snapshot(out)
    for argv in (["report", out], run_args(out), ["experiment", experiment, "--out", out]):
        code, stdout, err = run_cli(capsys, *argv)
        [line] = error_lines(err)
        assert code == 2, argv
        assert line.startswith(f"tablesim: error: {out / 'manifest.json'}: {reason}"), (argv, line)
        assert snapshot(out) == before, argv


# long names --------------------------------------------------------------------------------


def test_a_300_character_lineup_name_is_stored_and_read_back(capsys, tmp_path):
    long_name = "x" * 150 + "/" + "y" * 149
    out = tmp_path / "out"
    code, stdout, err = run_cli(capsys, *run_args(out, 20, "--lineup", long_name))
    assert code == 0, err
    tables = load_tables(out)
    assert set(tables["matches"]["lineup"]) == {long_name} and len(tables["matches"]) == 20
    assert all(len(p.name) < 60 for p in parts(out))
    path = tmp_path / "exp.toml"
    path.write_text(TWO_LINEUPS.format(matches=6, a="a" * 300, b="b" * 300 + "\u00e9/\\\\:*?"))
    code, stdout, err = run_cli(capsys, "experiment", path, "--out", tmp_path / "exp", "--no-progress")
    assert code == 0, err
    assert load_tables(tmp_path / "exp")["matches"].groupby("lineup").size().tolist() == [6, 6]


def test_a_refused_command_with_a_long_name_leaves_nothing_behind(capsys, tmp_path):
    out = tmp_path / "deep" / "out"
    code, _, err = run_cli(capsys, *run_args(out, 20, "--lineup", "z" * 300, "--set", "game.target=0"))
    assert code == 2 and len(error_lines(err)) == 1
    assert not (tmp_path / "deep").exists()


# the older layout ----------------------------------------------------------------------------


def test_parts_of_the_older_layout_are_read_then_renamed_by_a_resumed_run(capsys, tmp_path):
    out, fresh = tmp_path / "out", tmp_path / "fresh"
    assert run_cli(capsys, *run_args(fresh))[0] == 0
    assert run_cli(capsys, *run_args(out, 30))[0] == 0
    for part in parts(out):  # rename into the older layout
        first, last = part.stem.split("_")[1].split("-")
        old = f"baseline~plain_lucky~{int(first):09d}-{int(last):09d}.parquet"
        for table in ("matches", "players", "rounds", "events"):
            os.replace(out / table / part.name, out / table / old)
    manifest = json.loads((out / "manifest.json").read_text())
    assert len(load_tables(out)["matches"]) == 30  # still readable
    code, _, err = run_cli(capsys, *run_args(out))
    assert code == 0, err
    assert "3 parts of an older tablesim renamed" in err
    assert all("~" not in p.name for p in parts(out)) and len(parts(out)) == 4
    assert_same_tables(load_tables(out), load_tables(fresh))
    assert json.loads((out / "manifest.json").read_text())["seed"] == manifest["seed"]


def test_store_ranges_come_from_names_and_overlaps_are_set_aside(tmp_path):
    from sim.core import run_cells

    from .test_runner_store import cell
    from .toygame import GAME

    store = ResultStore(tmp_path / "out")
    run_cells(GAME, [cell()], 12, root_seed=1, chunk_size=6, store=store, progress=False)
    key = cell_key("baseline", "p-l-p")
    assert store.stored_ranges() == {key: [(0, 5), (6, 11)]} and store.stored_count() == 12
    other = ResultStore(tmp_path / "other")
    run_cells(GAME, [cell()], 12, root_seed=1, chunk_size=4, store=other, progress=False)
    overlapping = parts(other.path)[1]  # matches 4..7 overlap the part 0..5
    for table in ("matches", "players", "rounds", "events"):
        shutil.copy(other.path / table / overlapping.name, store.path / table / overlapping.name)
    with store.lock():
        assert store.stored_ranges() == {key: [(0, 5), (6, 11)]}
    assert (store.path / "damaged" / "matches" / overlapping.name).exists()
    matches = load_tables(store.path)["matches"]
    assert len(matches) == 12 and not matches["match"].duplicated().any()
