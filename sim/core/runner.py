"""The batch runner: chunks of matches on joblib workers, tidy tables out.

A run is a list of :class:`Cell` (one variant × one line-up) and a number of matches per cell.
Match ``i`` of every cell is played with the seeds ``MatchSeeds(root_seed, seed_index(i))``, so
variants are paired by seed (common random numbers) and the tables never depend on the number
of workers, the chunk size or the backend: chunks only decide *where* a match is played.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd
from joblib import Parallel, delayed, parallel_config
from tqdm import tqdm

from .game import TABLES, GameSpec, MatchLog, Player, get_game
from .seeding import MatchSeeds
from .store import KEY_COLUMNS, ResultStore, assemble, load_tables

__all__ = ["Cell", "seat_players", "play_one", "play_chunk", "run_cells", "DEFAULT_CHUNK_SIZE",
           "BACKENDS"]

#: Matches per task: large enough that worker start-up and pickling are a few % of the work.
DEFAULT_CHUNK_SIZE = 25
BACKENDS = ("loky", "threading", "sequential")


@dataclass(frozen=True)
class Cell:
    """One variant × line-up of a run.

    Attributes:
        variant: the variant's name (``baseline`` for the reference rules).
        lineup: the line-up's name.
        rules: the validated rules object.
        players: one :class:`Player` per seat, in seat order.
        rotate_seats: play each seed under every rotation of the line-up: match ``i`` uses
            seed ``i // n`` and seats the line-up rotated by ``i % n`` (n = number of seats).
        seed_offset: added to every seed index (0 = the shared seeds of common random
            numbers; sensitivity analysis gives its dummy parameter fresh seeds this way).
    """

    variant: str
    lineup: str
    rules: Any
    players: tuple[Player, ...]
    rotate_seats: bool = False
    seed_offset: int = 0

    @property
    def rotations(self) -> int:
        return len(self.players) if self.rotate_seats else 1

    def seed_and_rotation(self, match: int) -> tuple[int, int]:
        seed, rotation = divmod(match, self.rotations)
        return seed + self.seed_offset, rotation


def seat_players(players: Sequence[Player], rotation: int) -> tuple[tuple[Player, ...], list[int]]:
    """The line-up rotated by ``rotation``: seat ``s`` gets line-up slot ``(s + rotation) % n``."""
    n = len(players)
    slots = [(seat + rotation) % n for seat in range(n)]
    return tuple(players[slot] for slot in slots), slots


def play_one(spec: GameSpec, cell: Cell, match: int, root_seed: int) -> MatchLog:
    """Play match ``match`` of ``cell`` and return its log with the key columns added."""
    seed_index, rotation = cell.seed_and_rotation(match)
    seated, slots = seat_players(cell.players, rotation)
    log = spec.play_match(cell.rules, seated, MatchSeeds(root_seed, seed_index, tuple(slots)))
    keys = {"variant": cell.variant, "lineup": cell.lineup, "match": match}
    log.matches = {**keys, "seed": seed_index, "rotation": rotation, **log.matches}
    for row in log.players:
        row.update(keys)
        row["seed"] = seed_index
        row["slot"] = slots[row["seat"]]
    for rows in (log.rounds, log.events):
        for row in rows:
            row.update(keys)
    return log


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    if not rows:
        return pd.DataFrame()
    frame = pd.DataFrame.from_records(rows)
    first = [c for c in KEY_COLUMNS if c in frame.columns]
    return frame[first + [c for c in frame.columns if c not in first]]


def play_chunk(game: str, cell: Cell, matches: Sequence[int], root_seed: int) -> dict[str, pd.DataFrame]:
    """Play a list of matches of one cell (a worker's task) and return its tables."""
    spec = get_game(game)
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in TABLES}
    for match in matches:
        for table, table_rows in play_one(spec, cell, match, root_seed).tables().items():
            rows[table].extend(table_rows)
    return {table: _frame(table_rows) for table, table_rows in rows.items()}


def _chunks(cells: Sequence[Cell], start: int, matches: int, chunk_size: int,
            done: set[tuple[str, str, int]]) -> Iterator[tuple[Cell, list[int]]]:
    for cell in cells:
        todo = [m for m in range(start, matches) if (cell.variant, cell.lineup, m) not in done]
        for first in range(0, len(todo), chunk_size):
            yield cell, todo[first:first + chunk_size]


def run_cells(spec: GameSpec, cells: Sequence[Cell], matches: int, root_seed: int, *,
              jobs: int = 1, chunk_size: int = DEFAULT_CHUNK_SIZE, backend: str = "loky",
              store: ResultStore | None = None, progress: bool | None = None,
              parallel_kwargs: dict | None = None, start: int = 0) -> dict[str, pd.DataFrame]:
    """Play matches ``start .. matches - 1`` of every cell and return the tidy tables.

    With a ``store``, each finished chunk is written at once and matches already stored are
    skipped (a rerun resumes); the returned tables are then read back from the store. A
    ``KeyboardInterrupt`` propagates after the finished chunks are stored.

    Args:
        jobs: worker processes (1 = play in this process).
        chunk_size: matches per task.
        backend: a joblib backend name (``loky`` by default; ``dask`` once a client exists).
        progress: show a progress bar on stderr (default: when stderr is a terminal).
    """
    done = store.stored_matches() if store is not None else set()
    chunks = list(_chunks(cells, start, matches, chunk_size, done))
    total = sum(len(m) for _, m in chunks)
    show = sys.stderr.isatty() if progress is None else progress
    collected: dict[str, list[pd.DataFrame]] = {t: [] for t in TABLES}
    bar = tqdm(total=total, unit="match", disable=not show or total == 0, file=sys.stderr,
               desc=spec.name, dynamic_ncols=True)
    try:
        if jobs == 1 and backend != "dask":
            results = (play_chunk(spec.name, cell, ms, root_seed) for cell, ms in chunks)
        elif backend == "dask":
            # joblib's dask backend must come from parallel_config (the active dask Client);
            # naming it in Parallel(backend=...) forwards joblib's own kwargs to the tasks.
            with parallel_config(backend="dask", **(parallel_kwargs or {})):
                parallel = Parallel(n_jobs=-1, return_as="generator_unordered", batch_size=1)
            results = parallel(delayed(play_chunk)(spec.name, cell, ms, root_seed)
                               for cell, ms in chunks)
        else:
            parallel = Parallel(n_jobs=jobs, backend=backend, return_as="generator_unordered",
                                **(parallel_kwargs or {}))
            results = parallel(delayed(play_chunk)(spec.name, cell, ms, root_seed)
                               for cell, ms in chunks)
        for tables in results:
            if store is not None:
                store.write_chunk(tables)
            else:
                for table, frame in tables.items():
                    collected[table].append(frame)
            bar.update(len(tables["matches"]))
    finally:
        bar.close()
    if store is not None:
        return load_tables(store.path)
    return assemble(collected)
