"""The compiled event loop (numba, nopython, cache=True; compiled lazily on first call).

One loop, pooltool-style: **next event → resolve it (evolving the bodies it involves to its
time) → re-predict only for the bodies it touched**. The loop only finds and dispatches
events: times of impact are in `sim.physics.detect`, what each event kind does in
`sim.physics.resolve` (one function per kind), the closed-form motion in
`sim.physics.motion` and the state matrix in `sim.physics.state`. No time steps: between
events every disc follows its closed-form Coulomb-friction motion from its own reference
(t0, position, speed, heading), so untouched discs are never updated and their predictions
stay valid.

Predictions are kept in a pair table (absolute contact time of every pair i < j) and one
static prediction per disc (earliest wall / out / pocket / obstacle contact). Removing a disc
(OUT, POCKET) just clears its entries; a LOST disc (an out element that bounces) keeps
taking part until the shot ends.

**Lower bounds first (lazy pair times).** Two moving discs more than `LAZY_GAP_M` apart get
only a lower bound of their contact time (gap / sum of speeds) in the pair table, marked as
such; the exact time (the costly quartic of `sim.physics.detect`) is computed only when the
bound becomes the earliest pending entry, from the states at the time of the bound, so it is
bit for bit the time an immediate prediction gives, and it is put back before any event
is executed. Most bounds are replaced first (in a break, the pack's compression wave
re-predicts every disc many times within microseconds): the events, their order and the
results are the same as with every time computed at once.

**Simultaneous events (deterministic tie-break).** The next event executed is the pending
one with the smallest (time, kind, a, b): at exactly equal times the lower kind comes first
(DISC 0 < WALL 1 < OUT 2 < POCKET 3 < OBSTACLE 4), then the lower disc id a, then the
lower b (other disc id, or wall / out / pocket / obstacle index; disc pairs have a < b).
After each event the touched discs are re-predicted from the event time, so a contact that
was simultaneous with the one just resolved is re-evaluated with the new velocities
(touching and still approaching → it fires at the same instant, after the one that caused
it; separating → it is dropped). The event list is therefore ordered by time, and by
(kind, a, b) among the events pending at the same instant. Near-simultaneous contacts in a
packed formation are separate events ordered by geometry when the formation leaves a gap
(`FORMATION_GAP_M` = 1 µm ≫ TOUCH_TOL_M) between nominally touching discs; only exact
(e.g. mirror-symmetric) ties fall back on the priority.

Numeric safeguards: touching = gap ≤ TOUCH_TOL_M (1e-9 m); speeds < REST_SPEED after an
impact are zeroed; after a disc–disc impact the pair is set KISS_GAP_M = 2e-9 m apart
(each disc moves ≤ 1e-9 m; see `sim.physics.resolve`); a disc left inside a wall or post by
round-off is pushed out along the normal;
`max_events` caps runaway shots (flagged as truncated; the discs are then frozen where they
were at the last event executed, a valid overlap-free state). Runaway shots are in practice
packed clusters at very low restitution (e ≲ 0.3): pressed-together discs become long trains
of micro-impacts (inelastic collapse), which an event-driven model can only enumerate.

Reference counting: the loop's helpers (here and in `detect`, `resolve`, `state`, `motion`)
allocate nothing and return no array, so they are compiled without numba's runtime
(`_nrt=False`): the arrays they receive stay owned by the entry point, and no reference counts
are taken at each call (with them, those atomic increments and decrements were about a third
of the engine's time). Only the entry points allocate and use the runtime; a helper that
allocates must not be marked. So the loop (`_run`) records into buffers it is given: when one
runs out of rows it stops, and `simulate_kernel` runs the same shot again with twice the room
(the loop is deterministic: same records).

Impact log (debug, `sim.physics.trace`): one row of 12 numbers per event: vx, vy, ω of disc
a then of disc b before the event, the same after it (b's columns are 0 unless DISC).
"""

