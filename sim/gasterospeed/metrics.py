"""Gastérospeed's own metrics of a run: a flat dict of floats with prefixed keys.

Keys (``<c>`` a circuit id, ``<k>`` a start slot 1.., ``<id>`` a deck entry id):
    races, race_turns, race_turns.<c>, championship_tie_rate
    race_turns_max, race_turns_max.<c>   the longest race (turns), to compare with race.turn_cap
    turn_capped_rate, turn_capped_rate.<c>     share of races stopped by race.turn_cap
    turn_capped_races, turn_capped_races.<c>   number of such races
    race_win_rate.slot<k>      share of races won (arrival 1) by the seats that started on slot k
    points.<c>                 mean race points per seat on circuit c
    ko_rate, ko_rate.<c>       share of snail-races ending KO
    card_play_rate.<id>        plays of action or reaction card <id> (action phase, or as a counter)
                               per seat-race (0.0 when it was only discarded)
    card_win_rate.<id>         share of the seat-races in which <id> was played that the seat won
    card_win_rate_spread       largest minus smallest card_win_rate over the cards played in at
                               least SPREAD_MIN_PLAYS seat-races (how unequal the cards are)
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd

__all__ = ["summary", "metric_parts", "metrics_from_parts"]

_RACE_KEY = ["variant", "lineup", "match", "round"]
#: A card enters card_win_rate_spread once played in this many seat-races (fewer: too noisy).
SPREAD_MIN_PLAYS = 30


def summary(tables: Mapping[str, pd.DataFrame]) -> dict[str, float]:
    """The game's metrics of a run's tables (see the module docstring for the keys)."""
    rounds = tables.get("rounds", pd.DataFrame())
    events = tables.get("events", pd.DataFrame())
    matches = tables.get("matches", pd.DataFrame())
    out: dict[str, float] = {}
    if rounds is None or rounds.empty:
        return out
    keys = [k for k in _RACE_KEY if k in rounds.columns]
    races = rounds.drop_duplicates(keys)
    out["races"] = float(len(races))
    out["race_turns"] = float(races["turns"].mean())
    out["race_turns_max"] = float(races["turns"].max())
    capped = races["capped"].astype(bool)
    out["turn_capped_rate"] = float(capped.mean())
    out["turn_capped_races"] = float(capped.sum())
    for circuit, group in races.groupby("circuit", sort=True):
        out[f"race_turns.{circuit}"] = float(group["turns"].mean())
        out[f"race_turns_max.{circuit}"] = float(group["turns"].max())
        out[f"turn_capped_rate.{circuit}"] = float(group["capped"].astype(bool).mean())
        out[f"turn_capped_races.{circuit}"] = float(group["capped"].astype(bool).sum())
    if matches is not None and not matches.empty and "tie" in matches.columns:
        out["championship_tie_rate"] = float(matches["tie"].astype(bool).mean())
    won = rounds["arrival"] == 1
    for slot, group in rounds.assign(won=won).groupby("start_slot", sort=True):
        if slot > 0:
            out[f"race_win_rate.slot{int(slot)}"] = float(group["won"].mean())
    for circuit, group in rounds.groupby("circuit", sort=True):
        out[f"points.{circuit}"] = float(group["points"].mean())
    # KO rate and card win rates: from the per-championship parts, the code the bootstrap uses
    pooled = metrics_from_parts(metric_parts(tables).sum().to_frame().T).iloc[0]
    out["ko_rate"] = float(pooled["ko_rate"])
    per_seat = _snails_per_seat(rounds)
    for circuit, group in rounds.groupby("circuit", sort=True):
        out[f"ko_rate.{circuit}"] = float(group["snails_ko"].sum() / (len(group) * per_seat))
    if events is not None and not events.empty:
        played = events[events["phase"].isin(["action", "reaction"])]
        for card in _action_cards(events):
            out[f"card_play_rate.{card}"] = float((played["card"] == card).sum() / len(rounds))
            rate = pooled.get(f"card_win_rate.{card}", np.nan)
            if not np.isnan(rate):  # the card was played at least once
                out[f"card_win_rate.{card}"] = float(rate)
        if not np.isnan(pooled.get("card_win_rate_spread", np.nan)):
            out["card_win_rate_spread"] = float(pooled["card_win_rate_spread"])
    return out


def _snails_per_seat(rounds: pd.DataFrame) -> int:
    """1, or 2 in the two-snail variant (seen from any seat-race with 2 KO snails)."""
    return 2 if (rounds["snails_ko"] > 1).any() else 1


def _action_cards(events: pd.DataFrame) -> list:
    """Action and reaction card ids (speed cards carry their number, > 4) seen in the log."""
    return sorted(events.loc[events["number"] <= 4, "card"].unique())


_MATCH_KEY = ["variant", "lineup", "match"]


def metric_parts(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Per-championship additive parts of ``ko_rate`` and the card win rates (see ``summary``).

    One row per row of ``tables["matches"]`` (same order): ``ko_snails``, ``snails``, and for
    every action or reaction card id ``plays.<id>`` (seat-races in which it was played) and
    ``wins.<id>`` (those the seat won).
    """
    matches = tables["matches"]
    rounds = tables.get("rounds", pd.DataFrame())
    events = tables.get("events", pd.DataFrame())
    index = pd.MultiIndex.from_frame(matches[_MATCH_KEY])
    parts = pd.DataFrame(index=index)
    if rounds is None or rounds.empty:
        return parts.reset_index(drop=True)
    per_seat = _snails_per_seat(rounds)
    by_match = rounds.groupby(_MATCH_KEY)
    parts["ko_snails"] = by_match["snails_ko"].sum().reindex(index, fill_value=0).to_numpy(float)
    parts["snails"] = (by_match.size() * per_seat).reindex(index, fill_value=0).to_numpy(float)
    if events is not None and not events.empty:
        cards = _action_cards(events)
        played = events[events["phase"].isin(["action", "reaction"])]
        ekeys = [k for k in _RACE_KEY if k in played.columns] + ["seat"]
        rkeys = [k for k in _RACE_KEY if k in rounds.columns] + ["seat"]
        who = played[ekeys + ["card"]].drop_duplicates().merge(rounds[rkeys + ["arrival"]], on=rkeys, how="left")
        who["won"] = (who["arrival"] == 1).astype(float)
        for card in cards:
            rows = who[who["card"] == card].groupby(_MATCH_KEY)
            parts[f"plays.{card}"] = rows.size().reindex(index, fill_value=0).to_numpy(float)
            parts[f"wins.{card}"] = rows["won"].sum().reindex(index, fill_value=0).to_numpy(float)
    return parts.reset_index(drop=True)


def metrics_from_parts(sums: pd.DataFrame) -> pd.DataFrame:
    """``ko_rate``, ``card_win_rate.<id>`` and ``card_win_rate_spread`` of each row of summed parts."""
    out = pd.DataFrame(index=sums.index)
    if "snails" in sums:
        out["ko_rate"] = sums["ko_snails"] / sums["snails"]
    cards = [c[len("plays."):] for c in sums.columns if c.startswith("plays.")]
    if cards:
        plays = sums[[f"plays.{c}" for c in cards]].to_numpy()
        wins = sums[[f"wins.{c}" for c in cards]].to_numpy()
        with np.errstate(invalid="ignore", divide="ignore"):
            rates = np.where(plays > 0, wins / plays, np.nan)
        for k, card in enumerate(cards):
            out[f"card_win_rate.{card}"] = rates[:, k]
        counted = np.where(plays >= SPREAD_MIN_PLAYS, rates, np.nan)
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # rows with no counted card: NaN
            out["card_win_rate_spread"] = np.nanmax(counted, axis=1) - np.nanmin(counted, axis=1)
    return out
