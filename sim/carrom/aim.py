"""Shot geometry for the simulated players (compiled with numba, cached on disk).

Everything here works in the shooter's *local* frame (x along its base line, y forward;
metres, m/s, radians inside, degrees in outputs). A pot is planned with the ghost-ball
construction: to send a coin at C into the pocket at P along the unit vector u = (P − C)/|P − C|,
the striker's centre must reach G = C − (R_s + r_c)·u; the cut angle φ is between the
striker's path and u. A one-cushion rebound reaches G off a cushion whose restitution e_w
turns the path by tan θ' = tan θ / e_w (physics.md §5.5), so the bounce point on a cushion
line is, with a and b the distances of S and G from that line (along-line coordinates t):
t_B = t_S + (t_G − t_S)·e_w·a / (e_w·a + b).

A coin bank is the same construction for the coin: off one of the two cushions beside the
pocket (a coin frozen on that cushion is the limit a → 0: it slides along it).

The *prior* of a shot is an analytic estimate of its pot probability under a Gaussian
execution noise (physics.md §5.7): an aim error δθ over a path of length D and a position
error δx shift the impact parameter by σ_b = √((D·σ_θ)² + (σ_x·|d_y|)²), which turns the coin by
σ_b / ((R_s + r_c)·cos φ); the coin goes in if its direction error is below asin(capture/L).
Players rank candidates by it before simulating the best ones.

``params`` array layout (see :func:`make_params`):
    0 rs, 1 rc, 2 decel μg (m/s²), 3 kcoll = (1+e)·m_s/(m_s+m_c), 4 max_speed (m/s),
    5 σ_x (m), 6 σ_θ (rad), 7 σ_v (relative), 8 capture radius (m), 9 half side (m),
    10 e_w (cushion restitution), 11 striker_y (local, m), 12 pocket radius (m), then the
    player's aiming model (profile keys, :class:`~sim.carrom.players.CarromProfile`):
    13 cos of the thinnest cut (``max_cut_deg``), 14 ``coin_speed_factor``,
    15 ``coin_speed_margin`` (m/s), 16 ``pot_depth`` (capture radii), 17 ``pot_aperture``,
    18 ``rebound_prior_factor``, 19 ``rebound_pocket_clearance`` (pocket radii),
    20 ``bank_shift`` (capture radii), 21 ``position_good_enough``.

A candidate's clearance tests (no coin in the way) are the costly part: each is made only for
a shot whose prior would beat the best one found so far (the result is the same). The small
helpers are inlined into the loops (``inline="always"``): calls that pass arrays cost more
than the arithmetic.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["make_params", "pot_candidates", "best_pot", "LOCAL_POCKETS", "kind_name",
           "free_spans", "striker_grid", "clamp_many", "noisy_strikes", "N_PARAMS"]

# indices of the player's aiming model in the ``params`` array (see the module docstring)
P_COS_CUT, P_SPEED_FACTOR, P_SPEED_MARGIN, P_DEPTH, P_APERTURE = 13, 14, 15, 16, 17
P_REBOUND_FACTOR, P_REBOUND_CLEARANCE, P_BANK_SHIFT, P_GOOD_ENOUGH = 18, 19, 20, 21
N_PARAMS = 22

#: Routes: 0 direct / straight, 1..4 off the left, right, far, near cushion.
ROUTE_NAMES = ("", "left", "right", "far", "near")


def kind_name(wall: int, bank: int) -> str:
    """"cut", "rebound_left", "bank_near", "rebound_far+bank_right", ..."""
    parts = []
    if wall:
        parts.append(f"rebound_{ROUTE_NAMES[wall]}")
    if bank:
        parts.append(f"bank_{ROUTE_NAMES[bank]}")
    return "+".join(parts) or "cut"


def LOCAL_POCKETS(pocket_centre: float) -> np.ndarray:
    """(4, 2) pocket centres in any seat's local frame: near-left, near-right, far-right, far-left."""
    c = pocket_centre
    return np.array([(-c, -c), (c, -c), (c, c), (-c, c)], dtype=float)


