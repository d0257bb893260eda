"""The summary `tablesim run` prints: win rates with CIs, scores, lengths, the game's metrics.

The intervals are the report's (:mod:`analysis.winrates`): seats with simultaneous
Bonferroni–Clopper–Pearson intervals, profiles and teams with Wilson intervals, both on the
effective sample size n/deff when the matches of one seed (its seat rotations) are correlated.

A summary is gathered slice by slice (:class:`RunTally`): :func:`stored_summary` reads a results
directory of any size a few thousand matches at a time, and :func:`run_summary` of tables in
memory is the same computation on one slice.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.core.store import contiguous_runs, load_tables
from sim.core.stream import SLICE_MATCHES, iter_slices, union_columns
from sim.core.tally import Tally, counts_of, describe_counts, grouped_counts, merge_tallies

from .winrates import merge_moments, rate_moments, rates_from_moments, team_rows

__all__ = ["run_summary", "stored_summary", "RunTally", "format_summary"]


def _rate_rows(frame: pd.DataFrame, key: str) -> list[dict[str, Any]]:
    rows = []
    for record in frame.to_dict("records"):
        value = record[key]
        rows.append(
            {
                key: int(value) if isinstance(value, (int, np.integer)) else str(value),
                "games": int(record["games"]),
                "wins": int(record["wins"]),
                "win_rate": float(record["win_rate"]),
                "ci_low": float(record["ci_low"]),
                "ci_high": float(record["ci_high"]),
                "design_effect": float(record["design_effect"]),
                "method": str(record["method"]),
            }
        )
    return rows


#: The columns :class:`RunTally` reads beside the keys (``iter_slices``'s ``columns``).
RUN_COLUMNS = {
    "matches": ("seed", "finished", "rounds"),
    "players": ("seat", "won", "score", "profile", "team", "seed"),
    "rounds": (),
    "events": (),
}


class RunTally:
    """What :func:`run_summary` needs, gathered slice by slice (each slice: whole seeds of a cell).

    ``add`` the tables of each slice, then ``summary``: the result equals the summary of all the
    slices' tables at once, with memory that depends on the slice, not on the run (counts of
    each score and length value; sums over seeds for the win rates, :func:`analysis.winrates.rate_moments`).
    """

    def __init__(self, length: Any = None):
        self.length = length
        self.counts: Tally = {}
        self.moments: dict[str, pd.DataFrame] = {}
        self.clustered: dict[str, bool] = {}
        self.seeds: list[tuple[int, int]] = []
        self.length_column = "rounds"

    def _rates(self, item: str, rows: pd.DataFrame) -> None:
        if not len(rows):
            return
        cluster = "seed" if "seed" in rows.columns else None
        moments = rate_moments(rows, item, "won", cluster)
        self.clustered[item] = self.clustered.get(item, False) or bool((moments["big"] > 1).any())
        self.moments[item] = merge_moments([self.moments.get(item, pd.DataFrame()), moments])

    def add(self, tables: Mapping[str, pd.DataFrame]) -> RunTally:
        """Count one slice's ``matches`` and ``players`` tables in."""
        matches, players = tables["matches"], tables["players"]
        column = getattr(self.length, "column", "rounds")
        if len(matches):
            self.length_column = column if column in matches.columns else "rounds"
        merge_tallies(
            self.counts,
            {
                "matches": float(len(matches)),
                "unfinished": float((~matches["finished"].astype(bool)).sum()) if len(matches) else 0.0,
                **(counts_of(players["score"], "score") if len(players) else {}),
                **{
                    key: n
                    for profile, group in players.groupby("profile", sort=True)
                    for key, n in counts_of(group["score"], "profile_score", str(profile)).items()
                },
                **(counts_of(matches["rounds"], "rounds") if len(matches) else {}),
                **(counts_of(matches[self.length_column], "length") if len(matches) else {}),
            },
        )
        if "seed" in matches.columns and len(matches):
            self.seeds = _merged_ranges(self.seeds + contiguous_runs(sorted(set(matches["seed"].astype("int64")))))
        self._rates("seat", players)
        self._rates("profile", players)
        self._rates("team", team_rows(players))
        return self

    def _rate_table(self, item: str, confidence: float, simultaneous: bool) -> pd.DataFrame:
        moments = self.moments.get(item)
        if moments is None or not len(moments):
            return pd.DataFrame()
        table = rates_from_moments(moments, item, confidence, simultaneous)
        table["method"] = ("Bonferroni–Clopper–Pearson" if simultaneous else "Wilson") + (
            ", clustered by seed" if self.clustered.get(item) else ""
        )
        return table

    def summary(self, game_metrics: Mapping[str, float] | None = None, confidence: float = 0.95) -> dict[str, Any]:
        """The summary (:func:`run_summary`) of every slice added."""
        counts = self.counts
        matches = int(counts.get("matches", 0))
        length = describe_counts(grouped_counts(counts, "length").get((), {}))
        summary: dict[str, Any] = {
            "matches": matches,
            "confidence": confidence,
            "seeds": sum(high - low + 1 for low, high in self.seeds) if self.seeds else matches,
            "unfinished": int(counts.get("unfinished", 0)),
            "win_rate_by_seat": _rate_rows(self._rate_table("seat", confidence, True), "seat"),
            "win_rate_by_profile": _rate_rows(self._rate_table("profile", confidence, False), "profile"),
            "final_score": describe_counts(grouped_counts(counts, "score").get((), {})),
            "final_score_by_profile": {
                group[0]: describe_counts(values)
                for group, values in sorted(grouped_counts(counts, "profile_score").items())
            },
            "rounds_per_game": describe_counts(grouped_counts(counts, "rounds").get((), {})),
            "length": {
                "column": self.length_column,
                "unit": getattr(self.length, "unit", "rounds"),
                "label": getattr(self.length, "label", "game length"),
                **length,
                "constant": len(grouped_counts(counts, "length").get((), {})) == 1,
            },
        }
        teams = self._rate_table("team", confidence, True)
        if len(teams):
            summary["win_rate_by_team"] = _rate_rows(teams, "team")
        if game_metrics:
            summary["game"] = {
                k: (float(v) if isinstance(v, (int, float, np.floating, np.integer)) else v)
                for k, v in game_metrics.items()
            }
        return summary


