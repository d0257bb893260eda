"""Detect: exact times of impact under Coulomb friction (compiled helpers).

Every body moves on a straight line with constant deceleration a = μg until it stops
(`sim.physics.motion`), so:

* one moving disc against anything static (wall, out segment, post, pocket, resting disc):
  the contact is a quadratic in the arc length s along the path; solve for s, then the time
  from s = v·τ − ½aτ² (`travel_time`). Exact, no iteration.
* two moving discs: the separation d(τ) = w + Bτ + Cτ² is quadratic in τ, so
  f(τ) = |d|² − R² is a quartic on [0, min(stop times)]. We find its EARLIEST downward zero
  crossing robustly: the critical points of f (roots of the cubic f'/2 = d·d', themselves
  isolated by the roots of the quadratic f''/2) split [0, T] into monotone pieces, and the
  first piece where f goes from > 0 to ≤ 0 is solved by safeguarded Newton (bisection
  fallback). A grazing contact (f touching zero at a local minimum) cannot be skipped. After
  the first disc stops, the rest is the one-moving-disc case again.

Conventions: all functions return the arc length or the time FROM NOW (≥ 0), or +inf when
there is no contact. "Touching" means a gap ≤ tol (TOUCH_TOL_M = 1e-9 m): touching and
approaching → contact at 0; touching and separating → no event.
Units: metres, seconds, m/s.
"""

import math

import numpy as np
from numba import njit

from .constants import OBSTACLE, OUT, POCKET, WALL
from .motion import reach, travel_time

INF = np.inf
#: Absolute time tolerance of the Newton solves, s (10 m/s × 1e-14 s = 1e-13 m).
XTOL_ROOT = 1e-14
XTOL_CRIT = 1e-13


# ---------------------------------------------------------------------------- static targets
@njit(cache=True, error_model="numpy", _nrt=False)
def circle_hit(px, py, ux, uy, smax, qx, qy, rho, tol):
    """Arc length (m) at which a centre moving from (px, py) along unit (ux, uy) for at most
    smax metres first comes within rho of (qx, qy) while approaching it; inf if never.

    Used for disc–disc (one at rest: rho = r1 + r2), posts (rho = r + post radius), segment
    end points (rho = r) and pockets (rho = capture radius, centre test).
    """
    wx = px - qx
    wy = py - qy
    b = ux * wx + uy * wy
    if b >= 0.0:  # moving away or tangentially: never closer
        return INF
    c = wx * wx + wy * wy - rho * rho
    if c <= 2.0 * rho * tol:  # touching (or inside) and approaching: now
        return 0.0
    disc = b * b - c
    if disc < 0.0:
        return INF
    s = c / (-b + math.sqrt(disc))  # smaller root, cancellation-free
    if s > smax:
        return INF
    return s


@njit(cache=True, error_model="numpy", _nrt=False)
def segment_hit(px, py, ux, uy, smax, x1, y1, tx, ty, length, r, tol):
    """Arc length (m) at which a disc of radius r (centre (px, py), unit heading (ux, uy),
    at most smax metres left) first touches the segment from (x1, y1) along unit (tx, ty)
    of the given length, while approaching it, from either side; inf if never.

    The flat part is a slab |distance to the line| = r; the end points are zero-radius posts.
    A valid flat-part contact is always the first one (before it the centre is farther than
    r from the whole line), so the end points are only tried when it misses.
    """
    nx = -ty
    ny = tx
    d = (px - x1) * nx + (py - y1) * ny
    un = ux * nx + uy * ny
    if d < 0.0:
        d = -d
        un = -un
    if un < 0.0:  # approaching the line
        gap = d - r
        s = 0.0
        if gap > tol:
            s = gap / (-un)
        if s > smax:
            return INF  # stops before reaching the line: cannot touch any part of it
        lam = (px + ux * s - x1) * tx + (py + uy * s - y1) * ty
        if lam >= 0.0 and lam <= length:
            return s
    best = circle_hit(px, py, ux, uy, smax, x1, y1, r, tol)
    s = circle_hit(px, py, ux, uy, smax, x1 + tx * length, y1 + ty * length, r, tol)
    if s < best:
        best = s
    return best


