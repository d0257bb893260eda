"""What ``tablesim calibrate`` writes: the fitted values, the goodness of fit, one profile
TOML per player (usable with ``--players``) and an HTML report (the report's look).

    DIR/fit.csv             player, key, estimate, low_95, high_95, unit, rounds
    DIR/goodness.csv        player, category, observed, expected (rounds)
    DIR/profiles/NAME.toml  name, base, keys: tablesim run GAME --players DIR/profiles/A.toml,...
    DIR/calibrate.html      fitted values, intervals, observed-vs-emulated plots
"""

from __future__ import annotations

import base64
import csv
import io
import re
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from jinja2 import Environment, FileSystemLoader, select_autoescape

from .calibration import SheetFit
from .goodness import Goodness

__all__ = ["fit_rows", "profile_file_name", "write_results"]

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def profile_file_name(player: str) -> str:
    """A file name for a player's profile: letters, digits, ``-`` and ``_`` kept."""
    return (re.sub(r"[^A-Za-z0-9_-]+", "_", player).strip("_") or "player") + ".toml"


def fit_rows(result: SheetFit) -> list[dict[str, Any]]:
    rows = []
    for player in result.players:
        for axis, value, (low, high) in zip(result.emulated.space.axes, player.values, player.intervals):
            rows.append(
                {
                    "player": player.name,
                    "key": axis.key,
                    "estimate": float(value),
                    "low_95": float(low),
                    "high_95": float(high),
                    "unit": axis.unit,
                    "rounds": player.rounds,
                }
            )
    return rows


def _write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def _goodness_figure(goodness: Goodness, column: str) -> str:
    """Observed vs emulated rounds per category, one panel per player: a base64 PNG."""
    n = len(goodness.players)
    fig, axes = plt.subplots(1, n, figsize=(4.2 * n, 3.2), squeeze=False)
    for ax, player in zip(axes[0], goodness.players):
        x = range(len(goodness.labels))
        ax.bar([i - 0.2 for i in x], player.observed, width=0.4, label="sheet", color="#0072B2")
        ax.bar([i + 0.2 for i in x], player.expected, width=0.4, label="emulated at the fit", color="#E69F00")
        ax.set_xticks(list(x), goodness.labels, rotation=45, ha="right", fontsize=8)
        ax.set_title(player.name)
        ax.set_xlabel(f"{column} per round")
        ax.set_ylabel("rounds")
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def write_results(result: SheetFit, goodness: Goodness, out: Path, command: str, game_title: str) -> list[Path]:
    """Write every output into ``out`` (created); returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "profiles").mkdir(exist_ok=True)
    space = result.emulated.space
    written = [out / "fit.csv", out / "goodness.csv"]
    rows = fit_rows(result)
    _write_csv(written[0], rows)
    _write_csv(
        written[1],
        [
            {"player": p.name, "category": label, "observed": float(o), "expected": round(float(e), 3)}
            for p in goodness.players
            for label, o, e in zip(goodness.labels, p.observed, p.expected)
        ],
    )
    for player in result.players:
        spans = ", ".join(
            f"{a.key} {v:.3g} (95 % {lo:.3g} to {hi:.3g})"
            for a, v, (lo, hi) in zip(space.axes, player.values, player.intervals)
        )
        comments = [f"calibrated by: {command}", f"{space.description}", f"fit: {spans}"]
        path = out / "profiles" / profile_file_name(player.name)
        path.write_text(space.profile_file(player.name, player.values, comments), encoding="utf-8")
        written.append(path)
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html", "j2"]))
    html = env.get_template("calibrate.html.j2").render(
        title=f"{game_title} calibration: {result.sheet.path.name}",
        command=command,
        rows=rows,
        space=space.description,
        goodness=goodness,
        figure=_goodness_figure(goodness, result.sheet.value),
        matches=result.emulated.matches_played,
        sheet_rounds=len(result.sheet.rows),
    )
    written.append(out / "calibrate.html")
    written[-1].write_text(html, encoding="utf-8")
    return written
