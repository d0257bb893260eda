"""Resolve: what each event does to the discs it involves (compiled helpers).

One function per event kind, called by the loop in `sim.physics.engine` (which only
dispatches): `resolve_discs` (DISC), `resolve_wall` (WALL), `resolve_obstacle` (OBSTACLE),
`resolve_out` (OUT) and `resolve_pocket` (POCKET). Each evolves the disc(s) to the event time
and sets their new closed-form motion (`sim.physics.state`); the impulse models below them are
pure functions of velocities.

* Disc–disc: normal impulse J_n = (1 + e)·m_eff·u_n along the line of centres (Newton's
  restitution law for a frictionless impact, docs/physics.md; m_eff = m1·m2/(m1 + m2), u_n
  the approach speed). With contact friction μ_c > 0 a tangential impulse follows Coulomb
  friction in the impact for solid discs (I = ½mR², docs/physics.md): one unit of
  tangential impulse changes the contact slip by 3/m_eff, so sticking needs
  J_t* = m_eff·slip/3; if |J_t*| ≤ μ_c·J_n the discs stick (slip ends), otherwise they slide
  with |J_t| = μ_c·J_n. Spin ω (rad/s, counterclockwise positive) is tracked per disc for
  this purpose only: it does NOT feed back into the sliding motion on the board (a disc's
  path is still the straight Coulomb-friction line) and it is carried unchanged between
  impacts (no spin-decay model: in the 60 fps slow-motion measurement of a carrom punch shot
  of the anbarsode/carrom_punch notebook, striker 1.2 m/s and 9.5 rad/s after impact, spin
  holds ~4 % of the translational energy).
* Wall / obstacle: v_n' = −e_w·v_n, v_t' = v_t (restitution on the normal component only,
  the tangential one kept: docs/physics.md), so tan θ' = tan θ / e_w.
* Out element: removes the disc (status OUT, stopped where it touched) when its packed
  restitution is REMOVE_AT_CONTACT; otherwise bounces it like a wall or post with that
  restitution and marks it LOST (it goes on moving and colliding until the shot ends).
* Pocket: the disc is POCKETED and stops where its centre entered the capture circle.
* Overlap guard: after a wall / obstacle / out bounce a disc inside the body by round-off is
  pushed out along the normal; after a disc–disc impact the pair is set KISS_GAP_M apart, half
  each (see below).
Units: metres, seconds, kilograms, m/s.
"""

import math

from numba import njit

from .constants import REMOVE_AT_CONTACT, STATUS_LOST, STATUS_OUT, STATUS_POCKETED, TOUCH_TOL_M
from .state import MASS, RAD, UX, UY, W, at, set_motion

#: Gap (m) set between two discs right after their impact. Two sliding discs whose friction
#: decelerations point different ways can be pressed together with zero approach speed (a
#: "pushing" contact, which straight-line Coulomb motion cannot represent); an impulse at zero
#: approach speed is zero and the same contact would be found again at the same instant
#: forever. Separating the pair by 2e-9 m (energy-neutral: positions only) makes every new
#: contact a genuine crossing with a positive approach speed, so a pushing contact becomes a
#: short train of small dissipative impacts. Each disc moves by at most 1e-9 m
#: (= TOUCH_TOL_M), so this never leaves an overlap beyond the contact tolerance.
KISS_GAP_M = 2.0 * TOUCH_TOL_M


@njit(cache=True, error_model="numpy", _nrt=False)
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


@njit(cache=True, error_model="numpy", _nrt=False)
def bounce(vx, vy, nx, ny, e):
    """Velocity after hitting a fixed body with unit normal (nx, ny) pointing toward the disc:
    v_n' = −e·v_n if approaching, tangential part unchanged."""
    vn = vx * nx + vy * ny
    if vn >= 0.0:
        return vx, vy
    k = (1.0 + e) * vn
    return vx - k * nx, vy - k * ny


@njit(cache=True, error_model="numpy", _nrt=False)
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


@njit(cache=True, error_model="numpy", _nrt=False)
def separate_discs(xa, ya, ra, xb, yb, rb, gap):
    """After an impact: set the centre distance to at least r_a + r_b + gap by moving each
    disc half the shortfall along the line of centres (the "kiss", as in pooltool). Returns
    new (xa, ya, xb, yb). See KISS_GAP_M for why a gap is needed."""
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


@njit(cache=True, error_model="numpy", _nrt=False)
def circle_normal(px, py, cx, cy, ux, uy):
    """Unit normal from a circle's centre (cx, cy) toward (px, py) and the centre distance
    (m); straight back along -(ux, uy) if the points coincide (invalid layout)."""
    nx = px - cx
    ny = py - cy
    d = math.sqrt(nx * nx + ny * ny)
    if d > 0.0:
        return nx / d, ny / d, d
    return -ux, -uy, d


