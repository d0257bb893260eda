"""Losses of shells and the reactions that counter them, KO and the end of a snail's race.

Reactions are played from hand, in addition to the card placed face down, at the moment they
counter: a loss of shells about to happen (a shot that hit, a domino, a burn, brambles) or a
push of the holder's running snail by another seat's card (a jostle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import FINISHED, RUNNING, Board, Guard
from .narration import card_label, log, name, say
from .state import Counter
from .view import NO_REACTION, never_plays

if TYPE_CHECKING:
    from .state import RaceState

__all__ = ["Counter", "offers", "jostle_guard", "inflict", "snail_done"]


def offers(race: RaceState, seat: int, situation: str) -> dict[str, int]:
    """Reactions ``seat`` holds against ``situation``: effect → the first such card's uid,
    among the cards its player may play (:func:`~.view.never_plays`: a counter is optional,
    so a seat holding only cards it never plays takes the loss)."""
    out: dict[str, int] = {}
    never = never_plays(race.policies[seat])
    deck = race.deck
    for uid in race.piles.hands[seat]:
        effect = deck.cards[uid].counter(situation)
        if effect and effect not in out and not (never and deck.cid[uid] in never):
            out[effect] = uid
    return out


def _play_reaction(race: RaceState, seat: int, t: int, uid: int, situation: str, cause: str) -> str:
    """``seat`` plays reaction ``uid`` for its snail ``t``: to the discard pile; its effect."""
    race.piles.hands[seat].remove(uid)
    race.piles.discard_card(uid)
    effect = race.deck.cards[uid].counter(situation)
    log(race, "reaction", t, uid, f"{effect}_{cause}")
    if race.trace is not None:
        say(race, f"  {name(race, t)} plays {card_label(race, uid)} against the {cause}")
    return effect


def jostle_guard(race: RaceState, mover: int, d: int) -> Guard:
    """The :attr:`Board.guard` while ``mover`` makes a jostling move in direction ``d``: the
    player of a running snail of another seat about to be pushed may counter (``vs_jostle``):
    ``block`` (not pushed; the move stops) or ``reverse`` (the mover is pushed one square back,
    against ``d``; the move stops). The push back itself cannot be countered. Hands do not
    change during a move until a counter, which ends it, so who may counter is known at once."""
    board = race.board
    mine = board.owner[mover]
    may = [board.owner[t] != mine and bool(offers(race, board.owner[t], "jostle")) for t in range(board.n)]

    def answer(t: int, push_dir: int, after: Board) -> str:
        seat = board.owner[t]
        if race.countered is not None:
            return "none"
        held = offers(race, seat, "jostle")
        stakes = {"none": after, "block": board.copy()} if "block" in held else {"none": after}
        if "reverse" in held:
            back = board.copy()
            back.push(mover, (d + 4) % 8, {mover})
            stakes["reverse"] = back
        view = race.view(seat)
        view.stakes = stakes
        options = [NO_REACTION, *held.values()]
        uid = options[race.policies[seat].react(view, t, mover, "jostle", options)]
        if uid == NO_REACTION:
            return "none"
        race.countered = Counter(t, _play_reaction(race, seat, t, uid, "jostle", "jostle"))
        return race.countered.effect

    return Guard(may_counter=may, answer=answer)


def inflict(race: RaceState, t: int, source: int | None, cause: str, domino: bool = False) -> str:
    """Snail ``t`` is about to lose 1 shell (``cause``: shot, domino, burn, bramble), caused by
    snail ``source`` (None: by itself or the circuit). Its owner may counter with a reaction
    from hand (``vs_shot``, ``vs_domino``, or ``vs_loss`` for the other causes): ``cancel`` or
    ``stop`` (no loss; a domino stops there), ``reflect`` (a shot: ``source`` takes the loss,
    and may counter in turn) or ``return`` (a domino turns back, by the caller).
    Returns ``hit``, ``ko``, ``cancelled``, ``reflected`` or ``none`` (not running)."""
    board = race.board
    if board.status[t] != RUNNING:
        return "none"
    seat = board.owner[t]
    situation = cause if cause in ("shot", "domino") else "loss"
    held = offers(race, seat, situation)
    if source is None or source == t or not (domino or board.status[source] == RUNNING):
        held.pop("reflect", None)
        held.pop("return", None)
    if held:
        options = [NO_REACTION, *held.values()]
        uid = options[race.policies[seat].react(race.view(seat), t, source, cause, options)]
        if uid >= 0:
            effect = _play_reaction(race, seat, t, uid, situation, cause)
            if effect in ("cancel", "stop"):
                return "cancelled"
            if not domino:
                inflict(race, source, t, cause)
            return "reflected"
    board.shells[t] -= 1
    if board.shells[t] <= 0:
        board.knock_out(t)
        race.ko_order.append(t)
        if race.trace is not None:
            say(race, f"  {name(race, t)} loses its last shell: KO!")
        snail_done(race, t)
        for s in board.clear_blocking_ko():
            if race.trace is not None:
                say(race, f"  KO snail {name(race, s)} blocked the only passage: removed")
        return "ko"
    if race.trace is not None:
        say(race, f"  {name(race, t)} loses a shell ({board.shells[t]} left)")
    return "hit"


def snail_done(race: RaceState, s: int) -> None:
    """A snail finished or is KO: its player discards its hand, or (two snails, the other still
    running) discards 2 cards of its choice and keeps a hand of one snail."""
    board, piles = race.board, race.piles
    seat = board.owner[s]
    hand = piles.hands[seat]
    still = [o for o in race.snails_of[seat] if o != s and board.status[o] == RUNNING]
    if still:
        n = min(2, len(hand))
        picks = race.policies[seat].discard(race.view(seat), n) if n else []
        for uid in [hand[i] for i in sorted(set(picks))[:n]]:
            hand.remove(uid)
            piles.discard_card(uid)
            log(race, "drop", s, uid, "snail_lost")
        race.hand_target[seat] = race.config.hand_size
    else:
        for uid in hand:
            piles.discard_card(uid)
            log(race, "drop", s, uid, "finished" if board.status[s] == FINISHED else "ko")
        hand.clear()
