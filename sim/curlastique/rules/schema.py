"""The rules of Curlastique as a frozen dataclass tree (loaded from ``rules.toml``).

Coordinates: metres, ``x`` lateral (0 on the board's axis), ``y`` forward from the near rim
(``y = 0``) to the far rim (``y = board.length``). The elastic lies across the board at
``y = board.elastic_y``; a puck is launched with its back edge on it, moving forward.

Every number a designer may balance is a field here and a key of ``rules.toml``; the checks
that involve several fields are in :meth:`CurlastiqueRules.problems`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from sim.core.config import param

__all__ = [
    "GameRules",
    "ZoneRules",
    "BoardRules",
    "PuckRules",
    "PhysicsRules",
    "LaunchRules",
    "OutRules",
    "CurlastiqueRules",
    "lineup_problems",
]


@dataclass(frozen=True)
class GameRules:
    """Length of the game, teams and tie-breaks."""

    target_score: int = param(
        500, min=0, min_exclusive=True, unit="points", doc="the game ends after the round in which someone reaches it"
    )
    max_rounds: int = param(
        50,
        min=1,
        unit="rounds",
        doc="cap on rounds, decisive ones included; a capped game ends unfinished, with no winner",
    )
    teams: bool = param(False, doc="2 teams of 2 (seats 0, 2 vs 1, 3); needs 4 players")
    team_decider: Literal["higher_scorer", "lower_scorer", "first_seat"] = param(
        "higher_scorer", doc="who plays a team's decisive round"
    )
    tie_break: Literal["one_v_one", "together"] = param(
        "one_v_one",
        doc="more than two players tied for first: 1-against-1 decisive rounds in "
        "seat order, the winner of each meeting the next tied player "
        "(one_v_one), or one decisive round of all of them (together)",
    )
    tie_order: Literal["seat", "random"] = param(
        "seat",
        doc="order of the one_v_one meetings: the tied players' seat order (the last tied seat "
        "plays once and throws last), or an order drawn at random at each such tie",
    )
    pucks_per_player: int = param(5, min=1, max=12, unit="pucks", doc="pucks each player throws per round")


@dataclass(frozen=True)
class ZoneRules:
    """The scoring target: concentric rings, innermost first."""

    values: tuple[int, ...] = param((100, 80, 40, 20), min=0, unit="points", doc="value of each ring, innermost first")
    radii: tuple[float, ...] = param(
        (0.04, 0.08, 0.13, 0.19),
        min=0.0,
        min_exclusive=True,
        unit="m",
        doc="outer radius of each ring, innermost first",
    )
    line_rule: Literal["lower", "higher", "centre"] = param(
        "lower", doc="a puck on a line counts: the lower zone, the higher one, or where its centre is"
    )
    centre_y: float = param(
        0.75, min=0.0, min_exclusive=True, unit="m", doc="distance of the target centre from the near rim (on the axis)"
    )

    def notes(self) -> list[tuple[str, str]]:
        """Legal but surprising zones, as (key, message): values that grow outward."""
        v = list(self.values)
        if any(outer > inner for inner, outer in zip(v, v[1:], strict=False)):
            return [
                (
                    "values",
                    f"{v} grow outward somewhere (innermost first): an outer ring is worth more than the one inside it",
                )
            ]
        return []


@dataclass(frozen=True)
class BoardRules:
    """The playing surface, its rim, the elastic with its two pegs, the far corner pieces."""

    width: float = param(0.50, min=0.0, min_exclusive=True, unit="m", doc="inside width")
    length: float = param(1.00, min=0.0, min_exclusive=True, unit="m", doc="inside length")
    elastic_y: float = param(
        0.10, min=0.0, min_exclusive=True, unit="m", doc="distance of the elastic from the near rim"
    )
    peg_inset: float = param(
        0.02, min=0.0, min_exclusive=True, unit="m", doc="distance of each peg's centre from its side rim"
    )
    peg_radius: float = param(0.005, min=0.0, min_exclusive=True, unit="m", doc="radius of a peg")
    corner_size: float = param(0.05, min=0.0, unit="m", doc="leg of the 45° corner pieces at the far corners (0: none)")
    rim_restitution: float = param(0.5, min=0.0, max=1.0, doc="rim bounce, when out.rim = false")
    elastic_restitution: float = param(0.9, min=0.0, max=1.0, doc="elastic bounce, when out.elastic = false")
    peg_restitution: float = param(0.5, min=0.0, max=1.0, doc="peg bounce, when out.pegs = false")
    corner_restitution: float = param(0.5, min=0.0, max=1.0, doc="corner-piece bounce, when out.corners = false")


@dataclass(frozen=True)
class PuckRules:
    """A puck: diameter (m) and mass (kg)."""

    diameter: float = param(0.035, min=0.0, min_exclusive=True, unit="m", doc="puck diameter")
    mass: float = param(0.008, min=0.0, min_exclusive=True, unit="kg", doc="puck mass")

    @property
    def radius(self) -> float:
        return self.diameter / 2


@dataclass(frozen=True)
class PhysicsRules:
    """How pucks move on the board: sliding friction, restitution, friction at contact, gravity
    (m/s²)."""

    friction: float = param(0.15, min=0.0, min_exclusive=True, doc="sliding (Coulomb) friction μ, puck on board")
    restitution: float = param(0.85, min=0.0, max=1.0, doc="puck–puck coefficient of restitution")
    contact_friction: float = param(0.0, min=0.0, doc="puck–puck tangential (Coulomb) friction at impact")
    gravity: float = param(9.81, min=0.0, min_exclusive=True, unit="m/s²", doc="gravity")


@dataclass(frozen=True)
class LaunchRules:
    """What a throw may be: lateral start, aim angle and pull of the elastic (a spring)."""

    x_max: float = param(0.19, min=0.0, unit="m", doc="largest |x| of the puck's centre at launch")
    angle_max_deg: float = param(
        35.0, min=0.0, max=80.0, unit="deg", doc="largest aim angle either side of straight ahead"
    )
    max_pull: float = param(0.06, min=0.0, min_exclusive=True, unit="m", doc="longest pull of the elastic")
    stiffness: float = param(
        20.0, min=0.0, min_exclusive=True, unit="N/m", doc="spring constant k of the elastic: v = pull·√(k/m)"
    )


@dataclass(frozen=True)
class OutRules:
    """Which contacts put a puck out of play for the round (false: it bounces off instead),
    and what a puck put out does next."""

    rim: bool = param(True, doc="touching the rim")
    corners: bool = param(True, doc="touching a corner piece")
    pegs: bool = param(True, doc="touching a peg (separator)")
    elastic: bool = param(True, doc="touching the elastic")
    lost_puck: Literal["moves_on", "removed"] = param(
        "moves_on",
        doc="a puck put out bounces off (its element's restitution in [board]) and "
        "moves on, knocking pucks, until the throw ends, then is removed "
        "(moves_on); or is taken off the board at the contact (removed)",
    )


@dataclass(frozen=True)
class CurlastiqueRules:
    """The rules of Curlastique: the game, the scoring zones, the board, the pucks, the physics,
    the launcher and what counts as out."""

    game: GameRules = GameRules()
    zones: ZoneRules = ZoneRules()
    board: BoardRules = BoardRules()
    puck: PuckRules = PuckRules()
    physics: PhysicsRules = PhysicsRules()
    launch: LaunchRules = LaunchRules()
    out: OutRules = OutRules()

    @property
    def max_speed(self) -> float:
        """Fastest launch (m/s): the full pull of the spring, ``max_pull·√(stiffness/mass)``."""
        return self.launch.max_pull * math.sqrt(self.launch.stiffness / self.puck.mass)

    @property
    def launch_y(self) -> float:
        """``y`` of a puck's centre at launch (m): its back edge on the elastic."""
        return self.board.elastic_y + self.puck.radius

    @property
    def peg_x(self) -> float:
        """``|x|`` of the pegs' centres (m)."""
        return self.board.width / 2 - self.board.peg_inset

    def problems(self) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        z, b, r = self.zones, self.board, self.puck.radius
        if len(z.values) != len(z.radii):
            out.append(("zones.values", f"expected {len(z.radii)} values (one per radius), got {len(z.values)}"))
        if not z.radii:
            out.append(("zones.radii", "expected at least one ring"))
        if any(outer <= inner for inner, outer in zip(z.radii, z.radii[1:], strict=False)):
            out.append(("zones.radii", f"must increase outward, got {list(z.radii)}"))
        if not b.elastic_y < z.centre_y < b.length:
            out.append(
                (
                    "zones.centre_y",
                    f"got {z.centre_y} m; allowed: between the elastic "
                    f"({b.elastic_y} m) and the far rim ({b.length} m)",
                )
            )
        elif (
            z.radii
            and z.radii[-1] > (room := min(b.width / 2, b.length - z.centre_y, z.centre_y - b.elastic_y)) + 1e-12
        ):
            out.append(
                (
                    "zones.radii",
                    f"the outer ring (radius {z.radii[-1]} m) does not fit on the "
                    f"board around the target centre; allowed: <= {room:.4g} m "
                    "(to the nearest side rim, far rim or elastic)",
                )
            )
        if z.values and not any(z.values):
            out.append(
                (
                    "zones.values",
                    f"got {list(z.values)}; allowed: at least one ring worth points (no puck could ever score)",
                )
            )
        if b.elastic_y + 2 * self.puck.diameter >= b.length:
            out.append(
                (
                    "board.elastic_y",
                    f"got {b.elastic_y} m; allowed: < {b.length - 2 * self.puck.diameter:.4g} m "
                    "(room for a puck in front of the elastic)",
                )
            )
        if b.peg_inset <= b.peg_radius:
            out.append(("board.peg_inset", f"got {b.peg_inset} m; allowed: > board.peg_radius ({b.peg_radius} m)"))
        if b.corner_size >= min(b.width, b.length - b.elastic_y) / 2:
            out.append(
                (
                    "board.corner_size",
                    f"got {b.corner_size} m; allowed: < {min(b.width, b.length - b.elastic_y) / 2:.4g} m",
                )
            )
        x_limit = self.peg_x - b.peg_radius - r
        if self.launch.x_max > x_limit + 1e-12:
            out.append(
                (
                    "launch.x_max",
                    f"got {self.launch.x_max} m; allowed: <= {x_limit:.4g} m (the puck must not touch a peg at launch)",
                )
            )
        if self.puck.diameter >= b.width / 4:
            out.append(
                (
                    "puck.diameter",
                    f"got {self.puck.diameter} m; allowed: < {b.width / 4:.4g} m (a quarter of the board's width)",
                )
            )
        return out


def lineup_problems(rules: CurlastiqueRules, n_players: int) -> list[str]:
    """Line-up checks that depend on the rules: teams need exactly 4 players."""
    if rules.game.teams and n_players != 4:
        return [f"players: game.teams = true needs 4 players (2 teams of 2), got {n_players}"]
    return []
