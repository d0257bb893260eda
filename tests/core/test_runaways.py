"""No runaway memory or workers; Ctrl-C stops a run within seconds.

Memory is measured over the whole process tree with psutil: PSS (proportional set size: each
shared page counted once, shared by the processes mapping it) is the tree's real footprint;
the sum of RSS counts the shared libraries of every worker again and is shown beside it.
"""

import itertools
import json
import os
import signal
import time
import tracemalloc

import psutil
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.cli import main
from sim.core import ResultStore
from sim.core.runner import plan_chunks
from sim.core.store import gaps as _gaps

from . import toygame  # noqa: F401  (registers toy-dice)
from .reliability import error_lines, parts, pid_alive, popen, run_cli, wait_for
from .test_runner_store import GAME, cell


def tree(pid: int) -> list[psutil.Process]:
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def tree_memory(processes) -> tuple[int, int]:
    """(PSS, RSS) summed over the processes, in bytes."""
    pss = rss = 0
    for process in processes:
        try:
            info = process.memory_full_info()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        pss += getattr(info, "pss", info.rss)
        rss += info.rss
    return pss, rss


# memory --------------------------------------------------------------------------------------


def test_a_trillion_matches_are_planned_without_memory():
    cells = [cell(), cell("other")]
    tracemalloc.start()
    plan = plan_chunks(cells, 0, 10**12, 25)
    assert plan.counts() == (2 * 4 * 10**10, 2 * 10**12)
    first = list(itertools.islice(plan.chunks(), 3))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert [list(ms)[:2] for _, ms in first] == [[0, 1], [25, 26], [50, 51]]
    assert peak < 1_000_000


def test_resuming_a_huge_run_reads_part_names_not_keys(tmp_path):
    from sim.core import run_cells

    from .toygame import GAME

    store = ResultStore(tmp_path / "out")
    run_cells(GAME, [cell()], 30, root_seed=2, chunk_size=10, store=store, progress=False)
    with store.lock():
        store.stored_ranges()  # imports pyarrow.parquet once, outside the measure
        tracemalloc.start()
        plan = plan_chunks([cell()], 0, 10**12, 10, store)
        chunks, matches = plan.counts()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert matches == 10**12 - 30 and next(plan.chunks())[1] == range(30, 40)
    assert peak < 2_000_000


@settings(max_examples=200, deadline=None)
@given(
    ranges=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 15)), max_size=6),
    start=st.integers(0, 30),
    stop=st.integers(0, 80),
    size=st.integers(1, 9),
)
def test_chunks_cover_exactly_the_matches_not_stored(ranges, start, stop, size):
    stored = [(first, first + length) for first, length in ranges]
    covered = {m for first, last in stored for m in range(first, last + 1)}
    gaps = list(_gaps(stored, start, stop))
    wanted = [m for m in range(start, stop) if m not in covered]
    assert [m for a, b in gaps for m in range(a, b)] == wanted
    from sim.core.runner import ChunkPlan
    from sim.core.store import cell_key

    c = cell()
    plan = ChunkPlan((c,), start, stop, size, {cell_key(c.variant, c.lineup): stored})
    chunks = [ms for _, ms in plan.chunks()]
    assert [m for ms in chunks for m in ms] == wanted
    assert all(0 < len(ms) <= size and ms.step == 1 for ms in chunks)
    assert plan.counts() == (len(chunks), len(wanted))


@pytest.mark.slow
def test_a_billion_matches_on_2_jobs_stay_small_and_stop_within_5_s_of_ctrl_c(tmp_path):
    """Peak memory < 500 MB from the start to 4 s after the workers are up (the plan is lazy, so
    memory is flat from the first chunk on); SIGINT → stopped within 5 s. Without --out: a
    billion matches would not fit this disk, and a run stores-to-be stops on that after its
    first chunks (tests/core/test_forecast.py)."""
    proc = popen(
        tmp_path,
        "run",
        "toy-dice",
        "--matches",
        10**9,
        "--players",
        "plain,lucky",
        "--jobs",
        2,
        "--chunk-size",
        500,
        "--no-progress",
    )
    started, playing, peak_pss, peak_rss, workers = time.time(), None, 0, 0, set()
    while proc.poll() is None and time.time() - started < 60 and (playing is None or time.time() - playing < 4):
        processes = tree(proc.pid)
        if playing is None and len(processes) >= 3:
            playing = time.time()  # two workers up (their start is most of the time under load)
        workers |= {p.pid for p in processes[1:]}
        pss, rss = tree_memory(processes)
        peak_pss, peak_rss = max(peak_pss, pss), max(peak_rss, rss)
        time.sleep(0.25)
    assert proc.poll() is None, proc.communicate()[1]
    print(
        f"peak over {time.time() - started:.0f} s: PSS {peak_pss / 2**20:.0f} MB, "
        f"RSS sum {peak_rss / 2**20:.0f} MB, {len(workers)} child processes"
    )
    assert peak_pss < 500 * 2**20
    assert playing is not None  # it was playing, not planning
    interrupted = time.time()
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    _, err = proc.communicate(timeout=30)
    stopped = time.time() - interrupted
    assert proc.returncode == 130, err
    assert stopped < 5, stopped
    assert "interrupted; nothing stored" in err
    assert "Traceback" not in err
    assert wait_for(lambda: not any(pid_alive(pid) for pid in workers), timeout=5)


