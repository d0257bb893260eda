"""One race played: the set-up and the turns of a :class:`~.state.RaceState`.

:class:`Race` is the state with its turn loop; it asks each seat's policy for its decisions
through the views the state builds. The work is done by one module per responsibility:
:mod:`.dealing` (placement, deal, refills), :mod:`.phases` (the speed and action phases, the
end of a turn), :mod:`.effects` (action cards), :mod:`.reactions` (losses, counters, KO),
:mod:`.scoring` (ranking, points), :mod:`.narration` (replay text and events).

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
(:data:`~sim.gasterospeed.rules.effects.IMPOSSIBLE`) is lost: the rest of it does not apply.
"""

from __future__ import annotations

from . import dealing, phases
from .narration import say
from .state import RaceConfig, RaceState

__all__ = ["Race", "RaceConfig"]


class Race(RaceState):
    """One race: its state (:class:`~.state.RaceState`, the same arguments) and its turns."""

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
        compiled = self.compiled
        if compiled is not None and compiled.applies(self):
            # one compiled call: the speed phase, then the action cards chosen (the same play)
            self.action_phase(compiled.speed_phase(self, choose_actions=True))
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
