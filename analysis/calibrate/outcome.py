"""The per-round outcome a sheet records, read off simulated tables, and its categories.

A sheet's value column (``points``, ``position``) names a column of the game's ``rounds``
table (the same name, unless the game maps it: ``GameSpec.sheet.columns``, e.g. a race game's
``position`` ← ``arrival``); a word in the sheet (``ko``) is a boolean column of that table,
true for the rounds that end that way. Values are grouped into a few ordered categories (at
most ``max_bins`` numeric bins holding at least ``min_share`` of the simulated rounds each, then
one category per word): the emulator models the probability of each.

Richer sheets (per throw, per stroke) are further outcomes of the same kind read off the
``events`` table: each adds its own categories and emulator, and its log-likelihood to the fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.core.config import ConfigError

__all__ = ["Categories", "RoundOutcome", "make_categories"]


@dataclass(frozen=True)
class RoundOutcome:
    """The sheet's column, the rounds column it is read from and the word columns."""

    column: str
    source: str
    tokens: tuple[str, ...] = ()

    def check_columns(self, rounds: pd.DataFrame, game: str, where: str) -> None:
        """Refuse (one line) a sheet the game's rounds table cannot answer."""
        if self.source not in rounds.columns:
            raise ConfigError(
                [
                    f"{where}: column {self.column}: {game}'s rounds table has no {self.source!r} "
                    f"column to compare it with (the game may map it: GameSpec.sheet.columns)"
                ]
            )
        for token in self.tokens:
            if token not in rounds.columns or rounds[token].dtype != bool:
                raise ConfigError(
                    [
                        f"{where}: column {self.column}: {token!r} is not an outcome {game} records "
                        f"(a boolean column of its rounds table); allowed: numbers"
                        + "".join(f", {c}" for c in rounds.columns if rounds[c].dtype == bool)
                    ]
                )

    def values(self, rounds: pd.DataFrame) -> list[float | str]:
        """Each rounds row's outcome: the first of its true word columns, else its number."""
        out: list[float | str] = [float(v) for v in rounds[self.source]]
        for token in self.tokens:
            for i in np.flatnonzero(rounds[token].to_numpy(dtype=bool)):
                if not isinstance(out[i], str):
                    out[i] = token
        return out


@dataclass(frozen=True)
class Categories:
    """Ordered numeric bins (``uppers``: the largest value of each; the last takes every larger
    one), then one category per word."""

    uppers: tuple[float, ...]
    lowers: tuple[float, ...]
    tokens: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.uppers) + len(self.tokens)

    def codes(self, values: Sequence[float | str]) -> np.ndarray:
        numbers = np.array([v if not isinstance(v, str) else np.nan for v in values], dtype=float)
        codes = np.searchsorted(np.asarray(self.uppers[:-1]), numbers, side="left")
        for k, token in enumerate(self.tokens):
            codes[[isinstance(v, str) and v == token for v in values]] = len(self.uppers) + k
        return codes.astype(int)

    @property
    def labels(self) -> list[str]:
        labels = []
        for k, (low, high) in enumerate(zip(self.lowers, self.uppers)):
            if low == high:
                labels.append(f"{low:g}")
            elif k == len(self.uppers) - 1:
                labels.append(f"≥ {low:g}")
            else:
                labels.append(f"{low:g}–{high:g}")
        return labels + list(self.tokens)


def _merge_small(groups: list[list[tuple[float, int]]], least: float) -> list[list[tuple[float, int]]]:
    """Merge bins holding fewer than ``least`` rounds into their smaller neighbour."""
    while len(groups) > 1:
        counts = [sum(c for _, c in g) for g in groups]
        k = int(np.argmin(counts))
        if counts[k] >= least:
            break
        if k == 0 or (k < len(groups) - 1 and counts[k + 1] < counts[k - 1]):
            groups[k : k + 2] = [groups[k] + groups[k + 1]]
        else:
            groups[k - 1 : k + 1] = [groups[k - 1] + groups[k]]
    return groups


def make_categories(
    simulated: Sequence[float | str], observed: Sequence[float | str], max_bins: int = 10, min_share: float = 0.02
) -> Categories:
    """Categories from the simulated outcomes (bins of about equal counts) and the sheet's words."""
    numbers = pd.Series([v for v in simulated if not isinstance(v, str)], dtype=float)
    if numbers.empty:
        numbers = pd.Series([v for v in observed if not isinstance(v, str)] or [0.0], dtype=float)
    counts = numbers.value_counts().sort_index()
    total = float(counts.sum())
    groups: list[list[tuple[float, int]]] = [[]]
    left = total
    for value, count in counts.items():
        held = sum(c for _, c in groups[-1])
        if groups[-1] and held >= left / max(max_bins - len(groups) + 1, 1):
            left -= held
            groups.append([])
        groups[-1].append((float(value), int(count)))
    groups = _merge_small(groups, min_share * total)
    words = sorted({v for v in [*simulated, *observed] if isinstance(v, str)})
    return Categories(
        uppers=tuple(g[-1][0] for g in groups), lowers=tuple(g[0][0] for g in groups), tokens=tuple(words)
    )
