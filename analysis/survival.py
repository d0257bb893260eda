"""Game length as survival: matches stopped by the round cap are right-censored (Isaksen,
Gopstein & Nealen 2015, "Exploring game space using survival analysis", FDG).

A match that hit the cap after ``rounds`` rounds would have lasted longer, so its length is
known only to exceed the cap. The Kaplan–Meier estimate S(t) = P(length > t) uses that
information instead of counting the cap as a length (which biases the mean down) or dropping
those matches (which biases it further).

Matches that share a seed are clusters (seat rotation plays each seed under every rotation;
a variant replays the baseline's seeds). With a ``seed`` column:

* the variance of S(t) is the cluster-robust (sandwich) variance of the Kaplan–Meier
  estimator — the sum over seeds of the squared per-seed sums of its influence function —
  instead of Greenwood's, which assumes independent matches (under rotation it is too small
  and the median interval covered 0.89 instead of 0.95); the median's interval inverts the
  pointwise test of S(t) = 0.5 with that variance (Brookmeyer–Crowley, cloglog), and the
  pointwise band uses it on the log-log scale;
* variants are compared with the baseline by the log-rank score test with a seed-clustered
  variance (Lin & Wei 1989: the score U = Σ (observed − expected) variant ends, its variance
  the sum over seeds of the squared per-seed score residuals, t reference with one degree of
  freedom less than the seeds of the smaller arm). Where the variant replays the baseline's
  seeds the pair of a seed is one cluster, so the test is paired: the positive correlation of
  the two arms lowers the variance instead of being ignored. Under rotation it keeps its level
  (the unclustered log-rank rejected a true null in a third of the data sets).

Without a ``seed`` column (independent matches) the classical estimates are used:
``scipy.stats.ecdf`` (Greenwood, log-log), statsmodels' ``SurvfuncRight`` median interval and
``scipy.stats.logrank``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.duration.survfunc import SurvfuncRight

from sim.core.estimators import cluster_index

from .effects import adjust_pvalues

__all__ = ["km_curves", "km_summary", "logrank_vs_baseline", "clustered_km", "clustered_logrank"]


def _censored(cell: pd.DataFrame) -> stats.CensoredData:
    lengths = cell["rounds"].to_numpy(dtype=float)
    finished = cell["finished"].to_numpy(dtype=bool)
    return stats.CensoredData(uncensored=lengths[finished], right=lengths[~finished])


def _clustered(cell: pd.DataFrame) -> bool:
    """Whether the cell's matches come in seeds of several matches (seat rotation)."""
    return "seed" in cell.columns and cell["seed"].duplicated().any()


