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
scaling  Curlastique 2 players `club` vs `club`, target 500: a 2,000-match run (default
         chunk size: 80 chunks) on 2 loky workers and on the Dask backend (a LocalCluster
         of 2 single-threaded worker processes, `sim.core.cluster.dask_client`). One loky
         pool and one LocalCluster live through the section, each warmed once (worker
         start-up and the numba cache load are not counted); loky and Dask alternate, 5
         pairs (3 when the first pairs took over 300 s; `--repeats R`: exactly R), each
         pair in the other order than the one before, and the best wall time of each
         counts. This section runs first. Dask overhead per chunk = (dask − loky) / chunks;
         overhead ratio = dask / loky − 1 on the best times, and the median over the pairs of
         each pair's ratio (the machine's speed drifts between pairs by more than the overhead:
         the target, < 10 %, is met only when both are). The CPU seconds of
         this process and all its descendants are summed too: the CPU overhead ratio does
         not depend on other load on the machine. One worker: the same line-up in this
         process (`--jobs 1`), and the speed-ups of 2 loky workers and 2 Dask workers over it.

Timing is wall clock (`time.perf_counter`): run it on a quiet machine. `--quick` runs every
section with tiny numbers (a check that the script works, not a measurement).
"""

# No `from __future__ import annotations`: `tablesim bench` loads this file without putting it
# in sys.modules, and dataclasses resolve string annotations through sys.modules.
import argparse
import json
import math
import os
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
from sim.core.runner import DEFAULT_CHUNK_SIZE, play_one  # noqa: E402

GAMES = ("curlastique", "carrom", "gasterospeed")
SECTIONS = ("curves", "memory", "storage", "scaling")
DEFAULT_PLOT = Path(__file__).resolve().parent / "scaling.png"
JOBS = 2
QUICK_BELOW_S = 0.5   # `tablesim bench --seconds S` below this runs the quick mode
#: The Dask comparison: 2-player Curlastique between club players, to 500.
DASK_GAME, DASK_PLAYERS, DASK_RULES = "curlastique", ("club", "club"), ("game.target_score=500",)


@dataclass(frozen=True)
class Settings:
    """The sizes of a run (full or quick)."""

    point_seconds: float        # target wall time of one cost-curve point
    point_min: int              # matches of a point, at least
    point_max: int              # matches of a point, at most
    pilot: bool                 # size the points from a pilot run (else point_min matches)
    memory_matches: int         # matches traced per line-up
    store_matches: int          # matches of the storage run
    dask_matches: int           # matches of each timed loky / Dask run
    repeats: int                # timed loky / Dask pairs, at most
    min_repeats: int            # ... at least: pairs beyond it only while within dask_budget_s
    dask_budget_s: float        # wall time of the loky / Dask pairs beyond which no pair starts
    single_matches: int         # matches of the one-worker run


FULL = Settings(point_seconds=6.0, point_min=8 * JOBS, point_max=4000, pilot=True,
                memory_matches=3, store_matches=2 * DEFAULT_CHUNK_SIZE, dask_matches=2000,
                repeats=5, min_repeats=3, dask_budget_s=300.0, single_matches=300)
QUICK = Settings(point_seconds=0.0, point_min=2 * JOBS, point_max=2 * JOBS, pilot=False,
                 memory_matches=1, store_matches=10, dask_matches=100, repeats=1, min_repeats=1,
                 dask_budget_s=0.0, single_matches=8)


# ------------------------------------------------------------------------------ the points
@dataclass(frozen=True)
class Point:
    """One point of a cost curve: a line-up and rule overrides."""

    axis: str                     # "players" | "work" | "planning"
    key: str                      # key suffix: "2p", "pucks5", "budget96", "greedy"
    x: float                      # position on the axis
    tick: str                     # tick label on the plot
    players: tuple[Player, ...]
    overrides: tuple[str, ...] = ()

    def config(self) -> tuple:
        return (tuple((p.name, p.profile) for p in self.players), self.overrides)


@dataclass(frozen=True)
class GameCurves:
    """The cost curves of one game."""

    game: str
    title: str
    unit: str                     # work units per match: a column of the matches table
    work_title: str               # the work axis
    planning_title: str
    points: tuple[Point, ...]
    memory_lineups: tuple[tuple[str, tuple[str, ...]], ...] = ()   # (key, presets)
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
    points += [Point("work", f"pucks{k}", k, str(k), _preset(spec, "club", 2),
                     (*base, f"game.pucks_per_player={k}")) for k in (2, 3, 5, 8)]
    # the presets' budgets (novice, casual, club, expert) with club's noise
    points += [Point("planning", f"budget{c * s}", c * s, f"{c}x{s}", (_budget(spec, "club", c, s),) * 2, base)
               for c, s in ((6, 2), (12, 3), (24, 4), (40, 6))]
    return GameCurves("curlastique", spec.title, "throws", "pucks per player (2 players)",
                      "candidates x samples (2 players)", tuple(points),
                      memory_lineups=(("2p", ("club",) * 2), ("4p", ("club",) * 4)),
                      store_players=("club", "club"), base_overrides=base)


def carrom_curves(spec: GameSpec) -> GameCurves:
    points = [Point("players", f"{n}p", n, str(n), _preset(spec, "club", n)) for n in (2, 3, 4)]
    points += [Point("work", f"boards{b}", b, str(b), _preset(spec, "club", 2), (f"game.max_boards={b}",))
               for b in (1, 2, 4, 8)]
    points += [Point("planning", f"budget{c * s}", c * s, f"{c}x{s}", (_budget(spec, "club", c, s),) * 2)
               for c, s in ((4, 2), (8, 3), (12, 4), (24, 6))]
    return GameCurves("carrom", spec.title, "strokes", "game.max_boards (2 players; 19 coins, fixed)",
                      "candidates x samples (2 players)", tuple(points),
                      memory_lineups=(("2p", ("club",) * 2), ("4p", ("club",) * 4)),
                      store_players=("club", "club"))


def gasterospeed_curves(spec: GameSpec) -> GameCurves:
    circuits = tuple(load_rules(spec).championship.circuits)
    points = [Point("players", f"{n}p", n, str(n), _preset(spec, "tactician", n)) for n in range(2, 7)]
    for k in sorted({1, 2, 3, len(circuits)}):
        names = ",".join(f'"{c}"' for c in circuits[:k])
        overrides = () if k == len(circuits) else (f"championship.circuits=[{names}]",)
        points.append(Point("work", f"races{k}", k, str(k), _preset(spec, "tactician", 2), overrides))
    points += [Point("planning", kind, x, kind, _preset(spec, kind, 2))
               for x, kind in enumerate(("random", "greedy", "tactician"))]
    return GameCurves("gasterospeed", spec.title, "turns", "races per championship (2 players)",
                      "policy (2 players)", tuple(points),
                      memory_lineups=(("2p", ("tactician",) * 2), ("6p", ("tactician",) * 6)),
                      store_players=("tactician", "tactician"))


CURVES: dict[str, Callable[[GameSpec], GameCurves]] = {
    "curlastique": curlastique_curves, "carrom": carrom_curves, "gasterospeed": gasterospeed_curves}


# ------------------------------------------------------------------------------ helpers
def _say(message: str) -> None:
    print(f"[bench_scaling] {message}", file=sys.stderr, flush=True)


def _cell(spec: GameSpec, players: Sequence[Player], overrides: Sequence[str], name: str = "bench") -> Cell:
    rules = load_rules(spec, None, list(overrides))
    problems = spec.lineup_problems(rules, len(players)) if spec.lineup_problems else []
    if problems:
        raise ValueError(f"{spec.name} {name}: {'; '.join(problems)}")
    return Cell("bench", name, rules, tuple(players))


def _warm(spec: GameSpec, cell: Cell, jobs: int, backend: str = "loky", per_worker: int = 4) -> float:
    """A short run on the live pool, one match per task (so every worker loads the numba cache);
    returns its wall time per match and worker (s): a rough cost, for sizing runs."""
    n = per_worker * max(jobs, 1)
    started = time.perf_counter()
    run_cells(spec, [cell], n, 99, jobs=jobs, chunk_size=1, backend=backend, progress=False)
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
        per_match = _warm(spec, cell, JOBS, per_worker=2)   # wall s per match and worker, roughly
        todo = int(settings.point_seconds * JOBS / max(per_match, 1e-4))
    else:
        todo = settings.point_min
    todo = max(settings.point_min, min(settings.point_max, todo))
    played, wall, cpu, units = 0, 0.0, 0.0, 0.0
    for _ in range(3):
        cpu0, started = _cpu_seconds(), time.perf_counter()
        tables = run_cells(spec, [cell], played + todo, 1, jobs=JOBS, start=played,
                           chunk_size=_chunk_size(todo, JOBS), progress=False)
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
    return {"matches": played, "wall_s": wall, "matches_per_min": 60 * played / wall,
            "units_per_s": units / wall, "units_per_match": units / played,
            "cpu_ms_per_match": 1000 * cpu / played}


def run_curves(spec: GameSpec, curves: GameCurves, settings: Settings) -> tuple[dict, list[dict]]:
    """Flat figures and the plotted rows of one game's cost curves."""
    figures: dict = {}
    rows: list[dict] = []
    first = curves.points[0]
    _warm(spec, _cell(spec, first.players, first.overrides, first.key), JOBS)   # the pool, this game
    done: dict[tuple, dict] = {}
    for point in curves.points:
        result = done.get(point.config())
        if result is None:
            result = measure_point(spec, point, curves.unit, settings)
            done[point.config()] = result
            _say(f"{curves.game} {point.key}: {result['matches']} matches, "
                 f"{result['matches_per_min']:.0f}/min, {result['units_per_s']:.1f} {curves.unit}/s, "
                 f"{result['cpu_ms_per_match']:.0f} CPU ms/match")
        g = curves.game
        figures[f"{g}_matches_per_min_{point.key}"] = round(result["matches_per_min"], 1)
        figures[f"{g}_{curves.unit}_per_s_{point.key}"] = round(result["units_per_s"], 1)
        figures[f"{g}_cpu_ms_per_match_{point.key}"] = round(result["cpu_ms_per_match"], 2)
        rows.append({"game": g, "axis": point.axis, "key": point.key, "x": point.x, "tick": point.tick,
                     **result})
    return figures, rows


