"""The emulator: the probability of each outcome category of a seat's round, as a smooth
function of the line-up's profile numbers, fitted once to simulations on a design.

For seat ``s`` of an ``n``-player line-up, with ``own`` its player's numbers and ``other``
the mean of the other seats' numbers (each axis scaled to [0, 1]), the category
probabilities are a softmax of ``x(own, other) @ beta_s``. ``x`` is, for every axis, the
tensor product of cubic B-splines in ``own`` and in ``other`` (knots at the skill path's
presets, or at thirds of a key's range), plus the products of different axes of ``own``. The
coefficients are penalised by second differences along each spline direction (P-splines,
Eilers & Marx 1996); the penalty is chosen by cross-validation over the design's matches.

Fitted on the counts per design point, seat and match, the emulator also knows its own
uncertainty: the sandwich covariance of ``beta`` clustered by match (the rounds of one match
may depend on each other; every match of the design has its own seeds), which :mod:`.fit`
carries into the fitted profiles' intervals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from scipy.interpolate import BSpline
from threadpoolctl import threadpool_limits

__all__ = ["PENALTIES", "Basis", "Emulator", "SeatModel", "fit_seat_model", "log_softmax"]

#: The penalties cross-validation chooses from (per unit of log-likelihood).
PENALTIES = (1000.0, 100.0, 10.0, 1.0)
RIDGE = 1e-3
FOLDS = 4


def log_softmax(z: np.ndarray, axis: int = 1) -> np.ndarray:
    z = z - z.max(axis=axis, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=axis, keepdims=True))


def softmax(z: np.ndarray, axis: int = 1) -> np.ndarray:
    return np.exp(log_softmax(z, axis))


@dataclass(frozen=True)
class Basis:
    """The features of one seat's round.

    Attributes:
        own: per axis, the interior knots (in [0, 1]) of the seat's own number.
        other: per axis, those of the other seats' mean (empty tuple: a one-seat game).
    """

    own: tuple[tuple[float, ...], ...]
    other: tuple[tuple[float, ...], ...] = ()

    @property
    def d(self) -> int:
        return len(self.own)

    @property
    def others(self) -> bool:
        return bool(self.other)

    @cached_property
    def _curves(self) -> dict[tuple[str, int], BSpline]:
        """Every cubic B-spline of an axis's knots as one vector-valued spline."""
        curves = {}
        for kind, knots_of in (("own", self.own), ("other", self.other)):
            for k, interior in enumerate(knots_of):
                knots = np.r_[[0.0] * 4, interior, [1.0] * 4]
                curves[(kind, k)] = BSpline(knots, np.eye(len(knots) - 4), 3, extrapolate=False)
        return curves

    def _splines(self, x: np.ndarray, kind: str, axis: int) -> np.ndarray:
        return self._curves[(kind, axis)](np.clip(x, 0.0, 1.0))

    def _sizes(self) -> list[tuple[int, int]]:
        return [(len(self.own[k]) + 4, len(self.other[k]) + 4 if self.others else 1) for k in range(self.d)]

    def matrix(self, own: np.ndarray, other: np.ndarray) -> np.ndarray:
        """Features of rows ``own`` (R, d), ``other`` (R, d): (R, F)."""
        own, other = np.atleast_2d(own), np.atleast_2d(other)
        blocks = []
        for k in range(self.d):
            a = self._splines(own[:, k], "own", k)
            if self.others:
                b = self._splines(other[:, k], "other", k)
                a = (a[:, :, None] * b[:, None, :]).reshape(len(own), -1)
            blocks.append(a)
        blocks += [own[:, [i]] * own[:, [j]] for i in range(self.d) for j in range(i + 1, self.d)]
        return np.hstack(blocks)

    def penalty(self) -> np.ndarray:
        """Second differences along each spline direction (a small ridge on the products)."""
        parts = []
        for m, n in self._sizes():
            d2m, d2n = (np.diff(np.eye(size), 2, axis=0) if size > 2 else np.zeros((0, size)) for size in (m, n))
            parts.append(np.kron(d2m.T @ d2m, np.eye(n)) + np.kron(np.eye(m), d2n.T @ d2n))
        extra = self.d * (self.d - 1) // 2
        size = sum(p.shape[0] for p in parts) + extra
        out = np.zeros((size, size))
        at = 0
        for p in parts:
            out[at : at + len(p), at : at + len(p)] = p
            at += len(p)
        out[at:, at:] = np.eye(extra)
        return out


@dataclass
class SeatModel:
    """One seat's softmax: ``beta`` (C, F); ``penalty`` the chosen one."""

    basis: Basis
    beta: np.ndarray
    penalty: float

    def log_prob(
        self, own: np.ndarray, other: np.ndarray, beta: np.ndarray | None = None, x: np.ndarray | None = None
    ) -> np.ndarray:
        """log P(category) for rows (R, d): (R, C); ``x``: their features when already built."""
        x = self.basis.matrix(own, other) if x is None else x
        return log_softmax(x @ (self.beta if beta is None else beta).T, axis=1)


def _objective(beta: np.ndarray, x: np.ndarray, counts: np.ndarray, pen: np.ndarray) -> float:
    """Penalised negative log-likelihood of counts (J, C) at features x (J, F)."""
    return float(-(counts * log_softmax(x @ beta.T, axis=1)).sum() + 0.5 * np.einsum("cf,fg,cg->", beta, pen, beta))


