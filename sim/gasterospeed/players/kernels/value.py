"""The tactician's value of a board, in squares (compiled), and the greedy player's distance.

A board's value for a seat is minus its snails' *effective distances* (steps to go plus the
risk of a KO with few shells; finished snails below zero by arrival order; KO snails far away;
in the shell championship the shells lost are what counts), plus the tailwind it can expect
from opponents' jostles, plus the opponents' effective distances weighted by how near they
stood when the decision began (:func:`anchor`). Every number is a profile key
(:class:`~sim.gasterospeed.players.profile.GasterospeedProfile`), copied into the context array ``x``.

The context array (float64) of one decision: the entries below, then ``n`` opponent weights
from ``x[X_WEIGHTS]``, the expected push ahead by each seat's jostles 1, 2 or 3 squares
straight behind (4 per seat) from ``x[X_PUSH]``, and for each seat the chances it holds a
counter that cancels / sends back a shot, then a domino (4 per seat) from ``x[X_COUNTER]``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ...rules.kernels.layout import (
    FINISHED,
    FRONT,
    MAX_SHELLS,
    N_SNAILS,
    OWNER,
    POS,
    RUNNING,
    SHELLS,
    STATUS,
    arrival_index,
    dist,
    geo,
    get,
    kind,
    nb,
    occupant,
    steps_to_finish,
)

(
    X_MODE,
    X_SEAT,
    X_SNAIL,
    X_N_SEATS,
    X_CAP,
    X_THREAT,
    X_DISC,
    X_SHELL_MODE,
    X_TAIL,
    X_SHELL1,
    X_SHELL2,
    X_FINISHED,
    X_ARRIVAL_STEP,
    X_KO_DISTANCE,
    X_SM_LOSS,
    X_SM_KO,
    X_SM_PROGRESS,
    X_LAMBDA,
    X_NEAR,
    X_FAR_SHARE,
    X_CAP_AHEAD,
    X_THREAT_DISTANCE,
    X_PLAN_ENDS,
    X_UNPLANNED,
    X_BLOCKING,
    X_FINISH_RACE,
    X_SACRIFICE_GAIN,
    X_URGENCY,
    X_WEIGHTS,
    X_PUSH,
    X_COUNTER,
    X_MEAN_WORTH,
    X_LAST_SPEED,
    X_HAND_SNAILS,
    X_NO_MOVE,
    X_SLOW_BIAS,
) = range(36)
#: X_DISC (the hand discount now), X_MEAN_WORTH, X_LAST_SPEED and X_HAND_SNAILS give a hand's churn
#: (:func:`~.lookahead.churn`); X_NO_MOVE is ``plan_no_move``, X_SLOW_BIAS ``plan_slow_bias``
CONTEXT_HEAD = 36
#: X_MODE: the tactician's value, or minus the greedy player's distance of snail X_SNAIL
TACTICIAN, GREEDY = 0, 1
#: counters of a seat, from x[X_COUNTER] + 4 * seat
SHOT_CANCEL, SHOT_REFLECT, DOMINO_CANCEL, DOMINO_REFLECT = range(4)


def context_size(n_snails: int, n_seats: int) -> int:
    return CONTEXT_HEAD + n_snails + 8 * n_seats


@njit(cache=True, _nrt=False, inline="always")
def effective(st, w, x, s):
    """Effective distance of snail ``s`` to the finish, in squares."""
    status = get(st, STATUS, s)
    if x[X_SHELL_MODE] != 0.0:
        if status == RUNNING or status == FINISHED:
            lost = get(st, MAX_SHELLS, s) - get(st, SHELLS, s) + 0.0
        else:
            lost = get(st, MAX_SHELLS, s) + x[X_SM_KO]
        progress = x[X_SM_PROGRESS] * dist(w, get(st, POS, s)) if status == RUNNING else 0.0
        return x[X_SM_LOSS] * lost + progress
    if status == RUNNING:
        shells = get(st, SHELLS, s)
        risk = x[X_SHELL1] if shells == 1 else (x[X_SHELL2] if shells == 2 else 0.0)
        return dist(w, get(st, POS, s)) + risk
    if status == FINISHED:
        return -x[X_FINISHED] - x[X_ARRIVAL_STEP] * (st[N_SNAILS] - arrival_index(st, s))
    return x[X_KO_DISTANCE]


@njit(cache=True, _nrt=False, inline="always")
def tailwind(st, w, x, s, seat):
    """Squares ``s`` can expect to be pushed ahead by a snail of another seat straight behind
    it (1 to 3 squares, nothing between) playing a jostling move forward."""
    p = get(st, POS, s)
    back = (geo(w, p, FRONT) + 4) % 8
    cur = p
    for k in range(1, 4):
        cur = nb(w, cur, back)
        if cur < 0 or kind(w, cur) > 2:
            return 0.0
        o = occupant(st, cur)
        if o >= 0:
            if get(st, OWNER, o) == seat or get(st, STATUS, o) != RUNNING:
                return 0.0
            return x[int(x[X_PUSH]) + 4 * get(st, OWNER, o) + k]
    return 0.0


@njit(cache=True, _nrt=False)
def value(st, w, x):
    """The deciding seat's standing in squares (see the module docstring)."""
    seat = int(x[X_SEAT])
    cap = x[X_CAP]
    tail = x[X_TAIL]
    weights = int(x[X_WEIGHTS])
    total = 0.0
    for s in range(st[N_SNAILS]):
        e = effective(st, w, x, s)
        if get(st, OWNER, s) == seat:
            total -= e
            if tail != 0.0 and get(st, STATUS, s) == RUNNING:
                total += tail * tailwind(st, w, x, s, seat)
        else:
            total += x[weights + s] * (e if e < cap else cap)
    return total


