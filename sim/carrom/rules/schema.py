"""The rules of Carrom as a frozen dataclass tree (loaded from ``rules.toml``).

Two rule sets ship: ``ruleset = "family"`` (the publisher's rule sheet "Carrom — Billard
indien" (French), with our documented defaults where it is silent) and
``ruleset = "icf"`` (the International Carrom Federation's Laws, 1993). Every difference
between them is one switch under ``[rules]``; a switch is either the string ``"auto"`` (take
the value of the ruleset) or ``true`` / ``false`` (override it). The effective booleans are
:attr:`CarromRules.switches` (a :class:`Switches`), computed once from the ruleset and the
overrides; the game only ever reads those.

Coordinates: metres, origin at the centre of the board, ``x`` across, ``y`` forward for the
player at seat 0 (whose base line is at ``y < 0``). Every number a designer may balance is a
field here and a key of ``rules.toml``; cross-field checks are in the ``problems`` methods.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from sim.core.config import param

__all__ = [
    "SWITCHES",
    "Switches",
    "SwitchRules",
    "GameRules",
    "ScoringRules",
    "ThreePlayerRules",
    "LastCoinRules",
    "LAST_COIN_MODES",
    "BoardRules",
    "CoinRules",
    "StrikerRules",
    "FormationRules",
    "PhysicsRules",
    "CarromRules",
    "lineup_problems",
    "RULESETS",
]

RULESETS = ("family", "icf")

#: Every switch: (family value, ICF value, one line of documentation). Order = TOML order.
SWITCHES: dict[str, tuple[bool, bool, str]] = {
    "queen_needs_own_first": (
        False,
        True,
        "true (ICF 95a): the queen is legal once any own coin is down (or goes down in the same "
        "stroke); false (family seed): an own coin must have gone down on the player's previous "
        "stroke (or in the same stroke)",
    ),
    "ineligible_queen_loses_turn": (
        False,
        True,
        "a queen pocketed before it is allowed goes back to the centre; true (ICF 95a): the "
        "turn is lost too; false (family seed: pocketing the queen lets you play again)",
    ),
    "cover_same_stroke": (
        True,
        True,
        "the queen may be covered in the stroke that pockets it (ICF 96-97: queen + own coin; "
        "seed: 'in one single stroke if several coins go in with the queen'); false: the "
        "cover must come on the next stroke",
    ),
    "dues": (
        True,
        True,
        "pocketing the striker is a due: one of the player's pocketed coins comes back and the "
        "queen pocketed in that stroke comes back (ICF 72-77, 100-101; family: our default)",
    ),
    "due_in_outer_circle": (
        False,
        True,
        "a due coin is placed by the opponent anywhere inside the outer circle (ICF 72; "
        "modelled as a random free spot); false: in the centre circle (family default)",
    ),
    "due_outstanding": (
        False,
        True,
        "a due with no coin to pay stays owed, is paid with the next own coin pocketed, and "
        "blocks the queen meanwhile (ICF 72, 95b); false: it is forgiven",
    ),
    "due_returns_stroke_coins": (
        False,
        True,
        "striker + own coins: those coins come back as well (ICF 73); false: they stay down "
        "and one pocketed coin is the due",
    ),
    "due_keeps_turn_with_own": (
        True,
        True,
        "striker + own coins: the turn continues (ICF 73; family: the seed's 'as long as one "
        "pockets one's coins, one plays again'), the due paid as the other switches say; "
        "false: a pocketed striker always ends the turn",
    ),
    "opponent_coin_ends_turn": (
        False,
        True,
        "pocketing an opponent's coin ends the turn even with own coins in the same stroke "
        "(ICF 125); false: own coins in the stroke let the player play again (seed)",
    ),
    "last_coin_before_queen_penalty": (
        False,
        True,
        "pocketing one's last coin while the queen is not covered loses the board by "
        "scoring.last_coin_penalty (ICF 107); false: that coin comes back to the centre and "
        "last_coin.before_queen says what follows (family default)",
    ),
    "opponent_last_coin_penalty": (
        False,
        True,
        "pocketing the opponent's last coin loses the board by one's coins left + the queen "
        "(ICF 106); false: it counts for the opponent (it comes back to the centre while the "
        "queen is not covered)",
    ),
    "break_retries": (
        False,
        True,
        "a break must touch a coin: game.break_tries tries, then the next player breaks (ICF "
        "44-46); false: a break that misses is an ordinary miss",
    ),
    "breaker_plays_white": (
        False,
        True,
        "the breaker's side plays white on that board (ICF 43); false: seat 0's side plays "
        "white all game (family default)",
    ),
    "extra_board_on_tie": (
        False,
        True,
        "a tie after game.max_boards is settled by extra boards (ICF 56-57, at most "
        "game.max_extra_boards); false: the game is a draw (seed: 'the highest score')",
    ),
}


def _switch_doc(name: str) -> str:
    fam, icf, doc = SWITCHES[name]
    return f'"auto" (family {str(fam).lower()}, icf {str(icf).lower()}) or true / false: {doc}'


@dataclass(frozen=True)
class SwitchRules:
    """The rule switches as written in TOML: ``"auto"`` (from ``ruleset``) or a bool each."""

    queen_needs_own_first: Any = param("auto", doc=_switch_doc("queen_needs_own_first"))
    ineligible_queen_loses_turn: Any = param("auto", doc=_switch_doc("ineligible_queen_loses_turn"))
    cover_same_stroke: Any = param("auto", doc=_switch_doc("cover_same_stroke"))
    dues: Any = param("auto", doc=_switch_doc("dues"))
    due_in_outer_circle: Any = param("auto", doc=_switch_doc("due_in_outer_circle"))
    due_outstanding: Any = param("auto", doc=_switch_doc("due_outstanding"))
    due_returns_stroke_coins: Any = param("auto", doc=_switch_doc("due_returns_stroke_coins"))
    due_keeps_turn_with_own: Any = param("auto", doc=_switch_doc("due_keeps_turn_with_own"))
    opponent_coin_ends_turn: Any = param("auto", doc=_switch_doc("opponent_coin_ends_turn"))
    last_coin_before_queen_penalty: Any = param("auto", doc=_switch_doc("last_coin_before_queen_penalty"))
    opponent_last_coin_penalty: Any = param("auto", doc=_switch_doc("opponent_last_coin_penalty"))
    break_retries: Any = param("auto", doc=_switch_doc("break_retries"))
    breaker_plays_white: Any = param("auto", doc=_switch_doc("breaker_plays_white"))
    extra_board_on_tie: Any = param("auto", doc=_switch_doc("extra_board_on_tie"))

    def problems(self) -> list[tuple[str, str]]:
        out = []
        for name in SWITCHES:
            value = getattr(self, name)
            if not (isinstance(value, bool) or value == "auto"):
                out.append((name, f'got {value!r}; allowed: "auto", true, false'))
        return out

    def resolve(self, ruleset: str) -> "Switches":
        """The effective booleans under ``ruleset``."""
        column = RULESETS.index(ruleset)
        values = {}
        for name, spec in SWITCHES.items():
            value = getattr(self, name)
            values[name] = spec[column] if value == "auto" else bool(value)
        return Switches(**values)


@dataclass(frozen=True)
class Switches:
    """The effective rule switches (all bool); see :data:`SWITCHES` for each one's meaning."""

    queen_needs_own_first: bool
    ineligible_queen_loses_turn: bool
    cover_same_stroke: bool
    dues: bool
    due_in_outer_circle: bool
    due_outstanding: bool
    due_returns_stroke_coins: bool
    due_keeps_turn_with_own: bool
    opponent_coin_ends_turn: bool
    last_coin_before_queen_penalty: bool
    opponent_last_coin_penalty: bool
    break_retries: bool
    breaker_plays_white: bool
    extra_board_on_tie: bool


