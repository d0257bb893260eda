"""The simulated players' look-ahead on copies of the compact state (compiled).

* :func:`move_outcomes`: the boards a move effect can lead to, with their chances (the
  direction the player would choose, or each face of the card's direction roll);
* :func:`play_value`: the expected change of value if a snail plays an action card now, over
  the branches of the card's chance (rolls, burns); a branch where the card becomes impossible
  goes back to the board as it was and stops, as in the engine (no later effect, no earlier
  shell change); shots and dominoes weigh the counters the targets may hold;
* :func:`action_plan`: the best score of the coming action phase with a given hand;
* :func:`plan_ends`: the score of each end of a speed move, after the slower snails' likeliest
  moves, with the action phase planned from the best few ends (:func:`churn`: what a card's
  leaving the hand is worth);
* :func:`speed_plans`: the plan of each speed card a snail may play;
* :func:`speed_card`, :func:`action_card`: the tactician's scores of its card options;
* :func:`plan`: the one entry point of these for the tactician;
* :func:`expected_distance`: the greedy player's expected distance after an action card.

Branches are rows of a state matrix with their probability, whether the card is still alive
there and whether the row is the board the evaluation started from (:data:`ORIGINAL`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ...rules.circuit import FINISH
from ...rules.kernels.layout import (
    BEHIND_ANY,
    C_TYPES,
    E_AMOUNT,
    E_BEHIND,
    E_DIRS,
    E_FACES,
    E_JOSTLE,
    E_N_DIRS,
    E_N_FACES,
    E_OP,
    E_PATH,
    E_RANGE,
    E_ROLL,
    E_SQUARES,
    FINISHED,
    FREE,
    FRONT,
    MAX_SHELLS,
    MOVE,
    N_SNAILS,
    OUT,
    OWNER,
    POS,
    RUNNING,
    SHELL,
    SHELLS,
    SHOOT,
    STATUS,
    STRAIGHT,
    T_EFF_COUNT,
    T_KIND,
    T_NUMBER,
    T_SQUARES,
    T_TAB_LEN,
    W_DIE,
    W_HITS,
    card,
    copy_state,
    dash,
    dist,
    effect,
    geo,
    get,
    kind,
    nb,
    occupant,
    put,
    step,
)
from ...rules.kernels.moves import (
    ALL_DIRECTIONS,
    behind_another,
    domino_side,
    enter,
    leap,
    shot_targets,
    speed_ends,
    straight,
)
from .value import (
    DOMINO_CANCEL,
    DOMINO_REFLECT,
    SHOT_CANCEL,
    SHOT_REFLECT,
    X_BLOCKING,
    X_COUNTER,
    X_DISC,
    X_FINISH_RACE,
    X_HAND_SNAILS,
    X_LAST_SPEED,
    X_MEAN_WORTH,
    X_NO_MOVE,
    X_PLAN_ENDS,
    X_SACRIFICE_GAIN,
    X_SEAT,
    X_SLOW_BIAS,
    X_THREAT,
    X_UNPLANNED,
    X_URGENCY,
    evaluate,
    greedy_distance,
    value,
)

#: every direction, as a run-time int64: numba compiles a callee once more for each literal
#: argument (constant ints and bools are passed as np.int64 / np.bool_ values below for that reason)
_ALL = np.int64(ALL_DIRECTIONS)
#: which live branches :func:`_card_lost_here` sends back (run-time bools, for the same reason)
_ONLY_UNMET_BEHIND, _EVERY_BRANCH = np.bool_(True), np.bool_(False)
#: a speed-move end that is a sacrifice (stay put, regain shells); see ``view.SACRIFICE``
SACRIFICE = -2
#: move outcomes: the board given (nothing changed), a new board, or impossible (card lost)
SAME, NEW, IMPOSSIBLE = 0, 1, 2
SPEED, ACTION = 0, 1
#: the kind a player's own cards array gives the entries it never plays (its profile's
#: ``forbid``; :func:`~sim.gasterospeed.players.evaluation.seat_cards`): kept or discarded, never
#: planned as an action (no other kind of the layout has this number)
FORBIDDEN = 3


@njit(cache=True, _nrt=False)
def abs_dir(st, w, s, dashboard):
    """Absolute direction (0..7) of dashboard square ``dashboard`` (1..8) of snail ``s``."""
    return (geo(w, get(st, POS, s), FRONT) + dashboard + 6) % 8


@njit(cache=True)
def _best_end(st, w, x, s, ends, out, trial):
    """Write to ``out`` the board after the best of ``ends`` by the player's value; False if
    there is no end."""
    best_v = -math.inf
    found = False
    for end in ends:
        copy_state(trial, st)
        enter(trial, w, s, end)
        v = evaluate(trial, w, x)
        if v > best_v:
            best_v, found = v, True
            copy_state(out, trial)
    return found


@njit(cache=True)
def _aimed(st, w, s, path, d, squares, jostle, out, unused):
    """Write to ``out`` the board after a straight move or a leap in direction ``d`` (no
    counter: ``unused`` is a 1-entry guard); whether the snail moved (``out`` is left as it was
    when a straight move cannot make its first step)."""
    if path == STRAIGHT:
        q = step(w, get(st, POS, s), d)
        if q < 0 or (kind(w, q) != FINISH and not jostle and occupant(st, q) >= 0):
            return False
        copy_state(out, st)
        return straight(out, w, s, d, squares, jostle, unused, unused) > 0
    copy_state(out, st)
    return leap(out, w, s, d, squares, jostle, unused, unused) > 0


@njit(cache=True)
def move_outcomes(st, w, cards, x, s, t, k, probs, boards, kinds, at, scratch, unused):
    """The outcomes of effect ``k`` (a move) of card type ``t`` from board ``st``, written to
    rows ``at``.. of ``probs`` (chances), ``boards`` and ``kinds`` (SAME, NEW or IMPOSSIBLE):
    the direction or end the player would choose, or each face of the card's direction roll.
    Returns the number of rows written."""
    if get(st, STATUS, s) != RUNNING:
        probs[at], kinds[at] = 1.0, SAME
        copy_state(boards[at], st)
        return 1
    behind = effect(cards, t, k, E_BEHIND)
    if behind and not behind_another(st, w, s, behind == BEHIND_ANY):
        probs[at], kinds[at] = 1.0, IMPOSSIBLE
        return 1
    squares, path = effect(cards, t, k, E_SQUARES), effect(cards, t, k, E_PATH)
    jostle = effect(cards, t, k, E_JOSTLE) != 0
    if effect(cards, t, k, E_ROLL):
        faces = card(cards, t, T_TAB_LEN)
        for i in range(faces):
            d = abs_dir(st, w, s, dash(cards, t, i))
            if path == FREE:
                found = _best_end(st, w, x, s, speed_ends(st, w, s, squares, 1 << d), boards[at + i], scratch)
            else:
                found = _aimed(st, w, s, path, d, squares, jostle, boards[at + i], unused)
            probs[at + i] = 1.0 / faces
            kinds[at + i] = NEW if found else IMPOSSIBLE
        return faces
    probs[at] = 1.0
    if path == FREE:
        mask = 0
        for i in range(effect(cards, t, k, E_N_DIRS)):
            mask |= 1 << abs_dir(st, w, s, effect(cards, t, k, E_DIRS + i))
        found = _best_end(st, w, x, s, speed_ends(st, w, s, squares, np.int64(mask)), boards[at], scratch)
        kinds[at] = NEW if found else IMPOSSIBLE
        return 1
    best_v = -math.inf
    kinds[at] = IMPOSSIBLE
    for i in range(effect(cards, t, k, E_N_DIRS)):
        d = abs_dir(st, w, s, effect(cards, t, k, E_DIRS + i))
        if _aimed(st, w, s, path, d, squares, jostle, scratch, unused):
            v = evaluate(scratch, w, x)
            if v > best_v:
                best_v = v
                kinds[at] = NEW
                copy_state(boards[at], scratch)
    return 1


@njit(cache=True)
def _fan(cards, t, k):
    """Outcomes one board can have under move effect ``k`` (the faces of a direction roll)."""
    return card(cards, t, T_TAB_LEN) if effect(cards, t, k, E_ROLL) else 1


@njit(cache=True, _nrt=False)
def _counter_chance(st, x, t, which):
    return x[int(x[X_COUNTER]) + 4 * get(st, OWNER, t) + which]


@njit(cache=True)
def loss_delta(st, w, x, t, base):
    """Change of the seat's value if snail ``t`` loses one shell (0 shells: out)."""
    after = st.copy()
    shells = get(after, SHELLS, t) - 1
    if shells <= 0:
        shells = 0
        put(after, STATUS, t, OUT)
    put(after, SHELLS, t, shells)
    return value(after, w, x) - base


