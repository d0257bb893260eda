"""The results store: a directory of Parquet tables and a manifest, written chunk by chunk.

Layout::

    DIR/manifest.json                 the run: game, rules of every variant, line-ups, seeds,
                                      package versions; rewritten atomically as the run goes
    DIR/.lock                         present while a run writes: held with flock(2), it names
                                      the writer (pid, host, command); the kernel releases it
                                      when the writer dies, so a stale file never blocks
    DIR/<table>/<cell>_<first>-<last>.parquet
                                      one part per finished chunk, for each table (matches,
                                      players, rounds, events): <cell> is 20 hex digits of the
                                      SHA-256 of the exact (variant, line-up) names, so no two
                                      cells share a part whatever their names (or their
                                      length); <first>-<last> are the chunk's match indices
                                      (contiguous, inclusive, zero-padded to 12 digits)
    DIR/damaged/<table>/<part>        parts that could not be read, or whose rows do not belong
                                      to their name, moved aside: their matches are played again
                                      by the next run

A run's chunks are small (about a second of play each); :meth:`ResultStore.compact` merges a
cell's consecutive parts into parts of up to :data:`COMPACT_MATCHES` matches, named by the range
they cover like any other part. It writes the merged part (``matches`` last), then removes the
parts it replaces: a compaction killed in between leaves parts lying wholly inside a larger part
of their cell, which readers skip as leftovers (and a run removes), so no match is read twice
and none is lost.

Every file is written to a temporary name and renamed, so a killed run leaves no torn file.
A chunk's ``matches`` part is written last: a chunk counts as stored only once it exists (with
the right number of rows), and readers ignore the other tables' parts of a chunk that never
finished. Which matches are stored is read from the part names alone (plus each part's Parquet
footer), so resuming never builds a set of every stored key.

Parts named by an older tablesim (``<variant>~<line-up>~<first>-<last>.parquet``, names
cleaned of unsafe characters) are still read; a run that writes into such a directory first
renames them into this layout (splitting a part that holds several cells or a gap).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import socket
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from .game import TABLES

__all__ = [
    "ResultStore",
    "load_tables",
    "scan_table",
    "assemble",
    "KEY_COLUMNS",
    "StoreError",
    "StoreLocked",
    "cell_key",
    "part_name",
    "parse_part_name",
    "atomic_write_bytes",
    "DAMAGED",
    "gaps",
    "contiguous_runs",
    "COMPACT_MATCHES",
    "COMPACT_PARTS",
    "merge_parts",
    "release_unused",
]

#: Every row of every table is keyed by these columns (then seat / round / event index).
KEY_COLUMNS = ("variant", "lineup", "match")
# Within a match: players by seat, rounds by round then seat, events in the order they happened.
_ROW_ORDER = {"matches": (), "players": ("seat",), "rounds": ("round", "seat"), "events": ("index",)}

_PART = re.compile(r"^([0-9a-f]{20})_(\d+)-(\d+)\.parquet$")
LOCK_NAME = ".lock"
DAMAGED = "damaged"
#: The most matches :meth:`ResultStore.compact` puts in one part: a million-match cell then has
#: 20 files per table, each read in pieces (row groups) by the tools that stream them.
COMPACT_MATCHES = 50_000
#: A cell is compacted once it has more parts than this.
COMPACT_PARTS = 16


class StoreError(Exception):
    """A results directory that cannot be used as it is; the message is one line."""


class StoreLocked(StoreError):
    """Another process holds the results directory's lock."""


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary name beside ``path``, fsync, then rename over it."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with tmp.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def _atomic_write_parquet(path: Path, frame: pd.DataFrame) -> int:
    """Write ``frame`` to a temporary name of this process beside ``path``, rename; its bytes."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    frame.to_parquet(tmp, index=False)
    size = tmp.stat().st_size
    os.replace(tmp, path)
    return size


def cell_key(variant: str, lineup: str) -> str:
    """The part-name key of a cell: 20 hex digits of the SHA-256 of its exact names."""
    text = json.dumps([str(variant), str(lineup)], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def part_name(variant: str, lineup: str, first: int, last: int) -> str:
    """``<cell>_<first>-<last>.parquet`` for matches ``first .. last`` (inclusive) of a cell."""
    return _key_part_name(cell_key(variant, lineup), first, last)


def _key_part_name(key: str, first: int, last: int) -> str:
    """:func:`part_name` from the cell's key."""
    return f"{key}_{first:012d}-{last:012d}.parquet"


