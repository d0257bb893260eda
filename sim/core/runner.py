"""The batch runner: chunks of matches on worker processes, tidy tables out.

A run is a list of :class:`Cell` (one variant × one line-up) and a number of matches per cell.
Match ``i`` of every cell is played with the seeds ``MatchSeeds(root_seed, seed_index(i))``, so
variants are paired by seed (common random numbers) and the tables never depend on the number
of workers, the chunk size or the backend: chunks only decide *where* a match is played.

Chunks are contiguous ranges of match indices, made lazily (a run of 10**12 matches costs no
memory before it plays): with a store, a cell's chunks fill the gaps between the ranges it
already holds (read from its part names, see :mod:`sim.core.store`), so a rerun resumes.

With a store, the worker that plays a chunk writes its parts into the results directory itself
(atomically, the ``matches`` part last) and sends back only a :class:`StoredChunk` (the cell,
the match range, row counts, bytes and the CPU it took): the parent process never holds a
chunk's rows, so it stays out of the data path whatever the number of workers. A worker that
cannot see the directory (a Dask worker on another machine without shared storage) sends the
tables back instead and the parent writes them. The
``loky`` backend runs a pool of at most one worker per chunk, keeps two chunks per worker in
flight, and on Ctrl-C (or any error) kills its workers before the interrupt propagates;
workers ignore SIGINT themselves and exit when the parent process dies.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Future, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
from joblib import Parallel, delayed

from .forecast import Forecast
from .game import TABLES, GameSpec, MatchLog, Player, get_game
from .interrupts import ctrl_c_as_interrupt
from .progress import progress_bar, say
from .seeding import MatchSeeds
from .store import KEY_COLUMNS, ResultStore, assemble, cell_key, gaps, load_tables, warn

__all__ = [
    "Cell",
    "StoredChunk",
    "WorkerLost",
    "seat_players",
    "play_one",
    "play_chunk",
    "play_and_store_chunk",
    "run_cells",
    "plan_chunks",
    "ChunkSizer",
    "DEFAULT_CHUNK_SIZE",
    "AUTO",
    "CHUNK_SECONDS",
    "MAX_CHUNK_SIZE",
    "MAX_MATCHES",
    "BACKENDS",
    "cpu_count",
]

#: Matches per task: large enough that worker start-up and pickling are a few % of the work.
DEFAULT_CHUNK_SIZE = 25
#: ``chunk_size=AUTO``: chunks sized by time (:class:`ChunkSizer`), about CHUNK_SECONDS of play each.
AUTO = 0
#: Seconds of play a chunk sized by time aims at: a chunk's own cost (a task's round trip, the
#: four Parquet parts a worker writes) is then about 1 % of it, and a results directory holds
#: one part per table and second of play before it is compacted.
CHUNK_SECONDS = 1.0

#: A chunk's rows are held in memory until it is stored: this bounds a worker's memory.
MAX_CHUNK_SIZE = 100_000
#: Match indices (and seed indices) are stored as 64-bit integers; this leaves ample room.
MAX_MATCHES = 10**15
BACKENDS = ("loky", "threading", "sequential")
#: Seconds an idle loky worker waits for more work before it exits (reused by the next call).
WORKER_IDLE_S = 60


@dataclass(frozen=True)
class Cell:
    """One variant × line-up of a run.

    Attributes:
        variant: the variant's name (``baseline`` for the reference rules).
        lineup: the line-up's name.
        rules: the validated rules object.
        players: one :class:`Player` per seat, in seat order.
        rotate_seats: play each seed under every rotation of the line-up: match ``i`` uses
            seed ``i // n`` and seats the line-up rotated by ``i % n`` (n = number of seats).
        seed_offset: added to every seed index (0 = the shared seeds of common random
            numbers; sensitivity analysis gives its dummy parameter fresh seeds this way).
    """

    variant: str
    lineup: str
    rules: Any
    players: tuple[Player, ...]
    rotate_seats: bool = False
    seed_offset: int = 0

    @property
    def rotations(self) -> int:
        return len(self.players) if self.rotate_seats else 1

    def seed_and_rotation(self, match: int) -> tuple[int, int]:
        seed, rotation = divmod(match, self.rotations)
        return seed + self.seed_offset, rotation


def seat_players(players: Sequence[Player], rotation: int) -> tuple[tuple[Player, ...], list[int]]:
    """The line-up rotated by ``rotation``: seat ``s`` gets line-up slot ``(s + rotation) % n``."""
    n = len(players)
    slots = [(seat + rotation) % n for seat in range(n)]
    return tuple(players[slot] for slot in slots), slots


def play_one(spec: GameSpec, cell: Cell, match: int, root_seed: int) -> MatchLog:
    """Play match ``match`` of ``cell`` and return its log with the key columns added."""
    seed_index, rotation = cell.seed_and_rotation(match)
    seated, slots = seat_players(cell.players, rotation)
    log = spec.play_match(cell.rules, seated, MatchSeeds(root_seed, seed_index, tuple(slots)))
    keys = {"variant": cell.variant, "lineup": cell.lineup, "match": match}
    log.matches = {**keys, "seed": seed_index, "rotation": rotation, **log.matches}
    for row in log.players:
        row.update(keys)
        row["seed"] = seed_index
        row["slot"] = slots[row["seat"]]
    for rows in (log.rounds, log.events):
        for row in rows:
            row.update(keys)
    return log


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    if not rows:
        return pd.DataFrame()
    frame = pd.DataFrame.from_records(rows)
    first = [c for c in KEY_COLUMNS if c in frame.columns]
    return frame[first + [c for c in frame.columns if c not in first]]


def play_chunk(game: str, cell: Cell, matches: Sequence[int], root_seed: int) -> dict[str, pd.DataFrame]:
    """Play a list of matches of one cell (a worker's task) and return its tables."""
    spec = get_game(game)
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in TABLES}
    for match in matches:
        for table, table_rows in play_one(spec, cell, match, root_seed).tables().items():
            rows[table].extend(table_rows)
    return {table: _frame(table_rows) for table, table_rows in rows.items()}


