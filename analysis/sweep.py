"""A sweep's outcomes against the swept value: seat win rates, game length, variant effects.

An experiment with a ``[sweep]`` table (:mod:`sim.core.experiment`) plays every line-up at each
value of a player axis — the game's skill axis (novice → expert) or one profile key — on the
same seeds. Each value is a line-up of its own, so every number here is one the report already
computes for that line-up, with its interval, regrouped by value:

* seat win rates with the report's simultaneous intervals (Bonferroni–Clopper–Pearson over
  the seats, on the seed-clustered effective sample size: :func:`analysis.winrates.seat_win_rates`);
* the mean game length with its seed-bootstrap interval (:func:`analysis.distributions.length_distribution`);
* each variant's paired effect (variant − baseline on the same seeds) with its interval and
  its Holm-adjusted p-value over the whole effects table (:func:`analysis.effects.variant_effects`);
* the fairness verdict of every value, family-wise over every cell of the report
  (:func:`analysis.fairness.seat_fairness`): the values at which a rule stops being fair;
* each variant's paired effect on the game's own metrics (a KO rate, a share of shots:
  :func:`analysis.game_effects.game_metric_effects`, jackknife over seeds, Holm over that
  table), for the metrics the file's ``[sweep] metrics`` names, else for those a variant moves
  at some value (at most :data:`MAX_METRICS`).

:func:`sweep_sections` returns the report's section; :func:`sweep_frames` the same numbers as
tables (what a notebook or test reads).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import matplotlib
import numpy as np
import pandas as pd

from .length import length_of, length_table
from .narrative import number, pct
from .plots import COLOURS, LINES, MARKERS, STYLE, legend_below, new_figure

__all__ = [
    "SweepFrames",
    "sweep_frames",
    "sweep_sections",
    "seat_curve_plot",
    "length_curve_plot",
    "effect_curve_plot",
    "metric_effect_plot",
    "MAX_METRICS",
]


@dataclass
class SweepFrames:
    """The sweep's numbers, one row per value (and seat, or outcome)."""

    axis: str
    kind: str  # "skill" or "key"
    length: Any  # the game's declared length (sim.core.game.GameLength)
    slots: Any
    # every frame: lineup (played), sweep_base (the file's line-up), sweep_value, then its own columns
    cells: pd.DataFrame
    seats: pd.DataFrame  # variant, seat, win_rate, ci_low, ci_high (analysis.seat_rates)
    lengths: pd.DataFrame  # variant, mean, ci_low, ci_high, ... (the declared length's table)
    effects: pd.DataFrame  # variant, outcome, label, binary, effect, ci_low, ci_high, p_adjusted (analysis.effects)
    verdicts: pd.DataFrame  # variant, verdict (analysis.fairness_cells)
    # variant, metric, effect, ci_low, ci_high, p_adjusted (analysis.game_effects), the metrics plotted only
    game_effects: pd.DataFrame = None
    metrics: tuple[str, ...] = ()  # the game metrics plotted (the file's [sweep] metrics, or chosen)


def _cells(sweep: dict) -> pd.DataFrame:
    rows = [
        {"lineup": name, "sweep_base": entry["lineup"], "sweep_value": float(entry["value"])}
        for name, entry in (sweep.get("lineups") or {}).items()
    ]
    return pd.DataFrame(rows, columns=["lineup", "sweep_base", "sweep_value"])