@dataclass(frozen=True)
class GameRules:
    """Length of a game and of a match; caps."""

    target_points: int = param(
        25, min=1, unit="points", doc="a game ends after the board in which a side reaches it (2 and 4 players)"
    )
    max_boards: int = param(8, min=1, unit="boards", doc="after this board the leader wins")
    max_extra_boards: int = param(
        3, min=0, unit="boards", doc="cap on tie-break boards (rules.extra_board_on_tie); then a draw"
    )
    max_strokes_per_board: int = param(
        400, min=1, unit="strokes", doc="a board still open after this many strokes is stuck: it ends, nobody scores"
    )
    break_tries: int = param(3, min=1, unit="strokes", doc="tries to touch a coin on the break (rules.break_retries)")
    best_of: int = param(1, min=1, unit="games", doc="games in a match: 1, or 3 for best of 3 (ICF 57); odd")
    max_games: int = param(
        5, min=1, unit="games", doc="cap on games in a match (drawn games are replayed); then the match is a draw"
    )


@dataclass(frozen=True)
class ScoringRules:
    """Board scores of the 2- and 4-player games."""

    queen_points: int = param(3, min=0, unit="points", doc="queen bonus of the board winner who covered it")
    queen_bonus_below: int = param(
        22, min=0, unit="points", doc="the queen bonus counts only while the winner's score is below this"
    )
    max_board_points: int = param(12, min=1, unit="points", doc="at most this many points a board")
    last_coin_penalty: int = param(
        3, min=0, unit="points", doc="points to the opponent for a last coin pocketed before the queen (ICF 107)"
    )
    last_coin_penalty_late: int = param(
        1, min=0, unit="points", doc="the same when the opponent already has scoring.queen_bonus_below points"
    )


