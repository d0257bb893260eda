"""A large results directory's rounds and events, read once slice by slice for the report.

The per-match tables (``matches``, ``players``: a few hundred bytes a match) are loaded whole;
the rounds and events (tens of kilobytes a match in memory for the dexterity games) are not,
once their parts exceed :data:`STREAM_BYTES` on disk. One pass over the slices
(:func:`sim.core.stream.iter_slices`) gathers what the report needs from them:

- the design metrics of every match (lead changes, drama, ...: :func:`analysis.metrics.per_match_metrics`);
- the game's tally of every cell and of every jackknife group of a cell, from which its metrics,
  their intervals and their variant effects are computed exactly (:mod:`sim.core.tally`,
  :mod:`analysis.game_effects`); a game without ``tally`` has no game metrics in such a report;
- the first :data:`PLOT_SAMPLE` matches of each cell, whole, for the game's own plots.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sim.core.game import TABLES
from sim.core.store import ResultStore, assemble
from sim.core.stream import iter_slices, union_columns
from sim.core.tally import merged

from .jackknife import group_tallies, has_tally, jackknife_groups
from .metrics import per_match_metrics

__all__ = ["Streamed", "STREAM_BYTES", "PLOT_SAMPLE", "wide_bytes", "stream_tables"]

#: Rounds and events parts larger than this on disk (Parquet, compressed) are read slice by slice:
#: they would take several times as much in pandas.
STREAM_BYTES = 64 * 2**20
#: Matches of each cell kept whole for the game's plots when the tables are streamed.
PLOT_SAMPLE = 10_000
#: Matches per slice of the report's pass, and its most values (rows × columns read) of one table.
REPORT_SLICE = 5_000
REPORT_VALUES = 2_000_000
#: The columns the per-match design metrics read beside the keys.
PER_MATCH_COLUMNS = {"matches": (), "players": ("won",), "rounds": ("cumulative",), "events": ()}

Cell = tuple[str, str]


@dataclass
class Streamed:
    """What the report needs from the rounds and events of a large directory (module docstring).

    Attributes:
        per_match: :func:`analysis.metrics.per_match_metrics` of every match.
        tallies: the game's tally of each (variant, lineup) cell (empty without ``spec.tally``).
        group_tallies: each cell's tallies by jackknife group of seeds
            (:func:`analysis.game_effects.jackknife_groups` of its line-up).
        sample: every table of the first :data:`PLOT_SAMPLE` matches of each cell.
        sampled: matches in the sample, by cell; ``stored``: matches by cell.
    """

    per_match: pd.DataFrame
    tallies: dict[Cell, dict[Hashable, float]] = field(default_factory=dict)
    group_tallies: dict[Cell, dict[int, dict]] = field(default_factory=dict)
    sample: dict[str, pd.DataFrame] = field(default_factory=dict)
    sampled: dict[Cell, int] = field(default_factory=dict)
    stored: dict[Cell, int] = field(default_factory=dict)

    def sample_note(self) -> str:
        """A sentence for plots drawn from the sample ('' when the sample is every match)."""
        if all(self.sampled.get(cell, 0) >= n for cell, n in self.stored.items()):
            return ""
        kept = sum(self.sampled.values())
        return (
            f"Drawn from the first {PLOT_SAMPLE:,} matches of each cell ({kept:,} of "
            f"{sum(self.stored.values()):,}); the figures and tables elsewhere use every match."
        )


def wide_bytes(path: str | Path) -> int:
    """Bytes on disk of the rounds and events parts that a read of ``path`` would count."""
    path = Path(path)
    names = [name for *_, name in ResultStore(path)._counted_parts()]
    return sum(
        (path / table / name).stat().st_size
        for table in ("rounds", "events")
        for name in names
        if (path / table / name).exists()
    )


def stream_tables(path: str | Path, matches: pd.DataFrame, spec: Any) -> Streamed:
    """One pass over the slices of ``path`` (module docstring); ``matches`` is its matches table
    (for the jackknife groups), ``spec`` the game's GameSpec or None."""
    groups = {lineup: jackknife_groups(rows["seed"]) for lineup, rows in matches.groupby("lineup", sort=False)}
    tallied = spec is not None and has_tally(spec)
    columns = union_columns(PER_MATCH_COLUMNS, spec.tally_columns if tallied else PER_MATCH_COLUMNS)
    per_match: list[pd.DataFrame] = []
    out = Streamed(per_match=pd.DataFrame())
    for tables in iter_slices(path, REPORT_SLICE, columns, values_per_slice=REPORT_VALUES):
        rows = tables["matches"]
        if not len(rows):
            continue
        cell = (str(rows["variant"].iloc[0]), str(rows["lineup"].iloc[0]))
        out.stored[cell] = out.stored.get(cell, 0) + len(rows)
        per_match.append(per_match_metrics(tables["rounds"], tables["players"]))
        if tallied:
            group_tallies(spec, tables, groups[cell[1]], out.group_tallies.setdefault(cell, {}))
    out.tallies = {cell: merged(by_group.values()) for cell, by_group in out.group_tallies.items()}
    frames = [frame for frame in per_match if len(frame)]
    out.per_match = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    out.sample, out.sampled = _sample(path)
    return out


def _sample(path: str | Path) -> tuple[dict[str, pd.DataFrame], dict[Cell, int]]:
    """Every table of the first :data:`PLOT_SAMPLE` matches of each cell, and their count by cell."""
    kept: dict[str, list[pd.DataFrame]] = {table: [] for table in TABLES}
    sampled: dict[Cell, int] = {}
    for tables in iter_slices(path, min(PLOT_SAMPLE, REPORT_SLICE), per_cell=PLOT_SAMPLE):
        rows = tables["matches"]
        cell = (str(rows["variant"].iloc[0]), str(rows["lineup"].iloc[0]))
        room = PLOT_SAMPLE - sampled.get(cell, 0)
        if room <= 0 or not len(rows):
            continue
        last = rows["match"].iloc[min(room, len(rows)) - 1]
        sampled[cell] = sampled.get(cell, 0) + min(room, len(rows))
        for table in TABLES:
            frame = tables[table]
            kept[table].append(frame[frame["match"] <= last] if "match" in frame.columns else frame)
    return assemble(kept), sampled