def _by_value(frame: pd.DataFrame, cells: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``frame`` whose line-up is swept, with its base line-up and value, by value."""
    if frame is None or frame.empty or "lineup" not in frame.columns:
        return pd.DataFrame(columns=["variant", "lineup", "sweep_base", "sweep_value"])
    joined = frame.merge(cells, on="lineup", how="inner")
    return joined.sort_values(["sweep_base", "sweep_value"], kind="stable").reset_index(drop=True)


def sweep_frames(analysis) -> SweepFrames | None:
    """The sweep of an analysed results directory (None if the experiment swept nothing)."""
    sweep = analysis.results.manifest.get("sweep")
    if not sweep:
        return None
    cells = _cells(sweep)
    seats = _by_value(analysis.seat_rates, cells)
    lengths = _by_value(length_table(analysis), cells)
    effects = _by_value(analysis.effects, cells)
    verdicts = _by_value(analysis.fairness_cells, cells)
    game_effects, metrics = _game_effects(analysis, cells, tuple(sweep.get("metrics") or ()))
    return SweepFrames(
        str(sweep.get("axis")),
        str(sweep.get("kind")),
        length_of(analysis.results),
        sweep.get("slots"),
        cells,
        seats,
        lengths,
        effects,
        verdicts,
        game_effects,
        metrics,
    )


#: Game metrics plotted against the swept value when the file names none.
MAX_METRICS = 4


def _game_effects(analysis, cells: pd.DataFrame, named: tuple[str, ...]) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """The game metrics' paired variant effects by value (:func:`analysis.game_effects.game_metric_effects`,
    Holm over the whole table as in the report), for the metrics named, else for the (at most
    :data:`MAX_METRICS`) metrics a variant moves at some value (adjusted p < α), largest |t| first."""
    from .game_effects import game_metric_effects

    spec = analysis.results.spec
    if spec is None or getattr(spec, "summary", None) is None or not analysis.has_variants:
        return _by_value(None, cells), ()
    table = _by_value(game_metric_effects(analysis), cells)
    if table.empty:
        return table, ()
    if named:
        metrics = tuple(m for m in named if m in set(table["metric"]))
    else:
        moved = table[table["p_adjusted"] < analysis.options.alpha]
        strength = (moved["effect"].abs() / moved["se"]).groupby(moved["metric"]).max()
        metrics = tuple(strength.sort_values(ascending=False, kind="stable").index[:MAX_METRICS])
    return table[table["metric"].isin(metrics)].reset_index(drop=True), metrics


# ------------------------------------------------------------------------------------------
# figures
# ------------------------------------------------------------------------------------------


def _axis_label(frames: SweepFrames, spec: Any) -> str:
    slots = "every slot" if frames.slots == "all" else "slot " + ", ".join(map(str, frames.slots))
    if frames.kind == "skill":
        path = tuple(getattr(spec, "skill_path", ()) or ())
        names = " → ".join(path) if path else "the game's presets"
        return f"skill ({names}; {slots})"
    return f"{frames.axis} ({slots})"


def _skill_ticks(ax, frames: SweepFrames, spec: Any) -> None:
    """Whole skills named by their preset under the numbers (skill sweeps only)."""
    path = tuple(getattr(spec, "skill_path", ()) or ())
    if frames.kind != "skill" or not path:
        return
    low, high = frames.cells["sweep_value"].min(), frames.cells["sweep_value"].max()
    ticks = [i for i in range(len(path)) if low - 1e-9 <= i <= high + 1e-9]
    ax.set_xticks(ticks, [f"{i}\n{path[i]}" for i in ticks])


def seat_curve_plot(
    frames: SweepFrames, base: str, spec: Any = None, band: float | None = None, confidence: float = 0.95
):
    """Every seat's win rate against the swept value (one line per seat and variant)."""
    with matplotlib.rc_context(STYLE):
        fig = new_figure(4.4)
        ax = fig.add_subplot()
        rows = frames.seats[frames.seats["sweep_base"] == base]
        seats = sorted(rows["seat"].unique())
        if seats:
            share = 100.0 / len(seats)
            ax.axhline(share, color="0.3", lw=1, ls="--", label=f"1/{len(seats)} (equal chances)")
            if band:
                ax.axhspan(
                    share - 100 * band,
                    share + 100 * band,
                    color="0.85",
                    alpha=0.6,
                    label=f"fairness band ±{100 * band:.0f} points",
                )
        variants = list(dict.fromkeys(rows["variant"]))
        series = len(variants) * len(seats)
        spread = 0.012 * (float(frames.cells["sweep_value"].max() - frames.cells["sweep_value"].min()) or 1.0)
        for v_index, variant in enumerate(variants):
            for s_index, seat in enumerate(seats):
                line = rows[(rows["variant"] == variant) & (rows["seat"] == seat)].sort_values("sweep_value")
                shift = spread * (v_index * len(seats) + s_index - (series - 1) / 2)  # side by side, not on top
                y = 100 * line["win_rate"].to_numpy()
                err = 100 * np.clip(
                    np.vstack([line["win_rate"] - line["ci_low"], line["ci_high"] - line["win_rate"]]), 0, None
                )
                label = f"seat {seat}" + (f", {variant}" if len(variants) > 1 else "")
                ax.errorbar(
                    line["sweep_value"].to_numpy() + shift,
                    y,
                    yerr=err,
                    capsize=3,
                    ms=6,
                    label=label,
                    color=COLOURS[s_index % len(COLOURS)],
                    marker=MARKERS[v_index % len(MARKERS)],
                    ls=LINES[v_index % len(LINES)],
                )
        ax.set_xlabel(_axis_label(frames, spec))
        ax.set_ylabel(f"win rate (%), {100 * confidence:.0f} % simultaneous CI")
        ax.set_title(f"Win rate by seat against {frames.axis} — {base}")
        _skill_ticks(ax, frames, spec)
        legend_below(fig, ax)
        return fig