import math

import numpy as np
from numba import njit

from .constants import DISC, OBSTACLE, OUT, TOUCH_TOL_M, WALL
from .detect import pair_toi, static_hit
from .resolve import (  # noqa: F401  (KISS_GAP_M: documented here, defined with the kiss)
    KISS_GAP_M,
    resolve_discs,
    resolve_obstacle,
    resolve_out,
    resolve_pocket,
    resolve_wall,
)
from .state import (
    BX0,
    BX1,
    BY0,
    BY1,
    MASS,
    NCOL,
    RAD,
    SP,
    T0,
    UX,
    UY,
    W,
    X,
    Y,
    at,
    in_play,
    set_motion,
)

INF = np.inf
#: Gap (m) beyond which the contact time of two moving discs is first only bounded from below
#: (`_toi_or_bound`); nearer pairs (neighbours in a pack) are almost always needed at once.
#: Only a speed trade-off: the events are the same for any value.
LAZY_GAP_M = 0.01
# The loop's small helpers (next event, records, settling) are inlined into it
# (inline="always"): as separate compiled functions each would cost its own optimisation
# and linking pass, seconds of first-call compilation for a few lines of code.
#: Numbers in an impact-log row (see the module docstring).
IMPACT_WIDTH = 12


@njit(cache=True, error_model="numpy", _nrt=False)
def _far(S, i, k, tol):
    """True if the reference paths of discs i and k (bounding boxes, grown by the radii)
    cannot meet: what is left of each path is a part of its reference path."""
    m = S[i, RAD] + S[k, RAD] + tol
    return (
        S[k, BX0] - m > S[i, BX1] or S[i, BX0] - m > S[k, BX1] or S[k, BY0] - m > S[i, BY1] or S[i, BY0] - m > S[k, BY1]
    )


@njit(cache=True, error_model="numpy", _nrt=False)
def _toi(S, i, k, xi, yi, si, xk, yk, sk, t, a, tol):
    """Absolute time of the next contact of discs i < k at the given states (time t)."""
    if si <= 0.0 and sk <= 0.0:
        return INF
    # arguments always in id order: a pair's prediction never depends on which of the two
    # discs was touched last (bit-identical single-shot and batch runs)
    return t + pair_toi(xi, yi, si, S[i, UX], S[i, UY], xk, yk, sk, S[k, UX], S[k, UY], S[i, RAD] + S[k, RAD], a, tol)


@njit(cache=True, error_model="numpy", _nrt=False)
def _toi_or_bound(S, i, k, xi, yi, si, xk, yk, sk, t, a, tol):
    """(time, lazy) for discs i < k at the given states (time t): the absolute time of their
    next contact (lazy False), or, when both move and their gap less 2·tol is more than
    `LAZY_GAP_M`, only a lower bound of it (lazy True), t + gap / (si + sk): neither centre
    moves faster than its speed now and a contact needs a gap ≤ tol (the second tol is a
    margin far above the round-off of the exact time). `_run` computes the exact time
    (`_resolve_bound`) only if the bound becomes the earliest pending entry before either
    disc's motion changes."""
    if si <= 0.0 or sk <= 0.0:  # at most one moving: the exact time is as cheap as a bound
        return _toi(S, i, k, xi, yi, si, xk, yk, sk, t, a, tol), False
    dx = xi - xk
    dy = yi - yk
    gap = math.sqrt(dx * dx + dy * dy) - (S[i, RAD] + S[k, RAD]) - 2.0 * tol
    if gap > LAZY_GAP_M:
        return t + gap / (si + sk), True
    return _toi(S, i, k, xi, yi, si, xk, yk, sk, t, a, tol), False


@njit(cache=True, error_model="numpy", _nrt=False)
def _pair(S, i, k, t, a, tol):
    """Absolute time of the next contact of discs i < k (both in play), from time t."""
    if _far(S, i, k, tol):
        return INF
    xi, yi, si = at(S, i, t, a)
    xk, yk, sk = at(S, k, t, a)
    return _toi(S, i, k, xi, yi, si, xk, yk, sk, t, a, tol)


