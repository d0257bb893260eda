"""Public entry points: `simulate` (one shot), `simulate_batch` (K shots, one call),
`PreparedBatch` (many such calls on one table) and `trace` (one shot with every debug
record: paths and the impact log).

The compiled engine is imported on first use (importing `sim.physics` does not import numba
or compile anything); numba caches the machine code on disk (`cache=True`), so only the very
first call on a machine pays the compilation.
"""

from __future__ import annotations

import time

import numpy as np

from .kernel_cache import KERNEL_MODULES, clear_stale, kernel_sources
from .result import EVENT_DTYPE, BatchResult, ShotResult, Trace
from .table import Discs, Physics, Table

_engine_mod = None


#: CPU seconds spent inside the compiled kernels by this process (see :func:`engine_seconds`).
_KERNEL_SECONDS = [0.0]


def engine_seconds() -> float:
    """CPU seconds this process has spent inside the compiled kernels so far.

    Two clock reads per kernel call: the benchmarks divide its growth by a match's CPU time to
    show the share of the time the engine takes (the rest is the game's Python).
    """
    return _KERNEL_SECONDS[0]


def add_engine_seconds(seconds: float) -> None:
    """Count CPU seconds spent in the engine's kernels by compiled code that calls them itself
    (a game's kernel reads :func:`sim.physics.clock.cpu_seconds` around the call)."""
    _KERNEL_SECONDS[0] += seconds


def load_engine():
    """The compiled engine (module ``sim.physics.engine``), its disk cache first cleared if a
    kernel source changed since it was written (:func:`sim.physics.kernel_cache.clear_stale`).
    A game whose compiled code calls the engine's kernels calls this before they first run."""
    global _engine_mod
    if _engine_mod is None:
        from . import engine

        clear_stale(
            engine.simulate_kernel,
            kernel_sources(),
            "sim_physics_kernels.stamp",
            [f"{name}.*.nb[ic]" for name in KERNEL_MODULES],
        )
        _engine_mod = engine
    return _engine_mod


def _check_max_events(max_events: int) -> int:
    max_events = int(max_events)
    if max_events < 1:
        raise ValueError(f"max_events: must be >= 1, got {max_events}")
    return max_events


def _as(arr, dtype, shape, name):
    """The array as the kernel needs it (no copy when it already is), shape checked: the
    Discs arrays are mutable, and a wrong shape must never reach the compiled loop."""
    if not (isinstance(arr, np.ndarray) and arr.dtype == dtype and arr.flags.c_contiguous):
        arr = np.ascontiguousarray(arr, dtype=dtype)
    if arr.shape != shape:
        raise ValueError(f"Discs.{name}: expected shape {shape}, got {arr.shape}")
    return arr


def _disc_arrays(discs: Discs):
    n = len(discs.pos)
    return (
        _as(discs.pos, np.float64, (n, 2), "pos"),
        _as(discs.vel, np.float64, (n, 2), "vel"),
        _as(discs.radius, np.float64, (n,), "radius"),
        _as(discs.mass, np.float64, (n,), "mass"),
        _as(discs.status, np.int8, (n,), "status"),
    )


def _shot(
    table: Table, physics: Physics, discs: Discs, record_paths: bool, max_events: int, log_impacts: bool
) -> tuple[ShotResult, np.ndarray]:
    """One shot through the compiled kernel: (result, impact log (n_events, 12))."""
    eng = load_engine()
    walls, outs, obst, outc, pockets = table.packed
    pos, vel, radius, mass, status_in = _disc_arrays(discs)
    started = time.process_time()
    final, status, n_ev, truncated, ev, npv, pv, imp = eng.simulate_kernel(
        walls,
        outs,
        obst,
        outc,
        pockets,
        physics.friction * physics.gravity,
        physics.restitution,
        physics.contact_friction,
        pos,
        vel,
        radius,
        mass,
        status_in,
        _check_max_events(max_events),
        bool(record_paths),
        bool(log_impacts),
    )
    _KERNEL_SECONDS[0] += time.process_time() - started
    ev = ev[:n_ev]
    events = np.empty(n_ev, dtype=EVENT_DTYPE)
    events["time"] = ev[:, 0]
    events["kind"] = ev[:, 1]
    events["a"] = ev[:, 2]
    events["b"] = ev[:, 3]
    events["x"] = ev[:, 4]
    events["y"] = ev[:, 5]
    paths = None
    if record_paths:
        pv = pv[:npv]
        d = pv[:, 0].astype(np.int64)
        order = np.argsort(d, kind="stable")
        verts = pv[order, 1:]
        counts = np.bincount(d, minlength=discs.n)
        paths = np.split(verts, np.cumsum(counts)[:-1])
    result = ShotResult(final_pos=final, status=status, events=events, paths=paths, truncated=bool(truncated))
    return result, imp[:n_ev]