def _parse_part(name: str) -> tuple[str, int, int] | None:
    found = _PART.match(name)
    return (found[1], int(found[2]), int(found[3])) if found else None


def parse_part_name(name: str) -> tuple[str, int, int] | None:
    """``(cell key, first, last)`` of a part's file name in the current layout, else None.

    The ``.N`` suffix of a part moved aside beside an earlier one of the same name is allowed.
    """
    return _parse_part(re.sub(r"\.\d+$", "", name))


def gaps(ranges: Iterable[tuple[int, int]], start: int, stop: int) -> Iterator[tuple[int, int]]:
    """The half-open ranges of ``[start, stop)`` not covered by the inclusive ``ranges``."""
    position = start
    for first, last in sorted(ranges):
        if position >= stop:
            return
        if first > position:
            yield position, min(first, stop)
        position = max(position, last + 1)
    if position < stop:
        yield position, stop


def contiguous_runs(numbers: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted distinct integers as inclusive ``(first, last)`` runs of consecutive values."""
    runs: list[tuple[int, int]] = []
    for number in numbers:
        if runs and runs[-1][1] + 1 == number:
            runs[-1] = (runs[-1][0], number)
        else:
            runs.append((number, number))
    return runs


def warn(message: str) -> None:
    """One ``tablesim: warning:`` line on stderr."""
    print(f"tablesim: warning: {message}", file=sys.stderr)


# Locks held by this process (reentrant: run_experiment → run_cells take the same lock).
_HELD: dict[str, list] = {}


class ResultStore:
    """A results directory being written. Create it only once all input is validated."""

    def __init__(self, path: str | Path):
        self.path = Path(path)

    # manifest -----------------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        return self.path / "manifest.json"

    def exists(self) -> bool:
        return self.manifest_path.exists()

    def read_manifest(self) -> dict[str, Any]:
        """The manifest as a dict; a damaged or foreign one raises :class:`StoreError` (one line)."""
        path = self.manifest_path
        try:
            data = json.loads(path.read_bytes().decode("utf-8"))
        except OSError as exc:
            raise StoreError(f"{path}: cannot be read ({exc.strerror or exc})") from None
        except (UnicodeDecodeError, ValueError) as exc:
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "not UTF-8 text"
            raise StoreError(
                f"{path}: damaged (not valid JSON: {reason}); restore it from a copy, "
                "or delete the directory and run again"
            ) from None
        if not isinstance(data, dict):
            raise StoreError(
                f"{path}: damaged (expected a JSON object, got {type(data).__name__}); "
                "restore it from a copy, or delete the directory and run again"
            )
        for key in ("kind", "game"):
            if not isinstance(data.get(key), str) or not data[key]:
                raise StoreError(
                    f"{path}: not a tablesim manifest (no {key!r}); restore it from a "
                    "copy, or delete the directory and run again"
                )
        return data

    def write_manifest(self, manifest: Mapping[str, Any]) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        text = json.dumps(manifest, indent=2, sort_keys=False, default=str)
        atomic_write_bytes(self.manifest_path, text.encode("utf-8"))

    def check_compatible(
        self, manifest: Mapping[str, Any], keys: tuple[str, ...], compared: Mapping[str, tuple[Any, str]] | None = None
    ) -> None:
        """Refuse (StoreError) to resume into a directory whose manifest differs on ``keys``.

        ``compared[key] = (view, what may change)`` compares only ``view(value)`` of that key.
        """
        if not self.exists():
            return
        previous = self.read_manifest()

        def canonical(value: Any) -> str:  # tuples read back as lists, NaN as NaN
            return json.dumps(value, sort_keys=True, default=str)

        for key in keys:
            view, may_change = (compared or {}).get(key, (lambda value: value, ""))
            if canonical(view(previous.get(key))) != canonical(view(manifest.get(key))):
                detail = f": only {may_change} may change" if may_change else ""
                raise StoreError(
                    f"{self.path}: holds a different run ({key} differs{detail}); choose another directory or delete it"
                )

    # lock ---------------------------------------------------------------------------------
    @contextlib.contextmanager
    def lock(self, command: str = "", tidy: bool = True) -> Iterator[ResultStore]:
        """Hold the directory's exclusive lock (creating the directory) while writing.

        Reentrant within a process. Raises :class:`StoreLocked` naming the holder if another
        process has it. Directories this call created are removed again if they are left empty
        (a refused command leaves nothing behind). ``tidy``: on taking the lock, delete the
        temporary files of killed writers and convert parts of the older layout.
        """
        real = os.path.realpath(self.path)
        if real in _HELD:
            _HELD[real][1] += 1
            try:
                yield self
            finally:
                _HELD[real][1] -= 1
            return
        created = self._make_dirs()
        try:
            fd = self._acquire(command)
        except BaseException:
            self._remove_if_empty(created)
            raise
        _HELD[real] = [fd, 1]
        try:
            if tidy:
                self._tidy()
            yield self
        finally:
            del _HELD[real]
            with contextlib.suppress(OSError):
                os.unlink(self.path / LOCK_NAME)
            os.close(fd)  # releases the flock
            self._remove_if_empty(created)

    def holds_lock(self) -> bool:
        return os.path.realpath(self.path) in _HELD

    def writer(self) -> str | None:
        """``pid@host`` of the run holding the directory's lock, as its lock file names it (None
        when no lock file can be read here). A worker compares it with the run that sent it, to
        know that it sees the same directory before writing into it."""
        try:
            info = json.loads((self.path / LOCK_NAME).read_bytes().decode("utf-8"))
            return f"{int(info['pid'])}@{info['host']}"
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _make_dirs(self) -> list[Path]:
        created = []
        probe = self.path
        while not probe.exists() and probe != probe.parent:
            created.append(probe)
            probe = probe.parent
        self.path.mkdir(parents=True, exist_ok=True)
        return created

    def _remove_if_empty(self, created: list[Path]) -> None:
        for folder in created:  # deepest first
            with contextlib.suppress(OSError):
                folder.rmdir()

    def _acquire(self, command: str) -> int:
        lock_path = self.path / LOCK_NAME
        for _ in range(100):
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read_holder(fd)
                os.close(fd)
                raise StoreLocked(
                    f"{self.path}: in use by another tablesim run ({holder}); wait "
                    "for it to finish, or choose another directory"
                ) from None
            try:  # the holder may have unlinked the file between our open and our flock
                same = os.fstat(fd).st_ino == os.stat(lock_path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                info = {
                    "pid": os.getpid(),
                    "host": socket.gethostname(),
                    "command": command,
                    "since": time.strftime("%Y-%m-%d %H:%M:%S"),
                }
                os.ftruncate(fd, 0)
                os.write(fd, json.dumps(info).encode("utf-8"))
                return fd
            os.close(fd)
        raise StoreError(f"{lock_path}: cannot be locked (it keeps being replaced)")

    def _tidy(self) -> None:
        """Under the lock: drop temporary files of killed writers, convert old part names."""
        for table in TABLES:
            for tmp in (self.path / table).glob(".*.tmp-*"):
                with contextlib.suppress(OSError):
                    tmp.unlink()
        for tmp in self.path.glob(".*.tmp-*"):
            with contextlib.suppress(OSError):
                tmp.unlink()
        finished = {part.name for part in (self.path / "matches").glob("*.parquet")}
        for table in (t for t in TABLES if t != "matches"):  # parts of chunks never finished (or removed)
            for part in (self.path / table).glob("*.parquet"):
                if _parse_part(part.name) is not None and part.name not in finished:
                    with contextlib.suppress(OSError):
                        part.unlink()
        _convert_old_parts(self)

    # chunks -------------------------------------------------------------------------------
    def stored_ranges(self) -> dict[str, list[tuple[int, int]]]:
        """Cell key → sorted ``(first, last)`` match ranges of its stored chunks.

        Read from the part names and each part's Parquet footer (its row count): a part that is
        damaged, short of rows, missing a table or overlapping another is named on stderr,
        moved aside (when this process may write here) and left out, so its matches are played
        again.
        """
        ranges: dict[str, list[tuple[int, int]]] = {}
        for key, first, last, name in self._parts():
            if ranges.get(key) and last <= ranges[key][-1][1]:
                self._drop_leftover(name)
                continue
            problem = _footer_problem(self.path, name, last - first + 1)
            if problem is None and ranges.get(key) and ranges[key][-1][1] >= first:
                problem = "overlaps another part of the same cell"
            if problem is not None:
                self.set_aside(name, problem)
                continue
            ranges.setdefault(key, []).append((first, last))
        return ranges

    def stored_count(self) -> int:
        """Matches stored (from the part names; no table is read)."""
        return sum(last - first + 1 for key, first, last, _ in self._counted_parts())

    def _counted_parts(self) -> list[tuple[str, int, int, str]]:
        """:meth:`_parts` without the leftovers of an interrupted compaction (from the names alone)."""
        kept: list[tuple[str, int, int, str]] = []
        for part in self._parts():
            if kept and kept[-1][0] == part[0] and part[2] <= kept[-1][2]:
                continue
            kept.append(part)
        return kept

    def _drop_leftover(self, name: str) -> None:
        """Remove the parts of a chunk that a compacted part holds (when this process holds the lock)."""
        if not self.holds_lock():
            return
        for table in ("matches", *[t for t in TABLES if t != "matches"]):
            with contextlib.suppress(FileNotFoundError):
                (self.path / table / name).unlink()

    def compact(
        self,
        max_matches: int = COMPACT_MATCHES,
        min_parts: int = COMPACT_PARTS,
        merge: Callable[[list[tuple[list[Path], Path]]], None] | None = None,
    ) -> int:
        """Merge each cell's consecutive parts into parts of up to ``max_matches`` matches.

        Only cells with more than ``min_parts`` parts are compacted; the tables read back are the
        same. Holds the lock (taking it if this process does not hold it yet). Each merged part
        is written streaming one source part at a time (memory: one part): first every table but
        ``matches`` of every merged part, then their ``matches``; then the parts they replace are
        removed. ``merge`` writes a list of ``(sources, target)`` merges (default: one after the
        other, here; :func:`sim.core.runner.merge_in_workers` spreads them over a run's workers).
        Returns the number of parts merged away.
        """
        merge = merge or merge_parts
        with self.lock("compact") if not self.holds_lock() else contextlib.nullcontext():
            ranges = self.stored_ranges()  # judges every part first: damaged ones are set aside
            plan = [
                (key, group)
                for key, cell_ranges in ranges.items()
                if len(cell_ranges) > min_parts
                for group in _merge_groups(cell_ranges, max_matches)
                if len(group) > 1
            ]
            for tables in ([t for t in TABLES if t != "matches"], ["matches"]):  # matches last
                merge([self._merge_job(key, group, table) for key, group in plan for table in tables])
            for key, group in plan:
                for first, last in group:
                    self._drop_leftover(_key_part_name(key, first, last))
            return sum(len(group) - 1 for _, group in plan)

    def _merge_job(self, key: str, group: list[tuple[int, int]], table: str) -> tuple[list[Path], Path]:
        """The sources and target of one table of a merged part."""
        sources = [self.path / table / _key_part_name(key, first, last) for first, last in group]
        return sources, self.path / table / _key_part_name(key, group[0][0], group[-1][1])

    def stored_matches(self) -> set[tuple[str, str, int]]:
        """The (variant, lineup, match) keys of every stored match (reads the tables)."""
        matches = load_tables(self.path)["matches"]
        if not len(matches):
            return set()
        return set(zip(matches["variant"], matches["lineup"], matches["match"].astype(int)))

    def _parts(self) -> list[tuple[str, int, int, str]]:
        """(cell key, first, last, name) of every matches part in the new layout, by cell and
        first match, the longer of two parts starting at the same match first."""
        folder = self.path / "matches"
        parts = []
        for part in folder.glob("*.parquet") if folder.is_dir() else ():
            parsed = _parse_part(part.name)
            if parsed is not None:
                parts.append((*parsed, part.name))
        return sorted(parts, key=lambda part: (part[0], part[1], -part[2], part[3]))

    def read_new(self, table: str, seen: set[str], columns: Sequence[str] | None = None) -> list[pd.DataFrame]:
        """One table's parts of the chunks finished since ``seen`` (part names), which it extends.

        For a run that looks at its results as they grow: each look reads only the new chunks
        (a chunk counts once its ``matches`` part exists). Damaged parts are not judged here;
        :func:`load_tables` does that.
        """
        frames = []
        for _, _, _, name in self._counted_parts():
            if name in seen:
                continue
            frames.append(pd.read_parquet(self.path / table / name, columns=list(columns) if columns else None))
            seen.add(name)
        return frames

    def write_chunk(self, tables: Mapping[str, pd.DataFrame]) -> int:
        """Store one chunk's tables; ``matches`` last, so the chunk is atomic for readers.

        The chunk must hold one cell (one variant and line-up) and contiguous match indices.
        Written by the run holding the lock or by its workers (each part to a temporary name of
        the writing process, then renamed). Returns the bytes written.
        """
        matches = tables["matches"]
        variants, lineups = matches["variant"].unique(), matches["lineup"].unique()
        numbers = matches["match"].astype("int64")
        first, last = int(numbers.min()), int(numbers.max())
        if (
            len(variants) != 1
            or len(lineups) != 1
            or len(matches) != last - first + 1
            or numbers.nunique() != len(matches)
        ):
            raise ValueError("a chunk holds one variant and line-up and contiguous match indices")
        name = part_name(str(variants[0]), str(lineups[0]), first, last)
        written = 0
        for table in (*[t for t in TABLES if t != "matches"], "matches"):
            folder = self.path / table
            folder.mkdir(parents=True, exist_ok=True)
            written += _atomic_write_parquet(folder / name, tables.get(table, pd.DataFrame()))
        return written

    def set_aside(self, name: str, reason: str) -> None:
        """Name a damaged chunk on stderr and move its parts to ``DIR/damaged/`` if allowed.

        Moving needs the directory's lock: a reader takes it for the move when no run holds it.
        """
        shown = self.path / "matches" / name
        try:
            with contextlib.ExitStack() as stack:
                if not self.holds_lock():
                    stack.enter_context(self.lock("set aside a damaged part", tidy=False))
                for table in TABLES:
                    source = self.path / table / name
                    if source.exists():
                        target = self.path / DAMAGED / table / name
                        target.parent.mkdir(parents=True, exist_ok=True)
                        os.replace(source, _free_name(target))
        except (StoreError, OSError):
            warn(f"{shown}: damaged ({reason}); left out of the tables")
            return
        warn(
            f"{shown}: damaged ({reason}); moved to {self.path / DAMAGED}; its matches will be "
            "played again by the next run"
        )


def _merge_groups(ranges: Sequence[tuple[int, int]], max_matches: int) -> list[list[tuple[int, int]]]:
    """Consecutive ranges (no gap between them) grouped greedily up to ``max_matches`` matches."""
    groups: list[list[tuple[int, int]]] = []
    for first, last in ranges:
        group = groups[-1] if groups else None
        if group and group[-1][1] + 1 == first and last - group[0][0] + 1 <= max_matches:
            group.append((first, last))
        else:
            groups.append([(first, last)])
    return groups


def release_unused() -> None:
    """Hand the memory Arrow freed back to the system, so that a long read or merge does not keep
    the largest slice's or part's worth of it."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()


def merge_parts(jobs: list[tuple[list[Path], Path]]) -> None:
    """Each merge of a compaction (``(sources, target)``, :meth:`ResultStore.compact`), one after
    the other, in this process."""
    for sources, target in jobs:
        _merge_parquet(sources, target)


def _merge_parquet(sources: Sequence[Path], target: Path) -> None:
    """Write the rows of ``sources`` (in order) into ``target`` atomically, one source in memory
    at a time; the columns are the union of theirs, types widened as pandas would concatenate them."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    read = [pq.read_schema(source) for source in sources]
    schemas = [schema.remove_metadata() for schema in read]
    schema = _unified_schema(schemas)
    if not len(schema):  # a table no chunk wrote rows to
        _atomic_write_parquet(target, pd.DataFrame())
        return
    schema = schema.with_metadata(_pandas_metadata(schema, read))
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    with pq.ParquetWriter(tmp, schema) as writer:
        for source, own in zip(sources, schemas):
            if not len(own):
                continue
            table = pq.read_table(source).replace_schema_metadata(None)
            for field in schema:
                if field.name not in table.column_names:
                    table = table.append_column(field, pa.nulls(len(table), field.type))
            writer.write_table(
                table.select(schema.names).cast(schema.remove_metadata()).replace_schema_metadata(schema.metadata)
            )
            del table
            release_unused()  # memory stays that of one part, not the largest seen
    os.replace(tmp, target)


def _unified_schema(schemas):
    """The union of the parts' columns, types widened as pandas would concatenate them (an
    empty schema when no part has a column)."""
    import pyarrow as pa

    columned = [schema for schema in schemas if len(schema)]
    return pa.unify_schemas(columned, promote_options="permissive") if columned else pa.schema([])


def _pandas_metadata(schema, sources) -> dict[bytes, bytes]:
    """pandas' metadata for the merged ``schema``: each column's entry from a part that stored it
    with the merged type (so pandas reads it back as it read the parts: strings as ``object``)."""
    entries: dict[str, dict] = {}
    base: dict | None = None
    for source in sources:
        meta = json.loads((source.metadata or {}).get(b"pandas", b"null") or b"null")
        if not meta:
            continue
        base = base or meta
        for column in meta.get("columns", []):
            name = column.get("name")
            field = schema.field(name) if name in schema.names else None
            if field is not None and (name not in entries or source.field(name).type == field.type):
                entries[name] = column
    if base is None:
        return {}
    merged = {
        **base,
        "index_columns": [],
        "column_indexes": base.get("column_indexes", []),
        "columns": [entries[name] for name in schema.names if name in entries],
    }
    return {b"pandas": json.dumps(merged).encode("utf-8")}


def _free_name(target: Path) -> Path:
    candidate, n = target, 0
    while candidate.exists():
        n += 1
        candidate = target.with_name(f"{target.name}.{n}")
    return candidate


def _read_holder(fd: int) -> str:
    try:
        info = json.loads(os.pread(fd, 4096, 0).decode("utf-8"))
        return (
            f"pid {info.get('pid')} on {info.get('host')}, since {info.get('since')}: "
            f"{info.get('command') or 'no command recorded'}"
        )
    except (OSError, ValueError, AttributeError):
        return "holder unknown"


def _footer_problem(folder: Path, name: str, rows: int) -> str | None:
    """Why a chunk's parts cannot be trusted (from the Parquet footers), or None."""
    import pyarrow.parquet as pq

    for table in TABLES:
        path = folder / table / name
        if not path.exists():
            return f"its {table} part is missing"
        try:
            count = pq.read_metadata(path).num_rows
        except Exception as exc:  # pyarrow raises ArrowInvalid, OSError, ... on a torn file
            return f"{table} part unreadable: {_reason(exc)}"
        if table == "matches" and count != rows:
            return f"holds {count} matches, its name says {rows}"
    return None


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