class WorkerLost(RuntimeError):
    """A worker process died while it played (killed by a signal, or by the system for its
    memory); the message is one line for the user."""


@dataclass(frozen=True)
class StoredChunk:
    """A chunk a worker played and wrote into the results directory itself.

    Attributes:
        variant, lineup: the chunk's cell.
        first, last: its match indices (inclusive).
        rows: rows written per table.
        bytes: bytes of its parts on disk.
        cpu_s: CPU seconds the worker spent playing and writing it.
        wall_s: wall-clock seconds it took the worker.
    """

    variant: str
    lineup: str
    first: int
    last: int
    rows: dict[str, int]
    bytes: int
    cpu_s: float
    wall_s: float

    @property
    def matches(self) -> int:
        return self.last - self.first + 1


def play_and_store_chunk(
    game: str, cell: Cell, matches: Sequence[int], root_seed: int, directory: str, writer: str
) -> StoredChunk | dict[str, pd.DataFrame]:
    """A worker's task with a results directory: play the chunk and write its parts there.

    ``writer`` names the run that holds the directory's lock (:meth:`ResultStore.writer`); a
    worker that does not find that run's lock there (it does not share the directory) returns
    the tables for the parent to write.
    """
    started, wall = time.process_time(), time.perf_counter()
    tables = play_chunk(game, cell, matches, root_seed)
    store = ResultStore(directory)
    if store.writer() != writer:
        return tables
    written = store.write_chunk(tables)
    return StoredChunk(
        variant=cell.variant,
        lineup=cell.lineup,
        first=min(matches),
        last=max(matches),
        rows={table: len(frame) for table, frame in tables.items()},
        bytes=written,
        cpu_s=time.process_time() - started,
        wall_s=time.perf_counter() - wall,
    )


def cpu_count() -> int:
    """The cores this process may use (affinity and cgroup limits included)."""
    from joblib import cpu_count as joblib_cpu_count

    return max(1, int(joblib_cpu_count()))