def make_params(geo, profile) -> np.ndarray:
    """The parameter vector of the compiled functions for a board and a player: its noise
    (``position_sigma_m``, ``angle_sigma_deg``, ``speed_sigma_rel``) and aiming model (the
    profile keys listed in the module docstring)."""
    r = geo.rules
    kcoll = (1 + r.physics.restitution) * geo.ms / (geo.ms + geo.mc)
    return np.array([geo.rs, geo.rc, geo.decel, kcoll, r.striker.max_speed, profile.position_sigma_m,
                     math.radians(profile.angle_sigma_deg), profile.speed_sigma_rel, geo.capture, geo.half,
                     r.physics.cushion_restitution, geo.striker_y, r.board.pocket_radius,
                     math.cos(math.radians(profile.max_cut_deg)), profile.coin_speed_factor,
                     profile.coin_speed_margin, profile.pot_depth, profile.pot_aperture,
                     profile.rebound_prior_factor, profile.rebound_pocket_clearance, profile.bank_shift,
                     profile.position_good_enough], dtype=np.float64)


@njit(cache=True, inline="always")
def _seg_clear(ax, ay, bx, by, coins, on, skip, clearance):
    """No coin on the board (other than ``skip``) within ``clearance`` of segment a→b."""
    dx = bx - ax
    dy = by - ay
    l2 = dx * dx + dy * dy
    c2 = clearance * clearance
    for i in range(coins.shape[0]):
        if i == skip or not on[i]:
            continue
        px = coins[i, 0] - ax
        py = coins[i, 1] - ay
        t = 0.0
        if l2 > 0.0:
            t = (px * dx + py * dy) / l2
            if t < 0.0:
                t = 0.0
            elif t > 1.0:
                t = 1.0
        qx = px - t * dx
        qy = py - t * dy
        if qx * qx + qy * qy < c2:
            return False
    return True


@njit(cache=True, inline="always")
def _cushion(side, line, x1, y1, x2, y2):
    """A bounce off cushion ``side`` (1 left, 2 right, 3 far, 4 near) of a disc whose centre runs
    on the line at ±``line`` (m): (w, a, b, t1, t2) — the line's coordinate, the distances of
    points 1 and 2 from it, and their coordinates along it."""
    if side == 1 or side == 2:
        w = -line if side == 1 else line
        return w, abs(w - x1), abs(w - x2), y1, y2
    w = line if side == 3 else -line
    return w, abs(w - y1), abs(w - y2), x1, x2


@njit(cache=True, inline="always")
def _straight_leg(cx, cy, px, py, prm):
    """A coin's straight way to the pocket, its path not checked for coins: (ux, uy, L,
    v_coin, v_need); L < 1e-9: the coin is on the pocket's centre (nothing to plan)."""
    ux = px - cx
    uy = py - cy
    L = math.sqrt(ux * ux + uy * uy)
    if L < 1e-9:
        return 0.0, 0.0, L, 0.0, 0.0
    ux /= L
    uy /= L
    travel = L - prm[P_DEPTH] * prm[8]
    if travel < 0.0:
        travel = 0.0
    v_need = math.sqrt(2.0 * prm[2] * travel)
    return ux, uy, L, prm[P_SPEED_FACTOR] * v_need + prm[P_SPEED_MARGIN], v_need


