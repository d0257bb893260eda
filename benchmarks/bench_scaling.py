"""Cost of each game as its work grows, memory and storage per match, and scale-out on loky and Dask.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_scaling.py [--format json] [--quick]
        [--games curlastique,carrom,gasterospeed] [--sections curves,memory,storage,scaling]
        [--repeats R] [--point-seconds S] [--plot PATH]
    tablesim bench --only scaling [--format json] [--seconds S]   (S < 0.5: quick mode)

Sections (all through the real runner, `sim.core.run_cells`):

curves   matches per minute of each game on 2 local loky workers, against
           - the players (same preset in every seat): Curlastique and Carrom 2-4,
             Gastérospeed 2-6;
           - the work on the board: Curlastique `game.pucks_per_player` (2, 3, 5, 8 pucks each:
             more pucks lying on the board, more throws per round); Carrom cannot vary its
             coins (19, fixed by the rules: the break formation, the scoring and the end of a
             board all assume them), so its work axis is `game.max_boards` (1, 2, 4, 8 boards
             per game; the default game almost always goes the 8 boards); Gastérospeed races
             the first 1, 2, 3 or 6 circuits of `championship.circuits`;
           - the planning budget: Curlastique and Carrom profiles built with
             `dataclasses.replace` on the `club` preset with the presets' candidates x samples
             (the noise stays club's, only the budget changes); Gastérospeed's policies
             random < greedy < tactician (its `temperature` only changes which scored option
             is taken, not how many are scored, so it is no cost knob).
         Each point also gives its rate of work units (Curlastique throws, Carrom strokes,
         Gastérospeed turns, from the `matches` table) per second, which separates "a match
         got longer" from "each throw got dearer". Line-ups: Curlastique `club` (target 500),
         Carrom `club` (family rules), Gastérospeed `tactician`. A point is timed once the
         pool is warm; its match count is sized from a short pilot run to last about
         `point_seconds` (topped up by further runs when it fell short), in chunks of at most
         25 with at least 8 chunks per worker (so the last, unbalanced chunk costs a few %,
         the same for every point). The CPU milliseconds per match (this process and its
         workers) are the load-independent cost.
memory   tracemalloc peak while playing one match in this process (the default 2-player
         line-up and the largest one), the largest over a few matches. tracemalloc sees
         Python and numpy allocations, not numba's own (compiled code allocates little).
storage  a run written with a ResultStore to a temporary directory (default chunk size 25):
         the Parquet bytes per table, per match and per row. Every chunk's file carries a
         schema, pandas metadata and a footer whatever its rows: their size (the four tables'
         files written again with no rows) is `GAME_bytes_per_chunk_fixed`, a lower bound of
         what each chunk costs beyond its rows; bytes per match fall with larger chunks.
scaling  (runs first) for each game (Curlastique 2 `club`, target 500; Carrom 2 `club`;
         Gastérospeed 4 `tactician`) and each backend (loky; Dask, a LocalCluster of J
         single-threaded worker processes, `sim.core.cluster.dask_client(workers=J)`), on
         J = 1, 2, 4, 8, ... workers up to the cores (`sim.core.runner.cpu_count()`, the core
         count itself included when it is no power of two): matches per second of wall time.
         Every run plays into a fresh temporary results directory as `tablesim run --out DIR`
         does: the workers write their chunks there themselves and send back a record,
         chunks are sized by time (`chunk_size=AUTO`), and nothing is read back. The sizes go
         outside, the games inside: one Dask cluster per size; before each point a warm-up run
         on the live pool or cluster, one match per task (worker start-up, the numba cache and
         the first write are not counted). A point lasts about 5 s (a first run sized from the
         in-process rate times J, or for J = 1 from the warm-up; topped up to two more runs when
         it fell short). Speed-up = matches/s over the game's rate in this process (loky J = 1
         is `--jobs 1`: no worker at all), efficiency = speed-up / J; the CPU seconds of this
         process and its workers give the CPU per match and how many cores the point kept busy
         (fewer than J: other load on the machine took cores). Then the parent's share of each
         game's run, from `benchmarks/bench_parent.py` (its `measure`, `--jobs 2`, its default
         scale): the parent's CPU per stored match during play against a worker's, the projected
         ceiling (worker CPU ÷ parent CPU per match: the workers one parent can keep busy) and the
         end of a run (reading the store back, summarising), apart. On fewer than 16 cores one
         line says the target (≥ 13× at 16 workers, every game and backend) cannot be measured
         and what the parent's share projects instead.
         loky against Dask: 2,000 Curlastique matches on 2 loky workers and on the 2-worker
         cluster, each into a fresh results directory (default chunk sizing), alternating, 5
         pairs (3 when the first pairs took over 150 s; `--repeats R`: exactly R), each pair in
         the other order than the one before; the best wall time of each counts. Overhead ratio
         = dask / loky − 1 on the best times, and the median over the pairs of each pair's ratio
         (the machine's speed drifts between pairs by more than the overhead: the target,
         < 10 %, is met only when both are); per chunk = (dask − loky) / the Dask run's chunks;
         the CPU seconds of this process and its workers give the CPU overhead ratio, which
         does not depend on other load. 1 worker: the scan's in-process Curlastique rate.
         Only the games given (`--games`) are scanned; the loky / Dask pairs need Curlastique.

Timing is wall clock (`time.perf_counter`): run it on a quiet machine. `--quick` runs every
section with tiny numbers (a check that the script works, not a measurement): 2 matches per
worker per scaling point with no warm-up, 100 per loky / Dask run, bench_parent's runs at
`--scale 0.02`.
"""

# No `from __future__ import annotations`: `tablesim bench` loads this file without putting it
# in sys.modules, and dataclasses resolve string annotations through sys.modules.
import argparse
import contextlib
import importlib.util
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pandas as pd  # noqa: E402

from sim.core import Cell, ResultStore, load_lineup, load_profile, load_rules, run_cells  # noqa: E402
from sim.core.game import TABLES, GameSpec, Player, get_game  # noqa: E402
from sim.core.runner import AUTO, DEFAULT_CHUNK_SIZE, cpu_count, play_one  # noqa: E402
from sim.core.store import load_tables  # noqa: E402

GAMES = ("curlastique", "carrom", "gasterospeed")
SECTIONS = ("curves", "memory", "storage", "scaling")
DEFAULT_PLOT = Path(__file__).resolve().parent / "scaling.png"
JOBS = 2
QUICK_BELOW_S = 0.5  # `tablesim bench --seconds S` below this runs the quick mode
#: The loky / Dask comparison: 2-player Curlastique between club players, to 500 (SCALE_LINEUPS).
DASK_GAME = "curlastique"