@njit(cache=True)
def shot_value(st, w, x, s, t, base):
    """Expected change of value if ``s`` shoots ``t``: the hit chance times the target's loss,
    unless it counters (cancel, or send it back to the shooter); a target that the shot would
    not knock out counters only part of the time (``X_URGENCY``)."""
    p_hit = w[W_HITS] / w[W_DIE]
    gain = loss_delta(st, w, x, t, base)
    urgent = 1.0 if get(st, SHELLS, t) <= 1 else x[X_URGENCY]
    p_cancel = _counter_chance(st, x, t, np.int64(SHOT_CANCEL)) * urgent
    p_reflect = _counter_chance(st, x, t, np.int64(SHOT_REFLECT)) * urgent
    back = loss_delta(st, w, x, s, base)
    return p_hit * ((1.0 - p_cancel - p_reflect) * gain + p_reflect * back)


@njit(cache=True)
def domino_value(st, w, x, s, base):
    """Expected change of value of a domino by ``s``: each snail on its line loses a shell
    unless it counters (stop, or send the wave back)."""
    total = 0.0
    for side in range(2):
        for t in domino_side(st, w, s, side):
            gain = loss_delta(st, w, x, t, base)
            p_cancel = _counter_chance(st, x, t, np.int64(DOMINO_CANCEL))
            p_reflect = _counter_chance(st, x, t, np.int64(DOMINO_REFLECT))
            back = loss_delta(st, w, x, s, base)
            total += (1.0 - p_cancel - p_reflect) * gain + p_reflect * back
    return total


