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
    10 e_w (cushion restitution), 11 striker_y (local, m), 12 pocket radius (m)
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["make_params", "pot_candidates", "best_pot_priors", "LOCAL_POCKETS", "kind_name"]

#: cos of the thinnest cut a player tries (80°).
COS_MAX_CUT = math.cos(math.radians(80.0))
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


def make_params(geo, sigma_x: float, sigma_deg: float, sigma_v: float) -> np.ndarray:
    """The parameter vector of the compiled functions for a board and a noise level."""
    r = geo.rules
    kcoll = (1 + r.physics.restitution) * geo.ms / (geo.ms + geo.mc)
    return np.array([geo.rs, geo.rc, geo.decel, kcoll, r.striker.max_speed, sigma_x,
                     math.radians(sigma_deg), sigma_v, geo.capture, geo.half,
                     r.physics.cushion_restitution, geo.striker_y, r.board.pocket_radius])


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


@njit(cache=True)
def _cushion(side, line, x1, y1, x2, y2):
    """A bounce off cushion ``side`` (1 left, 2 right, 3 far, 4 near) of a disc whose centre runs
    on the line at ±``line`` (m): (w, a, b, t1, t2) — the line's coordinate, the distances of
    points 1 and 2 from it, and their coordinates along it."""
    if side == 1 or side == 2:
        w = -line if side == 1 else line
        return w, abs(w - x1), abs(w - x2), y1, y2
    w = line if side == 3 else -line
    return w, abs(w - y1), abs(w - y2), x1, x2


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
        ux = px - cx
        uy = py - cy
        L = math.sqrt(ux * ux + uy * uy)
        if L < 1e-9:
            return 0.0, 0.0, 0.0, 0.0, 0.0, False
        ux /= L
        uy /= L
        if not _seg_clear(cx, cy, px, py, coins, on, target, 2.0 * rc):
            return ux, uy, L, 0.0, 0.0, False
        travel = L - 0.7 * capture
        if travel < 0.0:
            travel = 0.0
        v_need = math.sqrt(2.0 * decel * travel)
        return ux, uy, L, 1.15 * v_need + 0.2, v_need, True
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
    travel = L2 - 0.7 * capture
    if travel < 0.0:
        travel = 0.0
    v_after = math.sqrt(2.0 * decel * travel)
    v_before = v_after / keep
    v_need = math.sqrt(v_before * v_before + 2.0 * decel * L1)
    gain = ew / (keep * keep)  # a direction error is turned by the bounce (tan θ' = tan θ / e_w)
    return ux, uy, L1 + gain * L2, 1.15 * v_need + 0.2, v_need, True


@njit(cache=True)
def _prior(sb, cosphi, L, v_coin, v_need, prm):
    rs = prm[0]
    rc = prm[1]
    capture = prm[8]
    sphi = sb / ((rs + rc) * cosphi) + 1e-9
    ratio = 0.9 * capture / L
    if ratio > 1.0:
        ratio = 1.0
    acc = math.asin(ratio)
    p_dir = math.erf(acc / (math.sqrt(2.0) * sphi))
    margin = 1.0 - v_need / v_coin
    p_speed = 0.5 * (1.0 + math.erf(margin / (math.sqrt(2.0) * prm[7] + 1e-9)))
    return p_dir * p_speed


@njit(cache=True)
def _strike(sx, sy, cx, cy, ux, uy, L, v_coin, v_need, coins, on, target, wall, prm):
    """The striker from (sx, sy) to the ghost position that sends the coin along (ux, uy),
    directly (wall 0) or off one cushion (1 left, 2 right, 3 far, 4 near).

    Returns (angle_deg, speed, prior); prior 0 if impossible."""
    rs = prm[0]
    rc = prm[1]
    decel = prm[2]
    half = prm[9]
    gx = cx - (rs + rc) * ux
    gy = cy - (rs + rc) * uy
    if abs(gx) > half - rs or abs(gy) > half - rs:
        return 0.0, 0.0, 0.0
    if wall == 0:
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
        if cosphi < COS_MAX_CUT:
            return 0.0, 0.0, 0.0
        if not _seg_clear(sx, sy, gx, gy, coins, on, target, rs + rc):
            return 0.0, 0.0, 0.0
        u = v_coin / (prm[3] * cosphi)
        v0 = math.sqrt(u * u + 2.0 * decel * D)
        if v0 > prm[4]:
            return 0.0, 0.0, 0.0
        sb = math.sqrt((D * prm[6]) ** 2 + (prm[5] * abs(dy)) ** 2)
        return math.degrees(math.atan2(-dx, dy)), v0, _prior(sb, cosphi, L, v_coin, v_need, prm)
    ew = prm[10]
    if ew <= 0.0:
        return 0.0, 0.0, 0.0
    w, a, b, ts, tg = _cushion(wall, half - rs, sx, sy, gx, gy)
    if a < 1e-6 or b < 1e-6:
        return 0.0, 0.0, 0.0
    tb = ts + (tg - ts) * ew * a / (ew * a + b)
    if abs(tb) > half - 2.5 * prm[12] - rs:  # the bounce must stay clear of the pockets
        return 0.0, 0.0, 0.0
    if wall == 1 or wall == 2:
        bx = w
        by = tb
    else:
        bx = tb
        by = w
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
    if cosphi < COS_MAX_CUT:
        return 0.0, 0.0, 0.0
    if not _seg_clear(sx, sy, bx, by, coins, on, -1, rs + rc):  # the target too, before the cushion
        return 0.0, 0.0, 0.0
    if not _seg_clear(bx, by, gx, gy, coins, on, target, rs + rc):
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
    prior = 0.85 * _prior(sb, cosphi, L, v_coin, v_need, prm)
    return math.degrees(math.atan2(-d1x, d1y)), v0, prior