@dataclass(frozen=True)
class Settings:
    """The sizes of a run (full or quick)."""

    point_seconds: float  # target wall time of one cost-curve point
    point_min: int  # matches of a point, at least
    point_max: int  # matches of a point, at most
    pilot: bool  # size the points from a pilot run (else point_min matches)
    memory_matches: int  # matches traced per line-up
    store_matches: int  # matches of the storage run
    dask_matches: int  # matches of each timed loky / Dask run
    repeats: int  # timed loky / Dask pairs, at most
    min_repeats: int  # ... at least: pairs beyond it only while within dask_budget_s
    dask_budget_s: float  # wall time of the loky / Dask pairs beyond which no pair starts
    scale_seconds: float  # target wall time of one scaling point (game x backend x workers)
    scale_min: int  # matches of a scaling point per worker, at least (quick: exactly)
    scale_max: int  # matches of a scaling run, at most
    scale_warm: int  # warm-up matches per worker before each scaling point (full mode)
    parent_scale: float  # bench_parent.py --scale of the parent's share


FULL = Settings(
    point_seconds=6.0,
    point_min=8 * JOBS,
    point_max=4000,
    pilot=True,
    memory_matches=3,
    store_matches=2 * DEFAULT_CHUNK_SIZE,
    dask_matches=2000,
    repeats=5,
    min_repeats=3,
    dask_budget_s=150.0,
    scale_seconds=5.0,
    scale_min=2 * DEFAULT_CHUNK_SIZE,
    scale_max=500_000,
    scale_warm=2,
    parent_scale=1.0,
)
QUICK = Settings(
    point_seconds=0.0,
    point_min=2 * JOBS,
    point_max=2 * JOBS,
    pilot=False,
    memory_matches=1,
    store_matches=10,
    dask_matches=100,
    repeats=1,
    min_repeats=1,
    dask_budget_s=0.0,
    scale_seconds=0.0,
    scale_min=2,
    scale_max=2,
    scale_warm=0,
    parent_scale=0.02,
)


# ------------------------------------------------------------------------------ the points
@dataclass(frozen=True)
class Point:
    """One point of a cost curve: a line-up and rule overrides."""

    axis: str  # "players" | "work" | "planning"
    key: str  # key suffix: "2p", "pucks5", "budget96", "greedy"
    x: float  # position on the axis
    tick: str  # tick label on the plot
    players: tuple[Player, ...]
    overrides: tuple[str, ...] = ()

    def config(self) -> tuple:
        return (tuple((p.name, p.profile) for p in self.players), self.overrides)


@dataclass(frozen=True)
class GameCurves:
    """The cost curves of one game."""

    game: str
    title: str
    unit: str  # work units per match: a column of the matches table
    work_title: str  # the work axis
    planning_title: str
    points: tuple[Point, ...]
    memory_lineups: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (key, presets)
    store_players: tuple[str, ...] = ()
    base_overrides: tuple[str, ...] = ()


def _budget(spec: GameSpec, base: str, candidates: int, samples: int) -> Player:
    """The ``base`` preset with another planning budget (its noise unchanged)."""
    player = load_profile(spec, base)
    profile = replace(player.profile, candidates=candidates, samples=samples)
    return Player(f"{base}-{candidates}x{samples}", profile)


def _preset(spec: GameSpec, name: str, n: int) -> tuple[Player, ...]:
    return tuple(load_profile(spec, name) for _ in range(n))


def curlastique_curves(spec: GameSpec) -> GameCurves:
    base = ("game.target_score=500",)
    points = [Point("players", f"{n}p", n, str(n), _preset(spec, "club", n), base) for n in (2, 3, 4)]
    points += [
        Point("work", f"pucks{k}", k, str(k), _preset(spec, "club", 2), (*base, f"game.pucks_per_player={k}"))
        for k in (2, 3, 5, 8)
    ]
    # the presets' budgets (novice, casual, club, expert) with club's noise
    points += [
        Point("planning", f"budget{c * s}", c * s, f"{c}x{s}", (_budget(spec, "club", c, s),) * 2, base)
        for c, s in ((6, 2), (12, 3), (24, 4), (40, 6))
    ]
    return GameCurves(
        "curlastique",
        spec.title,
        "throws",
        "pucks per player (2 players)",
        "candidates x samples (2 players)",
        tuple(points),
        memory_lineups=(("2p", ("club",) * 2), ("4p", ("club",) * 4)),
        store_players=("club", "club"),
        base_overrides=base,
    )


def carrom_curves(spec: GameSpec) -> GameCurves:
    points = [Point("players", f"{n}p", n, str(n), _preset(spec, "club", n)) for n in (2, 3, 4)]
    points += [
        Point("work", f"boards{b}", b, str(b), _preset(spec, "club", 2), (f"game.max_boards={b}",))
        for b in (1, 2, 4, 8)
    ]
    points += [
        Point("planning", f"budget{c * s}", c * s, f"{c}x{s}", (_budget(spec, "club", c, s),) * 2)
        for c, s in ((4, 2), (8, 3), (12, 4), (24, 6))
    ]
    return GameCurves(
        "carrom",
        spec.title,
        "strokes",
        "game.max_boards (2 players; 19 coins, fixed)",
        "candidates x samples (2 players)",
        tuple(points),
        memory_lineups=(("2p", ("club",) * 2), ("4p", ("club",) * 4)),
        store_players=("club", "club"),
    )


def gasterospeed_curves(spec: GameSpec) -> GameCurves:
    circuits = tuple(load_rules(spec).championship.circuits)
    points = [Point("players", f"{n}p", n, str(n), _preset(spec, "tactician", n)) for n in range(2, 7)]
    for k in sorted({1, 2, 3, len(circuits)}):
        names = ",".join(f'"{c}"' for c in circuits[:k])
        overrides = () if k == len(circuits) else (f"championship.circuits=[{names}]",)
        points.append(Point("work", f"races{k}", k, str(k), _preset(spec, "tactician", 2), overrides))
    points += [
        Point("planning", kind, x, kind, _preset(spec, kind, 2))
        for x, kind in enumerate(("random", "greedy", "tactician"))
    ]
    return GameCurves(
        "gasterospeed",
        spec.title,
        "turns",
        "races per championship (2 players)",
        "policy (2 players)",
        tuple(points),
        memory_lineups=(("2p", ("tactician",) * 2), ("6p", ("tactician",) * 6)),
        store_players=("tactician", "tactician"),
    )