@njit(cache=True)
def _coin_leg(cx, cy, px, py, bank, coins, on, target, prm):
    """The coin's way to the pocket: straight (bank 0) or off one cushion (1 left, 2 right,
    3 far, 4 near; the coin-centre line at ±(half − r_c)). A coin frozen on that cushion is
    the limit a → 0: it is driven slightly into the cushion and slides off it to the pocket.

    Returns (ux, uy, L_eff, v_coin, v_need, ok): the coin's start direction, the lever of a
    direction error (m), the planned and the least coin speed (m/s)."""
    rc = prm[1]
    decel = prm[2]
    capture = prm[8]
    if bank == 0:
        ux, uy, L, v_coin, v_need = _straight_leg(cx, cy, px, py, prm)
        if L < 1e-9:
            return 0.0, 0.0, 0.0, 0.0, 0.0, False
        if not _seg_clear(cx, cy, px, py, coins, on, target, 2.0 * rc):
            return ux, uy, L, 0.0, 0.0, False
        return ux, uy, L, v_coin, v_need, True
    half = prm[9]
    ew = prm[10]
    w, a, b, tc, tp = _cushion(bank, half - rc, cx, cy, px, py)
    if ew <= 0.0 or b <= 1e-9:
        return 0.0, 0.0, 0.0, 0.0, 0.0, False
    along = ew * (tp - tc)
    across = ew * a + b
    n = math.sqrt(along * along + across * across)
    ua = along / n
    un = across / n
    tb = tc + (tp - tc) * ew * a / (ew * a + b)
    if abs(tb) > half - prm[12]:
        return 0.0, 0.0, 0.0, 0.0, 0.0, False
    if bank == 1 or bank == 2:
        sgn = 1.0 if w > cx else -1.0
        ux = sgn * un
        uy = ua
        bx = w
        by = tb
    else:
        sgn = 1.0 if w > cy else -1.0
        ux = ua
        uy = sgn * un
        bx = tb
        by = w
    L1 = math.sqrt((tb - tc) ** 2 + a * a)
    L2 = math.sqrt((tp - tb) ** 2 + b * b)
    if not _seg_clear(cx, cy, bx, by, coins, on, target, 2.0 * rc):
        return ux, uy, 0.0, 0.0, 0.0, False
    if not _seg_clear(bx, by, px, py, coins, on, target, 2.0 * rc):
        return ux, uy, 0.0, 0.0, 0.0, False
    keep = math.sqrt(ua * ua + ew * ew * un * un)  # speed kept through the bounce
    travel = L2 - prm[P_DEPTH] * capture
    if travel < 0.0:
        travel = 0.0
    v_after = math.sqrt(2.0 * decel * travel)
    v_before = v_after / keep
    v_need = math.sqrt(v_before * v_before + 2.0 * decel * L1)
    gain = ew / (keep * keep)  # a direction error is turned by the bounce (tan θ' = tan θ / e_w)
    return ux, uy, L1 + gain * L2, prm[P_SPEED_FACTOR] * v_need + prm[P_SPEED_MARGIN], v_need, True


@njit(cache=True, inline="always")
def _leg_terms(L, v_coin, v_need, prm):
    """What the prior takes from the coin's leg alone: the direction error the pocket accepts
    (rad) and the probability that the coin is fast enough (physics.md §5.7)."""
    ratio = prm[P_APERTURE] * prm[8] / L
    if ratio > 1.0:
        ratio = 1.0
    acc = math.asin(ratio)
    margin = 1.0 - v_need / v_coin
    p_speed = 0.5 * (1.0 + math.erf(margin / (math.sqrt(2.0) * prm[7] + 1e-9)))
    return acc, p_speed


@njit(cache=True, inline="always")
def _prior(sb, cosphi, acc, p_speed, prm):
    """The pot probability of a strike whose impact parameter has σ ``sb`` (m) at cut cos φ."""
    sphi = sb / ((prm[0] + prm[1]) * cosphi) + 1e-9
    p_dir = math.erf(acc / (math.sqrt(2.0) * sphi))
    return p_dir * p_speed


@njit(cache=True, inline="always")
def _strike(sx, sy, cx, cy, ux, uy, v_coin, acc, p_speed, coins, on, target, wall, prm, w, floor):
    """The striker from (sx, sy) to the ghost position that sends the coin along (ux, uy),
    directly (wall 0) or off one cushion (1 left, 2 right, 3 far, 4 near).

    Returns (angle_deg, speed, prior); prior 0 if impossible or if prior × ``w`` would not
    beat ``floor`` (the best found so far: its path is then not checked for coins)."""
    if wall == 0:
        return _strike_direct(sx, sy, cx, cy, ux, uy, v_coin, acc, p_speed, coins, on, target, prm, w, floor)
    return _strike_rebound(sx, sy, cx, cy, ux, uy, v_coin, acc, p_speed, coins, on, target, wall, prm,
                           w, floor)