def assemble(frames: Mapping[str, list[pd.DataFrame]]) -> dict[str, pd.DataFrame]:
    """Concatenate each table's chunk frames and sort the rows by key (then seat, round, index)."""
    out: dict[str, pd.DataFrame] = {}
    for table in TABLES:
        parts = [f for f in frames.get(table, []) if len(f)]
        frame = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
        if len(frame):
            order = [c for c in (*KEY_COLUMNS, *_ROW_ORDER[table]) if c in frame.columns]
            frame = frame.sort_values(order, kind="stable").reset_index(drop=True)
        out[table] = frame
    return out


def load_tables(path: str | Path, tables: Sequence[str] = TABLES) -> dict[str, pd.DataFrame]:
    """Read a results directory into one DataFrame per table, sorted by key.

    Only complete chunks are read (those whose ``matches`` part exists). A chunk whose parts
    cannot be read, or whose rows do not belong to its name, is named on stderr, moved to
    ``DIR/damaged/`` (when no run holds the directory) and left out; the next run plays its
    matches again. ``tables``: read only these (``matches`` always; the others come back
    empty), e.g. ``("matches", "players")`` of a run too large to load its rounds and events
    (:func:`sim.core.stream.iter_slices` reads those slice by slice).
    """
    path = Path(path)
    store = ResultStore(path)
    wanted = {"matches", *tables}
    frames: dict[str, list[pd.DataFrame]] = {table: [] for table in TABLES}
    chunks = [(parsed, parsed[3]) for parsed in store._parts()]
    chunks += [(None, name) for name in _old_part_names(path)]
    last_of: dict[str, int] = {}
    for parsed, name in chunks:
        if parsed is not None and last_of.get(parsed[0], -1) >= parsed[2]:
            continue  # a leftover of an interrupted compaction: a larger part holds its matches
        chunk, problem = _read_chunk(path, name, parsed, wanted)
        if problem is None and parsed is not None:
            key, first, last, _ = parsed
            if last_of.get(key, -1) >= first:
                problem = "overlaps another part of the same cell"
            else:
                last_of[key] = last
        if problem is not None:
            store.set_aside(name, problem)
            continue
        for table in TABLES:
            frames[table].append(chunk[table])
    return assemble(frames)


