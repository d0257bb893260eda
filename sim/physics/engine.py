"""The compiled event loop (numba, nopython, cache=True; compiled lazily on first call).

One loop, pooltool-style: **next event → evolve the bodies it involves to its time →
resolve it → re-predict only for the bodies it touched** (`sim.physics.detect`,
`sim.physics.motion`, `sim.physics.resolve`). No time steps: between events every disc
follows its closed-form Coulomb-friction motion from its own reference (t0, position,
speed, heading), so untouched discs are never updated and their predictions stay valid.

Predictions are kept in a pair table (absolute contact time of every pair i < j) and one
static prediction per disc (earliest wall / out / pocket / obstacle contact). Removing a disc
(OUT, POCKET) just clears its entries.

**Simultaneous events (deterministic tie-break).** Events are executed in order of
(time, kind, a, b): at exactly equal times the lower kind comes first
(DISC 0 < WALL 1 < OUT 2 < POCKET 3 < OBSTACLE 4), then the lower disc id a, then the
lower b (other disc id, or wall / out / pocket / obstacle index). After each event the
touched discs are re-predicted from the event time, so a contact that was simultaneous
with the one just resolved is re-evaluated with the new velocities (touching and still
approaching → it fires at the same time; separating → it is dropped). Near-simultaneous
contacts in a packed formation are separate events ordered by geometry when the formation
leaves a gap (`FORMATION_GAP_M` = 1 µm) between the discs.

Numeric safeguards: touching = gap ≤ TOUCH_TOL_M (1e-9 m); speeds < REST_SPEED after an
impact are zeroed; round-off overlaps after an impact are pushed apart along the normal;
`max_events` caps runaway shots (flagged as truncated; final positions are then the rest
points of the current motions).
"""

import math

import numpy as np
from numba import njit

