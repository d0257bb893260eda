"""Scale-out: a real dask.distributed scheduler and two worker processes on loopback."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from sim.cli import main
from sim.core import load_tables

from . import toygame  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("distributed")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def cluster(tmp_path):
    """A scheduler and two single-threaded workers, each its own process."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    log = open(tmp_path / "cluster.log", "w")
    scheduler = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "distributed.cli.dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-dashboard",
        ],
        stdout=log,
        stderr=log,
        env=env,
        start_new_session=True,
    )
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "distributed.cli.dask_worker",
                address,
                "--nworkers",
                "1",
                "--nthreads",
                "1",
                "--no-dashboard",
                "--name",
                f"w{i}",
                "--preload",
                "tests.core.toygame",
            ],
            stdout=log,
            stderr=log,
            env=env,
            start_new_session=True,
        )
        for i in range(2)
    ]
    from dask.distributed import Client

    with Client(address, timeout="60s") as client:
        client.wait_for_workers(2, timeout=60)
    yield address, workers
    for proc in [*workers, scheduler]:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in [*workers, scheduler]:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
    log.close()


def run(tmp_path, name, *extra):
    out = tmp_path / name
    code = main(
        [
            "run",
            "toy-dice",
            "--matches",
            "120",
            "--players",
            "plain,lucky,plain",
            "--seed",
            "5",
            "--chunk-size",
            "6",
            "--out",
            str(out),
            "--no-progress",
            *extra,
        ]
    )
    assert code == 0
    return load_tables(out)


def test_dask_cluster_gives_the_same_tables_as_one_job(cluster, tmp_path, capsys):
    address, _ = cluster
    local = run(tmp_path, "local", "--jobs", "1")
    remote = run(tmp_path, "dask", "--backend", "dask", "--scheduler", address)
    for table in local:
        pd.testing.assert_frame_equal(local[table], remote[table])


def test_killing_a_worker_mid_run_loses_no_match(cluster, tmp_path, capsys):
    address, workers = cluster
    local = run(tmp_path, "local", "--jobs", "1")
    out = tmp_path / "killed"
    argv = [
        sys.executable,
        "-c",
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); import tests.core.toygame; "
        "from sim.cli import main; sys.exit(main(sys.argv[1:]))",
        "run",
        "toy-dice",
        "--matches",
        "120",
        "--players",
        "plain,lucky,plain",
        "--seed",
        "5",
        "--chunk-size",
        "6",
        "--set",
        "game.delay_s=0.05",
        "--out",
        str(out),
        "--backend",
        "dask",
        "--scheduler",
        address,
        "--no-progress",
    ]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and len(list((out / "matches").glob("*.parquet"))) < 3:
        time.sleep(0.05)
    os.killpg(workers[0].pid, signal.SIGKILL)  # a worker dies mid-run, with tasks in flight
    stdout, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 0, stderr
    killed = load_tables(out)
    # delay_s is a rule, so the manifests differ, but every table must match the local run
    for table in local:
        pd.testing.assert_frame_equal(local[table], killed[table])


def test_local_dask_cluster_without_scheduler(tmp_path, capsys):
    local = run(tmp_path, "local", "--jobs", "1")
    started = run(tmp_path, "localcluster", "--backend", "dask", "--jobs", "2")
    for table in local:
        pd.testing.assert_frame_equal(local[table], started[table])
    # the calling process (a notebook's kernel) keeps its Ctrl-C after the cluster is gone
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


def test_task_size_grows_with_time_and_shrinks_at_the_tail():
    from sim.core.cluster import TAIL_TASKS_PER_THREAD, TASK_SECONDS, task_size

    assert task_size(None, 1000, 2) == 1  # no time known yet: one chunk
    assert task_size(TASK_SECONDS / 10, 1000, 2) == 10  # about TASK_SECONDS of play
    assert task_size(TASK_SECONDS * 3, 1000, 2) == 1  # a chunk longer than a task: one
    # near the end: never fewer than TAIL_TASKS_PER_THREAD tasks per thread for what is left
    assert task_size(TASK_SECONDS / 10, 3 * TAIL_TASKS_PER_THREAD * 2, 2) == 3
    assert task_size(TASK_SECONDS / 10, 5, 2) == 1


def test_a_group_comes_back_from_the_worker_as_one_pickled_buffer(monkeypatch):
    """The worker holds bytes, not tables: dask neither sizes nor serialises DataFrames on the
    worker's event loop (the results and the seconds they took are inside)."""
    import pickle

    from sim.core import cluster
    from sim.core.cluster import _play_group

    monkeypatch.setattr(cluster, "_start_up_frozen", True)  # not this test process's objects

    table = pd.DataFrame({"match": [0, 1], "seat": ["a", "b"]})
    out = _play_group(lambda i, t: {"i": i, "table": t}, [(0, table), (1, table)])
    assert isinstance(out, bytes)
    results, seconds = pickle.loads(out)
    assert [r["i"] for r in results] == [0, 1] and seconds >= 0
    pd.testing.assert_frame_equal(results[1]["table"], table)


def _sleepy(index: int, seconds: float) -> int:
    time.sleep(seconds)
    return index


def test_chunks_are_grouped_in_fewer_dask_tasks_and_each_comes_back_once():
    from dask.distributed import get_task_stream

    from sim.core.cluster import dask_client, dask_results

    chunks = 160
    with dask_client(workers=2) as client:
        client.wait_for_workers(2, timeout=60)
        with get_task_stream(client) as stream:
            results = list(dask_results(_sleepy, ((i, 0.01) for i in range(chunks)), chunks))
        # each worker froze its start-up objects out of the collector after its first group
        import gc

        assert all(n > 1000 for n in client.run(gc.get_freeze_count).values())
    assert sorted(results) == list(range(chunks))
    groups = [t for t in stream.data if t["key"].startswith("_play_group")]
    # 10 ms chunks: ~100 per task by time, capped by the tail rule; far fewer tasks than chunks
    assert 4 <= len(groups) < chunks / 4, len(groups)


def test_two_clusters_one_after_the_other_in_a_fresh_process(tmp_path):
    """A process whose first import of distributed happens inside dask_client can start a second
    LocalCluster later (a dask.config.set block made before distributed registered its defaults
    used to drop them on exit: KeyError 'comm')."""
    script = tmp_path / "two.py"
    script.write_text(
        "from sim.core.cluster import dask_client\n"
        "if __name__ == '__main__':\n"
        "    for _ in range(2):\n"
        "        with dask_client(workers=1) as client:\n"
        "            client.wait_for_workers(1, timeout=60)\n"
        "    print('two clusters')\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert done.returncode == 0 and "two clusters" in done.stdout, done.stderr[-2000:]