#: What follows a last coin pocketed before the queen is covered, when
#: ``rules.last_coin_before_queen_penalty`` is false (the coin always comes back to the centre).
LAST_COIN_MODES = ("replay", "end_turn", "end_turn_unlock", "stays_down")


@dataclass(frozen=True)
class LastCoinRules:
    """A side's last coin pocketed while the queen is not covered, without the ICF penalty.

    ``before_queen``: "stays_down" (default: the coin stays down and the player plays again; a player
    with no coin left may pocket the queen on any stroke, confirmed as nothing can confirm it,
    and the board ends when the queen is down: the sheet's end of a board, all one's coins
    and the queen in the pockets, in any order), or the coin comes back to the centre (the
    queen must come first) and then "replay" (the player pocketed an own coin, so plays
    again, and that stroke is the own coin before the queen: the queen is allowed on the next
    stroke of the same turn), "end_turn" (the turn ends; no queen credit), or
    "end_turn_unlock" (the turn ends, but the queen is allowed on the player's next stroke,
    after the opponents' turns).
    """

    before_queen: Literal["replay", "end_turn", "end_turn_unlock", "stays_down"] = param(
        "stays_down",
        doc="replay | end_turn | end_turn_unlock | stays_down: what follows a last coin "
        "pocketed before the queen is covered (rules.last_coin_before_queen_penalty false)",
    )


@dataclass(frozen=True)
class ThreePlayerRules:
    """Three players, each for themselves: every coin is fair game and scores to who pockets it."""

    white_points: int = param(10, min=0, unit="points", doc="per white coin")
    black_points: int = param(5, min=0, unit="points", doc="per black coin")
    queen_points: int = param(25, min=0, unit="points", doc="for the queen, once covered")
    target_points: int = param(
        160, min=1, unit="points", doc="the game ends after the board in which someone reaches it"
    )


@dataclass(frozen=True)
class BoardRules:
    """ICF equipment (International Carrom Federation, Official Laws of Carrom, 1993, section 1)."""

    side: float = param(0.74, min=0.3, unit="m", doc="playing surface inside the cushions (square)")
    pocket_diameter: float = param(
        0.0445, min=0.0, min_exclusive=True, unit="m", doc="corner pockets, tangent to both cushions"
    )
    pocket_capture: float = param(
        1.0,
        min=0.0,
        max=1.0,
        min_exclusive=True,
        doc="a disc is pocketed when its centre is within this fraction of the pocket radius",
    )
    baseline_offset: float = param(
        0.1015, min=0.0, min_exclusive=True, unit="m", doc="outer base line from the cushion"
    )
    baseline_gap: float = param(
        0.0318, min=0.0, min_exclusive=True, unit="m", doc="between the two base lines (= base circle diameter)"
    )
    base_circle_diameter: float = param(
        0.0318, min=0.0, min_exclusive=True, unit="m", doc="base circles at both ends of the base lines"
    )
    base_circles: bool = param(True, doc="the striker may be played from a base circle, covering it")
    centre_circle_diameter: float = param(
        0.0318,
        min=0.0,
        min_exclusive=True,
        unit="m",
        doc="drawn only: returned coins go to the free spot nearest the centre",
    )
    outer_circle_diameter: float = param(
        0.17, min=0.0, min_exclusive=True, unit="m", doc="due coins go inside it (rules.due_in_outer_circle)"
    )

    @property
    def half(self) -> float:
        """Half side (m): the cushions are at ±half."""
        return self.side / 2

    @property
    def pocket_radius(self) -> float:
        return self.pocket_diameter / 2

    @property
    def pocket_centre(self) -> float:
        """|x| = |y| of the pocket centres (m): tangent to both cushions."""
        return self.half - self.pocket_radius

    @property
    def striker_y(self) -> float:
        """y of the striker's centre on seat 0's base line (m): midway between the lines."""
        return -(self.half - self.baseline_offset - self.baseline_gap / 2)

    @property
    def base_circle_x(self) -> float:
        """|x| of the base circle centres (m): touching the next side's extended inner line."""
        return self.half - (self.baseline_offset + self.baseline_gap) - self.base_circle_diameter / 2


