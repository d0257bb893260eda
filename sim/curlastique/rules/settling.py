"""Where thrown pucks stop, in compiled code: the broad phase (:mod:`.flight`) settles the
throws that touch nothing, the physics engine's batch kernel the others.

:func:`engine_batch` calls :func:`sim.physics.engine.batch_kernel` from compiled code, so the
planner's throws, the engine and the scoring run in one call with no Python between them; it
reads the process's CPU clock around the engine (:func:`sim.physics.clock.cpu_seconds`) and
returns the seconds, which the Python caller counts (:func:`sim.physics.add_engine_seconds`).
:func:`landing` settles one real throw the same way.

These kernels carry the engine's machine code into Curlastique's numba cache, which importing the
game clears when any of its modules or a physics kernel module changed
(:func:`sim.physics.kernel_cache.clear_stale_package`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.physics import STATUS_ON, load_engine
from sim.physics.clock import cpu_seconds
from sim.physics.engine import batch_kernel

from .flight import one_flight

__all__ = ["MAX_EVENTS", "engine_batch", "landing"]

#: The engine's safety cap on events per throw (:func:`sim.physics.simulate_batch`'s default).
MAX_EVENTS = 10_000


@njit(cache=True, error_model="numpy")
def engine_batch(pos, parked, starts, vel, engine, radius, mass):
    """E throws from the board ``pos`` (M, 2) through the engine's batch kernel: the thrown puck
    (row M, parked at ``parked`` until it starts) from ``starts`` (E, 2) m at ``vel`` (E, 2) m/s.

    ``engine``: the table's packed arrays, μg, e and μ_c (:attr:`~.board.Arena.engine_args`);
    ``radius`` (m) and ``mass`` (kg) of every puck. Returns final positions (E, M+1, 2),
    statuses (E, M+1) and the CPU seconds the engine took (none without a throw)."""
    m = pos.shape[0]
    if starts.shape[0] == 0:
        return np.empty((0, m + 1, 2)), np.empty((0, m + 1), dtype=np.int8), 0.0
    discs = np.empty((m + 1, 2))
    for i in range(m):
        discs[i, 0], discs[i, 1] = pos[i, 0], pos[i, 1]
    discs[m, 0], discs[m, 1] = parked[0], parked[1]
    walls, outs, obst, outc, pockets, a, e, mu_c = engine
    started = cpu_seconds()
    final, status, _, _, _ = batch_kernel(
        walls,
        outs,
        obst,
        outc,
        pockets,
        a,
        e,
        mu_c,
        discs,
        np.zeros((m + 1, 2)),
        np.full(m + 1, radius),
        np.full(m + 1, mass),
        np.zeros(m + 1, dtype=np.int8),
        m,
        starts,
        vel,
        MAX_EVENTS,
    )
    return final, status, cpu_seconds() - started


@njit(cache=True, error_model="numpy")
def landing(pos, x, angle_deg, speed, flight, engine, mass):
    """One throw from the legal start ``x`` (m, finite) at ``angle_deg``, ``speed`` (m/s):
    where every puck stops (M+1, 2) m, the thrown one last, which are still in play (M+1,)
    and the engine's CPU seconds. ``flight``: :attr:`~.board.Arena.flight`."""
    launch_y, d, a, edges, circles, parked = flight
    clear, final, vx, vy = one_flight(pos, x, launch_y, angle_deg, speed, a, d / 2, edges, circles)
    on = np.ones(pos.shape[0] + 1, dtype=np.bool_)
    if clear:
        return final, on, 0.0
    starts, vel = np.empty((1, 2)), np.empty((1, 2))
    starts[0, 0], starts[0, 1], vel[0, 0], vel[0, 1] = x, launch_y, vx, vy
    final_all, status, seconds = engine_batch(pos, parked, starts, vel, engine, d / 2, mass)
    for i in range(on.shape[0]):
        on[i] = status[0, i] == STATUS_ON
    return final_all[0], on, seconds


load_engine()  # the engine's own cache first