CURVES: dict[str, Callable[[GameSpec], GameCurves]] = {
    "curlastique": curlastique_curves,
    "carrom": carrom_curves,
    "gasterospeed": gasterospeed_curves,
}


# ------------------------------------------------------------------------------ helpers
def _say(message: str) -> None:
    print(f"[bench_scaling] {message}", file=sys.stderr, flush=True)


def _cell(spec: GameSpec, players: Sequence[Player], overrides: Sequence[str], name: str = "bench") -> Cell:
    rules = load_rules(spec, None, list(overrides))
    problems = spec.lineup_problems(rules, len(players)) if spec.lineup_problems else []
    if problems:
        raise ValueError(f"{spec.name} {name}: {'; '.join(problems)}")
    return Cell("bench", name, rules, tuple(players))


def _warm(
    spec: GameSpec, cell: Cell, jobs: int, backend: str = "loky", per_worker: int = 4, folder: Path | None = None
) -> float:
    """A short run on the live pool, one match per task (so every worker loads the numba cache,
    and with ``folder`` writes parts into a results directory there); returns its wall time per
    match and worker (s): a rough cost, for sizing runs."""
    n = per_worker * max(jobs, 1)
    path = Path(tempfile.mkdtemp(prefix="warm-", dir=folder)) if folder is not None else None
    started = time.perf_counter()
    try:
        run_cells(
            spec,
            [cell],
            n,
            99,
            jobs=jobs,
            chunk_size=1,
            backend=backend,
            progress=False,
            store=ResultStore(path / "out") if path is not None else None,
            read_back=False,
        )
    finally:
        if path is not None:
            shutil.rmtree(path, ignore_errors=True)
    return (time.perf_counter() - started) / n * max(jobs, 1)


