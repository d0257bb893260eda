"""A table of tacticians: its speed phase and its action-card choices, compiled (see
:mod:`sim.gasterospeed.players.tactician_phases`, which decides when they apply and hands the race over
in arrays).

:func:`run` plays exactly what :func:`sim.gasterospeed.rules.phases.speed_phase` plays when every
seat is a ``tactician`` at temperature 0 with one snail: each seat places a card face down (its
tactician's :meth:`~sim.gasterospeed.players.tactician.TacticianPolicy.speed_card`), the cards are
revealed and the moves resolve from the highest number down, each end chosen by
:meth:`~sim.gasterospeed.players.tactician.TacticianPolicy.speed_move`; a snail that crosses the line
drops its hand. :func:`choose` with ``ACTION_CARD`` chooses the action cards as
:func:`~sim.gasterospeed.rules.phases.action_phase` asks the tacticians for them (their effects stay
in Python). A decision starts as :meth:`~sim.gasterospeed.players.evaluation.Evaluator.start` does (the
same keys decide when the inferences are counted again) and runs the same look-ahead
(:func:`.lookahead.plan`); ties are broken with the seat's dice, one uniform per tie, as
:meth:`~sim.gasterospeed.players.choice.Chooser.pick`. The same seeds give the same tables on either
path (tests/gasterospeed/players/test_tactician_phases.py).

The arrays, in tuples (one row per seat where there are two dimensions; each position named
by a constant below, ``DECK_*``, ``SEAT_*``, ``HELD_*``, ``INFERRED_*``, ``RULE_*``, ``OUTPUT_*``):
    deck        (cards array, per uid: kind, number, squares, deck entry, attacks; the squares
                of each speed number)
    seats       (context arrays X, card worths per entry, params [hand discount, hand horizon
                (squares), a fresh card's worth, tailwind on], push keys [1, race, turn,
                discard length, draw 0, draw 1] (0 first: none yet), counter keys [1, race,
                turn, discard length, last discard, draw 0, draw 1, seat, hand length, hand...,
                hand sizes...], the unread uniforms of each seat's dice, how many each read,
                the hand discount of its last decision, whether it decided, the cards array
                its look-ahead reads: the deck's, the entries its profile forbids of kind
                ``FORBIDDEN``, never placed as its action card nor planned) — updated
    cards_held  (hands (uids, in order), their lengths, piles [discard length, its last card
                or -1, draw pile 0, draw pile 1, length of discard pile 1], the cards of each
                deck entry in the discard piles) — updated
    inferred    (the deck's jostling cards, its counter rows; see :func:`.value.infer`)
    rules       (race, turn, shell championship (0./1.), sacrifice gain (shells), sacrifice,
                discard in the speed phase, separate decks)
    outputs     (events rows (kind, snail, uid, outcome, squares gained), the cards sent to
                the discard piles and put in play, in order, and [rows, discarded, played])
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...rules.kernels.layout import (
    FINISHED,
    MAX_SHELLS,
    N_PENDING,
    OWNER,
    RUNNING,
    SHELLS,
    STATUS,
    T_KIND,
    card,
    get,
    put,
    steps_to_finish,
)
from ...rules.kernels.moves import ALL_DIRECTIONS, enter, speed_ends
from ..choice import TIE
from .lookahead import ACTION, ACTION_CARD, PLAN_ENDS, SACRIFICE, SPEED, SPEED_CARD, plan
from .value import begin, infer

#: Where each array lives in the tuples the kernels take (the layout of the module docstring).
#: Module-level ints are compile-time constants to numba, so a named index reads a tuple as a
#: literal one did. Named tuples read better but cost CPU in the dispatch of every compiled call
#: (compare with ``benchmarks/bench_match_cpu.py --against``).
DECK_TABLE, DECK_KIND, DECK_NUMBER, DECK_SQUARES, DECK_TYPE, DECK_ATTACKS, DECK_SQUARES_OF = range(7)
(
    SEAT_X,
    SEAT_WORTHS,
    SEAT_PARAMS,
    SEAT_PUSH_KEYS,
    SEAT_COUNTER_KEYS,
    SEAT_DICE,
    SEAT_DICE_AT,
    SEAT_DISC,
    SEAT_DECIDED,
    SEAT_CARDS,
) = range(10)
HELD_HANDS, HELD_HAND_LEN, HELD_PILES, HELD_SEEN = range(4)
INFERRED_JOSTLING, INFERRED_COUNTERS = range(2)
(
    RULE_RACE,
    RULE_TURN,
    RULE_SHELL_CHAMPIONSHIP,
    RULE_SACRIFICE_GAIN,
    RULE_SACRIFICE,
    RULE_DISCARD_IN_SPEED_PHASE,
    RULE_SEPARATE,
) = range(7)
OUTPUT_EVENTS, OUTPUT_DISCARDED, OUTPUT_PLAYED, OUTPUT_COUNTS = range(4)
#: fields of the outputs' counts
N_EVENTS, N_DISCARDED, N_PLAYED = range(3)
#: fields of a seat's push key: set, race, turn, discard length, draw pile 0, draw pile 1
PUSH_SET, PUSH_RACE, PUSH_TURN, PUSH_DISCARD_LEN, PUSH_DRAW0, PUSH_DRAW1 = range(6)

#: event kinds (the ``phase`` of an events row: "discard", "speed", "drop")
EV_DISCARD, EV_SPEED, EV_DROP = range(3)
#: outcomes: "speed_phase" (a discard), "void", "blocked", "sacrifice", "finished", "moved<±n>"
OUT_SPEED_PHASE, OUT_VOID, OUT_BLOCKED, OUT_SACRIFICE, OUT_FINISHED, OUT_MOVED = range(6)
#: ``piles`` entries
P_LEN, P_LAST, P_DRAW0, P_DRAW1, P_LEN1 = range(5)
#: ``params`` columns
PR_HAND_DISCOUNT, PR_HAND_HORIZON, PR_MEAN_WORTH, PR_TAILWIND = range(4)
_ALL = np.int64(ALL_DIRECTIONS)


@njit(cache=True)
def _pick(scores, dice, dice_at, seat):
    """:meth:`~sim.gasterospeed.players.choice.Chooser.pick` at temperature 0: the best score, ties
    broken by one uniform of the seat's dice."""
    n = scores.size
    if n == 1:
        return 0
    best = scores[0]
    for i in range(1, n):
        if scores[i] > best:
            best = scores[i]
    floor = best - TIE
    count = 0
    first = -1
    for i in range(n):
        if scores[i] >= floor:
            if count == 0:
                first = i
            count += 1
    if count == 1:
        return first
    u = dice[seat, dice_at[seat]]
    dice_at[seat] += 1
    j = int(u * count)
    for i in range(n):
        if scores[i] >= floor:
            if j == 0:
                return i
            j -= 1
    return first


