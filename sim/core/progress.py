"""Progress of a long run on stderr: a bar on a terminal, a plain line every half minute
elsewhere (a log file, a CI job, a notebook's captured stderr), nothing when asked for none.

A designer who runs a balance search under ``nohup`` or in CI should still see that it is
alive and how far it got; a bar's carriage returns are unreadable in a file, so off a terminal
the progress is one line (count and elapsed time) at most every :data:`LOG_EVERY_S` seconds,
and one at the end.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from tqdm import tqdm

__all__ = ["progress_bar", "LogProgress", "LOG_EVERY_S", "say"]

#: seconds between two progress lines off a terminal
LOG_EVERY_S = 30.0


class LogProgress:
    """tqdm's ``update``/``close`` as a line ``desc: k of N units (elapsed)`` written at most
    every ``every`` seconds, and once at the end if anything was written before."""

    def __init__(
        self,
        total: int,
        unit: str,
        desc: str,
        *,
        initial: int = 0,
        every: float = LOG_EVERY_S,
        file: TextIO | None = None,
        clock=time.monotonic,
    ):
        self.total, self.unit, self.desc, self.n, self.every = total, unit, desc, initial, every
        self.file, self.clock = file, clock
        self.started = self.last = clock()
        self.said = False

    def _say(self) -> None:
        minutes, seconds = divmod(int(self.clock() - self.started), 60)
        print(
            f"{self.desc}: {self.n:,} of {self.total:,} {self.unit}s ({minutes} min {seconds:02d} s)",
            file=self.file or sys.stderr,
            flush=True,
        )
        self.said = True

    def update(self, n: int = 1) -> None:
        self.n += n
        now = self.clock()
        if now - self.last >= self.every:
            self.last = now
            self._say()

    def close(self) -> None:
        if self.said and self.n:
            self._say()


def progress_bar(total: int, unit: str, desc: str, progress: bool | None, *, initial: int = 0):
    """A bar on a terminal (``progress`` None: when stderr is one; True: always), a
    :class:`LogProgress` off a terminal when ``progress`` is None, nothing when it is False."""
    terminal = sys.stderr.isatty()
    if progress is False or total == 0:
        return tqdm(total=total, disable=True)
    if progress or terminal:
        return tqdm(total=total, initial=initial, unit=unit, desc=desc, file=sys.stderr, dynamic_ncols=True)
    return LogProgress(total, unit, desc, initial=initial)


def say(text: str) -> None:
    """One line on stderr, above a progress bar if one is drawn (the bar is redrawn below it)."""
    tqdm.write(text, file=sys.stderr)
