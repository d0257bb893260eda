"""The execution-noise model compiled (numba), for the planners' kernels that simulate many
noisy executions at once. Kept apart from :mod:`.shot` so that importing the engine's Python
side loads no compiler: only a kernel that needs it imports this module."""

from __future__ import annotations

from numba import njit

from .shot import executed

__all__ = ["compiled_executed"]

#: :func:`sim.physics.shot.executed`, compiled: the same arithmetic, so a planner's simulated
#: executions and the executions of play draw alike from the same standard normals.
compiled_executed = njit(cache=True)(executed)