@njit(cache=True, error_model="numpy", _nrt=False)
def static_hit(px, py, sp, ux, uy, r, a, walls, outs, obst, outc, pockets, tol):
    """Earliest contact of one disc with the static table. Returns (tau, kind, index): time
    from now (s), event kind (WALL, OUT, POCKET or OBSTACLE) and index (out circles offset by
    the number of out segments); (inf, -1, -1) if none.

    Ties at equal arc length keep the lower kind, then the lower index (scan order). Each
    item is first tested against the bounding box of the disc's remaining path.
    Packed layouts (see `Table.packed`): walls and outs (W, 12) x1 y1 x2 y2 e tx ty L xmin
    xmax ymin ymax; obst (Q, 4) x y radius e; outc (R, 4) x y radius e; pockets (P, 3).
    """
    if sp <= 0.0:
        return INF, -1, -1
    smax = reach(sp, a)
    ex = px + ux * smax
    ey = py + uy * smax
    bx0 = min(px, ex)
    bx1 = max(px, ex)
    by0 = min(py, ey)
    by1 = max(py, ey)
    m = r + tol
    best = INF
    kind = -1
    idx = -1
    for k in range(walls.shape[0]):
        if walls[k, 8] > bx1 + m or walls[k, 9] < bx0 - m or walls[k, 10] > by1 + m or walls[k, 11] < by0 - m:
            continue
        s = segment_hit(px, py, ux, uy, smax, walls[k, 0], walls[k, 1], walls[k, 5], walls[k, 6], walls[k, 7], r, tol)
        if s < best:
            best = s
            kind = WALL
            idx = k
    n_out = outs.shape[0]
    for k in range(n_out):
        if outs[k, 8] > bx1 + m or outs[k, 9] < bx0 - m or outs[k, 10] > by1 + m or outs[k, 11] < by0 - m:
            continue
        s = segment_hit(px, py, ux, uy, smax, outs[k, 0], outs[k, 1], outs[k, 5], outs[k, 6], outs[k, 7], r, tol)
        if s < best:
            best = s
            kind = OUT
            idx = k
    for k in range(outc.shape[0]):
        rho = r + outc[k, 2] + tol
        if outc[k, 0] - rho > bx1 or outc[k, 0] + rho < bx0 or outc[k, 1] - rho > by1 or outc[k, 1] + rho < by0:
            continue
        s = circle_hit(px, py, ux, uy, smax, outc[k, 0], outc[k, 1], r + outc[k, 2], tol)
        if s < best:
            best = s
            kind = OUT
            idx = n_out + k
    for k in range(pockets.shape[0]):
        rho = pockets[k, 2] + tol
        if (
            pockets[k, 0] - rho > bx1
            or pockets[k, 0] + rho < bx0
            or pockets[k, 1] - rho > by1
            or pockets[k, 1] + rho < by0
        ):
            continue
        s = circle_hit(px, py, ux, uy, smax, pockets[k, 0], pockets[k, 1], pockets[k, 2], tol)
        if s < best:
            best = s
            kind = POCKET
            idx = k
    for k in range(obst.shape[0]):
        rho = r + obst[k, 2] + tol
        if obst[k, 0] - rho > bx1 or obst[k, 0] + rho < bx0 or obst[k, 1] - rho > by1 or obst[k, 1] + rho < by0:
            continue
        s = circle_hit(px, py, ux, uy, smax, obst[k, 0], obst[k, 1], r + obst[k, 2], tol)
        if s < best:
            best = s
            kind = OBSTACLE
            idx = k
    if kind < 0:
        return INF, -1, -1
    return travel_time(best, sp, a), kind, idx


# ------------------------------------------------------------------------------- disc–disc
@njit(cache=True, error_model="numpy", _nrt=False)
def _pt_seg_d2(px, py, ax, ay, bx, by):
    dx = bx - ax
    dy = by - ay
    l2 = dx * dx + dy * dy
    t = 0.0
    if l2 > 0.0:
        t = ((px - ax) * dx + (py - ay) * dy) / l2
        if t < 0.0:
            t = 0.0
        elif t > 1.0:
            t = 1.0
    ex = ax + t * dx - px
    ey = ay + t * dy - py
    return ex * ex + ey * ey


