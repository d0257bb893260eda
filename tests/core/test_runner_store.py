"""The batch runner and the results store: determinism, chunking, resuming."""

import pandas as pd
import pytest

from sim.core import Cell, ResultStore, load_lineup, load_tables, run_cells
from sim.core.rules import load_rules

from .toygame import GAME


def cell(variant="baseline", rotate=False, **overrides):
    rules = load_rules(GAME, None, [f"{k.replace('__', '.')}={v}" for k, v in overrides.items()])
    players = load_lineup(GAME, ["plain", "lucky", "plain"], rules)
    return Cell(variant=variant, lineup="p-l-p", rules=rules, players=players, rotate_seats=rotate)


def assert_tables_equal(a, b):
    for table in ("matches", "players", "rounds", "events"):
        pd.testing.assert_frame_equal(a[table], b[table])


def test_tables_have_keys_and_one_row_per_unit():
    tables = run_cells(GAME, [cell()], 30, root_seed=5, progress=False)
    assert len(tables["matches"]) == 30
    assert len(tables["players"]) == 90
    assert list(tables["matches"].columns[:3]) == ["variant", "lineup", "match"]
    assert (tables["rounds"].groupby("match").size() == 3 * tables["matches"]["rounds"].to_numpy()).all()


def test_same_seed_same_tables_whatever_jobs_and_chunks():
    reference = run_cells(GAME, [cell()], 40, root_seed=11, jobs=1, chunk_size=40, progress=False)
    for jobs, chunk in [(1, 7), (2, 5), (2, 40)]:
        other = run_cells(GAME, [cell()], 40, root_seed=11, jobs=jobs, chunk_size=chunk, progress=False)
        assert_tables_equal(reference, other)


def test_different_root_seed_changes_outcomes():
    a = run_cells(GAME, [cell()], 40, root_seed=1, progress=False)
    b = run_cells(GAME, [cell()], 40, root_seed=2, progress=False)
    assert not a["events"]["roll"].equals(b["events"]["roll"])


def test_common_random_numbers_across_variants():
    tables = run_cells(GAME, [cell(), cell("same")], 25, root_seed=3, progress=False)
    events = tables["events"]
    base = events[events.variant == "baseline"].drop(columns="variant").reset_index(drop=True)
    same = events[events.variant == "same"].drop(columns="variant").reset_index(drop=True)
    pd.testing.assert_frame_equal(base, same)


def test_seat_rotation_plays_each_seed_under_every_rotation():
    tables = run_cells(GAME, [cell(rotate=True)], 9, root_seed=3, progress=False)
    matches = tables["matches"]
    assert matches["seed"].tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert matches["rotation"].tolist() == [0, 1, 2] * 3
    players = tables["players"]
    lucky_seats = players[players.profile == "lucky"].groupby("seed")["seat"].apply(sorted)
    assert all(seats == [0, 1, 2] for seats in lucky_seats)


def test_store_writes_parts_and_resumes_without_replaying(tmp_path):
    store = ResultStore(tmp_path / "out")
    first = run_cells(GAME, [cell()], 20, root_seed=4, chunk_size=6, store=store, progress=False)
    assert len(first["matches"]) == 20
    parts = sorted((tmp_path / "out" / "matches").glob("*.parquet"))
    assert len(parts) == 4
    mtimes = {p: p.stat().st_mtime_ns for p in parts}
    again = run_cells(GAME, [cell()], 20, root_seed=4, chunk_size=6, store=store, progress=False)
    assert {p: p.stat().st_mtime_ns for p in parts} == mtimes  # nothing replayed
    assert_tables_equal(first, again)
    longer = run_cells(GAME, [cell()], 26, root_seed=4, chunk_size=6, store=store, progress=False)
    assert len(longer["matches"]) == 26
    assert_tables_equal(longer, run_cells(GAME, [cell()], 26, root_seed=4, progress=False))


def test_a_torn_chunk_is_ignored_and_replayed(tmp_path):
    store = ResultStore(tmp_path / "out")
    run_cells(GAME, [cell()], 12, root_seed=4, chunk_size=6, store=store, progress=False)
    last = sorted((tmp_path / "out" / "matches").glob("*.parquet"))[-1]
    last.unlink()  # as if killed after writing events/rounds/players but before matches
    assert len(load_tables(store.path)["players"]) == 18
    again = run_cells(GAME, [cell()], 12, root_seed=4, chunk_size=6, store=store, progress=False)
    assert_tables_equal(again, run_cells(GAME, [cell()], 12, root_seed=4, progress=False))


def test_unknown_profile_and_bad_player_count():
    from sim.core import ConfigError

    with pytest.raises(ConfigError) as info:
        load_lineup(GAME, ["plain", "wizard"])
    assert info.value.problems == [
        "players: unknown profile 'wizard'; allowed: plain, lucky, or the path of a .toml profile file"
    ]
    with pytest.raises(ConfigError) as info:
        load_lineup(GAME, ["plain"] * 5)
    assert info.value.problems[0] == "players: toy-dice takes 2, 3, 4 players, got 5"


def test_custom_profile_file_with_base(tmp_path):
    path = tmp_path / "steady.toml"
    path.write_text('base = "lucky"\nname = "steady"\n')
    [player] = load_lineup(GAME, [str(path), "plain"])[:1]
    assert player.name == "steady" and player.profile.bonus == 1.0
    path.write_text("bonus = -1.0\n")
    from sim.core import ConfigError

    with pytest.raises(ConfigError) as info:
        load_lineup(GAME, [str(path), "plain"])
    assert info.value.problems == [f"{path}: bonus: got -1.0; allowed: >= 0.0"]


def test_rotating_identical_players_plays_different_matches_and_players_keep_their_draws():
    rules = load_rules(GAME)
    same = load_lineup(GAME, ["plain", "plain", "plain"], rules)
    tables = run_cells(GAME, [Cell("b", "ppp", rules, same, rotate_seats=True)], 3, root_seed=8, progress=False)
    rolls = tables["events"].groupby("match")["roll"].apply(tuple)
    assert len(set(rolls)) == 3  # three rotations of one seed: three different matches
    mixed = load_lineup(GAME, ["plain", "lucky", "plain"], rules)
    events = run_cells(GAME, [Cell("b", "plp", rules, mixed, rotate_seats=True)], 3, root_seed=8, progress=False)[
        "events"
    ].merge(
        run_cells(GAME, [Cell("b", "plp", rules, mixed, rotate_seats=True)], 3, root_seed=8, progress=False)["players"][
            ["match", "seat", "slot"]
        ],
        on=["match", "seat"],
    )
    first_rolls = events[events["round"] == 1].set_index(["match", "slot"])["roll"]
    for slot in range(3):  # a player's first roll is the same whichever seat it sits in
        assert first_rolls.xs(slot, level="slot").nunique() == 1
