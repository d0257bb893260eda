"""The Curlastique board as a physics table, and throws simulated on it.

Geometry (metres; x lateral, 0 on the axis; y forward from the near rim):

* rim: the four sides of the ``board.width × board.length`` surface, the far sides shortened
  where the corner pieces cut the two far corners;
* corner pieces: 45° blocks whose legs are ``board.corner_size`` along the far rim and the side
  rim; their hypotenuse is the contact face;
* the elastic: a segment across the board at ``y = board.elastic_y`` between the two pegs, at
  ``x = ±(width/2 − peg_inset)``, radius ``board.peg_radius``.

Each element is an out-of-play trigger when its ``out.*`` switch is on, else a bouncing wall
with its own restitution. A puck that touches an out trigger is lost for the round at that
contact; with ``out.lost_puck = "moves_on"`` (the seed's «même s'il revient ensuite sur la
surface de jeu») it bounces off with the element's restitution and moves on, knocking other
pucks, and is removed once the throw is over; with ``"removed"`` it leaves the board at the
contact. A throw starts with the puck's back edge on the
elastic (centre at ``y = elastic_y + r``), moving forward: the engine does not count a disc
that starts touching a segment and moves away as a contact.

Angles follow :func:`sim.physics.heading`: degrees from straight ahead (+y), counterclockwise
positive, so a positive angle sends the puck towards −x.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from sim.physics import STATUS_ON, Discs, Physics, Table, add_engine_seconds, heading

from .flight import board_edges, free_flights
from .schema import CurlastiqueRules
from .settling import engine_batch, landing

__all__ = [
    "BoardGeometry",
    "geometry",
    "table",
    "physics",
    "aim_angle",
    "launch_velocity",
    "Landing",
    "Arena",
    "arena",
    "simulate_throws",
    "physics_resolver",
    "discs_for",
]


@dataclass(frozen=True)
class BoardGeometry:
    """The board's elements by name: segments (x1, y1, x2, y2) and pegs (x, y, r)."""

    rim: tuple[tuple[float, float, float, float], ...]
    corners: tuple[tuple[float, float, float, float], ...]
    elastic: tuple[float, float, float, float]
    pegs: tuple[tuple[float, float, float], ...]


@lru_cache(maxsize=32)
def geometry(rules: CurlastiqueRules) -> BoardGeometry:
    """The board's elements from the rules (cached)."""
    b = rules.board
    hw, length, c = b.width / 2, b.length, b.corner_size
    rim = (
        (-hw, 0.0, hw, 0.0),  # near rim
        (-hw, 0.0, -hw, length - c),  # left side
        (hw, 0.0, hw, length - c),  # right side
        (-hw + c, length, hw - c, length),
    )  # far rim
    corners = ((-hw, length - c, -hw + c, length), (hw - c, length, hw, length - c)) if c > 0 else ()
    px = rules.peg_x
    return BoardGeometry(
        rim=rim,
        corners=corners,
        elastic=(-px, b.elastic_y, px, b.elastic_y),
        pegs=((-px, b.elastic_y, b.peg_radius), (px, b.elastic_y, b.peg_radius)),
    )


@lru_cache(maxsize=32)
def table(rules: CurlastiqueRules):
    """The :class:`sim.physics.Table` of the rules (cached): out triggers or bouncing walls.

    Every element carries its restitution: a plain wall bounces with it; an out element
    bounces a puck with it too when ``out.lost_puck = "moves_on"`` (the puck is then LOST:
    it moves on and knocks pucks until the throw ends), and ignores it when the puck is
    ``removed`` at the contact."""
    g, b, out = geometry(rules), rules.board, rules.out
    walls, outs, obstacles, out_circles = [], [], [], []
    for segs, is_out, e in (
        (g.rim, out.rim, b.rim_restitution),
        (g.corners, out.corners, b.corner_restitution),
        ((g.elastic,), out.elastic, b.elastic_restitution),
    ):
        for seg in segs:
            (outs if is_out else walls).append((*seg, e))
    for peg in g.pegs:
        (out_circles if out.pegs else obstacles).append((*peg, b.peg_restitution))
    mode = "bounce" if out.lost_puck == "moves_on" else "remove"
    return Table.build(walls=walls, out_segments=outs, obstacles=obstacles, out_circles=out_circles, out_mode=mode)


