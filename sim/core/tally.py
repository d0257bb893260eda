"""Tallies: the counts, sums and extremes a summary needs, kept so that slices of a run add up.

A run too large to hold in memory is summarised slice by slice (:func:`sim.core.stream.iter_slices`):
each slice gives a tally, the tallies are merged, and the summary is computed from the merged
tally once. A summary computed this way equals the one computed from every table at once,
because the whole run's tally is the merge of its slices' tallies.

A tally is a dict. A key is a string or a tuple whose first item is a string (the quantity:
``"throws"``, ``("wins", "club")``); the quantity's prefix says how two values combine:
``max.`` keeps the larger, ``min.`` the smaller, anything else adds. Values are numbers.
Quantiles come from counts of each value (:func:`describe_counts`), exact for the discrete
values games record (points, strokes, rounds).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

import numpy as np
import pandas as pd

__all__ = [
    "Tally",
    "merge_tallies",
    "merged",
    "quantity",
    "counts_of",
    "grouped_counts",
    "describe_counts",
    "median_of_counts",
]

Tally = dict[Hashable, float]


def quantity(key: Hashable) -> str:
    """The quantity a tally key names (its first item for a tuple key)."""
    return str(key[0] if isinstance(key, tuple) else key)


def merge_tallies(into: Tally, other: Mapping[Hashable, float]) -> Tally:
    """Add ``other`` into ``into`` (extremes for ``max.``/``min.`` quantities) and return it."""
    for key, value in other.items():
        if key not in into:
            into[key] = value
            continue
        name = quantity(key)
        if name.startswith("max."):
            into[key] = max(into[key], value)
        elif name.startswith("min."):
            into[key] = min(into[key], value)
        else:
            into[key] = into[key] + value
    return into


def merged(tallies) -> Tally:
    """One tally of several (:func:`merge_tallies` of each into an empty tally)."""
    out: Tally = {}
    for tally in tallies:
        merge_tallies(out, tally)
    return out


def counts_of(values: pd.Series, name: str, *group: Hashable) -> Tally:
    """How often each value occurs: keys ``(name, *group, value)``, for :func:`describe_counts`."""
    counts = values.value_counts(sort=False, dropna=True)
    return {(name, *group, value): float(count) for value, count in counts.items()}


def _sorted_counts(counts: Mapping[float, float]) -> tuple[np.ndarray, np.ndarray]:
    values = np.array(sorted(counts), dtype=float)
    weights = np.array([counts[v] for v in sorted(counts)], dtype=float)
    return values, weights


def median_of_counts(counts: Mapping[float, float]) -> float:
    """The median of the values counted (as ``numpy.median`` of the values themselves; nan if none)."""
    values, weights = _sorted_counts(counts)
    n = int(weights.sum())
    if n == 0:
        return float("nan")
    ends = np.cumsum(weights)
    lower = values[np.searchsorted(ends, (n - 1) // 2, side="right")]
    upper = values[np.searchsorted(ends, n // 2, side="right")]
    return float((lower + upper) / 2)


def describe_counts(counts: Mapping[float, float]) -> dict[str, float]:
    """``mean``, ``median``, ``min`` and ``max`` of the values counted (nan for each if none)."""
    values, weights = _sorted_counts(counts)
    if not weights.sum():
        return {"mean": float("nan"), "median": float("nan"), "min": float("nan"), "max": float("nan")}
    return {
        "mean": float(np.dot(values, weights) / weights.sum()),
        "median": median_of_counts(counts),
        "min": float(values[0]),
        "max": float(values[-1]),
    }


def grouped_counts(tally: Mapping[Hashable, float], name: str) -> dict[tuple, dict[float, float]]:
    """The counts of ``name`` in ``tally`` by group: ``{group: {value: count}}`` (group a tuple)."""
    out: dict[tuple, dict[float, float]] = {}
    for key, count in tally.items():
        if isinstance(key, tuple) and key[0] == name:
            out.setdefault(tuple(key[1:-1]), {})[key[-1]] = count
    return out