def simulate(
    table: Table, physics: Physics, discs: Discs, record_paths: bool = False, max_events: int = 10_000
) -> ShotResult:
    """Run one shot until every disc is at rest, out or pocketed. Does not mutate `discs`.

    Args:
        table: static geometry.
        physics: friction, restitution, contact friction, gravity.
        discs: initial state (any disc may be moving).
        record_paths: also return each disc's polyline (t, x, y) for plotting.
        max_events: safety cap on the number of events (flagged as `truncated`).

    Example:
        >>> from sim.physics import Discs, Physics, Table, simulate
        >>> d = Discs(pos=[[0.0, 0.0]], vel=[[0.0, 1.0]], radius=0.02, mass=0.015)
        >>> r = simulate(Table(), Physics(friction=0.1, restitution=0.9), d)
        >>> round(float(r.final_pos[0, 1]), 6)   # 1² / (2 · 0.1 · 9.81)
        0.509684
    """
    return _shot(table, physics, discs, record_paths, max_events, False)[0]


def trace(table: Table, physics: Physics, discs: Discs, max_events: int = 10_000) -> Trace:
    """One shot with every debug record: the result (with paths) and the impact log.

    The result is bit-identical to `simulate(..., record_paths=True)` on the same shot.

    Args:
        table, physics, discs, max_events: as for `simulate`.

    Returns:
        A `Trace`: `result` (ShotResult, paths included) and `impacts`, one row per event
        (columns `IMPACT_COLUMNS`): velocity (m/s) and spin (rad/s) of disc a then disc b
        before the event, then the same after it (b's columns 0 unless a DISC event).

    Example:
        >>> from sim.physics import Discs, Physics, Table, trace
        >>> d = Discs(pos=[[0.0, 0.0], [0.0, 0.1]], vel=[[0.0, 1.0], [0.0, 0.0]], radius=0.02,
        ...           mass=0.01)
        >>> tr = trace(Table(), Physics(friction=0.1, restitution=1.0), d)
        >>> row = tr.impact(0)          # equal masses, e = 1: the velocities swap
        >>> round(row["a_vy_after"], 9), row["b_vy_after"] == row["a_vy_before"]
        (0.0, True)
    """
    result, impacts = _shot(table, physics, discs, True, max_events, True)
    return Trace(result=result, impacts=impacts)


def simulate_batch(
    table: Table,
    physics: Physics,
    discs: Discs,
    mover: int,
    start_positions: np.ndarray,
    velocities: np.ndarray,
    max_events: int = 10_000,
) -> BatchResult:
    """K independent shots from the same state, in ONE compiled call.

    In shot k, disc `mover` starts at start_positions[k] (m) with velocities[k] (m/s); every
    other disc starts as in `discs` (at rest or moving). Predictions that do not involve the
    mover are computed once for the whole batch. Results are bit-identical to `simulate` on
    the same shot. (Many batches on one table: `PreparedBatch` does these checks once.)
    """
    prepared = PreparedBatch(table, physics, discs, mover, max_events)
    starts = np.ascontiguousarray(np.asarray(start_positions, dtype=np.float64)).reshape(-1, 2)
    vels = np.ascontiguousarray(np.asarray(velocities, dtype=np.float64)).reshape(-1, 2)
    if not (np.all(np.isfinite(starts)) and np.all(np.isfinite(vels))):
        raise ValueError("start_positions / velocities: values must be finite")
    return prepared.run(starts, vels)


class PreparedBatch:
    """`simulate_batch` on one table and one disc layout, its checks and set-up done once.

    Built (and validated) like `simulate_batch`'s arguments; `run(starts, vels)` then only
    passes the shots to the compiled kernel. The disc arrays are held, not copied: a caller
    may write a new layout into them in place (``discs.pos[:] = ...``, same shapes) between
    runs; replacing an array of `discs` is not seen.

    Example:
        >>> from sim.physics import Discs, Physics, PreparedBatch, Table
        >>> d = Discs(pos=[[0.0, 0.5], [0.0, 0.0]], radius=0.02, mass=0.01)
        >>> batch = PreparedBatch(Table(), Physics(friction=0.1, restitution=1.0), d, mover=1)
        >>> r = batch.run(np.zeros((2, 2)), np.array([[0.0, 0.5], [0.0, 2.0]]))
        >>> r.first_contact.tolist()      # the slow shot stops short, the fast one hits disc 0
        [-1, 0]
    """

    def __init__(self, table: Table, physics: Physics, discs: Discs, mover: int, max_events: int = 10_000):
        self.mover = int(mover)
        if not 0 <= self.mover < discs.n:
            raise ValueError(f"mover: expected a disc id in [0, {discs.n}), got {self.mover}")
        self.discs = discs
        self._args = (
            *table.packed,
            physics.friction * physics.gravity,
            physics.restitution,
            physics.contact_friction,
            *_disc_arrays(discs),
            self.mover,
        )
        self._max_events = _check_max_events(max_events)

    def run(self, starts: np.ndarray, vels: np.ndarray) -> BatchResult:
        """K shots: the mover from ``starts`` (K, 2) m with ``vels`` (K, 2) m/s, both float64,
        C-contiguous and finite (shapes checked; values as the caller computed them)."""
        if starts.shape != vels.shape or starts.ndim != 2 or starts.shape[1] != 2:
            raise ValueError(
                f"start_positions and velocities: expected the same (K, 2) shape, got {starts.shape} and {vels.shape}"
            )
        eng = _engine_mod or load_engine()
        started = time.process_time()
        final, status, first, n_ev, trunc = eng.batch_kernel(*self._args, starts, vels, self._max_events)
        _KERNEL_SECONDS[0] += time.process_time() - started
        return BatchResult(final_pos=final, status=status, first_contact=first, n_events=n_ev, truncated=trunc)
