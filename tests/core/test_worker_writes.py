"""Workers write their chunks into the results directory themselves; the parent only counts.

The parent of a run receives a small record per chunk (:class:`sim.core.runner.StoredChunk`),
never the chunk's rows, so its CPU and memory do not grow with the workers. A worker that does
not see the directory sends the tables back; a worker that dies is one line, its finished
chunks kept and replayed by nothing.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pandas as pd
import pytest

from sim.cli.common import EXIT_FAILED
from sim.core import ResultStore, load_tables, runner
from sim.core.game import get_game
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules

from .reliability import error_lines, popen, run_cli, wait_for

GAME = get_game("toy-dice")


def cell(name: str = "toy") -> runner.Cell:
    rules = load_rules(GAME, None, [])
    return runner.Cell("baseline", name, rules, load_lineup(GAME, ["plain", "lucky"], rules), rotate_seats=True)


def assert_same_tables(a, b):
    for table in ("matches", "players", "rounds", "events"):
        pd.testing.assert_frame_equal(a[table], b[table])


def test_loky_workers_write_the_parts_and_the_parent_gets_only_records(tmp_path, monkeypatch):
    seen = []
    real = runner._results

    def watched(*args):
        for result in real(*args):
            seen.append(result)
            yield result

    monkeypatch.setattr(runner, "_results", watched)
    store = ResultStore(tmp_path / "out")
    stored = runner.run_cells(GAME, [cell()], 120, 4, jobs=2, chunk_size=10, store=store, progress=False)
    assert len(seen) == 12 and all(isinstance(r, runner.StoredChunk) for r in seen)
    assert sum(r.matches for r in seen) == 120 and all(r.cpu_s > 0 and r.bytes > 0 for r in seen)
    assert {r.rows["players"] for r in seen} == {20}  # 10 matches x 2 seats
    in_memory = runner.run_cells(GAME, [cell()], 120, 4, jobs=1, chunk_size=7, progress=False)
    assert_same_tables(stored, in_memory)
    assert store.stored_count() == 120 and len(list((tmp_path / "out" / "events").glob("*.parquet"))) == 12


def test_a_worker_that_does_not_see_the_directory_sends_the_tables_back(tmp_path, monkeypatch):
    store = ResultStore(tmp_path / "out")
    with store.lock("test"):
        assert store.writer() == f"{os.getpid()}@{os.uname().nodename}"
        elsewhere = runner.play_and_store_chunk("toy-dice", cell(), range(0, 5), 4, str(store.path), "1@elsewhere")
        assert isinstance(elsewhere, dict) and len(elsewhere["matches"]) == 5
        assert store.stored_count() == 0  # it wrote nothing
        here = runner.play_and_store_chunk("toy-dice", cell(), range(0, 5), 4, str(store.path), store.writer())
        assert isinstance(here, runner.StoredChunk) and store.stored_count() == 5
    real = runner.play_and_store_chunk

    def unshared(game, c, matches, seed, directory, writer):
        return real(game, c, matches, seed, directory, "1@elsewhere")

    monkeypatch.setattr(runner, "play_and_store_chunk", unshared)
    other = ResultStore(tmp_path / "other")
    tables = runner.run_cells(GAME, [cell()], 40, 4, chunk_size=10, store=other, progress=False)
    assert other.stored_count() == 40  # the parent wrote what came back
    assert_same_tables(tables, runner.run_cells(GAME, [cell()], 40, 4, progress=False))


def _workers(pid: int) -> list[int]:
    """The loky worker processes among ``pid``'s children (not its resource tracker)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            command = Path(f"/proc/{child}/cmdline").read_bytes()
            if b"popen_loky_posix" in command:
                found.append(int(child))
    return found


@pytest.mark.slow
def test_a_worker_killed_mid_run_is_one_line_and_the_rerun_completes_the_tables(tmp_path, capsys):
    out = tmp_path / "out"
    argv = [
        "run",
        "toy-dice",
        "--matches",
        600,
        "--players",
        "plain,lucky",
        "--seed",
        3,
        "--jobs",
        2,
        "--chunk-size",
        10,
        "--set",
        "game.delay_s=0.01",
        "--out",
        out,
        "--no-progress",
    ]
    proc = popen(tmp_path, *argv)
    assert wait_for(lambda: len(list((out / "matches").glob("*.parquet"))) >= 3 or proc.poll() is not None, timeout=90)
    workers = _workers(proc.pid)
    assert workers
    for worker in workers:  # SIGKILL, whatever each is doing (playing, or writing a part)
        os.kill(worker, signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    lines = error_lines(err)
    assert proc.returncode == EXIT_FAILED, err
    assert "Traceback" not in err and lines[-1].startswith("tablesim: error: a worker process died")
    assert "rerun the same command to resume" in lines[-1]
    kept = ResultStore(out).stored_count()
    assert 0 < kept < 600
    code, _, _ = run_cli(capsys, *argv)
    assert code == 0
    fresh = tmp_path / "fresh"
    assert run_cli(capsys, *[fresh if a == out else a for a in argv])[0] == 0
    assert_same_tables(load_tables(out), load_tables(fresh))


def test_chunks_sized_by_time_aim_at_a_second_and_shrink_at_the_end():
    fixed = runner.ChunkSizer(10, workers=2)
    assert fixed.size(1000) == 10
    sizer = runner.ChunkSizer(runner.AUTO, workers=2)
    assert sizer.size(10_000) == runner.DEFAULT_CHUNK_SIZE  # before any chunk came back
    sizer.record(100, 2.0)  # 20 ms a match: 50 matches a second
    assert sizer.size(10_000) == round(runner.CHUNK_SECONDS * 50)
    assert sizer.size(60) == 30  # the tail: never more than a worker's share of what is left
    assert sizer.size(1) == 1
    sizer.record(10**9, 1.0)  # very fast matches: capped
    assert sizer.size(10**12) == runner.MAX_CHUNK_SIZE


def test_a_run_with_chunks_sized_by_time_stores_the_same_tables_in_fewer_parts(tmp_path):
    slow = load_rules(GAME, None, ["game.delay_s=0.005"])
    timed = runner.Cell("baseline", "toy", slow, load_lineup(GAME, ["plain", "lucky"], slow), rotate_seats=True)
    store = ResultStore(tmp_path / "auto")
    tables = runner.run_cells(GAME, [timed], 1200, 4, jobs=2, chunk_size=runner.AUTO, store=store, progress=False)
    sizes = sorted(last - first + 1 for _, first, last, _ in store._parts())
    assert sum(sizes) == 1200 and sizes[-1] > runner.DEFAULT_CHUNK_SIZE, sizes  # ~200 matches a second
    assert len(sizes) < 1200 / runner.DEFAULT_CHUNK_SIZE / 2
    assert_same_tables(tables, runner.run_cells(GAME, [timed], 1200, 4, jobs=1, chunk_size=50, progress=False))
