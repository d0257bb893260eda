"""The compiled event loop (numba, nopython, cache=True; compiled lazily on first call).

One loop, pooltool-style: **next event → evolve the bodies it involves to its time →
resolve it → re-predict only for the bodies it touched** (`sim.physics.detect`,
`sim.physics.motion`, `sim.physics.resolve`). No time steps: between events every disc
follows its closed-form Coulomb-friction motion from its own reference (t0, position,
speed, heading), so untouched discs are never updated and their predictions stay valid.

Predictions are kept in a pair table (absolute contact time of every pair i < j) and one
static prediction per disc (earliest wall / out / pocket / obstacle contact). Removing a disc
(OUT, POCKET) just clears its entries.

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
(each disc moves ≤ 1e-9 m; see below); a disc left inside a wall or post by round-off is
pushed out along the normal;
`max_events` caps runaway shots (flagged as truncated; the discs are then frozen where they
were at the last event executed, a valid overlap-free state). Runaway shots are in practice
packed clusters at very low restitution (e ≲ 0.3): pressed-together discs become long trains
of micro-impacts (inelastic collapse), which an event-driven model can only enumerate.
"""

import math

import numpy as np
from numba import njit

from .constants import (
    DISC, OBSTACLE, OUT, REST_SPEED, STATUS_ON, STATUS_OUT, STATUS_POCKETED,
    TOUCH_TOL_M, WALL,
)
from .detect import pair_toi, static_hit
from .motion import state_at
from .resolve import bounce, disc_disc, segment_normal, separate_discs

INF = np.inf
#: Gap (m) set between two discs right after their impact. Two sliding discs whose friction
#: decelerations point different ways can be pressed together with zero approach speed (a
#: "pushing" contact, which straight-line Coulomb motion cannot represent); an impulse at zero
#: approach speed is zero and the same contact would be found again at the same instant
#: forever. Separating the pair by 2e-9 m (energy-neutral: positions only) makes every new
#: contact a genuine crossing with a positive approach speed, so a pushing contact becomes a
#: short train of small dissipative impacts. Each disc moves by at most 1e-9 m
#: (= TOUCH_TOL_M), so this never leaves an overlap beyond the contact tolerance.
KISS_GAP_M = 2.0 * TOUCH_TOL_M


# Columns of the per-disc state matrix S (n, NCOL): the reference of the disc's current
# closed-form motion (time, position, speed, unit heading), spin, radius, mass, and the
# bounding box of the whole reference path (used to skip pairs that cannot meet).
T0, X, Y, SP, UX, UY, W, RAD, MASS, BX0, BX1, BY0, BY1 = range(13)
NCOL = 13


@njit(cache=True, error_model="numpy")
def _grow(buf, need):
    """buf if it has more than `need` rows, else a copy with (at least) twice the rows."""
    if need < buf.shape[0]:
        return buf
    new = np.empty((max(2 * buf.shape[0], need + 1), buf.shape[1]))
    new[:buf.shape[0]] = buf
    return new


@njit(cache=True, error_model="numpy")
def _set_motion(S, i, t, x, y, vx, vy, a):
    """New reference for disc i: at time t at (x, y) with velocity (vx, vy)."""
    s = math.sqrt(vx * vx + vy * vy)
    S[i, T0] = t
    S[i, X] = x
    S[i, Y] = y
    if s < REST_SPEED:
        S[i, SP] = 0.0
        S[i, UX] = 0.0
        S[i, UY] = 0.0
        S[i, BX0] = x
        S[i, BX1] = x
        S[i, BY0] = y
        S[i, BY1] = y
        return
    ux = vx / s
    uy = vy / s
    S[i, SP] = s
    S[i, UX] = ux
    S[i, UY] = uy
    d = s * s / (2.0 * a)
    ex = x + ux * d
    ey = y + uy * d
    S[i, BX0] = min(x, ex)
    S[i, BX1] = max(x, ex)
    S[i, BY0] = min(y, ey)
    S[i, BY1] = max(y, ey)