@njit(cache=True)
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


_INV_SQRT2 = 1.0 / math.sqrt(2.0)

#: The two cushions beside each local pocket (for coin banks): left 1, right 2, far 3, near 4.
_POCKET_CUSHIONS = np.array([[1, 4], [2, 4], [2, 3], [1, 3]], dtype=np.int64)


@njit(cache=True)
def pot_candidates(coins, on, targets, pockets, xs, spans, rebounds, prm):
    """Best striker position for every (target coin, pocket, striker route, coin route).

    Striker routes: 0 direct, 1..4 off the left / right / far / near cushion (with
    ``rebounds``). Coin routes: 0 straight, else a bank off one of the two cushions beside
    the pocket (1..4 as above), which includes sliding a coin frozen on that cushion; banks
    are also tried at a point half a capture radius inside the pocket's centre (steeper).

    Args:
        coins: (19, 2) local coin centres; on: (19,) bool, coins on the board.
        targets: (T,) coin ids to pot.
        pockets: (4, 2) local pocket centres.
        xs: (X,) striker positions to try (legal and free, local m).
        spans: (k, 2) free striker intervals (the straight-line position is clamped into them).
        prm: see :func:`make_params`.

    Returns:
        (T·4·25, 8) rows: target, pocket, striker route, coin route, x, angle_deg, speed,
        prior (prior 0: impossible).
    """
    sy = prm[11]
    capture = prm[8]
    nt = targets.shape[0]
    out = np.zeros((nt * 4 * 25, 8))
    row = 0
    for ti in range(nt):
        t = targets[ti]
        cx = coins[t, 0]
        cy = coins[t, 1]
        for p in range(4):
            px = pockets[p, 0]
            py = pockets[p, 1]
            for bi in range(5):
                # straight at the pocket centre; banks off either cushion beside the pocket, at
                # its centre or at a point half a capture radius nearer the board's centre
                # (a steeper bank, for coins frozen on the cushion)
                bank = 0 if bi == 0 else _POCKET_CUSHIONS[p, (bi - 1) % 2]
                shift = 0.0 if bi < 3 else 0.5 * capture
                ax = px - math.copysign(shift, px) * _INV_SQRT2
                ay = py - math.copysign(shift, py) * _INV_SQRT2
                ux, uy, L, v_coin, v_need, ok = _coin_leg(cx, cy, ax, ay, bank, coins, on, t, prm)
                L *= capture / (capture - shift)  # less of the pocket is left either side
                for wall in range(5):
                    out[row, 0] = t
                    out[row, 1] = p
                    out[row, 2] = wall
                    out[row, 3] = bank
                    if not ok or (wall > 0 and not rebounds):
                        row += 1
                        continue
                    best = 0.0
                    # the position on the coin's line through the base line, then the grid
                    for k in range(xs.shape[0] + 1):
                        if k == 0:
                            if abs(uy) < 1e-9:
                                continue
                            x = _clamp_to(cx + (sy - cy) / uy * ux, spans)
                        else:
                            x = xs[k - 1]
                        a, v, pr = _strike(x, sy, cx, cy, ux, uy, L, v_coin, v_need,
                                           coins, on, t, wall, prm)
                        if pr > best:
                            best = pr
                            out[row, 4] = x
                            out[row, 5] = a
                            out[row, 6] = v
                            out[row, 7] = pr
                    row += 1
    return out


@njit(cache=True)
def best_pot_priors(final, alive, weights, rot, pockets, xs, spans, prm):
    """For each sample, the best weighted direct pot the next shooter would have.

    Args:
        final: (K, N, 2) board positions after K simulated strokes (N >= 19: coins first).
        alive: (K, 19) bool, coins still on the board in each sample.
        weights: (K, 19) worth of potting each coin to the next shooter (<= 0: not a target).
        rot: (K, 2, 2) board→local rotation of the next shooter (local = pos @ rot).
        pockets, xs, spans, prm: as in :func:`pot_candidates` (no rebounds).

    Returns:
        (K,) max over coins, pockets and striker positions of prior × weight (0: nothing).
    """
    nk = final.shape[0]
    out = np.zeros(nk)
    sy = prm[11]
    local = np.empty((19, 2))
    for k in range(nk):
        for i in range(19):
            x = final[k, i, 0]
            y = final[k, i, 1]
            local[i, 0] = x * rot[k, 0, 0] + y * rot[k, 1, 0]
            local[i, 1] = x * rot[k, 0, 1] + y * rot[k, 1, 1]
        on = alive[k]
        best = 0.0
        wmax = 0.0
        for t in range(19):
            if on[t] and weights[k, t] > wmax:
                wmax = weights[k, t]
        for t in range(19):
            w = weights[k, t]
            if w <= 0.0 or not on[t] or w <= best:
                continue
            cx = local[t, 0]
            cy = local[t, 1]
            if cy <= sy:
                continue
            for p in range(4):
                ux, uy, L, v_coin, v_need, ok = _coin_leg(cx, cy, pockets[p, 0], pockets[p, 1], 0,
                                                          local, on, t, prm)
                if not ok:
                    continue
                for j in range(xs.shape[0] + 1):
                    if j == 0:
                        if abs(uy) < 1e-9:
                            continue
                        x = _clamp_to(cx + (sy - cy) / uy * ux, spans)
                    else:
                        x = xs[j - 1]
                    a, v, pr = _strike(x, sy, cx, cy, ux, uy, L, v_coin, v_need, local, on, t, 0, prm)
                    if pr * w > best:
                        best = pr * w
                if best >= 0.9 * wmax:
                    break
            if best >= 0.9 * wmax:
                break
        out[k] = best
    return out