@njit(cache=True, inline="always")
def _strike_direct(sx, sy, cx, cy, ux, uy, v_coin, acc, p_speed, coins, on, target, prm, w, floor):
    rs = prm[0]
    rc = prm[1]
    half = prm[9]
    gx = cx - (rs + rc) * ux
    gy = cy - (rs + rc) * uy
    if abs(gx) > half - rs or abs(gy) > half - rs:
        return 0.0, 0.0, 0.0
    if cy <= sy:  # a coin level with or behind the base line may not be struck directly
        return 0.0, 0.0, 0.0
    dx = gx - sx
    dy = gy - sy
    D = math.sqrt(dx * dx + dy * dy)
    if D < 1e-9 or dy < 0.0:
        return 0.0, 0.0, 0.0
    dx /= D
    dy /= D
    cosphi = dx * ux + dy * uy
    if cosphi < prm[P_COS_CUT]:
        return 0.0, 0.0, 0.0
    u = v_coin / (prm[3] * cosphi)
    v0 = math.sqrt(u * u + 2.0 * prm[2] * D)
    if v0 > prm[4]:
        return 0.0, 0.0, 0.0
    sb = math.sqrt((D * prm[6]) ** 2 + (prm[5] * abs(dy)) ** 2)
    prior = _prior(sb, cosphi, acc, p_speed, prm)
    if prior * w <= floor:
        return 0.0, 0.0, 0.0
    if not _seg_clear(sx, sy, gx, gy, coins, on, target, rs + rc):
        return 0.0, 0.0, 0.0
    return math.degrees(math.atan2(-dx, dy)), v0, prior


@njit(cache=True, inline="always")
def _strike_rebound(sx, sy, cx, cy, ux, uy, v_coin, acc, p_speed, coins, on, target, wall, prm, w, floor):
    rs = prm[0]
    rc = prm[1]
    decel = prm[2]
    half = prm[9]
    ew = prm[10]
    gx = cx - (rs + rc) * ux
    gy = cy - (rs + rc) * uy
    if abs(gx) > half - rs or abs(gy) > half - rs or ew <= 0.0:
        return 0.0, 0.0, 0.0
    w_line, a, b, ts, tg = _cushion(wall, half - rs, sx, sy, gx, gy)
    if a < 1e-6 or b < 1e-6:
        return 0.0, 0.0, 0.0
    tb = ts + (tg - ts) * ew * a / (ew * a + b)
    if abs(tb) > half - prm[P_REBOUND_CLEARANCE] * prm[12] - rs:  # the bounce stays clear of the pockets
        return 0.0, 0.0, 0.0
    if wall == 1 or wall == 2:
        bx = w_line
        by = tb
    else:
        bx = tb
        by = w_line
    d1x = bx - sx
    d1y = by - sy
    D1 = math.sqrt(d1x * d1x + d1y * d1y)
    d2x = gx - bx
    d2y = gy - by
    D2 = math.sqrt(d2x * d2x + d2y * d2y)
    if D1 < 1e-9 or D2 < 1e-9:
        return 0.0, 0.0, 0.0
    d1x /= D1
    d1y /= D1
    d2x /= D2
    d2y /= D2
    cosphi = d2x * ux + d2y * uy
    if cosphi < prm[P_COS_CUT]:
        return 0.0, 0.0, 0.0
    if wall == 1 or wall == 2:
        tn = abs(d1x)
        tt = abs(d1y)
    else:
        tn = abs(d1y)
        tt = abs(d1x)
    keep = math.sqrt(tt * tt + ew * ew * tn * tn)  # speed kept through the bounce
    u = v_coin / (prm[3] * cosphi)
    u_after = math.sqrt(u * u + 2.0 * decel * D2)
    u_before = u_after / keep
    v0 = math.sqrt(u_before * u_before + 2.0 * decel * D1)
    if v0 > prm[4]:
        return 0.0, 0.0, 0.0
    gain = ew / (keep * keep)  # an aim error is turned by the bounce
    sb = math.sqrt(((D1 + gain * D2) * prm[6]) ** 2 + (prm[5] * abs(d1y)) ** 2)
    prior = prm[P_REBOUND_FACTOR] * _prior(sb, cosphi, acc, p_speed, prm)
    if prior * w <= floor:
        return 0.0, 0.0, 0.0
    if not _seg_clear(sx, sy, bx, by, coins, on, -1, rs + rc):  # the target too, before the cushion
        return 0.0, 0.0, 0.0
    if not _seg_clear(bx, by, gx, gy, coins, on, target, rs + rc):
        return 0.0, 0.0, 0.0
    return math.degrees(math.atan2(-d1x, d1y)), v0, prior


