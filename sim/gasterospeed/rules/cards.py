"""The physical deck compiled from ``[deck.*]``, and the dice.

Every physical card is an integer ``uid`` (0..79 with the default deck) indexing the tables of
:class:`Deck`, so hands and piles are plain lists of ints and the 80 cards can be counted at
any time. Speed runs become one card per number; action and reaction entries one card per copy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .kernels.layout import cards_array
from .schema import REACTION_SITUATIONS

__all__ = ["SPEED", "ACTION", "REACTION", "KIND_NAMES", "CardInfo", "Deck", "Dice"]

SPEED, ACTION, REACTION = 0, 1, 2
KIND_NAMES = ("speed", "action", "reaction")
_KINDS = {"speed": SPEED, "action": ACTION, "reaction": REACTION}


@dataclass(frozen=True)
class CardInfo:
    """One physical card.

    Attributes:
        cid: the deck entry's id (``tir``, ``vitesse_1``); name: its display name.
        kind: SPEED, ACTION or REACTION.
        number: the speed number (speed cards) or the resolution order 1–4 (action cards).
        squares: squares of a speed move (speed cards).
        effects: the action card's :class:`~sim.gasterospeed.rules.schema.Effect` primitives.
        direction_table: dashboard square per face of a direction roll.
        counters: reaction cards: what the card does in each situation of
            :data:`~sim.gasterospeed.rules.schema.REACTION_SITUATIONS` (``shot`` → ``cancel``, ...),
            situations where it does nothing left out; empty for other cards.
    """

    cid: str
    name: str
    kind: int
    number: int
    squares: int = 0
    effects: tuple = ()
    direction_table: tuple[int, ...] = ()
    counters: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        return str(self.number) if self.kind == SPEED else self.name

    def counter(self, situation: str) -> str:
        """What this card does against ``situation`` (``shot``, ``domino``, ``jostle``, ``loss``):
        its ``vs_<situation>`` effect, or ``""`` when it cannot counter it."""
        for what, effect in self.counters:
            if what == situation:
                return effect
        return ""


def _counters(card) -> tuple[tuple[str, str], ...]:
    """The (situation, effect) pairs of a reaction entry, without its ``none`` situations."""
    if card.kind != "reaction":
        return ()
    pairs = ((what, getattr(card, "vs_" + what)) for what in REACTION_SITUATIONS)
    return tuple((what, effect) for what, effect in pairs if effect != "none")


class Deck:
    """The compiled deck: ``cards[uid]`` and flat per-uid tables for the hot paths.

    A card's *type* is its deck entry: ``ids[type]``, ``types[type]`` (one CardInfo),
    ``type_of[uid]``; :attr:`table` is the cards array of the compiled look-ahead
    (:func:`~sim.gasterospeed.rules.kernels.layout.cards_array`).

    Args:
        entries: the rules' ``deck`` table (entry id → :class:`~sim.gasterospeed.rules.schema.Card`).
    """

    def __init__(self, entries: Mapping):
        cards: list[CardInfo] = []
        for cid, card in entries.items():
            name = card.name or cid
            if card.kind == "speed":
                for number in card.numbers:
                    cards.append(CardInfo(cid, name, SPEED, number, squares=card.squares))
            else:
                for _ in range(card.count):
                    cards.append(
                        CardInfo(
                            cid,
                            name,
                            _KINDS[card.kind],
                            card.order if card.kind == "action" else 0,
                            effects=tuple(card.effects),
                            direction_table=tuple(card.direction_table),
                            counters=_counters(card),
                        )
                    )
        self.cards: tuple[CardInfo, ...] = tuple(cards)
        self.kind = [c.kind for c in cards]
        self.number = [c.number for c in cards]
        self.squares = [c.squares for c in cards]
        self.cid = [c.cid for c in cards]
        self.ids = tuple(dict.fromkeys(c.cid for c in cards))
        first = {}
        for c in cards:
            first.setdefault(c.cid, c)
        self.types: tuple[CardInfo, ...] = tuple(first[cid] for cid in self.ids)
        #: entry id -> type
        self.type_index = {cid: t for t, cid in enumerate(self.ids)}
        self.type_of = [self.type_index[c.cid] for c in cards]
        #: per type: whether it shoots or dominoes
        self.attacks = [any(e.op in ("shoot", "domino") for e in info.effects) for info in self.types]
        #: per uid: whether it shoots or dominoes
        self.uid_attacks = [self.attacks[t] for t in self.type_of]
        self.table = cards_array(self.types)
        #: situation -> per uid, what the card does against it ("" for no counter)
        self.counter_effect = {what: [c.counter(what) for c in cards] for what in REACTION_SITUATIONS}
        #: (situation, effect) -> cards of the deck with that counter, e.g. ("shot", "cancel") -> 2
        self.counter_counts: dict[tuple[str, str], int] = {}
        for c in cards:
            for pair in c.counters:
                self.counter_counts[pair] = self.counter_counts.get(pair, 0) + 1
        #: (situation, effect) -> the types with that counter
        self.counter_types: dict[tuple[str, str], tuple[int, ...]] = {}
        for t, info in enumerate(self.types):
            for pair in info.counters:
                self.counter_types[pair] = self.counter_types.get(pair, ()) + (t,)

    def __len__(self) -> int:
        return len(self.cards)

    def uids(self, cid: str) -> list[int]:
        """Every uid of deck entry ``cid``."""
        return [u for u, c in enumerate(self.cards) if c.cid == cid]

    def speed_uid(self, number: int) -> int:
        """The uid of the speed card numbered ``number``."""
        for u, c in enumerate(self.cards):
            if c.kind == SPEED and c.number == number:
                return u
        raise KeyError(f"no speed card numbered {number}")


class Dice:
    """Draws from one numpy Generator, buffered (one numpy call per 256 draws).

    The sequence only depends on the generator (its uniforms in order, however they are
    buffered: the Dice is the generator's only user), so the same seeds give the same rolls.
    """

    __slots__ = ("_rng", "_buf", "_array", "_i")

    def __init__(self, rng):
        self._rng = rng
        self._buf: list[float] = []
        self._array = np.zeros(0)
        self._i = 0

    def u(self) -> float:
        """A uniform float in [0, 1)."""
        if self._i >= len(self._buf):
            self._array = self._rng.random(256)
            self._buf = self._array.tolist()
            self._i = 0
        self._i += 1
        return self._buf[self._i - 1]

    def unread(self, at_least: int) -> tuple[np.ndarray, int]:
        """The buffer of uniforms and the index of the first not read yet (at least
        ``at_least`` are left: the next block is drawn when fewer are), for compiled code that
        reads them in order; tell it how many it read with :meth:`skip`."""
        if len(self._buf) - self._i < at_least:
            self._array = np.concatenate([self._array[self._i :], self._rng.random(256)])
            self._buf = self._array.tolist()
            self._i = 0
        return self._array, self._i

    def skip(self, n: int) -> None:
        """``n`` uniforms of :meth:`unread` were read."""
        self._i += n

    def roll(self, faces: int) -> int:
        """A die with ``faces`` faces: 1..faces."""
        return int(self.u() * faces) + 1

    def index(self, n: int) -> int:
        """A uniform index in 0..n-1."""
        return int(self.u() * n)

    def shuffle(self, items: list) -> None:
        """Shuffle a list in place (Fisher–Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = int(self.u() * (i + 1))
            items[i], items[j] = items[j], items[i]