@njit(cache=True, error_model="numpy", _nrt=False)
def _rescan_row(pt, rm_t, rm_j, i, n):
    """Row minimum of the pair table: earliest pair (i, j > i), lowest j on ties."""
    bt = INF
    bj = -1
    base = i * n
    for j in range(i + 1, n):
        if pt[base + j] < bt:
            bt = pt[base + j]
            bj = j
    rm_t[i] = bt
    rm_j[i] = bj


@njit(cache=True, error_model="numpy", _nrt=False)
def _set_pair(pt, rm_t, rm_j, i, j, n, value):
    """Store the prediction of pair i < j and keep row i's minimum up to date."""
    pt[i * n + j] = value
    if value < rm_t[i] or (value == rm_t[i] and j < rm_j[i]):
        rm_t[i] = value
        rm_j[i] = j
    elif rm_j[i] == j:  # the row's earliest entry moved later: look again
        _rescan_row(pt, rm_t, rm_j, i, n)


@njit(cache=True, error_model="numpy", _nrt=False)
def _predict_row(S, status, pt, rm_t, rm_j, pe, pl, gen, i, skip, t, n, a, tol):
    """Re-predict every pair (i, k), k != skip, from time t (exact times or lower bounds:
    `_toi_or_bound`; a bound's pair is marked pl = gen with its prediction time in pe)."""
    on = in_play(status, i)
    xi, yi, si = at(S, i, t, a)
    for k in range(i):
        if k == skip:
            continue
        value = INF
        lazy = False
        if on and in_play(status, k) and not _far(S, k, i, tol):
            xk, yk, sk = at(S, k, t, a)
            value, lazy = _toi_or_bound(S, k, i, xk, yk, sk, xi, yi, si, t, a, tol)
        idx = k * n + i
        if lazy:
            pl[idx] = gen
            pe[idx] = t
        elif pl[idx] == gen:
            pl[idx] = 0
        _set_pair(pt, rm_t, rm_j, k, i, n, value)
    base = i * n
    for k in range(i + 1, n):
        if k == skip:
            continue
        value = INF
        lazy = False
        if on and in_play(status, k) and not _far(S, i, k, tol):
            xk, yk, sk = at(S, k, t, a)
            value, lazy = _toi_or_bound(S, i, k, xi, yi, si, xk, yk, sk, t, a, tol)
        pt[base + k] = value
        if lazy:
            pl[base + k] = gen
            pe[base + k] = t
        elif pl[base + k] == gen:
            pl[base + k] = 0
    _rescan_row(pt, rm_t, rm_j, i, n)


@njit(cache=True, error_model="numpy", _nrt=False)
def _resolve_bound(S, pt, rm_t, rm_j, pe, pl, i, k, n, a, tol):
    """Replace the lower bound of pair i < k by its exact contact time, computed from the
    states at the bound's prediction time (neither disc has changed its motion since, so the
    time is the one an immediate prediction would have given, bit for bit)."""
    idx = i * n + k
    t0 = pe[idx]
    xi, yi, si = at(S, i, t0, a)
    xk, yk, sk = at(S, k, t0, a)
    pl[idx] = 0
    _set_pair(pt, rm_t, rm_j, i, k, n, _toi(S, i, k, xi, yi, si, xk, yk, sk, t0, a, tol))


@njit(cache=True, error_model="numpy", _nrt=False)
def _predict_static(S, status, i, t, a, tol, walls, outs, obst, outc, pockets, st_t, st_k, st_i):
    """Re-predict disc i's next wall / out / pocket / obstacle contact from time t."""
    if not in_play(status, i) or S[i, SP] <= 0.0:
        st_t[i] = INF
        st_k[i] = -1
        st_i[i] = -1
        return
    x, y, sp = at(S, i, t, a)
    tau, kind, idx = static_hit(x, y, sp, S[i, UX], S[i, UY], S[i, RAD], a, walls, outs, obst, outc, pockets, tol)
    st_t[i] = t + tau
    st_k[i] = kind
    st_i[i] = idx