@njit(cache=True)
def _move_branches(start, w, cards, x, s, t, k, probs, boards, alive, original, scratch, unused):
    """The branches after move effect ``k``; an impossible move sends its branch back to
    ``start`` and kills the card there."""
    cap = probs.size * _fan(cards, t, k)
    out_p = np.empty(cap)
    out_b = np.empty((cap, start.size), dtype=np.int64)
    kinds = np.empty(cap, dtype=np.int64)
    out_alive = np.empty(cap, dtype=np.bool_)
    out_original = np.empty(cap, dtype=np.bool_)
    j = 0
    for i in range(probs.size):
        if not alive[i]:
            out_p[j], out_alive[j], out_original[j] = probs[i], False, original[i]
            copy_state(out_b[j], boards[i])
            j += 1
            continue
        count = move_outcomes(boards[i], w, cards, x, s, t, k, out_p, out_b, kinds, np.int64(j), scratch, unused)
        for m in range(j, j + count):
            out_p[m] = probs[i] * out_p[m]
            if kinds[m] == IMPOSSIBLE:
                copy_state(out_b[m], start)
                out_alive[m], out_original[m] = False, True
            else:
                out_alive[m] = True
                out_original[m] = original[i] and kinds[m] == SAME
        j += count
    return out_p[:j], out_b[:j], out_alive[:j], out_original[:j]


@njit(cache=True)
def _shell_branches(w, cards, s, t, k, probs, boards, alive, original):
    """The branches after shell effect ``k`` (a gain up to the start value, or a loss; with die
    faces, only on those faces of the circuit's die)."""
    die = w[W_DIE]
    chance = 1.0
    if effect(cards, t, k, E_N_FACES) > 0:
        listed = 0
        for face in range(1, min(die, 20) + 1):
            listed += effect(cards, t, k, E_FACES + face)
        chance = listed / die
    amount = effect(cards, t, k, E_AMOUNT)
    n = probs.size
    out_p = np.empty(2 * n)
    out_b = np.empty((2 * n, boards.shape[1]), dtype=np.int64)
    out_alive = np.empty(2 * n, dtype=np.bool_)
    out_original = np.empty(2 * n, dtype=np.bool_)
    j = 0
    for i in range(n):
        b = boards[i]
        if not alive[i] or get(b, STATUS, s) != RUNNING:
            out_p[j], out_alive[j], out_original[j] = probs[i], alive[i], original[i]
            copy_state(out_b[j], b)
            j += 1
            continue
        b2 = b.copy()
        if amount > 0:
            put(b2, SHELLS, s, min(get(b2, MAX_SHELLS, s), get(b2, SHELLS, s) + amount))
        else:
            put(b2, SHELLS, s, max(0, get(b2, SHELLS, s) + amount))
            if get(b2, SHELLS, s) == 0:
                put(b2, STATUS, s, OUT)
        if chance < 1.0:
            out_p[j], out_alive[j], out_original[j] = probs[i] * (1 - chance), True, original[i]
            copy_state(out_b[j], b)
            j += 1
        out_p[j], out_alive[j], out_original[j] = probs[i] * chance, True, False
        copy_state(out_b[j], b2)
        j += 1
    return out_p[:j], out_b[:j], out_alive[:j], out_original[:j]