def scan_table(path: str | Path, table: str):
    """One table of a results directory as a lazy ``pyarrow.dataset.Dataset``: for runs too large
    to load (:func:`load_tables` reads every row into pandas).

    Nothing is read until asked: ``scan_table(DIR, "players").to_table(columns=["seat", "won"])``,
    ``.to_batches()`` (one record batch at a time), or a DuckDB or polars query over it. The
    parts are the stored chunks :func:`load_tables` would read, in the same order, without
    judging their contents (a damaged part is found by :func:`load_tables`); rows are in chunk
    order, not sorted. Columns a part lacks read as nulls.
    """
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    if table not in TABLES:
        raise ValueError(f"table: got {table!r}; allowed: {', '.join(TABLES)}")
    path = Path(path)
    files = [path / table / name for *_, name in ResultStore(path)._counted_parts()]
    schema = _unified_schema([pq.read_schema(file).remove_metadata() for file in files])
    return ds.dataset([str(file) for file in files], schema=schema, format="parquet")


def _old_part_names(path: Path) -> list[str]:
    folder = path / "matches"
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.glob("*.parquet") if _PART.match(p.name) is None)


def _read_chunk(
    path: Path, name: str, parsed, wanted: Iterable[str] = TABLES
) -> tuple[dict[str, pd.DataFrame] | None, str | None]:
    """The tables of one chunk (those not ``wanted`` empty), or the reason it cannot be used."""
    chunk: dict[str, pd.DataFrame] = {}
    for table in TABLES:
        file = path / table / name
        if table not in wanted:
            chunk[table] = pd.DataFrame()
            continue
        if not file.exists():
            if parsed is None and table != "matches":  # older layouts did not insist
                chunk[table] = pd.DataFrame()
                continue
            return None, f"its {table} part is missing"
        try:
            chunk[table] = pd.read_parquet(file)
        except Exception as exc:  # ArrowInvalid, OSError, ... on a torn or foreign file
            return None, f"{table} part unreadable: {_reason(exc)}"
    return chunk, _rows_problem(chunk, parsed)


