"""Circuits: ASCII maps compiled into neighbour tables and distance-to-finish fields.

Legend of a map (one character per square; rows are stripped of surrounding blanks)::

    .   track                         S   start slot (track; slots numbered in reading order)
    F   finish line: entering it = finished      =   behind the start line (not enterable)
    #   off the circuit / rail (not enterable, a leap cannot pass it)
    o   obstacle: mushroom, bramble, rock (not enterable, a leap passes over it)
    ~   mud: a snail entering it stops there (the rest of that move is lost)
    ^ > v <   arrow square (track): it is entered and left only by a straight step in the
              arrow's direction, so snails must pass through and cannot cut diagonally

Squares are integers ``row * width + col``; directions are 0..7 clockwise from north
(N, NE, E, SE, S, SW, W, NW), north being the top of the map. "Forward" everywhere is "fewer
steps to the finish": :attr:`Circuit.dist` is a breadth-first search over 8-neighbour steps
honouring obstacles and arrow squares, so curved and winding tracks work. Each square also has
a ``front`` (the orthogonal direction towards the finish, which orients the dashboard) and a
``back`` square (where the rail rule puts a snail back). Compiled circuits are cached per
:class:`~sim.gasterospeed.rules.schema.CircuitRules` value.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache

__all__ = [
    "Circuit",
    "compile_circuit",
    "parse_map",
    "map_problems",
    "DIRS",
    "TRACK",
    "MUD",
    "ARROW",
    "FINISH",
    "BEHIND",
    "WALL",
    "OBST",
    "INF",
    "LEGEND",
]

DIRS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
TRACK, MUD, ARROW, FINISH, BEHIND, WALL, OBST = range(7)
#: Square kinds a snail may enter (by its own move or when pushed).
ENTERABLE = frozenset((TRACK, MUD, ARROW, FINISH))
INF = 10**6
ARROWS = {"^": 0, ">": 2, "v": 4, "<": 6}
LEGEND = {
    ".": TRACK,
    "S": TRACK,
    "F": FINISH,
    "=": BEHIND,
    "#": WALL,
    "o": OBST,
    "~": MUD,
    **{a: ARROW for a in ARROWS},
}


def parse_map(text: str) -> list[str]:
    """The map's rows (surrounding blanks and empty lines removed)."""
    return [line.strip() for line in text.strip().splitlines() if line.strip()]


def _syntax_problems(rows: list[str]) -> list[str]:
    out = []
    if not rows:
        return ["empty map"]
    width = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != width:
            out.append(f"row {r + 1} has {len(row)} squares, expected {width} (the map must be a rectangle)")
        for c, ch in enumerate(row):
            if ch not in LEGEND:
                out.append(f"row {r + 1}, column {c + 1}: unknown square {ch!r}; allowed: " + " ".join(LEGEND))
                break
    text = "".join(rows)
    if "F" not in text:
        out.append("no finish square 'F'")
    if "S" not in text:
        out.append("no start slot 'S'")
    return out


def map_problems(text: str) -> list[str]:
    """Problems of a map as one message each (empty: the map is valid).

    Checks the legend, the rectangle, and that the finish is reachable from every start slot.
    """
    rows = parse_map(text)
    out = _syntax_problems(rows)
    if out:
        return out
    circuit = _compile(text, "", 6, (), 3, 0)
    for index, cell in enumerate(circuit.slots):
        if circuit.dist[cell] >= INF:
            r, c = divmod(cell, circuit.width)
            out.append(f"start slot {index + 1} (row {r + 1}, column {c + 1}) cannot reach the finish")
    return out


@dataclass(eq=False)
class Circuit:
    """A compiled circuit: per-square tables for the race engine (read-only once built).

    Attributes:
        name, title: id (key of ``[circuits]``) and display name.
        width, height: map size in squares; ``rows`` the map text.
        kind: square kind per square (TRACK, MUD, ARROW, FINISH, BEHIND, WALL, OBST).
        arrow: the arrow's direction per square (-1 if not an arrow square).
        nb: 8 neighbour squares per square (-1 off the map).
        steps: per square, the (direction, square) steps a snail may take by its own move
            (enterable target, arrow rules honoured); occupancy is checked by the engine.
        dist: steps to the finish per square (0 on the finish, INF where it cannot be reached).
        front: orthogonal direction towards the finish per square (orients the dashboard).
        back: (square, direction) of the square straight behind (opposite ``front``), (-1, -1)
            when it is not a track square (then the rail rule cannot put a snail back).
        into: per square, the squares from which a snail's own step reaches it (reversed steps).
        slots: start-slot squares in slot order (reading order of the 'S').
        die, shot_hits, reserve_shells, obstacle_damage: the circuit's rules.
        worlds: the circuit as the compiled kernels read it, per reading of the race rules
            (filled by :class:`~sim.gasterospeed.rules.board.Board`).
    """

    name: str
    title: str
    width: int
    height: int
    rows: tuple[str, ...]
    kind: list[int]
    arrow: list[int]
    nb: list[tuple[int, ...]]
    steps: list[tuple[tuple[int, int], ...]]
    dist: list[int]
    front: list[int]
    back: list[tuple[int, int]]
    into: list[tuple[int, ...]]
    slots: list[int]
    die: int
    shot_hits: frozenset[int]
    reserve_shells: int
    obstacle_damage: int
    worlds: dict = field(default_factory=dict, repr=False)

    @property
    def start_distance(self) -> int:
        """Steps from the farthest start slot to the finish."""
        return max(self.dist[s] for s in self.slots)

    def rc(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.width)

    def step_allowed(self, p: int, d: int) -> int:
        """The square a snail on ``p`` reaches by its own step in direction ``d`` (-1 if none)."""
        for dd, q in self.steps[p]:
            if dd == d:
                return q
        return -1


