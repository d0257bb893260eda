"""Hand-made positions for the rule tests: small maps, scripted players, loaded dice."""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from sim.core.rules import load_rules
from sim.gasterospeed import GAME
from sim.gasterospeed.rules.cards import Deck
from sim.gasterospeed.rules.circuit import compile_circuit
from sim.gasterospeed.rules.race import Race, RaceConfig
from sim.gasterospeed.rules.schema import CircuitRules
from sim.gasterospeed.rules.view import NO_REACTION

RULES = load_rules(GAME)
DECK = Deck(RULES.deck)
#: The race rules of the default rules file (tests change fields with :func:`config`).
CONFIG = RaceConfig.from_rules(RULES)


def config(**changes) -> RaceConfig:
    """The default race rules with ``changes`` (field → value)."""
    return replace(CONFIG, **changes)


#: A 4-wide straight track, finish at the top (row 0), start slots on row 5.
OPEN = """
#FFFF#
#....#
#....#
#....#
#....#
#SSSS#
#====#
"""


def circuit(text: str = OPEN, **rules):
    """A compiled circuit from a map (and optional circuit rules: die, shot_hits, ...)."""
    return compile_circuit(CircuitRules(map=text, **rules), "test")


def at(c, r: int, col: int) -> int:
    """The square at row ``r``, column ``col`` of circuit ``c``."""
    return r * c.width + col


def uid(cid: str, k: int = 0) -> int:
    """The ``k``-th physical card of deck entry ``cid``."""
    return DECK.uids(cid)[k]


def speed(number: int) -> int:
    """The speed card numbered ``number``."""
    return DECK.speed_uid(number)


class Loaded:
    """Dice that roll the queued faces (then 1s), shuffle nothing and pick index 0."""

    def __init__(self, *rolls: int):
        self.rolls = deque(rolls)
        self.asked: list[int] = []

    def roll(self, faces: int) -> int:
        self.asked.append(faces)
        face = self.rolls.popleft() if self.rolls else 1
        assert 1 <= face <= faces, f"loaded face {face} on a D{faces}"
        return face

    def u(self) -> float:
        return 0.0

    def index(self, n: int) -> int:
        return 0

    def shuffle(self, items: list) -> None:
        return None


#: Short names of the reaction cards for :class:`Scripted` answers.
REACTIONS = {"cancel": "renfort_de_coquille", "reflect": "retour_de_baton"}


class Scripted:
    """A player whose answers are queued per decision; an empty queue answers the first
    option (no reaction for ``react``). Answers are option values (a square, a direction, a
    snail, a card uid — or a whole ``(uid, discard)`` option —, a reaction card's id or
    ``"cancel"`` (Renfort de coquille) / ``"reflect"`` (Retour de bâton) / ``"none"``), not
    indices. Every call is recorded."""

    wants_board = True

    def __init__(self, **answers):
        self.answers = {name: deque(values) for name, values in answers.items()}
        self.calls: list[tuple[str, tuple]] = []

    def _answer(self, name: str, options, default: int = 0) -> int:
        queue = self.answers.get(name)
        if not queue:
            return default
        wanted = queue.popleft()
        for i, option in enumerate(options):
            value = option[0] if isinstance(option, tuple) and not isinstance(wanted, tuple) else option
            if value == wanted:
                return i
        raise AssertionError(f"{name}: {wanted!r} is not among the options {options!r}")

    def place(self, view, s, slots):
        self.calls.append(("place", (view, s, slots)))
        return self._answer("place", slots)

    def commit(self, view, reserve, low, high):
        self.calls.append(("commit", (view, reserve, low, high)))
        queue = self.answers.get("commit")
        return queue.popleft() if queue else high

    def speed_card(self, view, s, cards):
        self.calls.append(("speed_card", (view, s, cards)))
        return self._answer("speed_card", cards)

    def speed_move(self, view, s, uid_, ends):
        self.calls.append(("speed_move", (view, s, uid_, ends)))
        return self._answer("speed_move", ends)

    def action_card(self, view, s, options):
        self.calls.append(("action_card", (view, s, options)))
        return self._answer("action_card", options)

    def move_choice(self, view, s, uid_, options):
        self.calls.append(("move_choice", (view, s, uid_, options)))
        return self._answer("move_choice", options)

    def target(self, view, s, uid_, targets):
        self.calls.append(("target", (view, s, uid_, targets)))
        return self._answer("target", targets)

    def react(self, view, s, source, cause, options):
        self.calls.append(("react", (view, s, source, cause, options)))
        queue = self.answers.get("react")
        if not queue:
            return 0
        wanted = queue.popleft()
        if wanted == "none":
            return 0
        for i, u in enumerate(options):
            if u != NO_REACTION and DECK.cid[u] == REACTIONS.get(wanted, wanted):
                return i
        raise AssertionError(f"react: no {wanted!r} among {options!r}")

    def draw_piles(self, view, n):
        self.calls.append(("draw_piles", (view, n)))
        queue = self.answers.get("draw_piles")
        return [queue.popleft() if queue else 0 for _ in range(n)]

    def discard(self, view, n):
        self.calls.append(("discard", (view, n)))
        return list(range(n))


def race(
    c=None,
    n_seats: int = 2,
    *,
    shells=RULES.shells,
    policies=None,
    dice=None,
    config=None,
    events=None,
    fill_piles: bool = True,
    deck: Deck = DECK,
) -> Race:
    """A race on circuit ``c`` with empty hands and no snail placed; the rest of the deck in
    the draw pile (in uid order, so tests can reason about it) unless ``fill_piles`` is off.
    ``config``: the race rules (default: the rules file's); ``deck``: the cards (default: the
    rules file's)."""
    c = c or circuit()
    config = config or CONFIG
    policies = policies or [Scripted() for _ in range(n_seats)]
    r = Race(c, deck, config, policies, dice or Loaded(), shells=shells, events=events)
    if fill_piles:
        r.draw[0] = list(range(len(deck)))
    return r


def give(r: Race, seat: int, *cards: int) -> None:
    """Move cards from wherever they are into ``seat``'s hand (keeps the 80 cards counted)."""
    for u in cards:
        for pile in r.draw + r.discard + r.hands:
            if u in pile:
                pile.remove(u)
                break
        r.hands[seat].append(u)
