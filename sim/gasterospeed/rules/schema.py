"""The rules of Gastérospeed as a frozen dataclass tree (loaded from ``rules.toml``).

Everything a designer may balance is a key of ``rules.toml``: the race (hand size, shells,
points, turn cap), the championship, one switch per variant of the seed, the deck (``deck.<id>``:
speed cards as numbered runs, action cards composed of effect primitives, reaction cards) and
the circuits (``circuits.<id>``: an ASCII map with its shot table, die and special rules).

Cross-field checks (:meth:`GasterospeedRules.problems`, :meth:`Card.problems`,
:meth:`CircuitRules.problems`) name the card or circuit and the field at fault.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from sim.core.config import param

__all__ = [
    "Effect",
    "Card",
    "CircuitRules",
    "RaceRules",
    "ChampionshipRules",
    "VariantRules",
    "GasterospeedRules",
    "lineup_problems",
    "EFFECT_OPS",
    "DASHBOARD",
    "REACTION_SITUATIONS",
]

#: The effect primitives an action card is composed of (see :class:`Effect`).
EFFECT_OPS = ("move", "shell", "shoot", "domino")

#: What a reaction card may counter, one ``vs_<situation>`` field each (see :class:`Card`).
REACTION_SITUATIONS = ("shot", "domino", "jostle", "loss")

#: Dashboard squares around a snail, numbered as on the players' dashboards (5, 6, 7 = the three
#: squares behind): 1 front-left, 2 front, 3 front-right, 4 right, 5 back-right, 6 back,
#: 7 back-left, 8 left. "Front" is the local direction of the finish (see ``circuit.py``).
DASHBOARD = (1, 2, 3, 4, 5, 6, 7, 8)


@dataclass(frozen=True)
class Effect:
    """One primitive of an action card; a card's effects run in order.

    ``op`` is one of:
      * ``move``: ``squares`` squares along ``path``: ``straight`` (one direction, stops before
        whatever it cannot enter; with ``jostle`` it pushes the snails in the way), ``leap``
        (lands exactly ``squares`` away, over snails and obstacles but not over rails; with
        ``jostle`` it pushes the snail at the landing square), ``free`` (``squares`` king steps
        onto free squares, each in one of ``directions``). The direction is chosen among the
        dashboard squares ``directions``, or rolled on the card's ``direction_table`` (``roll``).
      * ``shell``: gain (``amount`` > 0, never above the snail's starting value) or lose
        (``amount`` < 0) shell points; with ``faces``, only when the circuit's die shows one.
      * ``shoot``: shoot a snail within ``range`` squares in line of sight (the 8 grid lines,
        first snail on each, obstacles and rails block) with the circuit's shot table.
      * ``domino``: every running snail on the snail's line (``race.domino_line``: the row
        across the track, or the file along it) loses 1 shell, outward from the player, each
        side in turn (reactions stop or return the wave).
    A card whose effect cannot be carried out (a move made impossible, a condition not met, no
    target, a move countered) is lost: its later effects do not apply.
    ``condition = "behind"``: the effect happens only if the snail stands on one of the three
    squares just behind another running snail (that snail's dashboard squares 5, 6, 7): our
    reading of «juste derrière un autre escargot»; ``"behind_any"`` counts a KO snail still on
    the track as well.
    """

    op: Literal["move", "shell", "shoot", "domino"] = param("move", doc="the primitive")
    squares: int = param(0, min=0, max=10, unit="squares", doc="move: length of the move")
    path: Literal["straight", "leap", "free"] = param("straight", doc="move: how the squares are crossed")
    directions: tuple[int, ...] = param(
        DASHBOARD, min=1, max=8, doc="move: allowed dashboard squares (1 front-left ... 8 left)"
    )
    roll: bool = param(False, doc="move: the direction is rolled on the card's direction_table")
    jostle: bool = param(False, doc="move: entering an occupied square pushes its occupant (bousculade)")
    amount: int = param(0, min=-3, max=3, unit="shells", doc="shell: gained (> 0) or lost (< 0)")
    faces: tuple[int, ...] = param(
        (), min=1, max=20, doc="shell: only when the circuit die shows one of these (empty: always)"
    )
    range: int = param(0, min=0, max=20, unit="squares", doc="shoot: farthest target")
    condition: Literal["none", "behind", "behind_any"] = param(
        "none",
        doc="the effect needs this position: just behind a running snail (behind), or any snail on "
        "the track, KO ones included (behind_any)",
    )

    def problems(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if self.op == "move" and self.squares < 1:
            out.append(("squares", "a move needs squares >= 1"))
        if self.op == "move" and not self.roll and not self.directions:
            out.append(("directions", "a move needs at least one direction (or roll = true)"))
        if self.op == "shell" and self.amount == 0:
            out.append(("amount", "a shell effect needs a non-zero amount"))
        if self.op == "shoot" and self.range < 1:
            out.append(("range", "a shot needs range >= 1"))
        return out


@dataclass(frozen=True)
class Card:
    """One entry of the deck: a run of speed cards, an action card or a reaction card.

    Speed entries stand for ``count`` different cards numbered ``first`` .. ``first+count-1``
    (a higher number is faster), each moving ``squares`` squares. Action entries are ``count``
    identical cards of resolution ``order`` 1–4 composed of ``effects``. Reaction entries are
    kept in hand and played as counters, in addition to the card placed face down: against a
    card of another player aimed at the holder's snail (``vs_shot``, ``vs_domino``,
    ``vs_jostle``) or against any other loss of shell points (``vs_loss``: a burn, brambles).
    """

    name: str = param("", doc="display name (accents welcome)")
    kind: Literal["speed", "action", "reaction"] = param("action", doc="green speed, yellow action, or spiral reaction")
    count: int = param(0, min=0, max=200, unit="cards", doc="copies in the deck (speed: cards in the run)")
    first: int = param(0, min=0, max=9999, doc="speed: number of the first card of the run (km/h Bavomètre)")
    squares: int = param(1, min=1, max=4, unit="squares", doc="speed: squares of a move")
    order: int = param(1, min=1, max=4, doc="action: resolution order (1 first)")
    effects: tuple[Effect, ...] = param((), doc="action: primitives run in order")
    direction_table: tuple[int, ...] = param(
        (2, 1, 3, 8, 4, 6), min=1, max=8, doc="dashboard square for each face of a direction roll (D6 = 6 entries)"
    )
    vs_shot: Literal["cancel", "reflect", "none"] = param(
        "cancel", doc="reaction against a shot that hit: cancel the loss, send it back to the shooter, or nothing"
    )
    vs_domino: Literal["stop", "return", "none"] = param(
        "stop", doc="reaction against a domino: no loss and the wave stops, or turns back to the causer, or nothing"
    )
    vs_jostle: Literal["block", "reverse", "none"] = param(
        "none",
        doc="reaction against a jostle by another player's card: the snail is not pushed and the mover "
        "stops (block), or the mover is pushed one square back instead (reverse), or nothing",
    )
    vs_loss: Literal["cancel", "none"] = param(
        "cancel", doc="reaction against any other loss of shells (a burn, brambles): cancel it, or nothing"
    )

    def problems(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if self.kind == "speed" and self.count and self.first < 1:
            out.append(("first", "speed cards need the number of their first card (>= 1)"))
        if self.kind == "action" and self.count and not self.effects:
            out.append(("effects", "an action card needs at least one effect"))
        if self.kind != "action" and self.effects:
            out.append(("effects", f"only action cards have effects (this card is a {self.kind} card)"))
        if any(e.op == "move" and e.roll for e in self.effects) and len(self.direction_table) < 2:
            out.append(("direction_table", "a direction roll needs at least 2 faces"))
        return out

    @property
    def counter(self) -> str:
        """A reaction's counters in one line (display only), e.g. ``shot: cancel, jostle: block``."""
        if self.kind != "reaction":
            return ""
        return ", ".join(f"{what}: {getattr(self, 'vs_' + what)}" for what in REACTION_SITUATIONS)

    @property
    def numbers(self) -> range:
        """The speed numbers of the run (empty for action and reaction cards)."""
        return range(self.first, self.first + self.count) if self.kind == "speed" else range(0)


