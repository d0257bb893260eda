"""Design targets: metrics measured from the tables, a band loss, and equivalence tests.

A target names a metric, the line-up it is measured on, and a band: either
``target ± tolerance`` or ``[low, high]``. Metrics (any game):

- ``seat_win_rate`` (``seat``): the share of matches won by a seat.
- ``profile_win_rate`` (``profile``): wins of a profile over its appearances (e.g. "expert
  beats club 70 % ± 5" on an expert-vs-club line-up with seat rotation).
- ``rounds_quantile`` (``quantile``, 0.5 = median) and ``rounds_mean``: game length in rounds.
- ``length_quantile`` and ``length_mean``: the same of the game's own length column (its
  ``GameSpec.length``, e.g. Gastérospeed's turns per race; ``column`` names another).
- ``completion``: the share of matches that finished before the cap.
- ``game`` (``name``): a key of the game's own ``summary`` (e.g. ``ko_rate``).
- ``worth`` (``choice``) and ``worth_spread`` (``choices``, default all): what a choice is
  worth in win rate, measured by restricted play (:mod:`analysis.balance.worth`): the player
  of ``slot`` forbids the choice on the same seeds.

The loss of a set of measured metrics is a band loss (docs/statistics.md):
``Σ_k max(0, |m_k − centre_k| − half_k)² / half_k²`` — zero inside every band. The search
minimises ``loss + Σ_k pull_k ((m_k − centre_k) / half_k)²`` (:func:`objective`): with a
``pull`` a target steers the search towards the middle of its band, where a candidate
measured on a few hundred matches is least likely to fall outside on fresh seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from scipy.stats import norm

from sim.core.config import param
from sim.core.estimators import cluster_counts, cluster_index, clustered_wilson, small_sample_factor

from .worth import WORTH_METRICS, lineup_worth_table, measure_worth

__all__ = [
    "Target",
    "MatchResampler",
    "game_parts_of",
    "measure",
    "measure_all",
    "band_loss",
    "centre_distance",
    "objective",
    "check_target",
    "check_tables",
    "select_lineup",
    "RATES",
]


@dataclass(frozen=True)
class Target:
    """One design target (see the module docstring for the metrics)."""

    metric: Literal[
        "seat_win_rate",
        "profile_win_rate",
        "rounds_quantile",
        "rounds_mean",
        "length_quantile",
        "length_mean",
        "completion",
        "game",
        "worth",
        "worth_spread",
    ] = "seat_win_rate"
    lineup: str = param("", doc="the line-up measured (default: the first)")
    seat: int = param(0, min=0)
    profile: str = ""
    quantile: float = param(0.5, min=0.0, max=1.0)
    name: str = param("", doc="the game metric's key (metric = 'game')")
    column: str = param(
        "",
        doc="length_mean / length_quantile: the matches table's column (default: the "
        "game's own length, set when the file is read)",
    )
    choice: str = param(
        "", doc="worth: the choice whose worth is targeted (a name `tablesim worth GAME --list` prints)"
    )
    choices: tuple[str, ...] = param(
        (), doc="worth_spread: the choices compared (default: every one the game declares)"
    )
    slot: int = param(0, min=0, doc="worth, worth_spread: the line-up's player who forbids each choice (0: the first)")
    target: float = param(float("nan"), doc="centre of the band")
    tolerance: float = param(0.0, min=0.0, doc="half-width of the band")
    low: float = param(float("nan"), doc="band low (instead of target ± tolerance)")
    high: float = param(float("nan"), doc="band high")
    pull: float = param(
        0.0,
        min=0.0,
        doc="weight of the distance to the band's centre in the search "
        "objective (0: any point inside the band is as good)",
    )

    def problems(self):
        has_centre = not np.isnan(self.target)
        has_band = not (np.isnan(self.low) or np.isnan(self.high))
        if has_centre == has_band:
            yield "target", "give either target and tolerance, or low and high"
        elif has_centre and self.tolerance <= 0:
            yield "tolerance", "must be > 0 with a target"
        elif has_band and self.low >= self.high:
            yield "low", f"must be < high ({self.high})"
        if self.metric == "profile_win_rate" and not self.profile:
            yield "profile", "missing; the profile whose win rate is targeted"
        if self.metric == "game" and not self.name:
            yield "name", "missing; the key of the game's summary metric"
        if self.metric == "worth" and not self.choice:
            yield "choice", "missing; the choice whose worth is targeted"

    @property
    def band(self) -> tuple[float, float]:
        if not np.isnan(self.target):
            return self.target - self.tolerance, self.target + self.tolerance
        return self.low, self.high

    @property
    def label(self) -> str:
        detail = {
            "seat_win_rate": f"seat {self.seat}",
            "profile_win_rate": self.profile,
            "rounds_quantile": f"q{self.quantile:g}",
            "game": self.name,
            "length_quantile": f"{self.column} q{self.quantile:g}",
            "length_mean": self.column,
            "worth": self.choice,
            "worth_spread": ",".join(self.choices),
        }.get(self.metric, "")
        where = f" @{self.lineup}" if self.lineup else ""
        return f"{self.metric}({detail}){where}" if detail else f"{self.metric}{where}"


def game_parts_of(spec) -> tuple[Callable, Callable] | None:
    """A game's ``(metric_parts, metrics_from_parts)`` hooks for :func:`measure_all`, or None
    when it lacks either."""
    if spec.metric_parts is None or spec.metrics_from_parts is None:
        return None
    return spec.metric_parts, spec.metrics_from_parts


def select_lineup(tables: Mapping[str, pd.DataFrame], lineup: str) -> dict[str, pd.DataFrame]:
    """The rows of one line-up in every table (all rows when ``lineup`` is empty)."""
    if not lineup:
        return dict(tables)
    return {name: frame[frame["lineup"] == lineup] if len(frame) else frame for name, frame in tables.items()}


def _value(
    target: Target,
    tables: Mapping[str, pd.DataFrame],
    game_summary: Callable[[Mapping[str, pd.DataFrame]], Mapping[str, float]] | None,
) -> float:
    matches, players = tables["matches"], tables["players"]
    if target.metric == "seat_win_rate":
        return float(players.loc[players["seat"] == target.seat, "won"].mean())
    if target.metric == "profile_win_rate":
        return float(players.loc[players["profile"] == target.profile, "won"].mean())
    if target.metric in LENGTHS:
        lengths = matches[length_column(target)]
        return float(lengths.mean() if target.metric in MEANS else np.quantile(lengths, target.quantile))
    if target.metric == "completion":
        return float(matches["finished"].astype(bool).mean())
    if game_summary is None:
        raise ValueError(f"{target.label}: this game has no summary metrics")
    metrics = game_summary(tables)
    if target.name not in metrics:
        raise KeyError(f"{target.label}: unknown game metric {target.name!r}; allowed: {', '.join(sorted(metrics))}")
    return float(metrics[target.name])


def measure(
    target: Target,
    tables: Mapping[str, pd.DataFrame],
    game_summary=None,
    bootstrap: int = 0,
    seed: int = 0,
    confidence: float = 0.90,
) -> dict[str, Any]:
    """The metric's value on the tables, optionally with a CI (see :func:`measure_all`)."""
    return measure_all([target], tables, game_summary, bootstrap, seed, confidence)[0]


