"""Scale-out on dask.distributed through joblib's Dask backend.

``--backend dask --scheduler tcp://host:8786`` connects to a running cluster; ``--backend dask``
alone starts a LocalCluster of ``jobs`` single-threaded worker processes on this machine.
Chunks of matches become tasks; dask reruns the tasks of a worker that dies, and the runner
stores each chunk as it arrives, so a lost worker costs only its own unfinished chunks.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

__all__ = ["dask_client"]


@contextlib.contextmanager
def dask_client(scheduler: str | None = None, workers: int = 2) -> Iterator[object]:
    """A ``distributed.Client`` for the duration of a run.

    Args:
        scheduler: address of a running scheduler (``tcp://127.0.0.1:8786``); None starts a
            LocalCluster on this machine.
        workers: worker processes of the LocalCluster (-1: every core).
    """
    import dask
    from dask.distributed import Client, LocalCluster

    # Matches are CPU-bound Python: the workers' statistical profiler (a 10 ms sampling thread)
    # and the 20 ms admin tick only take CPU from them. Applies to the LocalCluster's workers;
    # a remote cluster keeps its own configuration.
    with dask.config.set({"distributed.worker.profile.enabled": False,
                          "distributed.admin.tick.interval": "500ms"}):
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
    with LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        yield client