def _rows_problem(chunk: Mapping[str, pd.DataFrame], parsed) -> str | None:
    """Why the rows of a chunk do not belong to its part name (None: they do)."""
    matches = chunk["matches"]
    if any(column not in matches.columns for column in KEY_COLUMNS):
        return "its matches part has no variant, lineup and match columns"
    if parsed is None:
        return None
    key, first, last, _ = parsed
    if len(matches) != last - first + 1:
        return f"holds {len(matches)} matches, its name says {last - first + 1}"
    cells = matches[["variant", "lineup"]].drop_duplicates()
    if len(cells) != 1 or cell_key(*cells.iloc[0]) != key:
        return "its rows belong to another variant or line-up than its name says"
    numbers = matches["match"].astype("int64").sort_values().to_numpy()
    if numbers[0] != first or numbers[-1] != last or len(set(numbers)) != len(numbers):
        return f"its match numbers are not {first}..{last}"
    variant, lineup = cells.iloc[0]
    for table in TABLES[1:]:
        frame = chunk[table]
        if not len(frame):
            continue
        if any(column not in frame.columns for column in KEY_COLUMNS):
            return f"its {table} part has no variant, lineup and match columns"
        numbers = frame["match"].astype("int64")
        if (
            (frame["variant"] != variant).any()
            or (frame["lineup"] != lineup).any()
            or numbers.min() < first
            or numbers.max() > last
        ):
            return f"its {table} rows belong to other matches than its name says"
    return None