@njit(cache=True)
def _public(st):
    """The board a player's view holds: a copy with no pending losses."""
    out = st.copy()
    out[N_PENDING] = 0
    return out


@njit(cache=True)
def _start(vst, w, seat, deck, seats, cards_held, inferred, rules):
    """:meth:`~sim.gasterospeed.players.evaluation.Evaluator.start` of seat ``seat`` on the public
    board ``vst`` (the counters inferred when its hand holds an attack)."""
    uid_attacks, uid_type = deck[DECK_ATTACKS], deck[DECK_TYPE]
    X, params, push_keys, counter_keys, disc, decided = (
        seats[SEAT_X],
        seats[SEAT_PARAMS],
        seats[SEAT_PUSH_KEYS],
        seats[SEAT_COUNTER_KEYS],
        seats[SEAT_DISC],
        seats[SEAT_DECIDED],
    )
    hands, hand_len, piles, seen_discard = cards_held
    race_no, turn, shell_mode, sacrifice_gain = (
        rules[RULE_RACE],
        rules[RULE_TURN],
        rules[RULE_SHELL_CHAMPIONSHIP],
        rules[RULE_SACRIFICE_GAIN],
    )
    x, p, push_key, counter_key = X[seat], params[seat], push_keys[seat], counter_keys[seat]
    nh = hand_len[seat]
    counters_on = False
    for i in range(nh):
        if uid_attacks[hands[seat, i]]:
            counters_on = True
    disc[seat] = begin(
        vst, w, x, seat, shell_mode, float(sacrifice_gain), p[PR_HAND_DISCOUNT], p[PR_HAND_HORIZON], 1, p[PR_MEAN_WORTH]
    )
    decided[seat] = True
    pushes = False
    if p[PR_TAILWIND] != 0.0:
        if not (
            push_key[PUSH_SET] == 1
            and push_key[PUSH_RACE] == race_no
            and push_key[PUSH_TURN] == turn
            and push_key[PUSH_DISCARD_LEN] == piles[P_LEN]
            and push_key[PUSH_DRAW0] == piles[P_DRAW0]
            and push_key[PUSH_DRAW1] == piles[P_DRAW1]
        ):
            push_key[PUSH_SET], push_key[PUSH_RACE], push_key[PUSH_TURN] = 1, race_no, turn
            push_key[PUSH_DISCARD_LEN], push_key[PUSH_DRAW0], push_key[PUSH_DRAW1] = (
                piles[P_LEN],
                piles[P_DRAW0],
                piles[P_DRAW1],
            )
            pushes = True
    chances = False
    n_seats = hand_len.size
    if counters_on:
        key = np.empty(9 + nh + n_seats, dtype=np.int64)
        key[0], key[1], key[2], key[3], key[4] = 1, race_no, turn, piles[P_LEN], piles[P_LAST]
        key[5], key[6], key[7], key[8] = piles[P_DRAW0], piles[P_DRAW1], seat, nh
        for i in range(nh):
            key[9 + i] = hands[seat, i]
        for o in range(n_seats):
            key[9 + nh + o] = hand_len[o]
        for i in range(key.size):
            if counter_key[i] != key[i]:
                counter_key[: key.size] = key
                chances = True
                break
    if pushes or chances:
        seen = seen_discard.copy()
        for i in range(nh):
            seen[uid_type[hands[seat, i]]] += 1
        unseen = piles[P_DRAW0] + piles[P_DRAW1]
        for o in range(n_seats):
            if o != seat:
                unseen += hand_len[o]
        infer(
            x, seen, inferred[INFERRED_JOSTLING], inferred[INFERRED_COUNTERS], unseen, hand_len, seat, pushes, chances
        )


