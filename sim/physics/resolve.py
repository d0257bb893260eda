"""Resolve: what an impact does to the velocities (compiled helpers).

* Disc–disc: normal impulse J_n = (1 + e)·m_eff·u_n along the line of centres (physics.md
  §5.3–5.4; m_eff = m1·m2/(m1 + m2), u_n the approach speed). With contact friction μ_c > 0
  a tangential impulse follows physics.md §5.6 for solid discs (I = ½mR²): one unit of
  tangential impulse changes the contact slip by 3/m_eff, so sticking needs
  J_t* = m_eff·slip/3; if |J_t*| ≤ μ_c·J_n the discs stick (slip ends), otherwise they slide
  with |J_t| = μ_c·J_n. Spin ω (rad/s, counterclockwise positive) is tracked per disc for
  this purpose only: it does NOT feed back into the sliding motion on the board (a disc's
  path is still the straight Coulomb-friction line) and it is carried unchanged between
  impacts (no spin-decay model; physics.md §3 puts spin energy at ~4 % of translation).
* Wall / obstacle: v_n' = −e_w·v_n, v_t' = v_t (physics.md §5.5), so tan θ' = tan θ / e_w.
* Overlap guard: after a wall / obstacle impact a disc inside the wall by round-off is pushed
  out along the normal; after a disc–disc impact the pair is set KISS_GAP_M apart, half each
  (see `sim.physics.engine`).
Units: metres, seconds, kilograms, m/s.
"""

import math

from numba import njit


@njit(cache=True, error_model="numpy")
def disc_disc(xa, ya, vxa, vya, wa, ra, ma, xb, yb, vxb, vyb, wb, rb, mb, e, mu_c):
    """Velocities and spins after an impact of disc a on disc b.

    Returns (vxa, vya, wa, vxb, vyb, wb). No impulse if the discs are not approaching along
    the line of centres (grazing or separating).
    """
    nx = xb - xa
    ny = yb - ya
    d = math.sqrt(nx * nx + ny * ny)
    if d <= 0.0:
        return vxa, vya, wa, vxb, vyb, wb
    nx /= d
    ny /= d
    un = (vxa - vxb) * nx + (vya - vyb) * ny  # > 0: approaching
    if un <= 0.0:
        return vxa, vya, wa, vxb, vyb, wb
    meff = ma * mb / (ma + mb)
    jn = (1.0 + e) * meff * un
    # slip of a's contact point relative to b's, along t = z × n (unchanged by J_n)
    tx = -ny
    ty = nx
    slip = (vxa - vxb) * tx + (vya - vyb) * ty + wa * ra + wb * rb
    vxa -= jn / ma * nx
    vya -= jn / ma * ny
    vxb += jn / mb * nx
    vyb += jn / mb * ny
    if mu_c > 0.0 and slip != 0.0:
        jt = meff * slip / 3.0  # sticking impulse
        jmax = mu_c * jn
        if abs(jt) > jmax:
            jt = math.copysign(jmax, slip)  # sliding: Coulomb limit
        vxa -= jt / ma * tx
        vya -= jt / ma * ty
        vxb += jt / mb * tx
        vyb += jt / mb * ty
        wa -= 2.0 * jt / (ma * ra)
        wb -= 2.0 * jt / (mb * rb)
    return vxa, vya, wa, vxb, vyb, wb


@njit(cache=True, error_model="numpy")
def bounce(vx, vy, nx, ny, e):
    """Velocity after hitting a fixed body with unit normal (nx, ny) pointing toward the disc:
    v_n' = −e·v_n if approaching, tangential part unchanged."""
    vn = vx * nx + vy * ny
    if vn >= 0.0:
        return vx, vy
    k = (1.0 + e) * vn
    return vx - k * nx, vy - k * ny


@njit(cache=True, error_model="numpy")
def segment_normal(px, py, x1, y1, tx, ty, length):
    """Unit normal from the closest point of a segment toward (px, py), and the distance (m).
    The closest point may be an end point (end points act as zero-radius posts)."""
    lam = (px - x1) * tx + (py - y1) * ty
    if lam < 0.0:
        lam = 0.0
    elif lam > length:
        lam = length
    nx = px - (x1 + lam * tx)
    ny = py - (y1 + lam * ty)
    d = math.sqrt(nx * nx + ny * ny)
    if d <= 0.0:
        return -ty, tx, 0.0
    return nx / d, ny / d, d


@njit(cache=True, error_model="numpy")
def separate_discs(xa, ya, ra, xb, yb, rb, gap):
    """After an impact: set the centre distance to at least r_a + r_b + gap by moving each
    disc half the shortfall along the line of centres (the "kiss", as in pooltool). Returns
    new (xa, ya, xb, yb). See engine.KISS_GAP_M for why a gap is needed."""
    nx = xb - xa
    ny = yb - ya
    d = math.sqrt(nx * nx + ny * ny)
    rr = ra + rb + gap
    if d >= rr or d <= 0.0:
        return xa, ya, xb, yb
    ov = 0.5 * (rr - d)
    nx /= d
    ny /= d
    return xa - ov * nx, ya - ov * ny, xb + ov * nx, yb + ov * ny