def _convert_old_parts(store: ResultStore) -> None:
    """Rename parts of the older layout (``variant~lineup~first-last``) into the new one."""
    converted = 0
    for name in _old_part_names(store.path):
        chunk, problem = _read_chunk(store.path, name, None)
        if problem is not None:
            store.set_aside(name, problem)
            continue
        for piece in _split_cells(chunk):
            store.write_chunk(piece)
        for table in TABLES:
            with contextlib.suppress(FileNotFoundError):
                (store.path / table / name).unlink()
        converted += 1
    if converted:
        print(
            f"tablesim: note: {store.path}: {converted} parts of an older tablesim renamed to the current layout",
            file=sys.stderr,
        )


def _split_cells(chunk: Mapping[str, pd.DataFrame]) -> Iterator[dict[str, pd.DataFrame]]:
    """One chunk per (variant, line-up) and contiguous run of match indices."""
    matches = chunk["matches"]
    for (variant, lineup), rows in matches.groupby(["variant", "lineup"], sort=False):
        for first, last in contiguous_runs(sorted(set(rows["match"].astype("int64")))):
            piece = {}
            for table, frame in chunk.items():
                if len(frame):
                    keep = (
                        (frame["variant"] == variant)
                        & (frame["lineup"] == lineup)
                        & frame["match"].astype("int64").between(first, last)
                    )
                    frame = frame[keep].reset_index(drop=True)
                piece[table] = frame
            piece["matches"] = piece["matches"].drop_duplicates("match")
            yield piece