# workers and Ctrl-C --------------------------------------------------------------------------


def test_jobs_1000_on_10_matches_starts_no_pool(capsys, tmp_path):
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    code, out, err = run_cli(
        capsys,
        "run",
        "toy-dice",
        "--matches",
        10,
        "--players",
        "plain,lucky",
        "--jobs",
        1000,
        "--out",
        tmp_path / "o",
        "--no-progress",
    )
    assert code == 0 and "10 matches" in out, err
    assert {p.pid for p in psutil.Process().children(recursive=True)} <= before
    assert "warning" not in err  # one chunk: one worker, which is this process


def test_more_jobs_than_cores_is_warned(capsys, tmp_path, monkeypatch):
    import sim.core.runner as runner

    monkeypatch.setattr(runner, "cpu_count", lambda: 1)
    code, out, err = run_cli(
        capsys,
        "run",
        "toy-dice",
        "--matches",
        20,
        "--players",
        "plain,lucky",
        "--jobs",
        2,
        "--chunk-size",
        5,
        "--no-progress",
    )
    assert code == 0, err
    assert error_lines(err) == [
        "tablesim: warning: 2 worker processes on 1 cores: no faster than 1, and each worker costs memory (see --jobs)"
    ]


@pytest.mark.slow
def test_ctrl_c_at_many_jobs_stops_within_seconds_and_leaves_no_worker(tmp_path):
    out = tmp_path / "out"
    proc = popen(
        tmp_path,
        "run",
        "toy-dice",
        "--matches",
        10**6,
        "--players",
        "plain,lucky",
        "--jobs",
        6,
        "--set",
        "game.delay_s=0.001",
        "--out",
        out,
        "--no-progress",
    )
    assert wait_for(lambda: (out / "manifest.json").exists(), timeout=60)
    assert wait_for(lambda: len(tree(proc.pid)) >= 7, timeout=60)  # six workers (and loky's tracker)
    time.sleep(1.0)
    workers = {p.pid for p in tree(proc.pid)[1:]}
    interrupted = time.time()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert time.time() - interrupted < 5
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    lines = error_lines(err)
    assert lines[-1].startswith("tablesim run: interrupted; ") and lines[-1].endswith(
        "rerun the same command to resume"
    )
    assert wait_for(lambda: not any(pid_alive(pid) for pid in workers), timeout=5)


@pytest.mark.slow
def test_workers_exit_when_their_parent_is_killed(tmp_path):
    out = tmp_path / "out"
    proc = popen(
        tmp_path,
        "run",
        "toy-dice",
        "--matches",
        10**6,
        "--players",
        "plain,lucky",
        "--jobs",
        3,
        "--set",
        "game.delay_s=0.001",
        "--out",
        out,
        "--no-progress",
    )
    assert wait_for(lambda: len(parts(out)) >= 2, timeout=60)
    workers = {p.pid for p in tree(proc.pid)[1:]}
    assert len(workers) >= 3
    proc.send_signal(signal.SIGKILL)  # the parent only: its workers are orphaned
    proc.wait(timeout=30)
    assert wait_for(lambda: not any(pid_alive(pid) for pid in workers), timeout=10)


def test_a_ctrl_c_while_workers_are_being_started_is_raised_not_lost():
    """While the pool starts workers, SIGINT is blocked in the main thread only: a Ctrl-C sent
    to the process then reaches another thread. It must still come back as KeyboardInterrupt
    once the window ends (with SIG_IGN over the window instead, it would be discarded and a run
    under load would go on playing after Ctrl-C); a process started inside the window
    starts with SIGINT blocked, so a Ctrl-C cannot kill a worker before it ignores it."""
    import subprocess
    import sys
    import threading

    from sim.core.runner import _workers_ignore_sigint

    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)  # a thread that may receive it
    other.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            with _workers_ignore_sigint():
                child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
                os.kill(os.getpid(), signal.SIGINT)  # process-directed, as from the terminal
                time.sleep(0.2)  # delivered meanwhile, to the other thread
                blocked = int(
                    next(line.split()[1] for line in open(f"/proc/{child.pid}/status") if line.startswith("SigBlk:")),
                    16,
                )
    finally:
        stop.set()
        child.kill()
        child.wait()
    assert blocked & (1 << (signal.SIGINT - 1)), "the child started with SIGINT unblocked"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_loky_threads_tripping_while_the_pool_is_killed_print_nothing(capsys):
    """On Ctrl-C the pool is killed; loky's manager thread may then raise on its torn-down
    bookkeeping (a KeyError, seen under load): that traceback is dropped, any other thread's
    exception still reaches the usual hook."""
    import threading

    from sim.core.runner import _pool_threads_quiet

    def fail():
        raise KeyError(46)

    seen = []
    previous = threading.excepthook
    threading.excepthook = lambda args: seen.append(args.thread.name)
    try:
        with _pool_threads_quiet():
            for name in ("ExecutorManagerThread", "QueueFeederThread", "someone-else"):
                thread = threading.Thread(target=fail, name=name)
                thread.start()
                thread.join()
    finally:
        threading.excepthook = previous
    assert seen == ["someone-else"]