@njit(cache=True, inline="always")
def _clamp_to(x, spans):
    """The nearest point of the union of intervals ``spans`` (k, 2) to x."""
    best = x
    bd = 1e18
    for k in range(spans.shape[0]):
        c = x
        if c < spans[k, 0]:
            c = spans[k, 0]
        elif c > spans[k, 1]:
            c = spans[k, 1]
        d = abs(c - x)
        if d < bd:
            bd = d
            best = c
    return best


@njit(cache=True)
def clamp_many(x, spans):
    """The nearest point of the union of ``spans`` (k, 2) for every element of ``x`` (1-D)."""
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = _clamp_to(x[i], spans)
    return out


@njit(cache=True)
def free_spans(coins_local, legal, y, reach):
    """Local x intervals where the striker may stand: inside a ``legal`` interval (k, 2) and
    farther than ``reach`` (striker + coin radius, m) from every coin of ``coins_local``
    (M, 2, the shooter's frame), the striker's centre on the line at ``y``.

    Returns:
        (n, 2) intervals, in increasing order.
    """
    m = coins_local.shape[0]
    blo = np.empty(m)
    bhi = np.empty(m)
    nb = 0
    for i in range(m):
        dy = coins_local[i, 1] - y
        if abs(dy) < reach:
            half = math.sqrt(reach * reach - dy * dy) + 1e-7
            blo[nb] = coins_local[i, 0] - half
            bhi[nb] = coins_local[i, 0] + half
            nb += 1
    out = np.empty((legal.shape[0] * (nb + 1), 2))
    n_out = 0
    plo = np.empty(nb + 1)
    phi = np.empty(nb + 1)
    qlo = np.empty(nb + 1)
    qhi = np.empty(nb + 1)
    for k in range(legal.shape[0]):
        plo[0] = legal[k, 0]
        phi[0] = legal[k, 1]
        n_p = 1
        for j in range(nb):
            n_q = 0
            for q in range(n_p):
                if bhi[j] <= plo[q] or blo[j] >= phi[q]:
                    qlo[n_q] = plo[q]
                    qhi[n_q] = phi[q]
                    n_q += 1
                    continue
                if blo[j] > plo[q]:
                    qlo[n_q] = plo[q]
                    qhi[n_q] = blo[j]
                    n_q += 1
                if bhi[j] < phi[q]:
                    qlo[n_q] = bhi[j]
                    qhi[n_q] = phi[q]
                    n_q += 1
            for q in range(n_q):
                plo[q] = qlo[q]
                phi[q] = qhi[q]
            n_p = n_q
        for q in range(n_p):
            if phi[q] >= plo[q]:
                out[n_out, 0] = plo[q]
                out[n_out, 1] = phi[q]
                n_out += 1
    return out[:n_out].copy()


@njit(cache=True)
def noisy_strikes(x, angle, speed, z, sigma, vmax, sy, spans, rot):
    """The board start positions and velocities of noisy executions of intended strokes.

    Args:
        x, angle, speed: (C,) intended strokes in the shooter's frame (m, deg, m/s).
        z: (3, C, S) standard normals (position, angle, speed), as
            :func:`sim.physics.execute_shots` draws them for ``samples=S``.
        sigma: (3,) the noise's σ: position (m), angle (deg), relative speed.
        vmax: the striker's maximum speed (m/s); sy: the base line's local y (m).
        spans: (k, 2) free striker intervals (an executed position is clamped into them).
        rot: (2, 2) local→board rotation of the shooter.

    Returns:
        (C·S, 2) start positions and (C·S, 2) velocities (board frame), candidate-major: the
        same numbers as ``execute_shots`` then :func:`sim.physics.heading`.
    """
    nc = z.shape[1]
    ns = z.shape[2]
    starts = np.empty((nc * ns, 2))
    vels = np.empty((nc * ns, 2))
    for c in range(nc):
        for s in range(ns):
            k = c * ns + s
            ex = _clamp_to(x[c] + sigma[0] * z[0, c, s], spans)
            a = math.radians(angle[c] + sigma[1] * z[1, c, s])
            ev = min(max(speed[c] * (1.0 + sigma[2] * z[2, c, s]), 0.0), vmax)
            dx = -math.sin(a)
            dy = math.cos(a)
            starts[k, 0] = ex * rot[0, 0] + sy * rot[0, 1]
            starts[k, 1] = ex * rot[1, 0] + sy * rot[1, 1]
            vels[k, 0] = (dx * rot[0, 0] + dy * rot[0, 1]) * ev
            vels[k, 1] = (dx * rot[1, 0] + dy * rot[1, 1]) * ev
    return starts, vels


