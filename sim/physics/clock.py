"""The process's CPU clock for compiled code: :func:`cpu_seconds`, so a game's kernel that
calls the engine's kernels itself can count the time they take (:func:`sim.physics.add_engine_seconds`).

It reads ``clock_gettime(CLOCK_PROCESS_CPUTIME_ID)``, the clock of :func:`time.process_time`
on Linux and macOS; elsewhere it returns 0 (the engine's share is then not counted).
"""

import sys

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

#: CLOCK_PROCESS_CPUTIME_ID of the platform's <time.h> (-1: no such clock).
_CLOCK_ID = {"linux": 2, "darwin": 12}.get(sys.platform, -1)


@intrinsic
def _process_seconds(typingctx):
    """clock_gettime(CLOCK_PROCESS_CPUTIME_ID) as float seconds (inline machine code)."""

    def codegen(context, builder, signature, args):
        dbl, i64 = ir.DoubleType(), ir.IntType(64)
        if _CLOCK_ID < 0:
            return ir.Constant(dbl, 0.0)
        timespec = ir.LiteralStructType([i64, i64])
        ts = cgutils.alloca_once(builder, timespec)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()]), "clock_gettime"
        )
        builder.call(fn, [ir.Constant(ir.IntType(32), _CLOCK_ID), ts])
        sec = builder.sitofp(builder.load(cgutils.gep_inbounds(builder, ts, 0, 0)), dbl)
        nsec = builder.sitofp(builder.load(cgutils.gep_inbounds(builder, ts, 0, 1)), dbl)
        return builder.fadd(sec, builder.fmul(nsec, ir.Constant(dbl, 1e-9)))

    return types.float64(), codegen


@njit(cache=True, error_model="numpy", _nrt=False)
def cpu_seconds():
    """CPU seconds used by this process so far (0 where the platform has no such clock)."""
    return _process_seconds()