def clustered_km(lengths, finished, clusters) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Kaplan–Meier S(t) at the event times with its cluster-robust standard error.

    The influence of cluster c on S(t_j) is −S(t_j) Σ_{i ≤ j} (d_ci − y_ci h_i)/(Y_i (1 − h_i))
    (d: ends, y: at risk, h = d/Y the hazard); the variance is G/(G − 1) times the sum of its
    squares. With one match per cluster it is Greenwood's variance up to the factor G/(G − 1).

    Returns:
        (event times, S, SE of S).
    """
    t = np.asarray(lengths, dtype=float)
    event = np.asarray(finished, dtype=bool)
    times = np.unique(t[event])
    index, groups = cluster_index(clusters, t.size)
    at = np.searchsorted(times, t)
    ends = np.zeros((groups, times.size))
    np.add.at(ends, (index[event], at[event]), 1.0)
    risk = np.zeros((groups, times.size + 1))
    np.add.at(risk, (index, np.zeros_like(index)), 1.0)
    np.add.at(risk, (index, np.searchsorted(times, t, side="right")), -1.0)
    risk = np.cumsum(risk, axis=1)[:, :-1]
    total_risk, total_ends = risk.sum(axis=0), ends.sum(axis=0)
    hazard = total_ends / total_risk
    survival = np.cumprod(1 - hazard)
    with np.errstate(invalid="ignore", divide="ignore"):  # a time where every match ends: S = 0 after it
        step = np.where(hazard < 1, 1.0 / (total_risk * (1 - hazard)), 0.0)
    influence = -survival * np.cumsum((ends - risk * hazard) * step, axis=1)
    scale = groups / (groups - 1) if groups > 1 else np.nan
    return times, survival, np.sqrt(scale * np.sum(influence**2, axis=0))


def _median_ci(times, survival, se, confidence: float) -> tuple[float, float, float]:
    """Median (first t with S(t) < 0.5) and the Brookmeyer–Crowley interval on the cloglog scale."""
    below = np.flatnonzero(survival < 0.5)
    median = float(times[below[0]]) if below.size else float("nan")
    z = stats.norm.ppf(0.5 + confidence / 2)
    with np.errstate(all="ignore"):
        ratio = (np.log(-np.log(survival)) - np.log(-np.log(0.5))) / (se / (survival * np.abs(np.log(survival))))
    inside = np.flatnonzero(np.abs(ratio) <= z)
    if inside.size == 0:
        return median, median, median  # no time has S(t) compatible with 0.5: pinned down
    low = float(times[inside[0]])
    high = float("nan") if inside[-1] == times.size - 1 else float(times[inside[-1] + 1])
    return median, min(low, median) if median == median else low, high


def km_curves(matches: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Kaplan–Meier survival curve of the length of each cell, with pointwise CIs.

    Independent matches: ``scipy.stats.ecdf(CensoredData(...))`` and scipy's log-log interval
    (Greenwood variance). Seeds of several matches: the same curve with the seed-clustered
    variance (:func:`clustered_km`), on the log-log scale.

    Args:
        matches: the matches table (``rounds``, ``finished``, ``variant``, ``lineup``,
            optional ``seed``).
        confidence: pointwise coverage.

    Returns:
        long frame: ``variant``, ``lineup``, ``rounds`` (t), ``survival`` (P(length > t)),
        ``ci_low``, ``ci_high``; each curve starts at (0, 1).
    """
    frames = []
    for (variant, lineup), cell in matches.groupby(["variant", "lineup"], sort=True):
        if not cell["finished"].astype(bool).any():
            t, s, low, high = np.array([0.0]), np.array([1.0]), np.array([1.0]), np.array([1.0])
        elif _clustered(cell):
            t, s, low, high = _clustered_band(cell, confidence)
        else:
            sf = stats.ecdf(_censored(cell)).sf
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # undefined where S(t) = 0 or 1
                ci = sf.confidence_interval(confidence_level=confidence, method="log-log")
            t = np.concatenate([[0.0], sf.quantiles])
            s = np.concatenate([[1.0], sf.probabilities])
            low = np.concatenate([[1.0], ci.low.probabilities])
            high = np.concatenate([[1.0], ci.high.probabilities])
            low, high = np.where(np.isnan(low), s, low), np.where(np.isnan(high), s, high)
        frames.append(
            pd.DataFrame(
                {"variant": variant, "lineup": lineup, "rounds": t, "survival": s, "ci_low": low, "ci_high": high}
            )
        )
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _clustered_band(cell: pd.DataFrame, confidence: float):
    times, survival, se = clustered_km(cell["rounds"], cell["finished"].astype(bool), cell["seed"])
    z = stats.norm.ppf(0.5 + confidence / 2)
    with np.errstate(all="ignore"):
        log_s = np.log(survival)
        half = z * se / (survival * np.abs(log_s))
        low = np.exp(-np.exp(np.log(-log_s) + half))
        high = np.exp(-np.exp(np.log(-log_s) - half))
    low, high = np.where(np.isnan(low), survival, low), np.where(np.isnan(high), survival, high)
    return (
        np.concatenate([[0.0], times]),
        np.concatenate([[1.0], survival]),
        np.concatenate([[1.0], low]),
        np.concatenate([[1.0], high]),
    )