@njit(cache=True)
def striker_grid(spans, step):
    """Striker positions to try: every free interval cut into pieces of about ``step`` (m),
    both ends included (numpy's ``linspace`` on each interval); a point interval once."""
    total = 0
    for k in range(spans.shape[0]):
        lo = spans[k, 0]
        hi = spans[k, 1]
        n = int(np.rint((hi - lo) / step))
        total += (max(1, n) + 1) if hi > lo else 1
    xs = np.empty(total)
    i = 0
    for k in range(spans.shape[0]):
        lo = spans[k, 0]
        hi = spans[k, 1]
        if not hi > lo:
            xs[i] = lo
            i += 1
            continue
        n = max(1, int(np.rint((hi - lo) / step)))
        delta = hi - lo
        d = delta / n
        for j in range(n + 1):
            xs[i + j] = (j / n) * delta + lo if d == 0.0 else j * d + lo
        xs[i + n] = hi
        i += n + 1
    return xs


_INV_SQRT2 = 1.0 / math.sqrt(2.0)

#: The two cushions beside each local pocket (for coin banks): left 1, right 2, far 3, near 4.
_POCKET_CUSHIONS = np.array([[1, 4], [2, 4], [2, 3], [1, 3]], dtype=np.int64)


@njit(cache=True)
def _legs(coins, targets, on, pockets, prm):
    """Every coin leg of :func:`pot_candidates`, one row per (target, pocket, coin route):
    ux, uy, v_coin, acc, p_speed, ok (1/0), bank."""
    capture = prm[8]
    nt = targets.shape[0]
    legs = np.zeros((nt * 20, 7))
    for ti in range(nt):
        t = targets[ti]
        for p in range(4):
            for bi in range(5):
                # straight at the pocket centre; banks off either cushion beside the pocket, at
                # its centre or at a point half a capture radius nearer the board's centre
                # (a steeper bank, for coins frozen on the cushion)
                bank = 0 if bi == 0 else _POCKET_CUSHIONS[p, (bi - 1) % 2]
                shift = 0.0 if bi < 3 else prm[P_BANK_SHIFT] * capture
                ax = pockets[p, 0] - math.copysign(shift, pockets[p, 0]) * _INV_SQRT2
                ay = pockets[p, 1] - math.copysign(shift, pockets[p, 1]) * _INV_SQRT2
                ux, uy, L, v_coin, v_need, ok = _coin_leg(coins[t, 0], coins[t, 1], ax, ay, bank, coins, on, t,
                                                          prm)
                L *= capture / (capture - shift)  # less of the pocket is left either side
                acc, p_speed = _leg_terms(L, v_coin, v_need, prm) if ok else (0.0, 0.0)
                k = (ti * 4 + p) * 5 + bi
                legs[k, 0] = ux
                legs[k, 1] = uy
                legs[k, 2] = v_coin
                legs[k, 3] = acc
                legs[k, 4] = p_speed
                legs[k, 5] = 1.0 if ok else 0.0
                legs[k, 6] = bank
    return legs


@njit(cache=True, inline="always")
def _cos_from(x, sy, gx, gy, ux, uy):
    """cos φ of a direct strike from (x, sy) to the ghost (gx, gy) for the coin direction u."""
    dx = gx - x
    dy = gy - sy
    d = math.sqrt(dx * dx + dy * dy)
    return (dx * ux + dy * uy) / d if d > 1e-12 else 1.0