@njit(cache=True, error_model="numpy", _nrt=False)
def seg_seg_d2(p0x, p0y, p1x, p1y, q0x, q0y, q1x, q1y):
    """Squared distance (m²) between segments P0P1 and Q0Q1 (0 if they cross)."""
    ex = q1x - q0x
    ey = q1y - q0y
    fx = p1x - p0x
    fy = p1y - p0y
    d1 = ex * (p0y - q0y) - ey * (p0x - q0x)
    d2 = ex * (p1y - q0y) - ey * (p1x - q0x)
    d3 = fx * (q0y - p0y) - fy * (q0x - p0x)
    d4 = fx * (q1y - p0y) - fy * (q1x - p0x)
    if ((d1 > 0.0 and d2 < 0.0) or (d1 < 0.0 and d2 > 0.0)) and ((d3 > 0.0 and d4 < 0.0) or (d3 < 0.0 and d4 > 0.0)):
        return 0.0
    m = _pt_seg_d2(p0x, p0y, q0x, q0y, q1x, q1y)
    v = _pt_seg_d2(p1x, p1y, q0x, q0y, q1x, q1y)
    if v < m:
        m = v
    v = _pt_seg_d2(q0x, q0y, p0x, p0y, p1x, p1y)
    if v < m:
        m = v
    v = _pt_seg_d2(q1x, q1y, p0x, p0y, p1x, p1y)
    if v < m:
        m = v
    return m


@njit(cache=True, error_model="numpy", _nrt=False)
def _f(t, wx, wy, bx, by, cx, cy, r2):
    """f(t) = |d(t)|² − R², d = w + Bt + Ct² (evaluated in vector form for accuracy)."""
    dx = wx + t * (bx + t * cx)
    dy = wy + t * (by + t * cy)
    return dx * dx + dy * dy - r2


@njit(cache=True, error_model="numpy", _nrt=False)
def _g(t, wx, wy, bx, by, cx, cy):
    """g(t) = f'(t)/2 = d·d' (a cubic)."""
    dx = wx + t * (bx + t * cx)
    dy = wy + t * (by + t * cy)
    return dx * (bx + 2.0 * t * cx) + dy * (by + 2.0 * t * cy)


@njit(cache=True, error_model="numpy", _nrt=False)
def _h(t, wx, wy, bx, by, cx, cy):
    """h(t) = g'(t) = |d'|² + 2 d·C (a quadratic)."""
    dx = wx + t * (bx + t * cx)
    dy = wy + t * (by + t * cy)
    ex = bx + 2.0 * t * cx
    ey = by + 2.0 * t * cy
    return ex * ex + ey * ey + 2.0 * (dx * cx + dy * cy)


@njit(cache=True, error_model="numpy", _nrt=False)
def _root_g(lo, hi, glo, ghi, wx, wy, bx, by, cx, cy):
    """Root of the monotone cubic g on [lo, hi] (g changes sign): rtsafe Newton/bisection
    started from the secant point."""
    if glo < 0.0:
        xl = lo
        xh = hi
    else:
        xl = hi
        xh = lo
    x = lo + (hi - lo) * (glo / (glo - ghi))
    dxold = hi - lo
    dx = dxold
    gx = _g(x, wx, wy, bx, by, cx, cy)
    hx = _h(x, wx, wy, bx, by, cx, cy)
    for _ in range(100):
        if ((x - xh) * hx - gx) * ((x - xl) * hx - gx) > 0.0 or abs(2.0 * gx) > abs(dxold * hx):
            dxold = dx
            dx = 0.5 * (xh - xl)
            x = xl + dx
        else:
            dxold = dx
            dx = gx / hx
            x = x - dx
        if abs(dx) < XTOL_CRIT:
            break
        gx = _g(x, wx, wy, bx, by, cx, cy)
        hx = _h(x, wx, wy, bx, by, cx, cy)
        if gx < 0.0:
            xl = x
        else:
            xh = x
    return x