def compile_circuit(rules, name: str = "") -> Circuit:
    """The compiled :class:`Circuit` of a :class:`~sim.gasterospeed.rules.schema.CircuitRules` (cached)."""
    return _compile(
        rules.map,
        rules.title or name,
        rules.die,
        tuple(rules.shot_hits),
        rules.reserve_shells,
        rules.obstacle_damage,
        name,
    )


def _fronts(kind: list[int], arrow: list[int], nb: list[tuple[int, ...]], dist: list[int]) -> list[int]:
    """Each track square's front: the direction (0..7) a snail faces there, its arrow's on an
    arrow square, else the 4-neighbour nearest the finish by a walk on which obstacles do not
    count (only rails do), so the dashboard does not flip in front of a mushroom; ties broken by
    ``dist`` then direction."""
    n = len(kind)
    odist = [INF] * n
    queue = deque(c for c in range(n) if kind[c] == FINISH)
    for c in queue:
        odist[c] = 0
    while queue:
        q = queue.popleft()
        for d in (0, 2, 4, 6):
            p = nb[q][d]
            if p >= 0 and odist[p] == INF and kind[p] in (TRACK, MUD, ARROW, OBST):
                odist[p] = odist[q] + 1
                queue.append(p)
    front = [0] * n
    for p in range(n):
        if kind[p] not in (TRACK, MUD, ARROW):
            continue
        if arrow[p] >= 0:
            front[p] = arrow[p]
            continue
        best, best_key = 0, None
        for d in (0, 2, 4, 6):
            q = nb[p][d]
            if q < 0 or kind[q] in (WALL, BEHIND):
                continue
            key = (odist[q], dist[q], d)
            if best_key is None or key < best_key:
                best, best_key = d, key
        front[p] = best
    return front


@lru_cache(maxsize=128)
def _compile(
    text: str,
    title: str,
    die: int,
    shot_hits: tuple[int, ...],
    reserve_shells: int,
    obstacle_damage: int,
    name: str = "",
) -> Circuit:
    rows = parse_map(text)
    problems = _syntax_problems(rows)
    if problems:
        raise ValueError(f"circuit {name or title}: " + "; ".join(problems))
    h, w = len(rows), len(rows[0])
    n = h * w
    kind = [LEGEND[ch] for row in rows for ch in row]
    arrow = [ARROWS.get(ch, -1) for row in rows for ch in row]
    slots = [r * w + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "S"]
    nb: list[tuple[int, ...]] = []
    for cell in range(n):
        r, c = divmod(cell, w)
        nb.append(tuple((r + dr) * w + (c + dc) if 0 <= r + dr < h and 0 <= c + dc < w else -1 for dr, dc in DIRS))
    steps: list[tuple[tuple[int, int], ...]] = []
    for p in range(n):
        out = []
        if kind[p] in (TRACK, MUD, ARROW):
            for d, q in enumerate(nb[p]):
                if q < 0 or kind[q] not in ENTERABLE:
                    continue
                if arrow[p] >= 0 and d != arrow[p]:
                    continue
                if arrow[q] >= 0 and d != arrow[q]:
                    continue
                out.append((d, q))
        steps.append(tuple(out))
    # distance to the finish: BFS over reversed steps
    dist = [INF] * n
    queue = deque()
    for cell in range(n):
        if kind[cell] == FINISH:
            dist[cell] = 0
            queue.append(cell)
    into_lists: list[list[int]] = [[] for _ in range(n)]
    for p in range(n):
        for _, q in steps[p]:
            into_lists[q].append(p)
    into = [tuple(x) for x in into_lists]
    while queue:
        q = queue.popleft()
        for p in into[q]:
            if dist[p] == INF:
                dist[p] = dist[q] + 1
                queue.append(p)
    front = _fronts(kind, arrow, nb, dist)
    back: list[tuple[int, int]] = []
    for p in range(n):
        choice = (-1, -1)
        if kind[p] in (TRACK, MUD, ARROW):
            d = (front[p] + 4) % 8
            q = nb[p][d]
            if q >= 0 and kind[q] in (TRACK, MUD, ARROW):
                choice = (q, d)
        back.append(choice)
    return Circuit(
        name=name,
        title=title or name,
        width=w,
        height=h,
        rows=tuple(rows),
        kind=kind,
        arrow=arrow,
        nb=nb,
        steps=steps,
        dist=dist,
        front=front,
        back=back,
        into=into,
        slots=slots,
        die=die,
        shot_hits=frozenset(shot_hits),
        reserve_shells=reserve_shells,
        obstacle_damage=obstacle_damage,
    )