@njit(cache=True)
def _card_lost_here(start, boards, alive, original, only_unmet_behind, w, s, any_snail):
    """Branches where the card is lost go back to ``start`` (all alive ones, or with
    ``only_unmet_behind`` those where ``s`` is not behind another snail; ``any_snail``: a KO
    snail counts)."""
    for i in range(alive.size):
        if alive[i] and (not only_unmet_behind or not behind_another(boards[i], w, s, any_snail)):
            copy_state(boards[i], start)
            alive[i] = False
            original[i] = True


@njit(cache=True)
def play_value(st, w, cards, x, s, t, base):
    """Expected change of the seat's value if snail ``s`` plays action card type ``t`` now
    (``base``: the value of ``st``); see the module docstring."""
    probs = np.ones(1)
    boards = st.copy().reshape(1, st.size)
    alive = np.ones(1, dtype=np.bool_)
    original = np.ones(1, dtype=np.bool_)
    scratch = np.empty_like(st)
    unused = np.zeros(1, dtype=np.int64)
    extra = 0.0
    for k in range(card(cards, t, T_EFF_COUNT)):
        behind = effect(cards, t, k, E_BEHIND)
        if behind:
            _card_lost_here(st, boards, alive, original, _ONLY_UNMET_BEHIND, w, s, behind == BEHIND_ANY)
        live = 0.0
        for i in range(probs.size):
            if alive[i]:
                live += probs[i]
        if live <= 0:
            break
        op = effect(cards, t, k, E_OP)
        if op == MOVE:
            probs, boards, alive, original = _move_branches(
                st, w, cards, x, s, t, k, probs, boards, alive, original, scratch, unused
            )
        elif op == SHELL:
            probs, boards, alive, original = _shell_branches(w, cards, s, t, k, probs, boards, alive, original)
        elif op == SHOOT:
            targets = shot_targets(st, w, s, effect(cards, t, k, E_RANGE))
            if targets.size == 0:
                _card_lost_here(st, boards, alive, original, _EVERY_BRANCH, w, s, _EVERY_BRANCH)
            best = 0.0
            for i in range(targets.size):
                v = shot_value(st, w, x, s, targets[i], base)
                if i == 0 or v > best:
                    best = v
            extra += live * best
        else:
            extra += live * domino_value(st, w, x, s, base)
    if original.all():
        return extra
    race_bonus = x[X_THREAT] * x[X_FINISH_RACE] * (5 - card(cards, t, T_NUMBER)) / 5.0
    total = 0.0
    for i in range(probs.size):
        bonus = race_bonus if get(boards[i], STATUS, s) == FINISHED else 0.0
        total += probs[i] * (value(boards[i], w, x) + bonus)
    return total - base + extra


@njit(cache=True, inline="always")
def action_plan(st, w, cards, x, s, hand, churn, known, values):
    """Best score of the coming action phase from ``st`` with ``hand`` (card types): play an
    action card (its play value, plus ``churn``: what its leaving the hand is worth) or discard
    the card worth least. ``known`` / ``values``: the play values per card type on this same
    board, computed when first needed (shared by callers that plan from one board)."""
    base = value(st, w, x)
    best = -math.inf
    done = np.zeros(known.size, dtype=np.bool_)
    for i in range(hand.size):
        if churn[i] > best:
            best = churn[i]
        t = hand[i]
        if card(cards, t, T_KIND) != ACTION or done[t]:
            continue
        done[t] = True
        if not known[t]:
            values[t] = play_value(st, w, cards, x, s, t, base)
            known[t] = True
        score = values[t] + churn[i]
        if score > best:
            best = score
    return 0.0 if best == -math.inf else best