@dataclass(frozen=True)
class CircuitRules:
    """One circuit card: an ASCII map (legend in ``circuit.py`` and ``rules.toml``) and its rules."""

    title: str = param("", doc="display name")
    map: str = param("", doc="ASCII map, finish at the top by convention (any shape works)")
    die: int = param(6, min=2, max=20, unit="faces", doc="faces of the shot die")
    shot_hits: tuple[int, ...] = param((4, 5, 6), min=1, max=20, doc="shot table: die faces that hit")
    reserve_shells: int = param(
        3, min=0, max=10, unit="shells", doc="stable-reserve variant: shells this circuit adds to each reserve"
    )
    obstacle_damage: int = param(
        0, min=0, max=3, unit="shells", doc="special rule: shells lost by a snail pushed into an obstacle (brambles)"
    )
    start_shells: int = param(
        0,
        min=0,
        max=12,
        unit="shells",
        doc="special rule: shells of every snail at the start of a race here, outside "
        "the stable reserve (0: race.shells, or the expert variant's)",
    )

    def problems(self) -> list[tuple[str, str]]:
        from .circuit import map_problems

        out = [("map", message) for message in map_problems(self.map)]
        bad = [f for f in self.shot_hits if f > self.die]
        if bad:
            out.append(("shot_hits", f"faces {bad} exceed the die (D{self.die})"))
        return out


