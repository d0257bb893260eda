"""How the planner values a simulated stroke (compiled with numba, cached on disk).

The value of one outcome, in coins (an own coin pocketed = 1), is what the stroke pocketed
under the rules — own and opponents' coins, the queen and its cover, a due, the board won or
lost on a last coin, whether the turn continues (the effective switches) — plus the position
it leaves: ``value_next_pot_self`` × the best weighted pot the player keeps when its turn
continues, or (``safety``) ``value_next_pot_opponent`` × the best pot the next seat gets
when it passes (:func:`sim.carrom.players.aim.best_pot`). Every weight is a profile key
(:class:`~sim.carrom.players.profile.CarromProfile`, ``value_*``).

The kernel works on the *compact* simulation of the planner: only the coins on the board
(ids in ``ids``, increasing) and the striker last, as :func:`sim.physics.simulate_batch`
returns them; :func:`situation` packs what it needs of the view and the rules.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from sim.physics import STATUS_POCKETED

from ..rules.view import PlanView
from .aim import best_pot, pot_tables

__all__ = ["weights", "situation", "outcome_values"]

# the weights array (weights())
(
    W_OPP_COIN,
    W_QUEEN_COVERED,
    W_QUEEN_PENDING,
    W_QUEEN_WASTED,
    W_COVER_MADE,
    W_COVER_MISSED,
    W_DUE,
    W_BOARD_WON,
    W_LAST_PENALTY,
    W_LAST_RETURNED,
    W_LAST_WAIT,
    W_NEXT_SELF,
    W_NEXT_OPP,
    W_OPP_QUEEN,
    W_PRACTICE_DUE,
) = range(15)
_WEIGHT_KEYS = (
    "value_opponent_coin",
    "value_queen_covered",
    "value_queen_pending",
    "value_queen_wasted",
    "value_cover_made",
    "value_cover_missed",
    "value_due",
    "value_board_won",
    "value_last_coin_penalty",
    "value_last_coin_returned",
    "value_last_coin_wait",
    "value_next_pot_self",
    "value_next_pot_opponent",
    "value_opponent_queen",
    "value_practice_due",
)

# the situation array (situation())
(
    S_SOLO,
    S_THREE,
    S_QUEEN_ON,
    S_QUEEN_ALLOWED,
    S_QUEEN_PRIOR,
    S_QUEEN_PENDING,
    S_QUEEN_SETTLED,
    S_QUEEN_VALUE,
    S_OWN_LEFT,
    S_OPP_LEFT,
    S_OWN_DOWN,
    S_NEXT_QUEEN,
    S_SAFETY,
    S_DUES,
    S_COVER_SAME,
    S_DUE_KEEPS,
    S_DUE_RETURNS,
    S_OPP_ENDS,
    S_INELIGIBLE_LOSES,
    S_QUEEN_OWN_FIRST,
    S_LAST_PENALTY,
    S_OPP_LAST_PENALTY,
    S_LAST_MODE,
) = range(23)
#: ``last_coin.before_queen`` as S_LAST_MODE: the coin stays down, comes back and the turn goes
#: on, or comes back and the turn ends ("end_turn", "end_turn_unlock").
LAST_MODES = {"stays_down": 0.0, "replay": 1.0}


def weights(profile) -> np.ndarray:
    """The ``value_*`` keys of a profile as the kernel's weights array."""
    return np.array([getattr(profile, key) for key in _WEIGHT_KEYS], dtype=np.float64)


def situation(view: PlanView, safety: bool) -> np.ndarray:
    """The view's flags and counts and the rules' switches as the kernel's situation array."""
    rules = view.geo.rules
    sw = rules.switches
    return np.array(
        [
            view.solo,
            view.three,
            view.queen_on,
            view.queen_allowed,
            view.queen_prior,
            view.queen_pending,
            view.queen_settled,
            view.queen_value,
            view.own_left,
            view.opp_left,
            view.own_down,
            view.next_queen_allowed,
            safety,
            sw.dues,
            sw.cover_same_stroke,
            sw.due_keeps_turn_with_own,
            sw.due_returns_stroke_coins,
            sw.opponent_coin_ends_turn,
            sw.ineligible_queen_loses_turn,
            sw.queen_needs_own_first,
            sw.last_coin_before_queen_penalty,
            sw.opponent_last_coin_penalty,
            LAST_MODES.get(rules.last_coin.before_queen, 2.0),
        ],
        dtype=np.float64,
    )


