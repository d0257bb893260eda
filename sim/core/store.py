"""The results store: a directory of Parquet tables and a manifest, written chunk by chunk.

Layout::

    DIR/manifest.json                 the run: game, rules of every variant, line-ups, seeds,
                                      package versions; rewritten atomically as the run goes
    DIR/matches/<part>.parquet        one part per finished chunk, for each table
    DIR/players/<part>.parquet
    DIR/rounds/<part>.parquet
    DIR/events/<part>.parquet

Every file is written to a temporary name and renamed, so a killed run leaves no torn file.
A chunk's ``matches`` part is written last: a chunk counts as stored only once it exists, and
readers ignore the other tables' parts of a chunk that never finished.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from .game import TABLES

__all__ = ["ResultStore", "load_tables", "assemble", "KEY_COLUMNS"]

#: Every row of every table is keyed by these columns (then seat / round / event index).
KEY_COLUMNS = ("variant", "lineup", "match")
# Within a match: players by seat, rounds by round then seat, events in the order they happened.
_ROW_ORDER = {"matches": (), "players": ("seat",), "rounds": ("round", "seat"), "events": ("index",)}


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary name beside ``path``, fsync, then rename over it."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with tmp.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def _atomic_write_parquet(path: Path, frame: pd.DataFrame) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    frame.to_parquet(tmp, index=False)
    os.replace(tmp, path)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)


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
        return json.loads(self.manifest_path.read_text(encoding="utf-8"))

    def write_manifest(self, manifest: Mapping[str, Any]) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        text = json.dumps(manifest, indent=2, sort_keys=False, default=str)
        atomic_write_bytes(self.manifest_path, text.encode("utf-8"))

    # chunks -------------------------------------------------------------------------------
    def stored_matches(self) -> set[tuple[str, str, int]]:
        """The (variant, lineup, match) keys of every stored match."""
        folder = self.path / "matches"
        done: set[tuple[str, str, int]] = set()
        if not folder.exists():
            return done
        for part in sorted(folder.glob("*.parquet")):
            frame = pd.read_parquet(part, columns=list(KEY_COLUMNS))
            done.update(zip(frame["variant"], frame["lineup"], frame["match"].astype(int)))
        return done

    def write_chunk(self, tables: Mapping[str, pd.DataFrame]) -> None:
        """Store one chunk's tables; ``matches`` last, so the chunk is atomic for readers."""
        matches = tables["matches"]
        first, last = int(matches["match"].min()), int(matches["match"].max())
        name = (f"{_safe(str(matches['variant'].iloc[0]))}~{_safe(str(matches['lineup'].iloc[0]))}"
                f"~{first:09d}-{last:09d}.parquet")
        for table in (*[t for t in TABLES if t != "matches"], "matches"):
            folder = self.path / table
            folder.mkdir(parents=True, exist_ok=True)
            _atomic_write_parquet(folder / name, tables.get(table, pd.DataFrame()))


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


def load_tables(path: str | Path) -> dict[str, pd.DataFrame]:
    """Read a results directory into one DataFrame per table, sorted by key.

    Only complete chunks are read (those whose ``matches`` part exists).
    """
    path = Path(path)
    parts = sorted(p.name for p in (path / "matches").glob("*.parquet"))
    return assemble({table: [pd.read_parquet(path / table / name) for name in parts
                             if (path / table / name).exists()] for table in TABLES})
