"""Figures of the design report (matplotlib, Agg; readable when printed on A4).

Every function returns a :class:`matplotlib.figure.Figure` built without pyplot: no global
state, no display, and the caller's backend (a notebook's inline one) is left alone; PNGs
are rendered by ``savefig`` with matplotlib's Agg renderer. Labelled axes with units, CIs as error bars or bands, fonts of
11 pt or more at the printed size, colours from the Okabe–Ito palette (colour-blind safe) with
distinct markers and line styles so a grey print stays readable.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

__all__ = [
    "STYLE",
    "new_figure",
    "to_png",
    "seat_win_rates_plot",
    "effects_plot",
    "length_plot",
    "score_plot",
    "survival_plot",
    "skill_matrix_plot",
]

#: Okabe–Ito colours, then markers and line styles cycled with them.
COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
LINES = ["-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1))]
STYLE = {
    "font.size": 12,
    "axes.titlesize": 13,
    "axes.labelsize": 12,
    "xtick.labelsize": 11,
    "ytick.labelsize": 11,
    "legend.fontsize": 11,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.dpi": 100,
}
WIDTH = 8.0  # inches: the width of the printed page's text


def new_figure(height: float = 4.5, width: float = WIDTH) -> Figure:
    """A figure with the report's style (constrained layout)."""
    with matplotlib.rc_context(STYLE):
        return Figure(figsize=(width, height), layout="constrained")


def to_png(figure: Figure, dpi: int = 150) -> bytes:
    """The figure as PNG bytes."""
    buffer = io.BytesIO()
    with matplotlib.rc_context(STYLE):
        figure.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()


#: Characters of legend text that fit across a figure at the report's font size.
LEGEND_ROW_CHARS = 84


