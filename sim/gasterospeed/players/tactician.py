"""The ``tactician``: scores every option in squares from what it can infer, and plans the turn.

A speed card and the square where its move ends are scored together with the best action its
hand then allows from there (a clear lane for a straight move, a square behind a snail for an
Aspiration, ...; :meth:`~sim.gasterospeed.players.evaluation.Evaluator.plan_ends`); moving last
(slowest card among equals, ``plan_slow_bias``) lets it see where the others went before it
moves, but it plays its fastest when it can cross the line. It predicts the moves of the
slower snails from their revealed cards, shoots or dominoes the snails that matter most
weighing the counters they may hold, keeps its reactions for losses and jostles that matter (a
counter must save more, in squares, than the card is worth kept: ``react_keep*``), and commits
reserve shells by circuit danger (``commit_*``). Its numbers are the profile's keys; its
evaluation is :mod:`.evaluation`, its inferences :mod:`.inference`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules.board import RUNNING
from ..rules.cards import REACTION, SPEED, Dice
from ..rules.view import NO_REACTION, CardOption, MoveOption, View
from .choice import Chooser
from .evaluation import Evaluator
from .inference import SENDS_BACK, counter_chances

if TYPE_CHECKING:
    from .profile import GasterospeedProfile

__all__ = ["TacticianPolicy"]


def _in_hand(view: View, options: list[CardOption]) -> tuple[list[int], list[int]]:
    """The card options as the look-ahead reads them: each option's index in the hand, and 1
    for a discard (0 for a card played)."""
    where = view.hand.index
    return [where(u) for u, _ in options], [1 if discard else 0 for _, discard in options]


class TacticianPolicy(Chooser):
    """Scores options in squares from what it can infer; see the module docstring."""

    def __init__(self, profile: GasterospeedProfile, dice: Dice):
        super().__init__(profile, dice)
        self.eval = Evaluator(profile)
        self._squares: dict[int, dict[int, int]] = {}

    def place(self, view: View, s: int, slots: list[int]) -> int:
        """The slot nearest the finish, preferring room around it and open squares ahead."""
        p = self.profile
        c = view.board.c
        scores = []
        others = [q for q in view.board.pos.tolist() if q >= 0]
        for cell in slots:
            r, col = divmod(cell, c.width)
            gap = min((max(abs(r - o // c.width), abs(col - o % c.width)) for o in others), default=p.place_gap_cap)
            f = c.front[cell]
            open_ahead = sum(
                1 for k in (-1, 0, 1) if c.nb[cell][(f + k) % 8] >= 0 and c.dist[c.nb[cell][(f + k) % 8]] < c.dist[cell]
            )
            scores.append(-c.dist[cell] + p.place_gap * min(gap, p.place_gap_cap) + p.place_open * open_ahead)
        return self.pick(scores)

    def _start(self, view: View, hand=()) -> None:
        """Start the decision (the counters inferred when ``hand`` holds an attack)."""
        self.eval.start(view, bool(hand) and self.eval.needs_counters(view.deck, hand))

    def speed_card(self, view: View, s: int, options: list[CardOption]) -> int:
        """The speed card (and the end of its move) with the best plan for the turn. A discard
        is weighed only when no speed move it can make ends as near the finish as it stands
        (its plans see the board before the faster snails move, so they undervalue crowded
        squares ahead); it is scored as staying put with the action plan of the hand without
        that card."""
        self._start(view, view.hand)
        kept, scores = self.eval.speed_card(
            view.board, view.deck, s, view.hand, *_in_hand(view, options), [view.deck.number[u] for u, _ in options]
        )
        return kept[self.pick(scores)]

    def _squares_of(self, deck) -> dict[int, int]:
        """Speed number → squares of that speed card (revealed cards tell the others' moves)."""
        table = self._squares.get(id(deck))
        if table is None:
            table = {deck.number[u]: deck.squares[u] for u in range(len(deck)) if deck.kind[u] == SPEED}
            self._squares[id(deck)] = table
        return table

    def speed_move(self, view: View, s: int, uid: int, ends: list[int]) -> int:
        """The end with the best plan, once the slower snails have made their likeliest move."""
        self._start(view, view.hand)
        mine = view.deck.number[uid]
        squares = self._squares_of(view.deck)
        later = sorted(
            ((o, n) for o, n in enumerate(view.revealed_speed) if 0 < n < mine and o != s), key=lambda x: -x[1]
        )
        later = [(o, squares.get(n, 1)) for o, n in later]
        return self.pick(self.eval.plan_ends(view.board, view.deck, s, ends, view.hand, later))

    def action_card(self, view: View, s: int, options: list[CardOption]) -> int:
        """The card with the best expected value change, its leaving the hand counted."""
        self._start(view, view.hand)
        return self.pick(self.eval.action_card(view.board, view.deck, s, view.hand, *_in_hand(view, options)))

    def move_choice(self, view: View, s: int, uid: int, options: list[MoveOption]) -> int:
        self._start(view)
        return self.pick([self.eval.value(after) for _, after in options])

    def target(self, view: View, s: int, uid: int, targets: list[int]) -> int:
        self.eval.start(view, True)
        base = self.eval.value(view.board)
        return self.pick([self.eval.shot_value(view.board, s, t, base) for t in targets])

    def react(self, view: View, s: int, source: int | None, cause: str, options: list[int]) -> int:
        """Counter when what the counter saves (the shell's value, or for a jostle the value of
        the board without the push, or with the mover pushed back) exceeds the worth of keeping
        the card; sending a loss back adds the expected value of the other's loss."""
        self._start(view)
        p, ev, board, deck = self.profile, self.eval, view.board, view.deck
        never = self.forbid
        n_reactions = sum(1 for u in view.hand if deck.kind[u] == REACTION and not (never and deck.cid[u] in never))
        near_end = board.c.dist[board.pos[s]] <= p.react_near_end
        keep = p.react_keep_near_end if near_end else (p.react_keep_last if n_reactions == 1 else p.react_keep)
        if cause == "jostle":
            taken = ev.value(view.stakes["none"])
            return self.pick(
                [0.0] + [ev.value(view.stakes[deck.cards[u].counter("jostle")]) - taken - keep for u in options[1:]]
            )
        situation = cause if cause in ("shot", "domino") else "loss"
        base = ev.value(board)
        loss = -ev.loss_delta(board, s, base)
        scores = []
        for uid in options:
            if uid == NO_REACTION:
                scores.append(0.0)
                continue
            score = loss - keep
            if (
                deck.cards[uid].counter(situation) in SENDS_BACK
                and source is not None
                and board.status[source] == RUNNING
            ):
                p_cancel, p_reflect = counter_chances(view, situation)[board.owner[source]]
                score += (1 - p_cancel - p_reflect) * ev.loss_delta(board, source, base)
            scores.append(score)
        return self.pick(scores)

    def draw_piles(self, view: View, n: int) -> list[int]:
        """Free draws: a speed card for each snail first, then speed cards while the hand holds
        fewer than ``draw_speed_squares`` squares of speed per snail (at most one speed card
        more than half the hand), action cards otherwise. Cards drawn later in the same refill
        are unknown and counted as one-square cards; one card at a time it sees what it drew,
        so the "radis salé" variant (all piles chosen before drawing) changes its choices."""
        deck = view.deck
        speed = [u for u in view.hand if deck.kind[u] == SPEED]
        n_speed = len(speed)
        squares = sum(deck.squares[u] for u in speed)
        snails = len(view.snails)
        most = self._speed_target(view) + 1
        out = []
        for _ in range(n):
            want = n_speed < snails or (squares < self.profile.draw_speed_squares * snails and n_speed < most)
            out.append(0 if want else 1)
            n_speed += want
            squares += want
        return out

    def discard(self, view: View, n: int) -> list[int]:
        """The cards worth least in hand."""
        self.eval.snails = len(view.snails)
        deck = view.deck
        order = sorted(range(len(view.hand)), key=lambda i: (self.eval.worth(deck, view.hand[i], view.hand), i))
        return order[:n]

    def commit(self, view: View, reserve: int, low: int, high: int) -> int:
        """Shells by circuit danger: more where shots hit often, obstacles hurt and the race is
        long; at least one shell kept for each race still to come."""
        p = self.profile

        def danger(c) -> float:
            return (
                p.commit_danger_base
                + p.commit_danger_shots * len(c.shot_hits) / c.die
                + p.commit_danger_obstacles * c.obstacle_damage
                + c.start_distance / p.commit_length_steps
            )

        upcoming = list(view.upcoming) or [view.circuit]
        races = max(1, view.races_left)
        total = sum(danger(c) for c in upcoming) * races / len(upcoming)
        share = reserve * danger(view.circuit) / total if total > 0 else reserve / races
        return max(low, min(high, reserve - (races - 1), round(share)))
