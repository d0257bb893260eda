"""Whether a results directory holds every match its manifest planned.

Every cell (variant × line-up) of ``manifest["cells"]`` plans matches 0 .. N − 1: N is
``manifest["matches"]`` for a run; for an experiment it is ``matches_played`` once complete (a
precision target plays on past ``matches``), and at least ``matches`` while it runs or after an
interruption; a cell that a ``[stopping]`` rule stopped plans the matches it stopped at
(``manifest["stopping"]``). A cell holds fewer when a run stopped before it finished or when a damaged chunk
was set aside under ``DIR/damaged/``. Rerunning the command recorded in the manifest
(``manifest["command"]``) resumes and plays exactly the missing matches; parts set aside whose
matches have been played again since leave nothing missing.

What is stored is read from the match indices actually present (the loaded ``matches`` table),
never assumed from the manifest.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .store import DAMAGED, cell_key, contiguous_runs, gaps, parse_part_name

__all__ = [
    "MatchRange",
    "CellShortfall",
    "Completeness",
    "assess",
    "completeness_of",
    "stored_ranges_of",
    "missing_ranges",
    "planned_matches",
    "stopped_matches",
    "replay_command",
]

#: Cells named one by one in :meth:`Completeness.cells_text`; the rest are counted.
SHOWN_CELLS = 3
#: Missing ranges named one by one per cell; the rest are counted.
SHOWN_RANGES = 4


@dataclass(frozen=True)
class MatchRange:
    """Match indices ``first .. last`` of one cell, both included."""

    first: int
    last: int

    @property
    def size(self) -> int:
        """Matches in the range (count)."""
        return self.last - self.first + 1

    def __str__(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


@dataclass(frozen=True)
class CellShortfall:
    """One cell that holds fewer matches than planned.

    Attributes:
        variant: the cell's variant name.
        lineup: the cell's line-up name.
        stored: matches of 0 .. planned − 1 the cell holds (count).
        planned: matches planned for the cell (count).
        missing: the missing match indices, as ranges in increasing order.
    """

    variant: str
    lineup: str
    stored: int
    planned: int
    missing: tuple[MatchRange, ...]

    def text(self) -> str:
        """``bullseye-150 / club-vs-casual holds 175 of 200 matches (150–174 missing)``."""
        shown = ", ".join(map(str, self.missing[:SHOWN_RANGES]))
        more = len(self.missing) - SHOWN_RANGES
        if more > 0:
            shown += f" and {more} more range{'s' if more > 1 else ''}"
        return f"{self.variant} / {self.lineup} holds {self.stored:,} of {self.planned:,} matches ({shown} missing)"


@dataclass(frozen=True)
class Completeness:
    """What a results directory holds against what its manifest planned.

    The default value knows of no plan and is complete.

    Attributes:
        status: the manifest's status ("complete", "running", "interrupted"; "" if none).
        planned: matches planned per cell (count), for every cell a ``[stopping]`` rule did
            not stop earlier.
        cells: cells planned (count).
        planned_total: matches planned over every cell (count).
        stored: matches stored within the plan, over every cell (count).
        shortfalls: the cells short of matches, in the manifest's order.
        set_aside: parts under ``DIR/damaged/`` whose matches are still missing (count).
        command: the command that made the results (rerunning it plays the missing matches),
            or "" if the manifest records none.
    """

    status: str = ""
    planned: int = 0
    cells: int = 0
    planned_total: int = 0
    stored: int = 0
    shortfalls: tuple[CellShortfall, ...] = ()
    set_aside: int = 0
    command: str = ""

    @property
    def complete(self) -> bool:
        """Whether every planned match of every cell is stored."""
        return not self.shortfalls

    def cells_text(self) -> str:
        """The short cells, ``; ``-separated (the first few named, the rest counted)."""
        parts = [shortfall.text() for shortfall in self.shortfalls[:SHOWN_CELLS]]
        more = len(self.shortfalls) - SHOWN_CELLS
        if more > 0:
            parts.append(f"and {more} more cell{'s' if more > 1 else ''} short of matches")
        return "; ".join(parts)

    def replay_text(self) -> str:
        """How to play the missing matches: the recorded command, rerun."""
        if self.command:
            return f"replay the missing matches with: {self.command}"
        return "replay the missing matches by rerunning the command that made these results"

    def status_text(self) -> str:
        """The status to print beside the results: the manifest's, or why they are incomplete."""
        recorded = self.status or "unknown"
        if self.complete:
            return recorded
        return (
            f"incomplete: {self.stored:,} of {self.planned_total:,} planned matches stored "
            f"(the manifest's status: {recorded})"
        )

    def sentence(self) -> str:
        """One sentence saying the results are incomplete and what follows (complete: "")."""
        if self.complete:
            return ""
        cause = (
            f" {self.set_aside} damaged part{'s were' if self.set_aside > 1 else ' was'} set aside under {DAMAGED}/."
            if self.set_aside
            else ""
        )
        return (
            f"These results are incomplete: {self.cells_text()}. Every figure is computed from the "
            f"{self.stored:,} of {self.planned_total:,} planned matches that are stored.{cause} "
            f"To complete them, {self.replay_text()} (it resumes and plays only the missing matches)."
        )


