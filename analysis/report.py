"""The design report: one self-contained HTML file (and optionally Markdown) per results dir.

``build_report(results_dir)`` reads the directory, runs :func:`analysis.analyse.analyse`,
draws the figures and renders ``templates/report.html.j2``: CSS inline, figures as base64
PNG ``<img>`` tags, no JavaScript and no network access, laid out for printing on A4.

Sections, in order (their HTML ids): ``summary`` (plain sentences), ``win-rates``,
``fairness``, ``effects``, ``distributions``, ``survival``, ``design-metrics``, ``skill``,
``game``, ``reproduce`` (rules of every variant as TOML, seeds, versions, command).
A section that does not apply says so instead of disappearing.

The Markdown export (``markdown=PATH``) has the same sections and tables; its figures are
written as PNG files into ``<stem>_files/`` beside the ``.md`` and linked relatively.

A results directory that lacks planned matches (:class:`sim.core.completeness.Completeness`)
is reported from the matches it holds, under a banner at the top of both files that names the
short cells and the command that replays them; the title and the summary say "incomplete" too.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime as _dt
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import numpy as np
import pandas as pd
import tomli_w

from . import plots
from .analyse import Analysis, analyse
from .hooks import game_plots
from .metagame import metagame_sections
from .metrics import METRICS
from .narrative import CORRECTION_NAMES, digits_for, number, pct, pval, summary_blocks
from .results import BASELINE, Results, flatten, open_results, overrides_by_variant, rules_by_variant
from .sweep import sweep_sections
from .worth import worth_sections

__all__ = ["build_report", "render_html", "render_markdown", "report_sections", "write_documents", "SECTIONS"]

TEMPLATES = Path(__file__).parent / "templates"
#: (id, title) of every section, in order.
SECTIONS = [
    ("summary", "Summary"),
    ("win-rates", "Win rates"),
    ("fairness", "Seat fairness"),
    ("effects", "Variant effects"),
    ("distributions", "Scores and game length"),
    ("survival", "Game length as survival"),
    ("design-metrics", "Design metrics"),
    ("skill", "Skill versus luck"),
    ("game", "The game's own metrics"),
    ("reproduce", "Rules, seeds and reproduction"),
]
MAX_SKILL_FIGURES = 8


@dataclass
class Table:
    """A table ready to render: formatted cells."""

    caption: str
    columns: list[str]
    rows: list[list[str]]
    note: str = ""


@dataclass
class FigureItem:
    """A figure ready to render: PNG bytes and a file-safe name."""

    caption: str
    png: bytes
    name: str

    @property
    def base64(self) -> str:
        return base64.b64encode(self.png).decode("ascii")


@dataclass
class Code:
    """A preformatted block (TOML, JSON, shell)."""

    caption: str
    text: str
    language: str = ""


@dataclass
class Section:
    id: str
    title: str
    paragraphs: list[str] = field(default_factory=list)
    items: list[Table | FigureItem | Code] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    bullets: list[str] = field(default_factory=list)
    blocks: list[tuple[str, list[str]]] = field(default_factory=list)

    def kind(self, item) -> str:
        return type(item).__name__


# ------------------------------------------------------------------------------------------
# formatting helpers
# ------------------------------------------------------------------------------------------


def _rate(p: float, low: float, high: float) -> str:
    if p is None or math.isnan(p):
        return "—"
    return f"{100 * p:.1f} % [{100 * low:.1f}, {100 * high:.1f}]"


def _value_ci(value: float, low: float, high: float, digits: int | None = None) -> str:
    if value is None or math.isnan(value):
        return "—"
    digits = digits_for(value) if digits is None else digits
    if low is None or math.isnan(low):
        return number(value, digits)
    return f"{number(value, digits)} [{number(low, digits)}, {number(high, digits)}]"


def _ordered(frame: pd.DataFrame, results: Results) -> pd.DataFrame:
    """``frame`` with its rows in the report's variant and line-up order (else stable)."""
    if frame.empty:
        return frame
    keys = {"variant": results.variants, "lineup": results.lineups}
    order = {
        column: frame[column].map({v: i for i, v in enumerate(values)}).fillna(len(values))
        for column, values in keys.items()
        if column in frame.columns
    }
    if not order:
        return frame
    ranks = pd.DataFrame(order, index=frame.index)
    columns = [c for c in ("lineup", "variant") if c in ranks] if "outcome" in frame.columns else list(ranks)
    return frame.loc[ranks.sort_values(columns, kind="stable").index]


def _table(caption: str, frame: pd.DataFrame, columns: dict[str, Any], note: str = "") -> Table:
    """A Table from ``frame``: ``columns`` maps header → column name or row → str function."""
    rows = []
    for record in frame.to_dict("records"):
        row = []
        for spec in columns.values():
            value = spec(record) if callable(spec) else record.get(spec)
            row.append(value if isinstance(value, str) else _plain(value))
        rows.append(row)
    return Table(caption, list(columns), rows, note)