@njit(cache=True)
def _card_choice(op, vst, w, seat, s, opt_uid, opt_at, opt_discard, n_opt, deck, seats, cards_held, inferred, rules):
    """The option a tactician places (``op``: the look-ahead ``SPEED_CARD`` or ``ACTION_CARD``;
    options: uid, index in the hand, 1 for a discard), as its ``speed_card`` / ``action_card``."""
    if n_opt == 1:
        return 0
    _start(vst, w, seat, deck, seats, cards_held, inferred, rules)
    cards, uid_number, uid_type = seats[SEAT_CARDS][seat], deck[DECK_NUMBER], deck[DECK_TYPE]
    hands, nh = cards_held[HELD_HANDS], cards_held[HELD_HAND_LEN][seat]
    speed = op == SPEED_CARD
    ints = np.zeros(4 + nh + (3 if speed else 2) * n_opt, dtype=np.int64)
    ints[0], ints[1], ints[2], ints[3] = nh, n_opt, n_opt, n_opt if speed else 0
    for i in range(nh):
        ints[4 + i] = uid_type[hands[seat, i]]
    for i in range(n_opt):
        ints[4 + nh + i] = opt_at[i]
        ints[4 + nh + n_opt + i] = opt_discard[i]
        if speed:
            ints[4 + nh + 2 * n_opt + i] = uid_number[opt_uid[i]]
    out = np.empty(2 * ints.size)
    m = plan(op, vst, w, cards, seats[SEAT_X][seat], seats[SEAT_WORTHS][seat], s, ints, out)
    if not speed:
        return _pick(out[:m], seats[SEAT_DICE], seats[SEAT_DICE_AT], seat)
    k = m // 2
    return int(out[_pick(out[k:m], seats[SEAT_DICE], seats[SEAT_DICE_AT], seat)])


