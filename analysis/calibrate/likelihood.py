"""The sheet's composite log-likelihood under the emulator, as a function of every player's
numbers: the sum over matches and seats of the log-probability of each round's category.

Rows of the sheet are gathered into one count vector per match × seat (its player, the
players of the other seats, the categories of its rounds), so an evaluation costs one feature
matrix per seat, whatever the sheet's length. ``theta`` is (players, d) in [0, 1].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .emulator import Emulator

__all__ = ["Group", "Likelihood"]


@dataclass(frozen=True)
class Group:
    """The sheet's match × seat count vectors for one line-up size ``n``.

    Attributes:
        own: (K,) the player of each match × seat (index into the sheet's players).
        others: (K, n - 1) the players of the match's other seats.
        seat: (K,) the seat.
        cluster: (K,) the match (index into the sheet's matches).
        counts: (K, C) rounds of each category.
    """

    n_players: int
    own: np.ndarray
    others: np.ndarray
    seat: np.ndarray
    cluster: np.ndarray
    counts: np.ndarray


class Likelihood:
    """ℓ(theta) of a sheet's groups under one emulator per line-up size."""

    def __init__(self, emulators: dict[int, Emulator], groups: list[Group], players: int, d: int):
        self.emulators, self.groups, self.players, self.d = emulators, groups, players, d

    def _own_other(self, theta: np.ndarray, group: Group) -> tuple[np.ndarray, np.ndarray]:
        own = theta[group.own]
        other = theta[group.others].mean(axis=1) if group.others.shape[1] else np.full_like(own, 0.5)
        return own, other

    def log_probs(self, theta: np.ndarray, group: Group) -> np.ndarray:
        """(K, C) log-probabilities of every category for each match × seat of ``group``."""
        emulator = self.emulators[group.n_players]
        own, other = self._own_other(theta, group)
        out = np.zeros(group.counts.shape)
        # The seats share one basis: its features are built once for every row (row by row, so
        # each seat's rows are the same numbers as when built alone), then each seat's softmax.
        first = emulator.seats[0].basis
        x = first.matrix(own, other) if all(m.basis is first or m.basis == first for m in emulator.seats) else None
        for seat, model in enumerate(emulator.seats):
            rows = group.seat == seat
            if rows.any():
                out[rows] = model.log_prob(own[rows], other[rows], x=None if x is None else x[rows])
        return out

    def contributions(self, theta: np.ndarray) -> np.ndarray:
        """ℓ of each match × seat, groups concatenated."""
        theta = np.asarray(theta, dtype=float).reshape(self.players, self.d)
        return np.concatenate([(g.counts * self.log_probs(theta, g)).sum(axis=1) for g in self.groups])

    def __call__(self, theta: np.ndarray) -> float:
        return float(self.contributions(theta).sum())

    @property
    def clusters(self) -> np.ndarray:
        return np.concatenate([g.cluster for g in self.groups])

    def beta_gradient(self, theta: np.ndarray, n_players: int) -> np.ndarray:
        """∂ℓ/∂beta of the emulator for ``n_players``, its seats' coefficients stacked."""
        theta = np.asarray(theta, dtype=float).reshape(self.players, self.d)
        emulator = self.emulators[n_players]
        parts = []
        for seat, model in enumerate(emulator.seats):
            grad = np.zeros_like(model.beta)
            for group in self.groups:
                rows = (group.seat == seat) if group.n_players == n_players else np.zeros(len(group.seat), bool)
                if not rows.any():
                    continue
                own, other = self._own_other(theta, group)
                x = model.basis.matrix(own[rows], other[rows])
                counts = group.counts[rows]
                p = np.exp(model.log_prob(own[rows], other[rows]))
                grad += (counts - counts.sum(axis=1, keepdims=True) * p).T @ x
            parts.append(grad.ravel())
        return np.concatenate(parts)
