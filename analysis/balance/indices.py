"""Sensitivity indices of a noisy function: Morris screening and Sobol indices of its mean.

The same code serves ``tablesim sensitivity`` (where the function plays matches at each sample
point, :mod:`analysis.balance.sensitivity`) and any Python function, so every claim can be
checked against a function whose indices are known (Ishigami, with and without added noise).

**The model.** A point's output is ``Y(x, ω) = f(x) + ε(x, ω)``: the mean response ``f`` (what
the rules decide) plus Monte Carlo noise (which matches were drawn). Every point is evaluated
as R *replicates*, R independent blocks of seeds, the same blocks at every point (common random
numbers); the point's value is the mean of its replicates. Indices of the single-run output
``Y`` measure the noise as much as the rules — with 100 matches a point, a win rate's noise
can be most of its variance — so every index here is an index of ``f``, and the noise is
reported as its own share.

**Removing the noise.** Every estimator is built from products of point means, and the mean of
a product of two replicate means is the product of their expectations plus their covariance
over replicates divided by R. Subtracting the replicates' sample covariance divided by R
(``mean(b)·mean(c) − cov(b, c)/R``) gives an unbiased estimate of the noise-free product,
whether or not the two points share seeds. With R = 1 (a deterministic function) nothing is
subtracted.

**Sobol** (Saltelli sampling from SALib, ``calc_second_order=False``: N·(D + 2) points, the
base rows A, B and the D mixed rows AB_i): the variance of the mean response is
V = ½E[(f_A − f_B)²], the first-order index S1_i = E[(f_B − c)(f_ABi − f_A)]/V (Saltelli 2010,
centred at the output's mean c) and the total index ST_i = ½E[(f_A − f_ABi)²]/V (Jansen
1999), each product noise-corrected as above (Hart, Alexanderian & Gremaud 2017 and Marrel et
al. 2012 show why a noisy simulator's indices must be separated from its noise this way or with
a metamodel). The noise share is E[σ²(x)]/(V + E[σ²(x)]), σ²(x) the variance of one point's
value (replicate variance / R): the part of a single run's variance that is Monte Carlo noise.
Each index is a ratio of two means over the N base rows (a row holds A, B and every AB_i),
and its interval is *Fieller's*: the values θ for which the mean of (numerator − θ·V) terms
is within c standard errors of 0, with c the normal quantile at the Bonferroni level over the
output's indices that vary — so the intervals are *simultaneous*, and they stay valid when V
itself is poorly known (much noise widens them, up to the whole of [0, 1]); they are
intersected with [0, 1]. A parameter is an **effect** when the interval of its ST excludes 0:
a test at level 5 % (for every parameter of an output at once) that the parameter moves the
mean response, with the noise already removed ("effect, not shown alone" when the interval of
its S1 does not also exclude 0: it may act only through its interactions).

**Morris** elementary effects, one per trajectory and parameter: the change of the mean
response when the parameter moves by Δ (a fraction of its range), divided by Δ (output units
per full range). The noise-corrected mean square of the effects gives ``ee_rms`` (the root
mean square elementary effect of f; like μ* it is 0 only when the parameter does nothing,
but noise does not inflate it), with a percentile bootstrap interval over trajectories. A
parameter is an **effect** when a sign-flip test rejects "every trajectory's elementary effect
is 0" at the Bonferroni level α/D over the output's D parameters: each replicate's difference
is given a random sign (exact when the two points' outcomes of a replicate are exchangeable
under the null, as for a parameter that changes only the seeds).

Both methods test the same null hypothesis (the parameter does not move the mean response)
at the same level, so they can differ only in power; :func:`reconcile` says so in words
wherever their verdicts differ.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = [
    "problem_of",
    "sobol_indices",
    "morris_indices",
    "noise_summary",
    "reconcile",
    "replicated",
    "NO_EFFECT",
    "EFFECT",
    "INTERACTION",
    "NOISE_TARGET",
]

NO_EFFECT = "no effect the run can see"
EFFECT = "effect"
INTERACTION = "effect, not shown alone"
#: Bootstrap resamples of the noise share's interval.
SOBOL_RESAMPLES = 2000
#: Bootstrap resamples of the Morris intervals and random sign patterns of its test.
MORRIS_RESAMPLES = 4000
#: The noise share that "matches per point needed" aims at (a fifth of a point's variance).
NOISE_TARGET = 0.2


def problem_of(space: Sequence[tuple[str, float, float]] | dict) -> dict:
    """A SALib problem from ``[(name, low, high), ...]`` (or a SALib problem, returned as is)."""
    if isinstance(space, dict):
        return space
    return {
        "num_vars": len(space),
        "names": [str(n) for n, _, _ in space],
        "bounds": [[float(lo), float(hi)] for _, lo, hi in space],
    }


def replicated(Y: np.ndarray) -> np.ndarray:
    """Outputs as (points, outputs, replicates): a 1-D or 2-D array is one replicate."""
    Y = np.asarray(Y, dtype=float)
    if Y.ndim == 1:
        return Y[:, None, None]
    return Y[:, :, None] if Y.ndim == 2 else Y


def _outputs(func: Callable[[np.ndarray], np.ndarray], X: np.ndarray) -> np.ndarray:
    return replicated(func(X))


def _product(b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Unbiased E[f_b·f_c] per row from replicates on the last axis: mean·mean − cov/R."""
    replicates = b.shape[-1]
    value = b.mean(axis=-1) * c.mean(axis=-1)
    if replicates < 2:
        return value
    covariance = ((b - b.mean(axis=-1, keepdims=True)) * (c - c.mean(axis=-1, keepdims=True))).sum(axis=-1)
    return value - covariance / (replicates - 1) / replicates