def _plain(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        if math.isnan(value):
            return "—"
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else number(value)
    return str(value)


def _p(value: float) -> str:
    """A p-value for a table cell: ``< 0.001`` or ``0.012``."""
    return pval(value).removeprefix("p = ").removeprefix("p ")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "figure"


class _Figures:
    """Collects figures as PNG and closes them (they are never shown)."""

    def __init__(self):
        self.count = 0

    def make(self, caption: str, figure) -> FigureItem:
        self.count += 1
        png = plots.to_png(figure)
        figure.clear()
        return FigureItem(caption, png, f"{self.count:02d}-{_slug(caption)[:60]}")


# ------------------------------------------------------------------------------------------
# sections
# ------------------------------------------------------------------------------------------


def _summary(analysis: Analysis) -> Section:
    results = analysis.results
    manifest = results.manifest
    section = Section("summary", "Summary", blocks=summary_blocks(analysis))
    matches = results.tables["matches"]
    completeness = results.completeness
    planned = "" if completeness.complete else f" of {completeness.planned_total:,} planned (incomplete)"
    section.bullets = [
        f"Game: {results.title} ({results.game}); results directory: {results.path.name if results.path else '—'}",
        f"Kind: {results.kind}; status: {completeness.status_text() if manifest else 'unknown'}",
        f"Variants: {', '.join(results.variants)}; line-ups: {', '.join(results.lineups)}",
        f"Matches stored: {len(matches):,}{planned}; root seed: {manifest.get('seed', '—')}",
        f"Confidence level {100 * analysis.options.confidence:.0f} %; fairness band ±"
        f"{100 * analysis.options.fairness_margin:.0f} points; multiple comparisons: "
        f"{CORRECTION_NAMES.get(analysis.options.correction)}",
    ]
    return section


def _stopping(analysis: Analysis) -> Section | None:
    """Where each cell of an experiment with a ``[stopping]`` rule stopped, and why (None without)."""
    manifest = analysis.results.manifest
    records, rule = manifest.get("stopping") or [], manifest.get("stopping_rule") or {}
    if not records:
        return None
    section = Section("stopping", "Where each cell stopped")
    asked = [
        f"fairness within 1/n ± {100 * rule['fairness']:g} points" if rule.get("fairness") else "",
        f"the sign of each variant's effect on {rule['effect']}'s win rate (or an effect within "
        f"± {100 * rule.get('effect_margin', 0):g} points)"
        if rule.get("effect")
        else "",
        f"every seat's half-width below {100 * rule['half_width']:g} points" if rule.get("half_width") else "",
    ]
    section.paragraphs = [
        f"This experiment looked at each cell after every {rule.get('look_every') or rule.get('step') or 'chunk of'} "
        "matches and stopped "
        f"it once its questions were answered ({'; '.join(a for a in asked if a)}), or at "
        f"{rule.get('max_matches', 0):,} matches. Each answer comes from a confidence sequence over seeds "
        "(betting, Waudby-Smith & Ramdas 2023), valid however often the run looked: the chance that any "
        f"answer below is wrong is at most α = {rule.get('alpha', 0.05)}. The other tables of this report are "
        "computed at fixed size from the matches each cell played; as the sizes were chosen by the data, "
        "read their p-values as descriptive and these answers as the verdicts."
    ]
    frame = pd.DataFrame(
        [
            {
                "variant": r.get("variant"),
                "lineup": r.get("lineup"),
                "matches": r.get("matches"),
                "fairness": _stop_answer(r, "fairness", 100),
                "effect": _stop_answer(r, "effect", 100),
                "reason": r.get("reason", ""),
            }
            for r in records
        ]
    )
    columns = {"variant": "variant", "line-up": "lineup", "matches played": lambda r: f"{int(r['matches']):,}"}
    if rule.get("fairness"):
        columns["fairness [anytime-valid CI of the farthest seat]"] = "fairness"
    if rule.get("effect"):
        columns["effect [anytime-valid CI, points]"] = "effect"
    columns["why it stopped"] = "reason"
    section.items.append(_table("Stopping per cell", frame, columns))
    return section


def _stop_answer(record: dict, kind: str, scale: float) -> str:
    """``fair [47.3, 52.8]`` from a stopping record ("—" when the cell was not asked)."""
    answers, intervals = record.get("answers") or {}, record.get("intervals") or {}
    if kind not in answers:
        return "—"
    bounds = intervals.get(kind) or []
    text = answers[kind] or "not answered"
    if len(bounds) == 2:
        text += f" [{scale * bounds[0]:.1f}, {scale * bounds[1]:.1f}]"
    return text


def _win_rates(analysis: Analysis, figures: _Figures) -> Section:
    level = f"{100 * analysis.options.confidence:.0f} %"
    section = Section("win-rates", "Win rates")
    section.paragraphs = [
        f"Win rate of each seat per variant and line-up, with {level} simultaneous intervals "
        "(Bonferroni–Clopper–Pearson: each seat's exact interval at level 1 − α/n, so all n seats "
        f"are covered at once with probability at least {level} whatever the number of matches). "
        "When the matches of one seed are correlated (seat rotation), every interval uses the "
        "effective sample size n/deff, deff the design effect of the seeds. Profile win rates: "
        "Wilson intervals on the same effective sizes — approximate: for p between 0.1 and 0.9 "
        "their exact coverage at 95 % is at least 92.6 % at n = 20, 93.3 % at n = 100 and 94.4 % at "
        "n = 1,000, about 95 % on average. Seat 0 plays first."
    ]
    section.items.append(
        _table(
            "Win rate by seat",
            analysis.seat_rates,
            {
                "variant": "variant",
                "line-up": "lineup",
                "seat": "seat",
                "wins / matches": lambda r: f"{r['wins']} / {r['games']}",
                f"win rate [{level} simultaneous CI]": lambda r: _rate(r["win_rate"], r["ci_low"], r["ci_high"]),
                "interval": "method",
            },
        )
    )
    if not analysis.team_rates.empty:
        section.items.append(
            _table(
                "Win rate by team",
                analysis.team_rates,
                {
                    "variant": "variant",
                    "line-up": "lineup",
                    "team": "team",
                    "wins / matches": lambda r: f"{r['wins']} / {r['games']}",
                    f"win rate [{level} CI]": lambda r: _rate(r["win_rate"], r["ci_low"], r["ci_high"]),
                },
            )
        )
    section.items.append(
        _table(
            "Win rate by profile (per seat the profile holds)",
            analysis.profile_rates,
            {
                "variant": "variant",
                "line-up": "lineup",
                "profile": "profile",
                "wins / seats played": lambda r: f"{r['wins']} / {r['games']}",
                f"win rate [{level} CI]": lambda r: _rate(r["win_rate"], r["ci_low"], r["ci_high"]),
            },
        )
    )
    for lineup in analysis.results.lineups:
        figure = plots.seat_win_rates_plot(
            analysis.seat_rates,
            lineup,
            analysis.results.variants,
            analysis.options.fairness_margin,
            analysis.options.confidence,
        )
        section.items.append(figures.make(f"Win rate by seat, line-up {lineup}", figure))
    return section


def _fairness(analysis: Analysis) -> Section:
    opts = analysis.options
    section = Section("fairness", "Seat fairness")
    family = int((analysis.fairness_cells["verdict"] != "not applicable").sum()) if len(analysis.fairness_cells) else 0
    section.paragraphs = [
        f"A seat is fair when its share of the decided matches (those with a winner) lies within "
        f"1/n ± {100 * opts.fairness_margin:.0f} points. Fairness is shown by an equivalence test "
        f"(TOST: two one-sided exact binomial tests, i.e. the {100 * (1 - 2 * opts.alpha):.0f} % "
        "Clopper–Pearson interval inside the band), never by a non-significant difference; a "
        "line-up is fair when every seat is. Verdicts: fair (shown inside the band), small bias "
        "(a seat's share differs from 1/n, exact test, Bonferroni over the seats, but is not shown "
        "to leave the band), unfair (a seat's interval lies outside the band), inconclusive (more "
        "matches needed). Line-ups that mix profiles without seat rotation get no verdict.",
        f"The verdicts of all {family} judged line-up{'s' if family != 1 else ''} of this report are one "
        f"family: their p-values are adjusted together (Holm's step-down procedure, sharpened by the "
        f"fact that a line-up cannot be both exactly fair and outside the band; Shaffer 1986), so the "
        f"chance that any verdict is false is at most α = {opts.alpha}. Each seat's interval is shown at "
        "the level that matches its line-up's adjusted p-value. 'Matches needed' is the number of "
        "decided matches with which an exactly fair line-up is shown fair (all seats at once) 80 % of "
        "the time, simulated with this rule at the family's level (and the seeds' design effect).",
    ]
    section.items.append(
        _table(
            "Fairness per line-up",
            analysis.fairness_cells,
            {
                "variant": "variant",
                "line-up": "lineup",
                "verdict": "verdict",
                "decided matches": "decided",
                "χ² equal shares": lambda r: pval(r["p_chi2"]),
                "p fair (adj.)": lambda r: pval(r["p_fair_adjusted"]),
                "p biased (adj.)": lambda r: pval(r["p_bias_adjusted"]),
                f"matches needed for ±{100 * opts.fairness_margin:.0f} pts (all seats)": lambda r: (
                    f"{r['matches_needed']:,}"
                ),
            },
            note="χ² test of equal shares (Rao–Scott corrected for the design effect under seat rotation); "
            "p fair / p biased: family-wise adjusted p-values of the two claims.",
        )
    )
    section.items.append(
        _table(
            "Share of the decided matches per seat (or team)",
            analysis.fairness,
            {
                "variant": "variant",
                "line-up": "lineup",
                "seat/team": lambda r: f"{r['unit']} {r['id']}",
                "share [family-wise CI]": lambda r: _rate(r["share"], r["ci_low"], r["ci_high"]),
                "CI level": lambda r: f"{100 * r['ci_level']:.2f} %",
                "fair band": lambda r: (
                    f"{100 * (r['target'] - r['margin']):.1f}–{100 * (r['target'] + r['margin']):.1f} %"
                ),
                "TOST": lambda r: pval(r["p_tost"]),
                "verdict": "verdict",
            },
        )
    )
    return section


def _effects(analysis: Analysis, figures: _Figures) -> Section:
    opts = analysis.options
    name = CORRECTION_NAMES.get(opts.correction, opts.correction)
    section = Section("effects", "Variant effects")
    if analysis.effects.empty:
        section.paragraphs = [
            "This results directory holds no variant to compare with a baseline "
            "(a single run, or no variant named 'baseline')."
        ]
        return section
    section.paragraphs = [
        "Every variant replays the baseline's seeds, so each of its matches is paired with the "
        "baseline's match of the same index and the effect is the mean paired difference "
        "(variant − baseline); the matches of one seed (its rotations) are one cluster. Each "
        "interval inverts the very test whose p-value stands beside it, so an interval excludes 0 "
        "exactly when its p-value is below α. Binary outcomes (win rates, shares): paired "
        "difference of proportions in percentage points, score test (McNemar's, without continuity "
        "correction, with the seeds' design effect under rotation) and the score interval that "
        "inverts it (Tango); means: t-test and t interval on per-seed sums (cluster-robust). "
        f"All p-values of the table are corrected together ({name}); 'significant' means "
        f"adjusted p < {opts.alpha}, and the adjusted interval (the same interval at level "
        f"1 − α·p/p_adjusted) excludes 0 exactly then. 'Detectable' is the minimum detectable "
        f"effect: the true effect this run would detect with 80 % power after the correction "
        "(Bonferroni level α/m, which Holm and BH never do worse than). A variant that never "
        "changed an outcome shows 0 [0, 0]. The summary's sentences give the adjusted interval."
    ]

    def effect(r, low="ci_low", high="ci_high"):
        scale = 100 if r["binary"] else 1
        digits = 1 if r["binary"] else digits_for(r["effect"])
        return (
            f"{number(scale * r['effect'], digits)} "
            f"[{number(scale * r[low], digits)}, {number(scale * r[high], digits)}]"
        )

    def levels(r):
        if r["binary"]:
            return f"{pct(r['base'])} → {pct(r['value'])}"
        return f"{number(r['base'])} → {number(r['value'])}"

    def detectable(r):
        if r["mde"] != r["mde"]:  # NaN
            return "—"
        return f"±{number(100 * r['mde'], 1)}" if r["binary"] else f"±{number(r['mde'])}"

    tests = {
        "score test (McNemar)": "score",
        "score test, clustered by seed": "score by seed",
        "paired t": "t",
        "paired t, clustered by seed": "t by seed",
        "identical outcomes": "identical",
    }
    section.items.append(
        _table(
            "Effect of each variant against the baseline (win rates in percentage points)",
            analysis.effects,
            {
                "line-up": "lineup",
                "variant": "variant",
                "outcome (unit)": lambda r: r["label"] if r["binary"] else f"{r['label']} ({r['unit']})",
                "baseline → variant": levels,
                f"effect [{100 * opts.confidence:.0f} % CI]": effect,
                "p": lambda r: _p(r["p"]),
                f"{name}-adjusted CI": lambda r: effect(r, "ci_low_adjusted", "ci_high_adjusted"),
                f"p {name}": lambda r: _p(r["p_adjusted"]),
                "sig.": lambda r: "yes" if r["p_adjusted"] < opts.alpha else "",
                "detectable (80 %)": detectable,
                "pairs": "n",
                "test": lambda r: tests.get(r["test"], r["test"]),
            },
            note="Tests: score (McNemar's score test and Tango's interval, independent pairs), score by seed "
            "(the same with the seeds' design effect), t / t by seed (paired t-test and interval, "
            "cluster-robust over seeds), identical (every pair equal).",
        )
    )
    for lineup in analysis.results.lineups:
        for kind, what in (("binary", "win rates and shares"), ("continuous", "means")):
            if not analysis.effects[
                (analysis.effects["lineup"] == lineup) & (analysis.effects["binary"] == (kind == "binary"))
            ].empty:
                figure = plots.effects_plot(analysis.effects, lineup, opts.alpha, kind, opts.confidence)
                section.items.append(figures.make(f"Variant effects on {what}, line-up {lineup}", figure))
    return section


def _distributions(analysis: Analysis, figures: _Figures) -> Section:
    from .length import constant_length, constant_sentence, length_column, length_of, length_table

    level = f"{100 * analysis.options.confidence:.0f} %"
    results = analysis.results
    length = length_of(results)
    section = Section("distributions", "Scores and game length")
    section.paragraphs = [
        f"Means with {level} BCa bootstrap intervals (seeds resampled as clusters under seat "
        "rotation); quantiles without interval, since a bootstrap interval of the median of "
        "integer lengths collapses to a point. A match stopped by the cap counts at the cap "
        "here; the survival section treats it as censored."
        + (
            ""
            if length.column == "rounds"
            else f" The game measures its length as {length.label} ({length.unit}, column {length.column})."
        )
    ]
    lengths = length_table(analysis)
    varying = (
        lengths[[constant_length(results, r.lineup, r.variant) is None for r in lengths.itertuples(index=False)]]
        if not lengths.empty
        else lengths
    )
    if not varying.empty:
        section.items.append(
            _table(
                f"{length.label[:1].upper() + length.label[1:]} ({length.unit})",
                varying,
                {
                    "variant": "variant",
                    "line-up": "lineup",
                    "matches": "n",
                    f"mean [{level} CI]": lambda r: _value_ci(r["mean"], r["ci_low"], r["ci_high"]),
                    "SD": lambda r: number(r["sd"]),
                    "10 %": "p10",
                    "median": "median",
                    "90 %": "p90",
                    "min–max": lambda r: f"{_plain(r['min'])}–{_plain(r['max'])}",
                    "stopped by cap": lambda r: pct(r["capped"]),
                },
            )
        )
    section.items.append(
        _table(
            "Final score by profile (points)",
            analysis.scores,
            {
                "variant": "variant",
                "line-up": "lineup",
                "profile": "profile",
                "players": "n",
                f"mean [{level} CI]": lambda r: _value_ci(r["mean"], r["ci_low"], r["ci_high"]),
                "SD": lambda r: number(r["sd"]),
                "10 %": "p10",
                "median": "median",
                "90 %": "p90",
            },
        )
    )
    matches = results.tables["matches"].assign(rounds=length_column(results))
    for lineup in results.lineups:
        constant = constant_length(results, lineup)
        if constant is not None:
            section.notes.append(f"Line-up {lineup}: {constant_sentence(results, constant)}")
        else:
            section.items.append(
                figures.make(
                    f"{length.label[:1].upper() + length.label[1:]} distribution, line-up {lineup}",
                    plots.length_plot(matches, lineup, results.variants, length.unit),
                )
            )
        section.items.append(
            figures.make(
                f"Final score distribution, line-up {lineup}",
                plots.score_plot(results.tables["players"], lineup, results.variants),
            )
        )
    return section


def _survival(analysis: Analysis, figures: _Figures) -> Section:
    opts = analysis.options
    section = Section("survival", "Game length as survival")
    section.paragraphs = [
        "Kaplan–Meier estimate of P(a match lasts more than t rounds), counting matches stopped "
        "by the round cap as censored (they would have lasted longer). Medians with Brookmeyer–"
        "Crowley intervals. Where seeds hold several matches (seat rotation) the variance of the "
        "curve is the seed-clustered (sandwich) variance, for the pointwise band and the median's "
        "interval alike. Variants are compared with the baseline by the log-rank score test with a "
        "seed-clustered variance: a variant and the baseline played on the same seed form one "
        "cluster, so the test is paired (common random numbers raise its power instead of being "
        f"ignored) and keeps its level under rotation; p-values {CORRECTION_NAMES.get(opts.correction)}-"
        "corrected. Without a seed column matches are treated as independent (Greenwood, "
        "log-rank)."
    ]
    section.items.append(
        _table(
            "Kaplan–Meier median length (rounds)",
            analysis.km,
            {
                "variant": "variant",
                "line-up": "lineup",
                "matches": "matches",
                "stopped by cap": "capped",
                f"median [{100 * opts.confidence:.0f} % CI]": lambda r: _value_ci(
                    r["median"], r["median_low"], r["median_high"]
                ),
            },
        )
    )
    if not analysis.logrank.empty:
        section.items.append(
            _table(
                "Log-rank test against the baseline (clustered by seed, paired where seeds are shared)",
                analysis.logrank,
                {
                    "line-up": "lineup",
                    "variant": "variant",
                    "statistic": lambda r: number(r["statistic"], 2),
                    "p": lambda r: pval(r["p"]),
                    "p (corrected)": lambda r: pval(r["p_adjusted"]),
                    "test": lambda r: r.get("test", "log-rank"),
                },
            )
        )
    matches = analysis.results.tables["matches"]
    for lineup in analysis.results.lineups:
        rounds = matches.loc[matches["lineup"] == lineup, "rounds"]
        if rounds.nunique() == 1:
            section.notes.append(
                f"Line-up {lineup}: every match lasts exactly {_plain(float(rounds.iloc[0]))} "
                "rounds, so there is no survival curve to draw."
            )
            continue
        section.items.append(
            figures.make(
                f"Survival of the game length, line-up {lineup}",
                plots.survival_plot(analysis.km_curves, lineup, analysis.results.variants, opts.confidence),
            )
        )
    return section


def _design_metrics(analysis: Analysis) -> Section:
    section = Section("design-metrics", "Design metrics")
    section.paragraphs = [
        "Ludii-style design metrics (Browne & Maire 2010; definitions in the table and in the "
        "docstring of tablesim's analysis.metrics) computed per match "
        "from the cumulative scores after every round, then averaged, with intervals from a "
        "bootstrap over seeds (Wilson for rates). The in-game evaluation of a seat is its "
        "cumulative score divided by the match's largest score."
    ]
    metrics = analysis.metrics
    variants = analysis.results.variants
    for lineup in analysis.results.lineups:
        cell = metrics[metrics["lineup"] == lineup]
        if cell.empty:
            continue
        rows, constants = [], []
        matches = analysis.results.tables["matches"]
        for metric, (label, unit, definition) in METRICS.items():
            values = cell[cell["metric"] == metric]
            if values.empty:
                continue
            fixed = matches.loc[matches["lineup"] == lineup, "rounds"].nunique() == 1
            if _constant_metric(values, fixed and metric.startswith("duration")):
                constants.append(f"{label} {_plain(float(values['value'].iloc[0]))} {unit}")
                continue
            row = [label, unit, definition]
            for variant in variants:
                match = values[values["variant"] == variant]
                if match.empty:
                    row.append("—")
                    continue
                v = match.iloc[0]
                share = unit in ("share",)
                row.append(
                    _rate(v["value"], v["ci_low"], v["ci_high"])
                    if share and not math.isnan(v["ci_low"])
                    else _value_ci(v["value"], v["ci_low"], v["ci_high"])
                )
            rows.append(row)
        note = f"The same in every variant, with no spread: {', '.join(constants)}." if constants else ""
        section.items.append(
            Table(f"Design metrics, line-up {lineup}", ["metric", "unit", "definition", *variants], rows, note)
        )
    confounded = [
        x for x in analysis.results.lineups if not analysis.results.symmetric(x) and not analysis.results.rotated(x)
    ]
    if confounded:
        section.notes.append(
            f"Line-up{'s' if len(confounded) > 1 else ''} {', '.join(confounded)} mix"
            f"{'' if len(confounded) > 1 else 'es'} profiles without seat rotation: there, "
            "balance and the advantage of seat 0 measure the profiles as much as the seats."
        )
    return section


def _constant_metric(values: pd.DataFrame, length_fixed: bool = False) -> bool:
    """One value in every variant and a degenerate interval (or, for the duration metrics that
    have no interval, a length that never varies): a constant of the rules."""
    value = values["value"].to_numpy(float)
    if np.isnan(value).any() or np.unique(value).size != 1:
        return False
    bounds = values[["ci_low", "ci_high"]].to_numpy(float)
    if np.isnan(bounds).any():
        return length_fixed
    return bool(np.all(bounds == value[0]))


def _skill(analysis: Analysis, figures: _Figures) -> Section:
    level = f"{100 * analysis.options.confidence:.0f} %"
    section = Section("skill", "Skill versus luck")
    if analysis.skill.empty:
        section.paragraphs = [
            "Every line-up seats a single profile, so skill cannot be separated "
            "from luck here. Add a line-up that mixes profiles (e.g. expert vs "
            "novice) to measure it."
        ]
        return section
    section.paragraphs = [
        "Skill share of a profile holding m of n seats, from q, the share of the decided matches it "
        "wins: s = (q − m/n)/(1 − m/n), the fraction of matches decided by its skill in a "
        "skill-or-coin-flip mixture (0 = pure luck, 1 = it always wins). It lies in [0, 1]: a profile "
        "that wins less than its fair share has share 0 (any skill at play is the others'). The "
        f"interval is the {level} Wilson interval of q (clustered by seed) mapped the same way and "
        "clipped to [0, 1]. Under pure luck the estimate is 0 about half the time and a little above "
        "it otherwise (mean about 0.4 standard errors). A profile that never changes seat (no seat "
        "rotation) is confounded with its seat: not applicable. The matrix gives P(row profile "
        "finishes ahead of column profile) over all seat pairs, ties counted half, with the "
        "equivalent Elo gap."
    ]

    def share(r):
        if not r.get("applicable", True):
            return f"not applicable ({r.get('note', '')})"
        return _value_ci(r["share"], r["share_low"], r["share_high"], 2)

    section.items.append(
        _table(
            "Skill share per profile",
            analysis.skill,
            {
                "variant": "variant",
                "line-up": "lineup",
                "profile": "profile",
                "seats": "seats",
                f"win rate per seat [{level} CI]": lambda r: _rate(r["win_rate"], r["ci_low"], r["ci_high"]),
                f"skill share [{level} CI]": share,
            },
        )
    )
    if not analysis.skill_matrix.empty:
        section.items.append(
            _table(
                "Head to head: P(profile finishes ahead of opponent)",
                analysis.skill_matrix,
                {
                    "variant": "variant",
                    "line-up": "lineup",
                    "profile": "profile",
                    "opponent": "opponent",
                    "pairs": "pairs",
                    f"ahead [{level} CI]": lambda r: _rate(r["p_ahead"], r["ci_low"], r["ci_high"]),
                    "Elo gap": lambda r: number(r["elo"], 0),
                },
            )
        )
        cells = analysis.skill_matrix[["variant", "lineup"]].drop_duplicates()
        order = {v: i for i, v in enumerate(analysis.results.variants)}
        cells = sorted(cells.itertuples(index=False), key=lambda c: (order.get(c.variant, 99), c.lineup))
        for cell in cells[:MAX_SKILL_FIGURES]:
            section.items.append(
                figures.make(
                    f"Head-to-head matrix, {cell.variant} / {cell.lineup}",
                    plots.skill_matrix_plot(analysis.skill_matrix, cell.variant, cell.lineup),
                )
            )
        if len(cells) > MAX_SKILL_FIGURES:
            section.notes.append(f"{len(cells) - MAX_SKILL_FIGURES} more matrices are in the table only.")
    return section


def _game(analysis: Analysis, figures: _Figures) -> Section:
    from .game_effects import METHOD, game_metric_effects, game_metric_levels

    results = analysis.results
    opts = analysis.options
    level = f"{100 * opts.confidence:.0f} %"
    section = Section("game", "The game's own metrics")
    levels = _ordered(game_metric_levels(analysis), results)
    if not levels.empty:
        section.paragraphs = [
            f"Metrics defined by {results.title} itself (its summary hook), per variant and line-up, with "
            f"{level} intervals from a {METHOD}: the seeds are cut into up to 20 groups of consecutive "
            "seeds (a seed's rotations stay together), the metric is recomputed with each group left out, and the "
            "pseudo-values give a t interval. Variant effects are paired the same way (variant and "
            "baseline share their seeds and groups); their p-values are corrected together "
            f"({CORRECTION_NAMES.get(opts.correction)}, a family of their own beside the core outcomes'), "
            f"with adjusted intervals that exclude 0 exactly when the adjusted p < {opts.alpha}."
        ]
        section.items += _game_level_tables(levels, results)
        effects = game_metric_effects(analysis)
        if not effects.empty:
            section.items.append(_game_effects_table(effects, opts, level))
    else:
        frame = analysis.game_metrics
        if not frame.empty:
            section.paragraphs = [
                f"Metrics defined by {results.title} itself (its summary hook), per variant / line-up."
            ]
            rows = [[str(index), *[_plain(v) for v in values]] for index, values in frame.iterrows()]
            section.items.append(Table("Game metrics", ["metric", *map(str, frame.columns)], rows))
    notes = [n for n in analysis.notes if "game-specific" in n or "summary failed" in n]
    streamed = results.streamed
    figures_list, plot_notes = game_plots(results.spec, streamed.sample if streamed else results.tables)
    for title, figure in figures_list:
        section.items.append(figures.make(title, figure))
    if figures_list and streamed is not None and streamed.sample_note():
        plot_notes.append(f"The game's plots: {streamed.sample_note()}")
    section.notes = notes + plot_notes
    if levels.empty and analysis.game_metrics.empty and not figures_list and not section.notes:
        section.notes = ["The game provides no metrics or plots of its own."]
    return section


def _game_level_tables(levels: pd.DataFrame, results: Results) -> list[Table]:
    """One table per line-up (metric × variant), constants said once in a note."""
    tables = []
    for lineup in results.lineups:
        cell = levels[levels["lineup"] == lineup]
        if cell.empty:
            continue
        variants = [v for v in results.variants if v in set(cell["variant"])]
        rows, constants = [], []
        for metric, group in cell.groupby("metric", sort=False):
            values = group.set_index("variant")
            if group["value"].nunique() == 1 and (group["se"].fillna(0) == 0).all():
                constants.append(f"{metric} = {_plain(float(group['value'].iloc[0]))}")
                continue
            rows.append(
                [
                    metric,
                    *[
                        _value_ci(values.loc[v, "value"], values.loc[v, "ci_low"], values.loc[v, "ci_high"])
                        if v in values.index
                        else "—"
                        for v in variants
                    ],
                ]
            )
        note = f"The same in every match and variant (no interval): {', '.join(constants)}." if constants else ""
        if rows or note:
            tables.append(Table(f"Game metrics, line-up {lineup} (value [CI])", ["metric", *variants], rows, note))
    return tables


def _game_effects_table(effects: pd.DataFrame, opts, level: str) -> Table:
    name = CORRECTION_NAMES.get(opts.correction, opts.correction)

    def interval(r, low="ci_low", high="ci_high"):
        digits = digits_for(max(abs(r["effect"]), abs(r[low]) if r[low] == r[low] else 0))
        return f"{number(r['effect'], digits)} [{number(r[low], digits)}, {number(r[high], digits)}]"

    return _table(
        "Effect of each variant on the game's metrics (variant − baseline, paired by seed)",
        effects,
        {
            "line-up": "lineup",
            "variant": "variant",
            "metric": "metric",
            "baseline → variant": lambda r: f"{number(r['base'])} → {number(r['value'])}",
            f"effect [{level} CI]": interval,
            "p": lambda r: _p(r["p"]),
            f"{name}-adjusted CI": lambda r: interval(r, "ci_low_adjusted", "ci_high_adjusted"),
            f"p {name}": lambda r: _p(r["p_adjusted"]),
            "sig.": lambda r: "yes" if r["p_adjusted"] < opts.alpha else "",
        },
        note="Paired delete-a-group jackknife t-test over seed groups; a metric the variant never changed "
        "shows 0 [0, 0].",
    )


def _toml(data: Any) -> str:
    """A dict as TOML (None values dropped, as TOML has no null); JSON if TOML cannot hold it."""

    def clean(value):
        if isinstance(value, dict):
            return {str(k): clean(v) for k, v in value.items() if v is not None}
        if isinstance(value, (list, tuple)):
            return [clean(v) for v in value if v is not None]
        return value

    try:
        return tomli_w.dumps(clean(data))
    except (TypeError, ValueError):
        return json.dumps(data, indent=2, default=str)


def _experiment_toml(manifest: dict) -> str:
    """The experiment file reconstructed from the manifest (overrides as they were given)."""
    data: dict[str, Any] = {
        "game": manifest.get("game"),
        "matches": manifest.get("matches"),
        "seed": manifest.get("seed"),
        "rotate_seats": manifest.get("rotate_seats", False),
    }
    if manifest.get("chunk_size"):
        data["chunk_size"] = manifest["chunk_size"]
    baseline = manifest.get("baseline") or {}
    base = {k: v for k, v in (("rules", baseline.get("rules")), ("set", baseline.get("set"))) if v}
    if base:
        data["baseline"] = base
    data["variants"] = [
        {k: v for k, v in (("name", x.get("name")), ("rules", x.get("rules_file")), ("set", x.get("set"))) if v}
        for x in manifest.get("variants", []) or []
    ]
    data["lineups"] = [
        {"name": x.get("name"), "players": list(x.get("players", []))} for x in manifest.get("lineups", []) or []
    ]
    precision = manifest.get("precision") or {}
    if precision.get("half_width"):
        data["precision"] = precision
    if manifest.get("stopping_rule"):
        data["stopping"] = {k: v for k, v in manifest["stopping_rule"].items() if k != "look_every"}
    return _toml({k: v for k, v in data.items() if v not in (None, [], {})})


def _run_command(manifest: dict) -> str | None:
    """``tablesim run ...`` rebuilt from a run manifest (None for experiments)."""
    cells = manifest.get("cells") or []
    if manifest.get("kind") != "run" or len(cells) != 1:
        return None
    players = ",".join(str(p.get("name")) for p in cells[0].get("players", []))
    return (
        f"tablesim run {manifest.get('game')} --matches {manifest.get('matches')} --players {players} "
        f"--seed {manifest.get('seed', 0)} --rules rules.toml --lineup {cells[0].get('lineup')} --out DIR"
    )


def _reproduce(analysis: Analysis) -> Section:
    results = analysis.results
    manifest = results.manifest
    section = Section("reproduce", "Rules, seeds and reproduction")
    matches = results.tables["matches"]
    rotated = [x for x in results.lineups if results.rotated(x)]
    section.paragraphs = [
        f"Root seed {manifest.get('seed', '—')}. Match i of every variant and line-up is played "
        f"from the seeds (root seed, seed index) with one random stream per purpose, so the same "
        f"command gives identical tables whatever the number of workers."
        + (
            f" With seat rotation (line-ups {', '.join(rotated)}), match i uses seed index i // n "
            "and rotation i % n (n seats): seat s gets line-up slot (s + rotation) % n."
            if rotated
            else " Match i uses seed index i."
        ),
        f"Seed indices used: 0 to {int(matches['seed'].max()) if 'seed' in matches else len(matches) - 1}; "
        f"matches per cell: {int(matches.groupby(['variant', 'lineup']).size().max()):,}.",
    ]
    command = manifest.get("command")
    if command and command.strip() != "tablesim":
        section.items.append(Code("Command that produced these results", command, "shell"))
    rebuilt = _run_command(manifest)
    if rebuilt:
        section.items.append(
            Code(
                "Equivalent command (from the manifest; save the baseline rules below as rules.toml)", rebuilt, "shell"
            )
        )
    if results.kind == "experiment" and manifest.get("lineups"):
        section.items.append(
            Code(
                "Experiment file (reconstructed from the manifest; rules files are given in full below)",
                _experiment_toml(manifest),
                "toml",
            )
        )
    overrides = overrides_by_variant(manifest)
    rules = rules_by_variant(manifest)
    base_flat = flatten(rules.get(BASELINE, {}))
    rows = []
    for variant in results.variants:
        if variant == BASELINE:
            continue
        flat = flatten(rules.get(variant, {}))
        for key in sorted(set(flat) | set(base_flat)):
            if flat.get(key) != base_flat.get(key):
                rows.append([variant, key, json.dumps(base_flat.get(key)), json.dumps(flat.get(key))])
        if not rules.get(variant) and overrides.get(variant):
            rows += [[variant, k, "—", json.dumps(v)] for k, v in overrides[variant].items()]
    if rows:
        section.items.append(Table("What each variant changes", ["variant", "rule", "baseline", "variant "], rows))
    for variant in results.variants:
        if variant in rules:
            section.items.append(Code(f"Rules of {variant} (complete, TOML)", _toml(rules[variant]), "toml"))
    if not rules:
        section.notes.append("The manifest records no rules; they cannot be shown.")
    lineups = manifest.get("lineups") or [
        {"name": c.get("lineup"), "players": [p.get("name") for p in c.get("players", [])]}
        for c in manifest.get("cells", []) or []
    ]
    if lineups:
        unique = {x["name"]: x for x in lineups}.values()
        section.items.append(
            Table(
                "Line-ups (profiles by seat)",
                ["line-up", "players"],
                [[str(x["name"]), ", ".join(map(str, x.get("players", [])))] for x in unique],
            )
        )
    versions = manifest.get("versions") or {}
    if versions:
        section.items.append(Table("Versions", ["package", "version"], [[k, str(v)] for k, v in versions.items()]))
    return section


def report_sections(analysis: Analysis) -> list[Section]:
    """Every section of the report, figures drawn (PNG bytes)."""
    frames = {
        f.name: _ordered(getattr(analysis, f.name), analysis.results)
        for f in dataclasses.fields(analysis)
        if isinstance(getattr(analysis, f.name), pd.DataFrame) and f.name != "outcomes"
    }
    cached = {k: v for k, v in vars(analysis).items() if k.startswith("_game")}
    analysis = dataclasses.replace(analysis, **frames)
    vars(analysis).update(cached)  # the game metrics' jackknife, computed once
    figures = _Figures()
    stopping = _stopping(analysis)
    return [
        _summary(analysis),
        *([stopping] if stopping else []),
        _win_rates(analysis, figures),
        _fairness(analysis),
        _effects(analysis, figures),
        _distributions(analysis, figures),
        _survival(analysis, figures),
        _design_metrics(analysis),
        _skill(analysis, figures),
        _game(analysis, figures),
        *sweep_sections(analysis, figures.make, Section, Table),  # a [sweep] experiment only (analysis/sweep.py)
        *worth_sections(analysis, figures.make, Section, Table),  # restricted play only (analysis/worth.py)
        *metagame_sections(analysis, figures.make, Section, Table),  # tablesim matrix only (analysis/metagame.py)
        _reproduce(analysis),
    ]


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )


