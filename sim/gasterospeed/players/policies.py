"""Simulated players: ``random``, ``greedy``, ``tactician`` and a temperature between them.

A policy (:class:`Policy`) answers the race engine's questions, each with the
:class:`~sim.gasterospeed.rules.view.View` of its seat (public information and its own hand only)
and a list of legal options, by returning the index of its choice (or, for ``draw_piles`` and
``discard``, a list).

* ``random`` (:class:`RandomPolicy`): uniform over the legal options.
* ``greedy`` (:mod:`.greedy`): the option that leaves its own snail closest to the finish now
  (ties at random; a discard instead of a speed move only when every move would leave it
  farther); it counters a loss only when it has ``greedy_counter_at`` shells or fewer, and a
  jostle only when it would push it farther from the finish.
* ``tactician`` (:mod:`.tactician`): scores every option in "squares" (one square of progress
  = 1): its own distance, opponents' distances (jostles, KOs), shell safety, hand quality. It
  plans the turn (a speed card and the end of its move are chosen with the best action they
  then allow), plays its slowest card among equals so that it moves last but its fastest when
  it can cross the line, predicts the moves of the slower snails from their revealed cards,
  likes to stand straight in front of opponents whose jostling cards would push it ahead,
  shoots or dominoes the snails that matter most weighing the reactions it can infer they
  hold, keeps its reactions for losses and jostles that matter, and commits reserve shells by
  circuit danger.
* ``temperature`` T > 0 (greedy or tactician) samples ``softmax(score / T)`` instead of taking
  the best: T = 0 plays its best, large T approaches uniform play over the same options.
* ``forbid`` (every policy; :attr:`~sim.gasterospeed.rules.view.Policy.forbid`): the cards it
  never plays are offered to it as discards only and never as counters; the tactician's
  look-ahead never plans them and counts them worth nothing in hand.

Every number of these strategies is a key of :class:`GasterospeedProfile` (``value_*``: the
tactician's value of a board; ``worth_*`` and ``hand_*``: what a card in hand is worth;
``plan_*``: its look-ahead; ``react_*``, ``place_*``, ``draw_*``, ``commit_*``: the other
decisions; ``greedy_*``: the greedy player), so presets differ in style and a tuner or a
calibration can reach them. Randomness comes only from the seat's own
:class:`~sim.gasterospeed.rules.cards.Dice`.
"""

from __future__ import annotations

from ..rules.cards import Dice
from ..rules.view import CardOption, MoveOption, Policy, View
from .choice import Chooser
from .greedy import GreedyPolicy
from .profile import GasterospeedProfile
from .tactician import TacticianPolicy

__all__ = [
    "GasterospeedProfile",
    "Policy",
    "make_policy",
    "RandomPolicy",
    "GreedyPolicy",
    "TacticianPolicy",
    "POLICIES",
]


class RandomPolicy(Chooser):
    """Uniform over the legal options of every decision."""

    wants_board = False

    def place(self, view: View, s: int, slots: list[int]) -> int:
        return self.dice.index(len(slots))

    def commit(self, view: View, reserve: int, low: int, high: int) -> int:
        return low + self.dice.index(high - low + 1)

    def speed_card(self, view: View, s: int, options: list[CardOption]) -> int:
        return self.dice.index(len(options))

    def speed_move(self, view: View, s: int, uid: int, ends: list[int]) -> int:
        return self.dice.index(len(ends))

    def action_card(self, view: View, s: int, options: list[CardOption]) -> int:
        return self.dice.index(len(options))

    def move_choice(self, view: View, s: int, uid: int, options: list[MoveOption]) -> int:
        return self.dice.index(len(options))

    def target(self, view: View, s: int, uid: int, targets: list[int]) -> int:
        return self.dice.index(len(targets))

    def react(self, view: View, s: int, source: int | None, cause: str, options: list[int]) -> int:
        return self.dice.index(len(options))

    def draw_piles(self, view: View, n: int) -> list[int]:
        return [self.dice.index(2) for _ in range(n)]

    def discard(self, view: View, n: int) -> list[int]:
        order = list(range(len(view.hand)))
        self.dice.shuffle(order)
        return order[:n]


#: policy name → class
POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy, "tactician": TacticianPolicy}


def make_policy(profile: GasterospeedProfile, dice: Dice) -> Policy:
    """The policy object of a profile, drawing from the seat's ``dice``."""
    return POLICIES[profile.policy](profile, dice)
