"""N-Tuple Bandit Evolutionary Algorithm for small, noisy, discrete spaces.

After Lucas, Liu & Perez-Liebana (CEC 2018) and TAG's ``ParameterSearch``: every evaluated
point updates bandit statistics of its 1-tuples (one dimension's value), 2-tuples (a pair of
dimensions' values) and the full tuple; the next point is the best of ``neighbours`` mutations
of the current one, scored by the mean UCB over its tuples; the recommendation is the
evaluated point with the best tuple-mean estimate (no exploration term).

Maximises a reward; pass ``-loss`` to minimise. Randomness only from the given generator.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["NTBEA"]


class NTBEA:
    """Ask / tell NTBEA over named discrete dimensions.

    Args:
        dimensions: (name, values) per dimension.
        rng: numpy Generator (the only source of randomness).
        neighbours: mutations scored per step.
        mutation_rate: probability that each dimension mutates (at least one always does).
        exploration: the UCB constant c, in reward units (rewards around ±1 suit c ≈ 1).
        pairs: also keep 2-tuple statistics.
    """

    def __init__(
        self,
        dimensions: Sequence[tuple[str, Sequence[Any]]],
        rng: np.random.Generator,
        neighbours: int = 50,
        mutation_rate: float | None = None,
        exploration: float = 1.0,
        pairs: bool = True,
    ):
        self.names = [name for name, _ in dimensions]
        self.values = [list(values) for _, values in dimensions]
        self.rng = rng
        self.neighbours = neighbours
        self.mutation_rate = mutation_rate if mutation_rate is not None else 1.0 / max(1, len(self.names))
        self.exploration = exploration
        tuples = [(i,) for i in range(len(self.names))]
        if pairs and len(self.names) > 1:
            tuples += list(itertools.combinations(range(len(self.names)), 2))
        if len(self.names) > 2:
            tuples.append(tuple(range(len(self.names))))
        self.tuples = tuples
        self.stats: dict[tuple, list[float]] = defaultdict(lambda: [0, 0.0])  # n, sum
        self.evaluated: dict[tuple, list[float]] = {}
        self.total = 0
        self.current: tuple[int, ...] | None = None

    # encoding ---------------------------------------------------------------------------
    def _decode(self, index: tuple[int, ...]) -> dict[str, Any]:
        return {name: self.values[d][i] for d, (name, i) in enumerate(zip(self.names, index))}

    def _encode(self, point: dict[str, Any]) -> tuple[int, ...]:
        return tuple(self.values[d].index(point[name]) for d, name in enumerate(self.names))

    # model ------------------------------------------------------------------------------
    def _score(self, index: tuple[int, ...], explore: bool) -> float:
        scores = []
        for dims in self.tuples:
            n, total = self.stats[(dims, tuple(index[d] for d in dims))]
            if n == 0:
                if explore:
                    scores.append(1e6)
                continue
            bonus = self.exploration * math.sqrt(math.log(self.total + 1) / n) if explore else 0.0
            scores.append(total / n + bonus)
        return float(np.mean(scores)) if scores else 0.0

    def _mutate(self, index: tuple[int, ...]) -> tuple[int, ...]:
        out = list(index)
        mutate = self.rng.random(len(out)) < self.mutation_rate
        if not mutate.any():
            mutate[self.rng.integers(len(out))] = True
        for d in np.flatnonzero(mutate):
            choices = [i for i in range(len(self.values[d])) if i != out[d]] or [out[d]]
            out[d] = int(choices[self.rng.integers(len(choices))])
        return tuple(out)

    # ask / tell -------------------------------------------------------------------------
    def ask(self) -> dict[str, Any]:
        """The next point to evaluate."""
        if self.current is None:
            self.current = tuple(int(self.rng.integers(len(v))) for v in self.values)
            return self._decode(self.current)
        candidates = {self._mutate(self.current) for _ in range(self.neighbours)}
        ranked = sorted(candidates, key=lambda c: (-self._score(c, True), c))
        self.current = ranked[0]
        return self._decode(self.current)

    def tell(self, point: dict[str, Any], reward: float) -> None:
        """Record the reward of an evaluated point (any point of the space)."""
        index = self._encode(point)
        self.total += 1
        for dims in self.tuples:
            entry = self.stats[(dims, tuple(index[d] for d in dims))]
            entry[0] += 1
            entry[1] += reward
        self.evaluated.setdefault(index, []).append(reward)
        if self.current is None:
            self.current = index

    def recommend(self) -> dict[str, Any]:
        """The evaluated point with the best model estimate (tuple means, no exploration)."""
        best = max(self.evaluated, key=lambda idx: (self._score(idx, False), idx))
        return self._decode(best)