def _context(analysis: Analysis, sections: Sequence[Section]) -> dict[str, Any]:
    results = analysis.results
    incomplete = results.completeness.sentence()
    return _document_context(
        f"{results.title} — design report" + (" (incomplete)" if incomplete else ""),
        results.title,
        sections,
        incomplete,
        str(results.path) if results.path else "",
    )


def _document_context(
    title: str, game: str, sections: Sequence[Section], incomplete: str = "", source: str = ""
) -> dict[str, Any]:
    return {
        "title": title,
        "game": game,
        "sections": sections,
        "incomplete": incomplete,
        "generated": _dt.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "source": source,
    }


def render_html(analysis: Analysis, sections: Sequence[Section]) -> str:
    """The report as one HTML document (CSS inline, images embedded)."""
    return _environment().get_template("report.html.j2").render(**_context(analysis, sections))


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _markdown_environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["md"] = _md_cell
    return env


def render_markdown(analysis: Analysis, sections: Sequence[Section], image_dir: str | None) -> str:
    """The report as Markdown; figures linked as ``image_dir/<name>.png`` (omitted if None)."""
    return (
        _markdown_environment().get_template("report.md.j2").render(image_dir=image_dir, **_context(analysis, sections))
    )


def write_documents(
    title: str,
    game: str,
    sections: Sequence[Section],
    out_html: str | Path,
    markdown: str | Path | None = None,
    *,
    incomplete: str = "",
    source: str = "",
) -> Path:
    """Render ``sections`` with the design report's templates: the HTML file ``out_html`` and,
    with ``markdown``, the Markdown export (figures as PNG files in ``<stem>_files/`` beside it).
    For reports of folders that are not match tables (an exploit search); returns ``out_html``."""
    context = _document_context(title, game, sections, incomplete, source)
    out = Path(out_html)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(_environment().get_template("report.html.j2").render(**context), encoding="utf-8")
    if markdown is not None:
        image_dir = _write_figures(Path(markdown), sections)
        Path(markdown).write_text(
            _markdown_environment().get_template("report.md.j2").render(image_dir=image_dir, **context),
            encoding="utf-8",
        )
    return out


