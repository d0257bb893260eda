"""A table of tacticians plays its speed phase, and chooses its action cards, in compiled calls.

Most of a championship of tacticians was spent in Python around the look-ahead: a view per
decision, the decision's start, the options as objects. When every seat is a ``tactician`` at
temperature 0 with one snail and nobody narrates the race (:func:`applies`),
:func:`speed_phase` hands the race to :func:`.kernels.tactician_phases.run` in arrays and takes
the result back, and :func:`action_choices` has :func:`.kernels.tactician_phases.choose` pick
the action cards (their effects stay :mod:`.effects`'): the same cards, moves, events, dice
draws and the same state of each tactician's evaluation as :mod:`.phases` (which plays every
other table). ``tests/gasterospeed/test_tactician_phases.py`` plays championships both ways
under the rule variants and compares every table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .cards import SPEED, Deck
from .kernels import tactician_phases as _kernel
from .kernels.lookahead import ACTION_CARD
from .tactician import TacticianPolicy
from .view import CardOption

if TYPE_CHECKING:
    from .race import Race

__all__ = ["applies", "speed_phase", "action_choices"]

#: off: every table plays the Python phases (the tests compare the two)
ENABLED = True

_PHASES = {_kernel.EV_DISCARD: "discard", _kernel.EV_SPEED: "speed", _kernel.EV_DROP: "drop"}
_OUTCOMES = {_kernel.OUT_SPEED_PHASE: "speed_phase", _kernel.OUT_VOID: "void", _kernel.OUT_BLOCKED: "blocked",
             _kernel.OUT_SACRIFICE: "sacrifice", _kernel.OUT_FINISHED: "finished"}
#: uniforms a seat may read in one call: a tie for its speed card, its move, its action card
_DRAWS = 3


class _DeckArrays:
    """Per-uid tables of a deck as int64 arrays (kind, number, squares, entry, attacks) and
    the squares of each speed number (1 for numbers no speed card has)."""

    deck: Deck | None = None

    @classmethod
    def of(cls, deck: Deck) -> type[_DeckArrays]:
        if cls.deck is not deck:
            cls.kind = np.array(deck.kind, dtype=np.int64)
            cls.number = np.array(deck.number, dtype=np.int64)
            cls.squares = np.array(deck.squares, dtype=np.int64)
            cls.type = np.array(deck.type_of, dtype=np.int64)
            cls.attacks = np.array(deck.uid_attacks, dtype=np.bool_)
            speed = cls.kind == SPEED
            cls.squares_of = np.ones(int(cls.number[speed].max(initial=0)) + 1, dtype=np.int64)
            cls.squares_of[cls.number[speed]] = cls.squares[speed]
            cls.deck = deck
        return cls


def applies(race: Race) -> bool:
    """Whether the compiled calls play this race's phases: every seat a tactician at
    temperature 0, one snail each, no narration."""
    if not ENABLED or race.trace is not None or race.config.two_snails:
        return False
    for policy in race.policies:
        if type(policy) is not TacticianPolicy or policy.temperature != 0:
            return False
    return True


class _Table:
    """What the compiled phase reads of a race's seats, built at its first speed phase: the
    evaluators' context arrays become rows of one array (each evaluator keeps its row as its
    ``x``, so the Python decisions and the compiled ones share them), their card worths and
    numbers, and the buffers the phase writes."""

    def __init__(self, race: Race):
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
        self.params = np.array([[ev._hand_discount, ev._hand_horizon, ev.mean_worth(deck),
                                 1.0 if ev.p.value_tailwind else 0.0] for ev in evals])
        self.jostling, self.counters = evals[0]._deck_facts(deck)
        self.hands = np.zeros((n_seats, 0), dtype=np.int64)
        self.dice = np.zeros((n_seats, 0))
        self.push_keys = np.zeros((n_seats, 6), dtype=np.int64)
        self.counter_keys = np.zeros((n_seats, 0), dtype=np.int64)
        self.keys_of: list[tuple] = [()] * (2 * n_seats)    # the keys the rows hold, as tuples
        self.dice_of: list[tuple | None] = [None] * n_seats   # (buffer, first unread) each row holds
        self.dice_at = np.zeros(n_seats, dtype=np.int64)
        self.disc = np.zeros(n_seats)
        self.decided = np.zeros(n_seats, dtype=np.bool_)
        self.hand_len = np.zeros(n_seats, dtype=np.int64)
        self.pile_state = np.zeros(5, dtype=np.int64)
        self.deck_type, self.n_types = _DeckArrays.of(deck).type, len(deck.ids)
        self.seen = np.zeros(self.n_types, dtype=np.int64)
        self.chosen = np.empty(n_seats, dtype=np.int64)
        self.chosen_discard = np.zeros(n_seats, dtype=np.bool_)

    def _outputs(self, n_seats: int, longest: int) -> None:
        """The buffers a speed phase writes (events, discarded, played, counts) for hands of at
        most ``longest`` cards."""
        self.outputs = (np.empty((n_seats * (2 + longest), 5), dtype=np.int64),
                        np.empty(n_seats * (1 + longest), dtype=np.int64), np.empty(n_seats, dtype=np.int64),
                        np.zeros(3, dtype=np.int64))

    def fits(self, race: Race) -> bool:
        """Whether the table is still the race's (same policies, same context arrays)."""
        return self.policies == race.policies and all(ev.x.base is self.X for ev in self.evals)

    def load(self, race: Race) -> None:
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
            hands[seat, :len(hand)] = hand
            hand_len[seat] = len(hand)
        d0, d1 = piles.discard
        discard = d0 + d1
        self.seen = (np.bincount(self.deck_type[discard], minlength=self.n_types) if discard
                     else np.zeros(self.n_types, dtype=np.int64))
        self.pile_state[:] = (len(discard), discard[-1] if discard else -1, len(piles.draw[0]), len(piles.draw[1]),
                         len(d1))
        for seat, policy in enumerate(self.policies):
            buffer, first = held = policy.dice.unread(_DRAWS)
            last = self.dice_of[seat]
            if last is not None and last[0] is buffer and last[1] == first:   # the row holds them
                continue
            n = buffer.size - first
            if self.dice.shape[1] < n:
                wider = np.zeros((n_seats, n + 256))
                wider[:, :self.dice.shape[1]] = self.dice
                self.dice = wider
            self.dice[seat, :n] = buffer[first:]
            self.dice_of[seat] = held
        for seat, ev in enumerate(self.evals):
            for row, key, at in ((self.push_keys[seat], ev._push_key, seat),
                                 (self.counter_keys[seat], ev._counter_key, n_seats + seat)):
                if key is not self.keys_of[at]:
                    if len(key) >= row.size:       # a longer hand than the rows hold: a new key anyway
                        key = ()
                    row[0] = 1 if key else 0
                    row[1:len(key) + 1] = key
                    self.keys_of[at] = key

    def store(self, seat: int, ev) -> None:
        """A seat's inference keys back to its evaluator (after a decision of the phase)."""
        n_seats = len(self.evals)
        push, counter = self.push_keys[seat], self.counter_keys[seat]
        ev._push_key = tuple(push[1:6].tolist()) if push[0] else ()
        ev._counter_key = tuple(counter[1:9 + counter[8] + n_seats].tolist()) if counter[0] else ()
        self.keys_of[seat], self.keys_of[n_seats + seat] = ev._push_key, ev._counter_key