def length_curve_plot(frames: SweepFrames, base: str, spec: Any = None, confidence: float = 0.95):
    """Mean game length against the swept value (one line per variant)."""
    with matplotlib.rc_context(STYLE):
        fig = new_figure(3.8)
        ax = fig.add_subplot()
        rows = frames.lengths[frames.lengths["sweep_base"] == base]
        for index, variant in enumerate(dict.fromkeys(rows["variant"])):
            line = rows[rows["variant"] == variant].sort_values("sweep_value")
            err = np.clip(np.vstack([line["mean"] - line["ci_low"], line["ci_high"] - line["mean"]]), 0, None)
            ax.errorbar(
                line["sweep_value"].to_numpy(),
                line["mean"].to_numpy(),
                yerr=err,
                capsize=3,
                ms=6,
                label=variant,
                color=COLOURS[index % len(COLOURS)],
                marker=MARKERS[index % len(MARKERS)],
                ls=LINES[index % len(LINES)],
            )
        ax.set_xlabel(_axis_label(frames, spec))
        ax.set_ylabel(f"mean {frames.length.label} ({frames.length.unit}), {100 * confidence:.0f} % CI")
        ax.set_title(f"{frames.length.label[:1].upper()}{frames.length.label[1:]} against {frames.axis} — {base}")
        _skill_ticks(ax, frames, spec)
        legend_below(fig, ax)
        return fig


def effect_curve_plot(
    frames: SweepFrames, base: str, variant: str, spec: Any = None, alpha: float = 0.05, confidence: float = 0.95
):
    """A variant's effect on every rate (left) and on the length (right) against the swept value.

    Filled markers: Holm-adjusted p < α over the report's whole effects table.
    """
    with matplotlib.rc_context(STYLE):
        fig = new_figure(4.4)
        left, right = fig.subplots(1, 2)
        rows = frames.effects[(frames.effects["sweep_base"] == base) & (frames.effects["variant"] == variant)]
        for ax, binary in ((left, True), (right, False)):
            part = rows[rows["binary"] == binary]
            outcomes = (
                list(dict.fromkeys(part["outcome"]))
                if binary
                else [o for o in (frames.length.column, "rounds") if o in set(part["outcome"])][:1]
            )
            ax.axhline(0.0, color="0.3", lw=1)
            scale = 100.0 if binary else 1.0
            for index, outcome in enumerate(outcomes):
                line = part[part["outcome"] == outcome].sort_values("sweep_value")
                y = scale * line["effect"].to_numpy()
                err = scale * np.clip(
                    np.vstack([line["effect"] - line["ci_low"], line["ci_high"] - line["effect"]]), 0, None
                )
                colour, marker = COLOURS[index % len(COLOURS)], MARKERS[index % len(MARKERS)]
                label = str(line["label"].iloc[0]).replace("'s win rate", " wins").replace(" (first to play)", "")
                ax.errorbar(
                    line["sweep_value"].to_numpy(),
                    y,
                    yerr=err,
                    capsize=3,
                    color=colour,
                    ls=LINES[index % len(LINES)],
                    marker="none",
                    label=label,
                )
                significant = (line["p_adjusted"] < alpha).to_numpy()
                x = line["sweep_value"].to_numpy()
                ax.plot(x[significant], y[significant], ls="none", marker=marker, color=colour, ms=7)
                ax.plot(x[~significant], y[~significant], ls="none", marker=marker, mfc="white", color=colour, ms=7)
            ax.set_ylabel("effect (percentage points)" if binary else f"effect on length ({frames.length.unit})")
            _skill_ticks(ax, frames, spec)
            if outcomes:
                ax.legend(fontsize=9, frameon=False)
        fig.supxlabel(_axis_label(frames, spec))
        fig.suptitle(
            f"Effect of {variant} against {frames.axis} — {base}\n({100 * confidence:.0f} % paired CIs; "
            f"filled: Holm-adjusted p < {alpha:g})"
        )
        return fig