@njit(cache=True)
def _discard(uid, deck, cards_held, rules, outputs):
    """``uid`` to its discard pile (pile 1 for an action or reaction card with separate decks)."""
    piles, seen_discard = cards_held[HELD_PILES], cards_held[HELD_SEEN]
    discarded, counts = outputs[OUTPUT_DISCARDED], outputs[OUTPUT_COUNTS]
    discarded[counts[N_DISCARDED]] = uid
    counts[N_DISCARDED] += 1
    piles[P_LEN] += 1
    if rules[RULE_SEPARATE] and deck[DECK_KIND][uid] != SPEED:
        piles[P_LEN1] += 1
        piles[P_LAST] = uid
    elif piles[P_LEN1] == 0:
        piles[P_LAST] = uid
    seen_discard[deck[DECK_TYPE][uid]] += 1


@njit(cache=True)
def _event(outputs, kind, s, uid, outcome, gained):
    events, counts = outputs[OUTPUT_EVENTS], outputs[OUTPUT_COUNTS]
    row = counts[N_EVENTS]
    events[row, 0], events[row, 1], events[row, 2], events[row, 3], events[row, 4] = kind, s, uid, outcome, gained
    counts[N_EVENTS] += 1
    return row


@njit(cache=True)
def _options(hands, hand_len, seat, cards, uid_type, kind, discards, opt_uid, opt_at, opt_discard):
    """The cards of ``kind`` in the seat's hand (as its cards array ``cards`` reads them: not
    the ones it never plays), then (``discards``) every card announced as a discard; none at
    all when it holds no card of ``kind``. Returns how many."""
    n = 0
    for i in range(hand_len[seat]):
        u = hands[seat, i]
        if card(cards, uid_type[u], T_KIND) == kind:
            opt_uid[n], opt_at[n], opt_discard[n] = u, i, 0
            n += 1
    if n == 0 and kind == SPEED:
        return 0
    if discards:
        for i in range(hand_len[seat]):
            opt_uid[n], opt_at[n], opt_discard[n] = hands[seat, i], i, 1
            n += 1
    return n


@njit(cache=True)
def fresh(seats, outputs):
    """A call's counters at zero: the dice read and the decisions made per seat, the rows
    written (``outputs`` None: no rows)."""
    seats[SEAT_DICE_AT][:] = 0
    seats[SEAT_DECIDED][:] = False
    if outputs is not None:
        outputs[OUTPUT_COUNTS][:] = 0