@njit(cache=True)
def _stroke_terms(value, st, own_n, opp_n, q, sit, w):
    """The rules' terms of one outcome: (value, turn continues, queen settled, queen pending
    after the stroke, queen pocketed legally)."""
    foul = st and sit[S_DUES] > 0
    settled = sit[S_QUEEN_SETTLED] > 0
    pending_after = False
    if sit[S_QUEEN_PENDING] > 0:
        made = own_n >= 1 and not foul
        value += w[W_COVER_MADE] if made else w[W_COVER_MISSED]
        settled = settled or made
    q_ok = q and (sit[S_QUEEN_ALLOWED] > 0 or own_n >= 1) and not foul
    if sit[S_QUEEN_ON] > 0:
        cover_now = q_ok and sit[S_COVER_SAME] > 0 and ((sit[S_QUEEN_PRIOR] > 0 and own_n >= 1) or own_n >= 2)
        cover_now = cover_now or (q_ok and sit[S_OWN_LEFT] - own_n <= 0)
        if cover_now:
            value += w[W_QUEEN_COVERED] * sit[S_QUEEN_VALUE]
        elif q_ok:
            value += w[W_QUEEN_PENDING] * sit[S_QUEEN_VALUE]
        elif q:
            value += w[W_QUEEN_WASTED]
        settled = settled or cover_now
        pending_after = q_ok and not cover_now
    cont = own_n > 0 or q
    if sit[S_DUES] > 0:
        if st:
            value += w[W_DUE]
            value -= own_n if sit[S_DUE_RETURNS] > 0 else 0
        cont = cont and (not st or (sit[S_DUE_KEEPS] > 0 and own_n > 0))
    if sit[S_OPP_ENDS] > 0:
        cont = cont and opp_n == 0
    if sit[S_INELIGIBLE_LOSES] > 0:
        cont = cont and not (q and not q_ok)
    if sit[S_THREE] == 0:
        value, cont = _board_end_terms(value, cont, own_n, opp_n, foul, settled, sit, w)
    return value, cont, settled, pending_after, q_ok


@njit(cache=True)
def _board_end_terms(value, cont, own_n, opp_n, foul, settled, sit, w):
    """The board-end terms (2 and 4 players): the board won, a last coin pocketed before the
    queen (rules.last_coin_before_queen_penalty, last_coin.before_queen), the opponent's last
    coin, a queen that ends a board the opponent has cleared."""
    own_left = sit[S_OWN_LEFT]
    opp_left = sit[S_OPP_LEFT]
    cleared = own_n > 0 and own_left - own_n <= 0 and not foul
    won = (cleared or own_left == 0) and not foul and settled
    if won:
        value += w[W_BOARD_WON]
    bad = cleared and not settled
    if sit[S_LAST_PENALTY] > 0:
        if bad:
            value += w[W_LAST_PENALTY]
            cont = False
    elif sit[S_LAST_MODE] != 0 and bad:  # the coin comes back; "replay": the turn goes on
        value += w[W_LAST_RETURNED]
        if sit[S_LAST_MODE] != 1:
            cont = False
    opp_cleared = opp_n > 0 and opp_left - opp_n <= 0
    if opp_cleared and (sit[S_OPP_LAST_PENALTY] > 0 or settled):
        value += w[W_LAST_PENALTY]
    if opp_left == 0 and sit[S_QUEEN_SETTLED] == 0 and settled and not won:  # "stays_down"
        value += w[W_LAST_PENALTY]
    return value, cont and not won


@njit(cache=True)
def _to_local(final_k, rot, local):
    for j in range(local.shape[0]):
        x = final_k[j, 0]
        y = final_k[j, 1]
        local[j, 0] = x * rot[0, 0] + y * rot[1, 0]
        local[j, 1] = x * rot[0, 1] + y * rot[1, 1]