def _merged_ranges(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Inclusive integer ranges merged where they overlap or touch."""
    merged: list[tuple[int, int]] = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def run_summary(
    tables: Mapping[str, pd.DataFrame],
    game_metrics: Mapping[str, float] | None = None,
    confidence: float = 0.95,
    length: Any = None,
) -> dict[str, Any]:
    """Summarise a run's tables (any game, one cell) as a JSON-ready dict.

    ``length`` is the game's :class:`~sim.core.game.GameLength` (default: ``rounds``).
    """
    return RunTally(length).add(tables).summary(game_metrics, confidence)


def stored_summary(
    path: str | Path, spec: Any = None, confidence: float = 0.95, matches_per_slice: int = SLICE_MATCHES
) -> dict[str, Any]:
    """:func:`run_summary` of a results directory, with the game's metrics, read slice by slice.

    Memory depends on the slice, not on the run, for a game that declares ``tally`` and
    ``summary_from_tally`` (the shipped games do); a game with only ``summary`` has its metrics
    computed on the whole tables, loaded once.
    """
    length = getattr(spec, "length", None)
    run = RunTally(length)
    streamed = spec is not None and spec.tally is not None and spec.summary_from_tally is not None
    own = {**RUN_COLUMNS, "matches": (*RUN_COLUMNS["matches"], getattr(length, "column", "rounds"))}
    columns = union_columns(own, spec.tally_columns) if streamed else union_columns(own)
    game: Tally = {}
    for tables in iter_slices(path, matches_per_slice, columns):
        run.add(tables)
        if streamed:
            merge_tallies(game, spec.tally(tables))
    if streamed:
        metrics = spec.summary_from_tally(game)
    elif spec is not None and spec.summary is not None:
        metrics = spec.summary(load_tables(path))
    else:
        metrics = None
    return run.summary(metrics, confidence)


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
    for key, label in (("win_rate_by_seat", "seat"), ("win_rate_by_profile", "profile"), ("win_rate_by_team", "team")):
        if key not in summary or not summary[key]:
            continue
        method = summary[key][0].get("method", "Wilson")
        kind = "simultaneous " if method.startswith("Bonferroni") else ""
        lines.append("")
        lines.append(f"win rate by {label} ({level} % {kind}CI: {method})")
        for row in summary[key]:
            lines.append(
                f"  {str(row[label]):<12} {_pct(row['win_rate'])}  "
                f"[{_pct(row['ci_low'])}, {_pct(row['ci_high'])}]  "
                f"{row['wins']}/{row['games']}"
            )
    score = summary["final_score"]
    lines += [
        "",
        f"final score: mean {score['mean']:.1f}, median {score['median']:.1f}, "
        f"min {score['min']:.0f}, max {score['max']:.0f}",
    ]
    for profile, stats in summary["final_score_by_profile"].items():
        lines.append(f"  {profile:<12} mean {stats['mean']:.1f}, median {stats['median']:.1f}")
    length = summary.get("length") or {
        "label": "rounds per game",
        "unit": "rounds",
        "constant": False,
        **summary["rounds_per_game"],
    }
    if length["constant"]:
        lines.append(f"{length['label']}: every match {_number(length['mean'])} {length['unit']}")
    else:
        lines.append(
            f"{length['label']} ({length['unit']}): mean {length['mean']:.2f}, median "
            f"{length['median']:.1f}, min {_number(length['min'])}, max {_number(length['max'])}"
        )
    if summary.get("game"):
        lines += ["", "game metrics"]
        for key, value in summary["game"].items():
            shown = f"{value:.4g}" if isinstance(value, float) else str(value)
            lines.append(f"  {key:<34} {shown}")
    return "\n".join(lines)
