"""The game's own metrics and plots, through the optional hooks of its GameSpec.

``spec.summary(tables) -> dict`` and ``spec.plots(tables) -> list[(title, Figure)]`` are
called once per cell (variant × line-up) and once for all tables respectively. A missing
hook, an unknown game or a hook that raises degrades to an explanatory note: the report
never fails because of a game's own extras.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

__all__ = ["cell_tables", "game_metrics", "game_plots"]


def cell_tables(tables: Mapping[str, pd.DataFrame], variant: str, lineup: str) -> dict[str, pd.DataFrame]:
    """The rows of one cell of every table (tables without the key columns are kept whole)."""
    out = {}
    for name, frame in tables.items():
        if {"variant", "lineup"} <= set(frame.columns):
            out[name] = frame[(frame["variant"] == variant) & (frame["lineup"] == lineup)].reset_index(drop=True)
        else:
            out[name] = frame
    return out


def _number(value: Any) -> Any:
    try:
        return float(value)
    except (TypeError, ValueError):
        return str(value)


def game_metrics(
    spec: Any, tables: Mapping[str, pd.DataFrame], tallies: Mapping[tuple[str, str], Mapping] | None = None
) -> tuple[pd.DataFrame, list[str]]:
    """``spec.summary`` of every cell as one table.

    Args:
        spec: the game's GameSpec, or None if the game is not registered here.
        tables: all tables of the results directory.
        tallies: the game's tally of each (variant, lineup) cell, gathered slice by slice from a
            directory too large to load (:mod:`analysis.streamed`): the metrics are then
            ``spec.summary_from_tally`` of each.

    Returns:
        (frame with one row per metric and one column per ``variant / lineup`` cell,
        notes explaining what is missing).
    """
    hook = getattr(spec, "summary", None) if spec is not None else None
    if tallies is not None:
        if spec is None or getattr(spec, "summary_from_tally", None) is None:
            reason = (
                "the game is not installed here"
                if spec is None
                else "the run is too large to load whole and the game declares no tally (its summary needs every table)"
            )
            return pd.DataFrame(), [f"No game-specific metrics: {reason}."]
        hook = None
    elif hook is None:
        reason = "the game is not installed here" if spec is None else "the game defines no summary hook"
        return pd.DataFrame(), [f"No game-specific metrics: {reason}."]
    columns: dict[str, dict[str, Any]] = {}
    notes = []
    cells = tables["matches"][["variant", "lineup"]].drop_duplicates().itertuples(index=False)
    for variant, lineup in cells:
        try:
            metrics = (
                hook(cell_tables(tables, variant, lineup))
                if hook is not None
                else spec.summary_from_tally(tallies.get((variant, lineup), {}))
            ) or {}
        except Exception as exc:  # a game's extra must not break the report
            notes.append(f"{variant} / {lineup}: the game's summary failed ({type(exc).__name__}: {exc}).")
            continue
        columns[f"{variant} / {lineup}"] = {str(k): _number(v) for k, v in dict(metrics).items()}
    frame = pd.DataFrame(columns)
    frame.index.name = "metric"
    return frame, notes


def game_plots(spec: Any, tables: Mapping[str, pd.DataFrame]) -> tuple[list[tuple[str, Any]], list[str]]:
    """The figures of ``spec.plots(tables)`` if the game has that hook.

    Returns:
        (list of (title, matplotlib Figure), notes explaining what is missing).
    """
    hook = getattr(spec, "plots", None) if spec is not None else None
    if hook is None:
        return [], ["The game defines no plots of its own."] if spec is not None else []
    try:
        figures = list(hook(tables) or [])
    except Exception as exc:  # a game's extra must not break the report
        return [], [f"The game's plots failed ({type(exc).__name__}: {exc})."]
    return [(str(title), figure) for title, figure in figures], []