@njit(cache=True)
def choose(op, st, w, deck, seats, cards_held, inferred, rules, chosen, chosen_discard):
    """Each seat with a running snail places a card face down (nothing changes while they
    choose): a speed card (``op`` ``SPEED_CARD``; a card announced as a discard too with the
    rule ``discard_in_speed_phase``) or an action card or any card as a discard (``ACTION_CARD``).
    ``chosen``: the uid per seat (-1: none), ``chosen_discard``: announced as a discard."""
    hands, hand_len = cards_held[HELD_HANDS], cards_held[HELD_HAND_LEN]
    vst = _public(st)
    width = 2 * hands.shape[1]
    opt_uid, opt_at, opt_discard = (
        np.empty(width, dtype=np.int64),
        np.empty(width, dtype=np.int64),
        np.empty(width, dtype=np.int64),
    )
    speed = op == SPEED_CARD
    for seat in range(hand_len.size):
        chosen[seat] = -1
        if get(st, STATUS, seat) != RUNNING or hand_len[seat] == 0:
            continue
        n_opt = _options(
            hands,
            hand_len,
            seat,
            seats[SEAT_CARDS][seat],
            deck[DECK_TYPE],
            SPEED if speed else ACTION,
            rules[RULE_DISCARD_IN_SPEED_PHASE] or not speed,
            opt_uid,
            opt_at,
            opt_discard,
        )
        if n_opt == 0:
            continue
        i = _card_choice(
            op, vst, w, seat, seat, opt_uid, opt_at, opt_discard, n_opt, deck, seats, cards_held, inferred, rules
        )
        chosen[seat] = opt_uid[i]
        chosen_discard[seat] = opt_discard[i] != 0


@njit(cache=True)
def _reveal(st, deck, cards_held, rules, outputs, chosen, chosen_discard, turn_speed):
    """The speed cards are revealed: discards go at once, the others are put in play. Returns
    the snails that play one, highest number first."""
    hands, hand_len = cards_held[HELD_HANDS], cards_held[HELD_HAND_LEN]
    played, counts = outputs[OUTPUT_PLAYED], outputs[OUTPUT_COUNTS]
    plays = np.empty(hand_len.size, dtype=np.int64)
    n_plays = 0
    for seat in range(hand_len.size):
        uid = chosen[seat]
        if uid < 0:
            continue
        nh = hand_len[seat]
        for i in range(nh):
            if hands[seat, i] == uid:
                for j in range(i, nh - 1):
                    hands[seat, j] = hands[seat, j + 1]
                hand_len[seat] = nh - 1
                break
        if chosen_discard[seat] or deck[DECK_KIND][uid] != SPEED:
            _discard(uid, deck, cards_held, rules, outputs)
            _event(outputs, EV_DISCARD, seat, uid, OUT_SPEED_PHASE, 0)
            continue
        played[counts[N_PLAYED]] = uid
        counts[N_PLAYED] += 1
        turn_speed[seat] = deck[DECK_NUMBER][uid]
        j = n_plays  # a stable insertion, highest number first
        while j > 0 and turn_speed[plays[j - 1]] < turn_speed[seat]:
            plays[j] = plays[j - 1]
            j -= 1
        plays[j] = seat
        n_plays += 1
    return plays[:n_plays]


@njit(cache=True)
def _later(turn_speed, s, mine, squares_of):
    """The snails that move after ``s`` this turn (slower numbers revealed), fastest first,
    and the squares of their cards."""
    later = np.empty(turn_speed.size, dtype=np.int64)
    n = 0
    for o in range(turn_speed.size):
        if 0 < turn_speed[o] < mine and o != s:
            j = n
            while j > 0 and turn_speed[later[j - 1]] < turn_speed[o]:
                later[j] = later[j - 1]
                j -= 1
            later[j] = o
            n += 1
    squares = np.empty(n, dtype=np.int64)
    for k in range(n):
        number = turn_speed[later[k]]
        squares[k] = squares_of[number] if number < squares_of.size else 1
    return later[:n], squares