@dataclass(frozen=True)
class RaceRules:
    """One race: hands, shells, points, the cap."""

    hand_size: int = param(4, min=1, max=12, unit="cards", doc="cards in hand after each refill")
    shells: int = param(3, min=1, max=12, unit="shells", doc="shell points of a snail at the start")
    turn_cap: int = param(
        60, min=1, max=100000, unit="turns", doc="a race still running after this many turns stops (recorded as capped)"
    )
    points: tuple[int, ...] = param(
        (9, 6, 4, 3, 2, 1), min=0, unit="points", doc="race points by arrival order (beyond the list: its last value)"
    )
    ko_points: int = param(1, min=0, unit="points", doc="points of a KO snail")
    last_gets_ko_points: bool = param(True, doc="the last arrival scores ko_points (seed: '1 point pour le dernier')")
    all_action_discard: int = param(
        2,
        min=1,
        max=12,
        unit="cards",
        doc="a hand of only action cards: discard this many at random, draw as many, repeat",
    )
    placement_die: int = param(
        8, min=2, max=20, unit="faces", doc="die rolled for the placement order (lowest places first)"
    )
    discard_in_speed_phase: bool = param(
        True, doc="a card may be discarded instead of played in the speed phase too (always in the action phase)"
    )
    ko_at_finish: Literal["rail", "evacuated"] = param(
        "rail",
        doc="a KO snail pushed over the finish line: the line acts as a rail for it, or it is taken "
        "off the board (still KO); it never finishes",
    )
    pushed_into_obstacle: Literal["rail", "stay"] = param(
        "rail",
        doc="a snail pushed into an obstacle: the rail rule (put back one square), or it stays and the push fails",
    )
    start_slot_taken: Literal["stay", "nearest"] = param(
        "stay",
        doc="a snail pushed behind the start line whose start slot is taken: it stays (the push "
        "fails), or goes to the nearest free start slot",
    )
    pushes_cut_arrows: bool = param(
        True,
        doc="a push (jostle, domino, rail) may move a snail diagonally onto or off an arrow square (true), "
        "or such a push fails and the snail stays (false)",
    )
    domino_line: Literal["across", "along"] = param(
        "across", doc="the domino's line: the row across the track through the player, or the file along it"
    )


@dataclass(frozen=True)
class ChampionshipRules:
    """A championship: the circuits raced, how equal scores are decided, and the races of the
    experopods variant."""

    circuits: tuple[str, ...] = param(
        ("ligne_droite", "goulet", "champignonniere", "virage_du_potager", "stargot", "cross_ronces"),
        doc="circuit ids, in the order raced (ids of [circuits])",
    )
    tie_break: Literal["race_wins", "none"] = param(
        "race_wins", doc="equal scores: most race wins decides, or the championship is drawn"
    )
    experopod_races: int = param(
        5, min=1, max=50, unit="races", doc="variants.experopods: races drawn from championship.circuits"
    )


@dataclass(frozen=True)
class VariantRules:
    """The seed's optional rules, one switch each (all off = the basic game)."""

    two_snails: bool = param(False, doc="two snails per player, one card per snail per phase")
    two_snails_hand_size: int = param(6, min=2, max=12, unit="cards", doc="two_snails: hand while both run")
    two_snails_placement: Literal["round", "both"] = param(
        "round",
        doc="two_snails: every first snail in placement order, then the second ones (round), or each "
        "player places both at once (both)",
    )
    two_snails_choice_order: Literal["first", "behind", "ahead"] = param(
        "first",
        doc="two_snails: which of a player's snails is chosen for first in each phase, and so gets the "
        "only speed card of a hand: the first snail, the one further from the finish, or the one "
        "nearer to it",
    )
    separate_decks: bool = param(False, doc="separate speed and action decks, half of the hand each")
    free_draws: bool = param(False, doc="separate decks, start 1 + 1, then draw from the piles of one's choice")
    separate_fallback: bool = param(
        True,
        doc="separate decks: a draw from an exhausted pile (draw and discard piles empty) is taken from the "
        "other pile (true), or nothing is drawn and the hand stays short (false)",
    )
    radis_sale: bool = param(False, doc="no choice may depend on cards drawn during the current refill")
    experopods: bool = param(False, doc="circuits drawn at random, championship.experopod_races of them")
    expert: bool = param(False, doc="expert_hand_size cards and expert_shells shells")
    expert_hand_size: int = param(5, min=1, max=12, unit="cards", doc="expert: cards in hand")
    expert_shells: int = param(4, min=1, max=12, unit="shells", doc="expert: shells at the start")
    shell_championship: bool = param(False, doc="the championship is won on shells left, summed over races")
    stable_reserve: bool = param(False, doc="shells pooled per championship, committed secretly per race")
    reserve_max_commit: int = param(
        6, min=1, max=20, unit="shells", doc="stable_reserve: most shells committed to one race"
    )
    reserve_split: Literal["even", "per_snail"] = param(
        "even",
        doc="stable_reserve with two_snails: one reserve per player, its commitment split evenly (the "
        "first snail gets the odd shell), or one reserve and one commitment per snail",
    )
    sacrifice: bool = param(False, doc="a two-square speed card may be sacrificed: stay put, regain shells")
    sacrifice_gain: int = param(1, min=1, max=3, unit="shells", doc="sacrifice: shells regained")


