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
