"""Reading a results directory slice by slice: runs too large to load at once.

:func:`iter_slices` yields the stored tables a few thousand matches at a time, each slice one
cell's whole seeds (every seat rotation of a seed in the same slice), with every table's rows
of exactly those matches. Memory then depends on the slice, not on the run: a summary merges
what each slice tells (:mod:`sim.core.tally`, :func:`analysis.summary.stored_summary`).

It reads the parts :func:`~sim.core.store.load_tables` would read, Parquet row group by row
group (a run's chunks, and each chunk inside a compacted part, are row groups), and skips the
same leftovers. Parts whose footers are damaged, short of rows or overlapping are moved aside
first, as :meth:`~sim.core.store.ResultStore.stored_ranges` does for a run.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pandas as pd

from .game import TABLES
from .store import _ROW_ORDER, ResultStore, _key_part_name, _old_part_names, load_tables, release_unused

__all__ = ["iter_slices", "union_columns", "SLICE_MATCHES", "SLICE_VALUES"]

#: Matches read before a slice is cut (at the next seed boundary): a slice of Curlastique's
#: tables takes about 10 MB in pandas.
SLICE_MATCHES = 1_000
#: At most this many values (rows × columns read) of the largest table read go in a slice:
#: fewer matches per slice for a game that logs more per match (a Gastérospeed championship has
#: ten times Curlastique's events), more when only a few columns are read (a summary reads 7 of
#: Gastérospeed's 12 events columns): 60,000 rows of 25 columns, some 50 MB in pandas.
SLICE_VALUES = 1_500_000


class _Cursor:
    """One table of one cell, read row group by row group, handed out up to a match number."""

    def __init__(self, files: Sequence[Path], columns: Sequence[str] | None = None, per_read: int = 1):
        self._groups = _row_groups(files, columns, per_read)
        self._rest: pd.DataFrame | None = None
        self.done = False

    def _next_group(self) -> pd.DataFrame | None:
        for frame in self._groups:
            if len(frame):
                return frame
        self.done = True
        return None

    def frames(self) -> Iterator[pd.DataFrame]:
        """The rows not handed out yet, a row group at a time (the carried rows first)."""
        if self._rest is not None:
            rest, self._rest = self._rest, None
            yield rest
        while (frame := self._next_group()) is not None:
            yield frame

    def carry(self, frame: pd.DataFrame) -> None:
        """Put rows back: they come first next time."""
        self._rest = frame if len(frame) else None

    def take_through(self, last_match: int) -> pd.DataFrame:
        """Every row with ``match`` ≤ ``last_match`` (rows are stored in match order)."""
        taken = []
        for frame in self.frames():
            numbers = frame["match"].to_numpy()
            if numbers[-1] <= last_match:
                taken.append(frame)
                continue
            cut = int(numbers.searchsorted(last_match, side="right"))
            taken.append(frame.iloc[:cut])
            self.carry(frame.iloc[cut:].reset_index(drop=True))
            break
        return pd.concat(taken, ignore_index=True) if taken else pd.DataFrame()


def _row_groups(
    files: Sequence[Path], columns: Sequence[str] | None = None, per_read: int = 1
) -> Iterator[pd.DataFrame]:
    """The row groups of ``files``, in order, ``per_read`` at a time, as DataFrames (read as
    :func:`pandas.read_parquet` reads); ``columns``: only those a file has (None: all)."""
    import pyarrow.parquet as pq

    for file in files:
        with pq.ParquetFile(file) as parquet:
            names = parquet.schema_arrow.names
            present = None if columns is None else [c for c in columns if c in names]
            count = parquet.metadata.num_row_groups
            for first in range(0, count, per_read):
                groups = list(range(first, min(count, first + per_read)))
                yield parquet.read_row_groups(groups, columns=present).to_pandas(split_blocks=True, self_destruct=True)


def _footer_rows(path: Path, names: Sequence[str], table: str) -> tuple[int, int, int]:
    """(row groups, rows, columns) of one table's parts, from their footers (columns: the
    widest part's)."""
    import pyarrow.parquet as pq

    groups = rows = columns = 0
    for name in names:
        if (path / table / name).exists():
            metadata = pq.read_metadata(path / table / name)
            groups, rows = groups + metadata.num_row_groups, rows + metadata.num_rows
            columns = max(columns, metadata.num_columns)
    return groups, rows, columns


def _wanted(table: str, columns: Mapping[str, Sequence[str] | None] | None) -> list[str] | None:
    """The columns of ``table`` to read: those asked, with the match number and the row order
    (the cell's names are added as constants); None: every column."""
    asked = None if columns is None else columns.get(table)
    if asked is None:
        return None
    return list(dict.fromkeys(["match", *(("seed",) if table == "matches" else ()), *_ROW_ORDER[table], *asked]))


def _in_order(frame: pd.DataFrame, table: str) -> pd.DataFrame:
    """``frame`` (one cell's rows) sorted as :func:`~sim.core.store.load_tables` sorts: by match,
    then seat, round or event index (numbers only: the cell's names are the same on every row)."""
    order = [c for c in ("match", *_ROW_ORDER[table]) if c in frame.columns]
    return frame.sort_values(order, kind="stable", ignore_index=True)


