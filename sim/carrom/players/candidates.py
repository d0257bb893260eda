"""The planner's candidate strokes as one compiled table (numba, cached on disk).

A table has one column per candidate and six rows, as :class:`sim.carrom.players.planner.Candidates`
reads it: striker ``x`` (local m), ``angle`` (deg), ``speed`` (m/s), ``kind`` (pots:
5 × striker route + coin route; :data:`PUSH`, :data:`BREAK`), target coin and local pocket
(-1: none). :func:`pot_table` gives the best pots (:func:`~sim.carrom.players.aim.pot_candidates`) and
the coins a push may move, :func:`break_table` the break strokes.

A push's length is left to the caller: it needs the distance to the coin exactly as Python's
``math.hypot`` rounds it (numba's ``hypot`` is the C library's, which differs in the last bit).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .aim import P_STRIKER_Y, _clamp_to, pot_candidates, striker_grid

__all__ = ["PUSH", "BREAK", "pot_table", "break_table"]

#: Candidate kinds besides the pots (whose kind is ``5 × striker route + coin route``).
PUSH, BREAK = 25, 26

#: How the ranking worth of the own coins is changed (:func:`pot_table`'s ``worth_mode``).
WORTH_AS_IS, WORTH_LAST_COIN, WORTH_COVER = 0, 1, 2


@njit(cache=True)
def _targets(on, own, coin_value, queen_target, queen_value, worth_mode, worth_arg, worth_floor):
    """The coins to pot (own coins on the board, then the queen (id 0) if ``queen_target``)
    and their ranking worth: a coin's value, the queen's ``queen_value``; ``worth_mode``
    WORTH_LAST_COIN: every coin but the queen is worth ``worth_arg``, WORTH_COVER: all × ``worth_arg``;
    at least ``worth_floor``."""
    nt = 1 if queen_target else 0
    for i in range(on.shape[0]):
        if on[i] and own[i]:
            nt += 1
    targets = np.empty(nt, np.int64)
    worth = np.empty(nt)
    k = 0
    for i in range(on.shape[0]):
        if on[i] and own[i]:
            targets[k] = i
            k += 1
    if queen_target:
        targets[k] = 0
    for k in range(nt):
        w = queen_value if targets[k] == 0 else coin_value[targets[k]]
        if worth_mode == WORTH_LAST_COIN:
            w = w if targets[k] == 0 else worth_arg
        elif worth_mode == WORTH_COVER:
            w = w * worth_arg
        worth[k] = max(w, worth_floor)
    return targets, worth


@njit(cache=True)
def pot_table(
    local,
    on,
    own,
    coin_value,
    queen_target,
    queen_value,
    worth_mode,
    worth_arg,
    worth_floor,
    pockets,
    spans,
    aim_grid,
    routes,
    prm,
    budget,
    min_prior,
):
    """The ``budget`` best pots and the coins a push may move.

    Args:
        local: (19, 2) coin centres in the shooter's frame; on, own: (19,) bool; coin_value: (19,).
        queen_target .. worth_floor: the targets and their ranking worth (:func:`_targets`).
        pockets, spans, routes, prm, min_prior: as :func:`~sim.carrom.players.aim.pot_candidates`,
            its striker positions every ``aim_grid`` (m) of ``spans``.

    Returns:
        (table, ahead, n): a (6, budget) table whose first ``n`` columns are the pots, best
        first; the coins a push may move (:func:`_ahead`).
    """
    table = np.empty((6, budget))
    n = 0
    targets, worth = _targets(on, own, coin_value, queen_target, queen_value, worth_mode, worth_arg, worth_floor)
    if targets.shape[0] > 0:
        rows, order = pot_candidates(
            local, on, targets, pockets, striker_grid(spans, aim_grid), spans, routes, prm, worth, budget, min_prior
        )
        n = order.shape[0]
        for c in range(n):
            r = order[c]
            table[0, c] = rows[r, 4]
            table[1, c] = rows[r, 5]
            table[2, c] = rows[r, 6]
            table[3, c] = rows[r, 2] * 5 + rows[r, 3]
            table[4, c] = rows[r, 0]
            table[5, c] = rows[r, 1]
    return table, _ahead(local, on, own, spans, prm[P_STRIKER_Y]), n


@njit(cache=True)
def _ahead(local, on, own, spans, sy):
    """(k, 5) coins in front of the base line, own coins first then by increasing y (stable):
    coin id, striker x nearest the coin's x, angle to the coin (deg), dx, dy (local m)."""
    m = local.shape[0]
    idx = np.empty(m, np.int64)
    k = 0
    for i in range(m):
        if on[i] and local[i, 1] > sy:
            j = k  # insertion, after every equal key (stable)
            while j > 0 and _before(own[i], local[i, 1], own[idx[j - 1]], local[idx[j - 1], 1]):
                idx[j] = idx[j - 1]
                j -= 1
            idx[j] = i
            k += 1
    out = np.empty((k, 5))
    for c in range(k):
        i = idx[c]
        x = _clamp_to(local[i, 0], spans)
        dx = local[i, 0] - x
        dy = local[i, 1] - sy
        out[c, 0] = i
        out[c, 1] = x
        out[c, 2] = math.degrees(math.atan2(-dx, dy))
        out[c, 3] = dx
        out[c, 4] = dy
    return out


@njit(cache=True, inline="always")
def _before(own_a, y_a, own_b, y_b):
    """Key (not own, y) of a strictly below that of b."""
    if own_a != own_b:
        return own_a
    return y_a < y_b


@njit(cache=True)
def break_table(spans, offsets, aims, speeds, rc, sy, max_speed, limit):
    """(6, n) break strokes: from each offset's nearest free spot (local m), at each aim (coin
    radii right of the centre), at each speed (m/s, capped at ``max_speed``); at most ``limit``."""
    n = min(offsets.shape[0] * aims.shape[0] * speeds.shape[0], limit)
    table = np.empty((6, n))
    c = 0
    for x0 in offsets:
        x = _clamp_to(x0, spans)
        for aim in aims:
            for speed in speeds:
                if c >= n:
                    return table
                dx = aim * rc - x
                dy = 0.0 - sy
                table[0, c] = x
                table[1, c] = math.degrees(math.atan2(-dx, dy))
                table[2, c] = min(speed, max_speed)
                table[3, c] = BREAK
                table[4, c] = -1.0
                table[5, c] = -1.0
                c += 1
    return table
