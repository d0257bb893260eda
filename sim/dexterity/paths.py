"""The engine's recorded paths, thinned for drawing (the dexterity games' animated replays)."""

from __future__ import annotations

import numpy as np

__all__ = ["MAX_VERTICES", "subsampled_path"]

#: Largest number of path vertices kept per disc and frame (evenly subsampled, ends kept).
MAX_VERTICES = 60


def subsampled_path(path, max_vertices: int = MAX_VERTICES) -> list[list[float]]:
    """At most ``max_vertices`` rows (t, x, y) of a path, evenly spaced, first and last kept (at
    least two: a disc that did not move stays where it was); t in s, x and y in m, rounded.

    >>> subsampled_path([[0.0, 1.0, 2.0]])
    [[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]
    >>> len(subsampled_path(np.c_[np.arange(500.0), np.zeros(500), np.zeros(500)]))
    60
    """
    path = np.asarray(path, dtype=float)
    if len(path) == 1:
        path = np.vstack([path, path])
    if len(path) > max_vertices:
        path = path[np.unique(np.linspace(0, len(path) - 1, max_vertices).round().astype(int))]
    return [[round(float(t), 4), round(float(x), 5), round(float(y), 5)] for t, x, y in path]
