"""What every simulated player shares: its profile and dice, the pick among scored options
(the best, ties at random; or a softmax sample at a temperature), and the default free draws
and reserve commitments."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..rules.cards import SPEED, Dice
from ..rules.view import View

if TYPE_CHECKING:
    from .profile import GasterospeedProfile

__all__ = ["Chooser"]

#: scores this close to the best are equal (ties broken at random; the compiled phases of a
#: table of tacticians read it too)
TIE = 1e-9


class Chooser:
    """Base of the policies: ``profile``, ``dice``, the cards it never plays (``forbid``) and how
    a scored option is picked."""

    wants_board = True

    def __init__(self, profile: GasterospeedProfile, dice: Dice):
        self.profile = profile
        self.dice = dice
        self.temperature = profile.temperature
        #: deck entry ids it never plays (the engine offers them as discards only: Policy.forbid)
        self.forbid = frozenset(profile.forbid)

    def pick(self, scores: list[float]) -> int:
        """The best score (ties at random), or with a temperature T > 0 an index drawn with
        weights ``exp((score - best) / T)``."""
        if len(scores) == 1:
            return 0
        if self.temperature > 0:
            top = max(scores)
            weights = [math.exp((x - top) / self.temperature) for x in scores]
            r = self.dice.u() * sum(weights)
            for i, w in enumerate(weights):
                r -= w
                if r < 0:
                    return i
            return len(scores) - 1
        floor = max(scores) - TIE
        best = [i for i, x in enumerate(scores) if x >= floor]
        return best[0] if len(best) == 1 else best[self.dice.index(len(best))]

    @staticmethod
    def _speed_target(view: View) -> int:
        """Speed cards wanted in hand: about half of it (one more with two snails)."""
        per = len(view.snails)
        return max(1, (view.config.hand_size + 1) // 2) + (1 if per == 2 else 0)

    def draw_piles(self, view: View, n: int) -> list[int]:
        """Speed cards until the hand holds about half of them, then action cards."""
        n_speed = sum(1 for u in view.hand if view.deck.kind[u] == SPEED)
        out = []
        for _ in range(n):
            pile = 0 if n_speed < self._speed_target(view) else 1
            n_speed += pile == 0
            out.append(pile)
        return out

    def commit(self, view: View, reserve: int, low: int, high: int) -> int:
        """An even share of the reserve over the races left (this one included)."""
        races = max(1, view.races_left)
        keep = races - 1
        return max(low, min(high, reserve - keep, round(reserve / races)))
