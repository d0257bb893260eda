"""Results of shots: the typed event record and the final state."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .constants import DISC

#: One event: time (s), kind (DISC / WALL / OUT / POCKET / OBSTACLE), a (disc id), b (other
#: disc id for DISC; wall / out / pocket / obstacle index otherwise, out circles offset by the
#: number of out segments), x, y (m): position of disc a at the event (after the impact).
EVENT_DTYPE = np.dtype([("time", "f8"), ("kind", "i1"), ("a", "i4"), ("b", "i4"), ("x", "f8"), ("y", "f8")])


@dataclass(frozen=True, eq=False)  # arrays: compare by identity
class ShotResult:
    """Outcome of one shot.

    final_pos  (N, 2) m: rest point of discs in play and of LOST ones; where a disc left
               play for OUT / POCKETED ones; input position for discs not in play at the
               start.
    status     (N,) int8: STATUS_ON / STATUS_OUT / STATUS_POCKETED / STATUS_LOST (a LOST
               disc touched a bouncing out element; final_pos is where it came to rest).
    events     structured array (EVENT_DTYPE), time-ordered; ties in the engine's priority
               order (kind, then a, then b).
    paths      per disc a (k, 3) array of (t, x, y) polyline vertices: start, every event
               that changed the disc's velocity, and the rest point (motion between
               vertices is a straight line, so the polyline is exact); None unless asked.
    truncated  True if the max_events safety cap stopped the shot (discs are then frozen
               where they were at the last event).
    """

    final_pos: np.ndarray
    status: np.ndarray
    events: np.ndarray
    paths: list[np.ndarray] | None
    truncated: bool

    def first_contact(self, disc: int) -> int:
        """Id of the first disc that `disc` touched, or -1."""
        ev = self.events
        hit = np.flatnonzero((ev["kind"] == DISC) & ((ev["a"] == disc) | (ev["b"] == disc)))
        if hit.size == 0:
            return -1
        e = ev[hit[0]]
        return int(e["b"] if e["a"] == disc else e["a"])

    def touched(self, disc: int, kind: int) -> bool:
        """Did `disc` take part in an event of this kind (e.g. touched(0, OUT))?
        For DISC, either side of the impact counts."""
        ev = self.events
        m = (ev["kind"] == kind) & (ev["a"] == disc)
        if kind == DISC:
            m |= (ev["kind"] == kind) & (ev["b"] == disc)
        return bool(m.any())

    @property
    def n_events(self) -> int:
        """Number of events."""
        return int(self.events.shape[0])


@dataclass(frozen=True, eq=False)  # arrays: compare by identity
class BatchResult:
    """K independent shots from one state.

    final_pos      (K, N, 2) m
    status         (K, N) int8
    first_contact  (K,) id of the first disc the mover touched, -1 if none
    n_events       (K,)
    truncated      (K,) bool, True where the max_events cap was hit
    """

    final_pos: np.ndarray
    status: np.ndarray
    first_contact: np.ndarray
    n_events: np.ndarray
    truncated: np.ndarray


#: Names of the impact-log columns of a `Trace` (one row per event).
IMPACT_COLUMNS = (
    "a_vx_before",
    "a_vy_before",
    "a_w_before",
    "b_vx_before",
    "b_vy_before",
    "b_w_before",
    "a_vx_after",
    "a_vy_after",
    "a_w_after",
    "b_vx_after",
    "b_vy_after",
    "b_w_after",
)


@dataclass(frozen=True, eq=False)  # arrays: compare by identity
class Trace:
    """Debug record of one shot (`sim.physics.trace`).

    result   the ShotResult, paths included.
    impacts  (n_events, 12) float64, one row per event in `result.events` order, columns
             `IMPACT_COLUMNS`: vx, vy (m/s) and spin ω (rad/s, counterclockwise) of disc a,
             then of disc b, just before the event, then the same just after it. The b
             columns are 0 unless the event is DISC. The tests check momentum and energy
             balances on these rows.
    """

    result: ShotResult
    impacts: np.ndarray

    def impact(self, k: int) -> dict[str, float]:
        """Row k of the impact log by column name."""
        return {name: float(v) for name, v in zip(IMPACT_COLUMNS, self.impacts[k], strict=True)}
