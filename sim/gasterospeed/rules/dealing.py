"""Setting a race up and keeping the hands full: placement, the deal, refills, the redraw of a
hand holding only action cards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import RUNNING
from .cards import SPEED
from .narration import log, name, say

if TYPE_CHECKING:
    from .state import RaceState

__all__ = ["setup", "place_snails", "deal", "refill", "all_action_check"]


def setup(race: RaceState) -> None:
    """Shuffle, place the snails (placement die), deal the hands."""
    race.piles.shuffle_in()
    place_snails(race)
    deal(race)


def place_snails(race: RaceState) -> None:
    """Each seat rolls the placement die; lowest first, each puts its snail on a free start slot
    of its choice. Two snails: everyone's first snail, then the second ones
    (``two_snails_placement = "round"``), or each seat both its snails at once (``"both"``)."""
    cfg, chance, board = race.config, race.chance, race.board
    n_seats = len(race.policies)
    rolls = [chance.roll(cfg.placement_die) for _ in range(n_seats)]
    ties = [chance.u() for _ in range(n_seats)]
    order = sorted(range(n_seats), key=lambda seat: (rolls[seat], ties[seat]))
    say(
        race,
        "Placement rolls (D%d): " % cfg.placement_die
        + ", ".join(f"{race.labels[race.snails_of[s][0]]} {rolls[s]}" for s in range(n_seats)),
    )
    per = range(cfg.snails_per_seat)
    if cfg.two_snails_placement == "both":
        turns = [(seat, k) for seat in order for k in per]
    else:
        turns = [(seat, k) for k in per for seat in order]
    for seat, k in turns:
        s = race.snails_of[seat][k]
        if board.status[s] != RUNNING:
            continue
        free = [cell for cell in board.c.slots if board.occ[cell] < 0]
        if not free:
            raise ValueError(f"circuit {board.c.name}: not enough start slots")
        i = race.policies[seat].place(race.view(seat), s, free) if len(free) > 1 else 0
        board.place(s, free[i])


def deal(race: RaceState) -> None:
    """Deal the starting hands (free draws: 1 + 1, then piles of each player's choice)."""
    for seat in range(len(race.policies)):
        if not race.active(seat):
            continue
        if race.config.free_draws:
            race.piles.draw_card(seat, 0)
            race.piles.draw_card(seat, 1)
        refill(race, seat)
    for seat in range(len(race.policies)):
        if race.active(seat):
            all_action_check(race, seat)


def refill(race: RaceState, seat: int) -> None:
    """Complete ``seat``'s hand to its size from the pile(s) the rules say."""
    cfg, piles = race.config, race.piles
    hand = piles.hands[seat]
    target = race.hand_target[seat]
    missing = target - len(hand)
    if missing <= 0:
        return
    if not cfg.separate:
        for _ in range(missing):
            piles.draw_card(seat, 0)
    elif not cfg.free_draws:
        speed_target = (target + 1) // 2
        for _ in range(missing):
            n_speed = sum(1 for u in hand if race.deck.kind[u] == SPEED)
            speed_def = speed_target - n_speed
            action_def = (target - speed_target) - (len(hand) - n_speed)
            piles.draw_card(seat, 0 if speed_def >= action_def else 1)
    elif cfg.radis_sale:
        chosen = race.policies[seat].draw_piles(race.view(seat), missing)
        for pile in chosen[:missing]:
            piles.draw_card(seat, pile)
    else:
        for _ in range(missing):
            pile = race.policies[seat].draw_piles(race.view(seat), 1)[0]
            piles.draw_card(seat, pile)


def all_action_check(race: RaceState, seat: int) -> None:
    """A hand of only action cards is announced: discard ``all_action_discard`` cards at random
    and draw as many (from the speed pile when separate), until a speed card is in hand."""
    piles = race.piles
    hand = piles.hands[seat]
    kind = race.deck.kind
    first = race.snails_of[seat][0]
    for _ in range(100):
        if not hand or any(kind[u] == SPEED for u in hand):
            return
        if not any(kind[u] == SPEED for u in piles.draw[0] + piles.discard[0]):
            return  # no speed card left to draw: the hand plays on
        k = min(race.config.all_action_discard, len(hand))
        if race.trace is not None:
            say(race, f"  {name(race, first)} holds only action cards: discards {k} at random and draws {k}")
        for _ in range(k):
            uid = hand.pop(race.chance.index(len(hand)))
            piles.discard_card(uid)
            log(race, "redraw", first, uid, "all_action")
        for _ in range(k):
            piles.draw_card(seat, 0)
