"""What the tactician infers from public information: what a card in hand is worth, how far
opponents' jostles may push it ahead, and the chance an opponent holds a given counter (all
from the deck's contents and the cards not seen yet: neither in the discard pile nor in its own
hand). The deck's jostlers and counters are laid out here for the compiled inference of a
decision's context (:func:`~.kernels.value.infer`), which shares its chance of holding a card
(:func:`~.kernels.value.hold_chance`) with :func:`counter_chances`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..rules.cards import REACTION, SPEED, CardInfo, Deck
from ..rules.view import View
from .kernels.value import counters_left, hold_chance

if TYPE_CHECKING:
    from .profile import GasterospeedProfile

__all__ = [
    "DiscardCount",
    "card_worth",
    "jostlers",
    "jostle_array",
    "counter_rows",
    "seen_by_type",
    "unseen_cards",
    "counter_chances",
    "CANCELS",
    "SENDS_BACK",
]

#: Reaction effects that cancel what they counter / that send it back to the other player.
CANCELS = ("cancel", "stop", "block")
SENDS_BACK = ("reflect", "return", "reverse")


def card_worth(info: CardInfo, p: GasterospeedProfile) -> float:
    """A card's worth in hand, in squares: what it typically brings when played later."""
    if info.kind == SPEED:
        return p.worth_speed_base + p.worth_speed_square * (info.squares - 1)
    if info.kind == REACTION:
        return p.worth_reaction
    worth = 0.0
    for eff in info.effects:
        if eff.op == "move":
            factor = (
                p.worth_move_rolled if eff.roll else (p.worth_move_free if eff.path == "free" else p.worth_move_aimed)
            )
            worth += eff.squares * factor * (p.worth_behind_share if eff.condition != "none" else 1.0)
        elif eff.op == "shell":
            share = len(eff.faces) / p.worth_shell_die if eff.faces else 1.0
            worth += (p.worth_shell_gain if eff.amount > 0 else p.worth_shell_loss) * eff.amount * share
        else:
            worth += p.worth_attack
    return worth


def jostlers(deck: Deck) -> list[tuple[int, int, list[float]]]:
    """Deck entries with a jostling move forward, in deck order: (type, copies, push),
    ``push[k]`` the squares a snail k = 1, 2, 3 squares straight ahead of the player is pushed
    ahead."""
    counts: dict[str, list] = {}
    for info in deck.cards:
        push = [0.0, 0.0, 0.0, 0.0]
        for eff in info.effects:
            if eff.op != "move" or not eff.jostle or eff.roll or 2 not in eff.directions:
                continue
            forward = 1.0 if len(eff.directions) == 1 else 1.0 / len([k for k in eff.directions if k in (1, 2, 3)])
            for k in (1, 2, 3):
                if eff.path == "straight" and k <= eff.squares:
                    push[k] = max(push[k], forward * (eff.squares - k + 1))
                elif eff.path == "leap" and k == eff.squares:
                    push[k] = max(push[k], forward)
        if any(push):
            counts.setdefault(info.cid, [0, push])[0] += 1
    return [(deck.type_index[cid], n, push) for cid, (n, push) in counts.items()]


def jostle_array(deck: Deck) -> np.ndarray:
    """:func:`jostlers` as the kernels read them: one row per entry, its type, copies and push
    1, 2, 3 (float64)."""
    rows = [[t, n, *push[1:]] for t, n, push in jostlers(deck)]
    return np.array(rows, dtype=np.float64).reshape(len(rows), 5)


def counter_rows(deck: Deck, situations: tuple[str, ...]) -> np.ndarray:
    """The reactions of the deck against each of ``situations``: the effects that cancel it,
    then those that send it back, each as :func:`~.kernels.value.counters_left` reads them
    (how many effects, then per effect its copies, how many entries hold it, those entries)."""
    out: list[int] = []
    for situation in situations:
        for effects in (CANCELS, SENDS_BACK):
            rows = [e for e in effects if deck.counter_counts.get((situation, e), 0)]
            out.append(len(rows))
            for e in rows:
                types = deck.counter_types[(situation, e)]
                out += [deck.counter_counts[(situation, e)], len(types), *types]
    return np.array(out, dtype=np.int64)


def seen_by_type(view: View) -> list[int]:
    """Cards of each deck entry (type) the seat has seen: the discard pile(s) and its own hand."""
    type_of = view.deck.type_of
    counts = [0] * len(view.deck.ids)
    for u in view.discard:
        counts[type_of[u]] += 1
    for u in view.hand:
        counts[type_of[u]] += 1
    return counts


class DiscardCount:
    """The cards of each deck entry (type) in a discard pile looked at again and again: a
    pile only grows between two looks until a reshuffle empties it, so when the pile counted
    last is the start of this one only the cards after it are counted."""

    __slots__ = ("_pile", "_counts", "_deck")

    def __init__(self):
        self._pile: tuple[int, ...] = ()
        self._counts: list[int] = []
        self._deck: Deck | None = None

    def count(self, pile: tuple[int, ...], deck: Deck) -> list[int]:
        """Cards of each deck entry in ``pile`` (the list is this object's: copy it before
        changing it)."""
        counted = self._pile
        if self._deck is deck and len(pile) >= len(counted) and pile[: len(counted)] == counted:
            counts, tail = self._counts, pile[len(counted) :]
        else:
            counts, tail = [0] * len(deck.ids), pile
        type_of = deck.type_of
        for u in tail:
            counts[type_of[u]] += 1
        self._pile, self._counts, self._deck = pile, counts, deck
        return counts


def unseen_cards(view: View) -> int:
    """Cards the seat has not seen: the draw piles and the other seats' hands."""
    return sum(view.draw_sizes) + sum(view.hand_sizes) - view.hand_sizes[view.seat]


def counter_chances(view: View, situation: str, seen: list[int] | None = None) -> list[tuple[float, float]]:
    """Per seat, the chances its player holds a reaction against ``situation`` (``shot``,
    ``domino``, ``jostle``, ``loss``) that cancels it (cancel, stop, block) / that sends it back
    (reflect, return, reverse), inferred from the cards not yet seen (``seen``:
    :func:`seen_by_type` of the view, counted when not given)."""
    seen_array = np.array(seen_by_type(view) if seen is None else seen, dtype=np.int64)
    table = counter_rows(view.deck, (situation,))
    cancel, at = counters_left(table, 0, seen_array)
    back, _ = counters_left(table, at, seen_array)
    unseen = unseen_cards(view)
    if unseen <= 0:
        return [(0.0, 0.0)] * len(view.hand_sizes)
    return [
        (hold_chance(cancel, unseen, h), hold_chance(back, unseen, h)) if h > 0 else (0.0, 0.0) for h in view.hand_sizes
    ]