RATES = ("seat_win_rate", "profile_win_rate", "completion")
#: length metrics: a mean or a quantile of a column of the matches table
LENGTHS = ("rounds_mean", "rounds_quantile", "length_mean", "length_quantile")
MEANS = ("rounds_mean", "length_mean")


def length_column(target: Target) -> str:
    """The matches column a length target reads: ``rounds``, or the game's own length."""
    return "rounds" if target.metric.startswith("rounds_") else (target.column or "rounds")


def _clusters(matches: pd.DataFrame) -> np.ndarray:
    """Cluster label of every match: its seed when seeds hold several matches, else the match."""
    if "seed" in matches.columns and matches["seed"].duplicated().any():
        return matches["seed"].to_numpy()
    return np.arange(len(matches))


def _rate(target: Target, tables: Mapping[str, pd.DataFrame], confidence: float) -> dict[str, Any]:
    """A rate target with the seed-clustered Wilson interval (the report's interval)."""
    matches, players = tables["matches"], tables["players"]
    if target.metric == "completion":
        outcome, clusters = matches["finished"].astype(float).to_numpy(), _clusters(matches)
    else:
        rows = (
            players[players["seat"] == target.seat]
            if target.metric == "seat_win_rate"
            else players[players["profile"] == target.profile]
        )
        clustered = "seed" in players.columns and "seed" in matches.columns and matches["seed"].duplicated().any()
        outcome = rows["won"].astype(float).to_numpy()
        clusters = rows["seed"].to_numpy() if clustered else np.arange(len(rows))
    k, m = cluster_counts(outcome, clusters)
    value, low, high, deff = clustered_wilson(k, m, confidence)
    return {
        "value": value,
        "n": int(m.sum()),
        "ci_low": low,
        "ci_high": high,
        "design_effect": deff,
        "clusters": int(m.size),
    }