@njit(cache=True, error_model="numpy", _nrt=False)
def _init_state(S, status, pos, vel, rad, mass, status_in, a):
    for i in range(pos.shape[0]):
        status[i] = status_in[i]
        S[i, W] = 0.0
        S[i, RAD] = rad[i]
        S[i, MASS] = mass[i]
        if in_play(status, i):
            set_motion(S, i, 0.0, pos[i, 0], pos[i, 1], vel[i, 0], vel[i, 1], a)
        else:
            set_motion(S, i, 0.0, pos[i, 0], pos[i, 1], 0.0, 0.0, a)


@njit(cache=True, error_model="numpy", _nrt=False)
def _init_predictions(S, status, n, skip, a, tol, walls, outs, obst, outc, pockets, pt, rm_t, rm_j, st_t, st_k, st_i):
    """All predictions at t = 0, except those involving disc `skip` (-1: none skipped)."""
    for i in range(n * n):
        pt[i] = INF
    for i in range(n):
        if i == skip:
            continue
        for k in range(i + 1, n):
            if k != skip and in_play(status, i) and in_play(status, k):
                pt[i * n + k] = _pair(S, i, k, 0.0, a, tol)
        _predict_static(S, status, i, 0.0, a, tol, walls, outs, obst, outc, pockets, st_t, st_k, st_i)
    for i in range(n):
        _rescan_row(pt, rm_t, rm_j, i, n)


@njit(cache=True, error_model="numpy", inline="always")
def _next_event(n, rm_t, rm_j, st_t, st_k, st_i):
    """The pending event with the smallest (time, kind, a, b): (t, kind, a, b); t = inf if
    none. Pair rows hold each row's earliest pair (lowest j on ties)."""
    bt = INF
    bk = 127
    ba = -1
    bb = -1
    for i in range(n - 1):
        if rm_t[i] < bt:
            bt = rm_t[i]
            ba = i
            bb = rm_j[i]
    if bt < INF:
        bk = DISC
    for i in range(n):
        tt = st_t[i]
        if tt < bt or (tt == bt and tt < INF and st_k[i] < bk):
            bt = tt
            bk = st_k[i]
            ba = i
            bb = st_i[i]
    return bt, bk, ba, bb


@njit(cache=True, error_model="numpy", inline="always")
def _log_velocities(imp, row, col, S, i, t, a):
    """Impact log: velocity and spin of disc i at time t into imp[row, col:col + 3]."""
    _, _, sp = at(S, i, t, a)
    imp[row, col] = sp * S[i, UX]
    imp[row, col + 1] = sp * S[i, UY]
    imp[row, col + 2] = S[i, W]


@njit(cache=True, error_model="numpy", inline="always")
def _add_vertex(pv, npv, i, t, S):
    """Path record: disc i's reference point at time t as row npv of pv; the next row."""
    pv[npv, 0] = i
    pv[npv, 1] = t
    pv[npv, 2] = S[i, X]
    pv[npv, 3] = S[i, Y]
    return npv + 1


@njit(cache=True, error_model="numpy", inline="always")
def _add_event(ev, row, t, kind, ia, ib, S):
    """Event record: (t, kind, a, b, x, y of disc a after the event) as row `row` of ev."""
    ev[row, 0] = t
    ev[row, 1] = kind
    ev[row, 2] = ia
    ev[row, 3] = ib
    ev[row, 4] = S[ia, X]
    ev[row, 5] = S[ia, Y]


