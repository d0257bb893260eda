"""Game length as survival: matches stopped by the round cap are right-censored (stats.md §4).

A match that hit the cap after ``rounds`` rounds would have lasted longer, so its length is
known only to exceed the cap. The Kaplan–Meier estimate S(t) = P(length > t) uses that
information instead of counting the cap as a length (which biases the mean down) or dropping
those matches (which biases it further). Variants are compared with the log-rank test.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.duration.survfunc import SurvfuncRight
from statsmodels.stats.multitest import multipletests

__all__ = ["km_curves", "km_summary", "logrank_vs_baseline"]


def _censored(cell: pd.DataFrame) -> stats.CensoredData:
    lengths = cell["rounds"].to_numpy(dtype=float)
    finished = cell["finished"].to_numpy(dtype=bool)
    return stats.CensoredData(uncensored=lengths[finished], right=lengths[~finished])


def km_curves(matches: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Kaplan–Meier survival curve of the length of each cell, with pointwise CIs.

    ``scipy.stats.ecdf(CensoredData(uncensored=finished lengths, right=capped lengths))``;
    the CI is scipy's log-log interval (Greenwood variance).

    Args:
        matches: the matches table (``rounds``, ``finished``, ``variant``, ``lineup``).
        confidence: pointwise coverage.

    Returns:
        long frame: ``variant``, ``lineup``, ``rounds`` (t), ``survival`` (P(length > t)),
        ``ci_low``, ``ci_high``; each curve starts at (0, 1).
    """
    frames = []
    for (variant, lineup), cell in matches.groupby(["variant", "lineup"], sort=True):
        if not cell["finished"].astype(bool).any():
            t, s, low, high = np.array([0.0]), np.array([1.0]), np.array([1.0]), np.array([1.0])
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
        frames.append(pd.DataFrame({"variant": variant, "lineup": lineup, "rounds": t,
                                    "survival": s, "ci_low": low, "ci_high": high}))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def km_summary(matches: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per cell: matches, capped matches, and the Kaplan–Meier median length with its CI.

    ``statsmodels.duration.survfunc.SurvfuncRight(rounds, finished)``: ``quantile(0.5)`` and
    ``quantile_ci(0.5)`` (Brookmeyer–Crowley, cloglog). The median is NaN when more than half
    of the matches hit the cap (the curve never reaches 0.5); an open upper bound is NaN.
    With integer lengths the pointwise band may contain 0.5 at no time at all: the median is
    then pinned down exactly and its CI is [median, median].

    Returns:
        ``variant``, ``lineup``, ``matches``, ``capped``, ``cap`` (largest capped length),
        ``median``, ``median_low``, ``median_high`` (rounds).
    """
    records = []
    for (variant, lineup), cell in matches.groupby(["variant", "lineup"], sort=True):
        finished = cell["finished"].to_numpy(dtype=bool)
        lengths = cell["rounds"].to_numpy(dtype=float)
        median = low = high = float("nan")
        if finished.any():
            sf = SurvfuncRight(lengths, finished.astype(int))
            median = float(sf.quantile(0.5))
            with np.errstate(all="ignore"):
                low, high = (float(v) for v in sf.quantile_ci(0.5, alpha=1 - confidence))
            if np.isnan(low) and np.isnan(high) and not np.isnan(median):
                low = high = median
            elif np.isnan(low):
                low = median
        records.append({"variant": variant, "lineup": lineup, "matches": int(len(cell)),
                        "capped": int((~finished).sum()),
                        "cap": float(lengths[~finished].max()) if (~finished).any() else float("nan"),
                        "median": median, "median_low": low, "median_high": high})
    return pd.DataFrame.from_records(records)


def logrank_vs_baseline(matches: pd.DataFrame, baseline: str = "baseline",
                        correction: str = "holm") -> pd.DataFrame:
    """Log-rank test of each variant's length distribution against the baseline, per line-up.

    ``scipy.stats.logrank(variant, baseline)`` on censored lengths, then the p-values of the
    table corrected together (``multipletests(..., method=correction)``). The test treats the
    two samples as independent; under common random numbers they are positively correlated,
    which makes it conservative.

    Returns:
        ``lineup``, ``variant``, ``statistic`` (z), ``p``, ``p_adjusted`` (empty frame if no
        variant).
    """
    records = []
    for lineup, group in matches.groupby("lineup", sort=True):
        base = group[group["variant"] == baseline]
        if base.empty:
            continue
        for variant, cell in group.groupby("variant", sort=True):
            if variant == baseline:
                continue
            if not (cell["finished"].astype(bool).any() or base["finished"].astype(bool).any()):
                statistic, p = 0.0, 1.0
            else:
                with np.errstate(all="ignore"):
                    result = stats.logrank(_censored(cell), _censored(base))
                statistic, p = float(result.statistic), float(result.pvalue)
                if np.isnan(p):  # identical samples with no variance
                    statistic, p = 0.0, 1.0
            records.append({"lineup": lineup, "variant": variant, "statistic": statistic, "p": p})
    table = pd.DataFrame.from_records(records, columns=["lineup", "variant", "statistic", "p"])
    if not table.empty:
        table["p_adjusted"] = multipletests(table["p"].to_numpy(), method=correction)[1]
    return table