@dataclass(frozen=True)
class GasterospeedRules:
    """The rules of Gastérospeed: one race, the championship, the variants, the deck (one entry
    per card) and the circuits (one entry per map)."""

    race: RaceRules = RaceRules()
    championship: ChampionshipRules = ChampionshipRules()
    variants: VariantRules = VariantRules()
    deck: dict[str, Card] = field(default_factory=dict)
    circuits: dict[str, CircuitRules] = field(default_factory=dict)

    # Effective values once the variants are applied ------------------------------------------
    @property
    def hand_size(self) -> int:
        """Cards in hand of a one-snail player (expert variant applied)."""
        return self.variants.expert_hand_size if self.variants.expert else self.race.hand_size

    @property
    def shells(self) -> int:
        """Starting shell points of a snail (expert variant applied; the reserve overrides it)."""
        return self.variants.expert_shells if self.variants.expert else self.race.shells

    def race_shells(self, circuit: str) -> int:
        """Starting shells of a snail on ``circuit`` outside the stable reserve: the circuit's
        ``start_shells`` when set, else :attr:`shells`."""
        own = self.circuits[circuit].start_shells
        return own if own > 0 else self.shells

    @property
    def separate_decks(self) -> bool:
        return self.variants.separate_decks or self.variants.free_draws

    def problems(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        speed = [(cid, c) for cid, c in self.deck.items() if c.kind == "speed" and c.count > 0]
        if not speed:
            out.append(
                ("deck", 'no speed cards (a deck needs at least one [deck.*] with kind = "speed" and count >= 1)')
            )
        if not any(c.kind != "speed" and c.count > 0 for c in self.deck.values()) and self.separate_decks:
            out.append(("variants.separate_decks", "needs at least one action or reaction card in the deck"))
        runs = sorted((c.first, c.first + c.count - 1, cid) for cid, c in speed)
        for (a0, a1, aid), (b0, b1, bid) in zip(runs, runs[1:]):
            if b0 <= a1:
                out.append(
                    (
                        f"deck.{bid}.first",
                        f"speed numbers {b0}-{b1} overlap deck.{aid} ({a0}-{a1}); speed cards must all be different",
                    )
                )
        if not self.championship.circuits:
            out.append(("championship.circuits", "expected at least one circuit"))
        for index, name in enumerate(self.championship.circuits):
            if name not in self.circuits:
                out.append(
                    (
                        f"championship.circuits[{index}]",
                        f"unknown circuit {name!r}; allowed: {', '.join(sorted(self.circuits))}",
                    )
                )
        if len(self.race.points) < 1:
            out.append(("race.points", "expected at least one value"))
        if self.variants.experopods and self.championship.experopod_races > len(self.championship.circuits):
            out.append(
                (
                    "championship.experopod_races",
                    f"got {self.championship.experopod_races}; allowed: <= {len(self.championship.circuits)} "
                    "(the circuits of championship.circuits, each drawn once)",
                )
            )
        if self.variants.two_snails and self.variants.two_snails_hand_size < self.hand_size:
            out.append(
                (
                    "variants.two_snails_hand_size",
                    f"got {self.variants.two_snails_hand_size}; allowed: >= the one-snail hand ({self.hand_size})",
                )
            )
        return out


def lineup_problems(rules: GasterospeedRules, n_players: int) -> list[str]:
    """Every snail needs a start slot on every circuit of the championship."""
    snails = n_players * (2 if rules.variants.two_snails else 1)
    from .circuit import compile_circuit

    out = []
    for name in dict.fromkeys(rules.championship.circuits):
        slots = len(compile_circuit(rules.circuits[name]).slots)
        if snails > slots:
            what = f"{n_players} players x 2 snails" if rules.variants.two_snails else f"{n_players} players"
            out.append(f"players: circuit {name!r} has {slots} start slots, {what} need {snails}")
    return out