@njit(cache=True, error_model="numpy", _nrt=False)
def _root_f(lo, hi, flo, fhi, wx, wy, bx, by, cx, cy, r2):
    """Root of f on [lo, hi] where f(lo) > 0 ≥ f(hi) and f is monotone: rtsafe started from
    the secant point."""
    xl = hi  # f < 0 side
    xh = lo  # f > 0 side
    x = lo + (hi - lo) * (flo / (flo - fhi))
    dxold = hi - lo
    dx = dxold
    fx = _f(x, wx, wy, bx, by, cx, cy, r2)
    dfx = 2.0 * _g(x, wx, wy, bx, by, cx, cy)
    for _ in range(100):
        if ((x - xh) * dfx - fx) * ((x - xl) * dfx - fx) > 0.0 or abs(2.0 * fx) > abs(dxold * dfx):
            dxold = dx
            dx = 0.5 * (xh - xl)
            x = xl + dx
        else:
            dxold = dx
            dx = fx / dfx
            x = x - dx
        if abs(dx) < XTOL_ROOT:
            break
        fx = _f(x, wx, wy, bx, by, cx, cy, r2)
        dfx = 2.0 * _g(x, wx, wy, bx, by, cx, cy)
        if fx <= 0.0:
            xl = x
        else:
            xh = x
    # never return a time before the bracket's first point inside f <= 0 by more than XTOL
    return x


@njit(cache=True, error_model="numpy", _nrt=False)
def _down_piece(x0, x1, f0, f1, thr, wx, wy, bx, by, cx, cy, r2):
    """Contact time in the monotone piece [x0, x1] of f, or -1: a decreasing piece that
    starts touching (f0 ≤ thr) gives x0, one that crosses zero gives the root."""
    if f1 < f0:  # decreasing piece: the only kind that can bring contact
        if f0 <= thr:
            return x0
        if f1 <= 0.0:
            if f1 == 0.0:
                return x1
            return _root_f(x0, x1, f0, f1, wx, wy, bx, by, cx, cy, r2)
    return -1.0


@njit(cache=True, error_model="numpy", _nrt=False)
def first_down_root(wx, wy, bx, by, cx, cy, rr, tmax, tol):
    """Earliest τ in [0, tmax] where f(τ) = |w + Bτ + Cτ²|² − rr² goes from > 0 to ≤ 0
    (contact while approaching), with the touching rule at the start of each monotone piece
    (gap ≤ tol and decreasing → contact there). inf if none.

    The roots of the quadratic h = g' (closed form) split [0, tmax] into pieces where the
    cubic g = f'/2 is monotone; each sign change of g there is a critical point of f (found
    by rtsafe); f is monotone between consecutive critical points. The pieces of f are
    examined in time order as soon as they are known, so the search stops at the first
    contact.
    """
    r2 = rr * rr
    thr = 2.0 * rr * tol
    # roots of h (quadratic) in (0, tmax)
    a2 = 6.0 * (cx * cx + cy * cy)
    a1 = 6.0 * (bx * cx + by * cy)
    a0 = bx * bx + by * by + 2.0 * (wx * cx + wy * cy)
    h1 = tmax
    h2 = tmax
    if a2 > 0.0:
        disc = a1 * a1 - 4.0 * a2 * a0
        if disc > 0.0:
            sq = math.sqrt(disc)
            if a1 >= 0.0:
                q = -0.5 * (a1 + sq)
            else:
                q = -0.5 * (a1 - sq)
            r1 = q / a2
            rb = a0 / q if q != 0.0 else r1
            if rb < r1:
                r1, rb = rb, r1
            if r1 > 0.0 and r1 < tmax:
                h1 = r1
                if rb > 0.0 and rb < tmax:
                    h2 = rb
            elif rb > 0.0 and rb < tmax:
                h1 = rb
    x0 = 0.0
    f0 = _f(0.0, wx, wy, bx, by, cx, cy, r2)
    lo = 0.0
    glo = _g(0.0, wx, wy, bx, by, cx, cy)
    for k in range(3):
        hi = h1 if k == 0 else (h2 if k == 1 else tmax)
        if hi <= lo:
            continue
        ghi = _g(hi, wx, wy, bx, by, cx, cy)
        if (glo < 0.0 and ghi >= 0.0) or (glo > 0.0 and ghi <= 0.0):
            c = _root_g(lo, hi, glo, ghi, wx, wy, bx, by, cx, cy)  # critical point of f
            fc = _f(c, wx, wy, bx, by, cx, cy, r2)
            r = _down_piece(x0, c, f0, fc, thr, wx, wy, bx, by, cx, cy, r2)
            if r >= 0.0:
                return r
            x0 = c
            f0 = fc
        lo = hi
        glo = ghi
        if hi >= tmax:
            break
    f1 = _f(tmax, wx, wy, bx, by, cx, cy, r2)
    r = _down_piece(x0, tmax, f0, f1, thr, wx, wy, bx, by, cx, cy, r2)
    if r >= 0.0:
        return r
    return INF