@njit(cache=True)
def _end_choice(st, w, s, uid, options, turn_speed, deck, seats, cards_held, inferred, rules):
    """The end a tactician's speed move takes, as its ``speed_move``."""
    seat = get(st, OWNER, s)
    vst = _public(st)
    _start(vst, w, seat, deck, seats, cards_held, inferred, rules)
    later, later_squares = _later(turn_speed, s, deck[DECK_NUMBER][uid], deck[DECK_SQUARES_OF])
    hands, nh = cards_held[HELD_HANDS], cards_held[HELD_HAND_LEN][seat]
    n, n_later = options.size, later.size
    ints = np.empty(4 + nh + n + 2 * n_later, dtype=np.int64)
    ints[0], ints[1], ints[2], ints[3] = nh, n, n_later, n_later
    for k in range(nh):
        ints[4 + k] = deck[DECK_TYPE][hands[seat, k]]
    ints[4 + nh : 4 + nh + n] = options
    ints[4 + nh + n : 4 + nh + n + n_later] = later
    ints[4 + nh + n + n_later :] = later_squares
    out = np.empty(2 * ints.size)
    m = plan(PLAN_ENDS, vst, w, seats[SEAT_CARDS][seat], seats[SEAT_X][seat], seats[SEAT_WORTHS][seat], s, ints, out)
    return _pick(out[:m], seats[SEAT_DICE], seats[SEAT_DICE_AT], seat)


@njit(cache=True)
def _speed_move(st, w, s, uid, turn_speed, deck, seats, cards_held, inferred, rules, outputs):
    """The move of snail ``s``'s speed card ``uid`` (its events row written)."""
    row = _event(outputs, EV_SPEED, s, uid, OUT_VOID, 0)
    events = outputs[OUTPUT_EVENTS]
    if get(st, STATUS, s) != RUNNING:
        return
    squares = deck[DECK_SQUARES][uid]
    ends = speed_ends(st, w, s, squares, _ALL)
    n = ends.size + (1 if rules[RULE_SACRIFICE] and squares >= 2 else 0)
    if n == 0:
        events[row, 3] = OUT_BLOCKED
        return
    options = np.empty(n, dtype=np.int64)
    options[: ends.size] = ends
    if n > ends.size:
        options[ends.size] = SACRIFICE
    target = options[
        _end_choice(st, w, s, uid, options, turn_speed, deck, seats, cards_held, inferred, rules) if n > 1 else 0
    ]
    if target == SACRIFICE:
        put(
            st,
            SHELLS,
            s,
            get(st, SHELLS, s) + min(rules[RULE_SACRIFICE_GAIN], get(st, MAX_SHELLS, s) - get(st, SHELLS, s)),
        )
        events[row, 3] = OUT_SACRIFICE
        return
    before = steps_to_finish(st, w, s)
    enter(st, w, s, target)
    if get(st, STATUS, s) == FINISHED:
        events[row, 3] = OUT_FINISHED
        seat = get(st, OWNER, s)
        hands, hand_len = cards_held[HELD_HANDS], cards_held[HELD_HAND_LEN]
        for k in range(hand_len[seat]):  # the snail is done: its player drops its hand
            _discard(hands[seat, k], deck, cards_held, rules, outputs)
            _event(outputs, EV_DROP, s, hands[seat, k], OUT_FINISHED, 0)
        hand_len[seat] = 0
        return
    events[row, 3] = OUT_MOVED
    events[row, 4] = before - steps_to_finish(st, w, s)


@njit(cache=True)
def run(st, w, deck, seats, cards_held, inferred, rules, turn_speed, outputs, actions, action_chosen, action_discard):
    """The speed phase (see the module docstring for the arrays): the cards chosen, revealed,
    and the moves from the highest number down; then, with ``actions``, the action cards
    chosen (:func:`choose` ``ACTION_CARD`` into ``action_chosen``, ``action_discard``), as the
    action phase that follows would."""
    fresh(seats, outputs)
    n_seats = turn_speed.size
    chosen = np.empty(n_seats, dtype=np.int64)
    chosen_discard = np.zeros(n_seats, dtype=np.bool_)
    choose(SPEED_CARD, st, w, deck, seats, cards_held, inferred, rules, chosen, chosen_discard)
    for s in _reveal(st, deck, cards_held, rules, outputs, chosen, chosen_discard, turn_speed):
        _speed_move(st, w, s, chosen[s], turn_speed, deck, seats, cards_held, inferred, rules, outputs)
    if actions:
        choose(ACTION_CARD, st, w, deck, seats, cards_held, inferred, rules, action_chosen, action_discard)