@dataclass(frozen=True)
class CoinRules:
    """The carrommen and the queen: diameter (m) and mass (kg)."""

    diameter: float = param(0.0318, min=0.0, min_exclusive=True, unit="m", doc="carrommen and queen")
    mass: float = param(0.0055, min=0.0, min_exclusive=True, unit="kg", doc="carrommen and queen")

    @property
    def radius(self) -> float:
        return self.diameter / 2


@dataclass(frozen=True)
class StrikerRules:
    """The striker: diameter (m), mass (kg) and the fastest stroke a player can give it (m/s)."""

    diameter: float = param(0.0413, min=0.0, min_exclusive=True, unit="m", doc="striker")
    mass: float = param(0.015, min=0.0, min_exclusive=True, unit="kg", doc="striker")
    max_speed: float = param(6.0, min=0.0, min_exclusive=True, unit="m/s", doc="hardest flick")

    @property
    def radius(self) -> float:
        return self.diameter / 2


@dataclass(frozen=True)
class FormationRules:
    """The break layout (ICF rule 41): queen in the centre, 6 around it, 12 around those."""

    outer_ring: Literal["icf", "paired"] = param(
        "icf",
        doc="icf: both rings alternate in colour, the outer whites straight behind the "
        "inner coins (three of them make the Y with the inner whites); paired: each "
        "outer coin behind an inner coin has its colour, the gaps alternate, so the "
        "outer ring reads W W B B ... (an alternative layout to compare against)",
    )
    white_y: Literal["stem_to_breaker", "arms_to_breaker_corners"] = param(
        "stem_to_breaker", doc="orientation of the Y of whites (the ICF does not fix it)"
    )


@dataclass(frozen=True)
class PhysicsRules:
    """How discs move on the board: sliding friction, disc and cushion restitution, friction at
    contact, gravity (m/s²)."""

    friction: float = param(0.1, min=0.0, min_exclusive=True, doc="sliding (Coulomb) friction μ, disc on board")
    restitution: float = param(0.85, min=0.0, max=1.0, doc="coin–coin and striker–coin restitution")
    cushion_restitution: float = param(0.7, min=0.0, max=1.0, doc="disc–cushion restitution")
    contact_friction: float = param(0.0, min=0.0, doc="disc–disc friction during an impact")
    gravity: float = param(9.81, min=0.0, min_exclusive=True, unit="m/s²", doc="gravity")


