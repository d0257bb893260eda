"""The ``greedy`` player: the option that leaves its own snail closest to the finish now.

Ties at random; a discard instead of a speed move only when every move would leave it farther;
an action card scored by its expected distance after its moves (:func:`~sim.gasterospeed.
kernels.lookahead.expected_distance`); it counters a loss only with ``greedy_counter_at``
shells or fewer, and a jostle only when the push would leave it farther from the finish.
"""

from __future__ import annotations

import numpy as np

from ..rules.board import FINISHED, RUNNING, Board
from ..rules.view import SACRIFICE, CardOption, MoveOption, View
from .choice import Chooser
from .kernels import lookahead as _look
from .kernels.value import CONTEXT_HEAD, GREEDY, X_MODE, X_SNAIL

__all__ = ["GreedyPolicy"]


class GreedyPolicy(Chooser):
    """Best own distance to the finish now (see the module docstring)."""

    @staticmethod
    def _dist(board: Board, s: int) -> float:
        st = board.status[s]
        if st == RUNNING:
            return board.c.dist[board.pos[s]]
        return -1.0 if st == FINISHED else 1e6

    def place(self, view: View, s: int, slots: list[int]) -> int:
        dist = view.circuit.dist
        return self.pick([-dist[c] for c in slots])

    def speed_card(self, view: View, s: int, options: list[CardOption]) -> int:
        """The card whose move ends nearest the finish; a discard (which card: at random) only
        when every move would leave the snail farther than it is."""
        board, deck = view.board, view.deck
        dist = board.c.dist
        here = dist[board.pos[s]]
        best_by_squares: dict[int, float] = {}
        plays, discards = [], []
        for i, (u, discard) in enumerate(options):
            if discard:
                discards.append(i)
                continue
            sq = deck.squares[u]
            if sq not in best_by_squares:
                ends = board.speed_ends(s, sq)
                best_by_squares[sq] = min((dist[e] for e in ends), default=here)
            plays.append((i, -best_by_squares[sq]))
        if discards and max(score for _, score in plays) < -here:
            return discards[self.dice.index(len(discards))]
        return plays[self.pick([score for _, score in plays])][0]

    def speed_move(self, view: View, s: int, uid: int, ends: list[int]) -> int:
        dist = view.board.c.dist
        here = dist[view.board.pos[s]]
        return self.pick([-(here if e == SACRIFICE else dist[e]) for e in ends])

    def action_card(self, view: View, s: int, options: list[CardOption]) -> int:
        board, deck = view.board, view.deck
        here = self._dist(board, s)
        x = np.zeros(CONTEXT_HEAD)
        x[X_MODE], x[X_SNAIL] = GREEDY, s
        cache: dict[str, float] = {}
        scores = []
        for uid, discard in options:
            if discard:
                scores.append(-here)
                continue
            cid = deck.cid[uid]
            if cid not in cache:
                cache[cid] = -float(
                    _look.expected_distance(board.state, board.world, deck.table, x, s, deck.type_of[uid])
                )
            scores.append(cache[cid])
        return self.pick(scores)

    def move_choice(self, view: View, s: int, uid: int, options: list[MoveOption]) -> int:
        return self.pick([-self._dist(after, s) for _, after in options])

    def target(self, view: View, s: int, uid: int, targets: list[int]) -> int:
        return self.dice.index(len(targets))

    def react(self, view: View, s: int, source: int | None, cause: str, options: list[int]) -> int:
        """A loss: counter only with ``greedy_counter_at`` shells or fewer. A jostle: counter
        only when the push would leave it farther from the finish (the counter that leaves it
        nearest)."""
        if cause == "jostle":
            stakes = view.stakes
            deck = view.deck
            taken = self._dist(stakes["none"], s)
            scores = [-taken] + [-self._dist(stakes[deck.cards[u].counter("jostle")], s) for u in options[1:]]
            if max(scores[1:]) <= -taken:
                return 0
            return 1 + self.pick(scores[1:])
        if view.board.shells[s] <= self.profile.greedy_counter_at:
            return 1 + self.dice.index(len(options) - 1)
        return 0

    def discard(self, view: View, n: int) -> list[int]:
        order = list(range(len(view.hand)))
        self.dice.shuffle(order)
        return order[:n]
