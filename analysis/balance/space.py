"""Search spaces over rule parameters: numbers, choices, lists and card counts.

A parameter names a dotted rule key (``physics.friction``), an element of a list rule
(``zones.values[0]``), a whole list (``zones.values`` with ``kind = "int_list"``) or a group of
counts with a fixed total (``kind = "counts"``, ``keys = ["deck.tir.count", ...]``,
``total = 34``). A point of the space is a dict ``name -> value``; :meth:`SearchSpace.overrides`
turns it into the rule overrides the runner applies, and :class:`PointNames` into the text a
person reads (each element of a list or a count named as the rules name it).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from sim.core.config import param

__all__ = ["Parameter", "SearchSpace", "repair_counts", "ElementName", "PointNames"]

_ELEMENT = re.compile(r"^(?P<key>[\w.]+)\[(?P<index>\d+)\]$")
#: In a list rule's doc, what one element is ("value of each ring") and which comes first
#: ("innermost first").
_EACH = re.compile(r"\beach (?P<noun>[A-Za-z][\w-]*)")
_FIRST = re.compile(r"\b(?P<end>\w+most) first\b")
_OPPOSITE_END = {
    "innermost": "outermost",
    "outermost": "innermost",
    "leftmost": "rightmost",
    "rightmost": "leftmost",
    "topmost": "bottommost",
    "bottommost": "topmost",
}


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
                yield (
                    "total",
                    f"{self.total} cannot be reached with {len(self.keys)} counts in [{self.low}, {self.high}]",
                )

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
                point[p.name] = [trial.suggest_int(n, int(p.low), int(p.high), step=max(1, int(p.step))) for n in names]
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


# names for people --------------------------------------------------------------------------


@dataclass(frozen=True)
class ElementName:
    """What a person calls one element of a list or counts parameter.

    Attributes:
        text: the name the rules give it ("Aspiration", "ring 1 (innermost)") or, when they give
            none, its rule key ("deck.tir.count", "zones.values[0]").
        named: True for a name (shown "Aspiration 3"), False for a rule key (shown "key=3").
    """

    text: str
    named: bool

    def show(self, value: Any) -> str:
        return f"{self.text} {_value_text(value)}" if self.named else f"{self.text}={_value_text(value)}"


@dataclass(frozen=True)
class PointNames:
    """Points of a space as a person reads them, each list element named as the game's rules name it.

    A count (``deck.<id>.count``) takes the ``name`` of its rule table (a card's name); an element
    of a list rule the noun and order of the list's documentation ("value of each ring, innermost
    first": ``ring 1 (innermost)``, ``ring 2``, ...); otherwise its rule key (``key[0]=…``).

    Attributes:
        space: the search space (its baseline rules hold the names of counted things).
        rules_type: the game's rules dataclass (its field docs name list elements); None: keys only.
    """

    space: SearchSpace
    rules_type: type | None = None

    def point(self, point: dict[str, Any]) -> str:
        """``"action-cards: Aspiration 1, Laitue Bleue 3, ...; physics.friction = 0.3"``."""
        return "; ".join(self.value(name, value) for name, value in point.items())

    def value(self, name: str, value: Any) -> str:
        """One parameter's value with the names of its elements."""
        p = self.parameter(name)
        if p is None or p.kind in ("int", "float", "choice") and not _ELEMENT.match(p.key):
            return f"{name} = {_value_text(value)}"
        labels = self.elements(p)
        if p.kind in ("int_list", "counts"):
            text = ", ".join(label.show(v) for label, v in zip(labels, value))
            return f"{name}: {text}" if p.kind == "counts" or any(label.named for label in labels) else text
        label = labels[0]
        return f"{_ELEMENT.match(p.key)['key']}: {label.show(value)}" if label.named else label.show(value)

    def parameter(self, name: str) -> Parameter | None:
        return next((p for p in self.space.parameters if p.name == name), None)

    def elements(self, p: Parameter) -> list[ElementName]:
        """The name of each element of ``p`` (one for a ``key[i]`` parameter, none for a scalar)."""
        if p.kind == "counts":
            return [self._count(key) for key in p.keys]
        if p.kind == "int_list":
            return self._list(p.key, p.length)
        match = _ELEMENT.match(p.key)
        if not match:
            return []
        index = int(match["index"])
        try:
            length = len(_lookup(self.space.baseline, match["key"]))
        except (KeyError, TypeError):
            length = index + 1
        return [self._list(match["key"], max(length, index + 1))[index]]

    def dimension_names(self, p: Parameter) -> dict[str, str]:
        """Each dimension of ``p`` (``space.element_names``) -> its name for people."""
        if p.kind not in ("int_list", "counts"):
            labels = self.elements(p)
            named = labels and labels[0].named
            return {p.name: f"{_ELEMENT.match(p.key)['key']}: {labels[0].text}" if named else p.name}
        prefix = f"{p.key}: " if p.kind == "int_list" else ""
        return {
            key: prefix + label.text if label.named else label.text
            for key, label in zip(self.space.element_names(p), self.elements(p))
        }

    def _count(self, key: str) -> ElementName:
        parent = key.rsplit(".", 1)[0]
        try:
            table = _lookup(self.space.baseline, parent) if parent != key else None
        except (KeyError, TypeError):
            table = None
        name = table.get("name") if isinstance(table, dict) else None
        return ElementName(name, True) if isinstance(name, str) and name.strip() else ElementName(key, False)

    def _list(self, key: str, length: int) -> list[ElementName]:
        doc = _rule_doc(self.rules_type, key)
        noun = _EACH.search(doc)
        if noun is None:
            return [ElementName(f"{key}[{i}]", False) for i in range(length)]
        first = _FIRST.search(doc)
        ends = {0: first["end"]} if first else {}
        if first and first["end"] in _OPPOSITE_END and length > 1:
            ends[length - 1] = _OPPOSITE_END[first["end"]]
        return [
            ElementName(f"{noun['noun']} {i + 1}" + (f" ({ends[i]})" if i in ends else ""), True) for i in range(length)
        ]


def _rule_doc(rules_type: type | None, dotted: str) -> str:
    """The documentation of a dotted rule key in the rules dataclass ("" if none)."""
    node: Any = rules_type
    doc = ""
    for part in dotted.split("."):
        if node is None or not dataclasses.is_dataclass(node):
            return ""
        found = next((f for f in dataclasses.fields(node) if f.name == part), None)
        if found is None:
            return ""
        doc = found.metadata.get("doc", "")
        default = (
            found.default
            if found.default is not dataclasses.MISSING
            else (found.default_factory() if found.default_factory is not dataclasses.MISSING else None)
        )
        node = type(default) if dataclasses.is_dataclass(default) else None
    return doc


def _value_text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    return str(value)