@njit(cache=True, error_model="numpy", _nrt=False)
def moving_vs_rest(xm, ym, sm, ux, uy, xr, yr, rr, a, tol):
    """Time (s) until a disc moving from (xm, ym) at speed sm along (ux, uy) touches a disc
    at rest at (xr, yr), rr = sum of radii; inf if never."""
    s = circle_hit(xm, ym, ux, uy, reach(sm, a), xr, yr, rr, tol)
    if s == INF:
        return INF
    return travel_time(s, sm, a)


@njit(cache=True, error_model="numpy", _nrt=False)
def pair_toi(xi, yi, si, uxi, uyi, xj, yj, sj, uxj, uyj, rr, a, tol):
    """Time (s) from now of the first contact of discs i and j (positions m, speeds m/s,
    unit headings), both decelerating at a (m/s²), rr = r_i + r_j; inf if none.

    Broad phase: each centre stays on the segment from its position to its rest point, so
    if the bounding boxes of those segments, or the segments themselves, are farther apart
    than rr the discs can never meet (this implies and sharpens |Δp| − rr > reach_i +
    reach_j). While both move, |d(τ)| ≥ d(τ)·ŵ (a quadratic) excludes most other pairs
    before the quartic is solved.
    """
    if si <= 0.0:
        if sj <= 0.0:
            return INF
        return moving_vs_rest(xj, yj, sj, uxj, uyj, xi, yi, rr, a, tol)
    if sj <= 0.0:
        return moving_vs_rest(xi, yi, si, uxi, uyi, xj, yj, rr, a, tol)
    ia = 1.0 / a
    di = 0.5 * si * si * ia  # reach (m) of each disc: v²/(2a)
    dj = 0.5 * sj * sj * ia
    exi = xi + uxi * di
    eyi = yi + uyi * di
    exj = xj + uxj * dj
    eyj = yj + uyj * dj
    lim = rr + tol
    # bounding boxes of the two swept paths, grown by rr
    if min(xi, exi) - lim > max(xj, exj) or min(xj, exj) - lim > max(xi, exi):
        return INF
    if min(yi, eyi) - lim > max(yj, eyj) or min(yj, eyj) - lim > max(yi, eyi):
        return INF
    ti = si * ia  # stop times (s)
    tj = sj * ia
    tm = min(ti, tj)
    # piece 1: both moving, quartic in τ
    wx = xi - xj
    wy = yi - yj
    bx = si * uxi - sj * uxj
    by = si * uyi - sj * uyj
    cx = -0.5 * a * (uxi - uxj)
    cy = -0.5 * a * (uyi - uyj)
    # cheap exclusion: |d(τ)| ≥ d(τ)·ŵ = |w| + (B·ŵ)τ + (C·ŵ)τ², a quadratic; if its minimum
    # on [0, tm] stays above rr + tol there is no contact while both move
    wn = math.sqrt(wx * wx + wy * wy)
    qmin = wn
    if wn > lim:
        iw = 1.0 / wn
        pb = (bx * wx + by * wy) * iw
        pc = (cx * wx + cy * wy) * iw
        qmin = min(wn, wn + tm * (pb + tm * pc))
        if pc > 0.0:
            tv = -pb / (2.0 * pc)
            if tv > 0.0 and tv < tm:
                qmin = min(qmin, wn + tv * (pb + tv * pc))
    if qmin <= lim * (1.0 + 1e-12):
        # the swept-segment distance bounds the whole motion (both pieces)
        if seg_seg_d2(xi, yi, exi, eyi, xj, yj, exj, eyj) > lim * lim * (1.0 + 1e-12):
            return INF
        tau = first_down_root(wx, wy, bx, by, cx, cy, rr, tm, tol)
        if tau < INF:
            return tau
    if ti == tj:
        return INF
    # piece 2: the first to stop rests at its end point, the other slides on
    if ti < tj:
        d = tm * (sj - 0.5 * a * tm)
        tau = moving_vs_rest(xj + uxj * d, yj + uyj * d, sj - si, uxj, uyj, exi, eyi, rr, a, tol)
    else:
        d = tm * (si - 0.5 * a * tm)
        tau = moving_vs_rest(xi + uxi * d, yi + uyi * d, si - sj, uxi, uyi, exj, eyj, rr, a, tol)
    return tm + tau
