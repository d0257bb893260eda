"""A decision's simulations in one compiled call: noisy executions of the candidates
(:func:`~sim.carrom.players.aim.noisy_strikes`), the physics engine's batch kernel on the compact
board (:func:`sim.physics.engine.batch_kernel`), then the value of every outcome
(:func:`~sim.carrom.players.value.outcome_values`), with no Python between them.

The engine's CPU seconds are read around the batch kernel (:func:`sim.physics.clock.cpu_seconds`)
and returned, for the Python caller to count (:func:`sim.physics.add_engine_seconds`).

These kernels carry the engine's machine code into Carrom's numba cache, which importing the
game clears when any of its modules or a physics kernel module changed
(:func:`sim.physics.kernel_cache.clear_stale_package`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.physics import load_engine
from sim.physics.clock import cpu_seconds
from sim.physics.engine import batch_kernel

from .aim import noisy_strikes, striker_grid
from .value import outcome_values

__all__ = ["MAX_EVENTS", "simulate_values"]

#: The engine's safety cap on events per stroke (:func:`sim.physics.simulate_batch`'s default).
MAX_EVENTS = 10_000


@njit(cache=True)
def simulate_values(
    x,
    angle,
    speed,
    z,
    sigma,
    vmax,
    sy,
    spans,
    rot,
    engine,
    pos,
    on,
    radii,
    masses,
    own,
    opp,
    coin_value,
    next_targets,
    next_rot,
    sit,
    w,
    pockets,
    grid_step,
    legal,
    prm,
):
    """(C·S,) values of noisy executions of C intended strokes, candidate-major, and the
    engine's CPU seconds.

    The simulation is compact: the coins on the board (``on``, in increasing id), then the
    striker (row M).

    Args:
        x, angle, speed, z, sigma, vmax, sy, spans, rot: as :func:`~sim.carrom.players.aim.noisy_strikes`.
        engine: the table's packed arrays, μg (m/s²), e and μ_c (:attr:`~sim.carrom.rules.board.Geometry.engine_args`).
        pos: (19, 2) board positions of the coins; on: (19,) bool, on the board.
        radii, masses: (20,) of the coins then the striker (m, kg).
        own, opp, coin_value, next_targets: (19,) the view's arrays.
        next_rot .. prm: as :func:`~sim.carrom.players.value.outcome_values`, its striker positions
            every ``grid_step`` (m) of ``spans`` (:func:`~sim.carrom.players.aim.striker_grid`).
    """
    m = 0
    for i in range(on.shape[0]):
        if on[i]:
            m += 1
    ids = np.empty(m, np.int64)
    discs = np.empty((m + 1, 2))
    radius = np.empty(m + 1)
    mass = np.empty(m + 1)
    k = 0
    for i in range(on.shape[0]):
        if on[i]:
            ids[k] = i
            discs[k, 0] = pos[i, 0]
            discs[k, 1] = pos[i, 1]
            radius[k] = radii[i]
            mass[k] = masses[i]
            k += 1
    x0 = spans[0, 0]  # any legal spot: the batch moves the striker
    discs[m, 0] = x0 * rot[0, 0] + sy * rot[0, 1]
    discs[m, 1] = x0 * rot[1, 0] + sy * rot[1, 1]
    radius[m] = radii[radii.shape[0] - 1]
    mass[m] = masses[masses.shape[0] - 1]
    starts, vels = noisy_strikes(x, angle, speed, z, sigma, vmax, sy, spans, rot)
    walls, outs, obst, outc, table_pockets, a, e, mu_c = engine
    started = cpu_seconds()
    final, status, _, _, _ = batch_kernel(
        walls,
        outs,
        obst,
        outc,
        table_pockets,
        a,
        e,
        mu_c,
        discs,
        np.zeros((m + 1, 2)),
        radius,
        mass,
        np.zeros(m + 1, dtype=np.int8),
        m,
        starts,
        vels,
        MAX_EVENTS,
    )
    seconds = cpu_seconds() - started
    values = outcome_values(
        status,
        final,
        discs[:m],
        ids,
        own[ids],
        opp[ids],
        coin_value[ids],
        next_targets[ids],
        rot,
        next_rot,
        sit,
        w,
        pockets,
        striker_grid(spans, grid_step),
        legal,
        prm,
    )
    return values, seconds


load_engine()  # the engine's own cache first