def metric_effect_plot(
    frames: SweepFrames, base: str, variant: str, spec: Any = None, alpha: float = 0.05, confidence: float = 0.95
):
    """A variant's effect on the game's own metrics (:attr:`SweepFrames.metrics`) against the
    swept value, one panel per metric. Filled markers: Holm-adjusted p < α over the report's
    table of game-metric effects."""
    rows = frames.game_effects[
        (frames.game_effects["sweep_base"] == base) & (frames.game_effects["variant"] == variant)
    ]
    metrics = [m for m in frames.metrics if m in set(rows["metric"])]
    with matplotlib.rc_context(STYLE):
        fig = new_figure(3.6)
        axes = np.atleast_1d(fig.subplots(1, max(1, len(metrics))))
        for index, (ax, metric) in enumerate(zip(axes, metrics)):
            line = rows[rows["metric"] == metric].sort_values("sweep_value")
            x, y = line["sweep_value"].to_numpy(), line["effect"].to_numpy(float)
            err = np.clip(np.vstack([y - line["ci_low"], line["ci_high"] - y]), 0, None)
            colour, marker = COLOURS[index % len(COLOURS)], MARKERS[index % len(MARKERS)]
            ax.axhline(0.0, color="0.3", lw=1)
            ax.errorbar(x, y, yerr=err, capsize=3, color=colour, marker="none")
            significant = (line["p_adjusted"] < alpha).to_numpy()
            ax.plot(x[significant], y[significant], ls="none", marker=marker, color=colour, ms=7)
            ax.plot(x[~significant], y[~significant], ls="none", marker=marker, mfc="white", color=colour, ms=7)
            ax.set_title(metric, fontsize=11)
            _skill_ticks(ax, frames, spec)
        axes[0].set_ylabel("effect (variant − baseline)")
        fig.supxlabel(_axis_label(frames, spec))
        fig.suptitle(
            f"Effect of {variant} on the game's metrics against {frames.axis} — {base}\n"
            f"({100 * confidence:.0f} % paired CIs, jackknife over seeds; filled: Holm-adjusted p < {alpha:g})"
        )
        return fig


# ------------------------------------------------------------------------------------------
# text and tables
# ------------------------------------------------------------------------------------------


def _values_text(values) -> str:
    return ", ".join(f"{v:g}" for v in values) if len(values) else "none"


def fairness_sentences(frames: SweepFrames) -> list[str]:
    """Per variant and line-up: the values shown fair and those where a seat is shown off."""
    out = []
    for (variant, base), rows in frames.verdicts.groupby(["variant", "sweep_base"], sort=False):
        fair = rows.loc[rows["verdict"] == "fair", "sweep_value"].to_list()
        unfair = rows.loc[rows["verdict"].isin(["unfair", "small bias"]), "sweep_value"].to_list()
        open_ = rows.loc[rows["verdict"] == "inconclusive", "sweep_value"].to_list()
        parts = [f"shown fair at {frames.axis} = {_values_text(fair)}"]
        if unfair:
            parts.append(f"a seat shown off its fair share at {_values_text(unfair)}")
        if open_:
            parts.append(f"undecided at {_values_text(open_)}")
        out.append(f"{base}, {variant}: " + "; ".join(parts) + ".")
    return out


def trend_sentences(frames: SweepFrames) -> list[str]:
    """Each seat's win rate at the smallest and largest swept value."""
    out = []
    for (variant, base), rows in frames.seats.groupby(["variant", "sweep_base"], sort=False):
        parts = []
        for seat, line in rows.groupby("seat"):
            line = line.sort_values("sweep_value")
            first, last = line.iloc[0], line.iloc[-1]
            parts.append(
                f"seat {seat} {pct(first['win_rate'])} [{pct(first['ci_low'])}, {pct(first['ci_high'])}] "
                f"at {first['sweep_value']:g} → {pct(last['win_rate'])} [{pct(last['ci_low'])}, "
                f"{pct(last['ci_high'])}] at {last['sweep_value']:g}"
            )
        out.append(f"{base}, {variant}: " + "; ".join(parts) + ".")
    return out


