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

import numpy as np

from sim.physics import STATUS_ON, Discs, Physics, Table, heading, simulate_batch

from .rules import CurlastiqueRules

__all__ = ["BoardGeometry", "geometry", "table", "physics", "aim_angle", "launch_velocity",
           "simulate_throws", "physics_resolver", "discs_for"]


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
    rim = ((-hw, 0.0, hw, 0.0),                      # near rim
           (-hw, 0.0, -hw, length - c),              # left side
           (hw, 0.0, hw, length - c),                # right side
           (-hw + c, length, hw - c, length))        # far rim
    corners = ((-hw, length - c, -hw + c, length), (hw - c, length, hw, length - c)) if c > 0 else ()
    px = rules.peg_x
    return BoardGeometry(rim=rim, corners=corners, elastic=(-px, b.elastic_y, px, b.elastic_y),
                         pegs=((-px, b.elastic_y, b.peg_radius), (px, b.elastic_y, b.peg_radius)))


@lru_cache(maxsize=32)
def table(rules: CurlastiqueRules):
    """The :class:`sim.physics.Table` of the rules (cached): out triggers or bouncing walls.

    Every element carries its restitution: a plain wall bounces with it; an out element
    bounces a puck with it too when ``out.lost_puck = "moves_on"`` (the puck is then LOST:
    it moves on and knocks pucks until the throw ends), and ignores it when the puck is
    ``removed`` at the contact."""
    g, b, out = geometry(rules), rules.board, rules.out
    walls, outs, obstacles, out_circles = [], [], [], []
    for segs, is_out, e in ((g.rim, out.rim, b.rim_restitution),
                            (g.corners, out.corners, b.corner_restitution),
                            ((g.elastic,), out.elastic, b.elastic_restitution)):
        for seg in segs:
            (outs if is_out else walls).append((*seg, e))
    for peg in g.pegs:
        (out_circles if out.pegs else obstacles).append((*peg, b.peg_restitution))
    mode = "bounce" if out.lost_puck == "moves_on" else "remove"
    return Table.build(walls=walls, out_segments=outs, obstacles=obstacles, out_circles=out_circles,
                       out_mode=mode)


def out_element(rules: CurlastiqueRules, b: int) -> str:
    """Name of the element behind the ``b`` field of an OUT event (rim, corner, elastic, peg)."""
    g, out = geometry(rules), rules.out
    names = ((["rim"] * len(g.rim) if out.rim else []) + (["corner"] * len(g.corners) if out.corners else [])
             + (["elastic"] if out.elastic else []))
    return names[b] if b < len(names) else "peg"


@lru_cache(maxsize=32)
def physics(rules: CurlastiqueRules):
    """The :class:`sim.physics.Physics` of the rules (cached)."""
    p = rules.physics
    return Physics(friction=p.friction, restitution=p.restitution,
                   contact_friction=p.contact_friction, gravity=p.gravity)


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
    return Discs(pos=np.vstack([np.reshape(pos, (-1, 2)), parked]),
                 radius=rules.puck.radius, mass=rules.puck.mass,
                 kind=np.append(np.asarray(owner, dtype=np.int64), seat))


def simulate_throws(rules: CurlastiqueRules, pos: np.ndarray, owner: np.ndarray, seat: int,
                    x, angle_deg, speed) -> tuple[np.ndarray, np.ndarray]:
    """K throws from one board state in one compiled call.

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
    blocked = ~np.isfinite(x)
    discs = discs_for(rules, pos, owner, seat)
    mover = discs.n - 1
    starts = np.column_stack([np.where(blocked, discs.pos[mover, 0], x),
                              np.where(blocked, discs.pos[mover, 1], rules.launch_y)])
    vel = launch_velocity(angle_deg, np.where(blocked, 0.0, speed))
    result = simulate_batch(table(rules), physics(rules), discs, mover, starts, vel)
    on = result.status == STATUS_ON
    on[blocked, mover] = False
    return result.final_pos, on


def physics_resolver(rules: CurlastiqueRules, pos: np.ndarray, owner: np.ndarray, seat: int,
                     x: float, angle_deg: float, speed: float) -> tuple[np.ndarray, np.ndarray]:
    """The default resolver of :func:`sim.curlastique.match.play_match`: one real throw."""
    final, on = simulate_throws(rules, pos, owner, seat, [x], [angle_deg], [speed])
    return final[0], on[0]
