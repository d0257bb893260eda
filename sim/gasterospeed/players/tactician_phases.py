"""A table of tacticians plays its speed phase, and chooses its action cards, in compiled calls.

Most of a championship of tacticians was spent in Python around the look-ahead: a view per
decision, the decision's start, the options as objects. When every seat is a ``tactician`` at
temperature 0 with one snail and nobody narrates the race (:func:`applies`; a seat's
``forbid`` travels as its own cards array, so a restricted table keeps these calls),
:func:`speed_phase` hands the race to :func:`.kernels.tactician_phases.run` in arrays and takes
the result back, and :func:`action_choices` has :func:`.kernels.tactician_phases.choose` pick
the action cards (their effects stay :mod:`sim.gasterospeed.rules.effects`'): the same cards, moves, events, dice
draws and the same state of each tactician's evaluation as :mod:`sim.gasterospeed.rules.phases` (which plays every
other table). ``tests/gasterospeed/players/test_tactician_phases.py`` plays championships both ways
under the rule variants and compares every table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..rules.cards import SPEED, Deck
from ..rules.narration import log
from ..rules.view import CardOption
from .inference import DiscardCount
from .kernels import tactician_phases as _kernel
from .kernels.lookahead import ACTION_CARD
from .tactician import TacticianPolicy

if TYPE_CHECKING:
    from ..rules.state import RaceState

__all__ = ["applies", "speed_phase", "action_choices"]

#: off: every table plays the Python phases (the tests compare the two)
ENABLED = True

_PHASES = {_kernel.EV_DISCARD: "discard", _kernel.EV_SPEED: "speed", _kernel.EV_DROP: "drop"}
_OUTCOMES = {
    _kernel.OUT_SPEED_PHASE: "speed_phase",
    _kernel.OUT_VOID: "void",
    _kernel.OUT_BLOCKED: "blocked",
    _kernel.OUT_SACRIFICE: "sacrifice",
    _kernel.OUT_FINISHED: "finished",
}
#: uniforms a seat may read in one call: a tie for its speed card, its move, its action card
_DRAWS = 3


class _DeckArrays:
    """Per-uid tables of a deck as int64 arrays (kind, number, squares, entry, attacks) and
    the squares of each speed number (1 for numbers no speed card has)."""

    def __init__(self, deck: Deck):
        self.kind = np.array(deck.kind, dtype=np.int64)
        self.number = np.array(deck.number, dtype=np.int64)
        self.squares = np.array(deck.squares, dtype=np.int64)
        self.type = np.array(deck.type_of, dtype=np.int64)
        self.attacks = np.array(deck.uid_attacks, dtype=np.bool_)
        speed = self.kind == SPEED
        self.squares_of = np.ones(int(self.number[speed].max(initial=0)) + 1, dtype=np.int64)
        self.squares_of[self.number[speed]] = self.squares[speed]


def applies(race: RaceState) -> bool:
    """Whether the compiled calls play this race's phases: every seat a tactician at
    temperature 0, one snail each, no narration."""
    if not ENABLED or race.trace is not None or race.config.two_snails:
        return False
    for policy in race.policies:
        if type(policy) is not TacticianPolicy or policy.temperature != 0:
            return False
    return True


class _Table:
    """What the compiled calls read of a race, built at its first call: the deck's tables, the
    evaluators' context arrays as rows of one array (each evaluator keeps its row as its
    ``x``, so the Python decisions and the compiled ones share them), their card worths and
    numbers, and the buffers the calls write. One per race (races played at once in threads
    never share one)."""

    def __init__(self, race: RaceState):
        deck = race.deck
        self.policies: list[TacticianPolicy] = list(race.policies)
        self.evals = evals = [policy.eval for policy in self.policies]
        n_seats = len(evals)
        for ev in evals:
            ev.fit(race.board.n, n_seats)
            ev._type_worths(deck)
        self.X = np.stack([ev.x for ev in evals])
        for seat, ev in enumerate(evals):
            ev.x = self.X[seat]
        self.worths = np.stack([ev._worth_array for ev in evals])
        self.cards = np.stack([ev.cards(deck) for ev in evals])  # per seat: its forbidden cards marked
        self.params = np.array(
            [
                [ev._hand_discount, ev._hand_horizon, ev.mean_worth(deck), 1.0 if ev.p.value_tailwind else 0.0]
                for ev in evals
            ]
        )
        self.jostling, self.counters = evals[0]._deck_facts(deck)
        self.hands = np.zeros((n_seats, 0), dtype=np.int64)
        self.dice = np.zeros((n_seats, 0))
        self.push_keys = np.zeros((n_seats, 6), dtype=np.int64)
        self.counter_keys = np.zeros((n_seats, 0), dtype=np.int64)
        self.keys_of: list[tuple] = [()] * (2 * n_seats)  # the keys the rows hold, as tuples
        self.dice_of: list[tuple | None] = [None] * n_seats  # (buffer, first unread) each row holds
        self.dice_at = np.zeros(n_seats, dtype=np.int64)
        self.disc = np.zeros(n_seats)
        self.decided = np.zeros(n_seats, dtype=np.bool_)
        self.hand_len = np.zeros(n_seats, dtype=np.int64)
        self.pile_state = np.zeros(5, dtype=np.int64)
        self.deck_of = deck
        a = _DeckArrays(deck)
        self.deck = (deck.table, a.kind, a.number, a.squares, a.type, a.attacks, a.squares_of)
        self.seen = np.zeros(len(deck.ids), dtype=np.int64)
        self.discards = DiscardCount()
        self.chosen = np.empty(n_seats, dtype=np.int64)
        self.chosen_discard = np.zeros(n_seats, dtype=np.bool_)

    def _outputs(self, n_seats: int, longest: int) -> None:
        """The buffers a speed phase writes (events, discarded, played, counts) for hands of at
        most ``longest`` cards."""
        self.outputs = (
            np.empty((n_seats * (2 + longest), 5), dtype=np.int64),
            np.empty(n_seats * (1 + longest), dtype=np.int64),
            np.empty(n_seats, dtype=np.int64),
            np.zeros(3, dtype=np.int64),
        )

    def fits(self, race: RaceState) -> bool:
        """Whether the table is still the race's (same policies, same context arrays)."""
        return self.policies == race.policies and all(ev.x.base is self.X for ev in self.evals)

    def load(self, race: RaceState) -> None:
        """Hands, piles, dice and inference keys into the arrays."""
        piles = race.piles
        n_seats = len(self.evals)
        longest = max(1, max(map(len, piles.hands)))
        if self.hands.shape[1] < longest:
            self.hands = np.zeros((n_seats, longest + 4), dtype=np.int64)
            self.counter_keys = np.zeros((n_seats, 10 + longest + 4 + n_seats), dtype=np.int64)
            self.keys_of[n_seats:] = [()] * n_seats
            self._outputs(n_seats, longest + 4)
        hands, hand_len = self.hands, self.hand_len
        for seat, hand in enumerate(piles.hands):
            hands[seat, : len(hand)] = hand
            hand_len[seat] = len(hand)
        d0, d1 = piles.discard
        # the kernels count their own discards in ``seen`` as they go: it is set afresh each call
        self.seen[:] = self.discards.count((*d0, *d1), self.deck_of)
        n0, n1 = len(d0), len(d1)
        last = d1[-1] if n1 else d0[-1] if n0 else -1
        self.pile_state[:] = (n0 + n1, last, len(piles.draw[0]), len(piles.draw[1]), n1)
        for seat, policy in enumerate(self.policies):
            buffer, first = held = policy.dice.unread(_DRAWS)
            last_held = self.dice_of[seat]
            if last_held is not None and last_held[0] is buffer and last_held[1] == first:  # the row holds them
                continue
            n = buffer.size - first
            if self.dice.shape[1] < n:
                wider = np.zeros((n_seats, n + 256))
                wider[:, : self.dice.shape[1]] = self.dice
                self.dice = wider
            self.dice[seat, :n] = buffer[first:]
            self.dice_of[seat] = held
        keys_of = self.keys_of
        for seat, ev in enumerate(self.evals):
            if ev._push_key is not keys_of[seat]:
                self._put(self.push_keys[seat], ev._push_key, seat)
            if ev._counter_key is not keys_of[n_seats + seat]:
                self._put(self.counter_keys[seat], ev._counter_key, n_seats + seat)

    def _put(self, row: np.ndarray, key: tuple, at: int) -> None:
        """An evaluator's inference key into its row (see :meth:`store`)."""
        self.keys_of[at] = key
        if len(key) >= row.size:  # a longer hand than the row holds: a new key anyway
            key = ()
        row[0] = 1 if key else 0
        row[1 : len(key) + 1] = key

    def store(self, seat: int, disc: float) -> None:
        """A seat's decision state back to its evaluator (after a decision of the call): the
        hand discount, and the inference keys when a decision changed them."""
        ev, keys_of, n_seats = self.evals[seat], self.keys_of, len(self.evals)
        ev.disc = disc
        ev.snails = 1
        push, counter = self.push_keys[seat], self.counter_keys[seat]
        key = tuple(push[1:6].tolist()) if push[0] else ()
        if key != keys_of[seat]:
            ev._push_key = keys_of[seat] = key
        if counter[0]:
            key = tuple(counter[1 : 9 + counter[8] + n_seats].tolist())
            if key != keys_of[n_seats + seat]:
                ev._counter_key = keys_of[n_seats + seat] = key


