"""Scale-out on dask.distributed: a client, and chunks of matches played as Dask tasks.

``--backend dask --scheduler tcp://host:8786`` connects to a running cluster; ``--backend dask``
alone starts a LocalCluster of ``jobs`` single-threaded worker processes on this machine.
Chunks of matches are grouped into Dask tasks sized by time (:func:`dask_results`); dask reruns
the tasks of a worker that dies, and the runner stores each chunk as it arrives, so a lost
worker costs only its own unfinished chunks.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import os
import pickle
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["dask_client", "dask_results", "task_size", "TASK_SECONDS"]


@contextlib.contextmanager
def dask_client(scheduler: str | None = None, workers: int = 2) -> Iterator[object]:
    """A ``distributed.Client`` for the duration of a run.

    Args:
        scheduler: address of a running scheduler (``tcp://127.0.0.1:8786``); None starts a
            LocalCluster on this machine.
        workers: worker processes of the LocalCluster (-1: every core).
    """
    import dask
    import distributed  # noqa: F401  (registers its defaults first: a config.set block made before
    # distributed is imported would drop them on exit, and a second LocalCluster would fail)

    # Matches are CPU-bound Python: the workers' statistical profiler (a 10 ms sampling thread)
    # and the 20 ms admin tick only take CPU from them, and so do the nannies' memory checks
    # (every 100 ms) and the system monitor (every 500 ms) in this process, which shares the
    # cores with the workers (0.70–0.76 → 0.61–0.64 CPU s of this process per 2,000-match
    # scaling run). Applies to the LocalCluster; a remote cluster keeps its own configuration.
    with dask.config.set(
        {
            "distributed.worker.profile.enabled": False,
            "distributed.admin.tick.interval": "500ms",
            "distributed.worker.memory.monitor-interval": "1s",
            "distributed.admin.system-monitor.interval": "5s",
        }
    ):
        with _client(scheduler, workers) as client:
            yield client


@contextlib.contextmanager
def _client(scheduler: str | None, workers: int) -> Iterator[object]:
    from dask.distributed import Client, LocalCluster

    if scheduler:
        with Client(scheduler, timeout="30s") as client:
            yield client
        return
    n_workers = (os.cpu_count() or 1) if workers == -1 else workers
    with (
        LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        yield client


#: Seconds of play one Dask task aims at: a task's round trip through the scheduler (a few ms to
#: ~12 ms on the 2-core scaling run of ``benchmarks/bench_scaling.py``) is then about 1 % of it.
TASK_SECONDS = 1.0
#: The chunks still to play are never put in fewer than this many tasks per worker thread, so
#: tasks shrink towards the end of a run and the workers finish together (guided self-scheduling).
TAIL_TASKS_PER_THREAD = 4

_start_up_frozen = False  # has this worker process frozen its start-up objects (gc.freeze)?


def _play_group(play: Callable[..., Any], group: list[tuple]) -> bytes:
    """A worker's task: ``play(*task)`` for each task of the group, and the seconds they took,
    pickled together.

    Returned as bytes so that the worker's event loop (the process's main thread, sharing the
    core and the GIL with the task's thread) holds one opaque buffer: left as tables, dask
    measures every DataFrame's memory (``sizeof``) and serialises it there. Measured on the
    2-core scaling run (2,000 Curlastique matches): the two workers' threads other than the
    task's spent 0.77–0.86 CPU s per run with tables, 0.30–0.36 s with bytes; the pickling
    itself moves to the task's thread, where loky's workers pay it too.
    """
    global _start_up_frozen
    started = time.perf_counter()
    results = [play(*task) for task in group]
    payload = pickle.dumps((results, time.perf_counter() - started), protocol=pickle.HIGHEST_PROTOCOL)
    if not _start_up_frozen:
        # Once per worker process, after its first group imported the game (and with that
        # group's tables released and its garbage collected, so none of it is kept): the
        # ~190,000 objects of dask, distributed and the game's modules leave the collector's
        # full passes, which took ~0.12 s each in a scaling run's worker, about once per
        # 1,000-2,000 matches (the event loop's leftovers set them off; loky's workers, with
        # fewer objects and no event loop, showed none in the same runs).
        del results
        gc.collect()
        gc.freeze()
        _start_up_frozen = True
    return payload


def task_size(seconds_per_chunk: float | None, chunks_left: int, threads: int) -> int:
    """Chunks in the next task: about :data:`TASK_SECONDS` of play once a chunk's time is known
    (one chunk before), at most the remaining chunks over ``TAIL_TASKS_PER_THREAD × threads``."""
    if not seconds_per_chunk:
        return 1
    by_time = max(1, round(TASK_SECONDS / seconds_per_chunk))
    return max(1, min(by_time, chunks_left // (TAIL_TASKS_PER_THREAD * max(threads, 1))))


def dask_results(play: Callable[..., Any], tasks: Iterable[tuple], chunks: int) -> Iterator[Any]:
    """``play(*task)`` for every task, on the active ``distributed`` Client, in completion order.

    Tasks (chunks of matches) are grouped into Dask tasks sized by time (:func:`task_size`):
    the first tasks hold one chunk each, later ones about :data:`TASK_SECONDS` of play, the
    last ones shrink again. Each chunk's result is still yielded on its own, as its group
    arrives; two groups per worker thread are in flight. Dask reruns the group of a worker
    that dies. When the consumer stops (Ctrl-C, an error), the groups in flight are cancelled.

    Args:
        play: a module-level function (workers import it by name).
        tasks: argument tuples, consumed lazily.
        chunks: how many tasks there are (sizes the tail).
    """
    from distributed import as_completed, get_client

    client = get_client()
    threads = max(1, sum(client.nthreads().values()))
    tasks = iter(tasks)
    left, played, seconds = chunks, 0, 0.0
    running = as_completed()
    in_flight: set[Any] = set()

    def submit() -> bool:
        nonlocal left
        per_chunk = seconds / played if played else None
        group = list(itertools.islice(tasks, task_size(per_chunk, left, threads)))
        if not group:
            return False
        left -= len(group)
        future = client.submit(_play_group, play, group, pure=False)
        in_flight.add(future)
        running.add(future)
        return True

    try:
        for _ in range(2 * threads):
            if not submit():
                break
        for future in running:
            in_flight.discard(future)
            results, spent = pickle.loads(future.result())
            played, seconds = played + len(results), seconds + spent
            submit()
            yield from results
    finally:
        if in_flight:
            client.cancel(list(in_flight))