@njit(cache=True, error_model="numpy", inline="always")
def _settle(S, status, n, t, a, truncated, rec_paths, pv, npv):
    """End of the shot: every disc in play slides to its rest point (or, if the event cap cut
    the shot short, is frozen where it was at time t: a valid, overlap-free state)."""
    for i in range(n):
        if in_play(status, i) and S[i, SP] > 0.0:
            if truncated:
                tstop = t
                x, y, _ = at(S, i, t, a)
            else:
                tstop = S[i, T0] + S[i, SP] / a
                d = S[i, SP] * S[i, SP] / (2.0 * a)
                x = S[i, X] + S[i, UX] * d
                y = S[i, Y] + S[i, UY] * d
            set_motion(S, i, tstop, x, y, 0.0, 0.0, a)
            if rec_paths:
                npv = _add_vertex(pv, npv, i, tstop, S)
    return npv


@njit(cache=True, error_model="numpy", _nrt=False)
def _run(
    S,
    status,
    n,
    a,
    e,
    mu_c,
    tol,
    walls,
    outs,
    obst,
    outc,
    pockets,
    pt,
    rm_t,
    rm_j,
    pe,
    pl,
    gen,
    st_t,
    st_k,
    st_i,
    mover,
    max_events,
    rec_events,
    ev,
    rec_paths,
    pv,
    log_imp,
    imp,
):
    """The event loop. Predictions must be initialised. Records (when asked) go to the given
    buffers: ev rows (t, kind, a, b, x, y), pv rows (disc, t, x, y), imp rows (impact log).
    Returns (n_events, n_path_vertices, first disc touched by `mover` or -1, truncated, full):
    `full` means a record buffer ran out of rows and the records are incomplete; the caller
    runs the shot again with larger buffers (the loop allocates nothing, so it runs without
    numba's runtime: see the module docstring)."""
    n_ev = 0
    npv = 0
    first = -1
    truncated = False
    t = 0.0
    if rec_paths:
        if pv.shape[0] < n:
            return n_ev, npv, first, truncated, True
        for i in range(n):
            npv = _add_vertex(pv, npv, i, 0.0, S)
    while True:
        bt, bk, ba, bb = _next_event(n, rm_t, rm_j, st_t, st_k, st_i)
        if bk == DISC and pl[ba * n + bb] == gen:  # a lower bound first: its exact time
            _resolve_bound(S, pt, rm_t, rm_j, pe, pl, ba, bb, n, a, tol)
            continue
        if bt == INF:
            break
        if n_ev >= max_events:
            truncated = True
            break
        if (
            (rec_events and n_ev >= ev.shape[0])
            or (log_imp and n_ev >= imp.shape[0])
            or (rec_paths and npv + 2 > pv.shape[0])
        ):
            return n_ev, npv, first, truncated, True
        t = bt
        if log_imp:
            for c in range(IMPACT_WIDTH):
                imp[n_ev, c] = 0.0
            _log_velocities(imp, n_ev, 0, S, ba, t, a)
            if bk == DISC:
                _log_velocities(imp, n_ev, 3, S, bb, t, a)
        # ---- resolve: one function per kind (sim.physics.resolve)
        if bk == DISC:
            resolve_discs(S, ba, bb, t, a, e, mu_c)
            if first < 0 and (ba == mover or bb == mover):
                first = bb if ba == mover else ba
        elif bk == WALL:
            resolve_wall(S, ba, t, a, walls, bb)
        elif bk == OBSTACLE:
            resolve_obstacle(S, ba, t, a, obst, bb)
        elif bk == OUT:
            resolve_out(S, status, ba, t, a, outs, outc, bb)
        else:
            resolve_pocket(S, status, ba, t, a)
        # ---- re-predict only what the event touched (the calls stay in this function: a
        # numba helper would re-optimise the whole detect tree once more at compile time)
        _predict_row(S, status, pt, rm_t, rm_j, pe, pl, gen, ba, -1, t, n, a, tol)
        if bk == DISC:
            _predict_row(S, status, pt, rm_t, rm_j, pe, pl, gen, bb, ba, t, n, a, tol)
        _predict_static(S, status, ba, t, a, tol, walls, outs, obst, outc, pockets, st_t, st_k, st_i)
        if bk == DISC:
            _predict_static(S, status, bb, t, a, tol, walls, outs, obst, outc, pockets, st_t, st_k, st_i)
        if log_imp:
            _log_velocities(imp, n_ev, 6, S, ba, t, a)
            if bk == DISC:
                _log_velocities(imp, n_ev, 9, S, bb, t, a)
        if rec_events:
            _add_event(ev, n_ev, t, bk, ba, bb, S)
        if rec_paths:
            npv = _add_vertex(pv, npv, ba, t, S)
            if bk == DISC:
                npv = _add_vertex(pv, npv, bb, t, S)
        n_ev += 1
    if rec_paths and npv + n > pv.shape[0]:
        return n_ev, npv, first, truncated, True
    npv = _settle(S, status, n, t, a, truncated, rec_paths, pv, npv)
    return n_ev, npv, first, truncated, False


