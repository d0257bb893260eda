"""Gastérospeed's own metrics of a run: a flat dict of floats with prefixed keys.

Keys (``<c>`` a circuit id, ``<k>`` a start slot 1.., ``<id>`` a deck entry id):
    races, race_turns, race_turns.<c>, turn_capped_rate, championship_tie_rate
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

from collections.abc import Mapping

import pandas as pd

__all__ = ["summary"]

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
    for circuit, group in races.groupby("circuit", sort=True):
        out[f"race_turns.{circuit}"] = float(group["turns"].mean())
    out["turn_capped_rate"] = float(races["capped"].astype(bool).mean())
    if matches is not None and not matches.empty and "tie" in matches.columns:
        out["championship_tie_rate"] = float(matches["tie"].astype(bool).mean())
    won = rounds["arrival"] == 1
    for slot, group in rounds.assign(won=won).groupby("start_slot", sort=True):
        if slot > 0:
            out[f"race_win_rate.slot{int(slot)}"] = float(group["won"].mean())
    for circuit, group in rounds.groupby("circuit", sort=True):
        out[f"points.{circuit}"] = float(group["points"].mean())
    # KO rate per snail-race: KO snails over snails (1 or 2 per seat)
    per_seat = 2 if (rounds["snails_ko"] > 1).any() else 1
    out["ko_rate"] = float(rounds["snails_ko"].sum() / (len(rounds) * per_seat))
    for circuit, group in rounds.groupby("circuit", sort=True):
        out[f"ko_rate.{circuit}"] = float(group["snails_ko"].sum() / (len(group) * per_seat))
    if events is not None and not events.empty:
        # action and reaction cards (speed cards carry their number, > 4): every id of the deck
        # seen in the log, played (action phase, or as a counter) or not
        cards = sorted(events.loc[events["number"] <= 4, "card"].unique())
        played = events[events["phase"].isin(["action", "reaction"])]
        seat_races = len(rounds)
        ekeys = [k for k in _RACE_KEY if k in played.columns] + ["seat"]
        rkeys = [k for k in _RACE_KEY if k in rounds.columns] + ["seat"]
        result = rounds[rkeys + ["arrival"]]
        rates: list[float] = []
        for card in cards:
            rows = played[played["card"] == card]
            out[f"card_play_rate.{card}"] = float(len(rows) / seat_races)
            if len(rows):
                who = rows[ekeys].drop_duplicates().merge(result, on=rkeys, how="left")
                out[f"card_win_rate.{card}"] = float((who["arrival"] == 1).mean())
                if len(who) >= SPREAD_MIN_PLAYS:
                    rates.append(out[f"card_win_rate.{card}"])
        if rates:
            out["card_win_rate_spread"] = float(max(rates) - min(rates))
    return out