@njit(cache=True, _nrt=False)
def greedy_distance(st, w, s):
    """The greedy player's distance of ``s``: steps to go, -1 once finished, 1e6 if KO or out."""
    status = get(st, STATUS, s)
    if status == RUNNING:
        return dist(w, get(st, POS, s)) + 0.0
    return -1.0 if status == FINISHED else 1e6


@njit(cache=True, _nrt=False)
def evaluate(st, w, x):
    """What the deciding player maximises: the tactician's value, or minus the greedy distance."""
    if x[X_MODE] == GREEDY:
        return -greedy_distance(st, w, int(x[X_SNAIL]))
    return value(st, w, x)


@njit(cache=True, _nrt=False)
def anchor(st, w, x):
    """Fix the opponents' weights, the cap of their distances and the threat (opponents near
    the line) from the board at the start of a decision, so its options share one scale.
    Returns the steps to go of the seat's snail nearest the finish (0 once one finished,
    1e6 if all are KO or out; 0 without a snail)."""
    seat = int(x[X_SEAT])
    n = st[N_SNAILS]
    ref = 0.0
    mine = False
    here = 0
    for s in range(n):
        if get(st, OWNER, s) == seat:
            e = effective(st, w, x, s)
            if not mine or e < ref:
                ref = e
            steps = steps_to_finish(st, w, s)
            if not mine or steps < here:
                here = steps
            mine = True
    lam = x[X_LAMBDA]
    x[X_CAP] = ref + x[X_CAP_AHEAD]
    weights = int(x[X_WEIGHTS])
    threat = 0
    for s in range(n):
        if get(st, OWNER, s) == seat:
            x[weights + s] = 0.0
            continue
        x[weights + s] = lam if effective(st, w, x, s) < ref + x[X_NEAR] else x[X_FAR_SHARE] * lam
        p = get(st, POS, s)
        if p >= 0 and get(st, STATUS, s) == RUNNING and dist(w, p) <= x[X_THREAT_DISTANCE]:
            threat += 1
    x[X_THREAT] = threat
    return here