@njit(cache=True, error_model="numpy")
def _at(S, i, t, a):
    """Position (m) and speed (m/s) of disc i at time t."""
    return state_at(t, S[i, T0], S[i, X], S[i, Y], S[i, SP], S[i, UX], S[i, UY], a)


@njit(cache=True, error_model="numpy")
def _far(S, i, k, tol):
    """True if the reference paths of discs i and k (bounding boxes, grown by the radii)
    cannot meet: what is left of each path is a part of its reference path."""
    m = S[i, RAD] + S[k, RAD] + tol
    return (S[k, BX0] - m > S[i, BX1] or S[i, BX0] - m > S[k, BX1]
            or S[k, BY0] - m > S[i, BY1] or S[i, BY0] - m > S[k, BY1])


@njit(cache=True, error_model="numpy")
def _toi(S, i, k, xi, yi, si, xk, yk, sk, t, a, tol):
    """Absolute time of the next contact of discs i < k at the given states (time t)."""
    if si <= 0.0 and sk <= 0.0:
        return INF
    # arguments always in id order: a pair's prediction never depends on which of the two
    # discs was touched last (bit-identical single-shot and batch runs)
    return t + pair_toi(xi, yi, si, S[i, UX], S[i, UY], xk, yk, sk, S[k, UX], S[k, UY],
                        S[i, RAD] + S[k, RAD], a, tol)


@njit(cache=True, error_model="numpy")
def _pair(S, i, k, t, a, tol):
    """Absolute time of the next contact of discs i < k (both in play), from time t."""
    if _far(S, i, k, tol):
        return INF
    xi, yi, si = _at(S, i, t, a)
    xk, yk, sk = _at(S, k, t, a)
    return _toi(S, i, k, xi, yi, si, xk, yk, sk, t, a, tol)


@njit(cache=True, error_model="numpy")
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


@njit(cache=True, error_model="numpy")
def _set_pair(pt, rm_t, rm_j, i, j, n, value):
    """Store the prediction of pair i < j and keep row i's minimum up to date."""
    pt[i * n + j] = value
    if value < rm_t[i] or (value == rm_t[i] and j < rm_j[i]):
        rm_t[i] = value
        rm_j[i] = j
    elif rm_j[i] == j:  # the row's earliest entry moved later: look again
        _rescan_row(pt, rm_t, rm_j, i, n)


@njit(cache=True, error_model="numpy")
def _predict_row(S, status, pt, rm_t, rm_j, i, skip, t, n, a, tol):
    """Re-predict every pair (i, k), k != skip, from time t."""
    on = status[i] == STATUS_ON
    xi, yi, si = _at(S, i, t, a)
    for k in range(i):
        if k == skip:
            continue
        value = INF
        if on and status[k] == STATUS_ON and not _far(S, k, i, tol):
            xk, yk, sk = _at(S, k, t, a)
            value = _toi(S, k, i, xk, yk, sk, xi, yi, si, t, a, tol)
        _set_pair(pt, rm_t, rm_j, k, i, n, value)
    base = i * n
    for k in range(i + 1, n):
        if k == skip:
            continue
        value = INF
        if on and status[k] == STATUS_ON and not _far(S, i, k, tol):
            xk, yk, sk = _at(S, k, t, a)
            value = _toi(S, i, k, xi, yi, si, xk, yk, sk, t, a, tol)
        pt[base + k] = value
    _rescan_row(pt, rm_t, rm_j, i, n)


@njit(cache=True, error_model="numpy")
def _predict_static(S, status, i, t, a, tol, walls, outs, obst, outc, pockets, st_t, st_k, st_i):
    """Re-predict disc i's next wall / out / pocket / obstacle contact from time t."""
    if status[i] != STATUS_ON or S[i, SP] <= 0.0:
        st_t[i] = INF
        st_k[i] = -1
        st_i[i] = -1
        return
    x, y, sp = _at(S, i, t, a)
    tau, kind, idx = static_hit(x, y, sp, S[i, UX], S[i, UY], S[i, RAD], a,
                                walls, outs, obst, outc, pockets, tol)
    st_t[i] = t + tau
    st_k[i] = kind
    st_i[i] = idx