from .constants import (
    DISC, OBSTACLE, OUT, POCKET, REST_SPEED, STATUS_ON, STATUS_OUT, STATUS_POCKETED,
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


@njit(cache=True, error_model="numpy")
def _set_velocity(i, vx, vy, sp, ux, uy):
    s = math.sqrt(vx * vx + vy * vy)
    if s < REST_SPEED:
        sp[i] = 0.0
        ux[i] = 0.0
        uy[i] = 0.0
    else:
        sp[i] = s
        ux[i] = vx / s
        uy[i] = vy / s


@njit(cache=True, error_model="numpy")
def _evolve(i, t, t0, x0, y0, sp, ux, uy, a):
    """Move disc i's reference to time t (closed-form motion)."""
    x, y, s = state_at(t, t0[i], x0[i], y0[i], sp[i], ux[i], uy[i], a)
    x0[i] = x
    y0[i] = y
    sp[i] = s
    t0[i] = t
    if s <= 0.0:
        ux[i] = 0.0
        uy[i] = 0.0


@njit(cache=True, error_model="numpy")
def _predict_row(i, skip, t, n, a, tol, t0, x0, y0, sp, ux, uy, rad, status, pt):
    """Re-predict every pair (i, k), k != skip, from time t (disc i's reference is at t)."""
    xi = x0[i]
    yi = y0[i]
    si = sp[i]
    uxi = ux[i]
    uyi = uy[i]
    ri = rad[i]
    on = status[i] == STATUS_ON
    for k in range(n):
        if k == i or k == skip:
            continue
        if i < k:
            idx = i * n + k
        else:
            idx = k * n + i
        if not on or status[k] != STATUS_ON:
            pt[idx] = INF
            continue
        xk, yk, sk = state_at(t, t0[k], x0[k], y0[k], sp[k], ux[k], uy[k], a)
        if si <= 0.0 and sk <= 0.0:
            pt[idx] = INF
            continue
        # arguments always in id order, so a pair's prediction never depends on which of
        # the two discs was touched last (bit-identical single-shot and batch runs)
        if i < k:
            tau = pair_toi(xi, yi, si, uxi, uyi, xk, yk, sk, ux[k], uy[k], ri + rad[k], a, tol)
        else:
            tau = pair_toi(xk, yk, sk, ux[k], uy[k], xi, yi, si, uxi, uyi, rad[k] + ri, a, tol)
        pt[idx] = t + tau


@njit(cache=True, error_model="numpy")
def _predict_static(i, t, a, tol, x0, y0, sp, ux, uy, rad, status,
                    walls, outs, obst, outc, pockets, st_t, st_k, st_i):
    if status[i] != STATUS_ON or sp[i] <= 0.0:
        st_t[i] = INF
        st_k[i] = -1
        st_i[i] = -1
        return
    tau, kind, idx = static_hit(x0[i], y0[i], sp[i], ux[i], uy[i], rad[i], a,
                                walls, outs, obst, outc, pockets, tol)
    st_t[i] = t + tau
    st_k[i] = kind
    st_i[i] = idx


@njit(cache=True, error_model="numpy")
def _init_state(pos, vel, status_in, n, t0, x0, y0, sp, ux, uy, w, status):
    for i in range(n):
        t0[i] = 0.0
        x0[i] = pos[i, 0]
        y0[i] = pos[i, 1]
        w[i] = 0.0
        status[i] = status_in[i]
        if status[i] == STATUS_ON:
            _set_velocity(i, vel[i, 0], vel[i, 1], sp, ux, uy)
        else:
            sp[i] = 0.0
            ux[i] = 0.0
            uy[i] = 0.0


@njit(cache=True, error_model="numpy")
def _init_predictions(n, skip, a, tol, t0, x0, y0, sp, ux, uy, rad, status,
                      walls, outs, obst, outc, pockets, pt, st_t, st_k, st_i):
    """All predictions at t = 0, except those involving disc `skip` (-1: none skipped)."""
    for i in range(n):
        for k in range(n):
            pt[i * n + k] = INF
    for i in range(n):
        if i == skip:
            continue
        for k in range(i + 1, n):
            if k == skip or status[i] != STATUS_ON or status[k] != STATUS_ON:
                continue
            if sp[i] <= 0.0 and sp[k] <= 0.0:
                continue
            pt[i * n + k] = pair_toi(x0[i], y0[i], sp[i], ux[i], uy[i],
                                     x0[k], y0[k], sp[k], ux[k], uy[k],
                                     rad[i] + rad[k], a, tol)
        _predict_static(i, 0.0, a, tol, x0, y0, sp, ux, uy, rad, status,
                        walls, outs, obst, outc, pockets, st_t, st_k, st_i)


@njit(cache=True, error_model="numpy")
def _run(n, a, e, mu_c, tol, walls, outs, obst, outc, pockets,
         t0, x0, y0, sp, ux, uy, w, rad, mass, status,
         pt, st_t, st_k, st_i, mover, max_events,
         rec_events, ev_t, ev_k, ev_a, ev_b, ev_x, ev_y,
         rec_paths, pv_d, pv_t, pv_x, pv_y,
         log_imp, imp):
    """The event loop. Predictions must be initialised. Returns
    (n_events, n_path_vertices, first disc touched by `mover` or -1, truncated)."""
    n_ev = 0
    npv = 0
    first = -1
    truncated = False
    if rec_paths:
        for i in range(n):
            pv_d[npv] = i
            pv_t[npv] = 0.0
            pv_x[npv] = x0[i]
            pv_y[npv] = y0[i]
            npv += 1
    while True:
        # ---- next event: min over (time, kind, a, b)
        bt = INF
        bk = 127
        ba = -1
        bb = -1
        for i in range(n - 1):
            base = i * n
            for j in range(i + 1, n):
                tt = pt[base + j]
                if tt < bt:
                    bt = tt
                    ba = i
                    bb = j
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
        # ---- evolve the involved discs to t, resolve, re-predict
        _evolve(ba, t, t0, x0, y0, sp, ux, uy, a)
        if bk == DISC:
            _evolve(bb, t, t0, x0, y0, sp, ux, uy, a)
            vxa = sp[ba] * ux[ba]
            vya = sp[ba] * uy[ba]
            vxb = sp[bb] * ux[bb]
            vyb = sp[bb] * uy[bb]
            if log_imp:
                imp[n_ev, 0] = vxa
                imp[n_ev, 1] = vya
                imp[n_ev, 2] = w[ba]
                imp[n_ev, 3] = vxb
                imp[n_ev, 4] = vyb
                imp[n_ev, 5] = w[bb]
            nvxa, nvya, nwa, nvxb, nvyb, nwb = disc_disc(
                x0[ba], y0[ba], vxa, vya, w[ba], rad[ba], mass[ba],
                x0[bb], y0[bb], vxb, vyb, w[bb], rad[bb], mass[bb], e, mu_c)
            _set_velocity(ba, nvxa, nvya, sp, ux, uy)
            _set_velocity(bb, nvxb, nvyb, sp, ux, uy)
            w[ba] = nwa
            w[bb] = nwb
            if log_imp:
                imp[n_ev, 6] = sp[ba] * ux[ba]
                imp[n_ev, 7] = sp[ba] * uy[ba]
                imp[n_ev, 8] = nwa
                imp[n_ev, 9] = sp[bb] * ux[bb]
                imp[n_ev, 10] = sp[bb] * uy[bb]
                imp[n_ev, 11] = nwb
            x0[ba], y0[ba], x0[bb], y0[bb] = separate_discs(
                x0[ba], y0[ba], rad[ba], x0[bb], y0[bb], rad[bb], KISS_GAP_M)
            if first < 0:
                if ba == mover:
                    first = bb
                elif bb == mover:
                    first = ba
            _predict_row(ba, -1, t, n, a, tol, t0, x0, y0, sp, ux, uy, rad, status, pt)
            _predict_row(bb, ba, t, n, a, tol, t0, x0, y0, sp, ux, uy, rad, status, pt)
            _predict_static(ba, t, a, tol, x0, y0, sp, ux, uy, rad, status,
                            walls, outs, obst, outc, pockets, st_t, st_k, st_i)
            _predict_static(bb, t, a, tol, x0, y0, sp, ux, uy, rad, status,
                            walls, outs, obst, outc, pockets, st_t, st_k, st_i)
        else:
            vx = sp[ba] * ux[ba]
            vy = sp[ba] * uy[ba]
            if log_imp:
                imp[n_ev, 0] = vx
                imp[n_ev, 1] = vy
                imp[n_ev, 2] = w[ba]
                for c in range(3, 6):
                    imp[n_ev, c] = 0.0
            if bk == WALL or bk == OBSTACLE:
                r = rad[ba]
                if bk == WALL:
                    nx, ny, d = segment_normal(x0[ba], y0[ba], walls[bb, 0], walls[bb, 1],
                                               walls[bb, 5], walls[bb, 6], walls[bb, 7])
                    ew = walls[bb, 4]
                else:
                    nx = x0[ba] - obst[bb, 0]
                    ny = y0[ba] - obst[bb, 1]
                    d = math.sqrt(nx * nx + ny * ny)
                    nx /= d
                    ny /= d
                    d -= obst[bb, 2]
                    ew = obst[bb, 3]
                vx, vy = bounce(vx, vy, nx, ny, ew)
                _set_velocity(ba, vx, vy, sp, ux, uy)
                if d < r:  # round-off penetration: push out along the normal
                    push = (r - d) * (1.0 + 1e-12)
                    x0[ba] += push * nx
                    y0[ba] += push * ny
            else:  # OUT or POCKET: removed from play at this instant
                status[ba] = STATUS_OUT if bk == OUT else STATUS_POCKETED
                sp[ba] = 0.0
                ux[ba] = 0.0
                uy[ba] = 0.0
            if log_imp:
                imp[n_ev, 6] = sp[ba] * ux[ba]
                imp[n_ev, 7] = sp[ba] * uy[ba]
                imp[n_ev, 8] = w[ba]
                for c in range(9, 12):
                    imp[n_ev, c] = 0.0
            _predict_row(ba, -1, t, n, a, tol, t0, x0, y0, sp, ux, uy, rad, status, pt)
            _predict_static(ba, t, a, tol, x0, y0, sp, ux, uy, rad, status,
                            walls, outs, obst, outc, pockets, st_t, st_k, st_i)
        # ---- record
        if rec_events:
            ev_t[n_ev] = t
            ev_k[n_ev] = bk
            ev_a[n_ev] = ba
            ev_b[n_ev] = bb
            ev_x[n_ev] = x0[ba]
            ev_y[n_ev] = y0[ba]
        if rec_paths:
            pv_d[npv] = ba
            pv_t[npv] = t
            pv_x[npv] = x0[ba]
            pv_y[npv] = y0[ba]
            npv += 1
            if bk == DISC:
                pv_d[npv] = bb
                pv_t[npv] = t
                pv_x[npv] = x0[bb]
                pv_y[npv] = y0[bb]
                npv += 1
        n_ev += 1
    # ---- every disc still in play slides to its rest point
    for i in range(n):
        if status[i] == STATUS_ON and sp[i] > 0.0:
            tstop = t0[i] + sp[i] / a
            x, y, s = state_at(tstop + 1.0, t0[i], x0[i], y0[i], sp[i], ux[i], uy[i], a)
            x0[i] = x
            y0[i] = y
            sp[i] = 0.0
            t0[i] = tstop
            if rec_paths:
                pv_d[npv] = i
                pv_t[npv] = tstop
                pv_x[npv] = x
                pv_y[npv] = y
                npv += 1
    return n_ev, npv, first, truncated


@njit(cache=True, error_model="numpy")
def simulate_kernel(walls, outs, obst, outc, pockets, a, e, mu_c,
                    pos, vel, rad, mass, status_in, max_events, record_paths, log_impacts):
    """One shot. Returns (final_pos, status, n_events, truncated, ev_t, ev_k, ev_a, ev_b,
    ev_x, ev_y, n_path_vertices, pv_d, pv_t, pv_x, pv_y, impacts)."""
    n = pos.shape[0]
    tol = TOUCH_TOL_M
    t0 = np.empty(n)
    x0 = np.empty(n)
    y0 = np.empty(n)
    sp = np.empty(n)
    ux = np.empty(n)
    uy = np.empty(n)
    w = np.empty(n)
    status = np.empty(n, dtype=np.int8)
    pt = np.empty(n * n)
    st_t = np.empty(n)
    st_k = np.empty(n, dtype=np.int64)
    st_i = np.empty(n, dtype=np.int64)
    ev_t = np.empty(max_events)
    ev_k = np.empty(max_events, dtype=np.int8)
    ev_a = np.empty(max_events, dtype=np.int32)
    ev_b = np.empty(max_events, dtype=np.int32)
    ev_x = np.empty(max_events)
    ev_y = np.empty(max_events)
    npv_cap = 2 * n + 2 * max_events if record_paths else 0
    pv_d = np.empty(npv_cap, dtype=np.int64)
    pv_t = np.empty(npv_cap)
    pv_x = np.empty(npv_cap)
    pv_y = np.empty(npv_cap)
    imp = np.empty((max_events if log_impacts else 0, 12))
    _init_state(pos, vel, status_in, n, t0, x0, y0, sp, ux, uy, w, status)
    _init_predictions(n, -1, a, tol, t0, x0, y0, sp, ux, uy, rad, status,
                      walls, outs, obst, outc, pockets, pt, st_t, st_k, st_i)
    n_ev, npv, first, truncated = _run(
        n, a, e, mu_c, tol, walls, outs, obst, outc, pockets,
        t0, x0, y0, sp, ux, uy, w, rad, mass, status,
        pt, st_t, st_k, st_i, -1, max_events,
        True, ev_t, ev_k, ev_a, ev_b, ev_x, ev_y,
        record_paths, pv_d, pv_t, pv_x, pv_y, log_impacts, imp)
    final = np.empty((n, 2))
    for i in range(n):
        final[i, 0] = x0[i]
        final[i, 1] = y0[i]
    return (final, status, n_ev, truncated, ev_t, ev_k, ev_a, ev_b, ev_x, ev_y,
            npv, pv_d, pv_t, pv_x, pv_y, imp)


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
    t0 = np.empty(n)
    x0 = np.empty(n)
    y0 = np.empty(n)
    sp = np.empty(n)
    ux = np.empty(n)
    uy = np.empty(n)
    w = np.empty(n)
    status = np.empty(n, dtype=np.int8)
    pt = np.empty(n * n)
    st_t = np.empty(n)
    st_k = np.empty(n, dtype=np.int64)
    st_i = np.empty(n, dtype=np.int64)
    # base predictions, shared by all shots
    b_pt = np.empty(n * n)
    b_st_t = np.empty(n)
    b_st_k = np.empty(n, dtype=np.int64)
    b_st_i = np.empty(n, dtype=np.int64)
    _init_state(pos, vel, status_in, n, t0, x0, y0, sp, ux, uy, w, status)
    _init_predictions(n, mover, a, tol, t0, x0, y0, sp, ux, uy, rad, status,
                      walls, outs, obst, outc, pockets, b_pt, b_st_t, b_st_k, b_st_i)
    dummy_f = np.empty(0)
    dummy_i8 = np.empty(0, dtype=np.int8)
    dummy_i32 = np.empty(0, dtype=np.int32)
    dummy_i64 = np.empty(0, dtype=np.int64)
    dummy_imp = np.empty((0, 12))
    final = np.empty((nk, n, 2))
    status_out = np.empty((nk, n), dtype=np.int8)
    first_out = np.empty(nk, dtype=np.int64)
    nev_out = np.empty(nk, dtype=np.int64)
    trunc_out = np.empty(nk, dtype=np.bool_)
    for k in range(nk):
        _init_state(pos, vel, status_in, n, t0, x0, y0, sp, ux, uy, w, status)
        x0[mover] = starts[k, 0]
        y0[mover] = starts[k, 1]
        if status[mover] == STATUS_ON:
            _set_velocity(mover, vels[k, 0], vels[k, 1], sp, ux, uy)
        pt[:] = b_pt
        st_t[:] = b_st_t
        st_k[:] = b_st_k
        st_i[:] = b_st_i
        _predict_row(mover, -1, 0.0, n, a, tol, t0, x0, y0, sp, ux, uy, rad, status, pt)
        _predict_static(mover, 0.0, a, tol, x0, y0, sp, ux, uy, rad, status,
                        walls, outs, obst, outc, pockets, st_t, st_k, st_i)
        n_ev, npv, first, truncated = _run(
            n, a, e, mu_c, tol, walls, outs, obst, outc, pockets,
            t0, x0, y0, sp, ux, uy, w, rad, mass, status,
            pt, st_t, st_k, st_i, mover, max_events,
            False, dummy_f, dummy_i8, dummy_i32, dummy_i32, dummy_f, dummy_f,
            False, dummy_i64, dummy_f, dummy_f, dummy_f, False, dummy_imp)
        for i in range(n):
            final[k, i, 0] = x0[i]
            final[k, i, 1] = y0[i]
            status_out[k, i] = status[i]
        first_out[k] = first
        nev_out[k] = n_ev
        trunc_out[k] = truncated
    return final, status_out, first_out, nev_out, trunc_out
