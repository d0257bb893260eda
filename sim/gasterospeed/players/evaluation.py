"""The tactician's evaluation of boards and hands, one decision at a time: the bridge between its
decisions (:mod:`.tactician`) and the compiled look-ahead (:mod:`.kernels.lookahead`,
:mod:`.kernels.value`).

:meth:`Evaluator.start` fixes what a decision compares its options with (the opponents'
weights anchored on the board as it stands, the hand discount, the inferred pushes and
counters) in the context array the kernels read; the other methods score boards, hands, speed
moves, cards, shots and losses in squares.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..rules.board import Board
from ..rules.cards import SPEED, Deck
from ..rules.kernels.layout import CARDS_HEAD, T_KIND, TYPE_COLUMNS
from ..rules.view import View
from .inference import DiscardCount, card_worth, counter_rows, jostle_array, unseen_cards
from .kernels import lookahead as _look
from .kernels import value as _value
from .kernels.value import (
    CONTEXT_HEAD,
    TACTICIAN,
    X_ARRIVAL_STEP,
    X_BLOCKING,
    X_CAP_AHEAD,
    X_COUNTER,
    X_FAR_SHARE,
    X_FINISH_RACE,
    X_FINISHED,
    X_KO_DISTANCE,
    X_LAMBDA,
    X_LAST_SPEED,
    X_MODE,
    X_N_SEATS,
    X_NEAR,
    X_NO_MOVE,
    X_PLAN_ENDS,
    X_PUSH,
    X_SHELL1,
    X_SHELL2,
    X_SLOW_BIAS,
    X_SM_KO,
    X_SM_LOSS,
    X_SM_PROGRESS,
    X_TAIL,
    X_THREAT,
    X_THREAT_DISTANCE,
    X_UNPLANNED,
    X_URGENCY,
    X_WEIGHTS,
    context_size,
)

if TYPE_CHECKING:
    from .profile import GasterospeedProfile

__all__ = ["Evaluator", "seat_cards"]

#: zero lengths of the int sequences not given to the look-ahead (see ``Evaluator._plan``), by how many are
_PAD = ((0, 0, 0), (0, 0), (0,), ())


def profile_context(p: GasterospeedProfile, n_snails: int, n_seats: int) -> np.ndarray:
    """A context array with the profile's numbers (the per-decision entries still zero)."""
    x = np.zeros(context_size(n_snails, n_seats))
    x[X_MODE] = TACTICIAN
    x[X_N_SEATS] = n_seats
    x[X_TAIL] = p.value_tailwind
    x[X_SHELL1], x[X_SHELL2] = p.value_one_shell, p.value_two_shells
    x[X_FINISHED], x[X_ARRIVAL_STEP], x[X_KO_DISTANCE] = p.value_finished, p.value_arrival_step, p.value_ko_distance
    x[X_SM_LOSS], x[X_SM_KO], x[X_SM_PROGRESS] = p.value_shell_lost, p.value_shell_ko, p.value_shell_progress
    x[X_LAMBDA] = p.value_opponent_weight * p.aggression
    x[X_NEAR], x[X_FAR_SHARE], x[X_CAP_AHEAD] = p.value_near, p.value_far_share, p.value_opponent_cap
    x[X_THREAT_DISTANCE] = p.plan_threat_distance
    x[X_PLAN_ENDS], x[X_UNPLANNED], x[X_BLOCKING] = p.plan_ends, p.plan_unplanned, p.plan_blocking
    x[X_FINISH_RACE], x[X_URGENCY] = p.plan_finish_race, p.shot_counter_share
    x[X_LAST_SPEED], x[X_NO_MOVE], x[X_SLOW_BIAS] = p.worth_last_speed, p.plan_no_move, p.plan_slow_bias
    x[X_WEIGHTS] = CONTEXT_HEAD
    x[X_PUSH] = CONTEXT_HEAD + n_snails
    x[X_COUNTER] = CONTEXT_HEAD + n_snails + 4 * n_seats
    return x


def seat_cards(deck: Deck, forbid: frozenset[str]) -> np.ndarray:
    """The cards array a player's look-ahead reads: the deck's (``deck.table`` itself when
    ``forbid`` is empty), or a copy in which the entries ``forbid`` lists have the kind
    :data:`~.kernels.lookahead.FORBIDDEN` (kept or discarded, never planned)."""
    if not forbid:
        return deck.table
    table = deck.table.copy()
    for t, cid in enumerate(deck.ids):
        if cid in forbid:
            table[CARDS_HEAD + TYPE_COLUMNS * t + T_KIND] = _look.FORBIDDEN
    return table