def _load(race: Race) -> tuple:
    """The race in the arrays of the kernels: (table, deck, seats, cards held, inferred, rules)."""
    deck, piles, config = race.deck, race.piles, race.config
    a = _DeckArrays.of(deck)
    table = getattr(race, "_tactician_table", None)
    if table is None or not table.fits(race):
        table = race._tactician_table = _Table(race)
    table.load(race)
    seats = (table.X, table.worths, table.params, table.push_keys, table.counter_keys, table.dice, table.dice_at,
             table.disc, table.decided)
    rules = (race.race_no, race.turn, float(config.shell_championship), config.sacrifice_gain, config.sacrifice,
             config.discard_in_speed_phase, config.separate)
    return (table, (deck.table, a.kind, a.number, a.squares, a.type, a.attacks, a.squares_of), seats,
            (table.hands, table.hand_len, table.pile_state, table.seen), (table.jostling, table.counters), rules)


def _unload(race: Race, table: _Table) -> None:
    """The hands, the dice read and the decisions' state back to the race and the players."""
    hands = table.hands
    for seat, (hand, n) in enumerate(zip(race.piles.hands, table.hand_len.tolist())):
        if len(hand) != n:
            hand[:] = hands[seat, :n].tolist()
    for seat, read in enumerate(table.dice_at.tolist()):
        if read:
            table.policies[seat].dice.skip(read)
    for seat, decided in enumerate(table.decided.tolist()):
        if decided:
            ev = table.evals[seat]
            ev.disc = float(table.disc[seat])
            ev.snails = 1
            table.store(seat, ev)


