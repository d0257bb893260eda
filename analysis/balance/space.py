"""Search spaces over rule parameters: numbers, choices, lists and card counts.

A parameter names a dotted rule key (``physics.friction``), an element of a list rule
(``zones.values[0]``), a whole list (``zones.values`` with ``kind = "int_list"``) or a group of
counts with a fixed total (``kind = "counts"``, ``keys = ["deck.tir.count", ...]``,
``total = 34``). A point of the space is a dict ``name -> value``; :meth:`SearchSpace.overrides`
turns it into the rule overrides the runner applies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from sim.core.config import param

__all__ = ["Parameter", "SearchSpace", "repair_counts"]

_ELEMENT = re.compile(r"^(?P<key>[\w.]+)\[(?P<index>\d+)\]$")


@dataclass(frozen=True)
class Parameter:
    """One dimension (or one group of dimensions) of a search space.

    Attributes:
        key: the dotted rule key; ``key[i]`` for one element of a list rule.
        kind: ``int``, ``float``, ``choice``, ``int_list`` (a whole list, one dimension per
            element) or ``counts`` (integers over ``keys`` summing to ``total``).
        low, high: bounds (inclusive) of every element.
        step: grid step for ``int`` / ``int_list`` / ``counts`` (and the NTBEA grid of floats).
        levels: number of grid points for a float in discrete searches (NTBEA, Morris).
        choices: the values of a ``choice``.
        length: elements of an ``int_list``.
        order: ``decreasing`` / ``increasing`` keeps an ``int_list`` sorted (values are sorted
            after sampling, so every point is valid).
        keys: the rule keys of a ``counts`` group.
        total: the fixed sum of a ``counts`` group (0 = free).
    """

    key: str = param("", doc="dotted rule key, key[i] for a list element")
    kind: Literal["int", "float", "choice", "int_list", "counts"] = "float"
    low: float = 0.0
    high: float = 1.0
    step: float = param(1.0, min=0.0, min_exclusive=True)
    levels: int = param(5, min=2)
    choices: tuple[Any, ...] = ()
    length: int = param(0, min=0)
    order: Literal["", "decreasing", "increasing"] = ""
    keys: tuple[str, ...] = ()
    total: int = param(0, min=0)

    @property
    def name(self) -> str:
        return self.key if self.kind != "counts" else (self.key or "counts")

    def problems(self):
        if self.kind != "counts" and not self.key:
            yield "key", "missing; the dotted rule key to search"
        if self.kind in ("int", "float", "int_list", "counts") and self.low > self.high:
            yield "low", f"must be <= high ({self.high})"
        if self.kind == "choice" and not self.choices:
            yield "choices", "expected at least one value"
        if self.kind == "int_list" and self.length < 1:
            yield "length", "expected the number of elements (>= 1)"
        if self.kind == "counts":
            if not self.keys:
                yield "keys", "expected the rule keys of the counts"
            elif self.total and not (self.low * len(self.keys) <= self.total <= self.high * len(self.keys)):
                yield "total", f"{self.total} cannot be reached with {len(self.keys)} counts in [{self.low}, {self.high}]"

    # the discrete grid of one dimension (NTBEA, Morris levels) ------------------------------
    def grid(self) -> list[Any]:
        if self.kind == "choice":
            return list(self.choices)
        if self.kind == "float":
            return [float(v) for v in np.linspace(self.low, self.high, self.levels)]
        step = max(1, int(self.step))
        return list(range(int(self.low), int(self.high) + 1, step))

    @property
    def dimensions(self) -> int:
        return {"int_list": self.length, "counts": len(self.keys)}.get(self.kind, 1)


def repair_counts(raw: list[float], low: int, high: int, total: int) -> list[int]:
    """Integers in [low, high] summing to ``total``, as close as possible to ``raw``.

    Scales ``raw`` to the total, rounds by largest remainder, then moves single units from
    the fullest to the emptiest counts until every bound holds. Deterministic.

    >>> repair_counts([1, 1, 2], 0, 10, 8)
    [2, 2, 4]
    """
    values = np.clip(np.asarray(raw, dtype=float), low, high)
    if not total:
        return [int(round(v)) for v in values]
    scaled = values * total / values.sum() if values.sum() > 0 else np.full(len(values), total / len(values))
    counts = np.floor(scaled).astype(int)
    for index in np.argsort(-(scaled - counts), kind="stable")[: total - counts.sum()]:
        counts[index] += 1
    counts = np.clip(counts, low, high)
    while counts.sum() != total:
        if counts.sum() < total:
            room = np.where(counts < high)[0]
            counts[room[np.argmin(counts[room])]] += 1
        else:
            room = np.where(counts > low)[0]
            counts[room[np.argmax(counts[room])]] -= 1
    return [int(v) for v in counts]


@dataclass(frozen=True)
class SearchSpace:
    """The parameters of a search and the baseline rules they modify."""

    parameters: tuple[Parameter, ...]
    baseline: dict = field(default_factory=dict)  # the baseline rules as a nested dict

    # points -----------------------------------------------------------------------------
    def normalise(self, point: dict[str, Any]) -> dict[str, Any]:
        """Apply orders, grids and count totals so that every point is a valid rule set."""
        out = dict(point)
        for p in self.parameters:
            value = out[p.name]
            if p.kind == "int":
                out[p.name] = int(value)
            elif p.kind == "float":
                out[p.name] = float(value)
            elif p.kind == "int_list":
                values = [int(v) for v in value]
                if p.order:
                    values = sorted(values, reverse=p.order == "decreasing")
                out[p.name] = values
            elif p.kind == "counts":
                out[p.name] = repair_counts(list(value), int(p.low), int(p.high), p.total)
        return out

    def suggest(self, trial) -> dict[str, Any]:
        """A point drawn by an optuna trial (one optuna distribution per dimension)."""
        point: dict[str, Any] = {}
        for p in self.parameters:
            if p.kind == "int":
                point[p.name] = trial.suggest_int(p.name, int(p.low), int(p.high), step=max(1, int(p.step)))
            elif p.kind == "float":
                point[p.name] = trial.suggest_float(p.name, p.low, p.high)
            elif p.kind == "choice":
                point[p.name] = trial.suggest_categorical(p.name, list(p.choices))
            elif p.kind in ("int_list", "counts"):
                names = self.element_names(p)
                point[p.name] = [trial.suggest_int(n, int(p.low), int(p.high), step=max(1, int(p.step)))
                                 for n in names]
        return self.normalise(point)

    def element_names(self, p: Parameter) -> list[str]:
        if p.kind == "counts":
            return list(p.keys)
        return [f"{p.key}[{i}]" for i in range(p.length)]

    def discrete_dimensions(self) -> list[tuple[str, list[Any]]]:
        """(dimension name, grid) for every scalar dimension (lists and counts element-wise)."""
        dims = []
        for p in self.parameters:
            if p.kind in ("int_list", "counts"):
                dims += [(name, p.grid()) for name in self.element_names(p)]
            else:
                dims.append((p.name, p.grid()))
        return dims

    def from_dimensions(self, values: dict[str, Any]) -> dict[str, Any]:
        """Group element-wise dimension values back into parameters, then normalise."""
        point: dict[str, Any] = {}
        for p in self.parameters:
            if p.kind in ("int_list", "counts"):
                point[p.name] = [values[n] for n in self.element_names(p)]
            else:
                point[p.name] = values[p.name]
        return self.normalise(point)

    # rules ------------------------------------------------------------------------------
    def overrides(self, point: dict[str, Any]) -> list[tuple[str, Any]]:
        """The rule overrides of a point (list elements merged into their list)."""
        pairs: list[tuple[str, Any]] = []
        lists: dict[str, list] = {}
        for p in self.parameters:
            value = point[p.name]
            if p.kind == "counts":
                pairs += list(zip(p.keys, value))
                continue
            match = _ELEMENT.match(p.key)
            if match:
                key, index = match["key"], int(match["index"])
                if key not in lists:
                    lists[key] = list(_lookup(self.baseline, key))
                lists[key][index] = value
            else:
                pairs.append((p.key, value))
        return pairs + list(lists.items())


def _lookup(data: dict, dotted: str) -> Any:
    node: Any = data
    for part in dotted.split("."):
        node = node[part]
    return node


