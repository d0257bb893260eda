"""Shot geometry for the simulated players (compiled with numba, cached on disk).

Everything here works in the shooter's *local* frame (x along its base line, y forward;
metres, m/s, radians inside, degrees in outputs). A pot is planned with the ghost-ball
construction: to send a coin at C into the pocket at P along the unit vector u = (P − C)/|P − C|,
the striker's centre must reach G = C − (R_s + r_c)·u; the cut angle φ is between the
striker's path and u. A one-cushion rebound reaches G off a cushion whose restitution e_w
turns the path by tan θ' = tan θ / e_w (docs/physics.md), so the bounce point on a cushion
line is, with a and b the distances of S and G from that line (along-line coordinates t):
t_B = t_S + (t_G − t_S)·e_w·a / (e_w·a + b).

A coin bank is the same construction for the coin: off one of the two cushions beside the
pocket (a coin frozen on that cushion is the limit a → 0: it slides along it).

The *prior* of a shot is an analytic estimate of its pot probability under a Gaussian
execution noise (aim-error amplification, docs/physics.md): an aim error δθ over a path of length D and a position
error δx shift the impact parameter by σ_b = √((D·σ_θ)² + (σ_x·|d_y|)²), which turns the coin by
σ_b / ((R_s + r_c)·cos φ); the coin goes in if its direction error is below asin(capture/L).
Players rank candidates by it before simulating the best ones.

``params`` array layout (see :func:`make_params`; the index of each field is named ``P_<FIELD>`` below):
    0 rs, 1 rc, 2 decel μg (m/s²), 3 kcoll = (1+e)·m_s/(m_s+m_c), 4 max_speed (m/s),
    5 σ_x (m), 6 σ_θ (rad), 7 σ_v (relative), 8 capture radius (m), 9 half side (m),
    10 e_w (cushion restitution), 11 striker_y (local, m), 12 pocket radius (m), then the
    player's aiming model (profile keys, :class:`~sim.carrom.players.profile.CarromProfile`):
    13 cos of the thinnest cut (``max_cut_deg``), 14 ``coin_speed_factor``,
    15 ``coin_speed_margin`` (m/s), 16 ``pot_depth`` (capture radii), 17 ``pot_aperture``,
    18 ``rebound_prior_factor``, 19 ``rebound_pocket_clearance`` (pocket radii),
    20 ``bank_shift`` (capture radii), 21 ``position_good_enough``.

A candidate's clearance tests (no coin in the way) are the costly part: each is made only for
a shot whose prior would beat the best one found so far (the result is the same). The small
arithmetic helpers are inlined into the loops (``inline="always"``); the clearance test and
the strike are plain calls (inlining them everywhere cost seconds of cold compile time and
saved nothing measurable). Cold compile time counts too: no array-to-slice copies (seconds
each), no literal constants passed to compiled helpers (each would be compiled a second time
for the literal type).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from sim.physics.noise import compiled_executed

__all__ = [
    "make_params",
    "pot_candidates",
    "best_pot",
    "LOCAL_POCKETS",
    "kind_name",
    "striker_grid",
    "noisy_strikes",
    "pot_tables",
    "N_PARAMS",
    "P_KCOLL",
    "P_STRIKER_Y",
]

#: Where each field lives in the ``params`` array (the layout of the module docstring). A
#: module-level int is a compile-time constant to numba, so ``prm[P_CAPTURE]`` compiles to the
#: same load as ``prm[8]``. A named tuple reads better but costs CPU: numba passes its 22 fields
#: one by one to every compiled call (compare with ``benchmarks/bench_match_cpu.py --against``).
(
    P_RS,
    P_RC,
    P_DECEL,
    P_KCOLL,
    P_MAX_SPEED,
    P_SIGMA_X,
    P_SIGMA_ANGLE,
    P_SIGMA_SPEED,
    P_CAPTURE,
    P_HALF,
    P_CUSHION_E,
    P_STRIKER_Y,
    P_POCKET_RADIUS,
    P_COS_CUT,
    P_SPEED_FACTOR,
    P_SPEED_MARGIN,
    P_DEPTH,
    P_APERTURE,
    P_REBOUND_FACTOR,
    P_REBOUND_CLEARANCE,
    P_BANK_SHIFT,
    P_GOOD_ENOUGH,
) = range(22)
N_PARAMS = 22

#: Routes: 0 direct / straight, 1..4 off the left, right, far, near cushion.
ROUTE_NAMES = ("", "left", "right", "far", "near")


def kind_name(wall: int, bank: int) -> str:
    """ "cut", "rebound_left", "bank_near", "rebound_far+bank_right", ..."""
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
    return np.array(
        [
            geo.rs,
            geo.rc,
            geo.decel,
            kcoll,
            r.striker.max_speed,
            profile.position_sigma_m,
            math.radians(profile.angle_sigma_deg),
            profile.speed_sigma_rel,
            geo.capture,
            geo.half,
            r.physics.cushion_restitution,
            geo.striker_y,
            r.board.pocket_radius,
            math.cos(math.radians(profile.max_cut_deg)),
            profile.coin_speed_factor,
            profile.coin_speed_margin,
            profile.pot_depth,
            profile.pot_aperture,
            profile.rebound_prior_factor,
            profile.rebound_pocket_clearance,
            profile.bank_shift,
            profile.position_good_enough,
        ],
        dtype=np.float64,
    )


@njit(cache=True)
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
    travel = L - prm[P_DEPTH] * prm[P_CAPTURE]
    if travel < 0.0:
        travel = 0.0
    v_need = math.sqrt(2.0 * prm[P_DECEL] * travel)
    return ux, uy, L, prm[P_SPEED_FACTOR] * v_need + prm[P_SPEED_MARGIN], v_need


@njit(cache=True)
def _coin_leg(cx, cy, px, py, bank, prm):
    """The coin's way to the pocket: straight (bank 0) or off one cushion (1 left, 2 right,
    3 far, 4 near; the coin-centre line at ±(half − r_c)); its path is not checked for coins
    (:func:`_coin_leg_clear`). A coin frozen on that cushion is the limit a → 0: it is driven
    slightly into the cushion and slides off it to the pocket.

    Returns (ux, uy, L_eff, v_coin, v_need, bx, by, ok): the coin's start direction, the lever
    of a direction error (m), the planned and the least coin speed (m/s), the bounce point (the
    pocket for a straight leg) and whether the leg exists."""
    decel = prm[P_DECEL]
    capture = prm[P_CAPTURE]
    if bank == 0:
        ux, uy, L, v_coin, v_need = _straight_leg(cx, cy, px, py, prm)
        if L < 1e-9:
            return 0.0, 0.0, 0.0, 0.0, 0.0, px, py, False
        return ux, uy, L, v_coin, v_need, px, py, True
    rc = prm[P_RC]
    half = prm[P_HALF]
    ew = prm[P_CUSHION_E]
    w, a, b, tc, tp = _cushion(bank, half - rc, cx, cy, px, py)
    if ew <= 0.0 or b <= 1e-9:
        return 0.0, 0.0, 0.0, 0.0, 0.0, px, py, False
    along = ew * (tp - tc)
    across = ew * a + b
    n = math.sqrt(along * along + across * across)
    ua = along / n
    un = across / n
    tb = tc + (tp - tc) * ew * a / (ew * a + b)
    if abs(tb) > half - prm[P_POCKET_RADIUS]:
        return 0.0, 0.0, 0.0, 0.0, 0.0, px, py, False
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
    keep = math.sqrt(ua * ua + ew * ew * un * un)  # speed kept through the bounce
    travel = L2 - prm[P_DEPTH] * capture
    if travel < 0.0:
        travel = 0.0
    v_after = math.sqrt(2.0 * decel * travel)
    v_before = v_after / keep
    v_need = math.sqrt(v_before * v_before + 2.0 * decel * L1)
    gain = ew / (keep * keep)  # a direction error is turned by the bounce (tan θ' = tan θ / e_w)
    return ux, uy, L1 + gain * L2, prm[P_SPEED_FACTOR] * v_need + prm[P_SPEED_MARGIN], v_need, bx, by, True


@njit(cache=True)
def _coin_leg_clear(cx, cy, bx, by, px, py, bank, coins, on, target, clearance):
    """No coin in the way of a coin leg from (cx, cy) to (px, py), off the cushion at (bx, by)
    (bank > 0)."""
    if bank == 0:
        return _seg_clear(cx, cy, px, py, coins, on, target, clearance)
    return _seg_clear(cx, cy, bx, by, coins, on, target, clearance) and _seg_clear(
        bx, by, px, py, coins, on, target, clearance
    )


@njit(cache=True, inline="always")
def _leg_terms(L, v_coin, v_need, prm):
    """What the prior takes from the coin's leg alone: the direction error the pocket accepts
    (rad) and the probability that the coin is fast enough (docs/physics.md)."""
    ratio = prm[P_APERTURE] * prm[P_CAPTURE] / L
    if ratio > 1.0:
        ratio = 1.0
    acc = math.asin(ratio)
    margin = 1.0 - v_need / v_coin
    p_speed = 0.5 * (1.0 + math.erf(margin / (math.sqrt(2.0) * prm[P_SIGMA_SPEED] + 1e-9)))
    return acc, p_speed


@njit(cache=True, inline="always")
def _prior(sb, cosphi, acc, p_speed, prm):
    """The pot probability of a strike whose impact parameter has σ ``sb`` (m) at cut cos φ."""
    sphi = sb / ((prm[P_RS] + prm[P_RC]) * cosphi) + 1e-9
    p_dir = math.erf(acc / (math.sqrt(2.0) * sphi))
    return p_dir * p_speed


@njit(cache=True)
def _aim(sx, sy, cx, cy, ux, uy, v_coin, acc, p_speed, wall, prm):
    """The striker from (sx, sy) to the ghost position that sends the coin along (ux, uy),
    directly (wall 0) or off one cushion (1 left, 2 right, 3 far, 4 near); its path is not
    checked for coins (:func:`_path_clear`).

    Returns (prior, speed, dx, dy, bx, by): the pot estimate (0: impossible), the striker's
    speed (m/s), its unit start direction and the bounce point (the ghost for a direct strike)."""
    if wall == 0:
        return _aim_direct(sx, sy, cx, cy, ux, uy, v_coin, acc, p_speed, prm)
    return _aim_rebound(sx, sy, cx, cy, ux, uy, v_coin, acc, p_speed, wall, prm)


@njit(cache=True, inline="always")
def _aim_direct(sx, sy, cx, cy, ux, uy, v_coin, acc, p_speed, prm):
    rs = prm[P_RS]
    rc = prm[P_RC]
    half = prm[P_HALF]
    gx = cx - (rs + rc) * ux
    gy = cy - (rs + rc) * uy
    if abs(gx) > half - rs or abs(gy) > half - rs:
        return 0.0, 0.0, 0.0, 0.0, gx, gy
    if cy <= sy:  # a coin level with or behind the base line may not be struck directly
        return 0.0, 0.0, 0.0, 0.0, gx, gy
    dx = gx - sx
    dy = gy - sy
    D = math.sqrt(dx * dx + dy * dy)
    if D < 1e-9 or dy < 0.0:
        return 0.0, 0.0, 0.0, 0.0, gx, gy
    dx /= D
    dy /= D
    cosphi = dx * ux + dy * uy
    if cosphi < prm[P_COS_CUT]:
        return 0.0, 0.0, 0.0, 0.0, gx, gy
    u = v_coin / (prm[P_KCOLL] * cosphi)
    v0 = math.sqrt(u * u + 2.0 * prm[P_DECEL] * D)
    if v0 > prm[P_MAX_SPEED]:
        return 0.0, 0.0, 0.0, 0.0, gx, gy
    sb = math.sqrt((D * prm[P_SIGMA_ANGLE]) ** 2 + (prm[P_SIGMA_X] * abs(dy)) ** 2)
    return _prior(sb, cosphi, acc, p_speed, prm), v0, dx, dy, gx, gy


@njit(cache=True, inline="always")
def _aim_rebound(sx, sy, cx, cy, ux, uy, v_coin, acc, p_speed, wall, prm):
    rs = prm[P_RS]
    rc = prm[P_RC]
    decel = prm[P_DECEL]
    half = prm[P_HALF]
    ew = prm[P_CUSHION_E]
    gx = cx - (rs + rc) * ux
    gy = cy - (rs + rc) * uy
    if abs(gx) > half - rs or abs(gy) > half - rs or ew <= 0.0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    w_line, a, b, ts, tg = _cushion(wall, half - rs, sx, sy, gx, gy)
    if a < 1e-6 or b < 1e-6:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    tb = ts + (tg - ts) * ew * a / (ew * a + b)
    if abs(tb) > half - prm[P_REBOUND_CLEARANCE] * prm[P_POCKET_RADIUS] - rs:  # the bounce stays clear of the pockets
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
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
        return 0.0, 0.0, 0.0, 0.0, bx, by
    d1x /= D1
    d1y /= D1
    d2x /= D2
    d2y /= D2
    cosphi = d2x * ux + d2y * uy
    if cosphi < prm[P_COS_CUT]:
        return 0.0, 0.0, 0.0, 0.0, bx, by
    if wall == 1 or wall == 2:
        tn = abs(d1x)
        tt = abs(d1y)
    else:
        tn = abs(d1y)
        tt = abs(d1x)
    keep = math.sqrt(tt * tt + ew * ew * tn * tn)  # speed kept through the bounce
    u = v_coin / (prm[P_KCOLL] * cosphi)
    u_after = math.sqrt(u * u + 2.0 * decel * D2)
    u_before = u_after / keep
    v0 = math.sqrt(u_before * u_before + 2.0 * decel * D1)
    if v0 > prm[P_MAX_SPEED]:
        return 0.0, 0.0, 0.0, 0.0, bx, by
    gain = ew / (keep * keep)  # an aim error is turned by the bounce
    sb = math.sqrt(((D1 + gain * D2) * prm[P_SIGMA_ANGLE]) ** 2 + (prm[P_SIGMA_X] * abs(d1y)) ** 2)
    return prm[P_REBOUND_FACTOR] * _prior(sb, cosphi, acc, p_speed, prm), v0, d1x, d1y, bx, by


@njit(cache=True, inline="always")
def _path_clear(sx, sy, bx, by, gx, gy, wall, coins, on, target, clearance):
    """No coin in the way of the striker from (sx, sy) to the ghost (gx, gy), off the cushion
    at (bx, by) (wall > 0: the target coin too, before the cushion)."""
    if wall == 0:
        return _seg_clear(sx, sy, gx, gy, coins, on, target, clearance)
    return _seg_clear(sx, sy, bx, by, coins, on, -1, clearance) and _seg_clear(
        bx, by, gx, gy, coins, on, target, clearance
    )


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
            ex, ea, ev = compiled_executed(x[c], angle[c], speed[c], sigma, z[0, c, s], z[1, c, s], z[2, c, s])
            ex = _clamp_to(ex, spans)
            a = math.radians(ea)
            ev = min(ev, vmax)
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
def _legs(coins, targets, pockets, prm):
    """Every coin leg of :func:`pot_candidates`, one row per (target, pocket, coin route),
    its path not checked for coins: ux, uy, v_coin, acc, p_speed, exists (1/0), bank, the
    bounce point (x, y) and the point aimed at in the pocket (x, y)."""
    capture = prm[P_CAPTURE]
    nt = targets.shape[0]
    legs = np.zeros((nt * 20, 11))
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
                ux, uy, L, v_coin, v_need, bx, by, ok = _coin_leg(coins[t, 0], coins[t, 1], ax, ay, bank, prm)
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
                legs[k, 7] = bx
                legs[k, 8] = by
                legs[k, 9] = ax
                legs[k, 10] = ay
    return legs


@njit(cache=True, inline="always")
def _cos_from(x, sy, gx, gy, ux, uy):
    """cos φ of a strike from (x, sy) straight to the ghost (gx, gy) for the coin direction u."""
    dx = gx - x
    dy = gy - sy
    d = math.sqrt(dx * dx + dy * dy)
    return (dx * ux + dy * uy) / d if d > 1e-12 else 1.0


@njit(cache=True)
def _prior_bound(cx, cy, ux, uy, v_coin, acc, p_speed, wall, xlo, xhi, prm):
    """An upper bound of the prior of any striker position in [xlo, xhi] for a leg and a
    striker route (0 if no position can pot).

    The aim lever is at least the ghost's distance from that stretch of the base line; a
    rebound's is bounded with the distance of the ghost's mirror image in the cushion line (a
    path off a line is at least as long as the straight line to the mirror image), see
    :func:`_rebound_lever`.
    The cut is at best as full as from the best point of the stretch (direct) or of the
    cushion line between the pockets' clearances (rebound): the direction from a point moving
    on a line to the ghost turns monotonically, so the best is the full cut if it lies within,
    else an end; a cut thinner than ``max_cut_deg`` is never tried."""
    if p_speed <= 0.0:
        return 0.0
    rs = prm[P_RS]
    rc = prm[P_RC]
    sy = prm[P_STRIKER_Y]
    gx = cx - (rs + rc) * ux
    gy = cy - (rs + rc) * uy
    if (
        abs(gx) > prm[P_HALF] - rs
        or abs(gy) > prm[P_HALF] - rs
        or (wall == 0 and cy <= sy)
        or (wall > 0 and prm[P_CUSHION_E] <= 0.0)
    ):
        return 0.0  # (the strike's own tests, which do not depend on the striker's position)
    factor = 1.0
    if wall > 0:
        line = prm[P_HALF] - rs
        ends = (
            prm[P_HALF] - prm[P_REBOUND_CLEARANCE] * prm[P_POCKET_RADIUS] - rs
        )  # the bounce's |coordinate| along the line
        w = line if wall == 2 or wall == 3 else -line
        if wall <= 2:  # left, right: the cushion line x = w
            cos_max = max(_cos_from(w, -ends, gx, gy, ux, uy), _cos_from(w, ends, gx, gy, ux, uy))
            if abs(ux) > 1e-12:
                cos_max = max(cos_max, _cos_from(w, min(max(gy - (gx - w) * uy / ux, -ends), ends), gx, gy, ux, uy))
            mx, my = 2.0 * w - gx, gy
            to_line = min(abs(w - xlo), abs(w - xhi))  # (the line lies beyond the stretch)
            along = ends + abs(sy)
        else:  # far, near: the cushion line y = w
            cos_max = max(_cos_from(-ends, w, gx, gy, ux, uy), _cos_from(ends, w, gx, gy, ux, uy))
            if abs(uy) > 1e-12:
                cos_max = max(cos_max, _cos_from(min(max(gx - (gy - w) * ux / uy, -ends), ends), w, gx, gy, ux, uy))
            mx, my = gx, 2.0 * w - gy
            to_line = abs(w - sy)
            along = ends + max(abs(xlo), abs(xhi))
        near = min(max(mx, xlo), xhi)
        path = math.sqrt((mx - near) ** 2 + (my - sy) ** 2)  # <= D1 + D2
        reach = _rebound_lever(path, to_line, along, prm[P_CUSHION_E])
        factor = prm[P_REBOUND_FACTOR]
    else:
        near = min(max(gx, xlo), xhi)
        reach = path = math.sqrt((gx - near) ** 2 + (gy - sy) ** 2)
        cos_max = max(_cos_from(xlo, sy, gx, gy, ux, uy), _cos_from(xhi, sy, gx, gy, ux, uy))
        if uy > 1e-12:  # the full cut, from where the coin's line meets the base line, if within
            x_line = min(max(gx - (gy - sy) * ux / uy, xlo), xhi)
            cos_max = max(cos_max, _cos_from(x_line, sy, gx, gy, ux, uy))
    cos_max = min(1.0, cos_max + 1e-9)
    if cos_max <= 0.0 or cos_max < prm[P_COS_CUT]:
        return 0.0
    u = v_coin / (prm[P_KCOLL] * cos_max)  # the striker's least speed at the ghost, then over the path:
    if math.sqrt(u * u + 2.0 * prm[P_DECEL] * path) > prm[P_MAX_SPEED] * (1.0 + 1e-9):  # (a bounce only slows it)
        return 0.0  # faster than striker.max_speed from any position
    sphi = reach * prm[P_SIGMA_ANGLE] / ((rs + rc) * cos_max) + 1e-9
    bound = factor * math.erf(acc / (math.sqrt(2.0) * sphi)) * p_speed
    return bound * (1.0 + 1e-9) + 1e-15  # round-off: never below the exact prior


@njit(cache=True, inline="always")
def _rebound_lever(mirror, to_line, along, ew):
    """A lower bound of a rebound's aim lever D1 + g·D2 (:func:`_aim_rebound`, e_w <= 1): with
    ``mirror`` <= D1 + D2 (the distance to the ghost's mirror image), ``to_line`` <= D1 (the
    striker's distance from the cushion line) and ``along`` >= the bounce's offset along the
    line, the path's normal share is at least to_line / √(to_line² + along²), which bounds the
    speed kept and so the gain g = e_w / keep² from below; then D1 + g·D2 >= g'·(D1 + D2) +
    (1 − g')·D1 with g' = min(1, g)."""
    tn2 = to_line * to_line / (to_line * to_line + along * along) if along > 0.0 else 1.0
    g = min(1.0, ew / (1.0 - (1.0 - ew * ew) * tn2))
    return g * mirror + (1.0 - g) * to_line


@njit(cache=True)
def pot_candidates(coins, on, targets, pockets, xs, spans, routes, prm, rank_worth, keep, min_prior):
    """Best striker position for every (target coin, pocket, striker route, coin route).

    Striker routes: 0 direct, 1..4 off the left / right / far / near cushion. Coin routes: 0
    straight, else a bank off one of the two cushions beside the pocket (1..4 as above), which
    includes sliding a coin frozen on that cushion; banks are also tried at a point half a
    capture radius inside the pocket's centre (steeper). Only the pairs ``routes`` allows are
    tried (the others get prior 0).

    With ``keep`` > 0 only the rows that may rank among the ``keep`` best by prior ×
    ``rank_worth`` of their target, among those with a prior above ``min_prior``, are searched
    exactly (the others may get prior 0): rows are taken by decreasing :func:`_prior_bound` ×
    worth, the search stops at a bound below the ``keep``-th best score found, and a row's
    striker positions that cannot beat that score are not checked for coins in the way — the
    ``keep`` best rows are the same as with every row searched.

    Args:
        coins: (19, 2) local coin centres; on: (19,) bool, coins on the board.
        targets: (T,) coin ids to pot.
        pockets: (4, 2) local pocket centres.
        xs: (X,) striker positions to try (legal and free, local m).
        spans: (k, 2) free striker intervals (the straight-line position is clamped into them).
        routes: (5, 5) bool, the (striker route, coin route) pairs tried
            (:func:`sim.carrom.restrictions.pot_routes`: no rebounds, forbidden kinds).
        prm: see :func:`make_params`.
        rank_worth: (T,) worth of each target when ranking (>= 0); keep: rows wanted (0: all);
        min_prior: rows with a prior at most this do not count among them.

    Returns:
        (rows, best): (T·4·25, 8) rows: target, pocket, striker route, coin route, x,
        angle_deg, speed, prior (prior 0: impossible or not searched); and the indices of the
        rows with a prior above ``min_prior`` by decreasing prior × worth (the first of
        equals first), at most ``keep`` of them (0: all).
    """
    nt = targets.shape[0]
    legs = _legs(coins, targets, pockets, prm)
    clear = np.zeros(nt * 20, np.int8)  # coin legs checked for coins: 1 clear, -1 blocked
    out = np.zeros((nt * 100, 8))
    bound = np.zeros(nt * 100)
    order = np.empty(nt * 100, np.int64)
    n = 0
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
        if legs[leg, 5] > 0 and routes[wall, int(legs[leg, 6])]:
            t = targets[ti]
            prior = _prior_bound(
                coins[t, 0],
                coins[t, 1],
                legs[leg, 0],
                legs[leg, 1],
                legs[leg, 2],
                legs[leg, 3],
                legs[leg, 4],
                wall,
                xlo,
                xhi,
                prm,
            )
            if prior > 0.0:
                bound[row] = prior * rank_worth[ti]
                order[n] = row
                n += 1
    _sort_by_decreasing(order[:n], bound)
    top = np.empty(max(keep, 1))  # the keep best scores found, the smallest first
    top[:] = -np.inf
    found = np.empty(n, np.int64)  # rows with a prior above min_prior
    n_found = 0
    scratch = np.empty((xs.shape[0] + 1, 7))
    for i in range(n):
        row = order[i]
        if keep > 0 and bound[row] < top[0]:
            break  # the bounds decrease: no later row can rank
        leg = row // 5
        if clear[leg] == 0:
            t = targets[row // 100]
            ok = _coin_leg_clear(
                coins[t, 0],
                coins[t, 1],
                legs[leg, 7],
                legs[leg, 8],
                legs[leg, 9],
                legs[leg, 10],
                int(legs[leg, 6]),
                coins,
                on,
                t,
                2.0 * prm[P_RC],
            )
            clear[leg] = 1 if ok else -1
        if clear[leg] < 0:
            continue
        worth = rank_worth[row // 100]
        floor = 0.0
        if keep > 0:  # a position must beat min_prior and (by a margin for round-off) the keep-th score
            floor = min_prior
            if top[0] > 0.0 and worth > 0.0:
                floor = max(floor, top[0] / worth * (1.0 - 1e-9))
        _search_row(out, row, coins, on, legs[leg], xs, spans, prm, floor, scratch)
        if out[row, 7] > min_prior:
            found[n_found] = row
            n_found += 1
            score = out[row, 7] * worth
            if keep > 0 and score > top[0]:
                _replace_smallest(top, score)
    return out, _best_rows(out, found[:n_found], rank_worth, keep)


@njit(cache=True)
def _sort_by_decreasing(order, key):
    """Sort ``order`` in place by decreasing ``key[order]``, stable (a merge sort)."""
    n = order.shape[0]
    buf = np.empty(n, np.int64)
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if key[order[j]] > key[order[i]]:
                    buf[k] = order[j]
                    j += 1
                else:
                    buf[k] = order[i]
                    i += 1
                k += 1
            while i < mid:
                buf[k] = order[i]
                i += 1
                k += 1
            while j < hi:
                buf[k] = order[j]
                j += 1
                k += 1
        for k in range(n):  # (a loop: an array-to-slice copy costs seconds of compile time)
            order[k] = buf[k]
        width *= 2


@njit(cache=True)
def _replace_smallest(top, score):
    """Put ``score`` in place of the smallest of ``top`` (kept in increasing order)."""
    k = 0
    while k + 1 < top.shape[0] and top[k + 1] < score:
        top[k] = top[k + 1]
        k += 1
    top[k] = score


@njit(cache=True)
def _best_rows(out, found, rank_worth, keep):
    """The rows ``found`` by decreasing prior × worth, the first of equals (lowest row)
    first, at most ``keep`` (0: all)."""
    n = found.shape[0]
    rows = found.copy()
    score = np.empty(n)
    for i in range(n):
        score[i] = out[rows[i], 7] * rank_worth[rows[i] // 100]
    for i in range(1, n):  # insertion sort (a few dozen rows)
        r = rows[i]
        s = score[i]
        j = i - 1
        while j >= 0 and (score[j] < s or (score[j] == s and rows[j] > r)):
            rows[j + 1] = rows[j]
            score[j + 1] = score[j]
            j -= 1
        rows[j + 1] = r
        score[j + 1] = s
    m = n if keep <= 0 else min(keep, n)
    return rows[:m].copy()


@njit(cache=True)
def _search_row(out, row, coins, on, leg, xs, spans, prm, floor, scratch):
    """The best striker position of one row of :func:`pot_candidates` (on the coin's line
    through the base line, then the grid ``xs``; the first of equals) whose prior is above
    ``floor``, written into ``out[row, 4:8]`` (left 0 if none): the priors of every position
    first, then the paths checked for coins from the best down until one is clear."""
    sy = prm[P_STRIKER_Y]
    t = int(out[row, 0])
    wall = int(out[row, 2])
    cx = coins[t, 0]
    cy = coins[t, 1]
    ux = leg[0]
    uy = leg[1]
    m = 0
    for k in range(xs.shape[0] + 1):
        if k == 0:
            if abs(uy) < 1e-9:
                continue
            x = _clamp_to(cx + (sy - cy) / uy * ux, spans)
        else:
            x = xs[k - 1]
        pr, v, dx, dy, bx, by = _aim(x, sy, cx, cy, ux, uy, leg[2], leg[3], leg[4], wall, prm)
        if pr > floor:
            scratch[m, 0] = pr
            scratch[m, 1] = x
            scratch[m, 2] = v
            scratch[m, 3] = dx
            scratch[m, 4] = dy
            scratch[m, 5] = bx
            scratch[m, 6] = by
            m += 1
    rr = prm[P_RS] + prm[P_RC]
    gx = cx - rr * ux
    gy = cy - rr * uy
    while True:
        i = _first_max(scratch, m)
        if i < 0:
            return
        if _path_clear(scratch[i, 1], sy, scratch[i, 5], scratch[i, 6], gx, gy, wall, coins, on, t, rr):
            out[row, 4] = scratch[i, 1]
            out[row, 5] = math.degrees(math.atan2(-scratch[i, 3], scratch[i, 4]))
            out[row, 6] = scratch[i, 2]
            out[row, 7] = scratch[i, 0]
            return
        scratch[i, 0] = -1.0  # blocked: the next best


@njit(cache=True, inline="always")
def _first_max(scratch, m):
    """The first row of ``scratch[:m]`` with the largest column 0, if positive (else -1)."""
    best = 0.0
    i = -1
    for k in range(m):
        if scratch[k, 0] > best:
            best = scratch[k, 0]
            i = k
    return i


#: Columns of a :func:`best_pot` table row (one coin, one pocket).
T_UX, T_UY, T_VCOIN, T_ACC, T_PSPEED, T_BOUND, T_LEG, T_NPOS = range(8)


@njit(cache=True)
def pot_tables(n_coins, n_positions):
    """Empty tables for :func:`best_pot`: one slot per coin and a last one for a coin that
    moved; (n_coins + 1, 4, 8) legs (nothing made yet: NaN) and (n_coins + 1, 4,
    n_positions + 1, 2) striker positions."""
    tab = np.empty((n_coins + 1, 4, 8))
    tab[:] = np.nan
    return tab, np.empty((n_coins + 1, 4, n_positions + 1, 2))


@njit(cache=True)
def best_pot(local, on, weights, pockets, xs, spans, prm, moved, tab, pos):
    """The best weighted direct pot a shooter has: max over coins, pockets and striker
    positions of prior × weight (0: nothing); the search stops at a pot worth
    ``position_good_enough`` × the best target's weight.

    What depends on one coin only (its leg to each pocket, the prior from each striker
    position, best first) is kept in tables between calls for the same shooter: a coin in the
    same place gets the same numbers, so only a coin that ``moved`` is worked out again.

    Args:
        local: (M, 2) coin centres in the shooter's frame; on: (M,) bool, on the board.
        weights: (M,) worth of potting each coin (<= 0: not a target).
        pockets, xs, spans, prm: as in :func:`pot_candidates` (no rebounds).
        moved: (M,) bool, coins not where the tables were made (slot M is made afresh for each).
        tab, pos: the tables (:func:`pot_tables`), filled as they are needed.
    """
    sy = prm[P_STRIKER_Y]
    rr = prm[P_RS] + prm[P_RC]
    m = local.shape[0]
    best = 0.0
    wmax = 0.0
    for t in range(m):
        if on[t] and weights[t] > wmax:
            wmax = weights[t]
    for t in range(m):
        w = weights[t]
        if w <= 0.0 or not on[t] or w <= best:
            continue
        cx = local[t, 0]
        cy = local[t, 1]
        if cy <= sy:
            continue
        slot = t
        if moved[t]:
            slot = m
            tab[m, :, :] = np.nan
        for p in range(4):
            if np.isnan(tab[slot, p, T_LEG]):
                _table_leg(cx, cy, p, pockets, xs, spans, prm, tab[slot, p])
            row = tab[slot, p]
            if row[T_LEG] == 0.0 or row[T_BOUND] * w <= best:
                continue  # no leg, or no striker position can beat the best (its path is not checked)
            if not _seg_clear(cx, cy, pockets[p, 0], pockets[p, 1], local, on, t, 2.0 * prm[P_RC]):
                continue
            if np.isnan(row[T_NPOS]):
                _table_positions(cx, cy, xs, spans, prm, row, pos[slot, p])
            gx = cx - rr * row[T_UX]
            gy = cy - rr * row[T_UY]
            for i in range(int(row[T_NPOS])):  # the best position whose path is clear
                pr = pos[slot, p, i, 0]
                if not pr * w > best:
                    break
                if _seg_clear(pos[slot, p, i, 1], sy, gx, gy, local, on, t, rr):
                    best = pr * w
                    break
            if best >= prm[P_GOOD_ENOUGH] * wmax:
                break
        if best >= prm[P_GOOD_ENOUGH] * wmax:
            break
    return best


@njit(cache=True)
def _table_leg(cx, cy, p, pockets, xs, spans, prm, row):
    """A coin's straight leg to pocket ``p`` and the bound of its priors, into a table row."""
    ux, uy, L, v_coin, v_need = _straight_leg(cx, cy, pockets[p, 0], pockets[p, 1], prm)
    row[T_NPOS] = np.nan
    if L < 1e-9:
        row[T_LEG] = 0.0
        return
    acc, p_speed = _leg_terms(L, v_coin, v_need, prm)
    xlo = spans[0, 0]
    xhi = spans[spans.shape[0] - 1, 1]
    for x in xs:
        xlo = min(xlo, x)
        xhi = max(xhi, x)
    row[T_UX] = ux
    row[T_UY] = uy
    row[T_VCOIN] = v_coin
    row[T_ACC] = acc
    row[T_PSPEED] = p_speed
    row[T_BOUND] = _prior_bound(
        cx, cy, ux, uy, v_coin, acc, p_speed, np.int64(0), xlo, xhi, prm
    )  # (int64: one compiled version)
    row[T_LEG] = 1.0


@njit(cache=True)
def _table_positions(cx, cy, xs, spans, prm, row, pos):
    """The striker positions of a leg with a positive prior (on the coin's line through the
    base line, then the grid ``xs``), by decreasing prior: ``pos[:n] = (prior, x)``."""
    sy = prm[P_STRIKER_Y]
    ux = row[T_UX]
    uy = row[T_UY]
    n = 0
    for j in range(xs.shape[0] + 1):
        if j == 0:
            if abs(uy) < 1e-9:
                continue
            x = _clamp_to(cx + (sy - cy) / uy * ux, spans)
        else:
            x = xs[j - 1]
        pr = _aim_direct(x, sy, cx, cy, ux, uy, row[T_VCOIN], row[T_ACC], row[T_PSPEED], prm)[0]
        if pr > 0.0:
            i = n
            while i > 0 and pos[i - 1, 0] < pr:
                pos[i, 0] = pos[i - 1, 0]
                pos[i, 1] = pos[i - 1, 1]
                i -= 1
            pos[i, 0] = pr
            pos[i, 1] = x
            n += 1
    row[T_NPOS] = n
