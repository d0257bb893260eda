"""The batch runner: chunks of matches on worker processes, tidy tables out.

A run is a list of :class:`Cell` (one variant × one line-up) and a number of matches per cell.
Match ``i`` of every cell is played with the seeds ``MatchSeeds(root_seed, seed_index(i))``, so
variants are paired by seed (common random numbers) and the tables never depend on the number
of workers, the chunk size or the backend: chunks only decide *where* a match is played.

Chunks are contiguous ranges of match indices, made lazily (a run of 10**12 matches costs no
memory before it plays): with a store, a cell's chunks fill the gaps between the ranges it
already holds (read from its part names, see :mod:`sim.core.store`), so a rerun resumes. The
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
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import Any

import pandas as pd
from joblib import Parallel, delayed

from .forecast import Forecast
from .game import TABLES, GameSpec, MatchLog, Player, get_game
from .interrupts import ctrl_c_as_interrupt
from .progress import progress_bar, say
from .seeding import MatchSeeds
from .store import KEY_COLUMNS, ResultStore, assemble, cell_key, gaps, load_tables, warn

__all__ = ["Cell", "seat_players", "play_one", "play_chunk", "run_cells", "plan_chunks",
           "DEFAULT_CHUNK_SIZE", "MAX_CHUNK_SIZE", "MAX_MATCHES", "BACKENDS", "cpu_count"]

#: Matches per task: large enough that worker start-up and pickling are a few % of the work.
DEFAULT_CHUNK_SIZE = 25
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


def cpu_count() -> int:
    """The cores this process may use (affinity and cgroup limits included)."""
    from joblib import cpu_count as joblib_cpu_count

    return max(1, int(joblib_cpu_count()))


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

    def chunks(self) -> Iterator[tuple[Cell, range]]:
        for cell in self.cells:
            for first, end in self._cell_gaps(cell):
                for begin in range(first, end, self.chunk_size):
                    yield cell, range(begin, min(begin + self.chunk_size, end))

    def counts(self) -> tuple[int, int]:
        """(chunks, matches) still to play."""
        chunks = matches = 0
        for cell in self.cells:
            for first, end in self._cell_gaps(cell):
                chunks += -(-(end - first) // self.chunk_size)
                matches += end - first
        return chunks, matches


def plan_chunks(cells: Sequence[Cell], start: int, matches: int, chunk_size: int,
                store: ResultStore | None = None) -> ChunkPlan:
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


def _loky_results(tasks: Iterator[tuple], jobs: int) -> Iterator[dict[str, pd.DataFrame]]:
    """Chunk results from a loky pool of ``jobs`` workers, two chunks per worker in flight.

    If the consumer stops early (Ctrl-C, an error), the workers are killed before it goes on.
    """
    from joblib.externals.loky import get_reusable_executor

    _start_resource_trackers()
    with _workers_ignore_sigint():
        executor = get_reusable_executor(max_workers=jobs, timeout=WORKER_IDLE_S,
                                         initializer=_worker_init, initargs=(os.getpid(),))
    pending: set[Future] = set()
    try:
        for task in tasks:
            with _workers_ignore_sigint():
                pending.add(executor.submit(play_chunk, *task))
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


def _drain(pending: set[Future]):
    done, rest = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
    for future in done:
        yield future.result()
    return rest


def run_cells(spec: GameSpec, cells: Sequence[Cell], matches: int, root_seed: int, *,
              jobs: int = 1, chunk_size: int = DEFAULT_CHUNK_SIZE, backend: str = "loky",
              store: ResultStore | None = None, progress: bool | None = None,
              parallel_kwargs: dict | None = None, start: int = 0,
              read_back: bool = True) -> dict[str, pd.DataFrame]:
    """Play matches ``start .. matches - 1`` of every cell and return the tidy tables.

    With a ``store``, each finished chunk is written at once and matches already stored are
    skipped (a rerun resumes); the store's lock is held meanwhile and the returned tables are
    read back from the store. A ``KeyboardInterrupt`` propagates after the finished chunks are
    stored and the workers are stopped; an error that a Ctrl-C's unwinding raised in its
    place (:mod:`sim.core.interrupts`) propagates as that ``KeyboardInterrupt``.

    Args:
        jobs: worker processes (1 = play in this process; -1 = every core); never more than
            the number of chunks to play.
        chunk_size: matches per task.
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
            warn(f"{jobs} worker processes on {cpu_count()} cores: no faster than {cpu_count()}, "
                 "and each worker costs memory (see --jobs)")
        collected: dict[str, list[pd.DataFrame]] = {t: [] for t in TABLES}
        bar = progress_bar(total, "match", spec.name, progress)
        tasks = ((spec.name, cell, ms, root_seed) for cell, ms in plan.chunks())
        forecast = Forecast(total, jobs, cpu_count(), store.path if store is not None else None)
        done = 0
        try:
            with contextlib.closing(_results(tasks, jobs, backend, parallel_kwargs, n_chunks)) as results:
                for tables in results:
                    if store is not None:
                        store.write_chunk(tables)
                    else:
                        for table, frame in tables.items():
                            collected[table].append(frame)
                    bar.update(len(tables["matches"]))
                    done += len(tables["matches"])
                    line = forecast.update(done)  # raises RunWontFit when the rest cannot fit the disk
                    if line is not None:
                        say(f"tablesim: {line}")
        finally:
            bar.close()
        if store is not None:
            return load_tables(store.path) if read_back else {}
    return assemble(collected)


def _results(tasks: Iterator[tuple], jobs: int, backend: str, parallel_kwargs: dict | None, chunks: int):
    if backend == "dask":
        # Straight on the active distributed Client, tasks sized by time (sim.core.cluster).
        from .cluster import dask_results

        return dask_results(play_chunk, tasks, chunks)
    if jobs == 1 or backend == "sequential":
        return (play_chunk(*task) for task in tasks)
    if backend == "loky" and not parallel_kwargs:
        return _loky_results(tasks, jobs)
    parallel = Parallel(n_jobs=jobs, backend=backend, return_as="generator_unordered",
                        **(parallel_kwargs or {}))
    return parallel(delayed(play_chunk)(*task) for task in tasks)
