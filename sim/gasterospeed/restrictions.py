"""Gastérospeed's restrictable choices (``forbid``, :mod:`sim.core.restrict`): the action and
reaction cards of the deck.

A choice is a deck entry of kind ``action`` or ``reaction`` with at least one copy under the
rules, named by its entry id (``tir``, ``choc``, ``renfort_de_coquille``); speed cards are no
choice. A player forbidding a card never places it as its action card and never counters with
it; how each player honours it: :attr:`~sim.gasterospeed.players.profile.GasterospeedProfile.forbid`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from sim.core.restrict import USED_COLUMNS, Choice, Restrictions

from .rules.cards import SPEED, Deck

__all__ = ["RESTRICTIONS", "choices", "used"]

#: events phases in which a card is played by choice: an action card, a counter
_PLAYED = ("action", "reaction")


def choices(rules) -> tuple[Choice, ...]:
    """The action and reaction cards of the deck under ``rules`` (entries with a copy), in
    deck order: name the entry id, label its display name."""
    return tuple(Choice(info.cid, "card", info.name) for info in Deck(rules.deck).types if info.kind != SPEED)


def used(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Cards played per variant, line-up, match, seat and card (the ``events`` rows of phase
    ``action`` or ``reaction``; :data:`~sim.core.restrict.USED_COLUMNS`, ``uses`` in cards
    played); cards never played have no row."""
    key = ["variant", "lineup", "match", "seat"]
    events = tables.get("events")
    if events is None or events.empty:
        return pd.DataFrame(
            {c: pd.Series(dtype=object if c in ("variant", "lineup", "choice") else np.int64) for c in USED_COLUMNS}
        )
    played = events.loc[events["phase"].isin(_PLAYED), [*key, "card"]].rename(columns={"card": "choice"})
    out = played.value_counts(sort=False).rename("uses").reset_index()
    out["uses"] = out["uses"].astype(np.int64)
    return out.sort_values([*key, "choice"], kind="stable").reset_index(drop=True)[list(USED_COLUMNS)]


def observed(tables: Mapping[str, pd.DataFrame]) -> dict[str, float]:
    """Each card's win rate: the share of the seat-races in which it was played that the seat won
    (``card_win_rate.<id>`` of the game's metrics, what the card-mix balance example evens out)."""
    from .metrics import metric_parts, metrics_from_parts

    pooled = metrics_from_parts(metric_parts(tables).sum().to_frame().T).iloc[0]
    prefix = "card_win_rate."
    return {
        name[len(prefix) :]: float(v)
        for name, v in pooled.items()
        if name.startswith(prefix) and name != "card_win_rate_spread" and v == v
    }


RESTRICTIONS = Restrictions(choices=choices, used=used, observed=observed)
