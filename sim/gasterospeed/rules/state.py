"""The state of one race: the public board, the piles and hands, the seats' policies, the
dice, the context shown to the players, and the race rules it is played under
(:class:`RaceConfig`).

:class:`RaceState` owns the hidden state (draw piles, hands) and the public
:class:`~sim.gasterospeed.rules.board.Board`; it builds each seat's
:class:`~sim.gasterospeed.rules.view.View`, which holds public information and that seat's own
hand only, so no player can see another's hand or the draw order. The turn loop that changes
it is :class:`~sim.gasterospeed.rules.race.Race`; the modules of one responsibility each
(:mod:`.dealing`, :mod:`.phases`, :mod:`.effects`, :mod:`.reactions`) take a state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import scoring
from .board import RUNNING, Board
from .cards import Deck, Dice
from .circuit import Circuit
from .narration import say, snail_labels
from .piles import Piles
from .view import View

if TYPE_CHECKING:
    from .view import CompiledTurn, Policy

__all__ = ["RaceState", "RaceConfig", "Counter"]


@dataclass(frozen=True)
class RaceConfig:
    """The race rules in the form the engine reads (variants already applied).

    Built only by :meth:`from_rules` (no defaults of its own: the rules file is the one source
    of every value); a test changes a field with ``dataclasses.replace``.
    """

    hand_size: int
    two_snails: bool
    two_snail_hand: int
    two_snails_placement: str
    two_snails_choice_order: str
    separate: bool
    separate_fallback: bool
    free_draws: bool
    radis_sale: bool
    sacrifice: bool
    sacrifice_gain: int
    all_action_discard: int
    turn_cap: int
    placement_die: int
    points: tuple[int, ...]
    ko_points: int
    last_gets_ko_points: bool
    shell_championship: bool
    discard_in_speed_phase: bool
    ko_at_finish: str
    pushed_into_obstacle: str
    start_slot_taken: str
    domino_line: str
    pushes_cut_arrows: bool

    @classmethod
    def from_rules(cls, rules) -> RaceConfig:
        v, r = rules.variants, rules.race
        return cls(
            hand_size=rules.hand_size,
            two_snails=v.two_snails,
            two_snail_hand=v.two_snails_hand_size,
            two_snails_placement=v.two_snails_placement,
            two_snails_choice_order=v.two_snails_choice_order,
            separate=rules.separate_decks,
            separate_fallback=v.separate_fallback,
            free_draws=v.free_draws,
            radis_sale=v.radis_sale,
            sacrifice=v.sacrifice,
            sacrifice_gain=v.sacrifice_gain,
            all_action_discard=r.all_action_discard,
            turn_cap=r.turn_cap,
            placement_die=r.placement_die,
            points=tuple(r.points),
            ko_points=r.ko_points,
            last_gets_ko_points=r.last_gets_ko_points,
            shell_championship=v.shell_championship,
            discard_in_speed_phase=r.discard_in_speed_phase,
            ko_at_finish=r.ko_at_finish,
            pushed_into_obstacle=r.pushed_into_obstacle,
            start_slot_taken=r.start_slot_taken,
            domino_line=r.domino_line,
            pushes_cut_arrows=r.pushes_cut_arrows,
        )

    @property
    def snails_per_seat(self) -> int:
        return 2 if self.two_snails else 1


@dataclass(frozen=True)
class Counter:
    """A jostle countered during the move being made: by the player of ``snail``, ``effect``
    ``block`` or ``reverse``."""

    snail: int
    effect: str


class RaceState:
    """The state of one race (its turns: :class:`~sim.gasterospeed.rules.race.Race`).

    Args:
        circuit: the compiled circuit.
        deck: the compiled deck.
        config: the race rules.
        policies: one :class:`~sim.gasterospeed.rules.view.Policy` per seat.
        chance: the dice of the race (shuffles, rolls, random discards).
        shells: starting shells, one int for every snail or one per snail.
        race_no, races_left, scores, upcoming: championship context shown to the players.
        events: a list to append event rows to (None: no log).
        trace: a list to append the narration to (None: no narration).
        on_turn: called with the race once the snails are placed and after every turn (None:
            nothing; the animated replay records the board there).
        compiled: the compiled phases of a table of tacticians (the same play in fewer calls;
            :mod:`sim.gasterospeed.players.tactician_phases`), used when they apply; None: the
            phases are played in Python.
    """

    def __init__(
        self,
        circuit: Circuit,
        deck: Deck,
        config: RaceConfig,
        policies: Sequence[Policy],
        chance: Dice,
        *,
        shells: int | Sequence[int],
        race_no: int = 1,
        races_left: int = 0,
        scores: Sequence[float] | None = None,
        upcoming: Sequence[Circuit] = (),
        events: list | None = None,
        trace: list | None = None,
        on_turn: Callable[[RaceState], None] | None = None,
        compiled: CompiledTurn | None = None,
    ):
        self.deck = deck
        self.config = config
        self.policies = list(policies)
        self.chance = chance
        n_seats = len(self.policies)
        per = config.snails_per_seat
        owners = [seat for seat in range(n_seats) for _ in range(per)]
        if isinstance(shells, int):
            shells = [shells] * len(owners)
        self.board = Board(circuit, owners, list(shells), config)
        for s, sh in enumerate(shells):
            if sh <= 0:
                self.board.remove(s)
        self.snails_of = [[s for s, o in enumerate(owners) if o == seat] for seat in range(n_seats)]
        self._snail_tuples = [tuple(snails) for snails in self.snails_of]
        self._shared: Board | None = None
        self._shared_of: Board | None = None
        self.piles = Piles(
            deck, config.separate, n_seats, chance, lambda text: say(self, text), fallback=config.separate_fallback
        )
        self.hand_target = [config.two_snail_hand if per == 2 else config.hand_size] * n_seats
        self.turn = 0
        self.turn_speed = [0] * len(owners)
        self.race_no = race_no
        self.races_left = races_left
        self.scores = tuple(scores) if scores is not None else (0.0,) * n_seats
        self.upcoming = tuple(upcoming)
        self.events = events
        self.trace = trace
        self.on_turn = on_turn
        self.labels = snail_labels(n_seats, per)
        self.capped = False
        self.ko_order: list[int] = []
        self.countered: Counter | None = None
        self.compiled = compiled

    # -- the cards (see Piles) ---------------------------------------------------------------
    @property
    def draw(self) -> list[list[int]]:
        return self.piles.draw

    @property
    def discard(self) -> list[list[int]]:
        return self.piles.discard

    @property
    def hands(self) -> list[list[int]]:
        return self.piles.hands

    @property
    def in_play(self) -> list[int]:
        return self.piles.in_play

    def card_count(self) -> int:
        """Cards in draw piles + discard piles + hands + in play (always the deck's size)."""
        return self.piles.count()

    # -- what the players see ----------------------------------------------------------------
    def view(self, seat: int) -> View:
        """The public information and ``seat``'s own hand (a fresh view; its board a copy)."""
        piles = self.piles
        wants = getattr(self.policies[seat], "wants_board", True)
        return View(
            seat,
            self._snail_tuples[seat],
            self.public_board() if wants else None,
            tuple(piles.hands[seat]),
            self.deck,
            tuple(piles.discard[0] + piles.discard[1]),
            (len(piles.draw[0]), len(piles.draw[1])),
            tuple(map(len, piles.hands)),
            tuple(self.turn_speed),
            self.turn,
            self.race_no,
            self.races_left,
            self.scores,
            self.config,
            self.board.c,
            self.upcoming,
        )

    def public_board(self) -> Board:
        """A copy of the board for the players' views, shared by the views until the board
        changes (a copy whose state differs from the board's, even one a policy changed, is
        never handed out again)."""
        shared, board = self._shared, self.board
        if shared is None or self._shared_of is not board or shared.state.tobytes() != board.state.tobytes():
            shared = self._shared = board.copy()
            self._shared_of = board
        return shared

    def active(self, seat: int) -> list[int]:
        """``seat``'s running snails."""
        status = self.board.status
        return [s for s in self.snails_of[seat] if status[s] == RUNNING]

    def running(self) -> bool:
        return RUNNING in self.board.status.tolist()

    # -- the result --------------------------------------------------------------------------
    def ranking(self) -> list[int]:
        """Snails in race order (see :func:`.scoring.ranking`)."""
        return scoring.ranking(self.board)

    def points(self) -> list[int]:
        """Race points per snail (see :func:`.scoring.points`)."""
        return scoring.points(self.board, self.config)
