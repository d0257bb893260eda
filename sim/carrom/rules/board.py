"""The carrom board: geometry, seats' frames, the break formation, striker placement, coin
returns, and one stroke through the physics engine.

Board coordinates: metres, origin at the centre, cushions at ±``board.half``. Seat frames:
each seat plays from one side; its *local* frame has ``x`` along its base line and ``y``
forward (towards the opposite cushion), so seat 0's frame is the board frame and another
side's frame is the board frame turned by 90°, 180° or 270° (anticlockwise). The engine
works in board coordinates; players think in their local frame.

Disc ids in every simulation: coins 0..18 (their colours in ``Geometry.colour``), the
striker is id 19 (``STRIKER``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from sim.physics import (
    DISC,
    FORMATION_GAP_M,
    POCKET,
    STATUS_ON,
    STATUS_POCKETED,
    TOUCH_TOL_M,
    Discs,
    Physics,
    Table,
    simulate,
)

from .placement import free_spans
from .schema import CarromRules

__all__ = [
    "WHITE",
    "BLACK",
    "QUEEN",
    "COLOUR_NAMES",
    "N_COINS",
    "STRIKER",
    "POCKET_NAMES",
    "Geometry",
    "geometry",
    "side_quarter",
    "formation",
    "StrokeOutcome",
    "physics_stroke",
    "nearest_in",
]

WHITE, BLACK, QUEEN = 0, 1, 2
COLOUR_NAMES = ("white", "black", "queen")
N_COINS = 19
STRIKER = 19
#: Pockets relative to a shooter, in local pocket order 0..3.
POCKET_NAMES = ("near_left", "near_right", "far_right", "far_left")
_POCKET_SIGNS = np.array([(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)])


def side_quarter(n_seats: int, seat: int) -> int:
    """Which side a seat plays from, in quarter turns anticlockwise from seat 0's side.

    Two players face each other; three take three sides; four sit round the board. Seats
    are numbered in turn order, and the turn passes to the right, i.e. anticlockwise seen
    from above (ICF 49b): seat 1 sits on seat 0's right.
    """
    if n_seats == 2:
        return 2 * seat
    return seat % 4


def _rotation(quarter: int) -> np.ndarray:
    c, s = [(1, 0), (0, 1), (-1, 0), (0, -1)][quarter % 4]
    return np.array([[c, -s], [s, c]], dtype=float)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


#: The four seat rotations, built once (read-only).
_ROTATIONS = tuple(_frozen(_rotation(q)) for q in range(4))


@dataclass(frozen=True)
class Geometry:
    """Everything derived once from the rules: the engine's table and physics, radii, masses,
    the striker's legal base-line intervals (local x), circle radii.

    Attributes:
        table: cushions (4 walls) and 4 pockets (board index 0..3 at (−,−), (+,−), (+,+), (−,+)).
        physics: friction, coin restitution.
        rc, rs: coin and striker radii (m). mc, ms: masses (kg).
        striker_y: local y of the striker's centre (m).
        legal: (k, 2) local x intervals where the striker may be placed (m): between the base
            circles without touching them, and covering a base circle.
        pocket_xy: (4, 2) board pocket centres; capture: capture radius (m).
    """

    rules: CarromRules

    @cached_property
    def table(self) -> Table:
        b, e = self.rules.board, self.rules.physics.cushion_restitution
        h = b.half
        walls = [(-h, -h, h, -h, e), (h, -h, h, h, e), (h, h, -h, h, e), (-h, h, -h, -h, e)]
        pockets = [(x, y, self.capture) for x, y in self.pocket_xy]
        return Table.build(walls=walls, pockets=pockets)

    @cached_property
    def physics(self) -> Physics:
        p = self.rules.physics
        return Physics(
            friction=p.friction, restitution=p.restitution, contact_friction=p.contact_friction, gravity=p.gravity
        )

    @cached_property
    def engine_args(self) -> tuple:
        """The engine's batch-kernel inputs for this table: the packed arrays, μg (m/s²), e, μ_c."""
        p = self.physics
        return (*self.table.packed, p.friction * p.gravity, p.restitution, p.contact_friction)

    @cached_property
    def half(self) -> float:
        return self.rules.board.half

    @cached_property
    def rc(self) -> float:
        return self.rules.coins.radius

    @cached_property
    def rs(self) -> float:
        return self.rules.striker.radius

    @cached_property
    def mc(self) -> float:
        return self.rules.coins.mass

    @cached_property
    def ms(self) -> float:
        return self.rules.striker.mass

    @cached_property
    def decel(self) -> float:
        """μg (m/s²)."""
        return self.rules.physics.friction * self.rules.physics.gravity

    @cached_property
    def striker_y(self) -> float:
        return self.rules.board.striker_y

    @cached_property
    def pocket_xy(self) -> np.ndarray:
        return _POCKET_SIGNS * self.rules.board.pocket_centre

    @cached_property
    def capture(self) -> float:
        return self.rules.board.pocket_capture * self.rules.board.pocket_radius

    @cached_property
    def legal(self) -> np.ndarray:
        b = self.rules.board
        xc, r_circle = b.base_circle_x, b.base_circle_diameter / 2
        line = xc - r_circle - self.rs  # the striker must not partly cover a circle
        spans = [(-line, line)]
        if b.base_circles:
            cover = self.rs - r_circle  # centre within this of the circle's centre: covered
            spans = [(-xc - cover, -xc + cover)] + spans + [(xc - cover, xc + cover)]
        return np.array(spans, dtype=float)

    @cached_property
    def radii(self) -> np.ndarray:
        return np.r_[np.full(N_COINS, self.rc), self.rs]

    @cached_property
    def masses(self) -> np.ndarray:
        return np.r_[np.full(N_COINS, self.mc), self.ms]

    @cached_property
    def discs(self) -> Discs:
        """The buffer :func:`stroke_discs` refills for every stroke (radii and masses set once)."""
        return Discs(np.zeros((N_COINS + 1, 2)), None, self.radii, self.masses)

    # ---------------------------------------------------------------- frames
    def rotation(self, n_seats: int, seat: int) -> np.ndarray:
        """2×2 matrix taking a seat's local coordinates to board coordinates (read-only)."""
        return _ROTATIONS[side_quarter(n_seats, seat)]

    def to_board(self, n_seats: int, seat: int, xy) -> np.ndarray:
        return np.asarray(xy, dtype=float) @ self.rotation(n_seats, seat).T

    def to_local(self, n_seats: int, seat: int, xy) -> np.ndarray:
        return np.asarray(xy, dtype=float) @ self.rotation(n_seats, seat)

    def local_pocket(self, n_seats: int, seat: int, board_pocket: int) -> int:
        """Local pocket index (see :data:`POCKET_NAMES`) of a board pocket for a seat."""
        return (board_pocket - side_quarter(n_seats, seat)) % 4

    # ---------------------------------------------------------------- striker placement
    def free_intervals(self, coins_local: np.ndarray) -> list[tuple[float, float]]:
        """Local x intervals where the striker may stand: legal and clear of every coin.

        Args:
            coins_local: (M, 2) centres of the coins on the board, in the shooter's frame.
        """
        return [(float(lo), float(hi)) for lo, hi in self.free_spans(coins_local)]

    def free_spans(self, coins_local: np.ndarray) -> np.ndarray:
        """:meth:`free_intervals` as a (k, 2) array (compiled: :func:`sim.carrom.rules.placement.free_spans`)."""
        coins = np.ascontiguousarray(coins_local, dtype=np.float64).reshape(-1, 2)
        return free_spans(coins, self.legal, self.striker_y, self.rs + self.rc)

    def place_striker(self, x: float, coins_local: np.ndarray) -> float | None:
        """The legal, free striker position nearest to ``x`` (local, m); None if none exists.

        A player places the striker where it means to; execution noise may push it off a
        legal spot, and the player then places it at the nearest legal one.
        """
        spans = self.free_spans(coins_local)
        if len(spans) == 0:
            return None
        return nearest_in(float(x), spans.tolist())

    def striker_is_legal(self, x: float, coins_local: np.ndarray, tol: float = 1e-9) -> bool:
        """Whether a striker centred at local (x, striker_y) is legally placed and free."""
        on_line = any(lo - tol <= x <= hi + tol for lo, hi in self.legal)
        if not on_line:
            return False
        if len(coins_local) == 0:
            return True
        d = np.hypot(coins_local[:, 0] - x, coins_local[:, 1] - self.striker_y)
        return bool(np.all(d >= self.rs + self.rc - 1e-7))

    # ---------------------------------------------------------------- coin returns
    def _free_mask(self, spots: np.ndarray, others: np.ndarray) -> np.ndarray:
        """(K,) whether a coin centred at each of ``spots`` (K, 2) is on the board and at least
        ``FORMATION_GAP_M`` from every coin of ``others`` (M, 2): a returned coin may touch
        others with the gap the break pack is built with (less TOUCH_TOL_M of round-off)."""
        spots = np.asarray(spots, dtype=float).reshape(-1, 2)
        others = np.asarray(others, dtype=float).reshape(-1, 2)
        ok = np.all(np.abs(spots) <= self.half - self.rc - 1e-6, axis=1)
        if len(others):
            gaps = np.hypot(*(spots[:, None, :] - others[None, :, :]).transpose(2, 0, 1))
            ok &= np.all(gaps >= 2 * self.rc + FORMATION_GAP_M - TOUCH_TOL_M, axis=1)
        return ok

    def _spot_is_free(self, p: np.ndarray, others: np.ndarray) -> bool:
        return bool(self._free_mask(p, others)[0])

    def free_spot(self, target, others: np.ndarray) -> np.ndarray:
        """The free spot for a coin nearest to ``target`` (board, m).

        ICF Laws (law 66-67 of the text cited in :func:`formation`): «The Queen shall be placed
        by the Umpire only in the Centre Circle. [...] If the Centre Circle is partially or
        completely covered by other C/m, the Queen shall be placed so as to occupy most of
        the uncovered portion or in any position adjacent to the Centre Circle»; jumped coins
        likewise (law 38(a)). The nearest free spot to the centre is the one that covers the
        most of the centre circle, and one touching the covering coins when it is covered.

        Exact, deterministic: ``target`` itself if free; otherwise the nearest of the
        candidate spots of the free region's boundary — each coin's contact circle (radius
        2r + ``FORMATION_GAP_M``) at the point nearest ``target``, and the crossings of two
        contact circles; a ring search (step r/2) only if none is free.
        ``others``: (M, 2) centres of the coins on the board.
        """
        target = np.asarray(target, dtype=float)
        others = np.asarray(others, dtype=float).reshape(-1, 2)
        if self._spot_is_free(target, others):
            return target
        cands = _contact_candidates(target, others, 2 * self.rc + FORMATION_GAP_M)
        if len(cands):
            free = self._free_mask(cands, others)
            if free.any():
                d = np.hypot(*(cands[free] - target).T)
                return cands[free][int(np.argmin(d))]  # first of equals: deterministic
        step = self.rc / 2
        for ring in range(1, 200):
            radius = ring * step
            n = max(6, int(2 * np.pi * radius / step))
            for k in range(n):
                a = 2 * np.pi * k / n
                p = target + radius * np.array([np.cos(a), np.sin(a)])
                if self._spot_is_free(p, others):
                    return p
        raise RuntimeError("no free spot on the board")  # 19 coins cannot fill it

    def random_spot(self, radius: float, others: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random free spot whose coin lies inside a circle of ``radius`` (m)
        round the centre; falls back to :meth:`free_spot` of the centre after 64 draws."""
        inner = max(radius - self.rc, 0.0)
        for _ in range(64):
            r = inner * np.sqrt(rng.random())
            a = 2 * np.pi * rng.random()
            p = np.array([r * np.cos(a), r * np.sin(a)])
            if self._spot_is_free(p, others):
                return p
        return self.free_spot((0.0, 0.0), others)


def nearest_in(x: float, spans: list[list[float]]) -> float:
    """The nearest point to ``x`` of the union of intervals ``spans`` [[lo, hi], ...] (the
    first of equals)."""
    best, gap = x, math.inf
    for lo, hi in spans:
        c = lo if x < lo else hi if x > hi else x
        if abs(c - x) < gap:
            best, gap = c, abs(c - x)
    return best


def _contact_candidates(target: np.ndarray, others: np.ndarray, contact: float) -> np.ndarray:
    """(K, 2) spots at distance ``contact`` from coins of ``others`` that may be the nearest
    free spot to ``target``: on each coin's contact circle, the point facing ``target`` (24
    evenly spaced points if ``target`` is that coin's centre), and where two contact circles
    cross."""
    v = target - others
    n = np.hypot(v[:, 0], v[:, 1])
    facing = others[n > 1e-12] + contact * v[n > 1e-12] / n[n > 1e-12, None]
    a = 2 * np.pi * np.arange(24) / 24
    ring = np.column_stack([np.cos(a), np.sin(a)]) * contact
    around = (others[n <= 1e-12, None, :] + ring[None, :, :]).reshape(-1, 2)
    i, j = np.triu_indices(len(others), 1)
    w = others[j] - others[i]
    dist = np.hypot(w[:, 0], w[:, 1])
    keep = (dist > 1e-12) & (dist < 2 * contact)
    w, dist, base = w[keep], dist[keep], others[i[keep]]
    mid = base + w / 2
    h = np.sqrt(contact * contact - dist * dist / 4)
    perp = np.column_stack([-w[:, 1], w[:, 0]]) / dist[:, None]
    crossings = np.vstack([mid + h[:, None] * perp, mid - h[:, None] * perp])
    return np.vstack([facing, around, crossings])


def geometry(rules: CarromRules) -> Geometry:
    """The board geometry of the rules (cached per rules object)."""
    cache = rules.__dict__.setdefault("_geometry", None)
    if cache is None:
        cache = Geometry(rules)
        rules.__dict__["_geometry"] = cache
    return cache


def formation(rules: CarromRules, quarter: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The break formation: (positions (19, 2) board m, colours (19,)).

    The ICF Laws of Carrom, "Break" (law 14(a) of the text at
    http://www.carrom.org/icf/?page=1&subcat=20, as reformatted in the SoL package's
    docs/en/rules.rst, https://pypi.org/project/SoL/; rule 41 of the 1993 numbering):
    «the Queen shall occupy the Centre Circle and the rest of the C/m are placed around the
    Queen in the first row keeping the Black and White C/m alternately. In the second row,
    three white C/m will form the shape "Y" with the while C/m in the first row. The remaining
    space is filled up by placing black and white C/m alternately. All C/m so arranged, should
    be in compact round, touching each other, within the Outer Circle.»

    Queen (id 0) at the centre; an inner ring of 6 touching it, colours alternating; an outer
    ring of 12: 6 straight behind the inner coins ("radial") and 6 in the gaps.
    ``formation.outer_ring = "icf"``: the three radial coins behind the inner whites are the
    whites of the "Y"; filling the rest alternately (between two arms of the Y: black, white,
    black) makes the outer ring alternate too, so every radial coin is white and every gap
    coin black (9 and 9). ``"paired"``: each radial coin has the colour of the inner coin in
    front and the gaps alternate (outer ring W W B B ...; an alternative to compare against).
    Neighbouring coins are ``FORMATION_GAP_M`` apart (a hexagonal lattice of spacing
    2r + gap). ``formation.white_y``: one white arm points straight at the breaker
    ("stem_to_breaker") or away from it, the two others towards the breaker's corners
    ("arms_to_breaker_corners"). ``quarter``: the breaker's side (quarter turns).
    """
    d = 2 * rules.coins.radius + FORMATION_GAP_M
    stem = -90.0 if rules.formation.white_y == "stem_to_breaker" else 90.0
    icf = rules.formation.outer_ring == "icf"
    pos = [(0.0, 0.0)]
    colour = [QUEEN]

    def alternate(k: int) -> int:
        return WHITE if k % 2 == 0 else BLACK

    for k in range(6):  # inner ring, touching the queen
        a = np.deg2rad(stem + 60.0 * k)
        pos.append((d * np.cos(a), d * np.sin(a)))
        colour.append(alternate(k))
    for k in range(6):  # radial: straight behind inner coin k
        a = np.deg2rad(stem + 60.0 * k)
        pos.append((2 * d * np.cos(a), 2 * d * np.sin(a)))
        colour.append(WHITE if icf else alternate(k))
    for k in range(6):  # gaps, between inner coins k and k+1
        a = np.deg2rad(stem + 30.0 + 60.0 * k)
        r = np.sqrt(3.0) * d
        pos.append((r * np.cos(a), r * np.sin(a)))
        colour.append(BLACK if icf else alternate(k))
    xy = np.array(pos) @ _rotation(quarter).T
    return xy, np.array(colour, dtype=np.int64)


@dataclass(frozen=True)
class StrokeOutcome:
    """What a stroke did, as the rules need it.

    Attributes:
        pocketed: coin ids pocketed, in the order they fell.
        pockets: board pocket index of each of them (-1: unknown, e.g. scripted).
        striker_pocketed: the striker fell into a pocket.
        touched: the striker touched at least one coin (the break must).
        final_pos: (19, 2) board positions of the coins after the stroke (pocketed coins:
            where they fell); None = the coins on the board did not move (scripted strokes).
        striker_final: (2,) where the striker stopped or fell (None for scripted strokes).
        events: the engine's event record (None for scripted strokes).
        paths: per disc polylines (t, x, y) when asked (for plots).
    """

    pocketed: tuple[int, ...] = ()
    pockets: tuple[int, ...] = ()
    striker_pocketed: bool = False
    touched: bool = True
    final_pos: np.ndarray | None = None
    striker_final: np.ndarray | None = None
    events: np.ndarray | None = None
    paths: list | None = None


def stroke_discs(geo: Geometry, pos: np.ndarray, on: np.ndarray, striker_xy, velocity) -> Discs:
    """The 20 discs of a stroke (coins 0..18, striker 19); coins off the board are inactive.

    The :class:`~sim.physics.Discs` returned is the geometry's own buffer (:attr:`Geometry.discs`),
    refilled at every call (a stroke's set-up without re-validating radii and masses): use it
    for one simulation and do not keep it.
    """
    sx, sy = float(striker_xy[0]), float(striker_xy[1])
    vx, vy = float(velocity[0]), float(velocity[1])
    if not all(map(math.isfinite, (sx, sy, vx, vy))):
        raise ValueError(f"striker position and velocity must be finite, got ({sx}, {sy}) and ({vx}, {vy})")
    discs = geo.discs
    discs.pos[:N_COINS] = pos
    discs.pos[STRIKER] = sx, sy
    discs.vel[:] = 0.0
    discs.vel[STRIKER] = vx, vy
    discs.status[:N_COINS] = np.where(on, STATUS_ON, STATUS_POCKETED)
    discs.status[STRIKER] = STATUS_ON
    return discs


def physics_stroke(
    rules: CarromRules,
    pos: np.ndarray,
    on: np.ndarray,
    striker_xy,
    angle_board_deg: float,
    speed: float,
    record_paths: bool = False,
) -> StrokeOutcome:
    """Play one stroke with the physics engine.

    Args:
        pos: (19, 2) board positions of the coins; on: (19,) bool, coins on the board.
        striker_xy: the striker's board position (m).
        angle_board_deg: direction, degrees anticlockwise from board +y.
        speed: m/s.
    """
    geo = geometry(rules)
    a = math.radians(float(angle_board_deg))  # sim.physics.heading, for one stroke
    discs = stroke_discs(geo, pos, on, striker_xy, (speed * -math.sin(a), speed * math.cos(a)))
    result = simulate(geo.table, geo.physics, discs, record_paths=record_paths)
    ev = result.events
    # a stroke has a few dozen events: a loop over lists is cheaper than numpy masks on the
    # record array's strided fields
    pocketed, pockets, touched = [], [], False
    for kind, a, b in zip(ev["kind"].tolist(), ev["a"].tolist(), ev["b"].tolist()):
        if kind == POCKET and a != STRIKER:
            pocketed.append(a)
            pockets.append(b)
        elif kind == DISC and (a == STRIKER or b == STRIKER):
            touched = True  # ShotResult.first_contact >= 0
    return StrokeOutcome(
        pocketed=tuple(pocketed),
        pockets=tuple(pockets),
        striker_pocketed=bool(result.status[STRIKER] == STATUS_POCKETED),
        touched=touched,
        final_pos=result.final_pos[:N_COINS].copy(),
        striker_final=result.final_pos[STRIKER].copy(),
        events=ev,
        paths=result.paths,
    )