@njit(cache=True, error_model="numpy")
def _init_state(S, status, pos, vel, rad, mass, status_in, a):
    for i in range(pos.shape[0]):
        status[i] = status_in[i]
        S[i, W] = 0.0
        S[i, RAD] = rad[i]
        S[i, MASS] = mass[i]
        if status[i] == STATUS_ON:
            _set_motion(S, i, 0.0, pos[i, 0], pos[i, 1], vel[i, 0], vel[i, 1], a)
        else:
            _set_motion(S, i, 0.0, pos[i, 0], pos[i, 1], 0.0, 0.0, a)


@njit(cache=True, error_model="numpy")
def _init_predictions(S, status, n, skip, a, tol, walls, outs, obst, outc, pockets,
                      pt, rm_t, rm_j, st_t, st_k, st_i):
    """All predictions at t = 0, except those involving disc `skip` (-1: none skipped)."""
    for i in range(n * n):
        pt[i] = INF
    for i in range(n):
        if i == skip:
            continue
        for k in range(i + 1, n):
            if k != skip and status[i] == STATUS_ON and status[k] == STATUS_ON:
                pt[i * n + k] = _pair(S, i, k, 0.0, a, tol)
        _predict_static(S, status, i, 0.0, a, tol, walls, outs, obst, outc, pockets,
                        st_t, st_k, st_i)
    for i in range(n):
        _rescan_row(pt, rm_t, rm_j, i, n)