def _with_cell(frame: pd.DataFrame, variant: str, lineup: str) -> pd.DataFrame:
    """``frame`` with the cell's ``variant`` and ``lineup`` columns (added when not read)."""
    for position, (column, value) in enumerate((("variant", variant), ("lineup", lineup))):
        if column not in frame.columns:
            frame.insert(position, column, value)
    return frame


def _cell_slices(
    path: Path,
    names: Sequence[str],
    matches_per_slice: int,
    columns: Mapping[str, Sequence[str] | None] | None = None,
    values_per_slice: int = SLICE_VALUES,
) -> Iterator[dict[str, pd.DataFrame]]:
    skipped = {table for table in TABLES[1:] if columns is not None and columns.get(table, None) == ()}
    footers = {table: _footer_rows(path, names, table) for table in TABLES if table not in skipped}
    wanted = {table: _wanted(table, columns) for table in footers}
    groups, stored = footers["matches"][0], max(1, footers["matches"][1])
    # values per match of the largest table read: its rows per match × the columns read of it
    largest = max(
        rows / stored * (width if wanted[table] is None else len(wanted[table]))
        for table, (_, rows, width) in footers.items()
    )
    matches_per_slice = max(1, min(matches_per_slice, int(values_per_slice / max(largest, 1e-9))))
    # row groups read at once, about half a slice of matches: a run's chunks are row groups of a
    # few dozen matches, and one call each would cost more than the data
    per_read = max(1, round(matches_per_slice / 2 / max(1.0, stored / max(groups, 1))))
    cursors = {table: _Cursor([path / table / name for name in names], wanted[table], per_read) for table in footers}
    rows = cursors["matches"]
    slices = 0
    cell = pd.read_parquet(path / "matches" / names[0], columns=["variant", "lineup"]).iloc[0] if names else None
    while True:
        buffer: list[pd.DataFrame] = []
        count = 0
        for frame in rows.frames():
            buffer.append(frame)
            count += len(frame)
            if count >= matches_per_slice and buffer[0]["seed"].iloc[0] != frame["seed"].iloc[-1]:
                break
        if not buffer:
            return
        matches = pd.concat(buffer, ignore_index=True)
        if not rows.done:  # the last seed may go on in the next row group: keep it for the next slice
            seeds = matches["seed"].to_numpy()
            whole = int(seeds.searchsorted(seeds[-1], side="left"))
            rows.carry(matches.iloc[whole:].reset_index(drop=True))
            matches = matches.iloc[:whole].reset_index(drop=True)
        last = int(matches["match"].iloc[-1])
        piece = {"matches": matches}
        for table in TABLES[1:]:
            piece[table] = pd.DataFrame() if table in skipped else cursors[table].take_through(last)
        for table, frame in piece.items():
            if len(frame):
                piece[table] = _with_cell(_in_order(frame, table), str(cell["variant"]), str(cell["lineup"]))
        yield piece
        slices += 1
        if slices % 8 == 0:
            release_unused()


def union_columns(*wanted: Mapping[str, Sequence[str] | None] | None) -> dict[str, tuple[str, ...] | None]:
    """The columns several readers need together (``iter_slices``'s ``columns``): a table is read
    whole if one of them wants it whole (None, or the table left out of its mapping)."""
    out: dict[str, tuple[str, ...] | None] = {}
    for table in TABLES:
        asked = [None if w is None else w.get(table) for w in wanted]
        out[table] = None if any(a is None for a in asked) else tuple(dict.fromkeys(c for a in asked for c in a))
    return out


def iter_slices(
    path: str | Path,
    matches_per_slice: int = SLICE_MATCHES,
    columns: Mapping[str, Sequence[str] | None] | None = None,
    per_cell: int | None = None,
    values_per_slice: int = SLICE_VALUES,
) -> Iterator[dict[str, pd.DataFrame]]:
    """The stored tables of ``path``, one slice at a time (module docstring).

    Each slice is a dict of DataFrames like :func:`~sim.core.store.load_tables` returns (same
    columns, rows sorted by key) for about ``matches_per_slice`` matches of one cell (fewer when
    that many would exceed ``values_per_slice`` values, rows × columns read, of the largest
    table read), cut between seeds.
    The slices of one cell come in match order; together they hold every stored match once. ``columns``: table → the columns to read (the keys and row order always come;
    a table left out is read whole, an empty tuple not at all): reading a few columns of the
    events is several times faster. ``per_cell``: stop reading a cell once this many of its
    matches were given (its first slices only). A directory written by an older tablesim (parts
    named by variant and line-up) is read whole, as one slice.
    """
    path = Path(path)
    if _old_part_names(path):
        yield load_tables(path)
        return
    ranges = ResultStore(path).stored_ranges()
    for key in sorted(ranges):
        names = [_key_part_name(key, first, last) for first, last in ranges[key]]
        given = 0
        for piece in _cell_slices(path, names, matches_per_slice, columns, values_per_slice):
            yield piece
            given += len(piece["matches"])
            if per_cell is not None and given >= per_cell:
                break