def _cut_short_by_ctrl_c(*args, **kwargs):
    """What CPython's ``Thread.start`` can raise when a Ctrl-C lands inside it: an error whose
    context is the KeyboardInterrupt."""
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt:
        raise RuntimeError("release unlocked lock")


def test_an_error_raised_while_a_ctrl_c_unwinds_is_reported_as_the_interrupt(tmp_path, capsys, monkeypatch):
    """No traceback: the run says "interrupted", exits 130 and marks its directory so."""
    from sim.cli import play
    from sim.core import runner
    from sim.core.interrupts import within_ctrl_c

    monkeypatch.setattr(runner, "run_cells", _cut_short_by_ctrl_c)  # play imports it at call time
    out = tmp_path / "r"
    assert main(["run", "toy-dice", "--matches", "20", "--players", "plain,plain", "--out", str(out)]) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "Traceback" not in err and "release unlocked lock" not in err
    assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"
    # an ordinary error is not mistaken for one
    assert not within_ctrl_c(RuntimeError("release unlocked lock"))
    with pytest.raises(RuntimeError):
        with play.ctrl_c_as_interrupt():
            raise RuntimeError("a bug")


def test_run_cells_raises_the_ctrl_c_itself_after_storing_what_finished(tmp_path, monkeypatch):
    """A notebook calling ``run_cells`` (no command line around it) gets the KeyboardInterrupt,
    not the RuntimeError raised in its place, and the chunk finished before it is stored."""
    from sim.core import runner

    real = runner._results

    def one_chunk_then_cut_short(play, tasks, *args):
        yield next(iter(real(play, tasks, 1, "sequential", None, 1)))
        _cut_short_by_ctrl_c()

    monkeypatch.setattr(runner, "_results", one_chunk_then_cut_short)
    store = ResultStore(tmp_path / "out")
    with pytest.raises(KeyboardInterrupt) as caught:
        runner.run_cells(GAME, [cell()], 20, 0, chunk_size=5, store=store, progress=False)
    assert isinstance(caught.value.__cause__, RuntimeError)
    assert store.stored_count() == 5

    def a_bug(play, tasks, *args):  # an ordinary error inside a run is not mistaken for one
        yield next(iter(real(play, tasks, 1, "sequential", None, 1)))
        raise RuntimeError("a bug")

    monkeypatch.setattr(runner, "_results", a_bug)
    with pytest.raises(RuntimeError, match="a bug"):
        runner.run_cells(GAME, [cell()], 20, 0, chunk_size=5, store=ResultStore(tmp_path / "other"), progress=False)


@pytest.mark.parametrize("backend,jobs", [("sequential", 1), ("loky", 2), ("threading", 2)])
def test_a_run_leaves_the_callers_ctrl_c_as_it_found_it(backend, jobs):
    """A notebook's kernel keeps its Ctrl-C after a run: Python's handler, SIGINT not blocked
    (the loky path blocks it and swaps the handler while it starts workers)."""
    from sim.core.runner import run_cells

    run_cells(GAME, [cell()], 8, 0, jobs=jobs, backend=backend, chunk_size=2, progress=False)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


def test_the_suite_takes_ctrl_c_when_started_with_it_ignored():
    """A shell without job control starts ``make test &`` with SIGINT ignored, which every
    process inherits: the suite's processes take Ctrl-C back (tests/conftest.py), or its
    Ctrl-C tests would fail there. Here a nested pytest run, started with SIGINT ignored,
    runs the callers'-Ctrl-C test, which asserts Python's handler after a run."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    test = "tests/core/test_runaways.py::test_a_run_leaves_the_callers_ctrl_c_as_it_found_it"
    ignoring = 'trap \'\' INT; exec "$0" -m pytest -q -p no:cacheprovider "$1"'  # as a background job starts
    done = subprocess.run(
        ["bash", "-c", ignoring, sys.executable, test], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert "3 passed" in done.stdout and "warning" not in done.stdout