def measure_all(
    targets: list[Target],
    tables: Mapping[str, pd.DataFrame],
    game_summary=None,
    bootstrap: int = 0,
    seed: int = 0,
    confidence: float = 0.90,
    game_parts: tuple[Callable, Callable] | None = None,
) -> list[dict[str, Any]]:
    """Each target's value on the tables and, with ``bootstrap`` > 0, its CI.

    Matches that share a seed (seat rotation) are one cluster, as in the report:

    * rates (``seat_win_rate``, ``profile_win_rate``, ``completion``) get the Wilson interval
      on the effective sample size n/(deff·c), deff the seed design effect and c its
      small-sample factor (the very interval of
      :func:`analysis.winrates.profile_win_rates` and ``seat_win_rates(simultaneous=False)``),
      whatever ``bootstrap`` is;
    * mean lengths (``rounds_mean``, ``length_mean``) get a studentized (bootstrap-t) interval
      over seeds (:func:`_studentized_mean_ci`);
    * ``worth`` and ``worth_spread`` get the paired intervals of restricted play, clustered by
      seed (:func:`analysis.balance.worth.measure_worth`), whatever ``bootstrap`` is;
    * every other metric gets a percentile bootstrap over seeds (whole seeds are drawn, with
      all their rotations; without rotation a seed is a match).

    The game's summary is computed once per table set, and targets on the same line-up share
    their resamples (one summary per resample serves every ``game`` metric). With
    ``game_parts = (metric_parts, metrics_from_parts)`` (a game's optional hooks) and only game
    metrics those hooks compute, a resample reweights per-match parts instead of re-running the
    summary — the same draws and the same intervals, in milliseconds instead of minutes.
    Built-in length metrics are resampled from per-seed sums in the same way.

    Returns:
        one dict per target: ``value``, ``n``, ``ci_low``, ``ci_high`` (and for rates
        ``design_effect`` and ``clusters``).
    """
    results: list[dict[str, Any] | None] = [None] * len(targets)
    by_lineup: dict[str, list[int]] = {}
    worth_tables: dict[str, pd.DataFrame] = {}
    for index, target in enumerate(targets):
        if target.metric in WORTH_METRICS:
            if target.lineup not in worth_tables:
                worth_tables[target.lineup] = lineup_worth_table(target, tables)
            results[index] = measure_worth(target, tables, confidence, worth_tables[target.lineup])
            continue
        by_lineup.setdefault(target.lineup, []).append(index)
    for lineup, indices in by_lineup.items():
        selected = select_lineup(tables, lineup)
        summary = _once(game_summary)
        n = int(len(selected["matches"]))
        resampled = []
        for index in indices:
            target = targets[index]
            if target.metric in RATES:
                results[index] = _rate(target, selected, confidence)
                continue
            results[index] = {
                "value": _value(target, selected, summary),
                "n": n,
                "ci_low": float("nan"),
                "ci_high": float("nan"),
            }
            if bootstrap and target.metric in MEANS:
                low, high = _studentized_mean_ci(target, selected, bootstrap, seed, confidence)
                results[index].update(ci_low=low, ci_high=high)
            elif bootstrap:
                resampled.append(index)
        if resampled:
            draws = _bootstrap_draws(
                [targets[i] for i in resampled], selected, game_summary, game_parts, bootstrap, seed
            )
            alpha = 1 - confidence
            for column, index in enumerate(resampled):
                results[index].update(
                    ci_low=float(np.quantile(draws[:, column], alpha / 2)),
                    ci_high=float(np.quantile(draws[:, column], 1 - alpha / 2)),
                )
    return results  # type: ignore[return-value]


