"""A results directory opened for analysis: its manifest, tables and (if installed) game.

Reading only: nothing here plays a match. The game's GameSpec is looked up by the
manifest's ``game`` name so that its hooks (``summary``, ``plots``) can be called; an unknown
game leaves ``spec`` None and the analysis goes on without them. ``completeness`` says whether
every match the manifest planned is stored (:mod:`sim.core.completeness`); figures are computed
from what is stored either way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from sim.core.completeness import Completeness, completeness_of
from sim.core.game import TABLES, get_game
from sim.core.store import load_tables

from . import streamed as streaming
from .streamed import Streamed, stream_tables, wide_bytes

__all__ = ["Results", "load_results", "open_results", "rules_by_variant", "overrides_by_variant", "flatten"]

BASELINE = "baseline"


@dataclass
class Results:
    """The contents of a results directory.

    Attributes:
        path: the directory.
        manifest: ``manifest.json`` as a dict (empty if absent).
        tables: ``matches``, ``players``, ``rounds``, ``events`` DataFrames.
        spec: the game's GameSpec, or None if it is not registered in this installation.
        notes: problems met while loading (shown in the report).
        completeness: the planned matches against those stored (default: nothing planned,
            complete).
        streamed: for a directory too large to load whole, what the report needs from its
            rounds and events, read slice by slice (``tables`` then holds empty rounds and
            events; :mod:`analysis.streamed`); None when every table is loaded.
    """

    path: Path
    manifest: dict[str, Any]
    tables: dict[str, pd.DataFrame]
    spec: Any = None
    notes: list[str] = field(default_factory=list)
    completeness: Completeness = field(default_factory=Completeness)
    streamed: Streamed | None = None

    @property
    def kind(self) -> str:
        return str(self.manifest.get("kind", "run"))

    @property
    def game(self) -> str:
        return str(self.manifest.get("game", "unknown game"))

    @property
    def title(self) -> str:
        return getattr(self.spec, "title", None) or self.game

    def _present(self, column: str) -> list[str]:
        """The distinct values of a ``matches`` column in order of appearance (computed once: a
        large run has millions of rows)."""
        cache = self.__dict__.setdefault("_present_cache", {})
        if column not in cache:
            matches = self.tables["matches"]
            cache[column] = [str(v) for v in pd.unique(matches[column])] if len(matches) else []
        return cache[column]

    @property
    def variants(self) -> list[str]:
        """Variant names in display order: the baseline, then the manifest's order."""
        present = self._present("variant")
        declared = [BASELINE] + [str(v.get("name")) for v in self.manifest.get("variants", []) or []]
        ordered = [v for v in declared if v in present]
        return ordered + sorted(v for v in present if v not in ordered)

    @property
    def lineups(self) -> list[str]:
        present = self._present("lineup")
        declared = [str(x.get("name")) for x in self.manifest.get("lineups", []) or []]
        ordered = [x for x in declared if x in present]
        return ordered + sorted(x for x in present if x not in ordered)

    def rotated(self, lineup: str) -> bool:
        """Whether the line-up's matches rotate the seats (each seed under every rotation)."""
        matches = self.tables["matches"]
        rows = matches[matches["lineup"] == lineup]
        return "rotation" in rows.columns and rows["rotation"].nunique() > 1

    def symmetric(self, lineup: str) -> bool:
        """Whether every seat of the line-up has the same profile."""
        players = self.tables["players"]
        return players.loc[players["lineup"] == lineup, "profile"].nunique() <= 1


def load_results(path: str | Path, stream: bool | None = False) -> Results:
    """Open a results directory (``manifest.json`` and the Parquet tables).

    ``stream``: False loads every table; True loads ``matches`` and ``players`` and reads the
    rounds and events slice by slice into :attr:`Results.streamed`; None chooses True when
    those parts exceed :data:`analysis.streamed.STREAM_BYTES` on disk (what ``tablesim report``
    does, so a report of any size fits in memory).

    Raises:
        FileNotFoundError: if the directory holds no ``matches`` table.
    """
    path = Path(path)
    if not (path / "matches").is_dir():
        raise FileNotFoundError(f"{path}: not a tablesim results directory (no matches/ table)")
    manifest_path = path / "manifest.json"
    notes = []
    manifest: dict[str, Any] = {}
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    else:
        notes.append("manifest.json is missing: rules, seeds and versions cannot be shown.")
    if stream is None:
        stream = wide_bytes(path) > streaming.STREAM_BYTES
    tables = load_tables(path, ("matches", "players") if stream else TABLES)
    if tables["matches"].empty:
        raise FileNotFoundError(f"{path}: the results directory holds no finished match yet")
    spec = None
    if manifest.get("game"):
        try:
            spec = get_game(str(manifest["game"]))
        except (KeyError, ImportError) as exc:
            notes.append(
                f"game {manifest['game']!r} is not available here ({exc}); its own metrics and plots are left out."
            )
    streamed = stream_tables(path, tables["matches"], spec) if stream else None
    completeness = completeness_of(path, manifest, tables["matches"]) if manifest else Completeness()
    if manifest.get("status") not in (None, "complete") and completeness.complete:
        stored = len(tables["matches"])
        notes.append(
            f"the run's status is {manifest.get('status')!r}: this report covers the {stored} matches stored so far."
        )
    return Results(
        path=path,
        manifest=manifest,
        tables=tables,
        spec=spec,
        notes=notes,
        completeness=completeness,
        streamed=streamed,
    )


def open_results(source: str | Path | Results, stream: bool | None = False) -> Results:
    """``source`` itself if it is already loaded, else :func:`load_results` of the directory."""
    return source if isinstance(source, Results) else load_results(source, stream)


def rules_by_variant(manifest: Mapping[str, Any]) -> dict[str, dict]:
    """The full rules dict of each variant recorded in the manifest (run or experiment)."""
    out: dict[str, dict] = {}
    baseline = manifest.get("baseline")
    if isinstance(baseline, Mapping):
        for key in ("rules_dict", "rules"):  # experiment manifests: "rules" is the file's path
            if isinstance(baseline.get(key), Mapping):
                out[BASELINE] = dict(baseline[key])
                break
    for variant in manifest.get("variants", []) or []:
        if isinstance(variant, Mapping) and isinstance(variant.get("rules"), Mapping):
            out[str(variant.get("name"))] = dict(variant["rules"])
    for cell in manifest.get("cells", []) or []:
        if isinstance(cell, Mapping) and isinstance(cell.get("rules"), Mapping):
            out.setdefault(str(cell.get("variant", BASELINE)), dict(cell["rules"]))
    return out


def overrides_by_variant(manifest: Mapping[str, Any]) -> dict[str, dict]:
    """The ``set`` overrides of the baseline and of each variant (dotted key → value)."""
    out: dict[str, dict] = {}
    baseline = manifest.get("baseline")
    if isinstance(baseline, Mapping) and isinstance(baseline.get("set"), Mapping):
        out[BASELINE] = dict(baseline["set"])
    for variant in manifest.get("variants", []) or []:
        if isinstance(variant, Mapping):
            out[str(variant.get("name"))] = dict(variant.get("set") or {})
    return out


def flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """A nested dict as dotted keys (``{"game": {"target": 20}}`` → ``{"game.target": 20}``)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, Mapping):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out