def km_summary(matches: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per cell: matches, capped matches, and the Kaplan–Meier median length with its CI.

    Independent matches: ``statsmodels.duration.survfunc.SurvfuncRight(rounds, finished)``,
    ``quantile(0.5)`` and ``quantile_ci(0.5)`` (Brookmeyer–Crowley, cloglog). Seeds of several
    matches: the same interval with the seed-clustered variance of S(t). The median is NaN
    when more than half of the matches hit the cap (the curve never reaches 0.5); an open
    upper bound is NaN. With integer lengths the pointwise band may contain 0.5 at no time at
    all: the median is then pinned down exactly and its CI is [median, median].

    Returns:
        ``variant``, ``lineup``, ``matches``, ``capped``, ``cap`` (largest capped length),
        ``median``, ``median_low``, ``median_high`` (rounds), ``method``.
    """
    records = []
    for (variant, lineup), cell in matches.groupby(["variant", "lineup"], sort=True):
        finished = cell["finished"].to_numpy(dtype=bool)
        lengths = cell["rounds"].to_numpy(dtype=float)
        median = low = high = float("nan")
        clustered = _clustered(cell)
        if finished.any() and clustered:
            median, low, high = _median_ci(*clustered_km(lengths, finished, cell["seed"]), confidence)
        elif finished.any():
            sf = SurvfuncRight(lengths, finished.astype(int))
            median = float(sf.quantile(0.5))
            with np.errstate(all="ignore"):
                low, high = (float(v) for v in sf.quantile_ci(0.5, alpha=1 - confidence))
            if np.isnan(low) and np.isnan(high) and not np.isnan(median):
                low = high = median
            elif np.isnan(low):
                low = median
            high = float("nan") if np.isinf(high) else high
        records.append(
            {
                "variant": variant,
                "lineup": lineup,
                "matches": int(len(cell)),
                "capped": int((~finished).sum()),
                "cap": float(lengths[~finished].max()) if (~finished).any() else float("nan"),
                "median": median,
                "median_low": low,
                "median_high": high,
                "method": "Brookmeyer–Crowley, clustered by seed" if clustered else "Brookmeyer–Crowley",
            }
        )
    return pd.DataFrame.from_records(records)


def clustered_logrank(lengths, finished, in_variant, clusters) -> tuple[float, float, int]:
    """Log-rank score test of two arms with a cluster-robust variance (Lin & Wei 1989).

    U = Σ_j (d1_j − d_j·Y1_j/Y_j) over the event times (arm 1 = ``in_variant``). Each match's
    score residual is δ_k (z_k − z̄(t_k)) − Σ_{t_j ≤ t_k} (z_k − z̄(t_j)) d_j/Y_j; they sum to
    U, and Var(U) = G/(G − 1) Σ_c (Σ_{k∈c} residual_k)² over the G clusters. A pair of arms
    that share a seed is one cluster: the test is then paired.

    Returns:
        (statistic U/SE, two-sided p-value from t with ``df`` degrees of freedom, df).
    """
    t = np.asarray(lengths, dtype=float)
    event = np.asarray(finished, dtype=bool)
    z = np.asarray(in_variant, dtype=float)
    times = np.unique(t[event])
    if times.size == 0:
        return 0.0, 1.0, 0
    reached = np.searchsorted(times, t, side="right")  # event times <= t_k: at risk at those
    ends = np.bincount(np.searchsorted(times, t[event]), minlength=times.size).astype(float)

    def at_risk(weights=None):  # Σ over matches with reached_k > j, for every event time j
        counts = np.bincount(reached, weights=weights, minlength=times.size + 1).astype(float)
        return counts[::-1].cumsum()[::-1][1:]

    total, arm = at_risk(), at_risk(z)
    zbar = arm / total
    step = ends / total
    a = np.concatenate([[0.0], np.cumsum(step)])
    b = np.concatenate([[0.0], np.cumsum(zbar * step)])
    own = np.where(event, zbar[np.minimum(np.searchsorted(times, t), times.size - 1)], 0.0)
    residual = event * (z - own) - z * a[reached] + b[reached]
    index, groups = cluster_index(clusters, t.size)
    sums = np.bincount(index, weights=residual, minlength=groups)
    u = float(residual.sum())
    variance = groups / (groups - 1) * float(np.sum(sums**2)) if groups > 1 else 0.0
    arms = [np.unique(index[z == side]).size for side in (0.0, 1.0)]
    df = max(1, min(arms) - 1)
    if variance <= 1e-12 * max(1.0, u * u):
        return 0.0 if abs(u) < 1e-9 else float(np.sign(u) * np.inf), 1.0 if abs(u) < 1e-9 else 0.0, df
    statistic = u / np.sqrt(variance)
    return float(statistic), float(2 * stats.t.sf(abs(statistic), df)), df


def logrank_vs_baseline(matches: pd.DataFrame, baseline: str = "baseline", correction: str = "holm") -> pd.DataFrame:
    """Log-rank test of each variant's length distribution against the baseline, per line-up.

    With a ``seed`` column: :func:`clustered_logrank`, clustered by seed (paired where the
    variant replays the baseline's seeds, correct under seat rotation). Without it:
    ``scipy.stats.logrank(variant, baseline)`` on independent matches. The p-values of the
    table are then corrected together (:func:`analysis.effects.adjust_pvalues`, ``correction``).

    Returns:
        ``lineup``, ``variant``, ``statistic`` (z or t), ``p``, ``p_adjusted``, ``test``
        (empty frame if no variant).
    """
    records = []
    for lineup, group in matches.groupby("lineup", sort=True):
        base = group[group["variant"] == baseline]
        if base.empty:
            continue
        for variant, cell in group.groupby("variant", sort=True):
            if variant == baseline:
                continue
            statistic, p, test = _compare(cell, base)
            records.append({"lineup": lineup, "variant": variant, "statistic": statistic, "p": p, "test": test})
    table = pd.DataFrame.from_records(records, columns=["lineup", "variant", "statistic", "p", "test"])
    if not table.empty:
        table["p_adjusted"] = adjust_pvalues(table["p"].to_numpy(), correction)
    return table


def _compare(cell: pd.DataFrame, base: pd.DataFrame) -> tuple[float, float, str]:
    if not (cell["finished"].astype(bool).any() or base["finished"].astype(bool).any()):
        return 0.0, 1.0, "no match ended"
    if "seed" in cell.columns and "seed" in base.columns:
        both = pd.concat([cell, base], ignore_index=True)
        in_variant = np.r_[np.ones(len(cell)), np.zeros(len(base))]
        statistic, p, _ = clustered_logrank(both["rounds"], both["finished"].astype(bool), in_variant, both["seed"])
        paired = bool(np.isin(cell["seed"].to_numpy(), base["seed"].to_numpy()).any())
        return statistic, p, "log-rank, clustered by seed" + (" (paired)" if paired else "")
    with np.errstate(all="ignore"):
        result = stats.logrank(_censored(cell), _censored(base))
    statistic, p = float(result.statistic), float(result.pvalue)
    if np.isnan(p):  # identical samples with no variance
        statistic, p = 0.0, 1.0
    return statistic, p, "log-rank"