def legend_below(fig: Figure, ax, title: str | None = None) -> None:
    """The legend below the plot, outside the data (printed plots are read without zooming), in
    as many columns as its longest label leaves room for (at most 4): no label is cut off."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        widest = max(len(label) for label in labels) + 6  # the marker and the gap
        columns = max(1, min(4, len(handles), LEGEND_ROW_CHARS // widest))
        fig.legend(handles, labels, loc="outside lower center", ncols=columns, frameon=False, title=title)


def _err(center: float, low: float, high: float, scale: float = 1.0) -> list[list[float]]:
    """Error-bar lengths for one point: never negative, 0 where a bound is unknown (NaN)."""
    below, above = scale * (center - low), scale * (high - center)
    return [[max(0.0, below) if below == below else 0.0], [max(0.0, above) if above == above else 0.0]]


def _style(i: int) -> dict:
    return {"color": COLOURS[i % len(COLOURS)], "marker": MARKERS[i % len(MARKERS)]}


def seat_win_rates_plot(
    rates: pd.DataFrame, lineup: str, variants: Sequence[str], band: float | None = None, confidence: float = 0.95
) -> Figure:
    """Win rate by seat with simultaneous CIs, one series per variant, for one line-up.

    Args:
        rates: :func:`analysis.winrates.seat_win_rates` output.
        lineup: the line-up to draw.
        variants: the variants in display order (baseline first).
        band: fairness half-width δ (shaded 1/n ± δ), or None.
        confidence: the CI level, for the axis label.
    """
    with matplotlib.rc_context(STYLE):
        fig = new_figure(4.2)
        ax = fig.add_subplot()
        cell = rates[rates["lineup"] == lineup]
        seats = sorted(cell["seat"].unique())
        n = len(seats)
        shown = [v for v in variants if v in set(cell["variant"])]
        offsets = np.linspace(-0.25, 0.25, len(shown)) if len(shown) > 1 else [0.0]
        if n:
            ax.axhline(100.0 / n, color="0.3", lw=1, ls="--", label=f"1/{n} (equal chances)")
            if band:
                ax.axhspan(
                    100 * (1 / n - band),
                    100 * (1 / n + band),
                    color="0.85",
                    alpha=0.6,
                    label=f"fairness band ±{100 * band:.0f} points",
                )
        for i, variant in enumerate(shown):
            rows = cell[cell["variant"] == variant].sort_values("seat")
            y = 100 * rows["win_rate"].to_numpy()
            err = 100 * np.clip(
                np.vstack([rows["win_rate"] - rows["ci_low"], rows["ci_high"] - rows["win_rate"]]), 0, None
            )
            ax.errorbar(
                rows["seat"].to_numpy() + offsets[i],
                y,
                yerr=err,
                ls="none",
                capsize=4,
                ms=7,
                label=variant,
                **_style(i),
            )
        ax.set_xticks(seats, [f"seat {s}" for s in seats])
        ax.set_xlabel("seat (0 plays first)")
        ax.set_ylabel(f"win rate (%), {100 * confidence:.0f} % simultaneous CI")
        ax.set_title(f"Win rate by seat — {lineup}")
        ax.set_ylim(bottom=0)
        legend_below(fig, ax)
        return fig


def _short_label(label: str) -> str:
    return label.replace("'s win rate", " wins").replace(" (first to play)", "")


def effects_plot(
    effects: pd.DataFrame, lineup: str, alpha: float = 0.05, kind: str = "binary", confidence: float = 0.95
) -> Figure:
    """Forest plot of the variant effects of one line-up (variant − baseline, paired CIs).

    Args:
        effects: :func:`analysis.effects.variant_effects` output.
        lineup: the line-up to draw.
        alpha: significance level of the corrected p-values (filled markers).
        kind: ``"binary"``: one panel, one row per win rate or share, in percentage points,
            variants side by side; ``"continuous"``: one small panel per outcome in its unit.
        confidence: the CI level, for the axis label.
    """
    with matplotlib.rc_context(STYLE):
        cell = effects[(effects["lineup"] == lineup) & (effects["binary"] == (kind == "binary"))]
        variants = list(dict.fromkeys(effects.loc[effects["lineup"] == lineup, "variant"]))
        if cell.empty:
            fig = new_figure(1.5)
            ax = fig.add_subplot()
            ax.text(0.5, 0.5, "no outcome of this kind", ha="center", va="center")
            ax.set_axis_off()
            return fig
        if kind == "binary":
            return _binary_forest(cell, variants, lineup, alpha, confidence)
        return _continuous_forest(cell, variants, lineup, alpha, confidence)


def _binary_forest(cell: pd.DataFrame, variants: list[str], lineup: str, alpha: float, confidence: float) -> Figure:
    outcomes = list(dict.fromkeys(cell["outcome"]))
    fig = new_figure(0.45 * len(outcomes) * max(1, len(variants)) ** 0.5 + 1.6)
    ax = fig.add_subplot()
    offsets = np.linspace(-0.28, 0.28, len(variants)) if len(variants) > 1 else [0.0]
    for i, variant in enumerate(variants):
        rows = cell[cell["variant"] == variant].set_index("outcome").reindex(outcomes)
        style = _style(i)
        for y, row in enumerate(rows.itertuples()):
            if np.isnan(row.effect):
                continue
            filled = row.p_adjusted < alpha
            ax.errorbar(
                [100 * row.effect],
                [y + offsets[i]],
                xerr=_err(row.effect, row.ci_low, row.ci_high, 100),
                capsize=3,
                ms=6,
                color=style["color"],
                marker=style["marker"],
                mfc=style["color"] if filled else "white",
                label=variant if y == 0 else None,
            )
    labels = cell.drop_duplicates("outcome").set_index("outcome").loc[outcomes, "label"]
    ax.set_yticks(range(len(outcomes)), [_short_label(x) for x in labels])
    ax.invert_yaxis()
    ax.axvline(0, color="0.3", lw=1)
    ax.set_xlabel(f"change (percentage points), {100 * confidence:.0f} % paired CI")
    ax.set_title(f"Variant effects on win rates — {lineup}\n(filled marker: significant after correction)")
    legend_below(fig, ax, title="variant")
    return fig


def _continuous_forest(cell: pd.DataFrame, variants: list[str], lineup: str, alpha: float, confidence: float) -> Figure:
    outcomes = list(dict.fromkeys(cell["outcome"]))
    cols = 2 if len(outcomes) > 1 else 1
    nrows = int(np.ceil(len(outcomes) / cols))
    fig = new_figure(nrows * (0.35 * len(variants) + 1.3) + 0.8)
    axes = fig.subplots(nrows, cols, squeeze=False).ravel()
    for ax, outcome in zip(axes, outcomes):
        rows = cell[cell["outcome"] == outcome].set_index("variant").reindex(variants)
        for y, (variant, row) in enumerate(rows.iterrows()):
            if np.isnan(row["effect"]):
                continue
            style = _style(variants.index(variant))
            filled = row["p_adjusted"] < alpha
            ax.errorbar(
                [row["effect"]],
                [y],
                xerr=_err(row["effect"], row["ci_low"], row["ci_high"]),
                capsize=3,
                ms=6,
                color=style["color"],
                marker=style["marker"],
                mfc=style["color"] if filled else "white",
            )
        first = cell[cell["outcome"] == outcome].iloc[0]
        ax.set_yticks(range(len(variants)), variants)
        ax.set_ylim(len(variants) - 0.5, -0.5)
        ax.axvline(0, color="0.3", lw=1)
        ax.set_title(first["label"], fontsize=11)
        ax.set_xlabel(f"change ({first['unit']})", fontsize=10)
    for ax in axes[len(outcomes) :]:
        ax.set_axis_off()
    fig.suptitle(
        f"Variant effects on means — {lineup} ({100 * confidence:.0f} % paired CI; filled: significant)", fontsize=12
    )
    return fig


def length_plot(matches: pd.DataFrame, lineup: str, variants: Sequence[str], unit: str = "rounds") -> Figure:
    """Distribution of the game length (column ``rounds``, in ``unit``) per variant for one
    line-up; the cap marked. Non-integer lengths are binned."""
    with matplotlib.rc_context(STYLE):
        fig = new_figure(4.0)
        ax = fig.add_subplot()
        cell = matches[matches["lineup"] == lineup]
        shown = [v for v in variants if v in set(cell["variant"])]
        values = cell["rounds"].to_numpy(float)
        integers = bool(len(values)) and np.all(values == np.round(values)) and np.ptp(values) <= 80
        edges = None if integers else np.histogram_bin_edges(values, bins=min(30, max(5, np.unique(values).size)))
        step = 1.0 if integers else float(edges[1] - edges[0])
        width = 0.8 * step / max(1, len(shown))
        for i, variant in enumerate(shown):
            rows = cell[cell["variant"] == variant]
            if integers:
                counts = rows["rounds"].value_counts(normalize=True).sort_index()
                centres = counts.index.to_numpy(float)
            else:
                share, _ = np.histogram(rows["rounds"].to_numpy(float), bins=edges)
                counts = pd.Series(share / max(1, len(rows)))
                centres = (edges[:-1] + edges[1:]) / 2
            x = centres + (i - (len(shown) - 1) / 2) * width
            style = _style(i)
            ax.bar(
                x,
                100 * counts.to_numpy(),
                width=width,
                color=style["color"],
                label=variant,
                hatch=["", "//", "..", "xx", "\\\\", "++"][i % 6],
                edgecolor="white",
            )
            capped = rows[~rows["finished"].astype(bool)]
            if len(capped):
                ax.axvline(capped["rounds"].max(), color=style["color"], ls=":", lw=1.5)
        any_capped = (~cell["finished"].astype(bool)).any()
        ax.set_xlabel(f"game length ({unit})" + ("; dotted line: cap reached" if any_capped else ""))
        ax.set_ylabel("share of matches (%)")
        ax.set_title(f"Game length — {lineup}")
        legend_below(fig, ax)
        return fig


def score_plot(players: pd.DataFrame, lineup: str, variants: Sequence[str]) -> Figure:
    """Distribution of the final scores per variant for one line-up (step histograms)."""
    with matplotlib.rc_context(STYLE):
        fig = new_figure(4.0)
        ax = fig.add_subplot()
        cell = players[players["lineup"] == lineup]
        shown = [v for v in variants if v in set(cell["variant"])]
        scores = cell["score"].to_numpy(float)
        scores = scores[np.isfinite(scores)]
        if scores.size:
            low, high = float(scores.min()), float(scores.max())
            integers = np.all(scores == np.round(scores)) and high - low <= 60
            bins = (
                np.arange(low - 0.5, high + 1.5)
                if integers
                else np.histogram_bin_edges(scores, bins=min(40, max(5, np.unique(scores).size)))
            )
            for i, variant in enumerate(shown):
                values = cell.loc[cell["variant"] == variant, "score"].to_numpy(float)
                weights = np.full(values.size, 100.0 / max(1, values.size))
                ax.hist(
                    values,
                    bins=bins,
                    weights=weights,
                    histtype="step",
                    lw=2,
                    color=COLOURS[i % len(COLOURS)],
                    ls=LINES[i % len(LINES)],
                    label=variant,
                )
        ax.set_xlabel("final score (points)")
        ax.set_ylabel("share of players (%)")
        ax.set_title(f"Final scores — {lineup}")
        legend_below(fig, ax)
        return fig


def survival_plot(curves: pd.DataFrame, lineup: str, variants: Sequence[str], confidence: float = 0.95) -> Figure:
    """Kaplan–Meier curves P(length > t) per variant for one line-up, with pointwise CI bands."""
    with matplotlib.rc_context(STYLE):
        fig = new_figure(4.0)
        ax = fig.add_subplot()
        cell = curves[curves["lineup"] == lineup]
        for i, variant in enumerate(v for v in variants if v in set(cell["variant"])):
            rows = cell[cell["variant"] == variant]
            colour = COLOURS[i % len(COLOURS)]
            ax.step(
                rows["rounds"],
                100 * rows["survival"],
                where="post",
                color=colour,
                ls=LINES[i % len(LINES)],
                lw=2,
                label=variant,
            )
            ax.fill_between(
                rows["rounds"], 100 * rows["ci_low"], 100 * rows["ci_high"], step="post", color=colour, alpha=0.15
            )
        ax.axhline(50, color="0.3", lw=1, ls=":")
        ax.set_xlabel("rounds played (t)")
        ax.set_ylabel(f"matches still running at t (%), {100 * confidence:.0f} % band")
        ax.set_title(f"Game length as survival (cap = censoring) — {lineup}")
        ax.set_ylim(0, 102)
        legend_below(fig, ax)
        return fig


def skill_matrix_plot(matrix: pd.DataFrame, variant: str, lineup: str) -> Figure:
    """Heat map of P(row profile finishes ahead of column profile), with CIs written in."""
    with matplotlib.rc_context(STYLE):
        cell = matrix[(matrix["variant"] == variant) & (matrix["lineup"] == lineup)]
        profiles = sorted(set(cell["profile"]) | set(cell["opponent"]))
        k = len(profiles)
        grid = np.full((k, k), np.nan)
        text = [["—"] * k for _ in range(k)]
        for row in cell.itertuples(index=False):
            i, j = profiles.index(row.profile), profiles.index(row.opponent)
            grid[i, j] = 100 * row.p_ahead
            text[i][j] = f"{100 * row.p_ahead:.0f} %\n[{100 * row.ci_low:.0f}, {100 * row.ci_high:.0f}]"
        fig = new_figure(1.2 * k + 1.8, min(WIDTH, 1.8 * k + 3.0))
        ax = fig.add_subplot()
        ax.grid(False)
        image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=100)
        for i in range(k):
            for j in range(k):
                dark = not np.isnan(grid[i, j]) and abs(grid[i, j] - 50) > 30
                ax.text(j, i, text[i][j], ha="center", va="center", fontsize=11, color="white" if dark else "black")
        ax.set_xticks(range(k), profiles)
        ax.set_yticks(range(k), profiles)
        ax.set_xlabel("opponent profile")
        ax.set_ylabel("profile")
        ax.set_title(f"P(profile ahead of opponent) — {variant} / {lineup}", fontsize=12)
        fig.colorbar(image, ax=ax, label="finishes ahead (%)")
        return fig