def _half_square(d: np.ndarray) -> np.ndarray:
    """Unbiased ½E[d]² per row from replicate differences on the last axis."""
    return 0.5 * _product(d, d)


def _point_noise(Y: np.ndarray) -> np.ndarray:
    """The variance of each point's value (replicate variance / R); 0 with one replicate."""
    replicates = Y.shape[-1]
    if replicates < 2:
        return np.zeros(Y.shape[:-1])
    return Y.var(axis=-1, ddof=1) / replicates


@dataclass(frozen=True)
class SobolTerms:
    """Per-base-row terms whose means give the indices (all noise-corrected).

    Attributes:
        variance: (N,) terms of V, the variance of the mean response.
        numerators: (2D, N) terms of V·S1_i (D of them), then of V·ST_i.
        noise: (N,) the variance of one point's value at the rows of A and B (their mean).
    """

    variance: np.ndarray
    numerators: np.ndarray
    noise: np.ndarray


def sobol_terms(fA: np.ndarray, fB: np.ndarray, fAB: np.ndarray) -> SobolTerms:
    """The per-row terms of the estimators from replicated outputs.

    Args:
        fA, fB: (N, R) outputs at the rows of A and B, R replicates each.
        fAB: (D, N, R) outputs at AB_i (A with column i from B).
    """
    centre = np.concatenate([fA, fB]).mean()
    first = _product(fB[None] - centre, fAB - fA[None])
    total = _half_square(fA[None] - fAB)
    return SobolTerms(
        variance=_half_square(fA - fB),
        numerators=np.concatenate([first, total]),
        noise=(_point_noise(fA) + _point_noise(fB)) / 2,
    )


