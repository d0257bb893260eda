"""One race: placement, dealing, turns of a speed phase and an action phase, the result.

:class:`Race` owns the hidden state (draw piles, hands) and the public :class:`Board`; it asks
each seat's policy for its decisions through a :class:`View` that holds public information and
that seat's own hand only, so no player can see another's hand or the draw order.

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
(:data:`IMPOSSIBLE`) is lost: the rest of it does not apply.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .board import FINISHED, KO, RUNNING, Board
from .cards import ACTION, SPEED, Deck, Dice
from .circuit import Circuit

__all__ = ["Race", "RaceConfig", "View", "SACRIFICE", "NO_REACTION", "IMPOSSIBLE", "snail_labels"]

#: A speed-move option: stay put and regain shells (sacrifice variant).
SACRIFICE = -2
#: A reaction option: take the loss.
NO_REACTION = -1
#: Outcomes of an effect that make the rest of its card impossible (the card is lost).
IMPOSSIBLE = frozenset(("lost", "not_behind", "no_target", "countered"))


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
    separate: bool
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

    @classmethod
    def from_rules(cls, rules) -> RaceConfig:
        v, r = rules.variants, rules.race
        return cls(hand_size=rules.hand_size, two_snails=v.two_snails,
                   two_snail_hand=v.two_snails_hand_size, two_snails_placement=v.two_snails_placement,
                   separate=rules.separate_decks, free_draws=v.free_draws, radis_sale=v.radis_sale,
                   sacrifice=v.sacrifice, sacrifice_gain=v.sacrifice_gain,
                   all_action_discard=r.all_action_discard, turn_cap=r.turn_cap,
                   placement_die=r.placement_die, points=tuple(r.points), ko_points=r.ko_points,
                   last_gets_ko_points=r.last_gets_ko_points, shell_championship=v.shell_championship,
                   discard_in_speed_phase=r.discard_in_speed_phase, ko_at_finish=r.ko_at_finish,
                   pushed_into_obstacle=r.pushed_into_obstacle, start_slot_taken=r.start_slot_taken,
                   domino_line=r.domino_line)

    @property
    def snails_per_seat(self) -> int:
        return 2 if self.two_snails else 1


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

    __slots__ = ("seat", "snails", "board", "hand", "deck", "discard", "draw_sizes", "hand_sizes",
                 "revealed_speed", "turn", "race_no", "races_left", "scores", "config", "circuit",
                 "upcoming", "stakes")

    def __init__(self, **fields):
        for name in self.__slots__:
            setattr(self, name, fields.get(name))


def snail_labels(n_seats: int, per_seat: int) -> list[str]:
    """Map labels: seat letters A, B, ... (a second snail in lower case)."""
    letters = "ABCDEFGHIJKL"
    out = []
    for seat in range(n_seats):
        out.append(letters[seat])
        if per_seat == 2:
            out.append(letters[seat].lower())
    return out


class Race:
    """The engine of one race.

    Args:
        circuit: the compiled circuit.
        deck: the compiled deck.
        config: the race rules.
        policies: one policy per seat (see ``players.py`` for the decisions they make).
        chance: the dice of the race (shuffles, rolls, random discards).
        shells: starting shells, one int for every snail or one per snail.
        race_no, races_left, scores, upcoming: championship context shown to the players.
        events: a list to append event rows to (None: no log).
        trace: a list to append the narration to (None: no narration).
    """

    def __init__(self, circuit: Circuit, deck: Deck, config: RaceConfig, policies: Sequence,
                 chance: Dice, *, shells: int | Sequence[int], race_no: int = 1,
                 races_left: int = 0, scores: Sequence[float] | None = None,
                 upcoming: Sequence[Circuit] = (), events: list | None = None,
                 trace: list | None = None):
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
        self.hands: list[list[int]] = [[] for _ in range(n_seats)]
        self.hand_target = [config.two_snail_hand if per == 2 else config.hand_size] * n_seats
        self.draw: list[list[int]] = [[], []]
        self.discard: list[list[int]] = [[], []]
        self.in_play: list[int] = []
        self.turn = 0
        self.turn_speed = [0] * len(owners)
        self.race_no = race_no
        self.races_left = races_left
        self.scores = tuple(scores) if scores is not None else (0.0,) * n_seats
        self.upcoming = tuple(upcoming)
        self.events = events
        self.trace = trace
        self.labels = snail_labels(n_seats, per)
        self.capped = False
        self.ko_order: list[int] = []
        self._countered: tuple[int, str] | None = None

    # -- cards -----------------------------------------------------------------------------
    def pile_of(self, uid: int) -> int:
        """Index of the pile a card belongs to (0 shared or speed, 1 action when separate)."""
        return 1 if self.config.separate and self.deck.kind[uid] != SPEED else 0

    def card_count(self) -> int:
        """Cards in draw piles + discard piles + hands + in play (always the deck's size)."""
        return (sum(len(p) for p in self.draw) + sum(len(p) for p in self.discard)
                + sum(len(h) for h in self.hands) + len(self.in_play))

    def discard_card(self, uid: int) -> None:
        self.discard[self.pile_of(uid)].append(uid)

    def draw_card(self, seat: int, pile: int = 0) -> bool:
        """Draw the top card of ``pile`` into ``seat``'s hand (reshuffle the discard if needed;
        when separate, an exhausted pile falls back on the other). False if nothing to draw."""
        for p in (pile, 1 - pile) if self.config.separate else (0,):
            if not self.draw[p] and self.discard[p]:
                self.draw[p] = self.discard[p]
                self.discard[p] = []
                self.chance.shuffle(self.draw[p])
                self._say("  (the discard pile is reshuffled into the draw pile)")
            if self.draw[p]:
                self.hands[seat].append(self.draw[p].pop())
                return True
        return False

    # -- narration and log ------------------------------------------------------------------
    def _say(self, text: str) -> None:
        if self.trace is not None:
            self.trace.append(text)

    def _log(self, phase: str, s: int, uid: int, outcome: str) -> dict | None:
        if self.events is None:
            return None
        seat = self.board.owner[s]
        row = {"index": len(self.events), "round": self.race_no, "turn": self.turn, "phase": phase,
               "seat": seat, "snail": self.snails_of[seat].index(s),
               "card": self.deck.cid[uid] if uid >= 0 else "",
               "number": self.deck.number[uid] if uid >= 0 else 0, "outcome": outcome}
        self.events.append(row)
        return row

    def _name(self, s: int) -> str:
        return self.labels[s]

    def _card(self, uid: int) -> str:
        return self.deck.cards[uid].label

    def view(self, seat: int) -> View:
        """The public information and ``seat``'s own hand (a fresh copy)."""
        wants = getattr(self.policies[seat], "wants_board", True)
        return View(seat=seat, snails=tuple(self.snails_of[seat]),
                    board=self.board.copy() if wants else None, hand=tuple(self.hands[seat]),
                    deck=self.deck, discard=tuple(self.discard[0] + self.discard[1]),
                    draw_sizes=(len(self.draw[0]), len(self.draw[1])),
                    hand_sizes=tuple(len(h) for h in self.hands), revealed_speed=tuple(self.turn_speed),
                    turn=self.turn, race_no=self.race_no, races_left=self.races_left,
                    scores=self.scores, config=self.config, circuit=self.board.c,
                    upcoming=self.upcoming)

    # -- setup -------------------------------------------------------------------------------
    def setup(self) -> None:
        """Shuffle, place the snails (D8), deal the hands."""
        cards = list(range(len(self.deck)))
        for uid in cards:
            self.draw[self.pile_of(uid)].append(uid)
        for pile in self.draw:
            self.chance.shuffle(pile)
        self.place_snails()
        self.deal()

    def place_snails(self) -> None:
        """Each seat rolls the placement die; lowest first, each puts its snail on a free start
        slot of its choice. Two snails: everyone's first snail, then the second ones
        (``two_snails_placement = "round"``), or each seat both its snails at once (``"both"``)."""
        n_seats = len(self.policies)
        rolls = [self.chance.roll(self.config.placement_die) for _ in range(n_seats)]
        ties = [self.chance.u() for _ in range(n_seats)]
        order = sorted(range(n_seats), key=lambda seat: (rolls[seat], ties[seat]))
        self._say("Placement rolls (D%d): " % self.config.placement_die
                  + ", ".join(f"{self.labels[self.snails_of[s][0]]} {rolls[s]}" for s in range(n_seats)))
        board = self.board
        per = range(self.config.snails_per_seat)
        if self.config.two_snails_placement == "both":
            turns = [(seat, k) for seat in order for k in per]
        else:
            turns = [(seat, k) for k in per for seat in order]
        for seat, k in turns:
            s = self.snails_of[seat][k]
            if board.status[s] != RUNNING:
                continue
            free = [cell for cell in board.c.slots if board.occ[cell] < 0]
            if not free:
                raise ValueError(f"circuit {board.c.name}: not enough start slots")
            i = self.policies[seat].place(self.view(seat), s, free) if len(free) > 1 else 0
            board.place(s, free[i])

    def _active(self, seat: int) -> list[int]:
        return [s for s in self.snails_of[seat] if self.board.status[s] == RUNNING]

    def deal(self) -> None:
        """Deal the starting hands (free draws: 1 + 1, then piles of each player's choice)."""
        for seat in range(len(self.policies)):
            if not self._active(seat):
                continue
            if self.config.free_draws:
                self.draw_card(seat, 0)
                self.draw_card(seat, 1)
            self.refill(seat)
        for seat in range(len(self.policies)):
            if self._active(seat):
                self.all_action_check(seat)

    def refill(self, seat: int) -> None:
        """Complete ``seat``'s hand to its size from the pile(s) the rules say."""
        cfg = self.config
        hand = self.hands[seat]
        target = self.hand_target[seat]
        missing = target - len(hand)
        if missing <= 0:
            return
        if not cfg.separate:
            for _ in range(missing):
                self.draw_card(seat, 0)
        elif not cfg.free_draws:
            speed_target = (target + 1) // 2
            for _ in range(missing):
                n_speed = sum(1 for u in hand if self.deck.kind[u] == SPEED)
                speed_def = speed_target - n_speed
                action_def = (target - speed_target) - (len(hand) - n_speed)
                self.draw_card(seat, 0 if speed_def >= action_def else 1)
        elif cfg.radis_sale:
            piles = self.policies[seat].draw_piles(self.view(seat), missing)
            for pile in piles[:missing]:
                self.draw_card(seat, pile)
        else:
            for _ in range(missing):
                pile = self.policies[seat].draw_piles(self.view(seat), 1)[0]
                self.draw_card(seat, pile)

    def all_action_check(self, seat: int) -> None:
        """A hand of only action cards is announced: discard ``all_action_discard`` cards at random
        and draw as many (from the speed pile when separate), until a speed card is in hand."""
        hand = self.hands[seat]
        kind = self.deck.kind
        for _ in range(100):
            if not hand or any(kind[u] == SPEED for u in hand):
                return
            if not any(kind[u] == SPEED for u in self.draw[0] + self.discard[0]):
                return  # no speed card left to draw: the hand plays on
            k = min(self.config.all_action_discard, len(hand))
            self._say(f"  {self._name(self.snails_of[seat][0])} holds only action cards: "
                      f"discards {k} at random and draws {k}")
            for _ in range(k):
                uid = hand.pop(self.chance.index(len(hand)))
                self.discard_card(uid)
                self._log("redraw", self.snails_of[seat][0], uid, "all_action")
            for _ in range(k):
                self.draw_card(seat, 0)

    # -- a turn ------------------------------------------------------------------------------
    def running(self) -> bool:
        return any(st == RUNNING for st in self.board.status)

    def run(self) -> None:
        """Set up and play turns until every snail has finished or is KO, or the turn cap."""
        self.setup()
        if self.trace is not None:
            self.trace.append("Start:")
            self.trace.extend("  " + row for row in self.board.render(self.labels))
        while self.running() and self.turn < self.config.turn_cap:
            self.play_turn()
        self.capped = self.running()
        if self.capped:
            self._say(f"Turn cap ({self.config.turn_cap}) reached: the race stops.")

    def play_turn(self) -> None:
        self.turn += 1
        self._say(f"\n=== Turn {self.turn} ===")
        self.speed_phase()
        self.action_phase()
        self.end_turn()
        if self.trace is not None:
            self.trace.extend("  " + row for row in self.board.render(self.labels))

    def _choose_per_snail(self, pick) -> dict:
        """Each seat (in order) chooses for each of its running snails, face down.

        ``pick(seat, policy, view, snail, taken) -> (card uid, choice) | None`` sees the cards
        the seat already committed this phase in ``taken``; returns ``{snail: choice}``.
        """
        chosen: dict = {}
        for seat, policy in enumerate(self.policies):
            active = self._active(seat)
            if not active:
                continue
            view = self.view(seat)
            taken: list[int] = []
            for s in active:
                picked = pick(seat, policy, view, s, taken)
                if picked is None:
                    continue
                taken.append(picked[0])
                chosen[s] = picked[1]
        return chosen

    def speed_phase(self, chosen: dict[int, int | tuple[int, bool]] | None = None) -> None:
        """Everyone places a card face down: a speed card to play, or (``discard_in_speed_phase``)
        any card announced as a discard, which goes to the discard pile at once and moves
        nothing. ``chosen``: snail → uid (played) or (uid, discard). Moves resolve from the
        highest number down; a move that cannot be made is lost. A seat holding no speed card
        places nothing for that snail."""
        board, deck = self.board, self.deck
        if chosen is None:
            def pick(seat, policy, view, s, taken):
                hand = [u for u in self.hands[seat] if u not in taken]
                options = [(u, False) for u in hand if deck.kind[u] == SPEED]
                if not options:
                    return None
                if self.config.discard_in_speed_phase:
                    options += [(u, True) for u in hand]
                choice = options[policy.speed_card(view, s, options) if len(options) > 1 else 0]
                return choice[0], choice

            chosen = self._choose_per_snail(pick)
        plays = {}
        for s, choice in chosen.items():
            uid, discard = choice if isinstance(choice, tuple) else (choice, False)
            self.hands[board.owner[s]].remove(uid)
            if discard or deck.kind[uid] != SPEED:
                self.discard_card(uid)
                self._log("discard", s, uid, "speed_phase")
                self._say(f"  {self._name(s)} discards {self._card(uid)} instead of moving")
                continue
            self.in_play.append(uid)
            self.turn_speed[s] = deck.number[uid]
            plays[s] = uid
        chosen = plays
        if chosen:
            self._say("Speed: " + ", ".join(f"{self._name(s)} {deck.number[u]}"
                                             for s, u in sorted(chosen.items(), key=lambda x: -deck.number[x[1]])))
        for s in sorted(chosen, key=lambda s: -deck.number[chosen[s]]):
            uid = chosen[s]
            row = self._log("speed", s, uid, "")
            outcome = self._speed_move(s, uid)
            if row is not None:
                row["outcome"] = outcome

    def _speed_move(self, s: int, uid: int) -> str:
        board = self.board
        if board.status[s] != RUNNING:
            return "void"
        squares = self.deck.squares[uid]
        options: list[int] = board.speed_ends(s, squares)
        if self.config.sacrifice and squares >= 2:
            options.append(SACRIFICE)
        if not options:
            self._say(f"  {self._name(s)} cannot make its {squares}-square move: lost")
            return "blocked"
        seat = board.owner[s]
        i = self.policies[seat].speed_move(self.view(seat), s, uid, options) if len(options) > 1 else 0
        target = options[i]
        if target == SACRIFICE:
            gain = min(self.config.sacrifice_gain, board.max_shells[s] - board.shells[s])
            board.shells[s] += gain
            self._say(f"  {self._name(s)} sacrifices its {self.deck.number[uid]}: stays put, +{gain} shell")
            return "sacrifice"
        before = board.distance(s)
        board.enter(s, target)
        if board.status[s] == FINISHED:
            self._say(f"  {self._name(s)} crosses the finish line!")
            self.snail_done(s)
            return "finished"
        self._say(f"  {self._name(s)} moves to {self._where(target)} ({before} -> {board.distance(s)} to go)")
        return f"moved{before - board.distance(s):+d}"

    def _where(self, cell: int) -> str:
        r, c = divmod(cell, self.board.c.width)
        return f"r{r}c{c}"

    def action_phase(self, chosen: dict[int, tuple[int, bool]] | None = None) -> None:
        """Everyone places a card face down (or ``chosen``: snail → (uid, discard)); discards go
        at once; actions resolve by order 1→4, ties by the higher speed card of the turn."""
        board, deck = self.board, self.deck
        if chosen is None:
            def pick(seat, policy, view, s, taken):
                hand = [u for u in self.hands[seat] if u not in taken]
                if not hand:
                    return None
                options = [(u, False) for u in hand if deck.kind[u] == ACTION] + [(u, True) for u in hand]
                choice = options[policy.action_card(view, s, options) if len(options) > 1 else 0]
                return choice[0], choice

            chosen = self._choose_per_snail(pick)
        plays = []
        for s, (uid, discard) in chosen.items():
            self.hands[board.owner[s]].remove(uid)
            if discard or deck.kind[uid] != ACTION:
                self.discard_card(uid)
                self._log("discard", s, uid, "discarded")
                self._say(f"  {self._name(s)} discards {self._card(uid)}")
            else:
                self.in_play.append(uid)
                plays.append(s)
        plays.sort(key=lambda s: (deck.number[chosen[s][0]], -self.turn_speed[s], s))
        if plays:
            self._say("Actions: " + ", ".join(f"{self._name(s)} {self._card(chosen[s][0])}" for s in plays))
        for s in plays:
            uid = chosen[s][0]
            row = self._log("action", s, uid, "")
            if board.status[s] != RUNNING:
                outcome = "void"
            else:
                outcome = self.play_card(s, uid)
            self._say(f"  {self._name(s)} {self._card(uid)}: {outcome}")
            if row is not None:
                row["outcome"] = outcome

    def end_turn(self) -> None:
        """Played cards to the discard, hands refilled, all-action hands redrawn."""
        for uid in self.in_play:
            self.discard_card(uid)
        self.in_play = []
        self.turn_speed = [0] * len(self.turn_speed)
        for seat in range(len(self.policies)):
            if self._active(seat):
                self.refill(seat)
                self.all_action_check(seat)

    # -- action cards --------------------------------------------------------------------------
    def play_card(self, s: int, uid: int) -> str:
        """Run the effects of action card ``uid`` for snail ``s``; returns the outcome.

        A card made impossible (a move that cannot be made, a condition not met, no target, a
        move countered by a reaction) is lost: its later effects do not apply and the shells its
        earlier ``shell`` effects gave or took from its own snail are taken back (a move, shot
        or domino already made stays). The outcome is then the reason, e.g. ``lost``.
        """
        info = self.deck.cards[uid]
        board = self.board
        parts = []
        own_change = 0
        for eff in info.effects:
            if board.status[s] != RUNNING:
                break
            if eff.condition == "behind" and not board.behind_another(s):
                return self._card_lost(s, own_change, "not_behind")
            arrivals = len(board.arrivals)
            if eff.op == "move":
                outcome = self._effect_move(s, uid, eff)
            elif eff.op == "shell":
                shells = board.shells[s]
                outcome = self._effect_shell(s, eff)
                own_change += board.shells[s] - shells
            elif eff.op == "shoot":
                outcome = self._effect_shoot(s, uid, eff)
            else:
                outcome = self._effect_domino(s)
            self._settle(arrivals)
            if outcome in IMPOSSIBLE:
                return self._card_lost(s, own_change, outcome)
            parts.append(outcome)
        return "+".join(parts) if parts else "lost"

    def _card_lost(self, s: int, own_change: int, reason: str) -> str:
        """The card of ``s`` became impossible: take back its shell effects on ``s``."""
        board = self.board
        if own_change and board.status[s] == RUNNING:
            board.shells[s] = max(1, min(board.max_shells[s], board.shells[s] - own_change))
            self._say(f"  the card is lost: {self._name(s)} is back to {board.shells[s]} shells")
        return reason

    def _settle(self, arrivals_before: int) -> None:
        """After a move: snails pushed over the line are done; the board's losses are applied."""
        board = self.board
        for s in board.arrivals[arrivals_before:]:
            self._say(f"  {self._name(s)} crosses the finish line!")
            self.snail_done(s)
        while board.pending:
            t, amount, cause = board.pending.pop(0)
            for _ in range(amount):
                self.inflict(t, None, cause)
        if any(st == KO for st in board.status):
            for s in board.clear_blocking_ko():
                self._say(f"  KO snail {self._name(s)} blocked the only passage: removed")

    def _effect_move(self, s: int, uid: int, eff) -> str:
        board = self.board
        info = self.deck.cards[uid]
        before = board.distance(s)
        if eff.roll:
            table = info.direction_table
            dash = table[self.chance.roll(len(table)) - 1]
            dirs = [board.abs_dir(s, dash)]
            self._say(f"  {self._name(s)} rolls direction: dashboard {dash}")
        else:
            dirs = list(dict.fromkeys(board.abs_dir(s, k) for k in eff.directions))
        seat = board.owner[s]
        if eff.path == "free":
            ends = board.speed_ends(s, eff.squares, frozenset(dirs))
            if not ends:
                return "lost"
            options = []
            for end in ends:
                after = board.copy()
                after.enter(s, end)
                options.append((end, after))
            i = self.policies[seat].move_choice(self.view(seat), s, uid, options) if len(options) > 1 else 0
            board.enter(s, options[i][0])
        else:
            options = []
            for d in dirs:
                after = board.copy()
                if eff.path == "straight":
                    ok = after.straight(s, d, eff.squares, eff.jostle) > 0
                else:
                    ok = after.leap(s, d, eff.squares, eff.jostle)
                if ok:
                    options.append((d, after))
            if not options:
                return "lost"
            i = self.policies[seat].move_choice(self.view(seat), s, uid, options) if len(options) > 1 else 0
            d = options[i][0]
            self._countered = None
            board.guard = self._jostle_guard(s, d) if eff.jostle else None
            try:
                if eff.path == "straight":
                    board.straight(s, d, eff.squares, eff.jostle)
                else:
                    board.leap(s, d, eff.squares, eff.jostle)
            finally:
                board.guard = None
            if self._countered is not None:
                t, effect = self._countered
                if effect == "reverse":
                    board.push(s, (d + 4) % 8, {s})
                    self._say(f"  {self._name(s)} is pushed back one square by {self._name(t)}'s counter")
                return "countered"
        if board.status[s] == FINISHED:
            return "finished"
        return f"moved{before - board.distance(s):+d}"

    def _effect_shell(self, s: int, eff) -> str:
        board = self.board
        if eff.faces:
            face = self.chance.roll(board.c.die)
            if face not in eff.faces:
                return f"spared{face}"
        if eff.amount > 0:
            gain = min(eff.amount, board.max_shells[s] - board.shells[s])
            board.shells[s] += gain
            return f"gained{gain}"
        result = "hit"
        for _ in range(-eff.amount):
            result = self.inflict(s, None, "burn")
        return "burn_" + result

    def _effect_shoot(self, s: int, uid: int, eff) -> str:
        board = self.board
        targets = board.shot_targets(s, eff.range)
        if not targets:
            return "no_target"
        seat = board.owner[s]
        t = targets[self.policies[seat].target(self.view(seat), s, uid, targets) if len(targets) > 1 else 0]
        face = self.chance.roll(board.c.die)
        if face not in board.c.shot_hits:
            self._say(f"  {self._name(s)} shoots {self._name(t)}: rolls {face}, missed")
            return "miss"
        self._say(f"  {self._name(s)} shoots {self._name(t)}: rolls {face}, hit")
        return self.inflict(t, s, "shot")

    def _effect_domino(self, s: int) -> str:
        left, right = self.board.domino_sides(s)
        if not left and not right:
            return "no_target"
        losses = 0
        for line in (left, right):
            if line:
                losses += self._domino_wave(s, line)
        return f"domino{losses}"

    def _domino_wave(self, causer: int, line: list[int]) -> int:
        """One side of a domino: outward from the causer; a Renfort stops it, a Retour de bâton
        sends it back towards the causer (who may send it out again: ping-pong)."""
        status = self.board.status
        losses = 0
        i, j, outward, reflector = 0, -1, True, causer
        for _ in range(500):
            if outward:
                if i >= len(line):
                    break
                t = line[i]
                if status[t] != RUNNING:
                    i += 1
                    continue
                r = self.inflict(t, causer, "domino", domino=True)
                if r == "cancelled":
                    self._say(f"  the domino stops at {self._name(t)}")
                    break
                if r == "reflected":
                    self._say(f"  {self._name(t)} sends the domino back!")
                    outward, j, reflector = False, i - 1, t
                    continue
                losses += 1
                i += 1
            else:
                if j < 0:
                    if status[causer] != RUNNING:
                        break
                    r = self.inflict(causer, reflector, "domino", domino=True)
                    if r == "reflected":
                        self._say(f"  {self._name(causer)} sends the domino out again: ping-pong!")
                        outward, i = True, 0
                        continue
                    if r != "cancelled":
                        losses += 1
                    break
                t = line[j]
                if status[t] != RUNNING:
                    j -= 1
                    continue
                r = self.inflict(t, causer, "domino", domino=True)
                if r == "cancelled":
                    break
                if r == "reflected":
                    outward, i, reflector = True, j + 1, t
                    continue
                losses += 1
                j -= 1
        return losses

    # -- losses, reactions, KO, finish ---------------------------------------------------------
    def _offers(self, seat: int, situation: str) -> dict[str, int]:
        """Reactions ``seat`` holds against ``situation``: effect → the first such card's uid."""
        out: dict[str, int] = {}
        for uid in self.hands[seat]:
            effect = self.deck.cards[uid].counter(situation)
            if effect and effect not in out:
                out[effect] = uid
        return out

    def _play_reaction(self, seat: int, t: int, uid: int, situation: str, cause: str) -> str:
        """``seat`` plays reaction ``uid`` for its snail ``t``: to the discard pile; its effect."""
        self.hands[seat].remove(uid)
        self.discard_card(uid)
        effect = self.deck.cards[uid].counter(situation)
        self._log("reaction", t, uid, f"{effect}_{cause}")
        self._say(f"  {self._name(t)} plays {self._card(uid)} against the {cause}")
        return effect

    def _jostle_guard(self, mover: int, d: int):
        """The :attr:`Board.guard` while ``mover`` makes a jostling move in direction ``d``: the
        player of a running snail of another seat about to be pushed may counter (``vs_jostle``):
        ``block`` (not pushed; the move stops) or ``reverse`` (the mover is pushed one square
        back, against ``d``; the move stops). The push back itself cannot be countered."""
        def guard(t: int, push_dir: int, after: Board) -> str:
            board = self.board
            seat = board.owner[t]
            if seat == board.owner[mover] or self._countered is not None:
                return "none"
            offers = self._offers(seat, "jostle")
            if not offers:
                return "none"
            stakes = {"none": after, "block": board.copy()} if "block" in offers else {"none": after}
            if "reverse" in offers:
                back = board.copy()
                back.push(mover, (d + 4) % 8, {mover})
                stakes["reverse"] = back
            view = self.view(seat)
            view.stakes = stakes
            options = [NO_REACTION] + list(offers.values())
            uid = options[self.policies[seat].react(view, t, mover, "jostle", options)]
            if uid == NO_REACTION:
                return "none"
            self._countered = (t, self._play_reaction(seat, t, uid, "jostle", "jostle"))
            return self._countered[1]

        return guard

    def inflict(self, t: int, source: int | None, cause: str, domino: bool = False) -> str:
        """Snail ``t`` is about to lose 1 shell (``cause``: shot, domino, burn, bramble), caused by
        snail ``source`` (None: by itself or the circuit). Its owner may counter with a reaction
        from hand (``vs_shot``, ``vs_domino``, or ``vs_loss`` for the other causes): ``cancel``
        or ``stop`` (no loss; a domino stops there), ``reflect`` (a shot: ``source`` takes the
        loss, and may counter in turn) or ``return`` (a domino turns back, by the caller).
        Returns ``hit``, ``ko``, ``cancelled``, ``reflected`` or ``none`` (not running)."""
        board = self.board
        if board.status[t] != RUNNING:
            return "none"
        seat = board.owner[t]
        situation = cause if cause in ("shot", "domino") else "loss"
        offers = self._offers(seat, situation)
        if source is None or source == t or not (domino or board.status[source] == RUNNING):
            offers.pop("reflect", None)
            offers.pop("return", None)
        if offers:
            options = [NO_REACTION] + list(offers.values())
            uid = options[self.policies[seat].react(self.view(seat), t, source, cause, options)]
            if uid >= 0:
                effect = self._play_reaction(seat, t, uid, situation, cause)
                if effect in ("cancel", "stop"):
                    return "cancelled"
                if not domino:
                    self.inflict(source, t, cause)
                return "reflected"
        board.shells[t] -= 1
        if board.shells[t] <= 0:
            board.knock_out(t)
            self.ko_order.append(t)
            self._say(f"  {self._name(t)} loses its last shell: KO!")
            self.snail_done(t)
            for s in board.clear_blocking_ko():
                self._say(f"  KO snail {self._name(s)} blocked the only passage: removed")
            return "ko"
        self._say(f"  {self._name(t)} loses a shell ({board.shells[t]} left)")
        return "hit"

    def snail_done(self, s: int) -> None:
        """A snail finished or is KO: its player discards its hand, or (two snails, the other
        still running) discards 2 cards of its choice and keeps a hand of one snail."""
        seat = self.board.owner[s]
        hand = self.hands[seat]
        still = [o for o in self.snails_of[seat] if o != s and self.board.status[o] == RUNNING]
        if still:
            n = min(2, len(hand))
            picks = self.policies[seat].discard(self.view(seat), n) if n else []
            for uid in [hand[i] for i in sorted(set(picks))[:n]]:
                hand.remove(uid)
                self.discard_card(uid)
                self._log("drop", s, uid, "snail_lost")
            self.hand_target[seat] = self.config.hand_size
        else:
            for uid in hand:
                self.discard_card(uid)
                self._log("drop", s, uid, "finished" if self.board.status[s] == FINISHED else "ko")
            hand.clear()

    # -- result ------------------------------------------------------------------------------
    def ranking(self) -> list[int]:
        """Snails in race order: arrivals, then (capped race) the running ones by distance to
        the finish (then more shells, then snail index); KO and out snails are not ranked."""
        board = self.board
        running = sorted(board.running(), key=lambda s: (board.distance(s), -board.shells[s], s))
        return list(board.arrivals) + running

    def points(self) -> list[int]:
        """Race points per snail: by ranking, the KO (and out) snails ``ko_points``; with
        ``last_gets_ko_points`` the last ranked snail too (when at least two are ranked)."""
        cfg = self.config
        pts = [cfg.ko_points] * self.board.n
        order = self.ranking()
        for k, s in enumerate(order):
            pts[s] = cfg.points[min(k, len(cfg.points) - 1)]
        if cfg.last_gets_ko_points and len(order) >= 2:
            pts[order[-1]] = cfg.ko_points
        return pts
