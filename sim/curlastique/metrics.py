"""Curlastique's own metrics of a run (the ``summary`` of its GameSpec); keys ``family.member``."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

__all__ = ["summary", "seat_points", "points_per_throw"]

_KEYS = ["variant", "lineup", "match"]


def seat_points(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per match × seat: the ``players`` keys, ``profile``, ``throws`` and ``points``
    (the seat's round points summed over the match, decisive rounds included)."""
    rounds, players = tables["rounds"], tables["players"]
    keys = [k for k in _KEYS if k in rounds.columns and k in players.columns] + ["seat"]
    points = rounds.groupby(keys)["points"].sum().rename("points").reset_index()
    merged = players[keys + ["profile", "throws"]].merge(points, on=keys, how="left")
    merged["points"] = merged["points"].fillna(0)
    return merged


def points_per_throw(tables: Mapping[str, pd.DataFrame]) -> pd.Series:
    """Round points per puck thrown, by profile."""
    per = seat_points(tables).groupby("profile")[["points", "throws"]].sum()
    return per["points"] / per["throws"]


def summary(tables: Mapping[str, pd.DataFrame]) -> dict[str, float]:
    """Game metrics from the tidy tables (JSON-ready floats).

    Keys:
        out_rate_per_throw: share of thrown pucks that ended out of play.
        knocked_out_per_throw: pucks at rest put out of play per throw (any owner).
        zone_per_throw: mean zone value where the thrown puck stopped (0 if out).
        mean_rounds, mean_decisive_rounds: per game (decisive rounds included in the first).
        decisive_game_rate: share of games that needed a decisive round.
        unfinished_rate: share of games stopped by ``game.max_rounds`` (decisive rounds
            count towards the cap; a capped game has no winner).
        capped_games: number of those games.
        points_per_throw.PROFILE: round points scored per puck thrown, by profile (all rounds).
        win_rate.PROFILE: share of seats of that profile that won.
        shot_share.FAMILY: share of throws of each shot family.
    """
    matches, players = tables["matches"], tables["players"]
    events, rounds = tables.get("events"), tables.get("rounds")
    out: dict[str, float] = {}
    if events is not None and len(events):
        out["out_rate_per_throw"] = float(events["out"].mean())
        out["knocked_out_per_throw"] = float(events["knocked_out"].mean())
        out["zone_per_throw"] = float(events["zone"].mean())
    if len(matches):
        out["mean_rounds"] = float(matches["rounds"].mean())
        out["mean_decisive_rounds"] = float(matches["decisive_rounds"].mean())
        out["decisive_game_rate"] = float((matches["decisive_rounds"] > 0).mean())
        capped = ~matches["finished"].astype(bool)
        out["unfinished_rate"] = float(capped.mean())
        out["capped_games"] = float(capped.sum())
    if rounds is not None and len(rounds) and len(players):
        for profile, value in points_per_throw(tables).dropna().items():
            out[f"points_per_throw.{profile}"] = float(value)
    if len(players):
        for profile, rate in players.groupby("profile")["won"].mean().items():
            out[f"win_rate.{profile}"] = float(rate)
    if events is not None and len(events) and "family" in events.columns:
        for family, share in events["family"].value_counts(normalize=True).sort_index().items():
            if family:
                out[f"shot_share.{family}"] = float(share)
    return out