@njit(cache=True, error_model="numpy")
def simulate_kernel(
    walls, outs, obst, outc, pockets, a, e, mu_c, pos, vel, rad, mass, status_in, max_events, record_paths, log_impacts
):
    """One shot. Returns (final_pos (n, 2), status (n,), n_events, truncated, ev (k, 6),
    n_path_vertices, pv (m, 4), impacts (k, 12)); see `_run` for the buffer rows (only the
    first n_events / n_path_vertices rows are meaningful)."""
    n = pos.shape[0]
    tol = TOUCH_TOL_M
    S = np.empty((n, NCOL))
    status = np.empty(n, dtype=np.int8)
    pt = np.empty(n * n)
    rm_t = np.empty(n)
    rm_j = np.empty(n, dtype=np.int64)
    st_t = np.empty(n)
    st_k = np.empty(n, dtype=np.int64)
    st_i = np.empty(n, dtype=np.int64)
    pe = np.empty(n * n)
    pl = np.zeros(n * n, dtype=np.int64)
    gen = 0
    cap = min(max_events, 64 + 8 * n)  # events the record buffers hold
    while True:
        gen += 1  # a new run: earlier marks of lower bounds no longer count
        ev = np.empty((cap, 6))
        pv = np.empty((2 * n + 2 * cap if record_paths else 0, 4))
        imp = np.empty((cap if log_impacts else 0, IMPACT_WIDTH))
        _init_state(S, status, pos, vel, rad, mass, status_in, a)
        _init_predictions(S, status, n, -1, a, tol, walls, outs, obst, outc, pockets, pt, rm_t, rm_j, st_t, st_k, st_i)
        n_ev, npv, first, truncated, full = _run(
            S,
            status,
            n,
            a,
            e,
            mu_c,
            tol,
            walls,
            outs,
            obst,
            outc,
            pockets,
            pt,
            rm_t,
            rm_j,
            pe,
            pl,
            gen,
            st_t,
            st_k,
            st_i,
            -1,
            max_events,
            True,
            ev,
            record_paths,
            pv,
            log_impacts,
            imp,
        )
        if not full:  # else the same shot again with room for twice the events (at most
            break  # max_events, which always fits)
        cap = min(2 * cap, max_events)
    final = np.empty((n, 2))
    for i in range(n):
        final[i, 0] = S[i, X]
        final[i, 1] = S[i, Y]
    return final, status, n_ev, truncated, ev, npv, pv, imp


