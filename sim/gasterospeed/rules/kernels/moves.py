"""The movement rules on a compact state (compiled): the one implementation of speed moves,
straight moves, leaps, jostles with their chains, the rails, the start line, finishing, lines
of sight, domino lines and the removal of KO snails blocking the only passage.

:class:`~sim.gasterospeed.rules.board.Board` calls these for the race engine and the simulated players
evaluate moves with them on copies of the state (see :mod:`.layout`).

A push the pushed snail's player may counter (a jostle by another player's card, race engine
only) runs *guarded* (``g`` a guard array; a 1-entry ``g``: no guard, as in every look-ahead):
before each running snail is pushed, the push is tried on a copy; if it
would succeed, the guard array ``g`` is consulted. Its answers are given one run at a time: the
first question without an answer stops the move (``ASKED``), leaves the trial board in
``after`` and the snail and direction in ``g``; the engine asks the player and runs the move
again from the start with one answer more (the moves are deterministic, so the run replays the
same questions). ``g``: [G_GIVEN] answers given, [G_SEEN] questions met so far in this run,
[G_ASKED] / [G_ASKED_DIR] the question that stopped it, from G_ANSWERS the answers (0: no
counter; 1: countered, the push fails), from G_ANSWERS + MAX_ANSWERS one flag per snail: its
player may counter at all.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..circuit import BEHIND, FINISH, INF, MUD, OBST, WALL
from .layout import (
    _FIELDS,
    ARRIVALS,
    ARROW,
    BACK_D,
    BACK_Q,
    FINISHED,
    FRONT,
    HEAD,
    KO,
    N_ARRIVED,
    N_PENDING,
    N_SNAILS,
    OUT,
    OWNER,
    PENDING_PER_SNAIL,
    POS,
    RUNNING,
    SLOT,
    STATUS,
    W_ALONG,
    W_ARROWS_STRAIGHT,
    W_DAMAGE,
    W_EVACUATED,
    W_NEAREST,
    W_SLOTS,
    W_SQUARES,
    W_STAY,
    W_WIDTH,
    WORLD_HEAD,
    copy_state,
    dist,
    geo,
    get,
    kind,
    nb,
    occupant,
    put,
    set_occupant,
    step,
)

STUCK, PUSHED, ASKED = 0, 1, -1
G_GIVEN, G_SEEN, G_ASKED, G_ASKED_DIR, G_ANSWERS = 0, 1, 2, 3, 4
MAX_ANSWERS = 64
#: every direction allowed (a bit per absolute direction 0..7)
ALL_DIRECTIONS = 255


@njit(cache=True, _nrt=False)
def _on_track(k):
    return k <= 2  # TRACK, MUD or ARROW


@njit(cache=True, _nrt=False)
def relocate(st, s, q):
    set_occupant(st, get(st, POS, s), -1)
    set_occupant(st, q, s)
    put(st, POS, s, q)


@njit(cache=True, _nrt=False)
def finish(st, s):
    """Snail ``s`` crosses the finish line: it leaves the board, its arrival is recorded."""
    set_occupant(st, get(st, POS, s), -1)
    put(st, POS, s, -1)
    put(st, STATUS, s, FINISHED)
    st[HEAD + ARRIVALS * st[N_SNAILS] + st[N_ARRIVED]] = s
    st[N_ARRIVED] += 1


@njit(cache=True, _nrt=False)
def take_off(st, s, status):
    """Take snail ``s`` off the board (evacuated KO snail: status KO; removed: OUT)."""
    p = get(st, POS, s)
    if p >= 0:
        set_occupant(st, p, -1)
    put(st, POS, s, -1)
    put(st, STATUS, s, status)


@njit(cache=True, _nrt=False)
def enter(st, w, s, q):
    """Snail ``s`` ends a move of its own on ``q`` (a free square, or the finish)."""
    if kind(w, q) == FINISH:
        finish(st, s)
    else:
        relocate(st, s, q)


@njit(cache=True, _nrt=False)
def _add_pending(st, t):
    n = st[N_SNAILS]
    if st[N_PENDING] < PENDING_PER_SNAIL * n + 16:
        st[HEAD + _FIELDS * n + st[N_PENDING]] = t
        st[N_PENDING] += 1


@njit(cache=True)
def speed_ends(st, w, s, squares, directions):
    """Squares where a move of exactly ``squares`` king steps onto free squares can end, in
    the order the breadth-first walk meets them. A speed move never pushes nor passes over a
    snail, may step back onto the square just left, ends at once on the finish line and stops
    on mud. ``directions``: a bit per absolute direction every step may take."""
    cells = w[W_SQUARES]
    start = get(st, POS, s)
    buffer = np.empty(3 * cells, dtype=np.int64)  # the ends, this frontier, the next one
    flags = np.zeros(2 * cells, dtype=np.bool_)  # an end already, queued in the next frontier
    n_ends, front, n_front, nxt = 0, cells, 1, 2 * cells
    buffer[front] = start
    for k in range(squares):
        last = k == squares - 1
        n_next = 0
        for i in range(n_front):
            p = buffer[front + i]
            for d in range(8):
                q = step(w, p, d)
                if q < 0 or not (directions >> d) & 1:
                    continue
                if occupant(st, q) >= 0 and q != start:
                    continue
                kq = kind(w, q)
                if last or kq == FINISH or kq == MUD:
                    if not flags[q]:
                        flags[q] = True
                        buffer[n_ends] = q
                        n_ends += 1
                elif not flags[cells + q]:  # the next frontier, without repeats
                    flags[cells + q] = True
                    buffer[nxt + n_next] = q
                    n_next += 1
        for i in range(n_next):
            flags[cells + buffer[nxt + i]] = False
        front, nxt, n_front = nxt, front, n_next
    return buffer[:n_ends]


@njit(cache=True)
def straight(st, w, s, d, squares, jostle, g, after):
    """Move ``s`` up to ``squares`` squares in direction ``d``; the squares moved (or ASKED).

    Without ``jostle`` the snail stops before any snail; with it, entering an occupied square
    pushes the occupant one square in the same direction (chains follow). It always stops
    before what it cannot enter, on mud, and on the finish line."""
    n = st[N_SNAILS]
    moved = 0
    for _ in range(squares):
        q = step(w, get(st, POS, s), d)
        if q < 0:
            break
        if kind(w, q) == FINISH:
            finish(st, s)
            return moved + 1
        t = occupant(st, q)
        if t >= 0:
            if not jostle:
                break
            locked = np.zeros(n, dtype=np.bool_)
            locked[s] = True
            locked[t] = True
            result = push(st, w, t, d, locked, g, after)
            if result == ASKED:
                return ASKED
            if result != PUSHED:
                break
        relocate(st, s, q)
        moved += 1
        if kind(w, q) == MUD:
            break
    return moved


@njit(cache=True)
def leap(st, w, s, d, squares, jostle, g, after):
    """Leap exactly ``squares`` squares in direction ``d`` over snails and obstacles: 1 if the
    snail moved, 0 if not (or ASKED). A leap cannot pass a rail or off-circuit square, nor cross
    an arrow square against its arrow; it finishes if it crosses the finish line. Landing on a
    snail pushes it (with ``jostle``) or makes the leap impossible."""
    p = get(st, POS, s)
    a = geo(w, p, ARROW)
    if a >= 0 and a != d:
        return 0
    cur = p
    for i in range(squares):
        q = nb(w, cur, d)
        if q < 0:
            return 0
        k = kind(w, q)
        if k == FINISH:
            finish(st, s)
            return 1
        a = geo(w, q, ARROW)
        if a >= 0 and a != d:
            return 0
        if i < squares - 1:
            if k == WALL or k == BEHIND:
                return 0
            cur = q
            continue
        if not _on_track(k):
            return 0
        t = occupant(st, q)
        if t >= 0:
            if not jostle:
                return 0
            locked = np.zeros(st[N_SNAILS], dtype=np.bool_)
            locked[s] = True
            locked[t] = True
            result = push(st, w, t, d, locked, g, after)
            if result == ASKED:
                return ASKED
            if result != PUSHED:
                return 0
        relocate(st, s, q)
        return 1
    return 0


@njit(cache=True)
def push(st, w, t, d, locked, g, after):
    """Push snail ``t`` one square in direction ``d``: PUSHED if it left its square, else STUCK
    (or ASKED).

    Into an occupied square: that snail is pushed first (chain). Across the finish line: a
    running snail finishes; a KO snail never does (``ko_at_finish``: the line is a rail for
    it, or it is evacuated). Behind the start line: back to its start slot (:func:`to_slot`).
    Into a rail: the rail rule (put back one square, the snail there jostled backwards; no
    backing: it stays); into an obstacle: the rail rule too, or it stays
    (``pushed_into_obstacle``), scratched by brambles either way. A diagonal push onto or off an
    arrow square fails unless pushes may cut arrows (``pushes_cut_arrows``). Snails of the chain
    (``locked``) cannot be pushed again, so a chain never loops. Guarded: see the module
    docstring (the only recursion here is push calling itself: numba's disk cache cannot load
    mutually recursive functions)."""
    running = get(st, STATUS, t) == RUNNING
    if g.size > 1 and running:  # guarded: the push is tried first, a counter asked if it works
        trial = st.copy()
        if push(trial, w, t, d, locked.copy(), np.zeros(1, dtype=np.int64), after) != PUSHED:
            return STUCK
        if g[G_ANSWERS + MAX_ANSWERS + t]:
            k = g[G_SEEN]
            g[G_SEEN] = k + 1
            if k >= g[G_GIVEN]:
                copy_state(after, trial)
                g[G_ASKED] = t
                g[G_ASKED_DIR] = d
                return ASKED
            if g[G_ANSWERS + k] != 0:
                return STUCK
    p = get(st, POS, t)
    q = nb(w, p, d)
    k = kind(w, q) if q >= 0 else WALL
    target, way = q, d
    if k == FINISH:
        if running:
            finish(st, t)
            return PUSHED
        if w[W_EVACUATED]:
            take_off(st, t, KO)
            return PUSHED
        target, way = geo(w, p, BACK_Q), geo(w, p, BACK_D)
    elif k == BEHIND:
        return PUSHED if to_slot(st, w, t) else STUCK
    elif k == WALL or k == OBST:
        if k == OBST and w[W_DAMAGE] > 0 and running:
            _add_pending(st, t)
        if k == OBST and w[W_STAY]:
            return STUCK
        target, way = geo(w, p, BACK_Q), geo(w, p, BACK_D)
    if target < 0:
        return STUCK
    if w[W_ARROWS_STRAIGHT] and way % 2 == 1 and (geo(w, p, ARROW) >= 0 or geo(w, target, ARROW) >= 0):
        return STUCK
    u = occupant(st, target)
    if u >= 0:
        if locked[u]:
            return STUCK
        locked[u] = True
        result = push(st, w, u, way, locked, g, after)
        if result != PUSHED:
            return result
    relocate(st, t, target)
    return PUSHED


@njit(cache=True, _nrt=False)
def to_slot(st, w, t):
    """Start-line rule: a snail is never pushed behind the start line; it goes back to its start
    slot. If another snail stands there: it stays (``start_slot_taken = "stay"``), or goes to
    the free start slot nearest its own (``"nearest"``, ties: the lower slot; none free: it
    stays)."""
    home = get(st, SLOT, t)
    if home < 0 or home == get(st, POS, t):
        return False
    if occupant(st, home) >= 0:
        if not w[W_NEAREST]:
            return False
        width = w[W_WIDTH]
        best, best_gap = -1, 0
        for i in range(w[W_SLOTS]):
            cell = w[WORLD_HEAD + i]
            if occupant(st, cell) >= 0:
                continue
            gap = abs(cell % width - home % width) + abs(cell // width - home // width)
            if best < 0 or gap < best_gap:
                best, best_gap = cell, gap
        if best < 0:
            return False
        home = best
    relocate(st, t, home)
    return True


@njit(cache=True, _nrt=False)
def behind_another(st, w, s, any_snail):
    """True if ``s`` stands on one of the three squares just behind another running snail
    (that snail's dashboard squares 5, 6, 7); ``any_snail``: a KO snail on the track counts too."""
    p = get(st, POS, s)
    for o in range(st[N_SNAILS]):
        q = get(st, POS, o)
        status = get(st, STATUS, o)
        if o == s or q < 0 or not (status == RUNNING or (any_snail and status == KO)):
            continue
        f = geo(w, q, FRONT)
        if p == nb(w, q, (f + 3) % 8) or p == nb(w, q, (f + 4) % 8) or p == nb(w, q, (f + 5) % 8):
            return True
    return False


@njit(cache=True)
def shot_targets(st, w, s, reach):
    """Running snails of other seats that ``s`` can shoot: within ``reach`` squares along one of
    the 8 grid lines, the first snail on that line, no obstacle or rail in between."""
    out = np.empty(8, dtype=np.int64)
    found = 0
    me = get(st, OWNER, s)
    for d in range(8):
        cur = get(st, POS, s)
        for _ in range(reach):
            cur = nb(w, cur, d)
            if cur < 0 or not _on_track(kind(w, cur)):
                break
            t = occupant(st, cur)
            if t >= 0:
                if get(st, STATUS, t) == RUNNING and get(st, OWNER, t) != me:
                    out[found] = t
                    found += 1
                break
    return out[:found]


@njit(cache=True)
def domino_side(st, w, s, side):
    """Running snails on one side (0, 1) of the domino's line through ``s``, outward from
    ``s``; the line ends at the rails. ``domino_line = "across"``: the row across the track
    (dashboard 8 side, then 4 side); ``"along"``: the file along it (front 2, then back 6)."""
    p = get(st, POS, s)
    f = geo(w, p, FRONT)
    if w[W_ALONG]:
        d = f if side == 0 else (f + 4) % 8
    else:
        d = (f + 6) % 8 if side == 0 else (f + 2) % 8
    line = np.empty(st[N_SNAILS], dtype=np.int64)
    found = 0
    cur = p
    while True:
        cur = nb(w, cur, d)
        if cur < 0:
            break
        k = kind(w, cur)
        if k == WALL or k == BEHIND or k == FINISH:
            break
        t = occupant(st, cur)
        if t >= 0 and get(st, STATUS, t) == RUNNING:
            line[found] = t
            found += 1
    return line[:found]


@njit(cache=True)
def _reach_finish(w, blocked):
    """Squares from which own steps (arrows honoured) reach the finish avoiding ``blocked``."""
    cells = w[W_SQUARES]
    seen = np.zeros(cells, dtype=np.bool_)
    queue = np.empty(cells, dtype=np.int64)
    head, tail = 0, 0
    for cell in range(cells):
        if kind(w, cell) == FINISH:
            seen[cell] = True
            queue[tail] = cell
            tail += 1
    while head < tail:
        q = queue[head]
        head += 1
        for d in range(8):
            p = nb(w, q, (d + 4) % 8)  # p steps into q in direction d
            if p >= 0 and step(w, p, d) == q and not seen[p] and not blocked[p]:
                seen[p] = True
                queue[tail] = p
                tail += 1
    return seen


@njit(cache=True)
def _blocking_ko(w, start, ko_cells):
    """KO squares on the edge of the region ``start`` reaches by own steps."""
    cells = w[W_SQUARES]
    seen = np.zeros(cells, dtype=np.bool_)
    hit = np.zeros(cells, dtype=np.bool_)
    queue = np.empty(cells, dtype=np.int64)
    seen[start] = True
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        p = queue[head]
        head += 1
        for d in range(8):
            q = step(w, p, d)
            if q < 0:
                continue
            if ko_cells[q]:
                hit[q] = True
            elif not seen[q]:
                seen[q] = True
                queue[tail] = q
                tail += 1
    return hit


@njit(cache=True)
def clear_blocking_ko(st, w):
    """Remove the KO snails that block the only passage of a running snail; returns them.

    A running snail is blocked when no path of its own steps (arrows honoured, running snails
    passable) leads to the finish with KO snails as obstacles while one exists without them;
    the KO snails on the edge of its reachable region are removed (status OUT)."""
    n = st[N_SNAILS]
    cells = w[W_SQUARES]
    ko_cells = np.zeros(cells, dtype=np.bool_)
    n_ko = 0
    for s in range(n):
        if get(st, STATUS, s) == KO and get(st, POS, s) >= 0:
            ko_cells[get(st, POS, s)] = True
            n_ko += 1
    removed = np.empty(n, dtype=np.int64)
    n_removed = 0
    if n_ko == 0:
        return removed[:0]
    for _ in range(n_ko + 1):
        reach = _reach_finish(w, ko_cells)
        stuck = -1
        for s in range(n):
            p = get(st, POS, s)
            if get(st, STATUS, s) == RUNNING and not reach[p] and dist(w, p) < INF:
                stuck = s
                break
        if stuck < 0:
            break
        blockers = _blocking_ko(w, get(st, POS, stuck), ko_cells)
        any_blocker = False
        for cell in range(cells):
            if blockers[cell]:
                any_blocker = True
                s = occupant(st, cell)
                removed[n_removed] = s
                n_removed += 1
                take_off(st, s, OUT)
                ko_cells[cell] = False
        if not any_blocker:
            break
    return removed[:n_removed]
