"""A game's length as the game declares it (``GameSpec.length``), and lengths that never vary.

A game says which numeric column of ``matches`` is its length, in which unit and under which
label (:class:`sim.core.game.GameLength`; default ``rounds``): e.g. a championship that always
has its 6 races is better measured in turns per race. The report, the summary sentences and
the export take the length from here. A length that takes one single value in every match of
a cell is a constant of the rules, not a result: it is said in one sentence, with no interval,
histogram or survival curve.
"""

from __future__ import annotations

import pandas as pd

from sim.core.game import GameLength

from .distributions import length_distribution
from .results import Results

__all__ = ["length_of", "length_column", "length_table", "constant_length", "constant_sentence"]


def length_of(results: Results) -> GameLength:
    """The game's declared length, or ``rounds`` when the game is unknown or lacks the column."""
    declared = getattr(results.spec, "length", None) or GameLength()
    if declared.column not in results.tables["matches"].columns:
        return GameLength()
    return declared


def length_column(results: Results) -> pd.Series:
    """The length of every match (the declared column of ``matches``)."""
    return results.tables["matches"][length_of(results).column].astype(float)


def length_table(analysis) -> pd.DataFrame:
    """:func:`analysis.distributions.length_distribution` of the declared length, per cell.

    For ``rounds`` this is ``analysis.lengths`` itself; another column is described the same
    way (cluster-bootstrap BCa interval of the mean, quantiles, share stopped by the cap).
    """
    results = analysis.results
    column = length_of(results).column
    if column == "rounds":
        return analysis.lengths
    matches = results.tables["matches"].assign(rounds=length_column(results))
    options = analysis.options
    return length_distribution(
        matches, confidence=options.confidence, n_resamples=options.n_resamples, seed=options.seed
    )


def constant_length(results: Results, lineup: str | None = None, variant: str | None = None) -> float | None:
    """The single length every match (of the cell, or of all cells) has, or None if it varies."""
    matches = results.tables["matches"]
    keep = pd.Series(True, index=matches.index)
    if lineup is not None:
        keep &= matches["lineup"] == lineup
    if variant is not None:
        keep &= matches["variant"] == variant
    values = length_column(results)[keep]
    return float(values.iloc[0]) if len(values) and values.nunique() == 1 else None


def constant_sentence(results: Results, value: float) -> str:
    """One sentence in place of the statistics of a length that never varies."""
    length = length_of(results)
    shown = f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"
    return (
        f"Every match lasts exactly {shown} {length.unit} (the {length.label} never varies here, "
        "so it has no interval and no distribution)."
    )