@njit(cache=True)
def hand_plan(st, w, cards, x, worths, s, hand, known, values):
    """:func:`action_plan` of ``hand`` with its :func:`churn`, compiled on its own (for a
    discard in the speed phase, off the hot paths: no other copy of it inlined)."""
    return action_plan(st, w, cards, x, s, hand, churn(cards, x, worths, hand), known, values)


@njit(cache=True, _nrt=False)
def blocking(st, w, s, seat):
    """Opponents behind ``s`` whose straight-ahead square it now occupies."""
    p = get(st, POS, s)
    if p < 0:
        return 0
    count = 0
    for o in range(st[N_SNAILS]):
        q = get(st, POS, o)
        if q >= 0 and get(st, OWNER, o) != seat and get(st, STATUS, o) == RUNNING:
            if nb(w, q, geo(w, q, FRONT)) == p:
                count += 1
    return count


@njit(cache=True, inline="always")
def churn(cards, x, worths, hand):
    """Per card of ``hand`` (card types): what its leaving the hand is worth now, the hand
    discount ``x[X_DISC]`` times a fresh card's worth ``x[X_MEAN_WORTH]`` minus its own
    (``worths`` per type; ``x[X_LAST_SPEED]`` for a speed card when the hand holds no more
    speed cards than the seat has snails ``x[X_HAND_SNAILS]``)."""
    n_speed = 0
    for t in hand:
        if card(cards, t, T_KIND) == SPEED:
            n_speed += 1
    last = n_speed <= x[X_HAND_SNAILS]
    out = np.empty(hand.size)
    for i in range(hand.size):
        t = hand[i]
        own = x[X_LAST_SPEED] if last and card(cards, t, T_KIND) == SPEED else worths[t]
        out[i] = x[X_DISC] * (x[X_MEAN_WORTH] - own)
    return out


@njit(cache=True, inline="always")
def plan_ends(st, w, cards, x, worths, s, ends, later, later_squares, hand):
    """Score of each end of a speed move of ``s`` (``SACRIFICE``: stay put, regain shells):
    the value there once the snails ``later`` (moving after it, ``later_squares`` each) have
    made their likeliest move (nearest the finish), plus the best action from there with
    ``hand`` (card types; its :func:`churn` from ``worths``), planned for the ``X_PLAN_ENDS``
    best ends only (the others lose ``X_UNPLANNED``)."""
    n = ends.size
    seat = int(x[X_SEAT])
    values = np.empty(n)
    afters = np.empty((n, st.size), dtype=np.int64)
    for i in range(n):
        after = afters[i]
        copy_state(after, st)
        if ends[i] == SACRIFICE:
            put(after, SHELLS, s, min(get(after, MAX_SHELLS, s), get(after, SHELLS, s) + int(x[X_SACRIFICE_GAIN])))
        else:
            enter(after, w, s, ends[i])
        for j in range(later.size):
            o = later[j]
            if get(after, STATUS, o) == RUNNING:
                o_ends = speed_ends(after, w, o, later_squares[j], _ALL)
                if o_ends.size:
                    nearest = o_ends[0]
                    for e in o_ends:
                        if dist(w, e) < dist(w, nearest):
                            nearest = e
                    enter(after, w, o, nearest)
        values[i] = value(after, w, x)
    scores = values - x[X_UNPLANNED]
    ranked = np.argsort(-values, kind="mergesort")[: int(x[X_PLAN_ENDS])]
    n_types = cards[C_TYPES]
    hand_churn = churn(cards, x, worths, hand)
    for i in ranked:
        after = afters[i]
        if get(after, STATUS, s) == RUNNING:
            plan = action_plan(
                after, w, cards, x, s, hand, hand_churn, np.zeros(n_types, dtype=np.bool_), np.zeros(n_types)
            )
        else:
            plan = x[X_THREAT] * x[X_FINISH_RACE]
        scores[i] = values[i] + plan + x[X_BLOCKING] * blocking(after, w, s, seat)
    return scores


