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

from sim.core.tally import Tally

__all__ = ["summary", "tally", "summary_from_tally", "TALLY_COLUMNS", "metric_parts", "metrics_from_parts"]

_RACE_KEY = ["variant", "lineup", "match", "round"]
#: A card enters card_win_rate_spread once played in this many seat-races (fewer: too noisy).
SPREAD_MIN_PLAYS = 30


#: The columns :func:`tally` reads beside the keys: every column of ``rounds``.
TALLY_COLUMNS = {"matches": ("tie",), "players": (), "events": ("phase", "card", "number", "round", "seat")}


def summary(tables: Mapping[str, pd.DataFrame]) -> dict[str, float]:
    """The game's metrics of a run's tables (see the module docstring for the keys):
    :func:`summary_from_tally` of :func:`tally`."""
    return summary_from_tally(tally(tables))


def tally(tables: Mapping[str, pd.DataFrame]) -> Tally:
    """The counts and sums :func:`summary_from_tally` needs, from whole matches (any slice of a run)."""
    rounds = tables.get("rounds", pd.DataFrame())
    events = tables.get("events", pd.DataFrame())
    matches = tables.get("matches", pd.DataFrame())
    out: Tally = {}
    if rounds is None or rounds.empty:
        return out
    keys = [k for k in _RACE_KEY if k in rounds.columns]
    races = rounds.drop_duplicates(keys)
    capped = races["capped"].astype(bool)
    out.update(
        {
            "races": float(len(races)),
            "turns": float(races["turns"].sum()),
            "max.turns": float(races["turns"].max()),
            "capped": float(capped.sum()),
        }
    )
    for circuit, group in races.groupby("circuit", sort=True):
        out.update(
            {
                ("races", circuit): float(len(group)),
                ("turns", circuit): float(group["turns"].sum()),
                ("max.turns", circuit): float(group["turns"].max()),
                ("capped", circuit): float(group["capped"].astype(bool).sum()),
            }
        )
    if matches is not None and not matches.empty and "tie" in matches.columns:
        out["matches"] = float(len(matches))
        out["ties"] = float(matches["tie"].astype(bool).sum())
    won = rounds["arrival"] == 1
    for slot, group in rounds.assign(won=won).groupby("start_slot", sort=True):
        if slot > 0:
            out[("slot_races", int(slot))] = float(len(group))
            out[("slot_wins", int(slot))] = float(group["won"].sum())
    out["seat_races"] = float(len(rounds))
    out["snails_ko"] = float(rounds["snails_ko"].sum())
    out["max.snails_ko"] = float(rounds["snails_ko"].max())
    for circuit, group in rounds.groupby("circuit", sort=True):
        out[("seat_races", circuit)] = float(len(group))
        out[("points", circuit)] = float(group["points"].sum())
        out[("snails_ko", circuit)] = float(group["snails_ko"].sum())
    if events is not None and not events.empty:
        cards = _action_cards(events)
        played = events[events["phase"].isin(["action", "reaction"])]
        events_per_card = played["card"].value_counts()
        per_card = _card_plays(played, rounds).groupby("card")["won"].agg(plays="size", wins="sum")
        for card in cards:
            out[("card_events", card)] = float(events_per_card.get(card, 0))
            for name in ("plays", "wins"):
                out[f"{name}.{card}"] = float(per_card[name].get(card, 0))
    return out


def _card_plays(played: pd.DataFrame, rounds: pd.DataFrame) -> pd.DataFrame:
    """One row per seat-race and card played in it (``played``: the action and reaction events):
    the race's keys, ``seat``, ``card`` and ``won`` (1.0 when the seat won the race)."""
    ekeys = [k for k in _RACE_KEY if k in played.columns] + ["seat"]
    rkeys = [k for k in _RACE_KEY if k in rounds.columns] + ["seat"]
    who = played[ekeys + ["card"]].drop_duplicates().merge(rounds[rkeys + ["arrival"]], on=rkeys, how="left")
    who["won"] = (who["arrival"] == 1).astype(float)
    return who


def _groups(counts: Mapping, name: str) -> list:
    return sorted(key[1] for key in counts if isinstance(key, tuple) and key[0] == name)


def summary_from_tally(counts: Mapping) -> dict[str, float]:
    """The metrics of :func:`summary` from a (merged) :func:`tally`."""
    out: dict[str, float] = {}
    if not counts.get("races"):
        return out
    out["races"] = float(counts["races"])
    out["race_turns"] = counts["turns"] / counts["races"]
    out["race_turns_max"] = float(counts["max.turns"])
    out["turn_capped_rate"] = counts["capped"] / counts["races"]
    out["turn_capped_races"] = float(counts["capped"])
    for circuit in _groups(counts, "races"):
        races = counts[("races", circuit)]
        out[f"race_turns.{circuit}"] = counts[("turns", circuit)] / races
        out[f"race_turns_max.{circuit}"] = float(counts[("max.turns", circuit)])
        out[f"turn_capped_rate.{circuit}"] = counts[("capped", circuit)] / races
        out[f"turn_capped_races.{circuit}"] = float(counts[("capped", circuit)])
    if counts.get("matches"):
        out["championship_tie_rate"] = counts["ties"] / counts["matches"]
    for slot in _groups(counts, "slot_races"):
        out[f"race_win_rate.slot{slot}"] = counts[("slot_wins", slot)] / counts[("slot_races", slot)]
    for circuit in _groups(counts, "points"):
        out[f"points.{circuit}"] = counts[("points", circuit)] / counts[("seat_races", circuit)]
    per_seat = 2 if counts["max.snails_ko"] > 1 else 1  # as _snails_per_seat, over the whole run
    out["ko_rate"] = counts["snails_ko"] / (counts["seat_races"] * per_seat)
    for circuit in _groups(counts, "snails_ko"):
        out[f"ko_rate.{circuit}"] = counts[("snails_ko", circuit)] / (counts[("seat_races", circuit)] * per_seat)
    cards = _groups(counts, "card_events")
    if cards:
        sums = pd.DataFrame(
            [
                {
                    key: value
                    for key, value in counts.items()
                    if isinstance(key, str) and key.startswith(("plays.", "wins."))
                }
            ]
        )
        pooled = metrics_from_parts(sums).iloc[0] if len(sums.columns) else pd.Series(dtype=float)
        for card in cards:
            out[f"card_play_rate.{card}"] = counts[("card_events", card)] / counts["seat_races"]
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
        who = _card_plays(events[events["phase"].isin(["action", "reaction"])], rounds)
        per = who.groupby([*_MATCH_KEY, "card"])["won"].agg(plays="size", wins="sum").unstack("card", fill_value=0)
        for card in cards:
            for name in ("plays", "wins"):
                column = per[(name, card)] if (name, card) in per.columns else pd.Series(dtype=float)
                parts[f"{name}.{card}"] = column.reindex(index, fill_value=0).to_numpy(float)
    return parts.reset_index(drop=True)


def metrics_from_parts(sums: pd.DataFrame) -> pd.DataFrame:
    """``ko_rate``, ``card_win_rate.<id>`` and ``card_win_rate_spread`` of each row of summed parts."""
    out = pd.DataFrame(index=sums.index)
    if "snails" in sums:
        out["ko_rate"] = sums["ko_snails"] / sums["snails"]
    cards = [c[len("plays.") :] for c in sums.columns if c.startswith("plays.")]
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