def speed_phase(race: Race, choose_actions: bool = False) -> dict[int, CardOption] | None:
    """The speed phase of ``race`` (see the module docstring; :func:`applies` must hold); with
    ``choose_actions``, in the same call, the action cards the seats then place (as
    :func:`action_choices` right after it would choose them)."""
    table, deck, seats, held, inferred, rules = _load(race)
    piles = race.piles
    turn_speed = np.array(race.turn_speed, dtype=np.int64)
    events, discarded, played, counts = outputs = table.outputs
    chosen, chosen_discard = table.chosen, table.chosen_discard
    _kernel.run(race.board.state, race.board.world, deck, seats, held, inferred, rules, turn_speed, outputs,
                choose_actions, chosen, chosen_discard)
    _unload(race, table)
    n_events, n_discarded, n_played = counts.tolist()
    for uid in discarded[:n_discarded].tolist():
        piles.discard_card(uid)
    piles.in_play.extend(played[:n_played].tolist())
    race.turn_speed = turn_speed.tolist()
    if race.events is not None:
        _log(race, events[:n_events])
    return _options(chosen, chosen_discard) if choose_actions else None


def action_choices(race: Race) -> dict[int, CardOption]:
    """The card each seat places face down in the action phase (see the module docstring;
    :func:`applies` must hold): ``{snail: option}``, as ``phases.action_phase`` asks for them."""
    table, deck, seats, held, inferred, rules = _load(race)
    chosen, chosen_discard = table.chosen, table.chosen_discard
    _kernel.fresh(seats, None)
    _kernel.choose(ACTION_CARD, race.board.state, race.board.world, deck, seats, held, inferred, rules, chosen,
                   chosen_discard)
    _unload(race, table)
    return _options(chosen, chosen_discard)


def _options(chosen: np.ndarray, discard: np.ndarray) -> dict[int, CardOption]:
    """``{snail: option}`` of the seats that chose a card (one snail a seat: its index is the seat's)."""
    return {seat: CardOption(uid, flag) for seat, (uid, flag) in enumerate(zip(chosen.tolist(), discard.tolist()))
            if uid >= 0}


def _log(race: Race, rows: np.ndarray) -> None:
    """The events rows the phase wrote (as :func:`.narration.log` writes them)."""
    deck, out = race.deck, race.events
    for kind, s, uid, outcome, gained in rows.tolist():
        out.append({"index": len(out), "round": race.race_no, "turn": race.turn, "phase": _PHASES[kind],
                    "seat": race.board.owner[s], "snail": 0, "card": deck.cid[uid], "number": deck.number[uid],
                    "outcome": _OUTCOMES[outcome] if outcome != _kernel.OUT_MOVED else f"moved{gained:+d}"})