def _sobol_intervals(terms: SobolTerms, confidence: float):
    """Estimates and simultaneous Fieller bounds of the 2D indices (ratios of means of row terms).

    An index is θ = E[a]/E[v]; the set of θ for which the mean of a − θ·v is within c standard
    errors of 0 is its Fieller interval. Unlike a ratio's linearised interval it stays valid when
    V itself is poorly known (much noise): the interval then widens, or becomes unbounded and is
    [0, 1]. c is Bonferroni over the indices that vary.
    """
    from scipy.stats import norm

    a, v = terms.numerators, terms.variance
    n = v.size
    a_mean, v_mean = a.mean(axis=-1), v.mean()
    centred_a, centred_v = a - a_mean[:, None], v - v_mean
    s_aa = (centred_a**2).sum(axis=-1) / (n - 1) / n
    s_vv = (centred_v**2).sum() / (n - 1) / n
    s_av = (centred_a * centred_v).sum(axis=-1) / (n - 1) / n
    varies = (s_aa > 0) | (a_mean != 0)
    c = norm.ppf(1 - (1 - confidence) / 2 / max(1, int(varies.sum())))
    estimate = a_mean / v_mean
    quad_a = v_mean**2 - c**2 * s_vv
    quad_b = a_mean * v_mean - c**2 * s_av
    quad_c = a_mean**2 - c**2 * s_aa
    root = np.sqrt(np.maximum(quad_b**2 - quad_a * quad_c, 0.0))
    bounded = quad_a > 0
    low = np.where(bounded, (quad_b - root) / np.where(bounded, quad_a, 1), -np.inf)
    high = np.where(bounded, (quad_b + root) / np.where(bounded, quad_a, 1), np.inf)
    # indices lie in [0, 1]: the estimate and its interval are intersected with it (the interval
    # keeps its coverage; an estimate outside [0, 1], possible at small N, is moved to the edge).
    # A parameter whose every term is 0 changes nothing measurable: its index is exactly 0. With
    # no variance of the mean response estimated (V ≤ 0: noise only) the others have no estimate.
    estimate = np.clip(estimate, 0.0, 1.0) if v_mean > 0 else np.full_like(estimate, np.nan)
    low, high = np.clip(np.nan_to_num(low, nan=0.0), 0.0, 1.0), np.clip(np.nan_to_num(high, nan=1.0), 0.0, 1.0)
    return tuple(np.where(varies, values, 0.0) for values in (estimate, low, high))


def _verdict(s1_low: float, st_low: float) -> str:
    if st_low > 0:
        return EFFECT if s1_low > 0 else INTERACTION
    return NO_EFFECT


@dataclass(frozen=True)
class NoiseShare:
    """How much of one output's variance is Monte Carlo noise (from the Sobol sample).

    Attributes:
        share, share_low, share_high: E[σ²]/(V + E[σ²]) with its 95 % percentile bootstrap
            interval (0–1).
        point_variance: E[σ²], the variance of one point's value (output units squared).
        response_variance, response_variance_low, response_variance_high: V, the variance of
            the mean response over the parameter space, with its 95 % interval (units squared).
    """

    share: float
    share_low: float
    share_high: float
    point_variance: float
    response_variance: float
    response_variance_low: float
    response_variance_high: float

    def matches_needed(self, matches: int, target: float = NOISE_TARGET) -> tuple[int | None, bool]:
        """(matches per point that bring the noise share to ``target``, whether that is a floor).

        A point's noise variance falls as 1/matches. Where V is not shown above 0 the upper end
        of its interval is used, so the figure is a lower bound (the flag is True); None when
        even that end is 0 (the run cannot say).
        """
        if not self.point_variance > 0:
            return matches, False
        floor = not self.response_variance_low > 0
        variance = self.response_variance_high if floor else self.response_variance
        if not variance > 0:
            return None, True
        ratio = self.point_variance / variance * (1 - target) / target
        return max(matches, int(np.ceil(matches * ratio))), floor


