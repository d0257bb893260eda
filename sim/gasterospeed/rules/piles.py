"""The cards of one race: draw piles, discard piles, hands and the cards in play.

Every physical card (a uid of the :class:`~sim.gasterospeed.rules.cards.Deck`) is always in exactly
one place, so :meth:`Piles.count` is always the deck's size. With separate decks pile 0 holds
the speed cards and pile 1 the others; otherwise pile 0 holds them all.
"""

from __future__ import annotations

from collections.abc import Callable

from .cards import SPEED, Deck, Dice

__all__ = ["Piles"]


class Piles:
    """Draw and discard piles, one hand per seat, the cards in play this turn.

    Args:
        deck: the compiled deck; separate: separate speed and action decks.
        n_seats: hands to hold; chance: the race's dice (reshuffles).
        say: narration callback (a reshuffle is told).
        fallback: with separate decks, a draw from an exhausted pile is taken from the other one
            (``variants.separate_fallback``); otherwise nothing is drawn.
    """

    def __init__(
        self, deck: Deck, separate: bool, n_seats: int, chance: Dice, say: Callable[[str], None], fallback: bool = True
    ):
        self.deck = deck
        self.separate = separate
        self.fallback = fallback
        self.chance = chance
        self.say = say
        self.draw: list[list[int]] = [[], []]
        self.discard: list[list[int]] = [[], []]
        self.hands: list[list[int]] = [[] for _ in range(n_seats)]
        self.in_play: list[int] = []

    def pile_of(self, uid: int) -> int:
        """Index of the pile a card belongs to (0 shared or speed, 1 action when separate)."""
        return 1 if self.separate and self.deck.kind[uid] != SPEED else 0

    def count(self) -> int:
        """Cards in draw piles + discard piles + hands + in play (always the deck's size)."""
        return (
            sum(len(p) for p in self.draw)
            + sum(len(p) for p in self.discard)
            + sum(len(h) for h in self.hands)
            + len(self.in_play)
        )

    def shuffle_in(self) -> None:
        """Put every card of the deck in its draw pile and shuffle the piles (set-up)."""
        for uid in range(len(self.deck)):
            self.draw[self.pile_of(uid)].append(uid)
        for pile in self.draw:
            self.chance.shuffle(pile)

    def discard_card(self, uid: int) -> None:
        self.discard[self.pile_of(uid)].append(uid)

    def draw_card(self, seat: int, pile: int = 0) -> bool:
        """Draw the top card of ``pile`` into ``seat``'s hand (reshuffle the discard if needed;
        when separate, an exhausted pile falls back on the other unless ``fallback`` is off).
        False if nothing to draw."""
        piles = ((pile, 1 - pile) if self.fallback else (pile,)) if self.separate else (0,)
        for p in piles:
            if not self.draw[p] and self.discard[p]:
                self.draw[p] = self.discard[p]
                self.discard[p] = []
                self.chance.shuffle(self.draw[p])
                self.say("  (the discard pile is reshuffled into the draw pile)")
            if self.draw[p]:
                self.hands[seat].append(self.draw[p].pop())
                return True
        return False
