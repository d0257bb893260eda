"""Ctrl-C, whatever form it reaches the caller in.

CPython's ``Thread.start`` cut short by a ``KeyboardInterrupt`` can raise ``RuntimeError:
release unlocked lock`` in its place (seen once in ~130 interrupts of a run starting its worker
pool). :func:`ctrl_c_as_interrupt` turns such an error back into the interrupt it is, so a
caller — the command line, or a notebook calling :func:`sim.core.runner.run_cells` — sees a
``KeyboardInterrupt`` after the finished chunks are stored, never a traceback about a lock.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

__all__ = ["within_ctrl_c", "ctrl_c_as_interrupt"]


def within_ctrl_c(exc: BaseException | None) -> bool:
    """Is ``exc`` a Ctrl-C, or an error raised while one was unwinding (found in its chain of
    ``__context__``/``__cause__``)?"""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


@contextlib.contextmanager
def ctrl_c_as_interrupt() -> Iterator[None]:
    """Re-raise an error that a Ctrl-C's unwinding caused (:func:`within_ctrl_c`) as the
    ``KeyboardInterrupt`` it is; any other error goes on unchanged."""
    try:
        yield
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        if within_ctrl_c(exc):
            raise KeyboardInterrupt from exc
        raise