def _chunk_size(matches: int, jobs: int) -> int:
    """At least 8 chunks per worker, at most the runner's default."""
    return max(1, min(DEFAULT_CHUNK_SIZE, matches // (8 * jobs)))


def _load_average() -> float:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:  # pragma: no cover - not on every platform
        return float("nan")


def _cpu_seconds() -> float:
    """User + system CPU seconds of this process and every live descendant."""
    import psutil

    total = 0.0
    me = psutil.Process()
    for proc in [me, *me.children(recursive=True)]:
        try:
            t = proc.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


# ------------------------------------------------------------------------------ curves
def measure_point(spec: GameSpec, point: Point, unit: str, settings: Settings) -> dict:
    """Time one point: a first run sized from a pilot, then (full mode) up to two more runs
    of the following matches while the point has lasted under 80 % of ``point_seconds``
    (the pilot's one-match tasks overrate the cost of very short matches)."""
    cell = _cell(spec, point.players, point.overrides, point.key)
    if settings.pilot:
        per_match = _warm(spec, cell, JOBS, per_worker=2)  # wall s per match and worker, roughly
        todo = int(settings.point_seconds * JOBS / max(per_match, 1e-4))
    else:
        todo = settings.point_min
    todo = max(settings.point_min, min(settings.point_max, todo))
    played, wall, cpu, units = 0, 0.0, 0.0, 0.0
    for _ in range(3):
        cpu0, started = _cpu_seconds(), time.perf_counter()
        tables = run_cells(
            spec, [cell], played + todo, 1, jobs=JOBS, start=played, chunk_size=_chunk_size(todo, JOBS), progress=False
        )
        wall += time.perf_counter() - started
        cpu += _cpu_seconds() - cpu0
        units += float(tables["matches"][unit].sum()) if unit in tables["matches"] else float("nan")
        played += todo
        left = settings.point_seconds - wall
        if not settings.pilot or left < 0.2 * settings.point_seconds:
            break
        todo = max(settings.point_min, min(settings.point_max - played, int(left * played / wall)))
        if todo <= 0:
            break
    return {
        "matches": played,
        "wall_s": wall,
        "matches_per_min": 60 * played / wall,
        "units_per_s": units / wall,
        "units_per_match": units / played,
        "cpu_ms_per_match": 1000 * cpu / played,
    }


def run_curves(spec: GameSpec, curves: GameCurves, settings: Settings) -> tuple[dict, list[dict]]:
    """Flat figures and the plotted rows of one game's cost curves."""
    figures: dict = {}
    rows: list[dict] = []
    first = curves.points[0]
    _warm(spec, _cell(spec, first.players, first.overrides, first.key), JOBS)  # the pool, this game
    done: dict[tuple, dict] = {}
    for point in curves.points:
        result = done.get(point.config())
        if result is None:
            result = measure_point(spec, point, curves.unit, settings)
            done[point.config()] = result
            _say(
                f"{curves.game} {point.key}: {result['matches']} matches, "
                f"{result['matches_per_min']:.0f}/min, {result['units_per_s']:.1f} {curves.unit}/s, "
                f"{result['cpu_ms_per_match']:.0f} CPU ms/match"
            )
        g = curves.game
        figures[f"{g}_matches_per_min_{point.key}"] = round(result["matches_per_min"], 1)
        figures[f"{g}_{curves.unit}_per_s_{point.key}"] = round(result["units_per_s"], 1)
        figures[f"{g}_cpu_ms_per_match_{point.key}"] = round(result["cpu_ms_per_match"], 2)
        rows.append({"game": g, "axis": point.axis, "key": point.key, "x": point.x, "tick": point.tick, **result})
    return figures, rows


# ------------------------------------------------------------------------------ memory
def run_memory(spec: GameSpec, curves: GameCurves, settings: Settings) -> dict:
    """tracemalloc peak (KiB) of one match played in this process: the largest of a few."""
    figures: dict = {}
    for key, presets in curves.memory_lineups:
        cell = _cell(spec, load_lineup(spec, presets), curves.base_overrides, key)
        play_one(spec, cell, 0, 5)  # imports, numba cache: not traced
        peaks = []
        tracemalloc.start()
        try:
            for match in range(settings.memory_matches):
                tracemalloc.reset_peak()
                before = tracemalloc.get_traced_memory()[0]
                play_one(spec, cell, match, 6)
                peaks.append(tracemalloc.get_traced_memory()[1] - before)
        finally:
            tracemalloc.stop()
        figures[f"{curves.game}_peak_kib_per_match_{key}"] = round(max(peaks) / 1024, 1)
    return figures


# ------------------------------------------------------------------------------ storage
def run_storage(spec: GameSpec, curves: GameCurves, settings: Settings) -> dict:
    """Parquet bytes of a stored run: per table, per match, per row."""
    g = curves.game
    cell = _cell(spec, load_lineup(spec, curves.store_players), curves.base_overrides, "store")
    n = settings.store_matches
    figures: dict = {}
    with tempfile.TemporaryDirectory(prefix="tablesim-bench-") as tmp:
        store = ResultStore(Path(tmp) / "run")
        tables = run_cells(spec, [cell], n, 3, jobs=JOBS, store=store, progress=False)
        total_bytes = total_rows = 0
        for table in TABLES:
            size = sum(p.stat().st_size for p in (store.path / table).glob("*.parquet"))
            rows = len(tables[table])
            total_bytes += size
            total_rows += rows
            figures[f"{g}_{table}_bytes_per_match"] = round(size / n, 1)
            if rows:
                figures[f"{g}_{table}_rows_per_match"] = round(rows / n, 2)
                figures[f"{g}_{table}_bytes_per_row"] = round(size / rows, 1)
        parts = len(list((store.path / "matches").glob("*.parquet")))
        # the fixed part of a chunk's files: each table's first part written again with no rows
        fixed = 0
        for table in TABLES:
            first = min((store.path / table).glob("*.parquet"))
            empty = Path(tmp) / f"{table}-empty.parquet"
            pd.read_parquet(first).iloc[:0].to_parquet(empty, index=False)
            fixed += empty.stat().st_size
    figures[f"{g}_bytes_per_chunk_fixed"] = fixed
    figures[f"{g}_bytes_per_match"] = round(total_bytes / n, 1)
    figures[f"{g}_bytes_per_row"] = round(total_bytes / total_rows, 1)
    figures[f"{g}_store_matches"] = n
    figures[f"{g}_store_chunks"] = parts
    return figures


# ------------------------------------------------------------------------------ scaling
@dataclass(frozen=True)
class ScaleLineup:
    """The line-up a game's scaling curve plays (the same as bench_parent.py's)."""

    players: tuple[str, ...]
    overrides: tuple[str, ...] = ()


SCALE_LINEUPS = {
    "curlastique": ScaleLineup(("club", "club"), ("game.target_score=500",)),
    "carrom": ScaleLineup(("club", "club")),
    "gasterospeed": ScaleLineup(("tactician",) * 4),
}
#: The issue's target: at least TARGET_SPEEDUP x with TARGET_WORKERS workers, for every game and backend.
TARGET_WORKERS, TARGET_SPEEDUP = 16, 13.0


def scaling_workers(cores: int) -> list[int]:
    """1, 2, 4, 8, ... below ``cores``, then ``cores`` itself."""
    workers, jobs = [], 1
    while jobs < cores:
        workers.append(jobs)
        jobs *= 2
    return [*workers, max(cores, 1)]


def _scale_cell(spec: GameSpec) -> Cell:
    lineup = SCALE_LINEUPS[spec.name]
    rules = load_rules(spec, None, list(lineup.overrides))
    return Cell("bench", "-".join(lineup.players), rules, load_lineup(spec, lineup.players, rules))


def _stored_run(
    spec: GameSpec,
    cell: Cell,
    matches: int,
    folder: Path,
    *,
    jobs: int,
    backend: str = "loky",
    start: int = 0,
    keep: bool = False,
) -> tuple[float, float, int, Path]:
    """(wall s, CPU s of this process tree, chunks, results directory) of one run of matches
    ``start .. start + matches - 1`` into a fresh results directory under ``folder``, as
    `tablesim run --out DIR` plays it: the workers write their chunks themselves, chunks are sized
    by time (``chunk_size=AUTO``) and nothing is read back. The directory is removed unless ``keep``."""
    path = Path(tempfile.mkdtemp(prefix="run-", dir=folder)) / "out"
    store = ResultStore(path)
    cpu0, started = _cpu_seconds(), time.perf_counter()
    run_cells(
        spec,
        [cell],
        start + matches,
        1,
        jobs=jobs,
        backend=backend,
        start=start,
        store=store,
        chunk_size=AUTO,
        progress=False,
        read_back=False,
    )
    wall = time.perf_counter() - started
    cpu = _cpu_seconds() - cpu0
    chunks = len(list((path / "matches").glob("*.parquet")))
    if not keep:
        shutil.rmtree(path.parent, ignore_errors=True)
    return wall, cpu, chunks, path


def _scan_point(
    spec: GameSpec, cell: Cell, jobs: int, backend: str, folder: Path, settings: Settings, rate_guess: float | None
) -> dict:
    """One point of a scaling curve: warm the pool or cluster with this game, then play about
    ``scale_seconds`` of matches (a first run sized from ``rate_guess`` matches/s, or from the
    warm-up; up to two more while the point has lasted under 80 % of it)."""
    if settings.pilot:
        per_match = _warm(spec, cell, jobs, backend, per_worker=settings.scale_warm, folder=folder)
        guess = rate_guess or jobs / max(per_match, 1e-4)
        todo = int(min(settings.scale_max, max(settings.scale_min * jobs, guess * settings.scale_seconds)))
    else:
        todo = settings.scale_min * jobs
    load = _load_average()
    played, wall, cpu, chunks, runs = 0, 0.0, 0.0, 0, 0
    while True:
        w, c, k, _ = _stored_run(spec, cell, todo, folder, jobs=jobs, backend=backend, start=played)
        played, wall, cpu, chunks, runs = played + todo, wall + w, cpu + c, chunks + k, runs + 1
        left = settings.scale_seconds - wall
        if not settings.pilot or runs == 3 or left < 0.2 * settings.scale_seconds:
            break
        todo = max(jobs, min(settings.scale_max, int(left * played / wall)))
    return {
        "matches": played,
        "wall_s": wall,
        "matches_per_s": played / wall,
        "cpu_ms_per_match": 1000 * cpu / played,
        "chunks": chunks,
        "runs": runs,
        "load_average": load,
    }


def _bench_parent():
    """benchmarks/bench_parent.py as a module (the folder is not a package)."""
    path = Path(__file__).resolve().parent / "bench_parent.py"
    module_spec = importlib.util.spec_from_file_location("tablesim_bench_parent", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def run_parent_share(games: Sequence[str], settings: Settings) -> dict:
    """The parent's share of each game's run, from bench_parent.py (its `measure`, --jobs 2)."""
    parent = _bench_parent()
    figures: dict = {"scaling_parent_jobs": JOBS, "scaling_parent_scale": settings.parent_scale}
    for game in games:
        row = parent.measure(game, JOBS, settings.parent_scale)
        _say(
            f"scaling: {game} parent {row['parent_play_cpu_ms_per_match']} CPU ms/match during play, "
            f"worker {row['worker_cpu_ms_per_match']} ms: share {row['parent_share_during_play_pct']} %"
        )
        share = row["parent_share_during_play_pct"] / 100
        ceiling = row["projected_ceiling_workers"]  # inf when the parent's CPU did not grow (a tiny run)
        figures.update(
            {
                f"scaling_{game}_parent_matches": row["matches"],
                f"scaling_{game}_worker_cpu_ms_per_match": row["worker_cpu_ms_per_match"],
                f"scaling_{game}_parent_play_cpu_ms_per_match": row["parent_play_cpu_ms_per_match"],
                f"scaling_{game}_parent_share_pct": row["parent_share_during_play_pct"],
                f"scaling_{game}_projected_ceiling_workers": ceiling if math.isfinite(ceiling) else None,
                # on TARGET_WORKERS cores shared with the parent: every match also costs the parent's share
                f"scaling_{game}_parent_bound_speedup_{TARGET_WORKERS}": round(
                    min(TARGET_WORKERS / (1 + max(share, 0.0)), ceiling), 1
                ),
                f"scaling_{game}_parent_end_of_run_cpu_ms_per_match": row["parent_end_of_run_cpu_ms_per_match"],
            }
        )
    return figures


def run_dask_pairs(spec: GameSpec, cell: Cell, settings: Settings, folder: Path, rate1_per_s: float) -> dict:
    """loky against Dask on JOBS workers, through results directories (a Dask client of JOBS
    workers must be active); ``rate1_per_s``: the line-up's rate in this process (--jobs 1)."""
    n = settings.dask_matches
    walls: dict[str, list[float]] = {"loky": [], "dask": []}
    cpus: dict[str, list[float]] = {"loky": [], "dask": []}
    chunks: dict[str, list[int]] = {"loky": [], "dask": []}
    kept: dict[str, Path] = {}
    # One live pool of each for the whole comparison, as loky's reusable pool always is; the
    # pairs alternate which backend goes first, so a drift of the machine's speed within a
    # pair does not favour either.
    _warm(spec, cell, JOBS, backend="dask", folder=folder)
    _warm(spec, cell, JOBS, folder=folder)
    started = time.perf_counter()
    for repeat in range(settings.repeats):
        spent = time.perf_counter() - started
        if repeat >= settings.min_repeats and spent + spent / repeat > settings.dask_budget_s:
            _say(
                f"scaling: {repeat} loky/Dask pairs took {spent:.0f} s: no more (budget {settings.dask_budget_s:.0f} s)"
            )
            break
        for backend in ("loky", "dask") if repeat % 2 == 0 else ("dask", "loky"):
            wall, cpu, k, path = _stored_run(spec, cell, n, folder, jobs=JOBS, backend=backend, keep=repeat == 0)
            if repeat == 0:
                kept[backend] = path
            walls[backend].append(wall)
            cpus[backend].append(cpu)
            chunks[backend].append(k)
            _say(f"scaling: {backend} {JOBS} workers, {n} matches in {k} chunks: {wall:.2f} s (CPU {cpu:.1f} s)")
    # same seed on both backends: the same tables, whatever the chunks
    same = bool(load_tables(kept["loky"])["matches"].equals(load_tables(kept["dask"])["matches"]))
    loky, dask = min(walls["loky"]), min(walls["dask"])
    dask_chunks = round(statistics.median(chunks["dask"]))
    rate1 = 60 * rate1_per_s
    rate_loky, rate_dask = 60 * n / loky, 60 * n / dask
    pairs = [d / lo - 1 for lo, d in zip(walls["loky"], walls["dask"])]
    median_pair = statistics.median(pairs)
    return {
        "scaling_matches_per_min_1_worker": round(rate1, 1),
        "scaling_matches_per_min_2_workers": round(rate_loky, 1),
        "scaling_matches_per_min_2_dask_workers": round(rate_dask, 1),
        "scaling_speedup_2_workers": round(rate_loky / rate1, 3),
        "scaling_speedup_2_dask_workers": round(rate_dask / rate1, 3),
        "scaling_efficiency_2_workers": round(rate_loky / rate1 / JOBS, 3),
        "dask_matches": n,
        "dask_chunks": dask_chunks,
        "loky_chunks": round(statistics.median(chunks["loky"])),
        f"loky_wall_s_{n}": round(loky, 3),
        f"dask_wall_s_{n}": round(dask, 3),
        f"dask_overhead_ratio_{n}": round(dask / loky - 1, 4),
        f"dask_overhead_pct_{n}": round(100 * (dask / loky - 1), 2),
        f"dask_overhead_ratio_{n}_per_repeat": ",".join(f"{r:.4f}" for r in pairs),
        "dask_overhead_per_chunk_s": round((dask - loky) / dask_chunks, 5),
        "dask_overhead_per_chunk_ms": round(1000 * (dask - loky) / dask_chunks, 2),
        f"dask_cpu_overhead_ratio_{n}": round(min(cpus["dask"]) / min(cpus["loky"]) - 1, 4),
        f"dask_overhead_median_pair_ratio_{n}": round(median_pair, 4),
        f"dask_overhead_below_10pct_{n}": bool(dask / loky - 1 < 0.10 and median_pair < 0.10),
        "dask_same_tables": same,
        "dask_repeats": len(walls["loky"]),
    }


def run_scaling(settings: Settings, specs: dict[str, GameSpec]) -> dict:
    """Every game's scaling curve (1, 2, 4, ... workers up to the cores, loky and Dask), the
    parent's share of each game's run, and loky against Dask on 2 workers (Curlastique)."""
    # distributed's configuration loads on its import: imported inside dask_client's first
    # `dask.config.set`, it is dropped again when that block ends, and the next LocalCluster
    # of this process fails (KeyError 'comm'); imported first, it stays
    import distributed  # noqa: F401

    from sim.core.cluster import dask_client

    cores = cpu_count()
    workers = scaling_workers(cores)
    cells = {game: _scale_cell(spec) for game, spec in specs.items() if game in SCALE_LINEUPS}
    figures: dict = {
        "scaling_cores": cores,
        "scaling_workers": ",".join(map(str, workers)),
        "scaling_games": ",".join(cells),
    }
    rate1: dict[str, float] = {}
    pairs_game = DASK_GAME if DASK_GAME in cells else None
    with tempfile.TemporaryDirectory(prefix="tablesim-scaling-") as tmp:
        folder = Path(tmp)
        # workers outside, games inside: one Dask cluster per size, and the in-process rate of
        # every game (the baseline of the speed-ups, and the guess that sizes later points) first
        for jobs in workers:
            for backend in ("loky", "dask"):
                with dask_client(workers=jobs) if backend == "dask" else contextlib.nullcontext() as client:
                    if client is not None:
                        client.wait_for_workers(jobs, timeout=120)
                    for game, cell in cells.items():
                        guess = rate1[game] * jobs if game in rate1 else None
                        point = _scan_point(specs[game], cell, jobs, backend, folder, settings, guess)
                        if jobs == 1 and backend == "loky":
                            rate1[game] = point["matches_per_s"]
                        speedup = point["matches_per_s"] / rate1[game]
                        key = f"scaling_{game}_{backend}_{jobs}w"
                        figures.update(
                            {
                                f"{key}_matches": point["matches"],
                                f"{key}_wall_s": round(point["wall_s"], 2),
                                f"{key}_matches_per_s": round(point["matches_per_s"], 2),
                                f"{key}_speedup": round(speedup, 3),
                                f"{key}_efficiency": round(speedup / jobs, 3),
                                f"{key}_cpu_ms_per_match": round(point["cpu_ms_per_match"], 2),
                                f"{key}_chunks": point["chunks"],
                                f"{key}_load_average": point["load_average"],
                            }
                        )
                        _say(
                            f"scaling: {game} {backend} {jobs} workers: {point['matches']} matches in "
                            f"{point['wall_s']:.1f} s, {point['matches_per_s']:.1f}/s, speed-up {speedup:.2f} "
                            f"(load average {point['load_average']})"
                        )
                    if backend == "dask" and jobs == JOBS and pairs_game:
                        figures.update(
                            run_dask_pairs(specs[pairs_game], cells[pairs_game], settings, folder, rate1[pairs_game])
                        )
        if pairs_game and JOBS not in workers:  # one core: the comparison still runs on 2 workers
            with dask_client(workers=JOBS) as client:
                client.wait_for_workers(JOBS, timeout=120)
                figures.update(
                    run_dask_pairs(specs[pairs_game], cells[pairs_game], settings, folder, rate1[pairs_game])
                )
    figures.update(run_parent_share(list(cells), settings))
    return figures


# ------------------------------------------------------------------------------ plot
def save_plot(rows: list[dict], curves: dict[str, GameCurves], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = [g for g in curves if any(r["game"] == g for r in rows)]
    axes_names = ("players", "work", "planning")
    fig, axes = plt.subplots(len(games), 3, figsize=(13, 3.4 * len(games)), squeeze=False)
    for i, g in enumerate(games):
        c = curves[g]
        titles = {"players": "players (same preset in every seat)", "work": c.work_title, "planning": c.planning_title}
        for j, axis in enumerate(axes_names):
            ax = axes[i][j]
            pts = sorted((r for r in rows if r["game"] == g and r["axis"] == axis), key=lambda r: r["x"])
            if not pts:
                ax.set_visible(False)
                continue
            xs = list(range(len(pts))) if axis == "planning" else [r["x"] for r in pts]
            ax.plot(xs, [r["matches_per_min"] for r in pts], "o-", color="C0", label="matches / min")
            ax.set_xticks(xs, [r["tick"] for r in pts])
            ax.set_ylim(bottom=0)
            ax.set_xlabel(titles[axis])
            if j == 0:
                ax.set_ylabel(f"{c.title}\nmatches / min (2 workers)")
            twin = ax.twinx()
            twin.plot(xs, [r["units_per_s"] for r in pts], "s--", color="C1", label=f"{c.unit} / s")
            twin.set_ylim(bottom=0)
            twin.tick_params(axis="y", colors="C1")
            if j == 2:
                twin.set_ylabel(f"{c.unit} / s", color="C1")
    fig.suptitle(
        "tablesim: cost of each game as its work grows (2 loky workers): "
        "matches / min (solid, left), work units / s (dashed, right)"
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# ------------------------------------------------------------------------------ driver
def _command(
    quick: bool,
    games: Sequence[str],
    sections: Sequence[str],
    repeats: int | None,
    plot: Path | None,
    point_seconds: float,
) -> str:
    cmd = "PYTHONPATH=. .venv/bin/python benchmarks/bench_scaling.py --format json"
    if quick:
        cmd += " --quick"
    elif point_seconds != FULL.point_seconds:
        cmd += f" --point-seconds {point_seconds:g}"
    if tuple(games) != GAMES:
        cmd += f" --games {','.join(games)}"
    if tuple(sections) != SECTIONS:
        cmd += f" --sections {','.join(sections)}"
    if repeats is not None:
        cmd += f" --repeats {repeats}"
    if plot is not None and Path(plot).resolve() != DEFAULT_PLOT:
        cmd += f" --plot {plot}"
    return cmd


def run_benchmarks(
    seconds: float = 2.0,
    *,
    quick: bool = False,
    games: Sequence[str] | None = None,
    sections: Sequence[str] | None = None,
    repeats: int | None = None,
    plot: str | Path | None = DEFAULT_PLOT,
) -> dict:
    """Every figure as a flat dict (the `tablesim bench` entry point).

    ``seconds`` is `tablesim bench --seconds` (time per measured case): a cost-curve point lasts
    about 3 × ``seconds``; below 0.5 s the whole group runs in quick mode. A scaling point lasts
    about 5 s whatever ``seconds``, and the loky / Dask comparison always plays its 2,000 matches
    (quick: 2 matches per worker, and 100).
    """
    quick = quick or seconds < QUICK_BELOW_S
    return measure(
        quick=quick,
        games=games,
        sections=sections,
        repeats=repeats,
        plot=plot,
        point_seconds=None if quick else 3 * seconds,
    )[0]


def measure(
    *,
    quick: bool = False,
    games: Sequence[str] | None = None,
    sections: Sequence[str] | None = None,
    repeats: int | None = None,
    plot: str | Path | None = DEFAULT_PLOT,
    point_seconds: float | None = None,
) -> tuple[dict, list[dict]]:
    """(flat figures, one row per cost-curve point)."""
    settings = QUICK if quick else FULL
    if point_seconds is not None and not quick:
        settings = replace(settings, point_seconds=point_seconds)
    if repeats is not None:
        settings = replace(settings, repeats=max(1, repeats), min_repeats=max(1, repeats))
    games = tuple(games or GAMES)
    sections = tuple(sections or SECTIONS)
    for name, allowed, given in (("game", GAMES, games), ("section", SECTIONS, sections)):
        bad = [x for x in given if x not in allowed]
        if bad:
            raise ValueError(f"unknown {name} {bad[0]!r}; allowed: {', '.join(allowed)}")
    started = time.perf_counter()
    figures: dict = {"scaling_cpu_count": os.cpu_count() or 0, "scaling_load_average_start": _load_average()}
    skipped: list[str] = []
    rows: list[dict] = []
    curves: dict[str, GameCurves] = {}
    specs: dict[str, GameSpec] = {}
    for game in games:
        try:
            specs[game] = get_game(game)
            curves[game] = CURVES[game](specs[game])
        except Exception as exc:  # a game being written may not import yet
            skipped.append(game)
            specs.pop(game, None)
            _say(f"skipping {game}: it does not import ({type(exc).__name__}: {exc})")
    if "scaling" in sections:  # first: the figures with targets (13x at 16 workers, Dask overhead < 10 %)
        figures.update(run_scaling(settings, specs))
    for game, spec in specs.items():
        if "curves" in sections:
            f, r = run_curves(spec, curves[game], settings)
            figures.update(f)
            rows.extend(r)
        if "memory" in sections:
            figures.update(run_memory(spec, curves[game], settings))
        if "storage" in sections:
            figures.update(run_storage(spec, curves[game], settings))
    if quick and plot is not None and Path(plot).resolve() == DEFAULT_PLOT:
        plot = None  # a quick run measures nothing: it leaves the measured plot alone (--plot PATH draws one)
    if rows and plot is not None:
        figures["scaling_plot"] = str(save_plot(rows, curves, Path(plot)))
    figures["scaling_skipped_games"] = ",".join(skipped)
    figures["scaling_load_average_end"] = _load_average()
    figures["scaling_wall_s"] = round(time.perf_counter() - started, 1)
    figures["scaling_command"] = _command(
        quick, games, sections, repeats, Path(plot) if plot is not None else None, settings.point_seconds
    )
    return figures, rows


# ------------------------------------------------------------------------------ text
def _number(value: float | None) -> str:
    return "n/a" if value is None else f"{value:,.1f}"


def _scaling_table(f: dict) -> list[str]:
    """The scaling curves (game x backend x workers), the parent's share, and the target line."""
    lines: list[str] = []
    games = [g for g in f.get("scaling_games", "").split(",") if g]
    if not games:
        return lines
    workers = [int(j) for j in f["scaling_workers"].split(",")]
    lines.append(
        "scaling: matches/s on warm workers, each run into a fresh results directory (default chunk "
        "sizing); speed-up over 1 worker in this process (loky 1 = --jobs 1), efficiency = speed-up / workers; "
        "busy = CPU s of this process and its workers per wall s (below the workers: other load took cores); "
        "load = load average at the point's start"
    )
    lines.append(
        f"  {'game':<13} {'backend':<7} {'workers':>7} {'matches':>8} {'wall s':>7} {'matches/s':>10} "
        f"{'speed-up':>9} {'efficiency':>10} {'CPU ms/match':>13} {'busy':>5} {'chunks':>7} {'load':>5}"
    )
    for game in games:
        for backend in ("loky", "dask"):
            for jobs in workers:
                k = f"scaling_{game}_{backend}_{jobs}w"
                if f"{k}_matches_per_s" not in f:
                    continue
                busy = f[f"{k}_cpu_ms_per_match"] * f[f"{k}_matches"] / 1000 / f[f"{k}_wall_s"]
                lines.append(
                    f"  {game:<13} {backend:<7} {jobs:>7} {f[f'{k}_matches']:>8} {f[f'{k}_wall_s']:>7.1f} "
                    f"{f[f'{k}_matches_per_s']:>10,.1f} {f[f'{k}_speedup']:>9.2f} "
                    f"{f[f'{k}_efficiency']:>10.2f} {f[f'{k}_cpu_ms_per_match']:>13.2f} {busy:>5.2f} "
                    f"{f[f'{k}_chunks']:>7} {f[f'{k}_load_average']:>5}"
                )
    if any(f"scaling_{g}_parent_share_pct" in f for g in games):
        lines.append(
            f"parent's share during play (benchmarks/bench_parent.py --jobs {f['scaling_parent_jobs']} "
            f"--scale {f['scaling_parent_scale']:g}; ceiling = worker CPU / parent CPU per match)"
        )
        lines.append(
            f"  {'game':<13} {'matches':>14} {'worker ms/match':>16} {'parent ms/match':>16} {'share %':>8} "
            f"{'ceiling':>8} {'end of run ms/match':>20}"
        )
        for game in games:
            if f"scaling_{game}_parent_share_pct" in f:
                lines.append(
                    f"  {game:<13} {f[f'scaling_{game}_parent_matches']:>14} "
                    f"{f[f'scaling_{game}_worker_cpu_ms_per_match']:>16.3f} "
                    f"{f[f'scaling_{game}_parent_play_cpu_ms_per_match']:>16.4f} "
                    f"{f[f'scaling_{game}_parent_share_pct']:>8.2f} "
                    f"{_number(f[f'scaling_{game}_projected_ceiling_workers']):>8} "
                    f"{f[f'scaling_{game}_parent_end_of_run_cpu_ms_per_match']:>20.4f}"
                )
    if f["scaling_cores"] < TARGET_WORKERS:
        bound = "; ".join(
            f"{g} ceiling {_number(f[f'scaling_{g}_projected_ceiling_workers'])} workers, "
            f"parent-bound speed-up at {TARGET_WORKERS} <= "
            f"{f[f'scaling_{g}_parent_bound_speedup_{TARGET_WORKERS}']:.1f}x"
            for g in games
            if f"scaling_{g}_projected_ceiling_workers" in f
        )
        lines.append(
            f"target (>= {TARGET_SPEEDUP:g}x at {TARGET_WORKERS} workers): cannot be measured on "
            f"{f['scaling_cores']} cores; projected from the parent's share instead: {bound} "
            f"(the parent alone: not the tail of a run, memory bandwidth or the disk)"
        )
    else:
        speedups = [f.get(f"scaling_{g}_{b}_{TARGET_WORKERS}w_speedup") for g in games for b in ("loky", "dask")]
        met = all(s is not None and s >= TARGET_SPEEDUP for s in speedups)
        lines.append(
            f"target (>= {TARGET_SPEEDUP:g}x at {TARGET_WORKERS} workers, every game and backend): "
            f"{'met' if met else 'NOT met'}"
        )
    return lines


def _table(f: dict, rows: Sequence[dict] = ()) -> str:
    lines = []
    for game in GAMES:
        pts = [r for r in rows if r["game"] == game]
        if not pts:
            continue
        unit = next(
            (k.split("_per_s_")[0].split(f"{game}_")[1] for k in f if k.startswith(f"{game}_") and "_per_s_" in k),
            "units",
        )
        lines.append(f"{game}: matches per minute on {JOBS} loky workers")
        lines.append(
            f"  {'axis':<9} {'point':<11} {'matches':>8} {'wall s':>7} {'matches/min':>12} "
            f"{unit + '/s':>11} {unit + '/match':>13} {'CPU ms/match':>13}"
        )
        for r in pts:
            lines.append(
                f"  {r['axis']:<9} {r['key']:<11} {r['matches']:>8} {r['wall_s']:>7.1f} "
                f"{r['matches_per_min']:>12,.0f} {r['units_per_s']:>11,.1f} {r['units_per_match']:>13.1f} "
                f"{r['cpu_ms_per_match']:>13,.1f}"
            )
    mem = [(k, v) for k, v in f.items() if "_peak_kib_per_match_" in k]
    if mem:
        lines.append("memory: tracemalloc peak of one match, in-process (largest of the matches traced)")
        lines.extend(f"  {k:<44} {v:>10,.1f} KiB" for k, v in mem)
    for game in GAMES:
        if f"{game}_bytes_per_match" not in f:
            continue
        lines.append(
            f"storage: {game}, {f[f'{game}_store_matches']} matches in "
            f"{f[f'{game}_store_chunks']} chunks: {f[f'{game}_bytes_per_match']:,.0f} bytes/match, "
            f"{f[f'{game}_bytes_per_row']:,.1f} bytes/row; fixed per chunk "
            f"{f[f'{game}_bytes_per_chunk_fixed']:,} bytes"
        )
        for table in TABLES:
            if f"{game}_{table}_bytes_per_row" in f:
                lines.append(
                    f"  {table:<8} {f[f'{game}_{table}_rows_per_match']:>8.1f} rows/match "
                    f"{f[f'{game}_{table}_bytes_per_match']:>10,.0f} bytes/match "
                    f"{f[f'{game}_{table}_bytes_per_row']:>8.1f} bytes/row"
                )
    lines.extend(_scaling_table(f))
    if "dask_matches" in f:
        n = f["dask_matches"]
        ratio = f[f"dask_overhead_ratio_{n}"]
        lines.append(
            f"loky against Dask: Curlastique club vs club, target 500, through results directories "
            f"(best of {f['dask_repeats']})"
        )
        lines.append(f"  1 worker (in-process)    {f['scaling_matches_per_min_1_worker']:>10,.0f} matches/min")
        lines.append(
            f"  2 loky workers           {f['scaling_matches_per_min_2_workers']:>10,.0f} matches/min"
            f"   speed-up {f['scaling_speedup_2_workers']:.2f}"
        )
        lines.append(
            f"  2 Dask workers           {f['scaling_matches_per_min_2_dask_workers']:>10,.0f} matches/min"
            f"   speed-up {f['scaling_speedup_2_dask_workers']:.2f}"
        )
        lines.append(
            f"  {n} matches, {f['loky_chunks']} / {f['dask_chunks']} chunks: loky {f[f'loky_wall_s_{n}']:.2f} s, "
            f"Dask {f[f'dask_wall_s_{n}']:.2f} s; overhead {100 * ratio:+.1f} % "
            f"(per repeat: {f[f'dask_overhead_ratio_{n}_per_repeat']}; median "
            f"{100 * f[f'dask_overhead_median_pair_ratio_{n}']:+.1f} %), "
            f"{1000 * f['dask_overhead_per_chunk_s']:+.1f} ms per chunk; CPU overhead "
            f"{100 * f[f'dask_cpu_overhead_ratio_{n}']:+.1f} %"
        )
        lines.append(
            f"  target (< 10 %, best of each and median pair): "
            f"{'met' if f[f'dask_overhead_below_10pct_{n}'] else 'NOT met'}; "
            f"same tables from both backends: {f['dask_same_tables']}"
        )
    if f.get("scaling_skipped_games"):
        lines.append(f"skipped (does not import): {f['scaling_skipped_games']}")
    if f.get("scaling_plot"):
        lines.append(f"plot: {f['scaling_plot']}")
    lines.append(
        f"{f['scaling_cpu_count']} CPUs, load average {f['scaling_load_average_start']} at the start, "
        f"{f['scaling_load_average_end']} at the end; {f['scaling_wall_s']:.0f} s in all"
    )
    lines.append(f"command: {f['scaling_command']}")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--quick", action="store_true", help="tiny numbers: checks the script, measures nothing")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games (default: all)")
    parser.add_argument("--sections", default=",".join(SECTIONS), help="comma-separated sections (default: all)")
    parser.add_argument(
        "--repeats", type=int, default=None, help="timed loky/Dask pairs (default 5, fewer past 150 s; quick 1)"
    )
    parser.add_argument(
        "--point-seconds",
        type=float,
        default=FULL.point_seconds,
        help=f"wall time of a cost-curve point (default {FULL.point_seconds:g})",
    )
    parser.add_argument("--plot", default=str(DEFAULT_PLOT), help="where the cost-curve plot goes")
    args = parser.parse_args(argv)
    split = lambda s: tuple(x.strip() for x in s.split(",") if x.strip())  # noqa: E731
    try:
        figures, rows = measure(
            quick=args.quick,
            games=split(args.games),
            sections=split(args.sections),
            repeats=args.repeats,
            plot=args.plot,
            point_seconds=args.point_seconds,
        )
    except ValueError as exc:
        parser.error(str(exc))
    print(json.dumps(figures, indent=2) if args.format == "json" else _table(figures, rows))


if __name__ == "__main__":
    main()
