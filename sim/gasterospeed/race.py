"""One race: its state (the public board, the piles and hands, the seats' policies, the dice)
and its turns.

:class:`Race` owns the hidden state (draw piles, hands) and the public
:class:`~sim.gasterospeed.board.Board`; it asks each seat's policy for its decisions through a
:class:`~sim.gasterospeed.view.View` that holds public information and that seat's own hand
only, so no player can see another's hand or the draw order. The work is done by one module
per responsibility: :mod:`.dealing` (placement, deal, refills), :mod:`.phases` (the speed and
action phases, the end of a turn), :mod:`.effects` (action cards), :mod:`.reactions` (losses,
counters, KO), :mod:`.scoring` (ranking, points), :mod:`.narration` (replay text and events).

A test sets a position up directly (``tests/gasterospeed/helpers.py`` wraps this)::

    race = Race(circuit, deck, RaceConfig.from_rules(rules), policies, dice, shells=3)
    race.draw[0] = list(range(len(deck)))     # the deck, in a known order
    race.board.place(0, cell)                 # snails where the test wants them
    u = deck.speed_uid(204)
    race.draw[0].remove(u); race.hands[0].append(u)   # hands as the test wants them
    race.speed_phase({0: u})                  # chosen cards; the policies decide the rest
    race.action_phase({0: (deck.uids("tir")[0], False)})

Order of resolution (documented priorities): speed cards from the highest number down; action
cards by order 1→4, equal orders by the higher speed card of this turn (snails without one: 0,
then by snail index); reactions, in addition to the card placed face down, at the moment they
counter: a loss of shells about to happen (a shot that hit, a domino, a burn, brambles) or a
push of the holder's running snail by another seat's card (a jostle). A card made impossible
(:data:`~sim.gasterospeed.effects.IMPOSSIBLE`) is lost: the rest of it does not apply.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import dealing, phases, scoring, tactician_phases
from .board import RUNNING, Board
from .cards import Deck, Dice
from .circuit import Circuit
from .narration import say, snail_labels
from .piles import Piles
from .view import View

if TYPE_CHECKING:
    from .players import Policy
    from .reactions import Counter

__all__ = ["Race", "RaceConfig"]


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
        return cls(hand_size=rules.hand_size, two_snails=v.two_snails,
                   two_snail_hand=v.two_snails_hand_size, two_snails_placement=v.two_snails_placement,
                   two_snails_choice_order=v.two_snails_choice_order,
                   separate=rules.separate_decks, separate_fallback=v.separate_fallback,
                   free_draws=v.free_draws, radis_sale=v.radis_sale,
                   sacrifice=v.sacrifice, sacrifice_gain=v.sacrifice_gain,
                   all_action_discard=r.all_action_discard, turn_cap=r.turn_cap,
                   placement_die=r.placement_die, points=tuple(r.points), ko_points=r.ko_points,
                   last_gets_ko_points=r.last_gets_ko_points, shell_championship=v.shell_championship,
                   discard_in_speed_phase=r.discard_in_speed_phase, ko_at_finish=r.ko_at_finish,
                   pushed_into_obstacle=r.pushed_into_obstacle, start_slot_taken=r.start_slot_taken,
                   domino_line=r.domino_line, pushes_cut_arrows=r.pushes_cut_arrows)

    @property
    def snails_per_seat(self) -> int:
        return 2 if self.two_snails else 1


class Race:
    """The state of one race and its turns.

    Args:
        circuit: the compiled circuit.
        deck: the compiled deck.
        config: the race rules.
        policies: one :class:`~sim.gasterospeed.players.Policy` per seat.
        chance: the dice of the race (shuffles, rolls, random discards).
        shells: starting shells, one int for every snail or one per snail.
        race_no, races_left, scores, upcoming: championship context shown to the players.
        events: a list to append event rows to (None: no log).
        trace: a list to append the narration to (None: no narration).
        on_turn: called with the race once the snails are placed and after every turn (None:
            nothing; the animated replay records the board there).
    """

    def __init__(self, circuit: Circuit, deck: Deck, config: RaceConfig, policies: Sequence[Policy],
                 chance: Dice, *, shells: int | Sequence[int], race_no: int = 1,
                 races_left: int = 0, scores: Sequence[float] | None = None,
                 upcoming: Sequence[Circuit] = (), events: list | None = None,
                 trace: list | None = None, on_turn: Callable[[Race], None] | None = None):
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
        self.piles = Piles(deck, config.separate, n_seats, chance, lambda text: say(self, text),
                           fallback=config.separate_fallback)
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
        return View(seat, self._snail_tuples[seat], self.public_board() if wants else None,
                    tuple(piles.hands[seat]), self.deck, tuple(piles.discard[0] + piles.discard[1]),
                    (len(piles.draw[0]), len(piles.draw[1])), tuple(map(len, piles.hands)),
                    tuple(self.turn_speed), self.turn, self.race_no, self.races_left, self.scores,
                    self.config, self.board.c, self.upcoming)

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

    # -- the race ----------------------------------------------------------------------------
    def setup(self) -> None:
        """Shuffle, place the snails (placement die), deal the hands."""
        dealing.setup(self)

    def run(self) -> None:
        """Set up and play turns until every snail has finished or is KO, or the turn cap."""
        self.setup()
        if self.trace is not None:
            self.trace.append("Start:")
            self.trace.extend("  " + row for row in self.board.render(self.labels))
        if self.on_turn is not None:
            self.on_turn(self)
        while self.running() and self.turn < self.config.turn_cap:
            self.play_turn()
            if self.on_turn is not None:
                self.on_turn(self)
        self.capped = self.running()
        if self.capped:
            say(self, f"Turn cap ({self.config.turn_cap}) reached: the race stops.")

    def play_turn(self) -> None:
        self.turn += 1
        say(self, f"\n=== Turn {self.turn} ===")
        if tactician_phases.applies(self):
            # one compiled call: the speed phase, then the action cards chosen (the same play)
            self.action_phase(tactician_phases.speed_phase(self, choose_actions=True))
        else:
            self.speed_phase()
            self.action_phase()
        self.end_turn()
        if self.trace is not None:
            self.trace.extend("  " + row for row in self.board.render(self.labels))

    def speed_phase(self, chosen: dict[int, int | tuple[int, bool]] | None = None) -> None:
        """The speed phase (see :func:`.phases.speed_phase`); ``chosen``: snail → uid or
        (uid, discard), instead of asking the policies."""
        phases.speed_phase(self, chosen)

    def action_phase(self, chosen: dict[int, tuple[int, bool]] | None = None) -> None:
        """The action phase (see :func:`.phases.action_phase`); ``chosen``: snail → (uid, discard)."""
        phases.action_phase(self, chosen)

    def end_turn(self) -> None:
        """Played cards to the discard, hands refilled, all-action hands redrawn."""
        phases.end_turn(self)

    # -- the result --------------------------------------------------------------------------
    def ranking(self) -> list[int]:
        """Snails in race order (see :func:`.scoring.ranking`)."""
        return scoring.ranking(self.board)

    def points(self) -> list[int]:
        """Race points per snail (see :func:`.scoring.points`)."""
        return scoring.points(self.board, self.config)