@njit(cache=True, error_model="numpy")
def _run(S, status, n, a, e, mu_c, tol, walls, outs, obst, outc, pockets,
         pt, rm_t, rm_j, st_t, st_k, st_i, mover, max_events,
         rec_events, ev, rec_paths, pv, log_imp, imp):
    """The event loop. Predictions must be initialised. Records (when asked) go to growable
    buffers: ev rows (t, kind, a, b, x, y), pv rows (disc, t, x, y), imp rows (impact log).
    Returns (n_events, n_path_vertices, first disc touched by `mover` or -1, truncated,
    ev, pv, imp) (the buffers may have been reallocated)."""
    n_ev = 0
    npv = 0
    first = -1
    truncated = False
    t = 0.0
    if rec_paths:
        pv = _grow(pv, n + 1)
        for i in range(n):
            pv[npv, 0] = i
            pv[npv, 1] = 0.0
            pv[npv, 2] = S[i, X]
            pv[npv, 3] = S[i, Y]
            npv += 1
    while True:
        # ---- next event: min over (time, kind, a, b)
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
        if bt == INF:
            break
        if n_ev >= max_events:
            truncated = True
            break
        t = bt
        # ---- evolve the involved discs to t, resolve, re-predict what they touch
        xa, ya, sa = _at(S, ba, t, a)
        vxa = sa * S[ba, UX]
        vya = sa * S[ba, UY]
        if log_imp:
            imp = _grow(imp, n_ev + 1)
            imp[n_ev, 0] = vxa
            imp[n_ev, 1] = vya
            imp[n_ev, 2] = S[ba, W]
            for c in range(3, 12):
                imp[n_ev, c] = 0.0
        if bk == DISC:
            xb, yb, sb = _at(S, bb, t, a)
            vxb = sb * S[bb, UX]
            vyb = sb * S[bb, UY]
            if log_imp:
                imp[n_ev, 3] = vxb
                imp[n_ev, 4] = vyb
                imp[n_ev, 5] = S[bb, W]
            vxa, vya, wa, vxb, vyb, wb = disc_disc(
                xa, ya, vxa, vya, S[ba, W], S[ba, RAD], S[ba, MASS],
                xb, yb, vxb, vyb, S[bb, W], S[bb, RAD], S[bb, MASS], e, mu_c)
            xa, ya, xb, yb = separate_discs(xa, ya, S[ba, RAD], xb, yb, S[bb, RAD], KISS_GAP_M)
            _set_motion(S, ba, t, xa, ya, vxa, vya, a)
            _set_motion(S, bb, t, xb, yb, vxb, vyb, a)
            S[ba, W] = wa
            S[bb, W] = wb
            if log_imp:
                imp[n_ev, 9] = S[bb, SP] * S[bb, UX]
                imp[n_ev, 10] = S[bb, SP] * S[bb, UY]
                imp[n_ev, 11] = wb
            if first < 0:
                if ba == mover:
                    first = bb
                elif bb == mover:
                    first = ba
            _predict_row(S, status, pt, rm_t, rm_j, ba, -1, t, n, a, tol)
            _predict_row(S, status, pt, rm_t, rm_j, bb, ba, t, n, a, tol)
            _predict_static(S, status, ba, t, a, tol, walls, outs, obst, outc, pockets,
                            st_t, st_k, st_i)
            _predict_static(S, status, bb, t, a, tol, walls, outs, obst, outc, pockets,
                            st_t, st_k, st_i)
        else:
            if bk == WALL or bk == OBSTACLE:
                r = S[ba, RAD]
                if bk == WALL:
                    nx, ny, d = segment_normal(xa, ya, walls[bb, 0], walls[bb, 1],
                                               walls[bb, 5], walls[bb, 6], walls[bb, 7])
                    ew = walls[bb, 4]
                else:
                    nx = xa - obst[bb, 0]
                    ny = ya - obst[bb, 1]
                    d = math.sqrt(nx * nx + ny * ny)
                    if d > 0.0:
                        nx /= d
                        ny /= d
                    else:  # centre on the post's centre (invalid layout): straight back
                        nx = -S[ba, UX]
                        ny = -S[ba, UY]
                    d -= obst[bb, 2]
                    ew = obst[bb, 3]
                vxa, vya = bounce(vxa, vya, nx, ny, ew)
                if d < r:  # round-off penetration: push out along the normal
                    push = (r - d) * (1.0 + 1e-12)
                    xa += push * nx
                    ya += push * ny
                _set_motion(S, ba, t, xa, ya, vxa, vya, a)
            else:  # OUT or POCKET: removed from play at this instant
                status[ba] = STATUS_OUT if bk == OUT else STATUS_POCKETED
                _set_motion(S, ba, t, xa, ya, 0.0, 0.0, a)
            _predict_row(S, status, pt, rm_t, rm_j, ba, -1, t, n, a, tol)
            _predict_static(S, status, ba, t, a, tol, walls, outs, obst, outc, pockets,
                            st_t, st_k, st_i)
        if log_imp:
            imp[n_ev, 6] = S[ba, SP] * S[ba, UX]
            imp[n_ev, 7] = S[ba, SP] * S[ba, UY]
            imp[n_ev, 8] = S[ba, W]
        # ---- record
        if rec_events:
            ev = _grow(ev, n_ev + 1)
            ev[n_ev, 0] = t
            ev[n_ev, 1] = bk
            ev[n_ev, 2] = ba
            ev[n_ev, 3] = bb
            ev[n_ev, 4] = S[ba, X]
            ev[n_ev, 5] = S[ba, Y]
        if rec_paths:
            pv = _grow(pv, npv + 2)
            pv[npv, 0] = ba
            pv[npv, 1] = t
            pv[npv, 2] = S[ba, X]
            pv[npv, 3] = S[ba, Y]
            npv += 1
            if bk == DISC:
                pv[npv, 0] = bb
                pv[npv, 1] = t
                pv[npv, 2] = S[bb, X]
                pv[npv, 3] = S[bb, Y]
                npv += 1
        n_ev += 1
    # ---- every disc still in play slides to its rest point (or, if the event cap cut the
    # shot short, is frozen where it was at the last event: a valid, overlap-free state)
    for i in range(n):
        if status[i] == STATUS_ON and S[i, SP] > 0.0:
            if truncated:
                tstop = t
                x, y, _ = _at(S, i, t, a)
            else:
                tstop = S[i, T0] + S[i, SP] / a
                d = S[i, SP] * S[i, SP] / (2.0 * a)
                x = S[i, X] + S[i, UX] * d
                y = S[i, Y] + S[i, UY] * d
            _set_motion(S, i, tstop, x, y, 0.0, 0.0, a)
            if rec_paths:
                pv = _grow(pv, npv + 1)
                pv[npv, 0] = i
                pv[npv, 1] = tstop
                pv[npv, 2] = x
                pv[npv, 3] = y
                npv += 1
    return n_ev, npv, first, truncated, ev, pv, imp


