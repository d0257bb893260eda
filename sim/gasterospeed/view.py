"""What a player sees when it decides, and the options it chooses among.

The race engine asks each seat's policy (:class:`~sim.gasterospeed.players.Policy`) for its
decisions with a :class:`View` holding public information and that seat's own hand only, so
no player can see another's hand or the draw order, and a list of options; the policy returns
the index of its choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .board import Board
    from .cards import Deck
    from .circuit import Circuit

__all__ = ["View", "CardOption", "MoveOption", "SACRIFICE", "NO_REACTION"]

#: A speed-move option: stay put and regain shells (sacrifice variant).
SACRIFICE = -2
#: A reaction option: take the loss.
NO_REACTION = -1


class CardOption(NamedTuple):
    """A card to place face down: played (``discard`` False) or announced as a discard."""

    uid: int
    discard: bool


class MoveOption(NamedTuple):
    """One way to make an action card's move: the direction (straight, leap) or the end square
    (free move) chosen, and the board once it is made."""

    choice: int
    after: Board


@dataclass(slots=True, eq=False)
class View:
    """What one seat may see when it decides: public information and its own hand.

    Attributes:
        seat, snails: the deciding seat and its snails.
        board: a copy of the public board (None for policies that do not look at it).
        hand: the seat's own cards (uids).
        deck: the public card list (what every card does).
        discard: the discard pile(s), visible to all.
        draw_sizes: number of cards in each draw pile (not their order).
        hand_sizes: number of cards in each seat's hand.
        revealed_speed: speed numbers revealed this turn, per snail (0: none yet).
        turn, race_no, races_left: where the championship stands.
        scores: championship points of each seat before this race.
        config: the race rules; circuit: this race's circuit.
        upcoming: circuits of the races still to come, this one included (experopods: the pool
            they are drawn from).
        stakes: when a jostle may be countered (``react`` with cause ``jostle``), the board
            after each answer: ``{"none": pushed, "block": not pushed, "reverse": the mover
            pushed back}`` (only the answers the seat can give); None otherwise.
    """

    seat: int = 0
    snails: tuple[int, ...] = ()
    board: Board | None = None
    hand: tuple[int, ...] = ()
    deck: Deck | None = None
    discard: tuple[int, ...] = ()
    draw_sizes: tuple[int, int] = (0, 0)
    hand_sizes: tuple[int, ...] = ()
    revealed_speed: tuple[int, ...] = ()
    turn: int = 0
    race_no: int = 1
    races_left: int = 0
    scores: tuple[float, ...] = ()
    config: Any = None
    circuit: Circuit | None = None
    upcoming: Sequence[Circuit] = ()
    stakes: dict[str, Board] | None = None
