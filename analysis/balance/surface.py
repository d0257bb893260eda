"""Response surface: how low can the spread of a family of metrics go anywhere in the space?

A target such as "no card's win rate more than 0.15 from another's" is a *spread*: the largest
minus the smallest of a family of metrics (``card_win_rate.<card>``). A search that misses it
leaves open whether an untried point would meet it. This module answers that from the trials
already played, under a stated model:

1. every metric of the family is fitted, over the stored trials, as a linear function of the
   parameter's dimensions (the card counts, the list elements): ``m_c(x) = a_c + b_c · x``;
2. the smallest ``max_c m_c(x) − min_c m_c(x)`` over the parameter's box (bounds, fixed total,
   order of a list) is a linear programme — solved over the continuous relaxation, so its
   optimum is a lower bound of the best integer point's;
3. a bootstrap over trials (refit, re-solve) gives the floor's confidence interval. If even its
   lower bound exceeds the target's bound, no point of the space can meet the target (within
   the model); if the floor sits well below, the model's best integer point is a candidate
   worth validating on fresh seeds (``validate = true`` adds it to the validated candidates).

The fits' R² and residual standard deviations are reported next to the verdict: the claim is
only as good as the linear model (a response surface models the simulator, it is not the
simulator: Box & Draper 1987, "Empirical Model-Building and Response Surfaces").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import linprog

from sim.core.config import param

from .space import Parameter, SearchSpace, repair_counts

__all__ = ["SurfaceSettings", "fit_surface", "spread_floor"]


@dataclass(frozen=True)
class SurfaceSettings:
    """The ``[surface]`` table of a balance file (``prefix = ""``: no surface)."""

    prefix: str = param("", doc="fit every game metric whose key starts with this (e.g. 'card_win_rate.')")
    parameter: str = param("", doc="the parameter whose dimensions are the model's inputs (default: the first)")
    lineup: str = param("", doc="the line-up whose metrics are fitted (default: the first)")
    bound: float = param(float("nan"), doc="the spread's target bound the floor is compared with")
    bootstrap: int = param(200, min=20, doc="bootstrap resamples of the trials")
    validate: bool = True  # add the model's best integer point to the validated candidates


def fit_surface(X: np.ndarray, Y: np.ndarray, weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Least-squares fit of each column of ``Y`` (trials × metrics, NaN = missing) on ``[1, X]``.

    ``weights`` (one per trial, e.g. its matches: a rate's variance falls as 1/n) make it a
    weighted fit, so that trials stopped early by successive halving count for what they played.
    Returns (coefficients: metrics × (1 + dims), (weighted) R²: metrics). Collinear inputs
    (counts with a fixed total) get the minimum-norm solution: its predictions on the
    constraint are unique.
    """
    design = np.column_stack([np.ones(len(X)), X])
    w = np.ones(len(X)) if weights is None else np.asarray(weights, dtype=float)
    coefficients = np.zeros((Y.shape[1], design.shape[1]))
    r2 = np.full(Y.shape[1], np.nan)
    for k in range(Y.shape[1]):
        rows = ~np.isnan(Y[:, k])
        if rows.sum() <= 2:
            coefficients[k] = np.nan
            continue
        root = np.sqrt(w[rows])
        beta, *_ = np.linalg.lstsq(design[rows] * root[:, None], Y[rows, k] * root, rcond=None)
        coefficients[k] = beta
        residual = Y[rows, k] - design[rows] @ beta
        mean = float(np.average(Y[rows, k], weights=w[rows]))
        total = float((w[rows] * (Y[rows, k] - mean) ** 2).sum())
        r2[k] = 1 - float((w[rows] * residual**2).sum()) / total if total > 0 else np.nan
    return coefficients, r2


def _constraints(p: Parameter, dims: int):
    """(bounds, A_eq, b_eq, A_ub, b_ub) of the parameter's box in its own dimensions."""
    bounds = [(float(p.low), float(p.high))] * dims
    a_eq = b_eq = None
    a_ub, b_ub = [], []
    if p.kind == "counts" and p.total:
        a_eq, b_eq = np.ones((1, dims)), np.array([float(p.total)])
    if p.kind == "int_list" and p.order:
        sign = 1.0 if p.order == "decreasing" else -1.0
        for i in range(dims - 1):  # x_i >= x_{i+1} (decreasing): -x_i + x_{i+1} <= 0
            row = np.zeros(dims)
            row[i], row[i + 1] = -sign, sign
            a_ub.append(row)
            b_ub.append(0.0)
    return bounds, a_eq, b_eq, a_ub, b_ub