@njit(cache=True, error_model="numpy")
def simulate_kernel(walls, outs, obst, outc, pockets, a, e, mu_c,
                    pos, vel, rad, mass, status_in, max_events, record_paths, log_impacts):
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
    cap = min(max_events, 64 + 8 * n)
    ev = np.empty((cap, 6))
    pv = np.empty((2 * n + 2 * cap if record_paths else 0, 4))
    imp = np.empty((cap if log_impacts else 0, 12))
    _init_state(S, status, pos, vel, rad, mass, status_in, a)
    _init_predictions(S, status, n, -1, a, tol, walls, outs, obst, outc, pockets,
                      pt, rm_t, rm_j, st_t, st_k, st_i)
    n_ev, npv, first, truncated, ev, pv, imp = _run(
        S, status, n, a, e, mu_c, tol, walls, outs, obst, outc, pockets,
        pt, rm_t, rm_j, st_t, st_k, st_i, -1, max_events,
        True, ev, record_paths, pv, log_impacts, imp)
    final = np.empty((n, 2))
    for i in range(n):
        final[i, 0] = S[i, X]
        final[i, 1] = S[i, Y]
    return final, status, n_ev, truncated, ev, npv, pv, imp


@njit(cache=True, error_model="numpy")
def batch_kernel(walls, outs, obst, outc, pockets, a, e, mu_c,
                 pos, vel, rad, mass, status_in, mover, starts, vels, max_events):
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
    # base state and predictions, shared by all shots
    b_pt = np.empty(n * n)
    b_rm_t = np.empty(n)
    b_rm_j = np.empty(n, dtype=np.int64)
    b_st_t = np.empty(n)
    b_st_k = np.empty(n, dtype=np.int64)
    b_st_i = np.empty(n, dtype=np.int64)
    _init_state(S0, status0, pos, vel, rad, mass, status_in, a)
    _init_predictions(S0, status0, n, mover, a, tol, walls, outs, obst, outc, pockets,
                      b_pt, b_rm_t, b_rm_j, b_st_t, b_st_k, b_st_i)
    no_ev = np.empty((0, 6))
    no_pv = np.empty((0, 4))
    no_imp = np.empty((0, 12))
    final = np.empty((nk, n, 2))
    status_out = np.empty((nk, n), dtype=np.int8)
    first_out = np.empty(nk, dtype=np.int64)
    nev_out = np.empty(nk, dtype=np.int64)
    trunc_out = np.empty(nk, dtype=np.bool_)
    for k in range(nk):
        S[:, :] = S0
        status[:] = status0
        pt[:] = b_pt
        rm_t[:] = b_rm_t
        rm_j[:] = b_rm_j
        st_t[:] = b_st_t
        st_k[:] = b_st_k
        st_i[:] = b_st_i
        if status[mover] == STATUS_ON:
            _set_motion(S, mover, 0.0, starts[k, 0], starts[k, 1], vels[k, 0], vels[k, 1], a)
        else:
            _set_motion(S, mover, 0.0, starts[k, 0], starts[k, 1], 0.0, 0.0, a)
        _predict_row(S, status, pt, rm_t, rm_j, mover, -1, 0.0, n, a, tol)
        _predict_static(S, status, mover, 0.0, a, tol, walls, outs, obst, outc, pockets,
                        st_t, st_k, st_i)
        n_ev, npv, first, truncated, _, _, _ = _run(
            S, status, n, a, e, mu_c, tol, walls, outs, obst, outc, pockets,
            pt, rm_t, rm_j, st_t, st_k, st_i, mover, max_events,
            False, no_ev, False, no_pv, False, no_imp)
        for i in range(n):
            final[k, i, 0] = S[i, X]
            final[k, i, 1] = S[i, Y]
            status_out[k, i] = status[i]
        first_out[k] = first
        nev_out[k] = n_ev
        trunc_out[k] = truncated
    return final, status_out, first_out, nev_out, trunc_out
