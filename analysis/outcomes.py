"""One row per match: the outcomes that variants are compared on.

:func:`match_outcomes` joins the ``matches`` and ``players`` tables and the per-match design
metrics of :mod:`analysis.metrics` into one tidy frame keyed by ``variant, lineup, match``
(plus ``seed`` and ``rotation``). Binary outcomes are 0/1 floats, continuous ones are in the
unit given by :func:`describe_outcome`; NaN marks an outcome that is undefined for a match
(e.g. the winner's score of a match without a winner).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from sim.core.game import GameLength

from .metrics import per_match_metrics

__all__ = ["match_outcomes", "slot_scores", "describe_outcome", "binary_outcomes", "continuous_outcomes", "CONTINUOUS"]

KEYS = ["variant", "lineup", "match"]

#: Continuous per-match outcomes: column → (label, unit).
CONTINUOUS = {
    "rounds": ("game length", "rounds"),
    "winner_score": ("winner's final score", "points"),
    "margin": ("winning margin (1st − 2nd score)", "points"),
    "mean_score": ("mean final score", "points"),
    "lead_changes": ("number of lead changes", "per match"),
    "drama": ("drama (winner's deficit)", "fraction of top score"),
    "decisiveness": ("decisiveness (result safe after)", "fraction of the match"),
}


def match_outcomes(
    tables: Mapping[str, pd.DataFrame], length: GameLength | None = None, metrics: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Per-match outcomes of a results directory's tables.

    Args:
        tables: ``matches``, ``players`` and (optionally) ``rounds``, as from
            :func:`sim.core.store.load_tables`.
        length: the game's declared length (``GameSpec.length``); when it is a column of its
            own (Gastérospeed's turns per race), that column is a continuous outcome too, with
            the label and unit the game gives it (``outcomes.attrs["described"]``).
        metrics: :func:`analysis.metrics.per_match_metrics` already computed (slice by slice, for
            a run too large to load its rounds); None computes them from ``tables["rounds"]``.

    Returns:
        one row per match: ``variant``, ``lineup``, ``match``, ``seed``, ``rotation``,
        ``rounds``, ``finished``; binary ``capped`` (hit the round cap), ``decided`` (someone
        won), ``seat<s>_won`` for each seat s, ``team<t>_won`` for each team (team games),
        ``profile_won:<name>`` (a seat with that profile won) in mixed line-ups; continuous ``winner_score``, ``margin``,
        ``mean_score`` and the design metrics ``lead_changes``, ``lead_change_rate``,
        ``drama``, ``winner_trailing``, ``decisiveness``.
    """
    matches, players = tables["matches"], tables["players"]
    if matches.empty:
        return pd.DataFrame(columns=KEYS)
    cols = [c for c in [*KEYS, "seed", "rotation", "rounds", "finished"] if c in matches.columns]
    out = matches[cols].copy()
    if "seed" not in out:
        out["seed"] = out["match"]
    if "rotation" not in out:
        out["rotation"] = 0
    out["finished"] = out["finished"].astype(bool)
    out["capped"] = (~out["finished"]).astype(float)
    won = players.pivot_table(index=KEYS, columns="seat", values="won", aggfunc="max")
    won = won.astype(float)
    won.columns = [f"seat{int(s)}_won" for s in won.columns]
    decided = players.groupby(KEYS)["won"].any().astype(float).rename("decided")
    by_profile = _profile_wins(players)
    scores = _score_outcomes(players)
    if metrics is None:
        metrics = per_match_metrics(tables.get("rounds", pd.DataFrame()), players)
    frames = [won, decided, scores, by_profile, _team_wins(players)]
    if not metrics.empty:
        frames.append(metrics.set_index(KEYS))
    joined = pd.concat(frames, axis=1)
    out = out.merge(joined, left_on=KEYS, right_index=True, how="left")
    described = {}
    if length is not None and length.column != "rounds" and length.column in matches.columns:
        out[length.column] = matches[length.column].astype(float).to_numpy()
        described[length.column] = (length.label, length.unit)
    out = out.sort_values(KEYS, kind="stable").reset_index(drop=True)
    out.attrs["described"] = described
    return out


def slot_scores(tables: Mapping[str, pd.DataFrame], slot: int, draw: float | None = None) -> pd.DataFrame:
    """The player of line-up ``slot`` in every match: ``variant``, ``lineup``, ``match``, ``seat``,
    ``seed`` and ``won``, its score as a float: 1 a win, 0 otherwise, or ``draw`` (e.g. the fair
    share 1/seats) in a match without a winner when ``draw`` is given."""
    players = tables["players"]
    rows = players.loc[players["slot"] == slot, [*KEYS, "seat", "seed", "won"]]
    won = rows["won"].astype(float)
    if draw is not None:
        winner = rows[KEYS].merge(tables["matches"][[*KEYS, "winner"]], on=KEYS, how="left")["winner"]
        won = np.where(winner.to_numpy() < 0, draw, won)
    return rows.assign(won=won).reset_index(drop=True)