# ------------------------------------------------------------------- one function per kind
@njit(cache=True, error_model="numpy", _nrt=False)
def resolve_discs(S, i, k, t, a, e, mu_c):
    """DISC event between discs i and k at time t: impulses, then the KISS_GAP_M kiss."""
    xa, ya, sa = at(S, i, t, a)
    xb, yb, sb = at(S, k, t, a)
    vxa, vya, wa, vxb, vyb, wb = disc_disc(
        xa,
        ya,
        sa * S[i, UX],
        sa * S[i, UY],
        S[i, W],
        S[i, RAD],
        S[i, MASS],
        xb,
        yb,
        sb * S[k, UX],
        sb * S[k, UY],
        S[k, W],
        S[k, RAD],
        S[k, MASS],
        e,
        mu_c,
    )
    xa, ya, xb, yb = separate_discs(xa, ya, S[i, RAD], xb, yb, S[k, RAD], KISS_GAP_M)
    set_motion(S, i, t, xa, ya, vxa, vya, a)
    set_motion(S, k, t, xb, yb, vxb, vyb, a)
    S[i, W] = wa
    S[k, W] = wb


@njit(cache=True, error_model="numpy", _nrt=False)
def _bounce_off(S, i, t, a, x, y, sp, nx, ny, d, e):
    """Disc i at (x, y), speed sp, hits a fixed body whose surface is at distance d (m) along
    the unit normal (nx, ny): reflect with restitution e, push out any round-off penetration."""
    vx, vy = bounce(sp * S[i, UX], sp * S[i, UY], nx, ny, e)
    r = S[i, RAD]
    if d < r:  # round-off penetration: push out along the normal
        push = (r - d) * (1.0 + 1e-12)
        x += push * nx
        y += push * ny
    set_motion(S, i, t, x, y, vx, vy, a)


@njit(cache=True, error_model="numpy", _nrt=False)
def resolve_wall(S, i, t, a, walls, k):
    """WALL event: disc i bounces off wall k (packed row: restitution in column 4)."""
    x, y, sp = at(S, i, t, a)
    nx, ny, d = segment_normal(x, y, walls[k, 0], walls[k, 1], walls[k, 5], walls[k, 6], walls[k, 7])
    _bounce_off(S, i, t, a, x, y, sp, nx, ny, d, walls[k, 4])


@njit(cache=True, error_model="numpy", _nrt=False)
def resolve_obstacle(S, i, t, a, obst, k):
    """OBSTACLE event: disc i bounces off round post k (x, y, radius, restitution)."""
    x, y, sp = at(S, i, t, a)
    nx, ny, d = circle_normal(x, y, obst[k, 0], obst[k, 1], S[i, UX], S[i, UY])
    _bounce_off(S, i, t, a, x, y, sp, nx, ny, d - obst[k, 2], obst[k, 3])


@njit(cache=True, error_model="numpy", _nrt=False)
def resolve_out(S, status, i, t, a, outs, outc, b):
    """OUT event: disc i touches out element b (segments first, then circles, offset by the
    number of segments). Packed restitution REMOVE_AT_CONTACT: the disc is OUT and stops
    here; otherwise it bounces off with that restitution and is LOST."""
    x, y, sp = at(S, i, t, a)
    n_seg = outs.shape[0]
    e = outs[b, 4] if b < n_seg else outc[b - n_seg, 3]
    if e == REMOVE_AT_CONTACT:
        status[i] = STATUS_OUT
        set_motion(S, i, t, x, y, 0.0, 0.0, a)
        return
    status[i] = STATUS_LOST
    if b < n_seg:
        nx, ny, d = segment_normal(x, y, outs[b, 0], outs[b, 1], outs[b, 5], outs[b, 6], outs[b, 7])
    else:
        c = b - n_seg
        nx, ny, d = circle_normal(x, y, outc[c, 0], outc[c, 1], S[i, UX], S[i, UY])
        d -= outc[c, 2]
    _bounce_off(S, i, t, a, x, y, sp, nx, ny, d, e)


@njit(cache=True, error_model="numpy", _nrt=False)
def resolve_pocket(S, status, i, t, a):
    """POCKET event: disc i is POCKETED and stops where its centre entered the pocket."""
    x, y, _ = at(S, i, t, a)
    status[i] = STATUS_POCKETED
    set_motion(S, i, t, x, y, 0.0, 0.0, a)
