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


@pytest.fixture(autouse=True)
def _ctrl_c_left_as_found():
    """Each test starts with this process's Ctrl-C as a terminal gives it: SIGINT not blocked
    in the main thread and Python's handler in place. Subprocesses inherit both, so a process
    left with SIGINT ignored made every later Ctrl-C test of the same xdist worker fail (a
    clean-clone run, 2026-12-03: four Ctrl-C tests of one worker). Twice in clean-clone runs
    the handler was found set to SIG_IGN after a test that touches no signal (a Carrom flow
    test, a balance search): the cause is not found yet (a spy on ``signal.signal`` over two
    full local runs never fired). Until it is, the state is restored after the test and a
    warning names that test in the summary, so the Ctrl-C tests keep testing the code."""
    import signal
    import threading
    import warnings

    yield
    if threading.current_thread() is not threading.main_thread():
        return
    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    handler = signal.getsignal(signal.SIGINT)
    if blocked:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if handler is not signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if blocked or handler is not signal.default_int_handler:
        warnings.warn(f"SIGINT found {'blocked' if blocked else 'unblocked'} with handler {handler!r} after "
                      "this test; restored", RuntimeWarning, stacklevel=1)