def _table_rows(frames: SweepFrames, base: str) -> tuple[list[str], list[list[str]]]:
    seats = frames.seats[frames.seats["sweep_base"] == base]
    seat_ids = sorted(seats["seat"].unique())
    columns = ["variant", frames.axis] + [f"seat {s} wins" for s in seat_ids] + ["mean length", "fairness"]
    rows = []
    lengths = frames.lengths.set_index(["variant", "lineup"]) if not frames.lengths.empty else None
    verdicts = frames.verdicts.set_index(["variant", "lineup"]) if not frames.verdicts.empty else None
    for (variant, lineup), group in seats.groupby(["variant", "lineup"], sort=False):
        value = group["sweep_value"].iloc[0]
        cells = [variant, f"{value:g}"]
        for seat in seat_ids:
            r = group[group["seat"] == seat]
            cells.append(
                "—"
                if r.empty
                else f"{pct(r['win_rate'].iloc[0])} [{pct(r['ci_low'].iloc[0])}, {pct(r['ci_high'].iloc[0])}]"
            )
        if lengths is not None and (variant, lineup) in lengths.index:
            r = lengths.loc[(variant, lineup)]
            cells.append(f"{number(r['mean'])} [{number(r['ci_low'])}, {number(r['ci_high'])}]")
        else:
            cells.append("—")
        cells.append(
            str(verdicts.loc[(variant, lineup), "verdict"])
            if verdicts is not None and (variant, lineup) in verdicts.index
            else "—"
        )
        rows.append(cells)
    order = sorted(range(len(rows)), key=lambda i: (rows[i][0] != "baseline", rows[i][0], float(rows[i][1])))
    return columns, [rows[i] for i in order]


def _constant_length(frames: SweepFrames, base: str) -> float | None:
    rows = frames.lengths[frames.lengths["sweep_base"] == base]
    if rows.empty:
        return None
    if (rows["min"] == rows["max"]).all() and rows["mean"].nunique() == 1:
        return float(rows["mean"].iloc[0])
    return None


def sweep_sections(analysis, make_figure: Callable, section_type: type, table_type: type) -> list:
    """The report's sweep section (none if the experiment swept nothing).

    The report passes its own building blocks (its figure maker, its Section and Table
    classes), so this module needs nothing from :mod:`analysis.report`.
    """
    frames = sweep_frames(analysis)
    if frames is None or frames.seats.empty:
        return []
    spec, options = analysis.results.spec, analysis.options
    values = sorted(frames.cells["sweep_value"].unique())
    who = "every slot" if frames.slots == "all" else "slot " + ", ".join(map(str, frames.slots))
    what = (
        "the game's skill axis (each value the profile interpolated between two presets)"
        if frames.kind == "skill"
        else f"the profile key {frames.axis}"
    )
    section = section_type("sweep", f"Sweep: every outcome against {frames.axis}")
    section.paragraphs = [
        f"The experiment swept {what} over {_values_text(values)}, for {who} of each line-up; every value is a "
        "line-up of its own, played on the same seeds as the others. Win rates carry the report's simultaneous "
        "intervals over the seats (seed-clustered), lengths their seed-bootstrap intervals, variant effects their "
        "paired intervals (variant − baseline on the same seeds) with Holm-adjusted p-values over the whole "
        "effects table, and the fairness verdicts are family-wise over every cell of the report.",
        *trend_sentences(frames),
        *fairness_sentences(frames),
    ]
    for base in dict.fromkeys(frames.cells["sweep_base"]):
        section.items.append(
            make_figure(
                f"Win rate by seat against {frames.axis} — {base}",
                seat_curve_plot(frames, base, spec, options.fairness_margin, options.confidence),
            )
        )
        constant = _constant_length(frames, base)
        if constant is None:
            section.items.append(
                make_figure(
                    f"{frames.length.label[:1].upper()}{frames.length.label[1:]} against {frames.axis} — {base}",
                    length_curve_plot(frames, base, spec, options.confidence),
                )
            )
        else:
            section.notes.append(
                f"{base}: every match lasts {number(constant)} {frames.length.unit} at every value "
                "(a constant of the rules: no plot)."
            )
        for variant in dict.fromkeys(frames.effects.loc[frames.effects["sweep_base"] == base, "variant"]):
            section.items.append(
                make_figure(
                    f"Effect of {variant} against {frames.axis} — {base}",
                    effect_curve_plot(frames, base, variant, spec, options.alpha, options.confidence),
                )
            )
            if frames.metrics:
                section.items.append(
                    make_figure(
                        f"Effect of {variant} on the game's metrics against {frames.axis} — {base}",
                        metric_effect_plot(frames, base, variant, spec, options.alpha, options.confidence),
                    )
                )
        columns, rows = _table_rows(frames, base)
        section.items.append(
            table_type(
                f"Outcomes against {frames.axis} — {base}",
                columns,
                rows,
                note="Win rates with their simultaneous CIs; mean length with its CI; the "
                "cell's family-wise fairness verdict.",
            )
        )
    return [section]
