"""The fit: every player's numbers that make the emulated play most likely to have produced
the sheet, with a 95 % interval for each.

The estimate maximises the sheet's composite log-likelihood ℓ (:mod:`.likelihood`) over the
box of the profile space (coordinate sweeps over a grid, then L-BFGS-B). Its variance has two
parts, added:

- the sheet's own noise: the larger of the model-based variance (the inverse of ℓ's curvature,
  rounds independent) and the sandwich variance clustered by match (rounds of one match may
  depend on each other; with few matches the sandwich alone is too small), per parameter;
- the emulator's noise: the delta method through the emulator's coefficients,
  ``J Σ_beta Jᵀ`` with ``J = -H⁻¹ ∂²ℓ/∂θ∂beta`` and ``Σ_beta`` its seed-clustered covariance.

The interval of a parameter is read off its profile log-likelihood (the others re-fitted at
each value), scaled so that its curvature matches that total variance: ``{v : 2 (ℓ̂ - ℓ_p(v))
<= 3.84 · V_model / V_total}``. It is the Wald interval when ℓ is quadratic, follows ℓ when it
is not, and stops at the space's edges (an estimate at an edge says the player may lie
beyond it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq, minimize
from scipy.stats import chi2

from .likelihood import Likelihood

__all__ = ["LEVEL", "Fit", "fit_players"]

LEVEL = 0.95
STEP = 1e-3
GRID = np.linspace(0.0, 1.0, 21)
PROFILE = np.linspace(0.0, 1.0, 21)


@dataclass
class Fit:
    """The fit in [0, 1] units (``theta``: players × d; intervals: (players, d, 2)).

    Attributes:
        variances: the total variance of each parameter and its parts (``model``, ``sandwich``,
            ``emulator``), (players, d) each.
        profiles: per (player, axis), the profile's values and its scaled deviance
            ``2 (ℓ̂ - ℓ_p) V_model / V_total`` there, out to where it crosses the cut.
        loglik: ℓ at the estimate.
    """

    theta: np.ndarray
    intervals: np.ndarray
    variances: dict[str, np.ndarray]
    profiles: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]
    loglik: float


def _maximise(like: Likelihood, start: np.ndarray, fixed: dict[int, float] | None = None) -> tuple[np.ndarray, float]:
    """Maximise ℓ over the free parameters (flat indices not in ``fixed``) from ``start``."""
    fixed = fixed or {}
    free = [i for i in range(start.size) if i not in fixed]
    full = start.ravel().copy()
    for i, v in fixed.items():
        full[i] = v
    if not free:
        return full, like(full)

    def negative(x):
        full[free] = x
        return -like(full)

    result = minimize(
        negative, full[free], method="L-BFGS-B", bounds=[(0.0, 1.0)] * len(free), options={"maxiter": 500}
    )
    full[free] = result.x
    return full.copy(), -float(result.fun)


def _start(like: Likelihood) -> np.ndarray:
    """Coordinate sweeps over a grid of each parameter, the others held (from the middle)."""
    theta = np.full(like.players * like.d, 0.5)
    for _ in range(3):
        for i in range(theta.size):
            trial = np.repeat(theta[None], len(GRID), axis=0)
            trial[:, i] = GRID
            theta[i] = GRID[int(np.argmax([like(t) for t in trial]))]
    return theta


def _hessian(f, x: np.ndarray) -> np.ndarray:
    x = np.clip(x, STEP, 1 - STEP)
    k = x.size
    h = np.zeros((k, k))
    for i in range(k):
        for j in range(i, k):
            e_i, e_j = np.eye(k)[i] * STEP, np.eye(k)[j] * STEP
            h[i, j] = h[j, i] = (f(x + e_i + e_j) - f(x + e_i - e_j) - f(x - e_i + e_j) + f(x - e_i - e_j)) / (
                4 * STEP**2
            )
    return h


def _jacobian(f, x: np.ndarray) -> np.ndarray:
    """Central differences of a vector function: (len(f), len(x))."""
    x = np.clip(x, STEP, 1 - STEP)
    return np.stack([(f(x + e) - f(x - e)) / (2 * STEP) for e in np.eye(x.size) * STEP], axis=1)


def _negative_definite_inverse(h: np.ndarray) -> np.ndarray:
    """(-H)⁻¹ with curvatures floored (a flat direction gets a huge, finite variance)."""
    values, vectors = np.linalg.eigh(-h)
    values = np.maximum(values, 1e-6)
    return (vectors / values) @ vectors.T


def _variances(like: Likelihood, theta: np.ndarray) -> dict[str, np.ndarray]:
    h = _hessian(like, theta)
    inv = _negative_definite_inverse(h)
    scores = _jacobian(like.contributions, theta)
    clusters = like.clusters
    labels = np.unique(clusters)
    g = np.stack([scores[clusters == c].sum(axis=0) for c in labels])
    meat = g.T @ g * (len(labels) / max(len(labels) - 1, 1))
    sandwich = inv @ meat @ inv
    emulator = np.zeros_like(inv)
    for n, emu in like.emulators.items():
        m = _jacobian(lambda t: like.beta_gradient(t, n), theta).T  # (k, dim beta)
        jac = -inv @ m
        emulator += jac @ emu.covariance @ jac.T
    model_var, sand_var = np.diag(inv), np.diag(sandwich)
    total = np.maximum(model_var, sand_var) + np.diag(emulator)
    shape = (like.players, like.d)
    return {
        "total": total.reshape(shape),
        "model": model_var.reshape(shape),
        "sandwich": sand_var.reshape(shape),
        "emulator": np.diag(emulator).reshape(shape),
    }


class _Better(Exception):
    """The profile found a higher likelihood than the estimate: fit again from there."""

    def __init__(self, theta: np.ndarray):
        self.theta = theta


def _side(
    like: Likelihood, theta: np.ndarray, best: float, index: int, scale: float, cut: float, side: int
) -> tuple[float, list[tuple[float, float]]]:
    """Walk the profile from the estimate towards one edge (warm starts); where its scaled
    deviance ``2 scale (ℓ̂ - ℓ_p(v))`` crosses ``cut``: bracketed on the grid, then solved."""
    estimate = theta[index]
    steps = PROFILE[(PROFILE - estimate) * side > 0]
    steps = steps if side > 0 else steps[::-1]
    points: list[tuple[float, float]] = [(float(estimate), 0.0)]
    start, inner = theta.copy(), estimate

    def deviance(v: float, warm: np.ndarray) -> tuple[float, np.ndarray]:
        found, value = _maximise(like, warm, {index: v})
        if value > best + 1e-6:
            raise _Better(found)
        return 2 * scale * (best - value), found

    for v in steps:
        value, found = deviance(v, start)
        points.append((float(v), value))
        if value >= cut:
            warm = start
            bound = brentq(lambda u: deviance(u, warm)[0] - cut, inner, v, xtol=1e-3)
            return float(bound), points
        start, inner = found, v
    return (1.0 if side > 0 else 0.0), points


def fit_players(like: Likelihood, restarts: int = 3) -> Fit:
    """Estimate, variances, profiles and intervals of every player's numbers."""
    theta, best = _maximise(like, _start(like))
    for _ in range(restarts):
        try:
            return _fit_at(like, theta, best)
        except _Better as better:
            theta, best = _maximise(like, better.theta)
    return _fit_at(like, theta, best)


def _fit_at(like: Likelihood, theta: np.ndarray, best: float) -> Fit:
    variances = _variances(like, theta)
    cut = chi2.ppf(LEVEL, 1)
    intervals = np.zeros((like.players, like.d, 2))
    profiles = {}
    for index in range(theta.size):
        p, k = divmod(index, like.d)
        scale = variances["model"][p, k] / variances["total"][p, k]
        low, below = _side(like, theta, best, index, scale, cut, -1)
        high, above = _side(like, theta, best, index, scale, cut, +1)
        intervals[p, k] = (low, high)
        grid, values = zip(*sorted(set(below + above)))
        profiles[(p, k)] = (np.array(grid), np.array(values))
    return Fit(theta.reshape(like.players, like.d), intervals, variances, profiles, best)
