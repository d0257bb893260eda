"""What the tactician infers from public information: what a card in hand is worth, how far
opponents' jostles may push it ahead, and the chance an opponent holds a given counter (all
from the deck's contents and the cards not seen yet: neither in the discard pile nor in its own
hand)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import REACTION, SPEED, CardInfo, Deck
from .view import View

if TYPE_CHECKING:
    from .players import GasterospeedProfile

__all__ = ["card_worth", "jostlers", "counter_table", "seen_by_type", "hold_chance", "unseen_cards", "jostlers_left",
           "pushes_from", "expected_pushes", "counters_left", "chances_from", "counter_chances", "CANCELS",
           "SENDS_BACK"]

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
            factor = p.worth_move_rolled if eff.roll else (p.worth_move_free if eff.path == "free"
                                                           else p.worth_move_aimed)
            worth += eff.squares * factor * (p.worth_behind_share if eff.condition == "behind" else 1.0)
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


def counter_table(deck: Deck, situation: str) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """The reactions of the deck against ``situation``: for the effects that cancel it, then
    those that send it back, (copies, the types holding that effect) per effect."""
    return tuple(tuple((deck.counter_counts[(situation, e)], deck.counter_types[(situation, e)])
                       for e in effects if deck.counter_counts.get((situation, e), 0))
                 for effects in (CANCELS, SENDS_BACK))


def seen_by_type(view: View) -> list[int]:
    """Cards of each deck entry (type) the seat has seen: the discard pile(s) and its own hand."""
    type_of = view.deck.type_of
    counts = [0] * len(view.deck.ids)
    for u in view.discard:
        counts[type_of[u]] += 1
    for u in view.hand:
        counts[type_of[u]] += 1
    return counts


#: hold_chance's memo: (left, unseen, hand) -> chance
_HOLD: dict[tuple[int, int, int], float] = {}


def hold_chance(left: int, unseen: int, hand: int) -> float:
    """The chance that a hand of ``hand`` cards holds one of ``left`` cards among ``unseen``
    (drawn with replacement: ``1 - (1 - left / unseen) ** hand``); remembered, it is a pure
    function of three small ints."""
    key = (left, unseen, hand)
    chance = _HOLD.get(key)
    if chance is None:
        chance = _HOLD[key] = 1.0 - (1.0 - min(1.0, left / unseen)) ** hand
    return chance


def unseen_cards(view: View) -> int:
    """Cards the seat has not seen: the draw piles and the other seats' hands."""
    return sum(view.draw_sizes) + sum(h for i, h in enumerate(view.hand_sizes) if i != view.seat)


def jostlers_left(jostling: list[tuple[int, int, list[float]]], seen: list[int]) -> tuple[int, ...]:
    """Per jostling entry of :func:`jostlers`, its copies not seen yet (``seen``: :func:`seen_by_type`)."""
    return tuple(max(0, n - seen[t]) for t, n, _ in jostling)


def pushes_from(jostling: list[tuple[int, int, list[float]]], left: tuple[int, ...], unseen: int,
                hand_sizes: tuple[int, ...], seat: int) -> dict[int, list[float]]:
    """:func:`expected_pushes` from the jostling copies ``left`` (:func:`jostlers_left`), the
    cards ``unseen`` (:func:`unseen_cards`) and the hand sizes."""
    by_hand: dict[int, list[float]] = {}       # the push depends on the opponent's hand size only
    out = {}
    for o, h in enumerate(hand_sizes):
        if o == seat or unseen <= 0 or h <= 0:
            continue
        push = by_hand.get(h)
        if push is None:
            push = by_hand[h] = [0.0, 0.0, 0.0, 0.0]
            for k_left, (_, _, amount) in zip(left, jostling):
                p_hold = hold_chance(k_left, unseen, h)
                for k in (1, 2, 3):
                    push[k] += p_hold * amount[k]
        out[o] = list(push)
    return out


def expected_pushes(view: View, jostling: list[tuple[int, int, list[float]]],
                    seen: list[int] | None = None) -> dict[int, list[float]]:
    """Per opponent seat, the expected push of a snail 1, 2 or 3 squares straight ahead of it:
    the chance it holds each jostling card (``jostling``: :func:`jostlers`; from the cards not
    seen yet) times its push. ``seen``: :func:`seen_by_type` of the view (counted when not
    given)."""
    if not jostling:
        return {}
    if seen is None:
        seen = seen_by_type(view)
    return pushes_from(jostling, jostlers_left(jostling, seen), unseen_cards(view), view.hand_sizes, view.seat)


def counters_left(table: tuple, seen: list[int]) -> tuple[int, int]:
    """The reactions of a :func:`counter_table` not seen yet: those that cancel, those that
    send back (``seen``: :func:`seen_by_type`)."""
    cancel, back = (sum(max(0, n - sum(seen[t] for t in types)) for n, types in rows) for rows in table)
    return cancel, back


def chances_from(left: tuple[int, int], unseen: int, hand_sizes: tuple[int, ...]) -> list[tuple[float, float]]:
    """:func:`counter_chances` from the reactions ``left`` (:func:`counters_left`), the cards
    ``unseen`` and the hand sizes."""
    if unseen <= 0:
        return [(0.0, 0.0)] * len(hand_sizes)
    return [(hold_chance(left[0], unseen, h), hold_chance(left[1], unseen, h)) if h > 0 else (0.0, 0.0)
            for h in hand_sizes]


def counter_chances(view: View, situation: str, seen: list[int] | None = None,
                    table: tuple | None = None) -> list[tuple[float, float]]:
    """Per seat, the chances its player holds a reaction against ``situation`` (``shot``,
    ``domino``, ``jostle``) that cancels it (cancel, stop, block) / that sends it back
    (reflect, return, reverse), inferred from the cards not yet seen (``seen`` as in
    :func:`expected_pushes`; ``table``: :func:`counter_table` of the deck and situation)."""
    if seen is None:
        seen = seen_by_type(view)
    if table is None:
        table = counter_table(view.deck, situation)
    return chances_from(counters_left(table, seen), unseen_cards(view), view.hand_sizes)
