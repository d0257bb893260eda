"""Every statistic of a results directory in one pass (what the report and the CLI show).

:func:`analyse` runs the modules of this package on a :class:`~analysis.results.Results` and
keeps their tables in an :class:`Analysis`; it draws no figure and renders nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from .bootstrap import DEFAULT_RESAMPLES
from .distributions import length_distribution, score_distribution
from .effects import CORRECTIONS, variant_effects
from .fairness import cell_verdict, omnibus_test, seat_fairness
from .hooks import game_metrics
from .length import length_of
from .metrics import design_metrics
from .outcomes import match_outcomes
from .results import BASELINE, Results
from .skill import profile_matrix, skill_share
from .survival import km_curves, km_summary, logrank_vs_baseline
from .winrates import profile_win_rates, seat_win_rates, team_win_rates

__all__ = ["Options", "Analysis", "analyse"]


@dataclass(frozen=True)
class Options:
    """Settings of an analysis.

    Attributes:
        confidence: coverage of every CI (0.95).
        alpha: significance level of the tests; the family-wise error rate of the fairness
            verdicts of all cells together and of the adjusted effect intervals (0.05).
        fairness_margin: δ of the fairness band 1/n ± δ, as a proportion (0.02 = ±2 points).
        correction: multiplicity correction of the variant effects, ``holm`` or ``fdr_bh``.
        n_resamples: bootstrap resamples per interval.
        seed: seed of every bootstrap generator (the report is reproducible).
    """

    confidence: float = 0.95
    alpha: float = 0.05
    fairness_margin: float = 0.02
    correction: str = "holm"
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int = 0

    def __post_init__(self):
        if self.correction not in CORRECTIONS:
            raise ValueError(f"correction: got {self.correction!r}; allowed: {', '.join(CORRECTIONS)}")
        if not 0.5 < self.confidence < 1:
            raise ValueError(f"confidence: got {self.confidence}; allowed: 0.5 < confidence < 1")
        if not 0 < self.fairness_margin < 0.5:
            raise ValueError(f"fairness_margin: got {self.fairness_margin}; allowed: 0 < δ < 0.5")


@dataclass
class Analysis:
    """The tables of one analysis (see the producing functions for their columns)."""

    results: Results
    options: Options
    outcomes: pd.DataFrame
    seat_rates: pd.DataFrame
    team_rates: pd.DataFrame
    profile_rates: pd.DataFrame
    fairness: pd.DataFrame
    fairness_cells: pd.DataFrame
    effects: pd.DataFrame
    lengths: pd.DataFrame
    scores: pd.DataFrame
    km: pd.DataFrame
    km_curves: pd.DataFrame
    logrank: pd.DataFrame
    metrics: pd.DataFrame
    skill: pd.DataFrame
    skill_matrix: pd.DataFrame
    game_metrics: pd.DataFrame
    notes: list[str] = field(default_factory=list)

    @property
    def has_variants(self) -> bool:
        return len(self.results.variants) > 1 and BASELINE in self.results.variants


def _fairness_cells(fairness: pd.DataFrame) -> pd.DataFrame:
    """One row per cell: its family-wise verdict, adjusted p-values and the line-up's matches needed."""
    records = []
    if fairness.empty:
        return pd.DataFrame(
            columns=[
                "variant",
                "lineup",
                "unit",
                "verdict",
                "p_chi2",
                "decided",
                "matches_needed",
                "p_fair_adjusted",
                "p_bias_adjusted",
            ]
        )
    for (variant, lineup), seats in fairness.groupby(["variant", "lineup"], sort=False):
        records.append(
            {
                "variant": variant,
                "lineup": lineup,
                "unit": seats["unit"].iloc[0],
                "verdict": cell_verdict(seats),
                "p_chi2": omnibus_test(seats),
                "decided": int(seats["decided"].iloc[0]),
                "matches_needed": int(seats["matches_needed"].max()),
                "p_fair_adjusted": float(seats["p_fair_adjusted"].iloc[0]),
                "p_bias_adjusted": float(seats["p_bias_adjusted"].iloc[0]),
            }
        )
    return pd.DataFrame.from_records(records)


def analyse(results: Results, **options: Any) -> Analysis:
    """Compute every table of the report.

    Args:
        results: an opened results directory.
        **options: fields of :class:`Options`.

    Returns:
        the :class:`Analysis`.
    """
    opts = Options(**options)
    tables = results.tables
    matches, players = tables["matches"], tables["players"]
    conf, seed, boot = opts.confidence, opts.seed, opts.n_resamples
    streamed = results.streamed
    outcomes = match_outcomes(tables, length_of(results), streamed.per_match if streamed is not None else None)
    applicable = {
        (v, x): results.symmetric(x) or results.rotated(x)
        for v, x in matches[["variant", "lineup"]].drop_duplicates().itertuples(index=False)
    }
    fairness = seat_fairness(players, opts.fairness_margin, opts.alpha, applicable=applicable)
    km = km_summary(matches, conf)
    medians = {(r.variant, r.lineup): r.median for r in km.itertuples(index=False)}
    notes = list(results.notes)
    baseline_present = BASELINE in set(matches["variant"])
    if len(results.variants) > 1 and not baseline_present:
        notes.append("No variant is named 'baseline': variant effects cannot be computed.")
    effects = (
        variant_effects(outcomes, BASELINE, conf, opts.correction, n_resamples=boot, seed=seed, alpha=opts.alpha)
        if baseline_present and len(results.variants) > 1
        else variant_effects(outcomes.iloc[0:0])
    )
    metrics_frame, game_notes = game_metrics(results.spec, tables, streamed.tallies if streamed is not None else None)
    notes += game_notes
    return Analysis(
        results=results,
        options=opts,
        outcomes=outcomes,
        seat_rates=seat_win_rates(players, conf, simultaneous=True),
        team_rates=team_win_rates(players, conf, simultaneous=True),
        profile_rates=profile_win_rates(players, conf),
        fairness=fairness,
        fairness_cells=_fairness_cells(fairness),
        effects=effects,
        lengths=length_distribution(matches, confidence=conf, n_resamples=boot, seed=seed),
        scores=score_distribution(players, "profile", confidence=conf, n_resamples=boot, seed=seed),
        km=km,
        km_curves=km_curves(matches, conf),
        logrank=logrank_vs_baseline(matches, BASELINE, opts.correction) if baseline_present else pd.DataFrame(),
        metrics=design_metrics(outcomes, conf, boot, seed, km_medians=medians),
        skill=skill_share(players, conf),
        skill_matrix=profile_matrix(players, conf),
        game_metrics=metrics_frame,
        notes=notes,
    )
