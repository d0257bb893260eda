"""Compaction: a cell's many small parts merged into few large ones, the tables unchanged.

Asserted: the tables read back are identical; resume still plays only what is missing; columns
whose type differs between chunks widen as pandas would concatenate them; and a compaction
stopped at any point (a merged part half written, leftovers not yet removed, a SIGKILL at a
random moment) loses no match and reads none twice.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import time

import pandas as pd
import pytest

from sim.core import ResultStore, load_tables
from sim.core import store as store_module
from sim.core.runner import Cell, run_cells
from sim.core.store import assemble

from .reliability import error_lines, popen, run_cli, wait_for
from .test_worker_writes import GAME, assert_same_tables, cell


def parts(folder, table="matches"):
    return sorted(p.name for p in (folder / table).glob("*.parquet"))


def played(folder, matches=400, chunk=10):
    store = ResultStore(folder)
    run_cells(GAME, [cell()], matches, 4, chunk_size=chunk, store=store, progress=False)
    return store


def test_compaction_merges_consecutive_parts_and_keeps_the_tables(tmp_path):
    store = played(tmp_path / "out")
    before = load_tables(store.path)
    assert len(parts(store.path)) == 40
    assert store.compact(max_matches=150, min_parts=0) == 37
    for table in ("matches", "players", "rounds", "events"):
        assert [n[21:] for n in parts(store.path, table)] == [
            "000000000000-000000000149.parquet",
            "000000000150-000000000299.parquet",
            "000000000300-000000000399.parquet",
        ]
    assert_same_tables(before, load_tables(store.path))
    assert store.stored_count() == 400
    # resume: only the new matches are played, and the tables are those of one run
    tables = run_cells(GAME, [cell()], 450, 4, chunk_size=10, store=store, progress=False)
    assert len(parts(store.path)) == 3 + 5
    assert_same_tables(tables, run_cells(GAME, [cell()], 450, 4, progress=False))
    assert store.compact(min_parts=16) == 0  # 8 parts: left as they are
    assert store.compact(min_parts=0) == 7 and len(parts(store.path)) == 1


def test_a_gap_is_never_merged_over(tmp_path):
    store = ResultStore(tmp_path / "out")
    c = cell()
    run_cells(GAME, [c], 100, 4, chunk_size=10, store=store, progress=False)
    run_cells(GAME, [c], 300, 4, chunk_size=10, store=store, progress=False, start=200)
    store.compact(min_parts=0)
    assert [n[21:] for n in parts(store.path)] == [
        "000000000000-000000000099.parquet",
        "000000000200-000000000299.parquet",
    ]


def test_columns_whose_type_differs_between_chunks_widen_as_pandas_concatenates(tmp_path):
    store = ResultStore(tmp_path / "out")
    chunks = []
    for first, points, note in ((0, [1, 2], [None, None]), (2, [0.5, 3.0], ["a", None]), (4, [7, 8], ["b", "c"])):
        keys = {"variant": "v", "lineup": "l"}
        matches = pd.DataFrame({**keys, "match": [first, first + 1], "seed": [first, first + 1]})
        rounds = pd.DataFrame({**keys, "match": [first, first + 1], "points": points, "note": note})
        extra = {"events": pd.DataFrame({**keys, "match": [first], "index": [0]})} if first == 4 else {}
        chunk = {"matches": matches, "players": pd.DataFrame(), "rounds": rounds, "events": pd.DataFrame(), **extra}
        chunks.append(chunk)
        with store.lock():
            store.write_chunk(chunk)
    before = load_tables(store.path)
    store.compact(min_parts=0)
    after = load_tables(store.path)
    assert len(parts(store.path)) == 1

    # the same values; `note` reads back as one string column, where concatenating the chunks
    # (one of them all None) gives pandas' object column
    def values(frame):
        return {c: [None if pd.isna(v) else v for v in frame[c]] for c in frame.columns}

    assert values(after["rounds"]) == values(before["rounds"])
    assert after["rounds"]["points"].tolist() == [1.0, 2.0, 0.5, 3.0, 7.0, 8.0]
    assert values(after["rounds"])["note"] == [None, None, "a", None, "b", "c"]
    assert after["events"]["index"].tolist() == [0] and len(after["players"]) == 0
    concatenated = assemble({t: [c[t] for c in chunks] for t in before})
    pd.testing.assert_frame_equal(after["matches"], concatenated["matches"])


def test_a_compaction_stopped_before_its_matches_part_changes_nothing(tmp_path, monkeypatch):
    store = played(tmp_path / "out")
    before = load_tables(store.path)
    real = store_module._merge_parquet

    def fail_on_matches(sources, target):
        if target.parent.name == "matches":
            raise KeyboardInterrupt
        real(sources, target)

    monkeypatch.setattr(store_module, "_merge_parquet", fail_on_matches)
    with pytest.raises(KeyboardInterrupt):
        store.compact(min_parts=0)
    assert len(parts(store.path)) == 40 and len(parts(store.path, "events")) == 41  # the merged events part
    assert store.stored_count() == 400
    assert_same_tables(before, load_tables(store.path))
    monkeypatch.undo()
    with store.lock():  # a run that takes the lock removes the merged parts that never finished
        pass
    assert len(parts(store.path, "events")) == 40
    store.compact(min_parts=0)
    assert_same_tables(before, load_tables(store.path))


def test_a_compaction_stopped_before_removing_what_it_merged_reads_no_match_twice(tmp_path, monkeypatch, capsys):
    store = played(tmp_path / "out")
    before = load_tables(store.path)
    removed = []
    real = ResultStore._drop_leftover

    def stop_after_three(self, name):
        if len(removed) == 3:
            raise KeyboardInterrupt
        removed.append(name)
        real(self, name)

    monkeypatch.setattr(ResultStore, "_drop_leftover", stop_after_three)
    with pytest.raises(KeyboardInterrupt):
        store.compact(min_parts=0)
    monkeypatch.undo()
    assert len(parts(store.path)) == 1 + 37  # the merged part and the leftovers not yet removed
    assert store.stored_count() == 400
    assert_same_tables(before, load_tables(store.path))
    assert "damaged" not in capsys.readouterr().err
    # a rerun finds nothing to play and removes the leftovers
    tables = run_cells(GAME, [cell()], 400, 4, chunk_size=10, store=store, progress=False)
    assert_same_tables(before, tables)
    assert len(parts(store.path)) == 1 and not (store.path / "damaged").exists()


@pytest.mark.slow
def test_compact_killed_at_random_moments_then_rerun_keeps_every_match_once(tmp_path, capsys):
    out = tmp_path / "out"
    store = played(out, matches=500, chunk=2)
    store.write_manifest({"kind": "run", "game": "toy-dice"})
    before = load_tables(out)
    rng = random.Random(5)
    killed = 0
    for _ in range(2):
        proc = popen(tmp_path, "compact", out, "--max-matches", 100)
        assert wait_for(lambda: (out / ".lock").exists() or proc.poll() is not None, timeout=60)
        time.sleep(rng.uniform(0.0, 0.2))
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)
        killed += proc.returncode == -signal.SIGKILL
        assert ResultStore(out).stored_count() == 500
        assert_same_tables(before, load_tables(out))
    assert killed >= 1  # a kill landed while it compacted
    code, text, err = run_cli(capsys, "compact", out, "--max-matches", 100)
    assert code == 0 and len(parts(out)) == 5, text + err
    assert_same_tables(before, run_cells(GAME, [cell()], 500, 4, chunk_size=2, store=store, progress=False))
    assert "damaged" not in capsys.readouterr().err and not (out / "damaged").exists()


def test_a_finished_run_compacts_its_directory_and_compact_refuses_what_is_not_one(tmp_path, capsys):
    out = tmp_path / "out"
    argv = [
        "run",
        "toy-dice",
        "--matches",
        200,
        "--players",
        "plain,lucky",
        "--seed",
        3,
        "--chunk-size",
        5,
        "--out",
        out,
        "--no-progress",
    ]
    code, _, err = run_cli(capsys, *argv)
    assert code == 0 and "40 parts merged" not in err and "39 parts merged into larger ones" in err, err
    assert len(parts(out)) == 1 and len(parts(out, "rounds")) == 1
    fresh = run_cells(
        GAME, [Cell("baseline", "plain,lucky", cell().rules, cell().players, rotate_seats=True)], 200, 3, progress=False
    )
    assert_same_tables(load_tables(out), fresh)
    code, text, _ = run_cli(capsys, "compact", out)
    assert code == 0 and "1 parts per table -> 1 (0 merged away)" in text
    code, _, err = run_cli(capsys, "compact", tmp_path / "nothing")
    assert code == 2 and error_lines(err) == [f"tablesim: error: {tmp_path / 'nothing'}: not a directory"]
    code, _, err = run_cli(capsys, "compact", tmp_path)
    assert code == 2 and error_lines(err) == [
        f"tablesim: error: {tmp_path}: not a tablesim results directory (no manifest.json)"
    ]
    code, _, err = run_cli(capsys, "compact", out, "--max-matches", 0)
    assert code == 2 and "--max-matches: got 0" in err


def test_scan_table_reads_what_load_tables_reads_lazily_and_skips_leftovers(tmp_path, monkeypatch):
    from sim.core import scan_table

    store = played(tmp_path / "out", matches=200, chunk=10)
    loaded = load_tables(store.path)
    scanned = scan_table(store.path, "players")
    assert scanned.count_rows() == len(loaded["players"])  # from the footers: no row read
    columns = scanned.to_table(columns=["match", "seat", "won"]).to_pandas()
    expected = loaded["players"][["match", "seat", "won"]].sort_values(["match", "seat"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(columns.sort_values(["match", "seat"]).reset_index(drop=True), expected)
    real = ResultStore._drop_leftover
    monkeypatch.setattr(ResultStore, "_drop_leftover", lambda self, name: None)  # a compaction stopped mid-way
    store.compact(min_parts=0)
    monkeypatch.setattr(ResultStore, "_drop_leftover", real)
    assert len(parts(store.path)) == 21
    assert scan_table(store.path, "events").count_rows() == len(loaded["events"])
    with pytest.raises(ValueError, match="allowed: matches, players, rounds, events"):
        scan_table(store.path, "scores")


def test_merges_spread_over_workers_give_the_same_tables_and_the_parent_merges_nothing(tmp_path, monkeypatch):
    from sim.core.runner import merge_in_workers

    store = played(tmp_path / "out", matches=400, chunk=10)
    before = load_tables(store.path)

    def not_here(sources, target):
        raise AssertionError("the parent merged a part itself")

    monkeypatch.setattr(store_module, "_merge_parquet", not_here)  # the workers import their own copy
    assert store.compact(max_matches=150, min_parts=0, merge=merge_in_workers(2)) == 37
    monkeypatch.undo()
    assert len(parts(store.path)) == 3 and len(parts(store.path, "events")) == 3
    assert_same_tables(before, load_tables(store.path))
