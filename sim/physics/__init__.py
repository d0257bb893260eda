"""Disc physics for tabletop games: event-driven, exact contacts, compiled hot loop.

Discs slide on a board under Coulomb friction (constant deceleration μg, stopping at
v²/(2μg)), collide with each other (restitution e, optional contact friction), bounce off
walls (cushions) and round obstacles, leave play on "out" boundaries (at once, or bouncing on as LOST discs: `Table.out_mode`)
and fall into pockets.
The engine is event-driven: times of impact are solved exactly from the closed-form motion,
so nothing tunnels or is missed at any speed. Layout (pooltool-style verbs):

    table.py    Table, Physics, Discs       inputs, validated at construction
    motion.py   evolve                      closed-form Coulomb motion
    state.py    the per-disc state matrix   reference of each disc's motion
    detect.py   times of impact             quadratic / robust quartic earliest root
    resolve.py  one function per event kind disc–disc (e, μ_c), wall, obstacle, out, pocket
    engine.py   the compiled event loop     next event, dispatch, re-predict; batch kernel
    api.py      simulate, simulate_batch,   lazy compilation, result assembly;
                PreparedBatch, trace        trace: paths and impact log (debugging, tests)
    result.py   ShotResult, BatchResult, Trace, EVENT_DTYPE
    shot.py     ExecutionNoise, executed (the noise model), execute_shots, heading
    noise.py    compiled_executed: the noise model compiled, for the planners' kernels
    scenes.py   reference scenes (Carrom break, Curlastique throw) for tests and benchmarks
    clock.py    cpu_seconds: the process CPU clock for compiled code (a game's kernel that
                calls the engine counts its time)
    kernel_cache.py  numba's disk cache kept in step with the kernel sources

Importing this package does not import numba or compile anything: the engine is compiled on
the first simulation and cached on disk.

>>> from sim.physics import Discs, Physics, Table, simulate, DISC
>>> d = Discs(pos=[[0.0, 0.0], [0.0, 0.2]], vel=[[0.0, 2.0], [0.0, 0.0]], radius=0.0159,
...           mass=0.0055)
>>> r = simulate(Table(), Physics(friction=0.1, restitution=1.0), d)
>>> r.first_contact(0), int(r.events[0]["kind"]) == DISC
(1, True)
"""

from .api import PreparedBatch, add_engine_seconds, engine_seconds, load_engine, simulate, simulate_batch, trace
from .constants import (
    DISC,
    EVENT_NAMES,
    FORMATION_GAP_M,
    GRAVITY,
    OBSTACLE,
    OUT,
    POCKET,
    STATUS_LOST,
    STATUS_ON,
    STATUS_OUT,
    STATUS_POCKETED,
    TOUCH_TOL_M,
    WALL,
)
from .result import EVENT_DTYPE, IMPACT_COLUMNS, BatchResult, ShotResult, Trace
from .shot import ExecutionNoise, execute_shots, executed, heading
from .table import Discs, Physics, Table

__all__ = [
    "DISC",
    "WALL",
    "OUT",
    "POCKET",
    "OBSTACLE",
    "EVENT_NAMES",
    "STATUS_ON",
    "STATUS_OUT",
    "STATUS_POCKETED",
    "STATUS_LOST",
    "FORMATION_GAP_M",
    "TOUCH_TOL_M",
    "GRAVITY",
    "Table",
    "Physics",
    "Discs",
    "ShotResult",
    "BatchResult",
    "Trace",
    "EVENT_DTYPE",
    "IMPACT_COLUMNS",
    "simulate",
    "simulate_batch",
    "PreparedBatch",
    "trace",
    "engine_seconds",
    "add_engine_seconds",
    "load_engine",
    "ExecutionNoise",
    "execute_shots",
    "executed",
    "heading",
]
