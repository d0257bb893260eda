"""Curlastique's own metrics of a run (the ``summary`` of its GameSpec); keys ``family.member``."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from sim.core.tally import Tally

__all__ = ["summary", "tally", "summary_from_tally", "TALLY_COLUMNS", "seat_points", "points_per_throw"]

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


#: The columns :func:`tally` reads beside the keys (a large run is read a few columns at a time).
TALLY_COLUMNS = {
    "matches": ("rounds", "decisive_rounds", "finished"),
    "players": ("profile", "throws", "won"),
    "rounds": ("points",),
    "events": ("out", "knocked_out", "zone", "family"),
}


def summary(tables: Mapping[str, pd.DataFrame]) -> dict[str, float]:
    """Game metrics from the tidy tables (JSON-ready floats): :func:`summary_from_tally` of
    :func:`tally`.

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
    return summary_from_tally(tally(tables))


def tally(tables: Mapping[str, pd.DataFrame]) -> Tally:
    """The counts and sums :func:`summary_from_tally` needs, from whole matches (any slice of a run)."""
    matches, players = tables["matches"], tables["players"]
    events, rounds = tables.get("events"), tables.get("rounds")
    out: Tally = {}
    if events is not None and len(events):
        out.update(
            {
                "throws": float(len(events)),
                "out": float(events["out"].sum()),
                "knocked_out": float(events["knocked_out"].sum()),
                "zone": float(events["zone"].sum()),
            }
        )
        if "family" in events.columns:
            out.update({("family", str(f)): float(n) for f, n in events["family"].value_counts().items()})
    if len(matches):
        capped = ~matches["finished"].astype(bool)
        out.update(
            {
                "matches": float(len(matches)),
                "rounds": float(matches["rounds"].sum()),
                "decisive_rounds": float(matches["decisive_rounds"].sum()),
                "decisive_games": float((matches["decisive_rounds"] > 0).sum()),
                "capped": float(capped.sum()),
            }
        )
    if rounds is not None and len(rounds) and len(players):
        per = seat_points(tables).groupby("profile")[["points", "throws"]].sum()
        for profile, row in per.iterrows():
            out[("profile_points", profile)] = float(row["points"])
            out[("profile_throws", profile)] = float(row["throws"])
    if len(players):
        for profile, won in players.groupby("profile")["won"]:
            out[("seats", profile)] = float(len(won))
            out[("wins", profile)] = float(won.sum())
    return out


def _groups(counts: Mapping, name: str) -> list:
    return sorted(key[1] for key in counts if isinstance(key, tuple) and key[0] == name)


def summary_from_tally(counts: Mapping) -> dict[str, float]:
    """The metrics of :func:`summary` from a (merged) :func:`tally`."""
    out: dict[str, float] = {}
    if counts.get("throws"):
        throws = counts["throws"]
        out["out_rate_per_throw"] = counts["out"] / throws
        out["knocked_out_per_throw"] = counts["knocked_out"] / throws
        out["zone_per_throw"] = counts["zone"] / throws
    if counts.get("matches"):
        n = counts["matches"]
        out["mean_rounds"] = counts["rounds"] / n
        out["mean_decisive_rounds"] = counts["decisive_rounds"] / n
        out["decisive_game_rate"] = counts["decisive_games"] / n
        out["unfinished_rate"] = counts["capped"] / n
        out["capped_games"] = float(counts["capped"])
    for profile in _groups(counts, "profile_throws"):
        thrown = counts[("profile_throws", profile)]
        if thrown:
            out[f"points_per_throw.{profile}"] = counts[("profile_points", profile)] / thrown
    for profile in _groups(counts, "seats"):
        out[f"win_rate.{profile}"] = counts[("wins", profile)] / counts[("seats", profile)]
    families = _groups(counts, "family")
    played = sum(counts[("family", f)] for f in families)
    for family in families:
        if family:
            out[f"shot_share.{family}"] = counts[("family", family)] / played
    return out
