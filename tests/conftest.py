"""Suite-wide hygiene: no run a test started outlives the test."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(autouse=True)
def _no_process_left_behind():
    """After each test, kill what is left of the ``tablesim`` subprocesses it started with
    ``tests.core.reliability.popen`` (only if that module was imported: nothing to do else)."""
    yield
    reliability = sys.modules.get("tests.core.reliability")
    if reliability is not None:
        reliability.kill_started()


def _take_ctrl_c_as_a_terminal_gives_it() -> None:
    """The suite tests Ctrl-C, so its processes must take it. A shell without job control (a
    script running ``make test &``) starts a background command with SIGINT ignored, and
    Python and every process it starts keep it ignored. Such a session failed the Ctrl-C tests
    (four in a clean-clone run), and in three others a check after each test found
    SIGINT ignored after the first test of each xdist worker — the "two tests that touch no
    signal" were the first items of ``gw0`` and ``gw1`` (xdist's first slices: items 0 and
    N // 8). Python's handler is installed here, at the start of each test process; its
    subprocesses then start with the default action, and Python's handler, as from a terminal.
    Reproduced: ``bash -c 'python -m pytest tests/core/test_runaways.py & wait'`` fails the
    Ctrl-C tests without this and passes with it."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a blocked mask is inherited too


_take_ctrl_c_as_a_terminal_gives_it()


def _restore_ctrl_c(when: str) -> None:
    """Put back SIGINT as a terminal gives it (not blocked, Python's handler), with a warning."""
    import signal
    import warnings

    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    handler = signal.getsignal(signal.SIGINT)
    if not blocked and handler is signal.default_int_handler:
        return
    if blocked:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if handler is not signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    warnings.warn(
        f"SIGINT found {'blocked' if blocked else 'unblocked'} with handler {handler!r} {when}; restored",
        RuntimeWarning,
        stacklevel=1,
    )


@pytest.fixture(autouse=True)
def _ctrl_c_left_as_found():
    """Each test starts and ends with this process's Ctrl-C as a terminal gives it: SIGINT not
    blocked in the main thread and Python's handler in place (subprocesses inherit an ignored
    or blocked SIGINT, so one test leaving it so would fail the later Ctrl-C tests of its
    worker). Checked before each test too, since a module fixture's teardown runs between two
    tests' checks; a change is undone and a warning names the test."""
    import threading

    main = threading.current_thread() is threading.main_thread()
    if main:  # changed since the last test's check: by a module fixture's teardown
        _restore_ctrl_c("before this test")
    yield
    if main:
        _restore_ctrl_c("after this test")
