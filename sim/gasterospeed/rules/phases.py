"""The two phases of a turn and its end: cards placed face down, speed moves from the highest
number down, action cards by order 1→4, then the discard and the refills.

A card made impossible is lost: a speed move that cannot be made moves nothing; an action
card's effects are run by :mod:`.effects`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .board import FINISHED, RUNNING
from .cards import ACTION, SPEED, Deck
from .dealing import all_action_check, refill
from .effects import play_card
from .narration import card_label, log, name, say, where
from .reactions import snail_done
from .view import SACRIFICE, CardOption, View, never_plays

if TYPE_CHECKING:
    from .state import RaceState
    from .view import Policy

__all__ = ["speed_phase", "action_phase", "end_turn"]

#: ``pick(seat, policy, view, snail, taken)``: the option a seat places for a snail, or None
#: (``view.get()``: the seat's view)
Pick = Callable[[int, "Policy", "_LazyView", int, list[int]], "CardOption | None"]


def _choose_per_snail(race: RaceState, pick: Pick) -> dict[int, CardOption]:
    """Each seat (in order) chooses for each of its running snails, face down; ``taken``: the
    cards the seat already committed this phase. Returns ``{snail: option}``. A seat's view is
    built when its policy is first asked (nothing changes while the seats choose). With two
    snails, ``two_snails_choice_order`` says which snail is chosen for first (and so gets the
    only speed card of a hand)."""
    chosen: dict[int, CardOption] = {}
    order = race.config.two_snails_choice_order
    for seat, policy in enumerate(race.policies):
        active = race.active(seat)
        if not active:
            continue
        if len(active) > 1 and order != "first":
            distance = race.board.distance
            active.sort(key=(lambda s: -distance(s)) if order == "behind" else distance)
        view = _LazyView(race, seat)
        taken: list[int] = []
        for s in active:
            option = pick(seat, policy, view, s, taken)
            if option is None:
                continue
            taken.append(option.uid)
            chosen[s] = option
    return chosen


class _LazyView:
    """A seat's view, built on first use and then the same for the rest of the phase."""

    __slots__ = ("race", "seat", "view")

    def __init__(self, race: RaceState, seat: int):
        self.race, self.seat, self.view = race, seat, None

    def get(self) -> View:
        if self.view is None:
            self.view = self.race.view(self.seat)
        return self.view


class _Options:
    """The option objects of one deck, built once and shared (they are immutable): per uid,
    the card played and the card announced as a discard. :meth:`of` hands out a whole
    instance, so races played at once in threads on different decks never mix two."""

    _last: _Options | None = None

    def __init__(self, deck: Deck):
        self.deck = deck
        self.play = tuple(CardOption(u, False) for u in range(len(deck)))
        self.discard = tuple(CardOption(u, True) for u in range(len(deck)))

    @classmethod
    def of(cls, deck: Deck) -> _Options:
        last = cls._last
        if last is None or last.deck is not deck:
            last = cls._last = cls(deck)
        return last


def _as_option(choice: int | tuple[int, bool]) -> CardOption:
    if isinstance(choice, CardOption):
        return choice
    return CardOption(*choice) if isinstance(choice, tuple) else CardOption(choice, False)


def speed_phase(race: RaceState, chosen: dict[int, int | tuple[int, bool]] | None = None) -> None:
    """Everyone places a card face down: a speed card to play, or (``discard_in_speed_phase``)
    any card announced as a discard, which goes to the discard pile at once and moves nothing.
    ``chosen``: snail → uid (played) or (uid, discard). Moves resolve from the highest number
    down; a move that cannot be made is lost. A seat holding no speed card places nothing for
    that snail. A table of tacticians plays it in one compiled call
    (``race.compiled``, :mod:`sim.gasterospeed.players.tactician_phases`: the same play)."""
    compiled = race.compiled
    if chosen is None and compiled is not None and compiled.applies(race):
        compiled.speed_phase(race)
        return
    board, deck, piles = race.board, race.deck, race.piles
    if chosen is None:
        table = _Options.of(deck)

        def pick(seat, policy, view, s, taken):
            hand = [u for u in piles.hands[seat] if u not in taken]
            options = [table.play[u] for u in hand if deck.kind[u] == SPEED]
            if not options:
                return None
            if race.config.discard_in_speed_phase:
                options += [table.discard[u] for u in hand]
            return options[policy.speed_card(view.get(), s, options) if len(options) > 1 else 0]

        chosen = _choose_per_snail(race, pick)
    plays = {}
    for s, choice in chosen.items():
        uid, discard = _as_option(choice)
        piles.hands[board.owner[s]].remove(uid)
        if discard or deck.kind[uid] != SPEED:
            piles.discard_card(uid)
            log(race, "discard", s, uid, "speed_phase")
            if race.trace is not None:
                say(race, f"  {name(race, s)} discards {card_label(race, uid)} instead of moving")
            continue
        piles.in_play.append(uid)
        race.turn_speed[s] = deck.number[uid]
        plays[s] = uid
    if plays and race.trace is not None:
        say(
            race,
            "Speed: "
            + ", ".join(
                f"{name(race, s)} {deck.number[u]}" for s, u in sorted(plays.items(), key=lambda x: -deck.number[x[1]])
            ),
        )
    for s in sorted(plays, key=lambda s: -deck.number[plays[s]]):
        uid = plays[s]
        row = log(race, "speed", s, uid, "")
        outcome = _speed_move(race, s, uid)
        if row is not None:
            row["outcome"] = outcome