def _bootstrap_draws(
    targets: list[Target], tables: Mapping[str, pd.DataFrame], game_summary, game_parts, bootstrap: int, seed: int
) -> np.ndarray:
    """Bootstrap values (resamples × targets): whole seeds drawn, one set of draws for all."""
    clusters = _clusters(tables["matches"])
    index, groups = cluster_index(clusters)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, groups, (bootstrap, groups))  # the same draws as one call per resample
    counts = np.bincount(
        (picks + groups * np.arange(bootstrap)[:, None]).ravel(), minlength=bootstrap * groups
    ).reshape(bootstrap, groups)
    weights = counts[:, index]  # resamples × matches: copies of each match in each resample
    draws = np.full((bootstrap, len(targets)), np.nan)
    builtin = [i for i, t in enumerate(targets) if t.metric in LENGTHS]
    for column in builtin:
        lengths = tables["matches"][length_column(targets[column])].to_numpy(float)
        draws[:, column] = _weighted_rounds(targets[column], lengths, weights)
    game = [i for i in range(len(targets)) if i not in builtin]
    if not game:
        return draws
    parts = _parts_draws([targets[i] for i in game], tables, game_parts, weights)
    if parts is None:
        resample = MatchResampler(tables)
        parts = np.empty((bootstrap, len(game)))
        for row, pick in enumerate(picks):
            sample, summary = resample.take(pick), _once(game_summary)
            parts[row] = [_value(targets[i], sample, summary) for i in game]
    draws[:, game] = parts
    return draws


def _studentized_mean_ci(
    target: Target, tables: Mapping[str, pd.DataFrame], bootstrap: int, seed: int, confidence: float
) -> tuple[float, float]:
    """Bootstrap-t interval of a mean length over seeds (Davison & Hinkley 1997, §5.2.1).

    Whole seeds are drawn, as for every bootstrap here; each resample's mean is studentized by
    its own cluster-robust standard error (the ratio estimator's, × G/(G − 1)), and the
    interval is ``[m − t*_{1−a/2}·se, m − t*_{a/2}·se]`` with the t* quantiles taken outward.
    A percentile interval misses a right-skewed mean's upper side too often on few seeds
    (measured: 9 % instead of 5 % at 50 exponential lengths); studentizing corrects the skew
    to second order.
    """
    matches = tables["matches"]
    x = matches[length_column(target)].to_numpy(float)
    index, groups = cluster_index(_clusters(matches))
    if groups < 2:
        return float("nan"), float("nan")
    totals = np.bincount(index, weights=x, minlength=groups)
    sizes = np.bincount(index, minlength=groups).astype(float)

    def mean_and_se(copies: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        count = copies @ sizes
        mean = (copies @ totals) / count
        squares = copies @ totals**2 - 2 * mean * (copies @ (totals * sizes)) + mean**2 * (copies @ sizes**2)
        return mean, np.sqrt(np.maximum(squares, 0.0) * groups / (groups - 1)) / count

    m, se = mean_and_se(np.ones(groups))
    if not se > 0:
        return float(m), float(m)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, groups, (bootstrap, groups))
    copies = (
        np.bincount((picks + groups * np.arange(bootstrap)[:, None]).ravel(), minlength=bootstrap * groups)
        .reshape(bootstrap, groups)
        .astype(float)
    )
    means, errors = mean_and_se(copies)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (means - m) / errors
    t = t[~np.isnan(t)]
    tail = (1 - confidence) / 2
    upper_t = float(np.quantile(t, 1 - tail, method="higher"))
    lower_t = float(np.quantile(t, tail, method="lower"))
    return float(m - upper_t * se), float(m - lower_t * se)