def _profile_wins(players: pd.DataFrame) -> pd.DataFrame:
    """``profile_won:<name>`` per match, only for line-ups with >= 2 distinct profiles."""
    distinct = players.groupby(["variant", "lineup"])["profile"].transform("nunique")
    mixed = players[distinct >= 2]
    if mixed.empty:
        return pd.DataFrame(index=pd.MultiIndex.from_tuples([], names=KEYS))
    table = mixed.pivot_table(index=KEYS, columns="profile", values="won", aggfunc="max").astype(float)
    table.columns = [f"profile_won:{name}" for name in table.columns]
    return table


def _team_wins(players: pd.DataFrame) -> pd.DataFrame:
    """``team<t>_won`` per match when the game has teams (empty otherwise)."""
    if "team" not in players.columns or not (players["team"] >= 0).any():
        return pd.DataFrame(index=pd.MultiIndex.from_tuples([], names=KEYS))
    teams = players[players["team"] >= 0].groupby([*KEYS, "team"])["won"].any().unstack("team").astype(float)
    teams.columns = [f"team{int(t)}_won" for t in teams.columns]
    return teams


def _score_outcomes(players: pd.DataFrame) -> pd.DataFrame:
    """Winner's score, margin between the two best scores, and mean score, per match."""
    ordered = players.sort_values([*KEYS, "score"], ascending=[True, True, True, False], kind="stable")
    grouped = ordered.groupby(KEYS, sort=False)["score"]
    top = grouped.nth(0)
    second = grouped.nth(1)
    index = ordered.groupby(KEYS, sort=False).size().index
    top = pd.Series(top.to_numpy(float), index=index)
    second = (
        pd.Series(second.to_numpy(float), index=index) if len(second) == len(index) else pd.Series(np.nan, index=index)
    )
    winner = players[players["won"].astype(bool)].groupby(KEYS)["score"].max()
    out = pd.DataFrame(
        {
            "winner_score": winner.reindex(index),
            "margin": top - second,
            "mean_score": players.groupby(KEYS)["score"].mean().reindex(index),
        }
    )
    out.loc[out["winner_score"].isna(), "margin"] = np.nan  # margin of a match nobody won: undefined
    return out


def binary_outcomes(outcomes: pd.DataFrame) -> list[str]:
    """The binary outcome columns of a :func:`match_outcomes` frame, in display order."""
    seats = sorted(
        (c for c in outcomes.columns if c.startswith("seat") and c.endswith("_won")), key=lambda c: int(c[4:-4])
    )
    teams = sorted(
        (c for c in outcomes.columns if c.startswith("team") and c.endswith("_won")), key=lambda c: int(c[4:-4])
    )
    profiles = sorted(c for c in outcomes.columns if c.startswith("profile_won:"))
    return seats + teams + profiles + [c for c in ("decided", "capped") if c in outcomes.columns]


def continuous_outcomes(outcomes: pd.DataFrame) -> list[str]:
    """The continuous outcome columns of a :func:`match_outcomes` frame with data (the game's
    declared length after the game length in rounds)."""
    columns = [*CONTINUOUS]
    columns[1:1] = list(outcomes.attrs.get("described", {}))
    return [c for c in columns if c in outcomes.columns and outcomes[c].notna().any()]


def describe_outcome(column: str, described: Mapping[str, tuple[str, str]] | None = None) -> tuple[str, str, bool]:
    """(label, unit, is_binary) of an outcome column, for tables and sentences; ``described``:
    the game's own continuous outcomes (``outcomes.attrs["described"]``)."""
    if described and column in described:
        return (*described[column], False)
    if column.startswith("seat") and column.endswith("_won"):
        seat = int(column[4:-4])
        label = f"seat {seat}'s win rate" + (" (first to play)" if seat == 0 else "")
        return label, "percentage points", True
    if column.startswith("team") and column.endswith("_won"):
        return f"team {int(column[4:-4])}'s win rate", "percentage points", True
    if column.startswith("profile_won:"):
        return f"{column.split(':', 1)[1]}'s win rate", "percentage points", True
    if column == "decided":
        return "share of matches with a winner", "percentage points", True
    if column == "capped":
        return "share of matches stopped by the round cap", "percentage points", True
    label, unit = CONTINUOUS.get(column, (column, ""))
    return label, unit, False