def _min_spread(coefficients: np.ndarray, p: Parameter, dims: int) -> tuple[float, np.ndarray]:
    """min over the box of max_c − min_c of the linear predictions: (value, argmin)."""
    coefficients = coefficients[~np.isnan(coefficients).any(axis=1)]
    bounds, a_eq, b_eq, a_ub, b_ub = _constraints(p, dims)
    # variables: x (dims), high, low; minimise high − low
    cost = np.concatenate([np.zeros(dims), [1.0, -1.0]])
    rows, rhs = [], []
    for a, *b in coefficients:
        b = np.asarray(b)
        rows.append(np.concatenate([b, [-1.0, 0.0]]))  # a + b·x <= high
        rhs.append(-a)
        rows.append(np.concatenate([-b, [0.0, 1.0]]))  # a + b·x >= low
        rhs.append(a)
    for row, value in zip(a_ub, b_ub):
        rows.append(np.concatenate([row, [0.0, 0.0]]))
        rhs.append(value)
    eq = None if a_eq is None else np.column_stack([a_eq, np.zeros((len(a_eq), 2))])
    result = linprog(
        cost,
        A_ub=np.array(rows),
        b_ub=np.array(rhs),
        A_eq=eq,
        b_eq=b_eq,
        bounds=bounds + [(None, None), (None, None)],
        method="highs",
    )
    if not result.success:
        return float("nan"), np.full(dims, np.nan)
    return float(result.fun), result.x[:dims]


def _predicted_spread(coefficients: np.ndarray, x) -> float:
    values = coefficients[:, 0] + coefficients[:, 1:] @ np.asarray(x, float)
    return float(np.nanmax(values) - np.nanmin(values))


def _integer_point(p: Parameter, x: np.ndarray, coefficients: np.ndarray) -> list[int]:
    """The best valid grid point near the relaxed optimum ``x`` (counts keep their total).

    Rounding the LP's solution can lose much of its gain, so the rounded point is improved by
    a local search: move one unit from one count to another (or one step of one list element)
    while the predicted spread falls.
    """
    if p.kind == "counts":
        point = repair_counts(list(x), int(p.low), int(p.high), int(p.total))
    else:
        step = max(1, int(p.step))
        point = [int(min(max(round(v / step) * step, p.low), p.high)) for v in x]
        if p.order:
            point = sorted(point, reverse=p.order == "decreasing")
    coefficients = coefficients[~np.isnan(coefficients).any(axis=1)]
    step = 1 if p.kind == "counts" else max(1, int(p.step))
    current = _predicted_spread(coefficients, point)
    while True:
        moves = []
        for i in range(len(point)):
            if p.kind == "counts":
                moves += [(i, j) for j in range(len(point)) if j != i]
            else:
                moves += [(i, None)]
        best, best_value = None, current
        for i, j in moves:
            for sign in (1,) if j is not None else (1, -1):
                trial = list(point)
                trial[i] -= step * sign
                if j is not None:
                    trial[j] += step
                if min(trial) < p.low or max(trial) > p.high:
                    continue
                if p.order and trial != sorted(trial, reverse=p.order == "decreasing"):
                    continue
                value = _predicted_spread(coefficients, trial)
                if value < best_value - 1e-12:
                    best, best_value = trial, value
        if best is None:
            return point
        point, current = best, best_value


def _floor_interval(
    floor: float,
    data: tuple[np.ndarray, np.ndarray, np.ndarray],
    p: Parameter,
    dims: int,
    bootstrap: int,
    seed: int,
    confidence: float,
) -> tuple[float, float, float, int]:
    """The floor's basic bootstrap interval over trials (refit, re-solve), its one-sided 95 %
    lower bound and the number of usable resamples; ``data`` is (X, Y, weights) of the fit.

    The floor of noisy fits is biased upwards (a max − min of noisy lines spreads wider than the
    truth), and resampled fits are more so: the basic bootstrap interval [2θ − q_hi, 2θ − q_lo]
    corrects for that bias, where the percentile interval would claim "out of reach" too often."""
    X, Y, weights = data
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(bootstrap):
        pick = rng.integers(0, len(X), len(X))
        value, _ = _min_spread(fit_surface(X[pick], Y[pick], weights[pick])[0], p, dims)
        if math.isfinite(value):
            draws.append(value)
    if not draws:
        return float("nan"), float("nan"), float("nan"), 0
    alpha = 1 - confidence
    q_low, q_high = np.quantile(draws, [alpha / 2, 1 - alpha / 2])
    return float(2 * floor - q_high), float(2 * floor - q_low), float(2 * floor - np.quantile(draws, 0.95)), len(draws)