def out_element(rules: CurlastiqueRules, b: int) -> str:
    """Name of the element behind the ``b`` field of an OUT event (rim, corner, elastic, peg)."""
    g, out = geometry(rules), rules.out
    names = (
        (["rim"] * len(g.rim) if out.rim else [])
        + (["corner"] * len(g.corners) if out.corners else [])
        + (["elastic"] if out.elastic else [])
    )
    return names[b] if b < len(names) else "peg"


@lru_cache(maxsize=32)
def physics(rules: CurlastiqueRules):
    """The :class:`sim.physics.Physics` of the rules (cached)."""
    p = rules.physics
    return Physics(
        friction=p.friction, restitution=p.restitution, contact_friction=p.contact_friction, gravity=p.gravity
    )


def aim_angle(dx, dy):
    """Angle (deg, counterclockwise from +y, as :func:`sim.physics.heading`) of direction (dx, dy)."""
    return np.degrees(np.arctan2(-np.asarray(dx, dtype=float), np.asarray(dy, dtype=float)))


def launch_velocity(angle_deg, speed) -> np.ndarray:
    """Velocity vectors (m/s), shape ``angle.shape + (2,)``."""
    return heading(angle_deg) * np.asarray(speed, dtype=float)[..., None]


def discs_for(rules: CurlastiqueRules, pos: np.ndarray, owner: np.ndarray, seat: int):
    """The :class:`sim.physics.Discs` of the pucks at rest plus the thrown puck (last row).

    The thrown puck is parked behind the elastic until a shot places it (``kind`` = owner)."""
    parked = np.array([[0.0, rules.board.elastic_y / 2]])
    return Discs(
        pos=np.vstack([np.reshape(pos, (-1, 2)), parked]),
        radius=rules.puck.radius,
        mass=rules.puck.mass,
        kind=np.append(np.asarray(owner, dtype=np.int64), seat),
    )


class Landing(NamedTuple):
    """Where every puck stopped after a throw (or after each of K throws: a leading K axis):
    ``final`` (M+1, 2) m, the thrown puck last, and ``on`` (M+1,) bool, still in play (a lost
    puck is not, wherever it stopped)."""

    final: np.ndarray
    on: np.ndarray


@njit(cache=True, error_model="numpy")
def _assemble(pos, free, rest, starts, engine_final, engine_status):
    """(K, M+1, 2) positions and (K, M+1) in-play flags: free throws from ``rest``, the others
    (in order) from the engine's; a thrown puck that could not be placed (NaN start) is not
    in play."""
    nk, m = free.shape[0], pos.shape[0]
    final = np.empty((nk, m + 1, 2))
    on = np.empty((nk, m + 1), dtype=np.bool_)
    j = 0
    for k in range(nk):
        if free[k]:
            final[k, :m] = pos
            on[k, :m] = True
            final[k, m, 0], final[k, m, 1] = rest[k, 0], rest[k, 1]
            on[k, m] = np.isfinite(starts[k, 0])
        else:
            final[k] = engine_final[j]
            for i in range(m + 1):
                on[k, i] = engine_status[j, i] == STATUS_ON
            j += 1
    return final, on


