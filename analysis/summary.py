"""The summary `tablesim run` prints: win rates with CIs, scores, lengths, the game's metrics.

The intervals are the report's (:mod:`analysis.winrates`): seats with simultaneous
Bonferroni–Clopper–Pearson intervals, profiles and teams with Wilson intervals, both on the
effective sample size n/deff when the matches of one seed (its seat rotations) are correlated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from .winrates import profile_win_rates, seat_win_rates, team_win_rates

__all__ = ["run_summary", "format_summary"]


def _describe(series: pd.Series) -> dict[str, float]:
    values = series.to_numpy(dtype=float)
    if values.size == 0:
        return {"mean": float("nan"), "median": float("nan"), "min": float("nan"), "max": float("nan")}
    return {"mean": float(np.mean(values)), "median": float(np.median(values)),
            "min": float(np.min(values)), "max": float(np.max(values))}


def _rate_rows(frame: pd.DataFrame, key: str) -> list[dict[str, Any]]:
    rows = []
    for record in frame.to_dict("records"):
        value = record[key]
        rows.append({key: int(value) if isinstance(value, (int, np.integer)) else str(value),
                     "games": int(record["games"]), "wins": int(record["wins"]),
                     "win_rate": float(record["win_rate"]), "ci_low": float(record["ci_low"]),
                     "ci_high": float(record["ci_high"]), "design_effect": float(record["design_effect"]),
                     "method": str(record["method"])})
    return rows


def _length(matches: pd.DataFrame, length: Any) -> dict[str, Any]:
    column = getattr(length, "column", "rounds")
    values = matches[column] if column in matches.columns else matches["rounds"]
    out = {"column": column if column in matches.columns else "rounds",
           "unit": getattr(length, "unit", "rounds"), "label": getattr(length, "label", "game length"),
           **_describe(values)}
    out["constant"] = bool(len(values) and values.nunique() == 1)
    return out


def run_summary(tables: Mapping[str, pd.DataFrame], game_metrics: Mapping[str, float] | None = None,
                confidence: float = 0.95, length: Any = None) -> dict[str, Any]:
    """Summarise a run's tables (any game, one cell) as a JSON-ready dict.

    ``length`` is the game's :class:`~sim.core.game.GameLength` (default: ``rounds``).
    """
    matches, players = tables["matches"], tables["players"]
    summary: dict[str, Any] = {
        "matches": int(len(matches)),
        "confidence": confidence,
        "seeds": int(matches["seed"].nunique()) if "seed" in matches.columns else int(len(matches)),
        "unfinished": int((~matches["finished"].astype(bool)).sum()) if len(matches) else 0,
        "win_rate_by_seat": _rate_rows(seat_win_rates(players, confidence, simultaneous=True), "seat"),
        "win_rate_by_profile": _rate_rows(profile_win_rates(players, confidence), "profile"),
        "final_score": _describe(players["score"]),
        "final_score_by_profile": {str(name): _describe(group["score"])
                                   for name, group in players.groupby("profile", sort=True)},
        "rounds_per_game": _describe(matches["rounds"]),
        "length": _length(matches, length),
    }
    if "team" in players.columns and (players["team"] >= 0).any():
        summary["win_rate_by_team"] = _rate_rows(team_win_rates(players, confidence, simultaneous=True), "team")
    if game_metrics:
        summary["game"] = {k: (float(v) if isinstance(v, (int, float, np.floating, np.integer)) else v)
                           for k, v in game_metrics.items()}
    return summary


def _number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"


def _pct(value: float) -> str:
    return f"{100 * value:5.1f} %"


def format_summary(summary: Mapping[str, Any], title: str = "") -> str:
    """The summary as aligned plain text for a terminal."""
    level = int(round(100 * summary["confidence"]))
    lines = []
    if title:
        lines += [title, "=" * len(title)]
    lines.append(f"matches: {summary['matches']}   unfinished (hit the cap): {summary['unfinished']}")
    if summary.get("seating"):
        lines.append(summary["seating"])
    for key, label in (("win_rate_by_seat", "seat"), ("win_rate_by_profile", "profile"),
                       ("win_rate_by_team", "team")):
        if key not in summary or not summary[key]:
            continue
        method = summary[key][0].get("method", "Wilson")
        kind = "simultaneous " if method.startswith("Bonferroni") else ""
        lines.append("")
        lines.append(f"win rate by {label} ({level} % {kind}CI: {method})")
        for row in summary[key]:
            lines.append(f"  {str(row[label]):<12} {_pct(row['win_rate'])}  "
                         f"[{_pct(row['ci_low'])}, {_pct(row['ci_high'])}]  "
                         f"{row['wins']}/{row['games']}")
    score = summary["final_score"]
    lines += ["", f"final score: mean {score['mean']:.1f}, median {score['median']:.1f}, "
                  f"min {score['min']:.0f}, max {score['max']:.0f}"]
    for profile, stats in summary["final_score_by_profile"].items():
        lines.append(f"  {profile:<12} mean {stats['mean']:.1f}, median {stats['median']:.1f}")
    length = summary.get("length") or {"label": "rounds per game", "unit": "rounds", "constant": False,
                                       **summary["rounds_per_game"]}
    if length["constant"]:
        lines.append(f"{length['label']}: every match {_number(length['mean'])} {length['unit']}")
    else:
        lines.append(f"{length['label']} ({length['unit']}): mean {length['mean']:.2f}, median "
                     f"{length['median']:.1f}, min {_number(length['min'])}, max {_number(length['max'])}")
    if summary.get("game"):
        lines += ["", "game metrics"]
        for key, value in summary["game"].items():
            shown = f"{value:.4g}" if isinstance(value, float) else str(value)
            lines.append(f"  {key:<34} {shown}")
    return "\n".join(lines)