def _weighted_rounds(target: Target, rounds: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Mean or quantile of a length in each weighted resample (weights: resamples × matches)."""
    if target.metric in MEANS:
        return (weights @ rounds) / weights.sum(axis=1)
    order = np.argsort(rounds, kind="stable")
    cumulative = np.cumsum(weights[:, order], axis=1)
    totals = cumulative[:, -1]
    # the empirical quantile as numpy's default ("linear") method on the resample's sorted values
    position = target.quantile * (totals - 1)
    below, frac = np.floor(position), position - np.floor(position)
    sorted_rounds = rounds[order]
    lower = sorted_rounds[np.argmax(cumulative > below[:, None], axis=1)]
    upper = sorted_rounds[np.argmax(cumulative > below[:, None] + 1, axis=1)]
    return lower + frac * (upper - lower)


def _parts_draws(
    targets: list[Target], tables: Mapping[str, pd.DataFrame], game_parts, weights: np.ndarray
) -> np.ndarray | None:
    """Bootstrap draws from per-match parts (None when the game has no parts for these targets).

    ``weights`` (resamples × matches) are the copies of each match in each resample — the
    draws of :class:`MatchResampler` with the same picks, so both paths give identical
    intervals.
    """
    if game_parts is None or any(t.metric != "game" for t in targets):
        return None
    metric_parts, metrics_from_parts = game_parts
    parts = metric_parts(tables)
    n = len(tables["matches"])
    probe = metrics_from_parts(parts.sum().to_frame().T)
    if len(parts) != n or any(t.name not in probe.columns for t in targets):
        return None
    sums = weights @ parts.to_numpy(float)
    metrics = metrics_from_parts(pd.DataFrame(sums, columns=parts.columns))
    return metrics[[t.name for t in targets]].to_numpy(float)


def _once(game_summary):
    """The game's summary function, memoised for one table set (None stays None)."""
    if game_summary is None:
        return None
    cache: dict[str, Mapping[str, float]] = {}

    def summary(tables):
        if "value" not in cache:
            cache["value"] = game_summary(tables)
        return cache["value"]

    return summary


class MatchResampler:
    """Draw bootstrap resamples of whole seeds (or matches) from a run's tables, fast.

    Matches that share a seed (seat rotation) form one cluster and are drawn together; without
    a ``seed`` column, or when every seed holds one match, a cluster is a match. Every table's
    rows are grouped once by match (``variant, lineup, match``); a resample draws clusters
    with replacement and gathers their matches' rows with one ``iloc`` per table. Each drawn
    copy of a match gets its own ``match`` number (its position in the resample), so a match
    drawn twice counts twice in the game's group-bys instead of collapsing into one.
    """

    KEYS = ("variant", "lineup", "match")

    def __init__(self, tables: Mapping[str, pd.DataFrame]):
        matches = tables["matches"]
        keys = [k for k in self.KEYS if k in matches.columns]
        index = pd.MultiIndex.from_frame(matches[keys])
        self.matches = len(matches)
        cluster, self.n = cluster_index(_clusters(matches))
        self._members = np.argsort(cluster, kind="stable")  # matches ordered by cluster
        self._sizes = np.bincount(cluster, minlength=self.n)
        self._first = np.concatenate([[0], np.cumsum(self._sizes)[:-1]])
        self._tables: dict[str, tuple[pd.DataFrame, np.ndarray | None, np.ndarray, np.ndarray]] = {}
        for name, frame in tables.items():
            if not len(frame) or not set(keys) <= set(frame.columns):
                self._tables[name] = (frame, None, np.zeros(0, int), np.zeros(0, int))
                continue
            position = index.get_indexer(pd.MultiIndex.from_frame(frame[keys]))
            order = np.argsort(position, kind="stable")
            counts = np.bincount(position[position >= 0], minlength=self.matches)
            starts = np.concatenate([[0], np.cumsum(counts)[:-1]]) + int((position < 0).sum())
            self._tables[name] = (frame, order, starts, counts)

    def __call__(self, rng: np.random.Generator) -> dict[str, pd.DataFrame]:
        return self.take(rng.integers(0, self.n, self.n))

    def take(self, pick: np.ndarray) -> dict[str, pd.DataFrame]:
        """The tables of the clusters ``pick`` (cluster numbers, repeats allowed)."""
        sizes = self._sizes[pick]
        offsets = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        matches = self._members[np.repeat(self._first[pick], sizes) + offsets]
        total_matches = matches.size
        sample = {}
        for name, (frame, order, starts, counts) in self._tables.items():
            if order is None:
                sample[name] = frame
                continue
            lengths = counts[matches]
            total = int(lengths.sum())
            first = np.repeat(starts[matches] - (np.cumsum(lengths) - lengths), lengths)
            rows = order[first + np.arange(total)]
            part = frame.iloc[rows].reset_index(drop=True)
            part["match"] = np.repeat(np.arange(total_matches), lengths)
            sample[name] = part
        return sample


def band_loss(targets: list[Target], values: list[float]) -> float:
    """Σ max(0, |m − centre| − half)² / half² over the targets (0 inside every band)."""
    loss = 0.0
    for target, value in zip(targets, values):
        low, high = target.band
        centre, half = (low + high) / 2, (high - low) / 2
        if np.isnan(value):
            return float("inf")
        excess = max(0.0, abs(value - centre) - half)
        loss += (excess / half) ** 2
    return float(loss)


def centre_distance(targets: list[Target], values: list[float], weighted: bool = False) -> float:
    """Σ ((m − centre) / half-width)² over the targets (each times its ``pull`` if weighted)."""
    total = 0.0
    for target, value in zip(targets, values):
        low, high = target.band
        weight = target.pull if weighted else 1.0
        if weight:
            total += weight * ((value - (low + high) / 2) / ((high - low) / 2)) ** 2
    return float(total)


def objective(targets: list[Target], values: list[float]) -> float:
    """What the search minimises: the band loss plus each target's pull towards its centre."""
    loss = band_loss(targets, values)
    return loss + centre_distance(targets, values, weighted=True) if np.isfinite(loss) else loss


def check_target(target: Target, measured: Mapping[str, Any], alpha: float = 0.05) -> dict[str, Any]:
    """Equivalence test (TOST) that the true metric lies inside the band, at level ``alpha``.

    With a (1 − 2α) CI from :func:`measure_all`, the two one-sided tests both reject exactly
    when the CI lies inside the band. For rates the TOST p-value is that of the two one-sided
    score tests on the effective sample size n/(deff·c), c the small-sample factor of the
    seeds at one-sided level α — the tests the clustered Wilson interval inverts, so
    ``p_tost < alpha`` ⇔ ``met``.
    """
    low, high = target.band
    inside_ci = measured["ci_low"] >= low and measured["ci_high"] <= high
    result = {"target": target.label, "band": [low, high], **measured, "met": bool(inside_ci), "alpha": alpha}
    if target.metric in RATES and measured["n"]:
        groups = measured.get("clusters", measured["n"])
        factor = float(small_sample_factor(groups, alpha, measured["n"] > groups and 0 < measured["value"] < 1))
        p, n = measured["value"], measured["n"] / (measured.get("design_effect", 1.0) * factor)
        with np.errstate(invalid="ignore", divide="ignore"):
            p_low = norm.sf((p - low) / np.sqrt(low * (1 - low) / n)) if 0 < low < 1 else 0.0
            p_high = norm.cdf((p - high) / np.sqrt(high * (1 - high) / n)) if 0 < high < 1 else 0.0
        result["p_tost"] = float(max(p_low, p_high))
    return result


def check_tables(
    targets: list[Target],
    tables: Mapping[str, pd.DataFrame],
    game_summary=None,
    bootstrap: int = 0,
    seed: int = 0,
    alpha: float = 0.05,
    game_parts: tuple[Callable, Callable] | None = None,
) -> list[dict[str, Any]]:
    """Every target measured with its (1 − 2α) CI and checked by TOST at ``alpha``.

    What balance validation applies to a candidate's fresh-seed tables (one look spends
    ``alpha``, see :mod:`analysis.balance.looks`).
    """
    measured = measure_all(targets, tables, game_summary, bootstrap, seed, 1 - 2 * alpha, game_parts)
    return [check_target(target, m, alpha) for target, m in zip(targets, measured)]