class Arena:
    """The physics of one rules set, built once and reused for every throw.

    It holds the :class:`~sim.physics.Table` and :class:`~sim.physics.Physics`, the elements of
    the broad phase (:mod:`sim.curlastique.rules.flight`) and the arguments the compiled code of
    :mod:`sim.curlastique.rules.settling` takes: ``flight`` (launch line y (m), puck diameter (m), μg
    (m/s²), the board's edge lines, the pegs and where the thrown puck waits, parked behind
    the elastic) and ``engine_args`` (the table's packed arrays, μg, e, μ_c). A throw that
    touches nothing is settled by the broad phase; the others by the engine, all of a batch in
    one call.
    """

    def __init__(self, rules: CurlastiqueRules):
        g = geometry(rules)
        self.rules = rules
        self.table, self.physics = table(rules), physics(rules)
        self.deceleration = self.physics.deceleration
        self.radius, self.launch_y, self.mass = rules.puck.radius, rules.launch_y, rules.puck.mass
        self.edges = board_edges(np.array(g.rim + g.corners, dtype=float).reshape(-1, 4), (0.0, rules.board.length / 2))
        self.circles = np.array(g.pegs, dtype=float).reshape(-1, 3)
        self.parked = np.array([0.0, rules.board.elastic_y / 2])
        p = self.physics
        self.flight = (self.launch_y, rules.puck.diameter, self.deceleration, self.edges, self.circles, self.parked)
        self.engine_args = (*self.table.packed, p.friction * p.gravity, p.restitution, p.contact_friction)

    def settle(self, pos: np.ndarray, owner: np.ndarray, seat: int, starts: np.ndarray, vel: np.ndarray) -> Landing:
        """K throws from one board state: the broad phase, then the engine for the rest.

        Args:
            pos, owner: the pucks at rest (M, 2) m (float64, C order) and their seats (M,).
            seat: the thrower.
            starts: (K, 2) m, the thrown puck's start (a NaN x: it could not be placed: it
                counts as out and touches nothing); vel: (K, 2) m/s.

        Returns:
            a :class:`Landing` with a leading K axis.
        """
        free, rest, hit_starts, hit_vel = free_flights(
            pos, starts, vel, self.deceleration, self.radius, self.edges, self.circles, self.parked
        )
        engine_final, engine_status, seconds = engine_batch(
            pos, self.parked, hit_starts, hit_vel, self.engine_args, self.radius, self.mass
        )
        add_engine_seconds(seconds)
        return Landing(*_assemble(pos, free, rest, starts, engine_final, engine_status))

    def throw(self, pos: np.ndarray, owner: np.ndarray, seat: int, x: float, angle_deg: float, speed: float) -> Landing:
        """One throw from a legal start ``x`` (m, finite), as :meth:`settle` settles it."""
        final, on, seconds = landing(pos, x, angle_deg, speed, self.flight, self.engine_args, self.mass)
        add_engine_seconds(seconds)
        return Landing(final, on)


@lru_cache(maxsize=32)
def arena(rules: CurlastiqueRules) -> Arena:
    """The :class:`Arena` of the rules (cached: built once per process and rules)."""
    return Arena(rules)


def simulate_throws(
    rules: CurlastiqueRules, pos: np.ndarray, owner: np.ndarray, seat: int, x, angle_deg, speed
) -> tuple[np.ndarray, np.ndarray]:
    """K throws from one board state (the broad phase, then one compiled engine call).

    Args:
        pos, owner: the pucks at rest (M, 2) m and their seats (M,).
        seat: the thrower.
        x, angle_deg, speed: executed shots, shape (K,) (m, deg, m/s); a NaN ``x`` means the
            puck could not be placed: it counts as out and touches nothing.

    Returns:
        ``final_pos`` (K, M+1, 2) m and ``on`` (K, M+1) bool (still in play: a lost puck is
        not, wherever it stopped); the thrown puck is the last column.
    """
    x = np.atleast_1d(np.asarray(x, dtype=float))
    angle_deg, speed = np.atleast_1d(angle_deg), np.atleast_1d(speed)
    starts = np.column_stack([x, np.full(len(x), rules.launch_y)])
    vel = launch_velocity(angle_deg, np.where(np.isfinite(x), speed, 0.0))
    pos = np.ascontiguousarray(np.asarray(pos, dtype=float).reshape(-1, 2))
    return tuple(arena(rules).settle(pos, np.asarray(owner, dtype=np.int64), seat, starts, vel))


def physics_resolver(
    rules: CurlastiqueRules, pos: np.ndarray, owner: np.ndarray, seat: int, x: float, angle_deg: float, speed: float
) -> Landing:
    """The default resolver of :func:`sim.curlastique.match.play_match`: one real throw."""
    final, on = simulate_throws(rules, pos, owner, seat, [x], [angle_deg], [speed])
    return Landing(final[0], on[0])
