"""Inputs of a shot: the static table geometry, the physics constants, the disc state.

Coordinates in metres (x lateral, y forward), velocities m/s, masses kg. Parameters are
validated once, at construction, with messages naming the parameter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .constants import GRAVITY, REMOVE_AT_CONTACT, STATUS_ON

OUT_MODES = ("remove", "bounce")


def _rows(name: str, value, width: int, optional_last: bool = False) -> np.ndarray:
    """(k, width) float64 rows; with optional_last, rows of width - 1 numbers are accepted too."""
    arr = np.ascontiguousarray(np.asarray(value, dtype=np.float64))
    widths = (width - 1, width) if optional_last else (width,)
    if arr.size == 0:
        return np.zeros((0, widths[0]), dtype=np.float64)
    if arr.ndim == 1 and arr.shape[0] in widths:
        arr = arr.reshape(1, arr.shape[0])
    if arr.ndim != 2 or arr.shape[1] not in widths:
        expected = " or ".join(str(w) for w in widths)
        raise ValueError(f"Table.{name}: expected rows of {expected} numbers, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"Table.{name}: values must be finite")
    return arr


def _seg_extra(seg: np.ndarray, name: str) -> np.ndarray:
    """(k, 7) tx, ty, length, xmin, xmax, ymin, ymax of segments given as x1 y1 x2 y2."""
    d = seg[:, 2:4] - seg[:, 0:2]
    length = np.hypot(d[:, 0], d[:, 1])
    if np.any(length <= 0.0):
        raise ValueError(f"Table.{name}: zero-length segment at index {int(np.argmin(length))}")
    return np.column_stack(
        [
            d / length[:, None],
            length,
            np.minimum(seg[:, 0], seg[:, 2]),
            np.maximum(seg[:, 0], seg[:, 2]),
            np.minimum(seg[:, 1], seg[:, 3]),
            np.maximum(seg[:, 1], seg[:, 3]),
        ]
    )


@dataclass(frozen=True, eq=False)  # arrays: compare by identity
class Table:
    """Static geometry. All arrays float64, C-contiguous; empty arrays have shape (0, k).

    walls        (W, 5) x1, y1, x2, y2, restitution: bouncing segments (cushions), hit from
                 either side while approaching; end points act as zero-radius posts.
    out_segments (O, 4) x1, y1, x2, y2, or (O, 5) with a restitution: out boundaries. A
                 contact (disc edge touches while approaching) puts the disc out of play as
                 `out_mode` says; a disc that starts touching and moves away is not out.
    obstacles    (Q, 4) x, y, radius, restitution: static bouncing round posts.
    out_circles  (R, 3) x, y, radius, or (R, 4) with a restitution: static round posts that
                 put a disc out of play like out segments. In events their index is
                 reported as O + r (offset by len(out_segments)).
    pockets      (P, 3) x, y, capture_radius: a disc whose CENTRE comes within
                 capture_radius (while approaching the pocket centre) is POCKETED and
                 removed at once, whatever `out_mode` says. (A disc placed inside a capture
                 circle is only taken once it moves toward the pocket centre: do not place
                 discs there.)
    out_mode     what a contact with an out segment or out circle does:
                 "remove" (default): the disc is STATUS_OUT and removed at that instant;
                 "bounce": the disc bounces off with the element's restitution (the last
                 column, required) and is STATUS_LOST: out of the game, but still a body
                 that moves, collides and may touch more out elements until the shot ends.
                 Both modes record an OUT event at every such contact.
    """

    walls: np.ndarray = field(default_factory=lambda: np.zeros((0, 5)))
    out_segments: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    obstacles: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    out_circles: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    pockets: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    out_mode: str = "remove"

    def __post_init__(self):
        for name, width, optional in (
            ("walls", 5, False),
            ("out_segments", 5, True),
            ("obstacles", 4, False),
            ("out_circles", 4, True),
            ("pockets", 3, False),
        ):
            object.__setattr__(self, name, _rows(name, getattr(self, name), width, optional))
        if self.out_mode not in OUT_MODES:
            raise ValueError(f"Table.out_mode: expected one of {', '.join(OUT_MODES)}, got {self.out_mode!r}")
        for name, width in (("out_segments", 5), ("out_circles", 4)):
            arr = getattr(self, name)
            if self.out_mode == "bounce" and len(arr) and arr.shape[1] != width:
                raise ValueError(
                    f"Table.{name}: out_mode 'bounce' needs a restitution in each row "
                    f"({width} numbers), got {arr.shape[1]}"
                )
        for name, col in (("walls", 4), ("obstacles", 3), ("out_segments", 4), ("out_circles", 3)):
            arr = getattr(self, name)
            if arr.shape[1] <= col:
                continue
            e = arr[:, col]
            if np.any((e < 0.0) | (e > 1.0)):
                raise ValueError(f"Table.{name}: restitution must be in [0, 1], got {e.tolist()}")
        _seg_extra(self.walls, "walls")  # rejects zero-length segments early
        _seg_extra(self.out_segments, "out_segments")
        for name, col in (("obstacles", 2), ("out_circles", 2), ("pockets", 2)):
            r = getattr(self, name)[:, col]
            if np.any(r <= 0.0):
                raise ValueError(f"Table.{name}: radius must be > 0, got {r.tolist()}")

    @staticmethod
    def build(walls=(), out_segments=(), obstacles=(), out_circles=(), pockets=(), out_mode: str = "remove") -> "Table":
        """Table from lists of tuples, e.g. walls=[(x1, y1, x2, y2, e), ...].

        >>> t = Table.build(walls=[(-0.37, 0.37, 0.37, 0.37, 0.7)], pockets=[(0.35, 0.35, 0.02)])
        >>> t.walls.shape, t.out_segments.shape
        ((1, 5), (0, 4))
        >>> Table.build(out_segments=[(-1, 1, 1, 1, 0.5)], out_mode="bounce").out_mode
        'bounce'
        """
        return Table(
            walls=walls,
            out_segments=out_segments,
            obstacles=obstacles,
            out_circles=out_circles,
            pockets=pockets,
            out_mode=out_mode,
        )

    def out_index(self, b: int) -> tuple[str, int]:
        """Decode the `b` field of an OUT event: ("segment", i) or ("circle", i)."""
        n = self.out_segments.shape[0]
        return ("segment", b) if b < n else ("circle", b - n)

    def _out_restitution(self, arr: np.ndarray, col: int) -> np.ndarray:
        """Kernel restitution of out elements: REMOVE_AT_CONTACT, or the element's own."""
        if self.out_mode == "remove":
            return np.full(len(arr), REMOVE_AT_CONTACT)
        return arr[:, col]

    @cached_property
    def packed(self) -> tuple[np.ndarray, ...]:
        """Kernel layout: walls and outs (W, 12) x1 y1 x2 y2 e tx ty L xmin xmax ymin ymax;
        obstacles (Q, 4) x y radius e; out_circles (R, 4) x y radius e; pockets (P, 3).
        An out element's e is REMOVE_AT_CONTACT (-1) in "remove" mode."""
        walls = np.ascontiguousarray(
            np.column_stack([self.walls, _seg_extra(self.walls, "walls")]) if len(self.walls) else np.zeros((0, 12))
        )
        seg = self.out_segments
        outs = np.ascontiguousarray(
            np.column_stack([seg[:, :4], self._out_restitution(seg, 4), _seg_extra(seg, "out_segments")])
            if len(seg)
            else np.zeros((0, 12))
        )
        circ = self.out_circles
        outc = np.ascontiguousarray(
            np.column_stack([circ[:, :3], self._out_restitution(circ, 3)]) if len(circ) else np.zeros((0, 4))
        )
        return walls, outs, self.obstacles, outc, self.pockets


