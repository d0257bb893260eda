"""What a player sees when it decides, and the options it chooses among.

The race engine asks each seat's policy (:class:`Policy`, below) for its
decisions with a :class:`View` holding public information and that seat's own hand only, so
no player can see another's hand or the draw order, and a list of options; the policy returns
the index of its choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from .board import Board
    from .cards import Deck
    from .circuit import Circuit

__all__ = ["View", "CardOption", "MoveOption", "SACRIFICE", "NO_REACTION", "Policy", "CompiledTurn", "never_plays"]

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


class Policy(Protocol):
    """What a simulated player answers; each method returns the index of its choice among
    ``options`` unless said otherwise. ``s`` is the deciding seat's snail."""

    #: False: the engine does not copy the board into its views (the player never looks)
    wants_board: bool
    #: deck entry ids the player never plays (its profile's ``forbid``): the engine offers its
    #: cards only as discards, never as its action card nor as a counter (absent: none)
    forbid: frozenset[str]

    def place(self, view: View, s: int, slots: list[int]) -> int:
        """Which free start slot."""

    def commit(self, view: View, reserve: int, low: int, high: int) -> int:
        """Stable reserve: how many shells to commit (the number, between low and high)."""

    def speed_card(self, view: View, s: int, options: list[CardOption]) -> int:
        """Which card to place face down: play a speed card, or discard a card."""

    def speed_move(self, view: View, s: int, uid: int, ends: list[int]) -> int:
        """Where the speed move of card ``uid`` ends (or ``SACRIFICE``)."""

    def action_card(self, view: View, s: int, options: list[CardOption]) -> int:
        """Which card to place: play an action card, or discard a card."""

    def move_choice(self, view: View, s: int, uid: int, options: list[MoveOption]) -> int:
        """Which direction or end square within action card ``uid``'s freedom."""

    def target(self, view: View, s: int, uid: int, targets: list[int]) -> int:
        """Which snail to shoot."""

    def react(self, view: View, s: int, source: int | None, cause: str, options: list[int]) -> int:
        """Whether to counter (``options[0]`` is ``NO_REACTION``), and with which card: a loss
        of shells (``cause`` shot, domino, burn, bramble) or a jostle (``view.stakes``)."""

    def draw_piles(self, view: View, n: int) -> list[int]:
        """Free draws: the pile (0 speed, 1 action) of each of the next ``n`` cards."""

    def discard(self, view: View, n: int) -> list[int]:
        """One of two snails lost: the hand indices of the ``n`` cards to discard."""


_NONE: frozenset[str] = frozenset()


def never_plays(policy: Policy) -> frozenset[str]:
    """The deck entry ids ``policy`` never plays (:attr:`Policy.forbid`; empty when it has none)."""
    return getattr(policy, "forbid", _NONE)


class CompiledTurn(Protocol):
    """A table's phases played in compiled calls, the same play as :mod:`.phases` (a race takes
    one as ``compiled``; :mod:`sim.gasterospeed.players.tactician_phases` is the one shipped)."""

    def applies(self, race: Any) -> bool:
        """Whether these calls play this race's phases now."""

    def speed_phase(self, race: Any, choose_actions: bool = False) -> Any:
        """The speed phase; with ``choose_actions``, the action cards chosen as well (returned)."""

    def action_choices(self, race: Any) -> dict[int, tuple[int, bool]]:
        """The action cards every snail places: snail → (uid, discard)."""