class Evaluator:
    """The tactician's evaluation state for the decision under way (see the module docstring).

    Attributes:
        x: the context array of the kernels; disc: the weight of a card's worth in hand now
        (``hand_discount``, less near the finish); snails: the seat's snails (for the worth of
        its last speed cards); forbid: the deck entries it never plays (worth 0 in hand, never
        planned: :func:`seat_cards`).
    """

    def __init__(self, profile: GasterospeedProfile):
        self.p = profile
        self.x = np.zeros(0)
        self._shape: tuple[int, int] = (-1, -1)
        self.disc = profile.hand_discount
        self._hand_discount, self._hand_horizon = float(profile.hand_discount), float(profile.hand_horizon)
        self.snails = 1
        self.forbid = frozenset(profile.forbid)
        self._cards_deck: Deck | None = None
        self._cards = np.zeros(0, dtype=np.int64)
        self._worth_deck: Deck | None = None
        self._worths: list[float] = []
        self._worth_array = np.zeros(0)
        self._mean: float | None = None
        self._facts_deck: Deck | None = None
        self._facts: tuple = ()
        self._push_key: tuple = ()
        self._counter_key: tuple = ()
        self._seen_view: View | None = None
        self._seen_counts = np.zeros(0, dtype=np.int64)
        self._discards = DiscardCount()
        self._sizes: tuple[int, ...] = ()
        self._sizes_array = np.zeros(0, dtype=np.int64)
        self._plan_out = np.zeros(0)

    # -- the decision's context ----------------------------------------------------------------
    def start(self, view: View, counters: bool = False) -> None:
        """Anchor the decision on ``view``: its board fixes the opponents' weights (those ahead
        of or close to its best snail count fully), the hand discount, the threat; with
        ``counters``, also the chances each seat holds a counter against a shot and a domino
        (needed by the evaluation of shots and dominoes). The inferred pushes are counted again
        only when the discard or draw piles changed since the last decision; the counters also
        when the hands did (within a turn the discard pile only grows, so its size and last card
        tell it). Both are inferred in one call of :func:`~.kernels.value.infer`. The keys are
        flat tuples of ints: the compiled phases of :mod:`.tactician_phases` read and write the
        same ones."""
        p, board = self.p, view.board
        self.fit(board.n, len(view.hand_sizes))
        config = view.config
        self.snails = len(view.snails)
        self.disc = _value.begin(
            board.state,
            board.world,
            self.x,
            view.seat,
            float(config.shell_championship),
            float(config.sacrifice_gain),
            self._hand_discount,
            self._hand_horizon,
            self.snails,
            self.mean_worth(view.deck),
        )
        pushes = chances = False
        discard = view.discard
        if p.value_tailwind:
            key = (view.race_no, view.turn, len(discard), *view.draw_sizes)
            if key != self._push_key:
                self._push_key = key
                pushes = True
        if counters:
            key = (
                view.race_no,
                view.turn,
                len(discard),
                discard[-1] if discard else -1,
                *view.draw_sizes,
                view.seat,
                len(view.hand),
                *view.hand,
                *view.hand_sizes,
            )
            if key != self._counter_key:
                self._counter_key = key
                chances = True
        if pushes or chances:
            self._infer(view, pushes, chances)

    def fit(self, n_snails: int, n_seats: int) -> None:
        """A fresh context array (and no inference kept) when the race has another number of
        snails or seats than the last decision's."""
        if self._shape != (n_snails, n_seats):
            self._shape = (n_snails, n_seats)
            self.x = profile_context(self.p, n_snails, n_seats)
            self._push_key = self._counter_key = ()

    def _infer(self, view: View, pushes: bool, chances: bool) -> None:
        """The expected pushes of each seat (``pushes``) and its chances of holding counters
        (``chances``) into the context (see :func:`~.kernels.value.infer`)."""
        jostling, counters = self._deck_facts(view.deck)
        sizes = view.hand_sizes
        if sizes != self._sizes:
            self._sizes, self._sizes_array = sizes, np.array(sizes, dtype=np.int64)
        _value.infer(
            self.x,
            self._seen(view),
            jostling,
            counters,
            unseen_cards(view),
            self._sizes_array,
            view.seat,
            pushes,
            chances,
        )

    def _deck_facts(self, deck: Deck) -> tuple[np.ndarray, np.ndarray]:
        """What the inferences need of ``deck``: its jostlers (:func:`~.inference.jostle_array`)
        and its counters against shots and dominoes (:func:`~.inference.counter_rows`)."""
        if self._facts_deck is not deck:
            self._facts_deck = deck
            self._facts = (jostle_array(deck), counter_rows(deck, ("shot", "domino")))
        return self._facts

    def _seen(self, view: View) -> np.ndarray:
        """:func:`~.inference.seen_by_type` of ``view`` (an int64 array), counted once per view;
        the discard pile is counted from its count at the last view when it has only grown since."""
        if view is self._seen_view:
            return self._seen_counts
        type_of = view.deck.type_of
        seen = list(self._discards.count(view.discard, view.deck))
        for u in view.hand:
            seen[type_of[u]] += 1
        self._seen_view, self._seen_counts = view, np.array(seen, dtype=np.int64)
        return self._seen_counts

    def needs_counters(self, deck: Deck, hand: Sequence[int]) -> bool:
        """Whether the hand holds a card whose play value weighs counters (a shot, a domino)."""
        attacks = deck.uid_attacks
        for u in hand:
            if attacks[u]:
                return True
        return False

    @property
    def threat(self) -> int:
        """Opponents near the finish (``plan_threat_distance``) when the decision began."""
        return int(self.x[X_THREAT])

    # -- scores -------------------------------------------------------------------------------
    def value(self, board: Board) -> float:
        """The seat's standing on ``board``, in squares."""
        return float(_value.value(board.state, board.world, self.x))

    def worth(self, deck: Deck, uid: int, hand: Sequence[int], keep_last_speed: bool = True) -> float:
        """Worth of keeping ``uid`` in ``hand`` (the last speed cards are kept at all costs,
        unless ``keep_last_speed`` is off: in the speed phase, where playing it is its use)."""
        if keep_last_speed and deck.kind[uid] == SPEED:
            n_speed = sum(1 for u in hand if deck.kind[u] == SPEED)
            if n_speed <= self.snails:
                return self.p.worth_last_speed
        return self._type_worths(deck)[deck.type_of[uid]]

    def _card_worth(self, info) -> float:
        """:func:`~.inference.card_worth`; 0 for a card it never plays (``forbid``)."""
        return 0.0 if info.cid in self.forbid else card_worth(info, self.p)

    def _type_worths(self, deck: Deck) -> list[float]:
        """:meth:`_card_worth` of every deck entry (the cards of an entry are worth the same)."""
        if self._worth_deck is not deck:
            self._worth_deck, self._worths = deck, [self._card_worth(info) for info in deck.types]
            self._worth_array = np.array(self._worths)
        return self._worths

    def mean_worth(self, deck: Deck) -> float:
        """Expected worth of a fresh card from the deck."""
        if self._mean is None:
            self._mean = sum(self._card_worth(c) for c in deck.cards) / max(1, len(deck.cards))
        return self._mean

    def cards(self, deck: Deck) -> np.ndarray:
        """The cards array its look-ahead reads (:func:`seat_cards`, built once per deck)."""
        if self._cards_deck is not deck:
            self._cards_deck, self._cards = deck, seat_cards(deck, self.forbid)
        return self._cards

    def _plan(
        self, op: int, board: Board, deck: Deck, s: int, hand: Sequence[int], *parts: Sequence[int]
    ) -> list[float]:
        """Run the look-ahead ``op`` (see :func:`~sim.gasterospeed.players.kernels.lookahead.plan`) with
        ``hand`` (uids) and the int sequences ``parts``; its result as a list."""
        if self._worth_deck is not deck:
            self._type_worths(deck)
        ints = [len(hand), *map(len, parts), *_PAD[len(parts)], *map(deck.type_of.__getitem__, hand)]
        for q in parts:
            ints += q
        out = self._plan_out
        if out.size < 2 * len(ints):
            out = self._plan_out = np.empty(2 * len(ints))
        n = _look.plan(
            op,
            board.state,
            board.world,
            self.cards(deck),
            self.x,
            self._worth_array,
            s,
            np.array(ints, dtype=np.int64),
            out,
        )
        return out[:n].tolist()

    def plan_ends(
        self,
        board: Board,
        deck: Deck,
        s: int,
        ends: Sequence[int],
        hand: Sequence[int],
        later: Sequence[tuple[int, int]] = (),
    ) -> list[float]:
        """Score of each end of a speed move of ``s`` (see
        :func:`~sim.gasterospeed.players.kernels.lookahead.plan_ends`); ``later``: (snail, squares) of
        the snails moving after it."""
        return self._plan(
            _look.PLAN_ENDS, board, deck, s, hand, list(ends), [o for o, _ in later], [q for _, q in later]
        )

    def speed_card(
        self,
        board: Board,
        deck: Deck,
        s: int,
        hand: Sequence[int],
        at: Sequence[int],
        discard: Sequence[int],
        numbers: Sequence[int],
    ) -> tuple[list[int], list[float]]:
        """The options weighed among a speed-card decision's and their scores (see
        :func:`~sim.gasterospeed.players.kernels.lookahead.speed_card`; per option its index in
        ``hand``, 1 for a discard, its speed number)."""
        out = self._plan(_look.SPEED_CARD, board, deck, s, hand, at, discard, numbers)
        k = len(out) // 2
        return [int(i) for i in out[:k]], out[k:]

    def action_card(
        self, board: Board, deck: Deck, s: int, hand: Sequence[int], at: Sequence[int], discard: Sequence[int]
    ) -> list[float]:
        """The score of each action-card option (see
        :func:`~sim.gasterospeed.players.kernels.lookahead.action_card`; per option its index in
        ``hand``, 1 for a discard)."""
        return self._plan(_look.ACTION_CARD, board, deck, s, hand, at, discard)

    def shot_value(self, board: Board, s: int, t: int, base: float) -> float:
        """Expected change of value if ``s`` shoots ``t`` (counters filled first)."""
        return float(_look.shot_value(board.state, board.world, self.x, s, t, base))

    def loss_delta(self, board: Board, t: int, base: float) -> float:
        """Change of value if snail ``t`` loses one shell."""
        return float(_look.loss_delta(board.state, board.world, self.x, t, base))