@dataclass(frozen=True)
class Physics:
    """Physics constants of a board.

    friction          μ, Coulomb sliding friction disc–board (dimensionless, > 0): constant
                      deceleration μ·g (docs/physics.md). Carrom default ≈ 0.1: no carrom
                      measurement is published; Iizawa's metal disks on powdered plywood
                      (nagare.or.jp/mm/99/iizawa) slid at 0.11–0.15 on flour, 0.07–0.08
                      on starch.
    restitution       e, disc–disc coefficient of restitution in [0, 1] (carrom 0.8–0.9,
                      curlastique 0.85: docs/games/carrom.md, docs/games/curlastique.md).
    contact_friction  μ_c, Coulomb friction in disc–disc impacts (0 = frictionless). When > 0
                      spin is tracked with I = ½mR² (stick/slide, docs/physics.md); spin does
                      not feed back into the sliding motion on the board.
    gravity           g, m/s² (9.81).
    """

    friction: float
    restitution: float
    contact_friction: float = 0.0
    gravity: float = GRAVITY

    def __post_init__(self):
        for name in ("friction", "restitution", "contact_friction", "gravity"):
            v = getattr(self, name)
            try:
                v = float(v)
            except (TypeError, ValueError):
                raise ValueError(f"Physics.{name}: expected a number, got {v!r}") from None
            if not np.isfinite(v):
                raise ValueError(f"Physics.{name}: must be finite, got {v}")
            object.__setattr__(self, name, v)
        if self.friction <= 0.0:
            raise ValueError(f"Physics.friction: must be > 0 (discs must stop), got {self.friction}")
        if not 0.0 <= self.restitution <= 1.0:
            raise ValueError(f"Physics.restitution: must be in [0, 1], got {self.restitution}")
        if self.contact_friction < 0.0:
            raise ValueError(f"Physics.contact_friction: must be >= 0, got {self.contact_friction}")
        if self.gravity <= 0.0:
            raise ValueError(f"Physics.gravity: must be > 0, got {self.gravity}")

    @property
    def deceleration(self) -> float:
        """μ·g, m/s²."""
        return self.friction * self.gravity


