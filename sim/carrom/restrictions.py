"""Carrom's restrictable choices (``forbid``, :mod:`sim.core.restrict`): the planner's shot kinds.

A pot's kind is its striker route and coin route (:func:`~sim.carrom.players.aim.kind_name`:
``cut``, ``rebound_left``, ``bank_far``, ``rebound_near+bank_left`` ...), its target one of the
shooter's coins or the queen; the planner also pushes coins (``push``). The choices are
families of those kinds; a stroke may belong to several (a rebound banked at the queen is a
rebound, a bank and a queen attempt) and is forbidden when any of them is:

* ``shot.cut``: the striker straight at the coin, the coin straight to the pocket;
* ``shot.rebound``: the striker off one cushion first (any coin route);
* ``shot.bank``: the coin off a cushion beside the pocket (any striker route);
* ``shot.queen``: a pot aimed at the queen (any route);
* ``shot.push``: a straight push of a coin (the planner's safety and fallback strokes).

The break is no choice (every stroke of a break is one, as is the planner's last resort, a
firm stroke through the middle when nothing may be potted or pushed); the random player makes
none of these choices.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from sim.core.restrict import USED_COLUMNS, Choice, Restrictions

__all__ = ["CHOICES", "RESTRICTIONS", "choices", "stroke_choices", "pot_routes", "used"]

#: The choices, in the order reports list them.
CHOICES = (
    Choice("shot.cut", "shot", "direct cuts"),
    Choice("shot.rebound", "shot", "striker rebounds"),
    Choice("shot.bank", "shot", "coin banks"),
    Choice("shot.queen", "shot", "queen attempts"),
    Choice("shot.push", "shot", "pushes"),
)

#: Stroke kinds that are no pot (:class:`~sim.carrom.rules.view.Stroke`'s ``kind``).
_NOT_POTS = frozenset({"push", "break", "random", "none", ""})


def choices(rules=None) -> tuple[Choice, ...]:
    """The choices (the same under every rules set)."""
    return CHOICES


def stroke_choices(kind: str, target: int) -> tuple[str, ...]:
    """The choices a stroke of ``kind`` at coin ``target`` (0: the queen) makes, in
    :data:`CHOICES` order."""
    if kind == "push":
        return ("shot.push",)
    if kind in _NOT_POTS:
        return ()
    made = ["shot.cut"] if kind == "cut" else []
    if "rebound_" in kind:
        made.append("shot.rebound")
    if "bank_" in kind:
        made.append("shot.bank")
    if target == 0:
        made.append("shot.queen")
    return tuple(made)


def pot_routes(forbid: Iterable[str] = (), rebounds: bool = True) -> np.ndarray:
    """(5, 5) bool: ``[striker route, coin route]`` pairs the planner may try (routes: 0
    direct / straight, 1..4 off the left, right, far, near cushion), without striker rebounds
    unless ``rebounds`` and less the families ``forbid`` lists."""
    forbid = set(forbid)
    routes = np.ones((5, 5), dtype=np.bool_)
    if not rebounds or "shot.rebound" in forbid:
        routes[1:, :] = False
    if "shot.bank" in forbid:
        routes[:, 1:] = False
    if "shot.cut" in forbid:
        routes[0, 0] = False
    return routes


def used(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Strokes of each choice (:func:`stroke_choices` of the events' ``kind`` and ``target``)
    per variant, line-up, match, seat and choice (:data:`~sim.core.restrict.USED_COLUMNS`); one
    row for every seat of ``players`` and every choice, ``uses`` 0 included."""
    key = ["variant", "lineup", "match", "seat"]
    names = [c.name for c in CHOICES]
    seats = tables["players"][key].drop_duplicates()
    grid = seats.loc[seats.index.repeat(len(names))].reset_index(drop=True)
    grid["choice"] = np.tile(np.array(names, dtype=object), len(seats))
    events = tables["events"]
    if len(events):
        made = [(*row[:4], name) for row in events[[*key, "kind", "target"]].itertuples(index=False, name=None)
                for name in stroke_choices(row[4], int(row[5]))]
        counts = pd.DataFrame(made, columns=[*key, "choice"]).value_counts().rename("uses").reset_index()
        grid = grid.merge(counts, on=[*key, "choice"], how="left")
    else:
        grid["uses"] = 0
    grid["uses"] = grid["uses"].fillna(0).astype(np.int64)
    return grid[list(USED_COLUMNS)]


RESTRICTIONS = Restrictions(choices=choices, used=used)