def _load(race: RaceState) -> tuple:
    """The race in the arrays of the kernels: (table, deck, seats, cards held, inferred, rules)."""
    config = race.config
    table = getattr(race, "_tactician_table", None)
    if table is None or not table.fits(race):
        table = race._tactician_table = _Table(race)
    table.load(race)
    seats = (
        table.X,
        table.worths,
        table.params,
        table.push_keys,
        table.counter_keys,
        table.dice,
        table.dice_at,
        table.disc,
        table.decided,
        table.cards,
    )
    rules = (
        race.race_no,
        race.turn,
        float(config.shell_championship),
        config.sacrifice_gain,
        config.sacrifice,
        config.discard_in_speed_phase,
        config.separate,
    )
    return (
        table,
        table.deck,
        seats,
        (table.hands, table.hand_len, table.pile_state, table.seen),
        (table.jostling, table.counters),
        rules,
    )


def _unload(race: RaceState, table: _Table) -> None:
    """The hands, the dice read and the decisions' state back to the race and the players."""
    hands = table.hands
    for seat, (hand, n, read, decided, disc) in enumerate(
        zip(
            race.piles.hands,
            table.hand_len.tolist(),
            table.dice_at.tolist(),
            table.decided.tolist(),
            table.disc.tolist(),
        )
    ):
        if len(hand) != n:
            hand[:] = hands[seat, :n].tolist()
        if read:
            table.policies[seat].dice.skip(read)
        if decided:
            table.store(seat, disc)


