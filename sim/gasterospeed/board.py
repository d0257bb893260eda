"""The public state of a race and its movement mechanics (no cards, no dice, no players).

A :class:`Board` holds what every player sees: where each snail stands, its status and shell
points. Its methods are the physical rules: speed moves, straight / leap / free moves, jostles
(bousculade) with chains, the rails, the start line, finishing, lines of sight and domino
lines, and the removal of KO snails blocking the only passage. It is cheap to copy, so the
engine and the simulated players evaluate a move by playing it on a copy.

Losses of shell points caused by the board itself (a snail pushed into brambles on a circuit
with ``obstacle_damage``) are not applied here: they are queued in :attr:`Board.pending` for
the race engine, which offers reactions before applying them. Likewise a jostle that the
pushed snail's player may counter is put to :attr:`Board.guard` (set by the engine while a card
is really played; copies have none, so evaluations assume no counter).

The readings of the rules a board needs (``ko_at_finish``, ``pushed_into_obstacle``,
``start_slot_taken``, ``domino_line``) come from the race rules it is built with.
"""

from __future__ import annotations

from collections import deque

from .circuit import ARROW, BEHIND, FINISH, INF, MUD, OBST, TRACK, WALL, Circuit

__all__ = ["Board", "RUNNING", "FINISHED", "KO", "OUT", "STATUS_NAMES"]

RUNNING, FINISHED, KO, OUT = 0, 1, 2, 3
#: ``OUT``: a KO snail removed from the board (it blocked the only passage) or a snail that
#: never started (no shell committed in the stable-reserve variant).
STATUS_NAMES = ("running", "finished", "ko", "out")
_ON_TRACK = (TRACK, MUD, ARROW)