def _noise_share(terms: SobolTerms, resamples: int, rng: np.random.Generator) -> NoiseShare:
    n = terms.variance.size
    variance, noise = terms.variance.mean(), terms.noise.mean()
    rows = rng.integers(0, n, (resamples, n))
    boot_variance = terms.variance[rows].mean(axis=1)
    boot_noise = terms.noise[rows].mean(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        boot_share = boot_noise / (np.maximum(boot_variance, 0) + boot_noise)
        share = noise / (max(variance, 0.0) + noise) if noise > 0 else 0.0
    finite = boot_share[np.isfinite(boot_share)]
    low, high = np.quantile(finite, [0.025, 0.975]) if finite.size else (share, share)
    v_low, v_high = np.quantile(boot_variance, [0.025, 0.975])
    return NoiseShare(float(share), float(low), float(high), float(noise), float(variance), float(v_low), float(v_high))


def sobol_indices(
    func: Callable[[np.ndarray], np.ndarray],
    space: Sequence[tuple[str, float, float]] | dict,
    n: int,
    seed: int,
    confidence: float = 0.95,
    labels: Sequence[str] | None = None,
    reference: str | None = None,
    resamples: int = SOBOL_RESAMPLES,
    X: np.ndarray | None = None,
    Y: np.ndarray | None = None,
    noise: dict[str, NoiseShare] | None = None,
) -> pd.DataFrame:
    """First-order and total Sobol indices of the mean response of ``func``, with simultaneous CIs.

    Args:
        func: maps sample points (rows × D, in the units of ``space``) to outputs: (rows,),
            (rows, outputs) or (rows, outputs, replicates); called once with every point.
        space: ``[(name, low, high), ...]`` or a SALib problem dict.
        n: N, the base sample size (a power of two); N·(D + 2) points are evaluated.
        seed: seed of the Saltelli sample and of the noise share's bootstrap.
        confidence: simultaneous coverage of the 2D intervals of each output.
        labels: names of the outputs (default ``y0``, ``y1``, ...).
        reference: the dummy parameter (one that changes nothing but the seeds): judged like
            the others, and flagged so a report can say that its true index is 0.
        X: the sample, when already evaluated (with ``Y``; ``func`` is then not called).
        Y: the outputs at ``X``.
        noise: if given, filled with each output's :class:`NoiseShare`.

    Returns:
        one row per output × parameter: ``output``, ``parameter``, ``S1``, ``S1_low``,
        ``S1_high``, ``ST``, ``ST_low``, ``ST_high``, ``S1_effect``, ``ST_effect`` (interval
        excludes 0), ``verdict`` and ``dummy``.
    """
    from SALib.sample import sobol as sobol_sample

    problem = problem_of(space)
    names, dims = list(problem["names"]), int(problem["num_vars"])
    if X is None:
        X = sobol_sample.sample(problem, n, calc_second_order=False, seed=seed)
    Y = _outputs(func, X) if Y is None else replicated(Y)
    labels = list(labels) if labels is not None else [f"y{k}" for k in range(Y.shape[1])]
    rows = []
    for k, label in enumerate(labels):
        blocks = Y[:, k, :].reshape(-1, dims + 2, Y.shape[2])
        fA, fB, fAB = blocks[:, 0], blocks[:, -1], blocks[:, 1:-1].transpose(1, 0, 2)
        terms = sobol_terms(fA, fB, fAB)
        rng = np.random.default_rng([seed, k])
        with np.errstate(all="ignore"):  # a resample may hold no variance at all: its ratio is NaN
            if np.allclose(Y[:, k], Y[0, k, 0]):
                estimate = low = high = np.zeros(2 * dims)
            else:
                estimate, low, high = _sobol_intervals(terms, confidence)
            if noise is not None:
                noise[label] = _noise_share(terms, resamples, rng)
        for i, name in enumerate(names):
            j = dims + i
            rows.append(
                {
                    "output": label,
                    "parameter": name,
                    "S1": float(estimate[i]),
                    "S1_low": float(low[i]),
                    "S1_high": float(high[i]),
                    "ST": float(estimate[j]),
                    "ST_low": float(low[j]),
                    "ST_high": float(high[j]),
                    "S1_effect": bool(low[i] > 0),
                    "ST_effect": bool(low[j] > 0),
                    "verdict": _verdict(low[i], low[j]),
                    "dummy": name == reference,
                }
            )
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class ElementaryEffects:
    """One parameter's elementary effects: (trajectories, R) replicate differences / Δ."""

    parameter: int
    effects: np.ndarray


def elementary_effects(X: np.ndarray, Y: np.ndarray, bounds: Sequence[Sequence[float]]) -> list[ElementaryEffects]:
    """Each parameter's elementary effects from a Morris sample, for one output.

    Args:
        X: (trajectories·(D + 1), D) Morris sample (SALib order: trajectory by trajectory, one
            parameter moved per step).
        Y: (same rows, R) replicated outputs.
        bounds: the D parameters' ``[low, high]``.
    """
    dims = len(bounds)
    span = np.array([hi - lo for lo, hi in bounds], float)
    per_parameter: list[list[np.ndarray]] = [[] for _ in range(dims)]
    for start in range(0, len(X), dims + 1):
        for step in range(dims):
            before, after = start + step, start + step + 1
            moved = (X[after] - X[before]) / span
            i = int(np.argmax(np.abs(moved)))
            per_parameter[i].append((Y[after] - Y[before]) / moved[i])
    return [ElementaryEffects(i, np.array(effects)) for i, effects in enumerate(per_parameter)]


def _sign_flip_p(effects: np.ndarray, resamples: int, rng: np.random.Generator) -> float:
    """p-value of "every trajectory's effect is 0" by random signs on the replicate differences."""
    if not np.any(effects):
        return 1.0
    trajectories, replicates = effects.shape
    if replicates < 2:  # a deterministic function: any non-zero effect is an effect
        return 0.0

    def statistic(values: np.ndarray) -> np.ndarray:
        means = values.mean(axis=-1)
        spread = values.var(axis=-1, ddof=1).sum(axis=-1) / replicates
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(spread > 0, (means**2).sum(axis=-1) / spread, np.inf)

    observed = statistic(effects)
    signs = rng.choice([-1.0, 1.0], size=(resamples, trajectories, replicates))
    flipped = statistic(signs * effects)
    return float((1 + np.sum(flipped >= observed)) / (resamples + 1))


def morris_indices(
    func: Callable[[np.ndarray], np.ndarray],
    space: Sequence[tuple[str, float, float]] | dict,
    trajectories: int,
    levels: int,
    seed: int,
    confidence: float = 0.95,
    labels: Sequence[str] | None = None,
    reference: str | None = None,
    X: np.ndarray | None = None,
    Y: np.ndarray | None = None,
    resamples: int = MORRIS_RESAMPLES,
) -> pd.DataFrame:
    """Morris elementary effects of the mean response of ``func``, each tested against the noise.

    Args: as :func:`sobol_indices`; ``trajectories`` and ``levels`` are SALib's Morris sample
    settings (trajectories·(D + 1) points).

    Returns:
        one row per output × parameter: ``output``, ``parameter``, ``ee_rms`` (root mean
        square elementary effect of the mean response, output units per full range of the
        parameter) with ``ee_rms_low``/``ee_rms_high`` (95 % percentile bootstrap over
        trajectories), ``mu`` (mean signed effect: the direction), ``p_value`` (sign-flip
        test), ``verdict`` (effect when p < α/D) and ``dummy``.
    """
    from SALib.sample import morris as morris_sample

    problem = problem_of(space)
    if X is None:
        X = morris_sample.sample(problem, N=trajectories, num_levels=levels, seed=seed)
    Y = _outputs(func, X) if Y is None else replicated(Y)
    labels = list(labels) if labels is not None else [f"y{k}" for k in range(Y.shape[1])]
    names = list(problem["names"])
    threshold = (1 - confidence) / len(names)
    rows = []
    for k, label in enumerate(labels):
        rng = np.random.default_rng([seed, k, 1])
        for ee in elementary_effects(X, Y[:, k, :], problem["bounds"]):
            squares = _product(ee.effects, ee.effects)  # noise-free E[EE]² per trajectory
            picks = rng.integers(0, len(squares), (resamples, len(squares)))
            low, high = np.quantile(squares[picks].mean(axis=1), [0.025, 0.975])
            p_value = _sign_flip_p(ee.effects, resamples, rng)
            rows.append(
                {
                    "output": label,
                    "parameter": names[ee.parameter],
                    "ee_rms": float(np.sqrt(max(squares.mean(), 0.0))),
                    "ee_rms_low": float(np.sqrt(max(low, 0.0))),
                    "ee_rms_high": float(np.sqrt(max(high, 0.0))),
                    "mu": float(ee.effects.mean()),
                    "p_value": p_value,
                    "verdict": EFFECT if p_value < threshold else NO_EFFECT,
                    "dummy": names[ee.parameter] == reference,
                }
            )
    return pd.DataFrame(rows)


def noise_summary(noise: dict[str, NoiseShare], matches: int) -> list[dict]:
    """Each output's noise share and the matches per point that would bring it to a fifth."""
    rows = []
    for output, share in noise.items():
        needed, floor = share.matches_needed(matches)
        rows.append(
            {
                "output": output,
                "noise_share": share.share,
                "noise_share_low": share.share_low,
                "noise_share_high": share.share_high,
                "point_variance": share.point_variance,
                "response_variance": share.response_variance,
                "response_variance_low": share.response_variance_low,
                "response_variance_high": share.response_variance_high,
                "response_shown": bool(share.response_variance_low > 0),
                "matches_per_point": matches,
                "matches_needed": needed,
                "matches_needed_is_floor": floor,
            }
        )
    return rows


def reconcile(morris: pd.DataFrame, sobol: pd.DataFrame, samples: int, trajectories: int) -> list[str]:
    """One sentence for every parameter and output where the two methods' verdicts differ.

    Both test "the parameter does not move the mean response" at the same level, so a
    difference is one of power (or of a parameter left out of the Sobol stage), never a
    contradiction: the sentence says which.
    """
    from analysis.narrative import pval

    sentences = []
    sobol_rows = sobol.set_index(["output", "parameter"]) if len(sobol) else None
    for row in morris.itertuples(index=False):
        key = (row.output, row.parameter)
        morris_effect = row.verdict == EFFECT
        if sobol_rows is None or key not in sobol_rows.index:
            if morris_effect and sobol_rows is not None:
                sentences.append(
                    f"{row.parameter} on {row.output}: an effect by Morris ({pval(row.p_value)}); "
                    "not in the Sobol stage (Morris ranked it below the parameters kept), so "
                    "Sobol says nothing of it."
                )
            continue
        sobol_row = sobol_rows.loc[key]
        sobol_effect = sobol_row["verdict"] != NO_EFFECT
        if morris_effect == sobol_effect:
            continue
        interval = f"ST {sobol_row['ST']:.2f} [{sobol_row['ST_low']:.2f}, {sobol_row['ST_high']:.2f}]"
        if morris_effect:
            sentences.append(
                f"{row.parameter} on {row.output}: an effect by Morris ({pval(row.p_value)}), not shown by "
                f"Sobol ({interval} includes 0). Not a contradiction: both test the same null at the same "
                f"level; Sobol's {samples} base samples give intervals wider than this effect. More samples "
                "or more matches per point would narrow them."
            )
        else:
            sentences.append(
                f"{row.parameter} on {row.output}: an effect by Sobol ({interval} excludes 0), not shown by "
                f"Morris ({pval(row.p_value)}). Not a contradiction: both test the same null at the same "
                f"level; Morris's {trajectories} trajectories see the parameter at few points. "
                "The Sobol verdict rests on more points."
            )
    return sentences
