"""What a long run will cost, said once from its first chunks: time, disk, and the workers it uses.

A run of 10⁹ matches, or one on ``--jobs 1000``, should not start in silence: after its first
chunks (:data:`AFTER_S` seconds of play) the runner measures the pace and, with a results
directory, the bytes each match takes on disk, and says once how long the rest will take and how
much disk it will fill, on how many workers. A run whose rest will not fit the free disk stops
there with :class:`RunWontFit` (its finished chunks are kept; the same command resumes once space
is freed or with fewer matches). A run forecast to end within :data:`QUIET_S` says nothing.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Forecast", "RunWontFit", "AFTER_S", "QUIET_S", "human_bytes", "human_duration"]

#: Seconds of play after which the pace is measured.
AFTER_S = 5.0
#: A run forecast to need less than this many more seconds is not announced.
QUIET_S = 60.0
#: Share of the free disk a run may plan to fill.
DISK_SHARE = 0.95


class RunWontFit(RuntimeError):
    """The rest of a run needs more disk than is free (its message is one line for the user)."""


def human_bytes(count: float) -> str:
    """``1.2 GB`` (decimal units)."""
    for unit in ("B", "kB", "MB", "GB", "TB", "PB"):
        if abs(count) < 1000 or unit == "PB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1000
    return f"{count:.1f} PB"


def human_duration(seconds: float) -> str:
    """``3 h 10 min``, ``2.5 days``, ``4.8 years``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60)} min"
    if seconds < 2 * 365 * 86400:
        return f"{seconds / 86400:.1f} days"
    return f"{seconds / (365.25 * 86400):,.1f} years"


def _stored_bytes_per_match(path: Path) -> float | None:
    """Bytes on disk per stored match of a results directory (every table's parts), or None."""
    from .store import ResultStore

    parts = ResultStore(path)._counted_parts()
    matches = sum(last - first + 1 for _, first, last, _ in parts)
    if not matches:
        return None
    total = sum(file.stat().st_size for file in path.glob("*/*.parquet"))
    return total / matches


@dataclass
class Forecast:
    """The pace of one call of the runner, measured once after :data:`AFTER_S` seconds.

    Attributes:
        total: matches this call plays (count).
        workers: worker processes it uses; cores: the machine's cores.
        store: the results directory, or None (then no disk is forecast).
        started: ``time.perf_counter()`` when play began.
    """

    total: int
    workers: int
    cores: int
    store: Path | None = None
    started: float = field(default_factory=time.perf_counter)
    said: bool = False

    def update(self, done: int) -> str | None:
        """After ``done`` matches: the forecast line, once (None before, after, or for a short run).

        Raises:
            RunWontFit: the rest would fill more than the free disk of the results directory.
        """
        elapsed = time.perf_counter() - self.started
        if self.said or done <= 0 or done >= self.total or elapsed < AFTER_S:
            return None
        self.said = True
        rate = done / elapsed
        left = self.total - done
        seconds = left / rate
        where = f"{self.workers} worker{'s' if self.workers > 1 else ''} ({self.cores} cores)"
        disk = ""
        if self.store is not None:
            per_match = _stored_bytes_per_match(self.store)
            free = shutil.disk_usage(self.store).free
            if per_match is not None:
                need = per_match * left
                if need > DISK_SHARE * free:
                    raise RunWontFit(
                        f"{self.store}: the {left:,} matches left need about {human_bytes(need)} on disk "
                        f"({human_bytes(per_match)} a match) and {human_bytes(free)} is free; the {done:,} "
                        "matches finished are kept: free some space or ask for fewer matches, and rerun the "
                        "same command to resume"
                    )
                disk = f", about {human_bytes(need)} more on disk ({human_bytes(free)} free)"
        if seconds < QUIET_S:
            return None
        return f"{left:,} matches left at {rate:,.1f} matches/s on {where}: about {human_duration(seconds)}{disk}"