@njit(cache=True)
def _prior_bound(cx, cy, ux, uy, acc, p_speed, wall, xlo, xhi, prm):
    """An upper bound of the prior of any striker position in [xlo, xhi] for a leg and a
    striker route. The aim lever is at least the ghost's distance D from that stretch of the
    base line (a rebound's: min(1, e_w) × D); a direct cut is at best as full as from the
    best point of the stretch (cos φ = cos(θ − θ_u) for the path's direction θ, monotonic
    along the line: the best is the full cut if it lies within, else an end); a rebound's
    cos φ <= 1."""
    if p_speed <= 0.0:
        return 0.0
    rs = prm[0]
    rc = prm[1]
    sy = prm[11]
    gx = cx - (rs + rc) * ux
    gy = cy - (rs + rc) * uy
    near = min(max(gx, xlo), xhi)
    reach = math.sqrt((gx - near) ** 2 + (gy - sy) ** 2)
    factor = 1.0
    cos_max = 1.0
    if wall > 0:
        reach *= min(1.0, prm[10])
        factor = prm[P_REBOUND_FACTOR]
    else:
        cos_max = max(_cos_from(xlo, sy, gx, gy, ux, uy), _cos_from(xhi, sy, gx, gy, ux, uy))
        if uy > 1e-12:  # the full cut, from where the coin's line meets the base line, if within
            x_line = min(max(gx - (gy - sy) * ux / uy, xlo), xhi)
            cos_max = max(cos_max, _cos_from(x_line, sy, gx, gy, ux, uy))
        cos_max = min(1.0, cos_max + 1e-9)
        if cos_max <= 0.0:
            return 0.0
    sphi = reach * prm[6] / ((rs + rc) * cos_max) + 1e-9
    bound = factor * math.erf(acc / (math.sqrt(2.0) * sphi)) * p_speed
    return bound * (1.0 + 1e-9) + 1e-15  # round-off: never below the exact prior