@dataclass(eq=False)  # arrays: compare by identity
class Discs:
    """Mutable state arrays: pos (N, 2) m, vel (N, 2) m/s, radius (N,) m, mass (N,) kg,
    status (N,) int8 (STATUS_ON / STATUS_OUT / STATUS_POCKETED), kind (N,) int (game
    meaning: owner / colour; the physics ignores it).

    radius and mass may be given as scalars; vel, status and kind default to zeros.
    Discs that are not STATUS_ON take no part in the shot (STATUS_LOST is an outcome only:
    a game takes lost discs off the board after the shot). The layout must not overlap
    (beyond 1e-9 m).
    """

    pos: np.ndarray
    vel: np.ndarray | None = None
    radius: np.ndarray | float = 0.0
    mass: np.ndarray | float = 0.0
    status: np.ndarray | None = None
    kind: np.ndarray | None = None

    def __post_init__(self):
        pos = np.ascontiguousarray(np.asarray(self.pos, dtype=np.float64)).reshape(-1, 2)
        n = pos.shape[0]
        vel = np.zeros((n, 2)) if self.vel is None else self.vel
        vel = np.ascontiguousarray(np.asarray(vel, dtype=np.float64)).reshape(-1, 2)
        radius = np.ascontiguousarray(np.broadcast_to(np.asarray(self.radius, np.float64), (n,)))
        mass = np.ascontiguousarray(np.broadcast_to(np.asarray(self.mass, np.float64), (n,)))
        status = np.zeros(n, np.int8) if self.status is None else self.status
        status = np.ascontiguousarray(np.asarray(status, dtype=np.int8)).reshape(-1)
        kind = np.zeros(n, np.int64) if self.kind is None else self.kind
        kind = np.ascontiguousarray(np.asarray(kind, dtype=np.int64)).reshape(-1)
        for name, arr in (("vel", vel), ("status", status), ("kind", kind)):
            if arr.shape[0] != n:
                raise ValueError(f"Discs.{name}: expected {n} rows (one per disc), got {arr.shape[0]}")
        if np.any(radius <= 0.0):
            raise ValueError("Discs.radius: must be > 0")
        if np.any(mass <= 0.0):
            raise ValueError("Discs.mass: must be > 0")
        if not (np.all(np.isfinite(pos)) and np.all(np.isfinite(vel))):
            raise ValueError("Discs.pos / Discs.vel: values must be finite")
        if np.any((status < 0) | (status > 2)):
            raise ValueError("Discs.status: expected 0 (on), 1 (out) or 2 (pocketed)")
        self.pos, self.vel, self.radius, self.mass = pos, vel, radius.copy(), mass.copy()
        self.status, self.kind = status, kind

    @property
    def n(self) -> int:
        """Number of discs."""
        return self.pos.shape[0]

    def copy(self) -> "Discs":
        """Deep copy."""
        return Discs(
            self.pos.copy(), self.vel.copy(), self.radius.copy(), self.mass.copy(), self.status.copy(), self.kind.copy()
        )

    def on(self) -> np.ndarray:
        """Boolean mask of the discs in play."""
        return self.status == STATUS_ON