def spread_floor(
    trials: list[dict],
    space: SearchSpace,
    settings: SurfaceSettings,
    lineup: str,
    seed: int = 0,
    confidence: float = 0.90,
) -> dict[str, Any]:
    """Fit the family of metrics over the trials and bound its smallest spread in the space.

    ``trials`` are stored trials (``point`` and ``metrics[lineup]``); returns a JSON-ready dict
    (see the module docstring) with the fits, the floor, its CI and bootstrap lower bound, the
    model's best integer point and the verdict against ``settings.bound``.
    """
    p = (
        next((q for q in space.parameters if q.name == settings.parameter), space.parameters[0])
        if settings.parameter
        else space.parameters[0]
    )
    if p.kind in ("int_list", "counts"):
        names = space.element_names(p)
    elif p.kind in ("int", "float"):
        names = [p.name]
    else:
        raise ValueError(f"surface.parameter: {p.name} is a {p.kind}; allowed: int, float, int_list, counts")
    usable = [t for t in trials if t.get("metrics", {}).get(lineup)]
    metrics = sorted({k for t in usable for k in t["metrics"][lineup] if k.startswith(settings.prefix)})
    out: dict[str, Any] = {
        "parameter": p.name,
        "dimensions": names,
        "prefix": settings.prefix,
        "lineup": lineup,
        "trials": len(usable),
        "metrics": metrics,
        "bound": settings.bound,
    }
    if len(usable) <= len(names) + 1 or len(metrics) < 2:
        out["problem"] = (
            f"{len(usable)} trials with stored metrics and {len(metrics)} metrics named "
            f"{settings.prefix!r}*: too few to fit {len(names)} dimensions"
        )
        return out
    X = np.array(
        [
            [float(v) for v in (t["point"][p.name] if p.kind in ("int_list", "counts") else [t["point"][p.name]])]
            for t in usable
        ]
    )
    Y = np.array([[t["metrics"][lineup].get(m, np.nan) for m in metrics] for t in usable], dtype=float)
    weights = np.array([float(t.get("matches") or 1) for t in usable])  # stored trials without it: equal
    coefficients, r2 = fit_surface(X, Y, weights)
    design = np.column_stack([np.ones(len(X)), X])
    residual_sd = [
        float(
            np.sqrt(
                np.nansum(weights * (Y[:, k] - design @ coefficients[k]) ** 2) / np.sum(weights[~np.isnan(Y[:, k])])
            )
        )
        for k in range(len(metrics))
    ]
    floor, argmin = _min_spread(coefficients, p, len(names))
    low, high, lower_95, draws = _floor_interval(
        floor, (X, Y, weights), p, len(names), settings.bootstrap, seed, confidence
    )
    point = _integer_point(p, argmin, coefficients) if np.isfinite(argmin).all() else None
    predicted = _predicted_spread(coefficients, point) if point is not None else None
    verdict = "no bound given"
    if not math.isnan(settings.bound):
        verdict = (
            "no point of the space can meet the bound (the floor's 95 % lower bound is above it)"
            if lower_95 > settings.bound
            else "the model's best point may meet the bound (validate it)"
            if high < settings.bound
            else "undecided: the floor's CI contains the bound"
        )
    out.update(
        fits=[
            {
                "metric": m,
                "intercept": float(c[0]),
                "coefficients": dict(zip(names, map(float, c[1:]))),
                "r2": float(r),
                "residual_sd": sd,
            }
            for m, c, r, sd in zip(metrics, coefficients, r2, residual_sd)
        ],
        floor=floor,
        floor_ci=[float(low), float(high)],
        floor_lower_95=lower_95,
        confidence=confidence,
        bootstrap=draws,
        argmin=[float(v) for v in argmin],
        point=point,
        predicted_at_point=predicted,
        verdict=verdict,
    )
    return out