@dataclass(frozen=True)
class CarromRules:
    """The rules of Carrom: the ruleset whose switches apply (family or ICF), the game, scoring,
    the three-player game, the rule switches, the last coin, the board, coins, striker, break
    formation and physics."""

    ruleset: Literal["family", "icf"] = param("family", doc='sets every rules.* switch left at "auto"')
    game: GameRules = GameRules()
    scoring: ScoringRules = ScoringRules()
    three_players: ThreePlayerRules = ThreePlayerRules()
    rules: SwitchRules = SwitchRules()
    last_coin: LastCoinRules = LastCoinRules()
    board: BoardRules = BoardRules()
    coins: CoinRules = CoinRules()
    striker: StrikerRules = StrikerRules()
    formation: FormationRules = FormationRules()
    physics: PhysicsRules = PhysicsRules()

    @cached_property
    def switches(self) -> Switches:
        """The effective switches (``ruleset`` + overrides)."""
        return self.rules.resolve(self.ruleset)

    def resolved(self) -> dict[str, bool]:
        """The value every ``rules.*`` switch left at ``"auto"`` takes under ``ruleset``
        (:class:`sim.core.protocols.ResolvedRules`; ``tablesim rules carrom`` shows it)."""
        effective = self.switches
        return {f"rules.{name}": getattr(effective, name) for name in SWITCHES if getattr(self.rules, name) == "auto"}

    def problems(self) -> list[tuple[str, str]]:
        """Cross-key checks: rules that make the game impossible or meaningless are refused
        at load time, one line each, naming the key."""
        pockets = self._pocket_problems()
        if pockets:  # one line: the geometry below is built on the pockets
            return pockets
        return self._layout_problems() + self._game_problems()

    def _pocket_problems(self) -> list[tuple[str, str]]:
        b, c = self.board, self.coins
        if b.pocket_diameter >= b.side / 2:
            return [
                (
                    "board.pocket_diameter",
                    f"got {b.pocket_diameter} m; allowed: < board.side / 2 "
                    f"({b.side / 2:.4g} m): wider corner pockets overlap "
                    f"each other and swallow the board",
                )
            ]
        if b.pocket_diameter <= c.diameter:
            return [
                (
                    "board.pocket_diameter",
                    f"got {b.pocket_diameter} m; allowed: > coins.diameter "
                    f"({c.diameter} m), or no coin can be pocketed",
                )
            ]
        capture = b.pocket_capture * b.pocket_radius
        r_circle, rs = b.base_circle_diameter / 2, self.striker.radius
        # |x| of the striker's place nearest a corner: covering a base circle, or on the lines
        far = b.base_circle_x + (rs - r_circle if b.base_circles else -(r_circle + rs))

        def clear(diameter: float) -> bool:  # the striker's corner-most place is outside the pocket
            centre = b.half - diameter / 2
            return math.hypot(centre - far, centre - abs(b.striker_y)) > b.pocket_capture * diameter / 2

        if not clear(b.pocket_diameter):
            lo, hi = 0.0, b.pocket_diameter  # the widest pocket that keeps them clear
            for _ in range(40):
                lo, hi = ((lo + hi) / 2, hi) if clear((lo + hi) / 2) else (lo, (lo + hi) / 2)
            return [
                (
                    "board.pocket_diameter",
                    f"got {b.pocket_diameter} m; allowed: < {lo:.4g} m with "
                    f"these base lines: wider corner pockets reach the "
                    f"striker's places (every stroke from there is a foul)",
                )
            ]
        if math.sqrt(2.0) * b.pocket_centre - capture <= 5 * c.radius:
            return [
                ("board.pocket_diameter", f"got {b.pocket_diameter} m: the corner pockets reach the break formation")
            ]
        return []

    def _layout_problems(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        b, c, s = self.board, self.coins, self.striker
        if b.base_circle_x - b.base_circle_diameter / 2 - s.radius <= 0.05:
            out.append(
                (
                    "board.baseline_offset",
                    "the base lines leave no room for the striker between "
                    "the base circles; reduce board.baseline_offset or "
                    "board.baseline_gap",
                )
            )
        if abs(b.striker_y) + s.radius >= b.half:
            out.append(("board.baseline_offset", "the striker on its base line would touch the cushion"))
        if b.base_circle_diameter > s.diameter:
            out.append(
                (
                    "board.base_circle_diameter",
                    f"got {b.base_circle_diameter} m; allowed: <= "
                    f"striker.diameter ({s.diameter} m): the striker must cover it",
                )
            )
        extent = 5 * c.radius  # the outer ring of the break reaches 4r + r from the centre
        if b.outer_circle_diameter / 2 < 2 * c.radius:
            out.append(
                (
                    "board.outer_circle_diameter",
                    f"got {b.outer_circle_diameter} m; allowed: >= {2 * c.diameter:.4g} m (room for a coin)",
                )
            )
        elif b.outer_circle_diameter / 2 > abs(b.striker_y) - s.radius:
            out.append(
                (
                    "board.outer_circle_diameter",
                    f"got {b.outer_circle_diameter} m: due coins placed inside it would land on the base lines",
                )
            )
        if extent >= abs(b.striker_y) - s.radius:
            out.append(("coins.diameter", "the break formation would reach the base lines"))
        return out

    def _game_problems(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        b, c, s, p = self.board, self.coins, self.striker, self.physics
        if self.game.best_of % 2 == 0:
            out.append(("game.best_of", f"got {self.game.best_of}; allowed: an odd number (1, 3, ...)"))
        if self.game.max_games < self.game.best_of:
            out.append(("game.max_games", f"got {self.game.max_games}; allowed: >= game.best_of ({self.game.best_of})"))
        if not math.isfinite(s.max_speed):
            out.append(("striker.max_speed", "must be finite"))
        else:
            # the hardest flick must at least reach the pack: the striker slides
            # |striker_y| - R - 5r to touch the nearest coin of the formation
            reach = s.max_speed**2 / (2 * p.friction * p.gravity)
            if reach <= abs(b.striker_y) - s.radius - 5 * c.radius:
                out.append(
                    (
                        "striker.max_speed",
                        f"got {s.max_speed} m/s: with physics.friction "
                        f"{p.friction} the hardest flick stops before the "
                        f"coins (no stroke could ever touch one)",
                    )
                )
        return out


def lineup_problems(rules: CarromRules, n_players: int) -> list[str]:
    """Carrom takes 2 (singles), 3 (each for themselves) or 4 (doubles) players."""
    if n_players not in (2, 3, 4):
        return [f"players: carrom takes 2, 3 or 4 players, got {n_players}"]
    return []
