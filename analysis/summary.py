"""The summary `tablesim run` prints: win rates with CIs, scores, lengths, the game's metrics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from .winrates import win_rates

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
        rows.append({key: record[key], "games": int(record["games"]), "wins": int(record["wins"]),
                     "win_rate": float(record["win_rate"]), "ci_low": float(record["ci_low"]),
                     "ci_high": float(record["ci_high"])})
    return rows


def run_summary(tables: Mapping[str, pd.DataFrame], game_metrics: Mapping[str, float] | None = None,
                confidence: float = 0.95) -> dict[str, Any]:
    """Summarise a run's tables (any game) as a JSON-ready dict."""
    matches, players = tables["matches"], tables["players"]
    summary: dict[str, Any] = {
        "matches": int(len(matches)),
        "confidence": confidence,
        "unfinished": int((~matches["finished"].astype(bool)).sum()) if len(matches) else 0,
        "win_rate_by_seat": _rate_rows(win_rates(players, "seat", confidence), "seat"),
        "win_rate_by_profile": _rate_rows(win_rates(players, "profile", confidence), "profile"),
        "final_score": _describe(players["score"]),
        "final_score_by_profile": {str(name): _describe(group["score"])
                                   for name, group in players.groupby("profile", sort=True)},
        "rounds_per_game": _describe(matches["rounds"]),
    }
    if "team" in players.columns and (players["team"] >= 0).any():
        teams = players[players["team"] >= 0].drop_duplicates(["variant", "lineup", "match", "team"])
        summary["win_rate_by_team"] = _rate_rows(win_rates(teams, "team", confidence), "team")
    if game_metrics:
        summary["game"] = {k: (float(v) if isinstance(v, (int, float, np.floating, np.integer)) else v)
                           for k, v in game_metrics.items()}
    return summary


def _pct(value: float) -> str:
    return f"{100 * value:5.1f} %"


def format_summary(summary: Mapping[str, Any], title: str = "") -> str:
    """The summary as aligned plain text for a terminal."""
    level = int(round(100 * summary["confidence"]))
    lines = []
    if title:
        lines += [title, "=" * len(title)]
    lines.append(f"matches: {summary['matches']}   unfinished (hit the cap): {summary['unfinished']}")
    for key, label in (("win_rate_by_seat", "seat"), ("win_rate_by_profile", "profile"),
                       ("win_rate_by_team", "team")):
        if key not in summary:
            continue
        lines.append("")
        lines.append(f"win rate by {label} ({level} % Wilson CI)")
        for row in summary[key]:
            lines.append(f"  {str(row[label]):<12} {_pct(row['win_rate'])}  "
                         f"[{_pct(row['ci_low'])}, {_pct(row['ci_high'])}]  "
                         f"{row['wins']}/{row['games']}")
    score = summary["final_score"]
    lines += ["", f"final score: mean {score['mean']:.1f}, median {score['median']:.1f}, "
                  f"min {score['min']:.0f}, max {score['max']:.0f}"]
    for profile, stats in summary["final_score_by_profile"].items():
        lines.append(f"  {profile:<12} mean {stats['mean']:.1f}, median {stats['median']:.1f}")
    rounds = summary["rounds_per_game"]
    lines.append(f"rounds per game: mean {rounds['mean']:.2f}, median {rounds['median']:.1f}, "
                 f"max {rounds['max']:.0f}")
    if summary.get("game"):
        lines += ["", "game metrics"]
        for key, value in summary["game"].items():
            shown = f"{value:.4g}" if isinstance(value, float) else str(value)
            lines.append(f"  {key:<34} {shown}")
    return "\n".join(lines)