def _hessian(x: np.ndarray, total: np.ndarray, p: np.ndarray, pen: np.ndarray) -> np.ndarray:
    """The objective's Hessian (C·F, C·F) at probabilities p (J, C), ``total`` rounds per point."""
    C, F = p.shape[1], x.shape[1]
    hess = np.zeros((C, F, C, F))
    for a in range(C):
        for b in range(a, C):
            w = total * p[:, a] * ((a == b) - p[:, b])
            hess[a, :, b, :] = hess[b, :, a, :] = (x * w[:, None]).T @ x
    return hess.reshape(C * F, C * F) + np.kron(np.eye(C), pen)


def _fit(
    x: np.ndarray, counts: np.ndarray, pen: np.ndarray, steps: int = 100, start: np.ndarray | None = None
) -> np.ndarray:
    """Newton's method with step halving (the objective is convex; the ridge makes it strictly so),
    from ``start`` (a warm start) or zero."""
    C, F = counts.shape[1], x.shape[1]
    beta = np.zeros((C, F)) if start is None else start.copy()
    total = counts.sum(axis=1)
    value = _objective(beta, x, counts, pen)
    for _ in range(steps):
        p = softmax(x @ beta.T, axis=1)
        grad = (-(counts - total[:, None] * p).T @ x + beta @ pen).ravel()
        step = np.linalg.solve(_hessian(x, total, p, pen), grad).reshape(C, F)
        for _ in range(30):
            trial = beta - step
            new = _objective(trial, x, counts, pen)
            if new <= value + 1e-12:
                break
            step = step / 2
        beta, done = trial, value - new < 1e-9 * max(1.0, abs(value))
        value = new
        if done:
            break
    return beta


def _choose_penalty(x: np.ndarray, counts: np.ndarray, base: np.ndarray) -> float:
    """The penalty with the best held-out log-likelihood over folds of matches (counts: M, J, C)."""
    seeds = counts.shape[0]
    folds = [np.arange(seeds) % FOLDS == f for f in range(min(FOLDS, seeds))]
    scores = []
    warm: dict[int, np.ndarray] = {}
    for lam in PENALTIES:
        held = 0.0
        for f, fold in enumerate(folds):
            train, test = counts[~fold].sum(axis=0), counts[fold].sum(axis=0)
            if not train.any():
                continue
            beta = warm[f] = _fit(x, train, lam * base + RIDGE * np.eye(len(base)), start=warm.get(f))
            held += (test * log_softmax(x @ beta.T, axis=1)).sum()
        scores.append(held)
    return PENALTIES[int(np.argmax(scores))]


def fit_seat_model(
    basis: Basis, own: np.ndarray, other: np.ndarray, counts: np.ndarray
) -> tuple[SeatModel, np.ndarray]:
    """Fit one seat's model to counts (M matches, J design points, C) at (J, d) ``own`` / ``other``.

    Returns the model and the per-match scores (M·J, C·F) and penalised Hessian (C·F, C·F)
    that :class:`Emulator` turns into the coefficients' sandwich covariance.
    """
    x = basis.matrix(own, other)
    base = basis.penalty()
    lam = _choose_penalty(x, counts, base) if counts.shape[0] >= 2 else PENALTIES[1]
    pen = lam * base + RIDGE * np.eye(len(base))
    beta = _fit(x, counts.sum(axis=0), pen)
    p = softmax(x @ beta.T, axis=1)
    scores = np.einsum("sjc,jf->sjcf", counts - counts.sum(axis=2, keepdims=True) * p[None], x)
    hess = _hessian(x, counts.sum(axis=(0, 2)), p, pen)
    return SeatModel(basis, beta, lam), (scores.reshape(counts.shape[0] * counts.shape[1], -1), hess)


@dataclass
class Emulator:
    """Every seat's model for ``n`` players, and the covariance of all their coefficients.

    Attributes:
        n_players: the line-up size it emulates.
        seats: one :class:`SeatModel` per seat.
        covariance: the sandwich covariance of the stacked ``beta`` of every seat, clustered
            by match (the seats of one match are one cluster).
        design_rounds: simulated rounds per seat it was fitted on.
    """

    n_players: int
    seats: list[SeatModel]
    covariance: np.ndarray
    design_rounds: int = 0
    offsets: list[int] = field(default_factory=list)

    @classmethod
    def fit(cls, basis: Basis, own: np.ndarray, other: np.ndarray, counts: np.ndarray) -> Emulator:
        """counts (M matches, J points, n seats, C); own / other (J, n, d) in [0, 1]."""
        with threadpool_limits(1):  # small dense solves: a threaded BLAS only fights the runner's workers
            return cls._fit(basis, own, other, counts)

    @classmethod
    def _fit(cls, basis: Basis, own: np.ndarray, other: np.ndarray, counts: np.ndarray) -> Emulator:
        n = counts.shape[2]
        seats, scores, hessians = [], [], []
        for seat in range(n):
            model, (score, hess) = fit_seat_model(basis, own[:, seat], other[:, seat], counts[:, :, seat])
            seats.append(model)
            scores.append(score)
            hessians.append(hess)
        scores = np.hstack(scores)
        meat = scores.T @ scores * (len(scores) / max(len(scores) - 1, 1))
        sizes = [h.shape[0] for h in hessians]
        inverse = np.zeros((sum(sizes), sum(sizes)))
        offsets = list(np.cumsum([0, *sizes]))
        for k, h in enumerate(hessians):
            inverse[offsets[k] : offsets[k + 1], offsets[k] : offsets[k + 1]] = np.linalg.pinv(h)
        return cls(n, seats, inverse @ meat @ inverse, int(counts[:, :, 0].sum()), offsets)