def _write_figures(md_path: Path, sections: Sequence[Section]) -> str:
    """The figures of ``sections`` as PNG files in ``<stem>_files/`` beside ``md_path`` (those of
    an earlier export removed); returns that folder's name, relative to ``md_path``."""
    md_path.parent.mkdir(parents=True, exist_ok=True)
    image_dir = f"{md_path.stem}_files"
    folder = md_path.parent / image_dir
    folder.mkdir(exist_ok=True)
    for stale in folder.glob("[0-9][0-9]*-*.png"):  # figures of an earlier export
        stale.unlink()
    for item in _figure_items(sections):
        (folder / f"{item.name}.png").write_bytes(item.png)
    return image_dir


def build_report(
    results_dir: str | Path | Results,
    out_html: str | Path | None = None,
    markdown: str | Path | None = None,
    **options: Any,
) -> Path:
    """Write the design report of a results directory.

    Args:
        results_dir: a directory written by ``tablesim run --out`` or ``tablesim experiment``,
            or its :class:`~analysis.results.Results` already loaded.
        out_html: the HTML file to write (default ``<results_dir>/report.html``).
        markdown: also write a Markdown export there (figures as PNG files in
            ``<stem>_files/`` beside it, replacing the figures of an earlier export);
            None: no Markdown.
        **options: analysis settings (:class:`analysis.analyse.Options`: ``confidence``,
            ``alpha``, ``fairness_margin``, ``correction`` ("holm" or "fdr_bh"),
            ``n_resamples``, ``seed``).

    Returns:
        the path of the HTML report.
    """
    results = open_results(results_dir, stream=None)  # a large directory: rounds and events slice by slice
    analysis = analyse(results, **options)
    sections = report_sections(analysis)
    out = Path(out_html) if out_html is not None else results.path / "report.html"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_html(analysis, sections), encoding="utf-8")
    if markdown is not None:
        md_path = Path(markdown)
        image_dir = _write_figures(md_path, sections)
        md_path.write_text(render_markdown(analysis, sections, image_dir), encoding="utf-8")
    return out


def _figure_items(sections: Iterable[Section]) -> Iterable[FigureItem]:
    for section in sections:
        for item in section.items:
            if isinstance(item, FigureItem):
                yield item
