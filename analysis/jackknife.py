"""The groups of the delete-a-group jackknife over seeds, and each group's tally of a game's metrics.

Used by :mod:`analysis.game_effects` (the intervals and effects of a game's own metrics) and by
:mod:`analysis.streamed` (the same, gathered in one pass over a large results directory).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.core.tally import merge_tallies

__all__ = ["MAX_GROUPS", "jackknife_groups", "group_tallies", "has_tally"]

#: Groups of seeds of the jackknife (fewer if the cell has fewer seeds).
MAX_GROUPS = 20


def jackknife_groups(seeds, groups: int = MAX_GROUPS) -> dict[int, int]:
    """Seed → group (0..K−1): the sorted seeds cut into K consecutive blocks of (nearly) equal
    size, so every variant gets the same groups and a slice of a large run (consecutive seeds,
    :func:`sim.core.stream.iter_slices`) falls in one or two groups."""
    unique = np.unique(np.asarray(seeds))
    k = max(1, min(groups, unique.size))
    return {int(seed): position * k // unique.size for position, seed in enumerate(unique)}


def group_tallies(spec, tables, groups: dict[int, int], into: dict[int, dict] | None = None) -> dict[int, dict]:
    """The game's tally (``spec.tally``) of each jackknife group's matches in ``tables``, merged
    into ``into`` (so the slices of a large run add up group by group)."""
    into = {} if into is None else into
    matches = tables["matches"]
    if not len(matches):
        return into
    group_of_match = pd.Series([groups[int(s)] for s in matches["seed"]], index=matches["match"].to_numpy())
    for group, numbers in group_of_match.groupby(group_of_match, sort=True):
        keep = set(numbers.index)
        part = {
            name: frame[frame["match"].isin(keep)] if "match" in frame.columns else frame
            for name, frame in tables.items()
        }
        merge_tallies(into.setdefault(int(group), {}), spec.tally(part))
    return into


def has_tally(spec) -> bool:
    """Whether the game's metrics add up over slices (``tally`` and ``summary_from_tally``)."""
    return getattr(spec, "tally", None) is not None and getattr(spec, "summary_from_tally", None) is not None