@njit(cache=True, error_model="numpy")
def batch_kernel(
    walls, outs, obst, outc, pockets, a, e, mu_c, pos, vel, rad, mass, status_in, mover, starts, vels, max_events
):
    """K shots from one state; disc `mover` starts at starts[k] with vels[k]. Predictions
    not involving the mover are computed once and copied into every shot.
    Returns (final (K, N, 2), status (K, N), first_contact (K,), n_events (K,),
    truncated (K,))."""
    n = pos.shape[0]
    nk = starts.shape[0]
    tol = TOUCH_TOL_M
    S = np.empty((n, NCOL))
    S0 = np.empty((n, NCOL))
    status = np.empty(n, dtype=np.int8)
    status0 = np.empty(n, dtype=np.int8)
    pt = np.empty(n * n)
    rm_t = np.empty(n)
    rm_j = np.empty(n, dtype=np.int64)
    st_t = np.empty(n)
    st_k = np.empty(n, dtype=np.int64)
    st_i = np.empty(n, dtype=np.int64)
    pe = np.empty(n * n)
    pl = np.zeros(n * n, dtype=np.int64)  # shot k marks its lower bounds k + 1
    # base state and predictions, shared by all shots (exact)
    b_pt = np.empty(n * n)
    b_rm_t = np.empty(n)
    b_rm_j = np.empty(n, dtype=np.int64)
    b_st_t = np.empty(n)
    b_st_k = np.empty(n, dtype=np.int64)
    b_st_i = np.empty(n, dtype=np.int64)
    _init_state(S0, status0, pos, vel, rad, mass, status_in, a)
    _init_predictions(
        S0, status0, n, mover, a, tol, walls, outs, obst, outc, pockets, b_pt, b_rm_t, b_rm_j, b_st_t, b_st_k, b_st_i
    )
    no_ev = np.empty((0, 6))
    no_pv = np.empty((0, 4))
    no_imp = np.empty((0, IMPACT_WIDTH))
    final = np.empty((nk, n, 2))
    status_out = np.empty((nk, n), dtype=np.int8)
    first_out = np.empty(nk, dtype=np.int64)
    nev_out = np.empty(nk, dtype=np.int64)
    trunc_out = np.empty(nk, dtype=np.bool_)
    for k in range(nk):
        # back to the base state, one simple loop per array (an array-to-array slice
        # assignment compiles numba's shape-error formatting: seconds at the first call)
        for i in range(n):
            for c in range(NCOL):
                S[i, c] = S0[i, c]
        for i in range(n):
            status[i] = status0[i]
        for i in range(n * n):
            pt[i] = b_pt[i]
        for i in range(n):
            rm_t[i] = b_rm_t[i]
        for i in range(n):
            rm_j[i] = b_rm_j[i]
        for i in range(n):
            st_t[i] = b_st_t[i]
        for i in range(n):
            st_k[i] = b_st_k[i]
        for i in range(n):
            st_i[i] = b_st_i[i]
        if in_play(status, mover):
            set_motion(S, mover, 0.0, starts[k, 0], starts[k, 1], vels[k, 0], vels[k, 1], a)
        else:
            set_motion(S, mover, 0.0, starts[k, 0], starts[k, 1], 0.0, 0.0, a)
        _predict_row(S, status, pt, rm_t, rm_j, pe, pl, k + 1, mover, -1, 0.0, n, a, tol)
        _predict_static(S, status, mover, 0.0, a, tol, walls, outs, obst, outc, pockets, st_t, st_k, st_i)
        n_ev, npv, first, truncated, _ = _run(
            S,
            status,
            n,
            a,
            e,
            mu_c,
            tol,
            walls,
            outs,
            obst,
            outc,
            pockets,
            pt,
            rm_t,
            rm_j,
            pe,
            pl,
            k + 1,
            st_t,
            st_k,
            st_i,
            mover,
            max_events,
            False,
            no_ev,
            False,
            no_pv,
            False,
            no_imp,
        )
        for i in range(n):
            final[k, i, 0] = S[i, X]
            final[k, i, 1] = S[i, Y]
            status_out[k, i] = status[i]
        first_out[k] = first
        nev_out[k] = n_ev
        trunc_out[k] = truncated
    return final, status_out, first_out, nev_out, trunc_out