@njit(cache=True, _nrt=False)
def begin(st, w, x, seat, shell_mode, sacrifice_gain, hand_discount, hand_horizon, snails, mean_worth):
    """Start a decision of seat ``seat`` on board ``st``: its entries of the context ``x``
    (the shell championship flag, the sacrifice gain, the seat's snails and a fresh card's
    worth), the :func:`anchor` and the hand discount now, ``hand_discount`` times the share of
    ``hand_horizon`` (squares) its best snail still has to go (at most 1), which it returns."""
    x[X_SEAT] = seat
    x[X_SHELL_MODE] = shell_mode
    x[X_SACRIFICE_GAIN] = sacrifice_gain
    here = anchor(st, w, x)
    disc = hand_discount * min(1.0, here / hand_horizon)
    x[X_DISC] = disc
    x[X_HAND_SNAILS] = snails
    x[X_MEAN_WORTH] = mean_worth
    return disc


@njit(cache=True, _nrt=False)
def hold_chance(left, unseen, hand):
    """The chance that a hand of ``hand`` cards holds one of ``left`` cards among ``unseen``
    (drawn with replacement: ``1 - (1 - left / unseen) ** hand``; ``math.pow`` is the C
    library's pow, like Python's ``**`` on floats, so the chance is Python's to the last bit,
    which numba's own ``**`` with an int exponent is not)."""
    return 1.0 - math.pow(1.0 - min(1.0, left / unseen), float(hand))


@njit(cache=True, _nrt=False)
def counters_left(table, at, seen):
    """Copies not seen yet of the counter rows of ``table`` from ``at`` (how many rows, then
    per row: copies, how many deck entries hold it, those entries; ``seen``: cards seen per
    deck entry). Returns them and where the next rows start."""
    rows = table[at]
    at += 1
    left = 0
    for _ in range(rows):
        copies, n_types = table[at], table[at + 1]
        seen_copies = 0
        for i in range(n_types):
            seen_copies += seen[table[at + 2 + i]]
        left += max(0, copies - seen_copies)
        at += 2 + n_types
    return left, at


@njit(cache=True, _nrt=False)
def infer(x, seen, jostling, counters, unseen, hand_sizes, seat, pushes, chances):
    """Write what seat ``seat`` infers from the cards it has not seen into the context ``x``:
    with ``pushes``, per opponent the expected push ahead of a snail 1, 2 or 3 squares straight
    ahead of it (from ``x[X_PUSH]``: the chance it holds each jostling card times its push;
    ``jostling``: per jostling deck entry, its type, copies and push 1, 2, 3); with
    ``chances``, per seat the chances it holds a counter that cancels / sends back a shot, then
    a domino (from ``x[X_COUNTER]``; ``counters``: the counter rows, see :func:`counters_left`,
    against shots, cancelling then sending back, then against dominoes). ``seen``: cards seen
    per deck entry; ``unseen``: cards not seen; ``hand_sizes``: per seat."""
    if pushes:
        at = int(x[X_PUSH])
        for o in range(hand_sizes.size):
            for k in range(4):
                x[at + 4 * o + k] = 0.0
            h = hand_sizes[o]
            if o == seat or unseen <= 0 or h <= 0:
                continue
            for j in range(jostling.shape[0]):
                chance = hold_chance(max(0, int(jostling[j, 1]) - seen[int(jostling[j, 0])]), unseen, h)
                for k in range(1, 4):
                    x[at + 4 * o + k] += chance * jostling[j, 1 + k]
    if chances:
        at = int(x[X_COUNTER])
        shot_cancel, next_rows = counters_left(counters, np.int64(0), seen)
        shot_back, next_rows = counters_left(counters, next_rows, seen)
        domino_cancel, next_rows = counters_left(counters, next_rows, seen)
        domino_back, next_rows = counters_left(counters, next_rows, seen)
        for o in range(hand_sizes.size):
            h = hand_sizes[o]
            if unseen <= 0 or h <= 0:
                for k in range(4):
                    x[at + 4 * o + k] = 0.0
                continue
            x[at + 4 * o] = hold_chance(shot_cancel, unseen, h)
            x[at + 4 * o + 1] = hold_chance(shot_back, unseen, h)
            x[at + 4 * o + 2] = hold_chance(domino_cancel, unseen, h)
            x[at + 4 * o + 3] = hold_chance(domino_back, unseen, h)