def speed_phase(race: RaceState, choose_actions: bool = False) -> dict[int, CardOption] | None:
    """The speed phase of ``race`` (see the module docstring; :func:`applies` must hold); with
    ``choose_actions``, in the same call, the action cards the seats then place (as
    :func:`action_choices` right after it would choose them)."""
    table, deck, seats, held, inferred, rules = _load(race)
    piles = race.piles
    turn_speed = np.array(race.turn_speed, dtype=np.int64)
    events, discarded, played, counts = outputs = table.outputs
    chosen, chosen_discard = table.chosen, table.chosen_discard
    _kernel.run(
        race.board.state,
        race.board.world,
        deck,
        seats,
        held,
        inferred,
        rules,
        turn_speed,
        outputs,
        choose_actions,
        chosen,
        chosen_discard,
    )
    _unload(race, table)
    n_events, n_discarded, n_played = counts.tolist()
    for uid in discarded[:n_discarded].tolist():
        piles.discard_card(uid)
    piles.in_play.extend(played[:n_played].tolist())
    race.turn_speed = turn_speed.tolist()
    if race.events is not None:
        _log(race, events[:n_events])
    return _options(chosen, chosen_discard) if choose_actions else None


def action_choices(race: RaceState) -> dict[int, CardOption]:
    """The card each seat places face down in the action phase (see the module docstring;
    :func:`applies` must hold): ``{snail: option}``, as ``phases.action_phase`` asks for them."""
    table, deck, seats, held, inferred, rules = _load(race)
    chosen, chosen_discard = table.chosen, table.chosen_discard
    _kernel.fresh(seats, None)
    _kernel.choose(
        ACTION_CARD, race.board.state, race.board.world, deck, seats, held, inferred, rules, chosen, chosen_discard
    )
    _unload(race, table)
    return _options(chosen, chosen_discard)


def _options(chosen: np.ndarray, discard: np.ndarray) -> dict[int, CardOption]:
    """``{snail: option}`` of the seats that chose a card (one snail a seat: its index is the seat's)."""
    return {
        seat: CardOption(uid, flag)
        for seat, (uid, flag) in enumerate(zip(chosen.tolist(), discard.tolist()))
        if uid >= 0
    }


def _log(race: RaceState, rows: np.ndarray) -> None:
    """The events rows the call wrote, logged as the Python phases log them."""
    for kind, s, uid, outcome, gained in rows.tolist():
        log(race, _PHASES[kind], s, uid, _OUTCOMES[outcome] if outcome != _kernel.OUT_MOVED else f"moved{gained:+d}")