# ------------------------------------------------------------------------------ memory
def run_memory(spec: GameSpec, curves: GameCurves, settings: Settings) -> dict:
    """tracemalloc peak (KiB) of one match played in this process: the largest of a few."""
    figures: dict = {}
    for key, presets in curves.memory_lineups:
        cell = _cell(spec, load_lineup(spec, presets), curves.base_overrides, key)
        play_one(spec, cell, 0, 5)                     # imports, numba cache: not traced
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
def _timed(spec: GameSpec, cell: Cell, matches: int, **kwargs) -> tuple[float, float, dict]:
    """(wall s, CPU s of this process tree, tables) of one run."""
    cpu0, started = _cpu_seconds(), time.perf_counter()
    tables = run_cells(spec, [cell], matches, 1, progress=False, **kwargs)
    wall = time.perf_counter() - started
    return wall, _cpu_seconds() - cpu0, tables


def run_scaling(settings: Settings) -> dict:
    """1 → 2 loky workers, and loky against the Dask backend on the same 2 workers."""
    from sim.core.cluster import dask_client

    spec = get_game(DASK_GAME)
    rules = load_rules(spec, None, list(DASK_RULES))
    cell = Cell("bench", "club-club", rules, load_lineup(spec, DASK_PLAYERS, rules))
    n = settings.dask_matches
    chunks = math.ceil(n / DEFAULT_CHUNK_SIZE)
    same = True
    walls: dict[str, list[float]] = {"loky": [], "dask": []}
    cpus: dict[str, list[float]] = {"loky": [], "dask": []}
    tables: dict[str, dict] = {}
    section_start = time.perf_counter()
    # One live pool of each for the whole section, as loky's reusable pool always is (a fresh
    # LocalCluster per pair would run every Dask run on workers a few seconds old against loky
    # workers warm from the earlier pairs); the pairs alternate which backend
    # goes first, so a drift of the machine's speed within a pair does not favour either.
    with dask_client(workers=JOBS) as client:
        client.wait_for_workers(JOBS, timeout=120)
        _warm(spec, cell, JOBS, backend="dask")
        _warm(spec, cell, JOBS)
        for repeat in range(settings.repeats):
            spent = time.perf_counter() - section_start
            if repeat >= settings.min_repeats and spent + spent / repeat > settings.dask_budget_s:
                _say(f"scaling: {repeat} loky/Dask pairs took {spent:.0f} s: no more (budget "
                     f"{settings.dask_budget_s:.0f} s)")
                break
            for backend in (("loky", "dask") if repeat % 2 == 0 else ("dask", "loky")):
                wall, cpu, tables[backend] = _timed(spec, cell, n, jobs=JOBS, backend=backend)
                walls[backend].append(wall)
                cpus[backend].append(cpu)
                _say(f"scaling: {backend} {JOBS} workers, {n} matches: {wall:.2f} s (CPU {cpu:.1f} s)")
            same = same and tables["dask"]["matches"].equals(tables["loky"]["matches"])
    loky_walls, dask_walls, loky_cpus, dask_cpus = walls["loky"], walls["dask"], cpus["loky"], cpus["dask"]
    # one worker: this process, as `--jobs 1`
    m = settings.single_matches
    _warm(spec, cell, 1)
    single_wall, _, _ = _timed(spec, cell, m, jobs=1)
    _say(f"scaling: 1 worker (in-process), {m} matches: {single_wall:.2f} s")
    loky, dask = min(loky_walls), min(dask_walls)
    rate1 = 60 * m / single_wall
    rate_loky, rate_dask = 60 * n / loky, 60 * n / dask
    pairs = [d / lo - 1 for lo, d in zip(loky_walls, dask_walls)]
    median_pair = statistics.median(pairs)
    return {
        "scaling_matches_per_min_1_worker": round(rate1, 1),
        "scaling_matches_per_min_2_workers": round(rate_loky, 1),
        "scaling_matches_per_min_2_dask_workers": round(rate_dask, 1),
        "scaling_speedup_2_workers": round(rate_loky / rate1, 3),
        "scaling_speedup_2_dask_workers": round(rate_dask / rate1, 3),
        "scaling_efficiency_2_workers": round(rate_loky / rate1 / JOBS, 3),
        "dask_matches": n,
        "dask_chunks": chunks,
        f"loky_wall_s_{n}": round(loky, 3),
        f"dask_wall_s_{n}": round(dask, 3),
        f"dask_overhead_ratio_{n}": round(dask / loky - 1, 4),
        f"dask_overhead_pct_{n}": round(100 * (dask / loky - 1), 2),
        f"dask_overhead_ratio_{n}_per_repeat": ",".join(f"{r:.4f}" for r in pairs),
        "dask_overhead_per_chunk_s": round((dask - loky) / chunks, 5),
        "dask_overhead_per_chunk_ms": round(1000 * (dask - loky) / chunks, 2),
        f"dask_cpu_overhead_ratio_{n}": round(min(dask_cpus) / min(loky_cpus) - 1, 4),
        f"dask_overhead_median_pair_ratio_{n}": round(median_pair, 4),
        f"dask_overhead_below_10pct_{n}": bool(dask / loky - 1 < 0.10 and median_pair < 0.10),
        "dask_same_tables": bool(same),
        "dask_repeats": len(loky_walls),
    }


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
        titles = {"players": "players (same preset in every seat)", "work": c.work_title,
                  "planning": c.planning_title}
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
    fig.suptitle("tablesim: cost of each game as its work grows (2 loky workers): "
                 "matches / min (solid, left), work units / s (dashed, right)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# ------------------------------------------------------------------------------ driver
def _command(quick: bool, games: Sequence[str], sections: Sequence[str], repeats: int | None,
             plot: Path | None, point_seconds: float) -> str:
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


def run_benchmarks(seconds: float = 2.0, *, quick: bool = False, games: Sequence[str] | None = None,
                   sections: Sequence[str] | None = None, repeats: int | None = None,
                   plot: str | Path | None = DEFAULT_PLOT) -> dict:
    """Every figure as a flat dict (the `tablesim bench` entry point).

    ``seconds`` is `tablesim bench --seconds` (time per measured case): a cost-curve point lasts
    about 3 × ``seconds``; below 0.5 s the whole group runs in quick mode. The loky / Dask
    comparison always plays its 2,000 matches (quick: 100).
    """
    quick = quick or seconds < QUICK_BELOW_S
    return measure(quick=quick, games=games, sections=sections, repeats=repeats, plot=plot,
                   point_seconds=None if quick else 3 * seconds)[0]


def measure(*, quick: bool = False, games: Sequence[str] | None = None, sections: Sequence[str] | None = None,
            repeats: int | None = None, plot: str | Path | None = DEFAULT_PLOT,
            point_seconds: float | None = None) -> tuple[dict, list[dict]]:
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
    if "scaling" in sections:   # first: the figure with a target (Dask overhead < 10 %)
        figures.update(run_scaling(settings))
    skipped: list[str] = []
    rows: list[dict] = []
    curves: dict[str, GameCurves] = {}
    for game in games:
        try:
            spec = get_game(game)
            curves[game] = CURVES[game](spec)
        except Exception as exc:  # a game being written may not import yet
            skipped.append(game)
            _say(f"skipping {game}: it does not import ({type(exc).__name__}: {exc})")
            continue
        if "curves" in sections:
            f, r = run_curves(spec, curves[game], settings)
            figures.update(f)
            rows.extend(r)
        if "memory" in sections:
            figures.update(run_memory(spec, curves[game], settings))
        if "storage" in sections:
            figures.update(run_storage(spec, curves[game], settings))
    if rows and plot is not None:
        figures["scaling_plot"] = str(save_plot(rows, curves, Path(plot)))
    figures["scaling_skipped_games"] = ",".join(skipped)
    figures["scaling_load_average_end"] = _load_average()
    figures["scaling_wall_s"] = round(time.perf_counter() - started, 1)
    figures["scaling_command"] = _command(quick, games, sections, repeats,
                                          Path(plot) if plot is not None else None, settings.point_seconds)
    return figures, rows


# ------------------------------------------------------------------------------ text
def _table(f: dict, rows: Sequence[dict] = ()) -> str:
    lines = []
    for game in GAMES:
        pts = [r for r in rows if r["game"] == game]
        if not pts:
            continue
        unit = next((k.split("_per_s_")[0].split(f"{game}_")[1] for k in f
                     if k.startswith(f"{game}_") and "_per_s_" in k), "units")
        lines.append(f"{game}: matches per minute on {JOBS} loky workers")
        lines.append(f"  {'axis':<9} {'point':<11} {'matches':>8} {'wall s':>7} {'matches/min':>12} "
                     f"{unit + '/s':>11} {unit + '/match':>13} {'CPU ms/match':>13}")
        for r in pts:
            lines.append(f"  {r['axis']:<9} {r['key']:<11} {r['matches']:>8} {r['wall_s']:>7.1f} "
                         f"{r['matches_per_min']:>12,.0f} {r['units_per_s']:>11,.1f} {r['units_per_match']:>13.1f} "
                         f"{r['cpu_ms_per_match']:>13,.1f}")
    mem = [(k, v) for k, v in f.items() if "_peak_kib_per_match_" in k]
    if mem:
        lines.append("memory: tracemalloc peak of one match, in-process (largest of the matches traced)")
        lines.extend(f"  {k:<44} {v:>10,.1f} KiB" for k, v in mem)
    for game in GAMES:
        if f"{game}_bytes_per_match" not in f:
            continue
        lines.append(f"storage: {game}, {f[f'{game}_store_matches']} matches in "
                     f"{f[f'{game}_store_chunks']} chunks: {f[f'{game}_bytes_per_match']:,.0f} bytes/match, "
                     f"{f[f'{game}_bytes_per_row']:,.1f} bytes/row; fixed per chunk "
                     f"{f[f'{game}_bytes_per_chunk_fixed']:,} bytes")
        for table in TABLES:
            if f"{game}_{table}_bytes_per_row" in f:
                lines.append(f"  {table:<8} {f[f'{game}_{table}_rows_per_match']:>8.1f} rows/match "
                             f"{f[f'{game}_{table}_bytes_per_match']:>10,.0f} bytes/match "
                             f"{f[f'{game}_{table}_bytes_per_row']:>8.1f} bytes/row")
    if "dask_matches" in f:
        n = f["dask_matches"]
        ratio = f[f"dask_overhead_ratio_{n}"]
        lines.append(f"scaling: Curlastique club vs club, target 500 (best of {f['dask_repeats']})")
        lines.append(f"  1 worker (in-process)    {f['scaling_matches_per_min_1_worker']:>10,.0f} matches/min")
        lines.append(f"  2 loky workers           {f['scaling_matches_per_min_2_workers']:>10,.0f} matches/min"
                     f"   speed-up {f['scaling_speedup_2_workers']:.2f}")
        lines.append(f"  2 Dask workers           {f['scaling_matches_per_min_2_dask_workers']:>10,.0f} matches/min"
                     f"   speed-up {f['scaling_speedup_2_dask_workers']:.2f}")
        lines.append(f"  {n} matches, {f['dask_chunks']} chunks: loky {f[f'loky_wall_s_{n}']:.2f} s, "
                     f"Dask {f[f'dask_wall_s_{n}']:.2f} s; overhead {100 * ratio:+.1f} % "
                     f"(per repeat: {f[f'dask_overhead_ratio_{n}_per_repeat']}; median "
                     f"{100 * f[f'dask_overhead_median_pair_ratio_{n}']:+.1f} %), "
                     f"{1000 * f['dask_overhead_per_chunk_s']:+.1f} ms per chunk; CPU overhead "
                     f"{100 * f[f'dask_cpu_overhead_ratio_{n}']:+.1f} %")
        lines.append(f"  target (< 10 %, best of each and median pair): "
                     f"{'met' if f[f'dask_overhead_below_10pct_{n}'] else 'NOT met'}; "
                     f"same tables from both backends: {f['dask_same_tables']}")
    if f.get("scaling_skipped_games"):
        lines.append(f"skipped (does not import): {f['scaling_skipped_games']}")
    if f.get("scaling_plot"):
        lines.append(f"plot: {f['scaling_plot']}")
    lines.append(f"{f['scaling_cpu_count']} CPUs, load average {f['scaling_load_average_start']} at the start, "
                 f"{f['scaling_load_average_end']} at the end; {f['scaling_wall_s']:.0f} s in all")
    lines.append(f"command: {f['scaling_command']}")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--quick", action="store_true", help="tiny numbers: checks the script, measures nothing")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games (default: all)")
    parser.add_argument("--sections", default=",".join(SECTIONS), help="comma-separated sections (default: all)")
    parser.add_argument("--repeats", type=int, default=None, help="timed loky/Dask pairs (default 5, fewer past 300 s; quick 1)")
    parser.add_argument("--point-seconds", type=float, default=FULL.point_seconds,
                        help=f"wall time of a cost-curve point (default {FULL.point_seconds:g})")
    parser.add_argument("--plot", default=str(DEFAULT_PLOT), help="where the cost-curve plot goes")
    args = parser.parse_args(argv)
    split = lambda s: tuple(x.strip() for x in s.split(",") if x.strip())  # noqa: E731
    try:
        figures, rows = measure(quick=args.quick, games=split(args.games), sections=split(args.sections),
                                repeats=args.repeats, plot=args.plot, point_seconds=args.point_seconds)
    except ValueError as exc:
        parser.error(str(exc))
    print(json.dumps(figures, indent=2) if args.format == "json" else _table(figures, rows))


if __name__ == "__main__":
    main()