@njit(cache=True)
def outcome_values(
    status, final, start, ids, own, opp, coin_value, next_targets, rot, next_rot, sit, w, pockets, xs, legal, prm
):
    """The value of each simulated outcome (see the module docstring).

    Args:
        status, final: (K, M+1) statuses and (K, M+1, 2) board positions of the compact
            simulation (coins ``ids`` then the striker).
        start: (M, 2) board positions of the coins before the stroke.
        ids: (M,) coin ids of the coins on the board, increasing (the queen is id 0).
        own, opp, coin_value, next_targets: (M,) the view's arrays, for those coins.
        rot, next_rot: local→board rotations of the shooter and of the next seat.
        sit, w: :func:`situation` and :func:`weights`.
        pockets, xs, legal, prm: for :func:`~sim.carrom.players.aim.best_pot` (striker positions
            ``xs``, clamped into ``legal``).
    """
    nk = status.shape[0]
    m = ids.shape[0]
    out = np.empty(nk)
    alive = np.empty(m, np.bool_)
    moved = np.empty(m, np.bool_)
    worth = np.empty(m)
    local = np.empty((m, 2))
    self_tab, self_pos = pot_tables(m, xs.shape[0])  # a coin's pots from the shooter's seat...
    next_tab, next_pos = pot_tables(m, xs.shape[0])  # ... and from the next seat's
    solo = sit[S_SOLO] > 0
    for k in range(nk):
        st = status[k, m] == STATUS_POCKETED
        own_n, opp_n, fell, gained, q = _tally(status[k], final[k], start, ids, own, opp, coin_value, alive, moved)
        if solo:
            value = fell + (w[W_PRACTICE_DUE] if st else 0.0)
            cont, settled, pending_after, q_ok = True, False, False, False
            worth[:] = 1.0
        else:
            value, cont, settled, pending_after, q_ok = _stroke_terms(
                gained + w[W_OPP_COIN] * opp_n, st, own_n, opp_n, q, sit, w
            )
            _next_worth(worth, ids, own, coin_value, own_n, settled, pending_after, q_ok, sit, w)
        if cont:
            _to_local(final[k], rot, local)
            value += w[W_NEXT_SELF] * best_pot(local, alive, worth, pockets, xs, legal, prm, moved, self_tab, self_pos)
        elif sit[S_SAFETY] > 0 and w[W_NEXT_OPP] != 0.0:  # (weight 0: the same value, not computed)
            for j in range(m):
                worth[j] = 1.0 if next_targets[j] else 0.0
                if ids[j] == 0:
                    worth[j] = w[W_OPP_QUEEN] if sit[S_NEXT_QUEEN] > 0 else 0.0
            _to_local(final[k], next_rot, local)
            value += w[W_NEXT_OPP] * best_pot(local, alive, worth, pockets, xs, legal, prm, moved, next_tab, next_pos)
        out[k] = value
    return out


@njit(cache=True)
def _tally(status, final, start, ids, own, opp, coin_value, alive, moved):
    """What one outcome pocketed: (own coins, opponents' coins, coins, the own coins' value,
    the queen fell); fills ``alive`` (still on the board) and ``moved`` (not where it started,
    bit for bit) for the coins ``ids``."""
    own_n, opp_n, fell, gained, q = 0, 0, 0, 0.0, False
    for j in range(ids.shape[0]):
        alive[j] = status[j] != STATUS_POCKETED
        moved[j] = not (_same(final[j, 0], start[j, 0]) and _same(final[j, 1], start[j, 1]))
        if not alive[j]:
            fell += 1
            q = q or ids[j] == 0
            if own[j]:
                own_n += 1
                gained += coin_value[j]
            if opp[j]:
                opp_n += 1
    return own_n, opp_n, fell, gained, q


@njit(cache=True, inline="always")
def _same(a, b):
    """The same float, bit for bit (a coin at rest keeps its position exactly; 0.0 is not -0.0)."""
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


@njit(cache=True)
def _next_worth(worth, ids, own, coin_value, own_n, settled, pending_after, q_ok, sit, w):
    """What the player's next stroke would be worth, per coin, if its turn continues: own
    coins (a last coin that must wait for the queen: × ``value_last_coin_wait``; the pending
    queen's cover: × ``value_cover_made``) and the queen when it may be taken next."""
    hazard = sit[S_THREE] == 0 and sit[S_OWN_LEFT] - own_n <= 1 and not settled and not pending_after
    queen_next = sit[S_QUEEN_ON] > 0 and not q_ok and not settled and not pending_after
    if sit[S_QUEEN_OWN_FIRST] > 0:
        queen_next = queen_next and sit[S_OWN_DOWN] + own_n > 0
    else:
        queen_next = queen_next and own_n > 0
    for j in range(ids.shape[0]):
        worth[j] = coin_value[j] if own[j] else 0.0
        if hazard:
            worth[j] *= w[W_LAST_WAIT]
        if pending_after:
            worth[j] *= w[W_COVER_MADE]
        if ids[j] == 0:
            worth[j] = w[W_QUEEN_PENDING] * sit[S_QUEEN_VALUE] if queen_next else 0.0
