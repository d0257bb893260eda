"""Carrom's restrictable choices (``forbid``, :mod:`sim.core.restrict`): the planner's shot kinds
and break variants.

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

The break variants are families of the profile's break grid (``break_offsets_m`` ×
``break_aims`` × ``break_speeds``, :func:`break_choices`); every break is ``break.centre`` or
``break.cut``, and ``break.off_centre`` too when its striker is off the base line's centre:

* ``break.centre``: aimed at the queen's centre (aim 0): a full break into the pack;
* ``break.cut``: aimed off the queen's centre (aim not 0): an angled break;
* ``break.off_centre``: from a striker spot off the base line's centre (offset not 0).

A forbidden family's breaks are dropped from the grid before the planner takes its first
``candidates`` (:func:`allowed_breaks`; ``each_board`` and ``once_per_match`` alike). A
``rehearsed`` break of a forbidden family is not played: the break is then planned from the
allowed grid once per match, as ``break_plan = "once_per_match"``. The break must be played, so
a profile whose ``forbid`` leaves no break is refused (:func:`break_problem`, the profile's
``problems``). The events record no family: :func:`used` reads it back from the break's
intended stroke (:func:`break_aim_points`).

The planner's last resort, a firm stroke through the middle when nothing may be potted or
pushed (kind ``break`` too, but not the board's break), is no choice and never forbidden; the
random player makes none of these choices.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from sim.core.restrict import FORBID_KEY, USED_COLUMNS, Choice, Restrictions

__all__ = [
    "CHOICES",
    "BREAK_CHOICES",
    "RESTRICTIONS",
    "choices",
    "stroke_choices",
    "break_choices",
    "pot_routes",
    "allowed_breaks",
    "break_problem",
    "break_aim_points",
    "used",
]

#: The choices, in the order reports list them.
CHOICES = (
    Choice("shot.cut", "shot", "direct cuts"),
    Choice("shot.rebound", "shot", "striker rebounds"),
    Choice("shot.bank", "shot", "coin banks"),
    Choice("shot.queen", "shot", "queen attempts"),
    Choice("shot.push", "shot", "pushes"),
    Choice("break.centre", "break", "full breaks at the queen"),
    Choice("break.cut", "break", "angled breaks"),
    Choice("break.off_centre", "break", "breaks from off the base line's centre"),
)

#: The break variants' names.
BREAK_CHOICES = frozenset(c.name for c in CHOICES if c.kind == "break")

#: Stroke kinds that are no pot (:class:`~sim.carrom.rules.view.Stroke`'s ``kind``).
_NOT_POTS = frozenset({"push", "break", "random", "none", ""})

#: :func:`used` counts a break's aim point within this distance of the queen's centre (m) as
#: aimed at it (the profile's aim is exactly 0 there; the read-back is exact to ~1e-16 m).
AIM_TOLERANCE_M = 1e-9


def choices(rules=None) -> tuple[Choice, ...]:
    """The choices (the same under every rules set)."""
    return CHOICES


def break_choices(offset: float, aim: float) -> tuple[str, ...]:
    """The break variants a break from striker ``offset`` (0: the base line's centre) aimed at
    ``aim`` across the queen (0: its centre; any unit) makes, in :data:`CHOICES` order."""
    made = ("break.centre",) if aim == 0 else ("break.cut",)
    return (*made, "break.off_centre") if offset != 0 else made


def stroke_choices(kind: str, target: int, break_at: tuple[float, float] | None = None) -> tuple[str, ...]:
    """The choices a stroke of ``kind`` at coin ``target`` (0: the queen) makes, in
    :data:`CHOICES` order. ``break_at``: the (striker offset, aim) of the board's break
    (:func:`break_choices`); a stroke of kind ``break`` without it is the planner's last
    resort through the middle, no choice."""
    if kind == "push":
        return ("shot.push",)
    if kind == "break" and break_at is not None:
        return break_choices(*break_at)
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


def allowed_breaks(forbid: Iterable[str], offsets: Sequence[float], aims: Sequence[float]):
    """The break grid's ``(offsets, aims)`` less the variants ``forbid`` lists, each in its
    order (the families split the grid by offset and by aim, so the allowed grid is
    ``offsets × aims × speeds`` of these, in the grid's order)."""
    forbid = set(forbid)
    if "break.off_centre" in forbid:
        offsets = [o for o in offsets if o == 0]
    if "break.centre" in forbid:
        aims = [a for a in aims if a != 0]
    if "break.cut" in forbid:
        aims = [a for a in aims if a == 0]
    return offsets, aims


def break_problem(profile) -> str | None:
    """Why ``profile``'s ``forbid`` leaves it no break to play (None: it leaves one): every
    break of its grid is forbidden and it has no allowed rehearsed break (the random player
    makes no choice: None)."""
    forbid = set(getattr(profile, FORBID_KEY, ()) or ()) & BREAK_CHOICES
    if not forbid or profile.policy != "planner":
        return None
    if profile.break_plan == "rehearsed" and not forbid & set(
        break_choices(profile.rehearsed_break_offset_m, profile.rehearsed_break_aim)
    ):
        return None
    offsets, aims = allowed_breaks(forbid, profile.break_offsets_m, profile.break_aims)
    if offsets and aims:
        return None
    names = ", ".join(sorted(forbid, key=[c.name for c in CHOICES].index))
    rehearsed = " nor the rehearsed break" if profile.break_plan == "rehearsed" else ""
    grid = f"break_offsets_m {list(profile.break_offsets_m)} × break_aims {list(profile.break_aims)}"
    return (
        f"forbidding {names} leaves no break of the grid ({grid}){rehearsed}; the break must be played: "
        "allow one of its variants"
    )


def break_aim_points(events: pd.DataFrame) -> np.ndarray:
    """Each stroke's aim point across the queen (local m, 0: its centre) read back from its
    intended stroke: ``intended_x + y · tan(intended_angle_deg)``, the base line's local ``y``
    from the placed striker (``placed_x`` and its board position ``striker_x``, ``striker_y``:
    the board's centre is every seat's origin). Meaningful for breaks (the planner aims them at
    the line through the queen); NaN where the striker was not placed (never at a break: the
    base line is free; :func:`used` then counts no variant)."""
    placed = events["placed_x"].to_numpy(np.float64)
    bx, by = events["striker_x"].to_numpy(np.float64), events["striker_y"].to_numpy(np.float64)
    y = -np.sqrt(np.maximum(bx * bx + by * by - placed * placed, 0.0))
    angle = np.radians(events["intended_angle_deg"].to_numpy(np.float64))
    return events["intended_x"].to_numpy(np.float64) + y * np.tan(angle)


def used(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Strokes of each choice (:func:`stroke_choices` of the events' ``kind`` and ``target``;
    for the board's breaks, ``is_break``, the intended striker spot ``intended_x`` and the aim
    point :func:`break_aim_points`) per variant, line-up, match, seat and choice
    (:data:`~sim.core.restrict.USED_COLUMNS`); one row for every seat of ``players`` and every
    choice, ``uses`` 0 included."""
    key = ["variant", "lineup", "match", "seat"]
    names = [c.name for c in CHOICES]
    seats = tables["players"][key].drop_duplicates()
    grid = seats.loc[seats.index.repeat(len(names))].reset_index(drop=True)
    grid["choice"] = np.tile(np.array(names, dtype=object), len(seats))
    events = tables["events"]
    if len(events):
        breaks = (events["kind"] == "break").to_numpy() & events["is_break"].to_numpy(bool)
        at: list = [None] * len(events)
        if breaks.any():
            aims = break_aim_points(events[breaks])
            aims[np.abs(aims) <= AIM_TOLERANCE_M] = 0.0
            for i, x, aim in zip(
                np.flatnonzero(breaks).tolist(),
                events["intended_x"].to_numpy()[breaks].tolist(),
                aims.tolist(),
                strict=True,
            ):
                at[i] = (x, aim) if aim == aim else None  # NaN: no striker placed, nothing read back
        rows = events[[*key, "kind", "target"]].itertuples(index=False, name=None)
        made = [
            (*row[:4], name)
            for row, spot in zip(rows, at, strict=True)
            for name in stroke_choices(row[4], int(row[5]), spot)
        ]
        counts = pd.DataFrame(made, columns=[*key, "choice"]).value_counts().rename("uses").reset_index()
        grid = grid.merge(counts, on=[*key, "choice"], how="left")
    else:
        grid["uses"] = 0
    grid["uses"] = grid["uses"].fillna(0).astype(np.int64)
    return grid[list(USED_COLUMNS)]


RESTRICTIONS = Restrictions(choices=choices, used=used)