def _speed_move(race: RaceState, s: int, uid: int) -> str:
    board, cfg = race.board, race.config
    if board.status[s] != RUNNING:
        return "void"
    squares = race.deck.squares[uid]
    options: list[int] = board.speed_ends(s, squares)
    if cfg.sacrifice and squares >= 2:
        options.append(SACRIFICE)
    if not options:
        if race.trace is not None:
            say(race, f"  {name(race, s)} cannot make its {squares}-square move: lost")
        return "blocked"
    seat = board.owner[s]
    i = race.policies[seat].speed_move(race.view(seat), s, uid, options) if len(options) > 1 else 0
    target = options[i]
    if target == SACRIFICE:
        gain = min(cfg.sacrifice_gain, board.max_shells[s] - board.shells[s])
        board.shells[s] += gain
        if race.trace is not None:
            say(race, f"  {name(race, s)} sacrifices its {race.deck.number[uid]}: stays put, +{gain} shell")
        return "sacrifice"
    before = board.distance(s)
    board.enter(s, target)
    if board.status[s] == FINISHED:
        if race.trace is not None:
            say(race, f"  {name(race, s)} crosses the finish line!")
        snail_done(race, s)
        return "finished"
    if race.trace is not None:
        say(race, f"  {name(race, s)} moves to {where(race, target)} ({before} -> {board.distance(s)} to go)")
    return f"moved{before - board.distance(s):+d}"


def action_phase(race: RaceState, chosen: dict[int, tuple[int, bool]] | None = None) -> None:
    """Everyone places a card face down (or ``chosen``: snail → (uid, discard)); discards go at
    once; actions resolve by order 1→4, ties by the higher speed card of the turn. A table of
    tacticians chooses its cards in one compiled call (``race.compiled``: the same
    choices). The cards a seat never plays (:func:`~.view.never_plays`) are offered as
    discards only: a seat always places a card (any card may be discarded), so none is forced."""
    board, deck, piles = race.board, race.deck, race.piles
    compiled = race.compiled
    if chosen is None and compiled is not None and compiled.applies(race):
        chosen = compiled.action_choices(race)
    if chosen is None:
        table = _Options.of(deck)

        def pick(seat, policy, view, s, taken):
            hand = [u for u in piles.hands[seat] if u not in taken]
            if not hand:
                return None
            never = never_plays(policy)
            options = [table.play[u] for u in hand if deck.kind[u] == ACTION and not (never and deck.cid[u] in never)]
            options += [table.discard[u] for u in hand]
            return options[policy.action_card(view.get(), s, options) if len(options) > 1 else 0]

        chosen = _choose_per_snail(race, pick)
    plays = []
    for s, choice in chosen.items():
        uid, discard = _as_option(choice)
        piles.hands[board.owner[s]].remove(uid)
        if discard or deck.kind[uid] != ACTION:
            piles.discard_card(uid)
            log(race, "discard", s, uid, "discarded")
            if race.trace is not None:
                say(race, f"  {name(race, s)} discards {card_label(race, uid)}")
        else:
            piles.in_play.append(uid)
            plays.append((s, uid))
    plays.sort(key=lambda play: (deck.number[play[1]], -race.turn_speed[play[0]], play[0]))
    if plays and race.trace is not None:
        say(race, "Actions: " + ", ".join(f"{name(race, s)} {card_label(race, uid)}" for s, uid in plays))
    for s, uid in plays:
        row = log(race, "action", s, uid, "")
        outcome = "void" if board.status[s] != RUNNING else play_card(race, s, uid)
        if race.trace is not None:
            say(race, f"  {name(race, s)} {card_label(race, uid)}: {outcome}")
        if row is not None:
            row["outcome"] = outcome


def end_turn(race: RaceState) -> None:
    """Played cards to the discard, hands refilled, all-action hands redrawn."""
    piles = race.piles
    for uid in piles.in_play:
        piles.discard_card(uid)
    piles.in_play.clear()
    race.turn_speed = [0] * len(race.turn_speed)
    for seat in range(len(race.policies)):
        if race.active(seat):
            refill(race, seat)
            all_action_check(race, seat)