@njit(cache=True)
def pot_candidates(coins, on, targets, pockets, xs, spans, rebounds, prm, rank_worth, keep, min_prior):
    """Best striker position for every (target coin, pocket, striker route, coin route).

    Striker routes: 0 direct, 1..4 off the left / right / far / near cushion (with
    ``rebounds``). Coin routes: 0 straight, else a bank off one of the two cushions beside
    the pocket (1..4 as above), which includes sliding a coin frozen on that cushion; banks
    are also tried at a point half a capture radius inside the pocket's centre (steeper).

    With ``keep`` > 0 only the rows that may rank among the ``keep`` best by prior ×
    ``rank_worth`` of their target, among those with a prior above ``min_prior``, are searched
    (the others get prior 0): rows are taken by decreasing :func:`_prior_bound` × worth, and
    one whose bound is below the ``keep``-th best score found is skipped — the ``keep`` best
    rows are the same as without skipping.

    Args:
        coins: (19, 2) local coin centres; on: (19,) bool, coins on the board.
        targets: (T,) coin ids to pot.
        pockets: (4, 2) local pocket centres.
        xs: (X,) striker positions to try (legal and free, local m).
        spans: (k, 2) free striker intervals (the straight-line position is clamped into them).
        prm: see :func:`make_params`.
        rank_worth: (T,) worth of each target when ranking (>= 0); keep: rows wanted (0: all);
        min_prior: rows with a prior at most this do not count among them.

    Returns:
        (T·4·25, 8) rows: target, pocket, striker route, coin route, x, angle_deg, speed,
        prior (prior 0: impossible or skipped).
    """
    nt = targets.shape[0]
    legs = _legs(coins, targets, on, pockets, prm)
    out = np.zeros((nt * 100, 8))
    bound = np.zeros(nt * 100)
    possible = np.zeros(nt * 100, np.bool_)
    xlo = spans[0, 0]
    xhi = spans[spans.shape[0] - 1, 1]
    for row in range(nt * 100):
        leg = row // 5
        wall = row % 5
        ti = row // 100
        out[row, 0] = targets[ti]
        out[row, 1] = (row // 25) % 4
        out[row, 2] = wall
        out[row, 3] = legs[leg, 6]
        if legs[leg, 5] > 0 and (wall == 0 or rebounds):
            t = targets[ti]
            prior = _prior_bound(coins[t, 0], coins[t, 1], legs[leg, 0], legs[leg, 1], legs[leg, 3], legs[leg, 4],
                                 wall, xlo, xhi, prm)
            possible[row] = prior > 0.0
            bound[row] = prior * rank_worth[ti]
    top = np.full(max(keep, 1), -np.inf)  # the keep best scores found, the smallest first
    for row in np.argsort(-bound, kind="mergesort"):
        if not possible[row] or (keep > 0 and bound[row] < top[0]):
            continue
        _search_row(out, row, coins, on, legs[row // 5], xs, spans, prm)
        score = out[row, 7] * rank_worth[row // 100]
        if keep > 0 and out[row, 7] > min_prior and score > top[0]:
            top[0] = score
            top.sort()
    return out


@njit(cache=True)
def _search_row(out, row, coins, on, leg, xs, spans, prm):
    """The best striker position of one row of :func:`pot_candidates` (on the coin's line
    through the base line, then the grid ``xs``), written into ``out[row, 4:8]``."""
    sy = prm[11]
    t = int(out[row, 0])
    wall = int(out[row, 2])
    cx = coins[t, 0]
    cy = coins[t, 1]
    ux = leg[0]
    uy = leg[1]
    best = 0.0
    for k in range(xs.shape[0] + 1):
        if k == 0:
            if abs(uy) < 1e-9:
                continue
            x = _clamp_to(cx + (sy - cy) / uy * ux, spans)
        else:
            x = xs[k - 1]
        a, v, pr = _strike(x, sy, cx, cy, ux, uy, leg[2], leg[3], leg[4], coins, on, t, wall, prm, 1.0, best)
        if pr > best:
            best = pr
            out[row, 4] = x
            out[row, 5] = a
            out[row, 6] = v
            out[row, 7] = pr


@njit(cache=True)
def best_pot(local, on, weights, pockets, xs, spans, prm):
    """The best weighted direct pot a shooter has: max over coins, pockets and striker
    positions of prior × weight (0: nothing); the search stops at a pot worth
    ``position_good_enough`` × the best target's weight.

    Args:
        local: (M, 2) coin centres in the shooter's frame; on: (M,) bool, on the board.
        weights: (M,) worth of potting each coin (<= 0: not a target).
        pockets, xs, spans, prm: as in :func:`pot_candidates` (no rebounds).
    """
    sy = prm[11]
    xlo = spans[0, 0]
    xhi = spans[spans.shape[0] - 1, 1]
    if xs.shape[0] > 0:
        xlo = min(xlo, xs.min())
        xhi = max(xhi, xs.max())
    best = 0.0
    wmax = 0.0
    for t in range(local.shape[0]):
        if on[t] and weights[t] > wmax:
            wmax = weights[t]
    for t in range(local.shape[0]):
        w = weights[t]
        if w <= 0.0 or not on[t] or w <= best:
            continue
        cx = local[t, 0]
        cy = local[t, 1]
        if cy <= sy:
            continue
        for p in range(4):
            ux, uy, L, v_coin, v_need = _straight_leg(cx, cy, pockets[p, 0], pockets[p, 1], prm)
            if L < 1e-9:
                continue
            acc, p_speed = _leg_terms(L, v_coin, v_need, prm)
            if _prior_bound(cx, cy, ux, uy, acc, p_speed, 0, xlo, xhi, prm) * w <= best:
                continue  # no striker position can beat the best (then its path is not checked)
            if not _seg_clear(cx, cy, pockets[p, 0], pockets[p, 1], local, on, t, 2.0 * prm[1]):
                continue
            for j in range(xs.shape[0] + 1):
                if j == 0:
                    if abs(uy) < 1e-9:
                        continue
                    x = _clamp_to(cx + (sy - cy) / uy * ux, spans)
                else:
                    x = xs[j - 1]
                a, v, pr = _strike(x, sy, cx, cy, ux, uy, v_coin, acc, p_speed, local, on, t, 0, prm, w,
                                   best)
                if pr * w > best:
                    best = pr * w
            if best >= prm[P_GOOD_ENOUGH] * wmax:
                break
        if best >= prm[P_GOOD_ENOUGH] * wmax:
            break
    return best
