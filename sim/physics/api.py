"""Public entry points: `simulate` (one shot) and `simulate_batch` (K shots, one call).

The compiled engine is imported on first use (importing `sim.physics` does not import numba
or compile anything); numba caches the machine code on disk (`cache=True`), so only the very
first call on a machine pays the compilation.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

from .result import EVENT_DTYPE, BatchResult, ShotResult
from .table import Discs, Physics, Table

_KERNEL_MODULES = ("constants", "motion", "detect", "resolve", "engine")
_engine_mod = None


def _drop_stale_cache(cache_dir: str) -> None:
    """numba's disk cache only tracks the file that defines a function, not the modules it
    calls: after an edit of detect.py the cached engine would silently keep the old code.
    We stamp the cache with a digest of all kernel sources and clear it when they change."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for name in _KERNEL_MODULES:
        digest.update((here / f"{name}.py").read_bytes())
    stamp = Path(cache_dir) / "sim_physics_kernels.stamp"
    try:
        if stamp.exists() and stamp.read_text() == digest.hexdigest():
            return
        for name in _KERNEL_MODULES:
            for f in Path(cache_dir).glob(f"{name}.*.nb[ic]"):
                f.unlink(missing_ok=True)
        os.makedirs(cache_dir, exist_ok=True)
        stamp.write_text(digest.hexdigest())
    except OSError:  # read-only install: nothing to clear, nothing we can stamp
        pass


def _engine():
    global _engine_mod
    if _engine_mod is None:
        from . import engine

        try:
            _drop_stale_cache(engine.simulate_kernel._cache.cache_path)
        except AttributeError:  # numba internals moved: keep going without the guard
            pass
        _engine_mod = engine
    return _engine_mod


def _check_max_events(max_events: int) -> int:
    max_events = int(max_events)
    if max_events < 1:
        raise ValueError(f"max_events: must be >= 1, got {max_events}")
    return max_events


def _run_single(table: Table, physics: Physics, discs: Discs, record_paths: bool,
                max_events: int, log_impacts: bool):
    eng = _engine()
    walls, outs, obst, outc, pockets = table.packed
    (final, status, n_ev, truncated, ev_t, ev_k, ev_a, ev_b, ev_x, ev_y,
     npv, pv_d, pv_t, pv_x, pv_y, imp) = eng.simulate_kernel(
        walls, outs, obst, outc, pockets, physics.friction * physics.gravity,
        physics.restitution, physics.contact_friction, discs.pos, discs.vel, discs.radius,
        discs.mass, discs.status, _check_max_events(max_events), bool(record_paths),
        bool(log_impacts))
    events = np.empty(n_ev, dtype=EVENT_DTYPE)
    events["time"] = ev_t[:n_ev]
    events["kind"] = ev_k[:n_ev]
    events["a"] = ev_a[:n_ev]
    events["b"] = ev_b[:n_ev]
    events["x"] = ev_x[:n_ev]
    events["y"] = ev_y[:n_ev]
    paths = None
    if record_paths:
        d = pv_d[:npv]
        order = np.argsort(d, kind="stable")
        verts = np.column_stack([pv_t[:npv], pv_x[:npv], pv_y[:npv]])[order]
        counts = np.bincount(d, minlength=discs.n)
        paths = np.split(verts, np.cumsum(counts)[:-1])
    result = ShotResult(final_pos=final, status=status, events=events, paths=paths,
                        truncated=bool(truncated))
    return result, imp[:n_ev]


def simulate(table: Table, physics: Physics, discs: Discs, record_paths: bool = False,
             max_events: int = 10_000) -> ShotResult:
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
    return _run_single(table, physics, discs, record_paths, max_events, False)[0]


def simulate_batch(table: Table, physics: Physics, discs: Discs, mover: int,
                   start_positions: np.ndarray, velocities: np.ndarray,
                   max_events: int = 10_000) -> BatchResult:
    """K independent shots from the same state, in ONE compiled call.

    In shot k, disc `mover` starts at start_positions[k] (m) with velocities[k] (m/s); every
    other disc starts as in `discs` (at rest or moving). Predictions that do not involve the
    mover are computed once for the whole batch. Results are bit-identical to `simulate` on
    the same shot.
    """
    eng = _engine()
    mover = int(mover)
    if not 0 <= mover < discs.n:
        raise ValueError(f"mover: expected a disc id in [0, {discs.n}), got {mover}")
    starts = np.ascontiguousarray(np.asarray(start_positions, dtype=np.float64)).reshape(-1, 2)
    vels = np.ascontiguousarray(np.asarray(velocities, dtype=np.float64)).reshape(-1, 2)
    if starts.shape != vels.shape:
        raise ValueError(f"start_positions and velocities: expected the same (K, 2) shape, "
                         f"got {starts.shape} and {vels.shape}")
    if not (np.all(np.isfinite(starts)) and np.all(np.isfinite(vels))):
        raise ValueError("start_positions / velocities: values must be finite")
    walls, outs, obst, outc, pockets = table.packed
    final, status, first, n_ev, trunc = eng.batch_kernel(
        walls, outs, obst, outc, pockets, physics.friction * physics.gravity,
        physics.restitution, physics.contact_friction, discs.pos, discs.vel, discs.radius,
        discs.mass, discs.status, mover, starts, vels, _check_max_events(max_events))
    return BatchResult(final_pos=final, status=status, first_contact=first, n_events=n_ev,
                       truncated=trunc)