def stored_ranges_of(matches: pd.DataFrame) -> dict[tuple[str, str], list[MatchRange]]:
    """(variant, line-up) → the contiguous ranges of match indices a ``matches`` table holds."""
    if matches.empty:
        return {}
    return {
        (str(variant), str(lineup)): [
            MatchRange(*run) for run in contiguous_runs(sorted(set(rows["match"].astype("int64"))))
        ]
        for (variant, lineup), rows in matches.groupby(["variant", "lineup"], sort=False)
    }


def missing_ranges(stored: Iterable[MatchRange], planned: int) -> tuple[MatchRange, ...]:
    """The ranges of 0 .. planned − 1 that ``stored`` leaves out."""
    return tuple(MatchRange(first, end - 1) for first, end in gaps(((r.first, r.last) for r in stored), 0, planned))


def planned_matches(manifest: Mapping[str, Any], longest: int = 0) -> int:
    """Matches planned per cell (count).

    ``longest``: the most matches any cell holds (one past its highest index); an experiment
    that is not complete may have played on towards a precision target, so its plan is at
    least that. A manifest without ``matches`` plans ``longest``.
    """
    matches = manifest.get("matches")
    if not isinstance(matches, int) or isinstance(matches, bool):
        return longest
    if manifest.get("kind") == "experiment":
        if manifest.get("status") == "complete" and isinstance(manifest.get("matches_played"), int):
            return int(manifest["matches_played"])
        return max(matches, longest)
    return matches


def stopped_matches(manifest: Mapping[str, Any]) -> dict[tuple[str, str], int]:
    """(variant, line-up) → matches at which a ``[stopping]`` rule stopped the cell (its plan)."""
    out = {}
    for record in manifest.get("stopping") or []:
        if isinstance(record, Mapping) and isinstance(record.get("matches"), int):
            out[(str(record.get("variant")), str(record.get("lineup")))] = int(record["matches"])
    return out


def _planned_cells(manifest: Mapping[str, Any], stored: Mapping[tuple[str, str], Any]) -> list[tuple[str, str]]:
    """(variant, line-up) of every planned cell: the manifest's, else those stored."""
    cells = [
        (str(c.get("variant")), str(c.get("lineup")))
        for c in manifest.get("cells") or []
        if isinstance(c, Mapping) and "variant" in c and "lineup" in c
    ]
    return list(dict.fromkeys(cells)) if cells else list(stored)


def _set_aside_missing(
    damaged: Iterable[str], cells: Sequence[tuple[str, str]], missing: Mapping[tuple[str, str], tuple[MatchRange, ...]]
) -> int:
    """Damaged part names (``DIR/damaged/matches/``) of which some match is still missing."""
    by_key = {cell_key(*cell): cell for cell in cells}
    count = 0
    for name in damaged:
        parsed = parse_part_name(name)
        cell = by_key.get(parsed[0]) if parsed else None
        if cell is None:
            continue
        _, first, last = parsed
        if any(gap.first <= last and first <= gap.last for gap in missing.get(cell, ())):
            count += 1
    return count


def replay_command(manifest: Mapping[str, Any], folder: str | Path | None = None) -> str:
    """The command that plays a directory's missing matches: the recorded one, writing into ``folder``.

    A command recorded without ``--out`` (its default folder) gets ``--out folder``, so it
    resumes this directory wherever it was moved; a demo's experiment is named as the
    ``tablesim experiment`` it ran. "" when the manifest records no command.
    """
    command = str(manifest.get("command") or "").strip()
    if command in ("", "tablesim"):
        return ""
    if command.startswith("tablesim demo") and manifest.get("experiment_file"):
        command = f"tablesim experiment {shlex.quote(str(manifest['experiment_file']))}"
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    if folder is not None and "--out" not in words:
        command += f" --out {shlex.quote(str(folder))}"
    return command


def assess(
    manifest: Mapping[str, Any],
    stored: Mapping[tuple[str, str], Sequence[MatchRange]],
    damaged: Iterable[str] = (),
    folder: str | Path | None = None,
) -> Completeness:
    """Compare what is stored with what the manifest planned.

    Args:
        manifest: the results directory's manifest.
        stored: (variant, line-up) → the ranges of match indices stored (sorted, disjoint).
        damaged: names of the parts set aside under ``DIR/damaged/matches/``.
        folder: the results directory, as the user named it (the replay command writes there).
    """
    cells = _planned_cells(manifest, stored)
    longest = max((runs[-1].last + 1 for runs in stored.values() if runs), default=0)
    planned = planned_matches(manifest, longest)
    stopped = stopped_matches(manifest)
    shortfalls, missing, total, planned_total = [], {}, 0, 0
    for cell in cells:
        plan = stopped.get(cell, planned)
        planned_total += plan
        absent = missing_ranges(stored.get(cell, []), plan)
        held = plan - sum(r.size for r in absent)
        total += held
        if absent:
            missing[cell] = absent
            shortfalls.append(CellShortfall(cell[0], cell[1], held, plan, absent))
    return Completeness(
        status=str(manifest.get("status") or ""),
        planned=planned,
        cells=len(cells),
        planned_total=planned_total,
        stored=total,
        shortfalls=tuple(shortfalls),
        set_aside=_set_aside_missing(damaged, cells, missing),
        command=replay_command(manifest, folder),
    )


def completeness_of(path: str | Path, manifest: Mapping[str, Any], matches: pd.DataFrame) -> Completeness:
    """:func:`assess` of a results directory from its loaded ``matches`` table."""
    folder = Path(path) / DAMAGED / "matches"
    damaged = sorted(p.name for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []
    return assess(manifest, stored_ranges_of(matches), damaged, path)
