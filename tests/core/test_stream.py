"""Reading a results directory slice by slice (:func:`sim.core.stream.iter_slices`).

Asserted: the slices together are exactly the tables :func:`load_tables` reads (every match
once, every table's rows with their match), each slice holds whole seeds of one cell, a slice
is about the size asked, and compacted parts, leftovers of a stopped compaction and damaged
parts are read as :func:`load_tables` reads them.
"""

from __future__ import annotations

import pandas as pd
import pytest

from sim.core import ResultStore, load_tables
from sim.core.runner import run_cells
from sim.core.store import assemble
from sim.core.stream import iter_slices

from .test_worker_writes import GAME, assert_same_tables, cell


def played(folder, matches=400, chunk=10, cells=None):
    store = ResultStore(folder)
    run_cells(GAME, cells or [cell()], matches, 4, chunk_size=chunk, store=store, progress=False)
    return store


def joined(slices) -> dict[str, pd.DataFrame]:
    return assemble({table: [s[table] for s in slices] for table in ("matches", "players", "rounds", "events")})


@pytest.fixture(scope="module")
def two_cells(tmp_path_factory):
    return played(tmp_path_factory.mktemp("two") / "out", cells=[cell("a"), cell("b")])


@pytest.mark.parametrize("size", [1, 35, 10_000])
def test_the_slices_are_the_tables_each_of_whole_seeds_of_one_cell(two_cells, size):
    store = two_cells
    slices = list(iter_slices(store.path, matches_per_slice=size))
    assert_same_tables(load_tables(store.path), joined(slices))
    seeds_seen = set()
    for piece in slices:
        matches = piece["matches"]
        assert matches[["variant", "lineup"]].drop_duplicates().shape[0] == 1
        assert (matches.groupby("seed").size() == 2).all()  # both rotations of every seed
        lineup = matches["lineup"].iloc[0]
        assert not seeds_seen & {(lineup, s) for s in matches["seed"]}
        seeds_seen |= {(lineup, s) for s in matches["seed"]}
        for table in ("players", "rounds", "events"):
            assert set(piece[table]["match"]) <= set(matches["match"])
        if size >= 10:  # whole chunks of 10 are read until the size is reached, then cut at a seed
            assert len(matches) < size + 10
    if size == 10_000:
        assert len(slices) == 2  # one per cell
    if size == 35:  # 40 matches read (4 chunks), the last seed kept for the next slice
        assert [len(s["matches"]) for s in slices[:3]] == [38, 40, 40]


def test_compacted_parts_are_read_by_row_group_and_leftovers_skipped(tmp_path, monkeypatch):
    store = played(tmp_path / "out", matches=600, chunk=10)
    before = load_tables(store.path)
    monkeypatch.setattr(ResultStore, "_drop_leftover", lambda self, name: None)  # a compaction stopped mid-way
    store.compact(max_matches=250, min_parts=0)
    monkeypatch.undo()
    assert len(list((store.path / "matches").glob("*.parquet"))) > 3  # merged parts and leftovers
    slices = list(iter_slices(store.path, matches_per_slice=40))
    assert_same_tables(before, joined(slices))
    assert max(len(s["matches"]) for s in slices) <= 50  # not a whole 250-match part at once


def test_a_damaged_part_is_moved_aside_and_its_matches_left_out_as_load_tables_does(tmp_path, capsys):
    store = played(tmp_path / "out", matches=100, chunk=10)
    victim = sorted((store.path / "events").glob("*.parquet"))[3]
    victim.write_bytes(b"not parquet")
    slices = list(iter_slices(store.path, matches_per_slice=30))
    assert "damaged" in capsys.readouterr().err
    tables = joined(slices)
    assert len(tables["matches"]) == 90
    assert_same_tables(tables, load_tables(store.path))