class Board:
    """Snails on a circuit.

    Attributes:
        c: the compiled :class:`~sim.gasterospeed.circuit.Circuit`.
        owner: seat of each snail.
        pos: square of each snail (-1 when off the board: not placed, finished or removed).
        occ: snail on each square (-1 if free).
        status: RUNNING, FINISHED, KO or OUT per snail.
        shells, max_shells: shell points now and at the start of the race (the cap of gains).
        slot: start-slot square of each snail (-1 until placed).
        arrivals: snails in the order they crossed the finish line.
        pending: ``(snail, amount, cause)`` losses caused by the board, for the engine.
        rules: the race rules (:class:`~sim.gasterospeed.race.RaceConfig`) whose readings of
            pushes and lines the board applies.
        guard: ``guard(t, d, after) -> "none" | "block" | "reverse"``, asked before a running
            snail ``t`` is pushed in direction ``d`` (``after``: a copy of the board once the
            push is made); None: no counter. A ``block`` makes the push fail, a ``reverse``
            too (the engine then pushes the mover back).
    """

    __slots__ = ("c", "owner", "pos", "occ", "status", "shells", "max_shells", "slot", "arrivals",
                 "pending", "rules", "guard")

    def __init__(self, circuit: Circuit, owners: list[int], shells: list[int], rules):
        self.c = circuit
        self.rules = rules
        self.guard = None
        n = len(owners)
        self.owner = list(owners)
        self.pos = [-1] * n
        self.occ = [-1] * (circuit.width * circuit.height)
        self.status = [RUNNING] * n
        self.shells = list(shells)
        self.max_shells = list(shells)
        self.slot = [-1] * n
        self.arrivals: list[int] = []
        self.pending: list[tuple[int, int, str]] = []

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.c = self.c
        b.owner = self.owner
        b.pos = self.pos[:]
        b.occ = self.occ[:]
        b.status = self.status[:]
        b.shells = self.shells[:]
        b.max_shells = self.max_shells[:]
        b.slot = self.slot[:]
        b.arrivals = self.arrivals[:]
        b.pending = []
        b.rules = self.rules
        b.guard = None
        return b

    # -- basics ------------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.owner)

    def place(self, s: int, cell: int, start_slot: bool = True) -> None:
        """Put snail ``s`` on ``cell`` (a free track square); it becomes its start slot."""
        if self.occ[cell] >= 0 or self.c.kind[cell] not in _ON_TRACK:
            raise ValueError(f"square {self.c.rc(cell)} is not a free track square")
        if self.pos[s] >= 0:
            self.occ[self.pos[s]] = -1
        self.pos[s] = cell
        self.occ[cell] = s
        if start_slot:
            self.slot[s] = cell

    def running(self) -> list[int]:
        return [s for s, st in enumerate(self.status) if st == RUNNING]

    def distance(self, s: int) -> int:
        """Steps to the finish of snail ``s`` (0 once finished, INF if KO or out)."""
        st = self.status[s]
        if st == RUNNING:
            return self.c.dist[self.pos[s]]
        return 0 if st == FINISHED else INF

    def abs_dir(self, s: int, dash: int) -> int:
        """Absolute direction (0..7) of dashboard square ``dash`` (1..8) of snail ``s``."""
        return (self.c.front[self.pos[s]] + dash - 2) % 8

    def _relocate(self, s: int, q: int) -> None:
        self.occ[self.pos[s]] = -1
        self.occ[q] = s
        self.pos[s] = q

    def finish(self, s: int) -> None:
        """Snail ``s`` crosses the finish line: it leaves the board, its arrival is recorded."""
        self.occ[self.pos[s]] = -1
        self.pos[s] = -1
        self.status[s] = FINISHED
        self.arrivals.append(s)

    def knock_out(self, s: int) -> None:
        """Snail ``s`` is KO: it stays where it is, as an obstacle that can still be jostled."""
        self.shells[s] = 0
        self.status[s] = KO

    def evacuate(self, s: int) -> None:
        """Take KO snail ``s`` off the board; it stays KO (``ko_at_finish = "evacuated"``)."""
        if self.pos[s] >= 0:
            self.occ[self.pos[s]] = -1
        self.pos[s] = -1

    def remove(self, s: int) -> None:
        """Take snail ``s`` off the board for the rest of the race (status OUT)."""
        if self.pos[s] >= 0:
            self.occ[self.pos[s]] = -1
        self.pos[s] = -1
        self.status[s] = OUT

    def enter(self, s: int, q: int) -> None:
        """Snail ``s`` ends a move of its own on ``q`` (a free square, or the finish)."""
        if self.c.kind[q] == FINISH:
            self.finish(s)
        else:
            self._relocate(s, q)

    # -- own moves ---------------------------------------------------------------------------
    def speed_ends(self, s: int, squares: int, dirs: frozenset[int] | None = None) -> list[int]:
        """Squares where a move of exactly ``squares`` king steps onto free squares can end.

        A speed move never pushes nor passes over a snail, may step back onto the square just
        left, ends at once on the finish line, and stops on mud. ``dirs`` restricts every step
        to these absolute directions (used by ``free`` moves). Empty list: the move is lost.
        """
        c, occ = self.c, self.occ
        steps, kind = c.steps, c.kind
        start = self.pos[s]
        ends: list[int] = []
        seen = set()
        frontier = [start]
        for step in range(squares):
            last = step == squares - 1
            nxt = []
            for p in frontier:
                for d, q in steps[p]:
                    if dirs is not None and d not in dirs:
                        continue
                    if occ[q] >= 0 and q != start:
                        continue
                    if last or kind[q] == FINISH or kind[q] == MUD:
                        if q not in seen:
                            seen.add(q)
                            ends.append(q)
                    else:
                        nxt.append(q)
            frontier = list(dict.fromkeys(nxt))
        return ends

    def straight(self, s: int, d: int, squares: int, jostle: bool) -> int:
        """Move ``s`` up to ``squares`` squares in direction ``d``; returns the squares moved.

        Without ``jostle`` the snail stops before any snail; with it, entering an occupied
        square pushes the occupant one square in the same direction (chains follow). It
        always stops before what it cannot enter, on mud, and on the finish line.
        """
        c = self.c
        kind, occ = c.kind, self.occ
        moved = 0
        for _ in range(squares):
            p = self.pos[s]
            q = c.step_allowed(p, d)
            if q < 0:
                break
            if kind[q] == FINISH:
                self.finish(s)
                return moved + 1
            t = occ[q]
            if t >= 0:
                if not jostle or not self.push(t, d, {s, t}):
                    break
            self._relocate(s, q)
            moved += 1
            if kind[q] == MUD:
                break
        return moved

    def leap(self, s: int, d: int, squares: int, jostle: bool) -> bool:
        """Leap exactly ``squares`` squares in direction ``d`` over snails and obstacles.

        A leap cannot pass a rail or off-circuit square, nor cross an arrow square against its
        arrow; it finishes if it crosses the finish line. Landing on a snail pushes it (with
        ``jostle``) or makes the leap impossible. Returns whether the snail moved.
        """
        c = self.c
        kind, arrow, nb = c.kind, c.arrow, c.nb
        p = self.pos[s]
        if arrow[p] >= 0 and arrow[p] != d:
            return False
        cur = p
        for i in range(squares):
            q = nb[cur][d]
            if q < 0:
                return False
            k = kind[q]
            if k == FINISH:
                self.finish(s)
                return True
            if arrow[q] >= 0 and arrow[q] != d:
                return False
            if i < squares - 1:
                if k == WALL or k == BEHIND:
                    return False
                cur = q
                continue
            if k not in _ON_TRACK:
                return False
            t = self.occ[q]
            if t >= 0 and (not jostle or not self.push(t, d, {s, t})):
                return False
            self._relocate(s, q)
            return True
        return False

    # -- jostles, rails, start line ----------------------------------------------------------
    def push(self, t: int, d: int, locked: set[int]) -> bool:
        """Push snail ``t`` one square in direction ``d``; True if it left its square.

        Into an occupied square: that snail is pushed first (chain). Across the finish line: a
        running snail finishes; a KO snail never does (``ko_at_finish``: the line is a rail
        for it, or it is evacuated). Behind the start line: it goes back to its start slot
        (:meth:`to_slot`). Into a rail: the rail rule (:meth:`rail`); into an obstacle: the rail
        rule too, or it stays (``pushed_into_obstacle``). Snails of the chain being resolved
        (``locked``) cannot be pushed again, so a chain never loops. With a :attr:`guard`, the
        pushed snail's player may counter first (only when the push would succeed).
        """
        if self.guard is not None and self.status[t] == RUNNING:
            after = self.copy()
            if not after.push(t, d, set(locked)):
                return False
            if self.guard(t, d, after) != "none":
                return False
        c = self.c
        p = self.pos[t]
        q = c.nb[p][d]
        k = c.kind[q] if q >= 0 else WALL
        if k == FINISH:
            if self.status[t] == RUNNING:
                self.finish(t)
                return True
            if self.rules.ko_at_finish == "evacuated":
                self.evacuate(t)
                return True
            return self.rail(t, locked)
        if k == BEHIND:
            return self.to_slot(t)
        if k == WALL or k == OBST:
            if k == OBST and c.obstacle_damage and self.status[t] == RUNNING:
                self.pending.append((t, c.obstacle_damage, "bramble"))
            if k == OBST and self.rules.pushed_into_obstacle == "stay":
                return False
            return self.rail(t, locked)
        u = self.occ[q]
        if u >= 0:
            if u in locked:
                return False
            locked.add(u)
            if not self.push(u, d, locked):
                return False
        self._relocate(t, q)
        return True

    def rail(self, t: int, locked: set[int]) -> bool:
        """Rail rule: ``t``, pushed off the circuit, is put back one square.

        If that square is occupied, its snail is jostled backwards; if no backing is possible,
        ``t`` stays on the square where it left the circuit (returns False).
        """
        q, bd = self.c.back[self.pos[t]]
        if q < 0:
            return False
        u = self.occ[q]
        if u >= 0:
            if u in locked:
                return False
            locked.add(u)
            if not self.push(u, bd, locked):
                return False
        self._relocate(t, q)
        return True

    def to_slot(self, t: int) -> bool:
        """Start-line rule: a snail is never pushed behind the start line; it goes back to its
        start slot. If another snail stands there: it stays where it is (``start_slot_taken =
        "stay"``), or goes to the free start slot nearest its own (``"nearest"``, ties: the
        lower slot; none free: it stays)."""
        home = self.slot[t]
        if home < 0 or home == self.pos[t]:
            return False
        if self.occ[home] >= 0:
            free = [cell for cell in self.c.slots if self.occ[cell] < 0]
            if self.rules.start_slot_taken != "nearest" or not free:
                return False
            width = self.c.width
            home = min(free, key=lambda cell: (abs(cell % width - home % width) + abs(cell // width - home // width),
                                               self.c.slots.index(cell)))
        self._relocate(t, home)
        return True

    # -- positions that matter to cards ------------------------------------------------------
    def behind_another(self, s: int) -> bool:
        """True if ``s`` stands on one of the three squares just behind another running snail
        (that snail's dashboard squares 5, 6, 7)."""
        c = self.c
        p = self.pos[s]
        for o, q in enumerate(self.pos):
            if o == s or q < 0 or self.status[o] != RUNNING:
                continue
            f = c.front[q]
            nbq = c.nb[q]
            if p == nbq[(f + 3) % 8] or p == nbq[(f + 4) % 8] or p == nbq[(f + 5) % 8]:
                return True
        return False

    def shot_targets(self, s: int, reach: int) -> list[int]:
        """Running snails of other seats that ``s`` can shoot: within ``reach`` squares along one
        of the 8 grid lines, the first snail on that line, no obstacle or rail in between."""
        c = self.c
        kind, nb, occ = c.kind, c.nb, self.occ
        me = self.owner[s]
        out = []
        for d in range(8):
            cur = self.pos[s]
            for _ in range(reach):
                cur = nb[cur][d]
                if cur < 0 or kind[cur] not in _ON_TRACK:
                    break
                t = occ[cur]
                if t >= 0:
                    if self.status[t] == RUNNING and self.owner[t] != me:
                        out.append(t)
                    break
        return out

    def domino_sides(self, s: int) -> tuple[list[int], list[int]]:
        """Running snails on the domino's line through ``s``, each side ordered outward from
        ``s``; the line ends at the rails. ``domino_line = "across"``: the row across the track
        (dashboard 8 side, then 4 side); ``"along"``: the file along it (front 2, then back 6)."""
        c = self.c
        kind, nb, occ = c.kind, c.nb, self.occ
        p = self.pos[s]
        f = c.front[p]
        sides = []
        ends = ((f + 6) % 8, (f + 2) % 8) if self.rules.domino_line == "across" else (f, (f + 4) % 8)
        for d in ends:
            line = []
            cur = p
            while True:
                cur = nb[cur][d]
                if cur < 0 or kind[cur] in (WALL, BEHIND, FINISH):
                    break
                t = occ[cur]
                if t >= 0 and self.status[t] == RUNNING:
                    line.append(t)
            sides.append(line)
        return sides[0], sides[1]

    # -- KO snails in the only passage ---------------------------------------------------------
    def clear_blocking_ko(self) -> list[int]:
        """Remove the KO snails that block the only passage of a running snail; returns them.

        A running snail is blocked when no path of its own steps (arrows honoured, running
        snails passable) leads to the finish with KO snails as obstacles while one exists
        without them; the KO snails on the edge of its reachable region are removed.
        """
        ko_cells = {self.pos[s] for s, st in enumerate(self.status) if st == KO and self.pos[s] >= 0}
        if not ko_cells:
            return []
        c = self.c
        removed: list[int] = []
        for _ in range(len(ko_cells) + 1):
            reach = self._reach_finish(ko_cells)
            stuck = [s for s in self.running() if self.pos[s] not in reach and c.dist[self.pos[s]] < INF]
            if not stuck:
                break
            blockers = self._blocking_ko(self.pos[stuck[0]], ko_cells)
            if not blockers:
                break
            for cell in sorted(blockers):
                s = self.occ[cell]
                removed.append(s)
                self.remove(s)
                ko_cells.discard(cell)
        return removed

    def _reach_finish(self, blocked: set[int]) -> set[int]:
        c = self.c
        seen = {cell for cell in range(len(c.kind)) if c.kind[cell] == FINISH}
        queue = deque(seen)
        into = c.into
        while queue:
            q = queue.popleft()
            for p in into[q]:
                if p not in seen and p not in blocked:
                    seen.add(p)
                    queue.append(p)
        return seen

    def _blocking_ko(self, start: int, ko_cells: set[int]) -> set[int]:
        steps = self.c.steps
        seen = {start}
        queue = deque([start])
        hit = set()
        while queue:
            p = queue.popleft()
            for _, q in steps[p]:
                if q in ko_cells:
                    hit.add(q)
                elif q not in seen:
                    seen.add(q)
                    queue.append(q)
        return hit

    # -- display -------------------------------------------------------------------------------
    def render(self, labels: list[str] | None = None) -> list[str]:
        """The map with snails drawn (``labels[s]``; KO snails as ``x``)."""
        c = self.c
        labels = labels or [str(s) for s in range(self.n)]
        rows = [list(row) for row in c.rows]
        for s, cell in enumerate(self.pos):
            if cell >= 0:
                r, col = divmod(cell, c.width)
                rows[r][col] = "x" if self.status[s] == KO else labels[s]
        return ["".join(row) for row in rows]