class ChunkSizer:
    """Matches per chunk: a fixed size, or (:data:`AUTO`) sized by time.

    Sized by time, the first chunks hold :data:`DEFAULT_CHUNK_SIZE` matches; once chunks have
    come back with the seconds their worker spent on them, each new chunk holds about
    :data:`CHUNK_SECONDS` of play (at most :data:`MAX_CHUNK_SIZE`), and never more than a
    worker's share of the matches still to hand out, so the workers finish within about a
    chunk's time of each other. Sizes change where chunks start and end, never which seeds a
    match plays: the tables are the same.
    """

    def __init__(self, chunk_size: int, workers: int = 1):
        self.fixed = chunk_size if chunk_size != AUTO else None
        self.workers = max(1, workers)
        self.matches = 0
        self.seconds = 0.0

    def record(self, matches: int, seconds: float) -> None:
        """A chunk of ``matches`` came back after ``seconds`` of its worker's time."""
        self.matches += matches
        self.seconds += seconds

    def size(self, left: int) -> int:
        """Matches in the next chunk, with ``left`` matches still to hand out (this one included)."""
        if self.fixed is not None:
            return self.fixed
        if not self.matches or self.seconds <= 0:
            return DEFAULT_CHUNK_SIZE
        by_time = round(CHUNK_SECONDS * self.matches / self.seconds)
        return max(1, min(by_time, left // self.workers, MAX_CHUNK_SIZE))


@dataclass(frozen=True)
class ChunkPlan:
    """The chunks still to play: made lazily by :meth:`chunks`; counted without making them."""

    cells: tuple[Cell, ...]
    start: int
    stop: int
    chunk_size: int
    stored: dict[str, list[tuple[int, int]]]

    def _cell_gaps(self, cell: Cell) -> Iterator[tuple[int, int]]:
        return gaps(self.stored.get(cell_key(cell.variant, cell.lineup), ()), self.start, self.stop)

    def chunks(self, sizer: ChunkSizer | None = None) -> Iterator[tuple[Cell, range]]:
        """Every chunk still to play, each sized by ``sizer`` as it is made (default: the plan's size)."""
        sizer = sizer or ChunkSizer(self.chunk_size)
        left = self.counts()[1]
        for cell in self.cells:
            for first, end in self._cell_gaps(cell):
                begin = first
                while begin < end:
                    stop = min(begin + sizer.size(left), end)
                    left -= stop - begin
                    yield cell, range(begin, stop)
                    begin = stop

    def counts(self) -> tuple[int, int]:
        """(chunks, matches) still to play; chunks sized by time count as chunks of the first size."""
        size = self.chunk_size or DEFAULT_CHUNK_SIZE
        chunks = matches = 0
        for cell in self.cells:
            for first, end in self._cell_gaps(cell):
                chunks += -(-(end - first) // size)
                matches += end - first
        return chunks, matches


def plan_chunks(
    cells: Sequence[Cell], start: int, matches: int, chunk_size: int, store: ResultStore | None = None
) -> ChunkPlan:
    """The chunks of matches ``start .. matches - 1`` of every cell not yet in ``store``."""
    stored = store.stored_ranges() if store is not None else {}
    return ChunkPlan(tuple(cells), start, matches, chunk_size, stored)


def _worker_init(parent: int) -> None:
    """A loky worker: Ctrl-C is the parent's business; exit when the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="tablesim-parent-watch", daemon=True).start()


@contextlib.contextmanager
def _workers_ignore_sigint() -> Iterator[None]:
    """Workers spawned inside start with SIGINT blocked (a thread's signal mask is inherited
    through fork and exec, and `_worker_init` then ignores it); a Ctrl-C meanwhile is held and
    raised as the block ends, never inside loky's bookkeeping.

    SIGINT is only blocked in this (the main) thread, so a Ctrl-C sent to the process group
    meanwhile may be delivered to another thread of the process (loky's manager, tqdm's
    monitor): the handler stays installed — it records the signal — because an ignored signal
    would be discarded there, and the run would go on playing (as it did under load when the
    signal was ignored, SIG_IGN, for the window). The caller starts the resource trackers
    first (:func:`_start_resource_trackers`), or the first one's start undoes the block.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, previous)  # runs the recorder first for a signal caught meanwhile
        if held:
            signal.raise_signal(signal.SIGINT)  # the user's Ctrl-C, now with the usual handler


def _start_resource_trackers() -> None:
    """Start the resource trackers of multiprocessing and loky if they are not running: the
    first start (inside a pool's first submit) unblocks SIGINT in the calling thread
    (Python 3.11's ``multiprocessing.resource_tracker.ensure_running`` ends with
    SIG_UNBLOCK), which would undo :func:`_workers_ignore_sigint`'s block for the workers
    spawned after it. Once running, ``ensure_running`` returns before touching the mask, but
    still probes the tracker through its pipe: called once per run, not per chunk."""
    from multiprocessing import resource_tracker as mp_tracker

    from joblib.externals.loky.backend import resource_tracker as loky_tracker

    mp_tracker.ensure_running()
    loky_tracker.ensure_running()


def _loky_results(play, tasks: Iterator[tuple], jobs: int) -> Iterator[Any]:
    """``play(*task)`` on a loky pool of ``jobs`` workers, two chunks per worker in flight.

    If the consumer stops early (Ctrl-C, an error), the workers are killed before it goes on.
    """
    from joblib.externals.loky import get_reusable_executor

    _start_resource_trackers()
    with _workers_ignore_sigint():
        executor = get_reusable_executor(
            max_workers=jobs, timeout=WORKER_IDLE_S, initializer=_worker_init, initargs=(os.getpid(),)
        )
    pending: set[Future] = set()
    try:
        for task in tasks:
            with _workers_ignore_sigint():
                pending.add(executor.submit(play, *task))
            while len(pending) >= 2 * jobs:
                pending = yield from _drain(pending)
        while pending:
            pending = yield from _drain(pending)
    except BaseException:
        # No future.cancel() first: loky's manager thread may then set the result of a cancelled
        # future, die on InvalidStateError and leave shutdown waiting (seen under load on Ctrl-C);
        # killing the workers drops every pending chunk anyway.
        with _pool_threads_quiet():
            executor.shutdown(wait=True, kill_workers=True)
        raise


#: loky's own threads in this process; while a pool is killed they may trip over its torn-down
#: bookkeeping (a KeyError in ``add_call_item_to_queue``, seen under load on Ctrl-C).
_POOL_THREADS = ("ExecutorManagerThread", "QueueFeederThread")


@contextlib.contextmanager
def _pool_threads_quiet() -> Iterator[None]:
    """While a pool is being killed, an exception in one of loky's threads is dropped instead
    of printed: the run is stopping and its chunks are already accounted for (no traceback
    reaches the user); any other thread's exception goes to the usual hook."""
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if args.thread is None or not args.thread.name.startswith(_POOL_THREADS):
            previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous


def merge_in_workers(jobs: int) -> Callable[[list[tuple[list[Path], Path]]], None]:
    """A compaction's ``merge`` (:meth:`ResultStore.compact`) on ``jobs`` loky workers (the run's
    pool, kept warm): the parent only hands out the merges, as it hands out chunks, a single
    merge too. One job: here, one after the other."""
    from .store import merge_parts

    def merge(work: list[tuple[list[Path], Path]]) -> None:
        if jobs <= 1 or not work:
            merge_parts(work)
            return
        for _ in _loky_results(merge_parts, (([job],) for job in work), min(jobs, len(work))):
            pass

    return merge


def _drain(pending: set[Future]):
    done, rest = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
    for future in done:
        yield future.result()
    return rest


def run_cells(
    spec: GameSpec,
    cells: Sequence[Cell],
    matches: int,
    root_seed: int,
    *,
    jobs: int = 1,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    backend: str = "loky",
    store: ResultStore | None = None,
    progress: bool | None = None,
    parallel_kwargs: dict | None = None,
    start: int = 0,
    read_back: bool = True,
) -> dict[str, pd.DataFrame]:
    """Play matches ``start .. matches - 1`` of every cell and return the tidy tables.

    With a ``store``, each finished chunk is written at once and matches already stored are
    skipped (a rerun resumes); the store's lock is held meanwhile and the returned tables are
    read back from the store. A ``KeyboardInterrupt`` propagates after the finished chunks are
    stored and the workers are stopped; an error that a Ctrl-C's unwinding raised in its
    place (:mod:`sim.core.interrupts`) propagates as that ``KeyboardInterrupt``.

    Args:
        jobs: worker processes (1 = play in this process; -1 = every core); never more than
            the number of chunks to play.
        chunk_size: matches per task; :data:`AUTO` (0): about :data:`CHUNK_SECONDS` of play per
            task, measured as the run goes (with a store; without one, chunks stay at
            :data:`DEFAULT_CHUNK_SIZE`).
        backend: ``loky`` (default), ``threading``, ``sequential``, or ``dask`` (on the active
            ``distributed`` Client, see :func:`sim.core.cluster.dask_results`).
        parallel_kwargs: extra arguments of joblib's ``Parallel`` (not for ``dask``).
        progress: show a progress bar on stderr (default: a bar on a terminal, a line every 30 s
            elsewhere; False: nothing).
        read_back: with a ``store``, return its tables (False: return nothing, for a caller
            that reads the new chunks itself).
    """
    with ctrl_c_as_interrupt(), store.lock() if store is not None else contextlib.nullcontext():
        plan = plan_chunks(cells, start, matches, chunk_size, store)
        n_chunks, total = plan.counts()
        jobs = max(1, min(cpu_count() if jobs == -1 else jobs, n_chunks))
        if jobs > cpu_count() and backend == "loky":
            warn(
                f"{jobs} worker processes on {cpu_count()} cores: no faster than {cpu_count()}, "
                "and each worker costs memory (see --jobs)"
            )
        collected: dict[str, list[pd.DataFrame]] = {t: [] for t in TABLES}
        bar = progress_bar(total, "match", spec.name, progress)
        if store is not None:
            play, extra = play_and_store_chunk, (str(store.path), store.writer())
        else:
            play, extra = play_chunk, ()
        sizer = ChunkSizer(chunk_size, jobs)
        tasks = ((spec.name, cell, ms, root_seed, *extra) for cell, ms in plan.chunks(sizer))
        forecast = Forecast(total, jobs, cpu_count(), store.path if store is not None else None)
        done = 0
        try:
            with contextlib.closing(_results(play, tasks, jobs, backend, parallel_kwargs, n_chunks)) as results:
                for result in results:
                    if isinstance(result, StoredChunk):
                        count = result.matches
                        sizer.record(count, result.wall_s)
                    elif store is not None:  # a worker that does not share the directory
                        store.write_chunk(result)
                        count = len(result["matches"])
                    else:
                        for table, frame in result.items():
                            collected[table].append(frame)
                        count = len(result["matches"])
                    bar.update(count)
                    done += count
                    line = forecast.update(done)  # raises RunWontFit when the rest cannot fit the disk
                    if line is not None:
                        say(f"tablesim: {line}")
        except BrokenExecutor as exc:  # loky: TerminatedWorkerError; joblib's Parallel alike
            if store is not None:
                kept = (
                    f"the {store.stored_count():,} matches finished are kept in {store.path}; rerun the same "
                    "command to resume"
                )
            else:
                kept = "nothing was stored (use --out DIR to keep finished chunks)"
            raise WorkerLost(
                f"a worker process died while playing (killed by a signal, or by the system for "
                f"lack of memory: try fewer --jobs); {kept}"
            ) from exc
        finally:
            bar.close()
        if store is not None:
            return load_tables(store.path) if read_back else {}
    return assemble(collected)


def _results(play, tasks: Iterator[tuple], jobs: int, backend: str, parallel_kwargs: dict | None, chunks: int):
    """``play(*task)`` for every task on the chosen backend, in completion order."""
    if backend == "dask":
        # Straight on the active distributed Client, tasks sized by time (sim.core.cluster).
        from .cluster import dask_results

        return dask_results(play, tasks, chunks)
    if jobs == 1 or backend == "sequential":
        return (play(*task) for task in tasks)
    if backend == "loky" and not parallel_kwargs:
        return _loky_results(play, tasks, jobs)
    parallel = Parallel(n_jobs=jobs, backend=backend, return_as="generator_unordered", **(parallel_kwargs or {}))
    return parallel(delayed(play)(*task) for task in tasks)