@njit(cache=True, inline="always")
def speed_plans(st, w, cards, x, worths, s, hand, squares, removed, known, values):
    """The plan of each speed card the seat may play, by its distance ``squares[i]``: the best
    of :func:`plan_ends` over the ends of its move with the hand without card ``removed[i]``
    (an index of ``hand``), or with no end the board's value plus that hand's
    :func:`action_plan` (play values shared through ``known`` / ``values``) minus
    ``x[X_NO_MOVE]``. Returns the plans and whether some end is no farther from the finish
    than ``s`` stands."""
    here = dist(w, get(st, POS, s))
    plans = np.empty(squares.size)
    near = False
    none = np.zeros(0, dtype=np.int64)
    sub = np.empty(max(0, hand.size - 1), dtype=np.int64)
    standing = math.nan
    for i in range(squares.size):
        j = 0
        for k in range(hand.size):
            if k != removed[i]:
                sub[j] = hand[k]
                j += 1
        ends = speed_ends(st, w, s, squares[i], _ALL)
        for e in ends:
            if dist(w, e) <= here:
                near = True
        if ends.size:
            scores = plan_ends(st, w, cards, x, worths, s, ends, none, none, sub)
            best = scores[0]
            for v in scores[1:]:
                if v > best:
                    best = v
            plans[i] = best
        else:
            if math.isnan(standing):
                standing = value(st, w, x)
            plans[i] = (
                standing
                + action_plan(st, w, cards, x, s, sub, churn(cards, x, worths, sub), known, values)
                - x[X_NO_MOVE]
            )
    return plans, near


@njit(cache=True, inline="always")
def speed_distances(cards, hand, at, discard):
    """The distinct distances of the speed cards among the options (``at[i]``: an option's
    index in ``hand``, ``discard[i]``: 1 for a card announced as a discard), in order, and for
    each the hand index of its first card (the hand :func:`speed_plans` plans without)."""
    n = at.size
    squares = np.empty(n, dtype=np.int64)
    removed = np.empty(n, dtype=np.int64)
    m = 0
    for i in range(n):
        if discard[i] == 0:
            q = card(cards, hand[at[i]], T_SQUARES)
            new = True
            for j in range(m):
                if squares[j] == q:
                    new = False
            if new:
                squares[m], removed[m] = q, at[i]
                m += 1
    return squares[:m], removed[:m]


@njit(cache=True, inline="always")
def speed_card(st, w, cards, x, worths, s, hand, at, discard, numbers, squares, plans, near, known, values):
    """The tactician's scores of its speed-card options (``at``, ``discard`` as in
    :func:`speed_distances`; ``numbers[i]``: the option's speed number), from the
    :func:`speed_plans` ``plans`` of the distances ``squares`` (``near``, ``known``,
    ``values``: as it returned and filled them): a speed card's plan plus the hand discount
    times a fresh card's worth minus its own, plus ``x[X_SLOW_BIAS]`` times its number (minus
    that when its move can cross the line); a discard, weighed only when no speed move ends
    as near the finish as ``s`` stands, as the board's value plus the action plan of the hand
    without it. Returns the indices of the options weighed, then their scores (as floats)."""
    here = dist(w, get(st, POS, s))
    n = at.size
    m = squares.size
    out = np.empty(2 * n)
    k = 0
    standing = math.nan
    sub = np.empty(max(0, hand.size - 1), dtype=np.int64)
    for i in range(n):
        if near and discard[i] != 0:
            continue
        t = hand[at[i]]
        if discard[i] != 0:
            j = 0
            for h in range(hand.size):
                if h != at[i]:
                    sub[j] = hand[h]
                    j += 1
            if math.isnan(standing):
                standing = value(st, w, x)
            score = (
                standing
                + hand_plan(st, w, cards, x, worths, s, sub, known, values)
                + x[X_DISC] * (x[X_MEAN_WORTH] - worths[t])
            )
        else:
            q = card(cards, t, T_SQUARES)
            plan_q = 0.0
            for j in range(m):
                if squares[j] == q:
                    plan_q = plans[j]
            bias = x[X_SLOW_BIAS] if q >= here else -x[X_SLOW_BIAS]
            score = plan_q + x[X_DISC] * (x[X_MEAN_WORTH] - worths[t]) + bias * numbers[i]
        out[k], out[n + k] = i, score
        k += 1
    result = np.empty(2 * k)
    for i in range(k):
        result[i], result[k + i] = out[i], out[n + i]
    return result


