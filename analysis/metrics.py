"""Ludii-style design metrics from the tidy tables (the metrics of Ludii's evaluation module,
github.com/Ludeme/Ludii, Evaluation/src/metrics; Browne 2008, "Automatic generation and
evaluation of recombination games", PhD thesis, QUT).

Every metric is computed for each match from the ``rounds`` table (cumulative score of every
seat after every round) and ``players`` / ``matches``, then averaged over matches, with a CI
from a bootstrap over seeds (:mod:`analysis.bootstrap`) or a Wilson interval for rates.
The in-game evaluation of a seat is its cumulative score ``c_p(t)`` after round t, divided by
the match's largest |cumulative score| (a normalised score, rather than a fitted in-game win
probability), so it lies in [−1, 1] whatever the game's point scale.

Definitions (per match unless stated; W = the match's winners, R = its rounds):

* **balance** (cell): 1 − max_{i<j} |w_i − w_j| over the seat win rates (Ludii
  ``Balance``); 1 = every seat wins equally often.
* **advantage of seat 0** (cell): seat 0's win rate (Ludii ``AdvantageP1``; seat 0 plays
  first).
* **completion** (cell): share of matches with a winner (Ludii ``Completion``).
* **drawishness** (cell): share of matches that ended naturally without a winner.
* **timeouts** (cell): share of matches stopped by the round cap (Ludii ``Timeouts``).
* **duration**: rounds played (Ludii ``DurationTurns``); also its SD and the Kaplan–Meier
  median (the cap as censoring, :mod:`analysis.survival`).
* **lead changes**: number of rounds r ≥ 2 after which the set of leaders (the seats with
  the highest cumulative score) differs from the set after round r − 1; the **lead-change
  rate** divides it by R − 1 (Ludii ``LeadChange``).
* **drama**: mean over rounds of (max_p c_p(t) − mean_{w∈W} c_w(t)) / scale: how far the
  eventual winner trailed the leader, as a fraction of the match's top score (Ludii
  ``Drama``; Browne 2008); undefined without a winner. **winner trailing**: the share of
  rounds in which the eventual winner was behind.
* **decisiveness**: r*/R, where r* is the first round after which a winner's cumulative
  score exceeds the highest cumulative score any non-winner reaches in the whole match
  (Ludii ``DecisivenessMoves`` with ``DecisivenessThreshold``); 1 if that never happens.
  Low = the result was safe early (runaway leader); near 1 = decided at the end.
* **margin**: final score of the first minus the second (points).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from .bootstrap import DEFAULT_RESAMPLES, bootstrap_ci, mean_ci
from .winrates import clustered_wilson

__all__ = ["per_match_metrics", "design_metrics", "METRICS"]

KEYS = ["variant", "lineup", "match"]

#: metric → (label, unit, one-line definition), in report order.
METRICS = {
    "balance": ("Balance", "0–1", "1 − largest gap between two seats' win rates (Ludii Balance)"),
    "advantage_seat0": ("Advantage of seat 0", "share", "seat 0's win rate (Ludii AdvantageP1)"),
    "completion": ("Completion", "share", "matches with a winner"),
    "drawishness": ("Drawishness", "share", "matches ended without a winner (not by the cap)"),
    "timeouts": ("Timeouts", "share", "matches stopped by the round cap"),
    "duration": ("Duration", "rounds", "mean rounds per match (capped matches at the cap)"),
    "duration_sd": ("Duration SD", "rounds", "standard deviation of the rounds per match"),
    "duration_km_median": ("Duration (KM median)", "rounds", "Kaplan–Meier median length, capped matches as censored"),
    "lead_changes": ("Lead changes", "per match", "rounds after which the set of leaders changed"),
    "lead_change_rate": ("Lead-change rate", "per round", "lead changes / (rounds − 1) (Ludii LeadChange)"),
    "drama": ("Drama", "fraction of top score", "mean deficit of the eventual winner behind the leader (Ludii Drama)"),
    "winner_trailing": ("Winner trailing", "share of rounds", "rounds in which the eventual winner was behind"),
    "decisiveness": (
        "Decisiveness",
        "fraction of match",
        "point after which the winner's lead was safe (Ludii DecisivenessMoves)",
    ),
    "margin": ("Margin", "points", "final score of 1st − 2nd, matches with a winner"),
}


def per_match_metrics(rounds: pd.DataFrame, players: pd.DataFrame) -> pd.DataFrame:
    """Lead changes, drama, winner trailing and decisiveness of every match (see module doc).

    Args:
        rounds: the rounds table (``round``, ``seat``, ``cumulative`` and the keys); may be
            empty, then the result is empty.
        players: the players table (``seat``, ``won`` and the keys).

    Returns:
        one row per match with ``lead_changes`` (count), ``lead_change_rate`` (per round),
        ``drama`` (fraction of the top score), ``winner_trailing`` (share of rounds) and
        ``decisiveness`` (fraction of the match); NaN where undefined.
    """
    needed = {"round", "seat", "cumulative", *KEYS}
    if rounds is None or rounds.empty or not needed <= set(rounds.columns):
        return pd.DataFrame(columns=KEYS)
    frames = []
    for (variant, lineup), cell in rounds.groupby(["variant", "lineup"], sort=True):
        frame = _cell_metrics(cell, players[(players["variant"] == variant) & (players["lineup"] == lineup)])
        frame.insert(0, "lineup", lineup)
        frame.insert(0, "variant", variant)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=KEYS)


def _cell_metrics(rounds: pd.DataFrame, players: pd.DataFrame) -> pd.DataFrame:
    wide = rounds.pivot_table(
        index=["match", "round"], columns="seat", values="cumulative", aggfunc="last"
    ).sort_index()
    wide = wide.groupby(level="match").ffill().fillna(0.0)
    cum = wide.to_numpy(dtype=float)
    seats = wide.columns.to_numpy()
    match_ids = wide.index.get_level_values("match").to_numpy()
    matches, row_match, rounds_per = np.unique(match_ids, return_inverse=True, return_counts=True)
    starts = np.concatenate([[0], np.cumsum(rounds_per)[:-1]])
    position = np.arange(len(cum)) - starts[row_match] + 1  # 1-based round position in its match

    won = (
        players.pivot_table(index="match", columns="seat", values="won", aggfunc="max")
        .reindex(index=matches, columns=seats)
        .fillna(False)
        .astype(bool)
        .to_numpy()
    )
    has_winner = won.any(axis=1)
    winners = won[row_match]

    top = cum.max(axis=1)
    leaders = (cum == top[:, None]) @ (1 << np.arange(cum.shape[1], dtype=np.int64))
    changed = np.zeros(len(cum), dtype=bool)
    changed[1:] = (leaders[1:] != leaders[:-1]) & (row_match[1:] == row_match[:-1])
    lead_changes = np.bincount(row_match, weights=changed, minlength=len(matches))
    with np.errstate(invalid="ignore", divide="ignore"):
        lead_rate = np.where(rounds_per > 1, lead_changes / (rounds_per - 1), np.nan)

    scale = np.maximum.reduceat(np.abs(cum).max(axis=1), starts)
    scale = np.where(scale > 0, scale, 1.0)
    n_win = winners.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        winner_value = np.where(n_win > 0, (cum * winners).sum(axis=1) / n_win, np.nan)
    deficit = (top - winner_value) / scale[row_match]
    drama = np.bincount(row_match, weights=np.nan_to_num(deficit), minlength=len(matches)) / rounds_per
    trailing = np.bincount(row_match, weights=np.nan_to_num(deficit) > 0, minlength=len(matches)) / rounds_per

    others = np.where(winners, -np.inf, cum).max(axis=1)
    threshold = np.maximum.reduceat(others, starts)
    best_winner = np.where(winners, cum, -np.inf).max(axis=1)
    above = best_winner > threshold[row_match]
    first = np.minimum.reduceat(np.where(above, position, np.iinfo(np.int64).max), starts)
    decisiveness = np.where(first <= rounds_per, first, rounds_per) / rounds_per

    no_winner = ~has_winner
    drama[no_winner] = trailing[no_winner] = decisiveness[no_winner] = np.nan
    decisiveness[won.all(axis=1)] = np.nan  # everyone won: no threshold
    return pd.DataFrame(
        {
            "match": matches,
            "lead_changes": lead_changes,
            "lead_change_rate": lead_rate,
            "drama": drama,
            "winner_trailing": trailing,
            "decisiveness": decisiveness,
        }
    )


def _balance(
    won_by_seat: pd.DataFrame, clusters: np.ndarray, confidence: float, n_resamples: int, rng
) -> tuple[float, float, float]:
    """Balance with a percentile bootstrap over clusters (seeds)."""
    sums = won_by_seat.groupby(clusters).sum()
    sizes = won_by_seat.groupby(clusters).size().to_numpy(float)
    arrays = [sums[c].to_numpy(float) for c in sums.columns] + [sizes]

    def statistic(*arrays, axis=-1):
        *wins, size = arrays
        rates = np.stack([w.sum(axis=axis) / size.sum(axis=axis) for w in wins])
        return 1.0 - (rates.max(axis=0) - rates.min(axis=0))

    return bootstrap_ci(tuple(arrays), statistic, confidence, "percentile", n_resamples, rng)


def design_metrics(
    outcomes: pd.DataFrame,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    km_medians: Mapping[tuple[str, str], float] | None = None,
) -> pd.DataFrame:
    """The :data:`METRICS` of every cell (variant × line-up), with CIs.

    Rates (advantage, completion, drawishness, timeouts) have Wilson intervals (design-effect
    adjusted when seeds hold several matches); means have BCa cluster-bootstrap intervals
    over seeds; balance a percentile cluster bootstrap; the SD no interval.

    Args:
        outcomes: the frame of :func:`analysis.outcomes.match_outcomes`.
        confidence: coverage of the intervals.
        n_resamples: bootstrap resamples per interval.
        seed: seed of the bootstrap generator (one generator per cell, derived from it).
        km_medians: optional {(variant, lineup): Kaplan–Meier median length} to include.

    Returns:
        long frame: ``variant``, ``lineup``, ``metric``, ``label``, ``unit``, ``value``,
        ``ci_low``, ``ci_high``.
    """
    records = []
    for index, ((variant, lineup), cell) in enumerate(outcomes.groupby(["variant", "lineup"], sort=True)):
        rng = np.random.default_rng([seed, index])
        clusters = cell["seed"].to_numpy()
        seat_cols = sorted(
            (c for c in cell.columns if c.startswith("seat") and c.endswith("_won") and cell[c].notna().any()),
            key=lambda c: int(c[4:-4]),
        )
        values: dict[str, tuple[float, float, float]] = {}
        values["balance"] = _balance(cell[seat_cols].fillna(0.0), clusters, confidence, n_resamples, rng)
        rate_columns = {
            "advantage_seat0": cell[seat_cols[0]] if seat_cols else None,
            "completion": cell["decided"],
            "drawishness": ((cell["decided"] == 0) & (cell["capped"] == 0)).astype(float),
            "timeouts": cell["capped"],
        }
        for name, series in rate_columns.items():
            if series is None:
                continue
            per = series.astype(float).groupby(clusters).agg(["sum", "size"])
            p, low, high, _ = clustered_wilson(per["sum"], per["size"], confidence)
            values[name] = (p, low, high)
        values["duration"] = mean_ci(cell["rounds"], clusters, confidence, "BCa", n_resamples, rng)
        values["duration_sd"] = (
            float(cell["rounds"].std(ddof=1)) if len(cell) > 1 else float("nan"),
            float("nan"),
            float("nan"),
        )
        if km_medians is not None and (variant, lineup) in km_medians:
            values["duration_km_median"] = (km_medians[(variant, lineup)], float("nan"), float("nan"))
        for name in ("lead_changes", "lead_change_rate", "drama", "winner_trailing", "decisiveness", "margin"):
            if name in cell.columns and cell[name].notna().any():
                values[name] = mean_ci(cell[name], clusters, confidence, "BCa", n_resamples, rng)
        for name, (value, low, high) in values.items():
            label, unit, _ = METRICS[name]
            records.append(
                {
                    "variant": variant,
                    "lineup": lineup,
                    "metric": name,
                    "label": label,
                    "unit": unit,
                    "value": value,
                    "ci_low": low,
                    "ci_high": high,
                }
            )
    return pd.DataFrame.from_records(records)