@njit(cache=True, inline="always")
def action_card(st, w, cards, x, worths, s, hand, at, discard):
    """The tactician's score of each action-card option (``at[i]``: its index in ``hand``,
    ``discard[i]``: 1 for a discard): the :func:`play_value` of its type (played) plus its
    :func:`churn` (what its leaving the hand is worth)."""
    change = churn(cards, x, worths, hand)
    known = np.zeros(cards[C_TYPES], dtype=np.bool_)
    values = np.zeros(cards[C_TYPES])
    base = value(st, w, x)
    out = np.empty(at.size)
    for i in range(at.size):
        if discard[i] != 0:
            out[i] = change[at[i]]
            continue
        t = hand[at[i]]
        if not known[t]:
            values[t] = play_value(st, w, cards, x, s, t, base)
            known[t] = True
        out[i] = values[t] + change[at[i]]
    return out


#: what :func:`plan` computes
PLAN_ENDS, SPEED_CARD, ACTION_CARD = range(3)


@njit(cache=True, inline="always")
def _part(ints, k):
    """The ``k``-th int sequence packed in ``ints`` (see :func:`plan`)."""
    start = 4
    for j in range(k):
        start += ints[j]
    return ints[start : start + ints[k]].copy()


@njit(cache=True)
def plan(op, st, w, cards, x, worths, s, ints, out):
    """The tactician's look-ahead for snail ``s``, one entry point for all its uses (numba
    optimises the whole call tree once per entry point, so :func:`speed_plans`,
    :func:`plan_ends`, :func:`action_plan` and :func:`churn` are inlined here and only
    :func:`play_value` and :func:`hand_plan` are compiled on their own): ``ints`` packs up to
    four int sequences, their lengths first (``[n0, n1, n2, n3, seq0..., seq1..., ...]``),
    the first being the hand (card types, its :func:`churn` from ``worths``).

    * ``PLAN_ENDS`` (ends, later snails, their squares): :func:`plan_ends`;
    * ``SPEED_CARD`` (options' hand indices, discard flags, speed numbers): :func:`speed_card`,
      after :func:`speed_distances` and :func:`speed_plans`;
    * ``ACTION_CARD`` (options' hand indices, discard flags): :func:`action_card`.

    The result is written to the start of ``out`` (at least ``2 * ints.size`` floats: a float
    array handed back to Python costs more than the call); returns how many were written."""
    hand = _part(ints, 0)
    if op == SPEED_CARD:
        at, discard = _part(ints, 1), _part(ints, 2)
        squares, removed = speed_distances(cards, hand, at, discard)
        known, values = np.zeros(cards[C_TYPES], dtype=np.bool_), np.zeros(cards[C_TYPES])
        plans, near = speed_plans(st, w, cards, x, worths, s, hand, squares, removed, known, values)
        result = speed_card(
            st, w, cards, x, worths, s, hand, at, discard, _part(ints, 3), squares, plans, near, known, values
        )
    elif op == PLAN_ENDS:
        result = plan_ends(st, w, cards, x, worths, s, _part(ints, 1), _part(ints, 2), _part(ints, 3), hand)
    else:
        result = action_card(st, w, cards, x, worths, s, hand, _part(ints, 1), _part(ints, 2))
    out[: result.size] = result
    return result.size


@njit(cache=True)
def expected_distance(st, w, cards, x, s, t):
    """The greedy player's expected distance of ``s`` after playing card type ``t``: its move
    effects only, each direction chosen nearest the finish (an impossible move: the board as
    it was, and the next move from there)."""
    probs = np.ones(1)
    boards = st.copy().reshape(1, st.size)
    scratch = np.empty_like(st)
    unused = np.zeros(1, dtype=np.int64)
    for k in range(card(cards, t, T_EFF_COUNT)):
        if effect(cards, t, k, E_OP) != MOVE:
            continue
        cap = probs.size * _fan(cards, t, k)
        out_p = np.empty(cap)
        out_b = np.empty((cap, st.size), dtype=np.int64)
        kinds = np.empty(cap, dtype=np.int64)
        j = 0
        for i in range(probs.size):
            count = move_outcomes(boards[i], w, cards, x, s, t, k, out_p, out_b, kinds, np.int64(j), scratch, unused)
            for m in range(j, j + count):
                out_p[m] = probs[i] * out_p[m]
                if kinds[m] == IMPOSSIBLE:
                    copy_state(out_b[m], st)
            j += count
        probs, boards = out_p[:j], out_b[:j]
    total = 0.0
    for i in range(probs.size):
        total += probs[i] * greedy_distance(boards[i], w, s)
    return total
