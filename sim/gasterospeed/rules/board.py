"""The public state of a race and its movement mechanics (no cards, no dice, no players).

A :class:`Board` holds what every player sees: where each snail stands, its status and shell
points, in one int64 array (:attr:`Board.state`, laid out in :mod:`.kernels.layout`), so a
copy is one array copy. Its methods are the physical rules, compiled once in
:mod:`.kernels.moves`: speed moves, straight / leap / free moves, jostles (bousculade) with
chains, the rails, the start line, finishing, lines of sight and domino lines, and the removal
of KO snails blocking the only passage. The engine and the simulated players evaluate a move
by playing it on a copy.

Losses of shell points caused by the board itself (a snail pushed into brambles on a circuit
with ``obstacle_damage``) are not applied here: they are queued (:attr:`Board.pending`) for the
race engine, which offers reactions before applying them. Likewise a jostle that the pushed
snail's player may counter is put to :attr:`Board.guard` (set by the engine while a card is
really played; copies have none, so evaluations assume no counter).

The readings of the rules a board needs (``ko_at_finish``, ``pushed_into_obstacle``,
``start_slot_taken``, ``domino_line``) come from the race rules it is built with.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .circuit import ARROW, INF, MUD, TRACK, Circuit
from .kernels import moves as _moves
from .kernels.layout import (
    FINISHED,
    HEAD,
    KO,
    MAX_SHELLS,
    N_ARRIVED,
    N_PENDING,
    OUT,
    POS,
    RUNNING,
    SHELLS,
    SLOT,
    STATUS,
    new_state,
    world_array,
)

__all__ = ["Board", "Guard", "Loss", "RUNNING", "FINISHED", "KO", "OUT", "STATUS_NAMES"]

#: ``OUT``: a KO snail removed from the board (it blocked the only passage) or a snail that
#: never started (no shell committed in the stable-reserve variant).
STATUS_NAMES = ("running", "finished", "ko", "out")
_ON_TRACK = (TRACK, MUD, ARROW)
_ALL = _moves.ALL_DIRECTIONS
#: the guard array of a move nobody may counter (one entry: the kernels never write it)
_UNGUARDED = np.zeros(1, dtype=np.int64)


class Loss(NamedTuple):
    """A loss of shells the board caused, for the engine to apply (reactions first)."""

    snail: int
    amount: int
    cause: str


@dataclass(frozen=True)
class Guard:
    """Who may counter a push during a card really played, and how to ask.

    Attributes:
        may_counter: per snail, whether its player could counter a push at all (holds such a
            reaction, is not the mover's player, has not countered yet).
        answer: ``answer(t, d, after) -> "none" | "block" | "reverse"``, asked before running
            snail ``t`` is pushed in direction ``d`` (``after``: a copy of the board once the
            push is made); any answer but ``"none"`` makes the push fail.
    """

    may_counter: Sequence[bool]
    answer: Callable[[int, int, Board], str]


def _world(circuit: Circuit, rules) -> np.ndarray:
    key = (
        rules.ko_at_finish == "evacuated",
        rules.pushed_into_obstacle == "stay",
        rules.start_slot_taken == "nearest",
        rules.domino_line == "along",
        not rules.pushes_cut_arrows,
    )
    world = circuit.worlds.get(key)
    if world is None:
        world = circuit.worlds[key] = world_array(circuit, *key)
    return world


#: the numpy views into a board's state (see :meth:`Board._bind`)
_VIEWS = frozenset(("pos", "occ", "status", "shells", "max_shells", "slot"))


class Board:
    """Snails on a circuit.

    Attributes:
        c: the compiled :class:`~sim.gasterospeed.rules.circuit.Circuit`; world: its array form.
        owner: seat of each snail; n: how many snails.
        state: the whole state (see :mod:`.kernels.layout`); ``pos``, ``occ``, ``status``,
            ``shells``, ``max_shells``, ``slot`` are numpy views into it:
        pos: square of each snail (-1 when off the board: not placed, finished or removed).
        occ: snail on each square (-1 if free).
        status: RUNNING, FINISHED, KO or OUT per snail.
        shells, max_shells: shell points now and at the start of the race (the cap of gains).
        slot: start-slot square of each snail (-1 until placed).
        rules: the race rules (:class:`~sim.gasterospeed.rules.race.RaceConfig`) whose readings of
            pushes and lines the board applies.
        guard: the :class:`Guard` of a jostle being played (None: no counter).
    """

    __slots__ = (
        "c",
        "world",
        "owner",
        "n",
        "state",
        "pos",
        "occ",
        "status",
        "shells",
        "max_shells",
        "slot",
        "rules",
        "guard",
    )

    def __init__(self, circuit: Circuit, owners: Sequence[int], shells: Sequence[int], rules):
        self.c = circuit
        self.rules = rules
        self.world = _world(circuit, rules)
        self.owner = tuple(int(o) for o in owners)
        self.n = len(self.owner)
        self.state = new_state(self.owner, list(shells), circuit.width * circuit.height)
        self.guard = None
        self._bind()

    def __getattr__(self, name: str):
        """The numpy views of a copy are bound on first use (most copies are only read by the
        compiled kernels, through ``state``)."""
        if name in _VIEWS:
            self._bind()
            return object.__getattribute__(self, name)
        raise AttributeError(name)

    def _bind(self) -> None:
        st, n = self.state, self.n
        self.pos = st[HEAD + POS * n : HEAD + (POS + 1) * n]
        self.status = st[HEAD + STATUS * n : HEAD + (STATUS + 1) * n]
        self.shells = st[HEAD + SHELLS * n : HEAD + (SHELLS + 1) * n]
        self.max_shells = st[HEAD + MAX_SHELLS * n : HEAD + (MAX_SHELLS + 1) * n]
        self.slot = st[HEAD + SLOT * n : HEAD + (SLOT + 1) * n]
        self.occ = st[len(st) - self.c.width * self.c.height :]

    def copy(self) -> Board:
        """An independent copy (no pending losses, no guard)."""
        return self.with_state(self.state.copy())

    def with_state(self, state: np.ndarray) -> Board:
        """A board of the same race holding ``state`` (not copied); no pending losses, no guard."""
        state[N_PENDING] = 0
        return self._holding(state)

    def _holding(self, state: np.ndarray) -> Board:
        b = Board.__new__(Board)
        b.c, b.world, b.owner, b.n, b.rules, b.guard = self.c, self.world, self.owner, self.n, self.rules, None
        b.state = state  # the views: bound on first use (__getattr__)
        return b

    def moved_copy(self, s: int, d: int, squares: int, jostle: bool, leap: bool) -> Board | None:
        """:meth:`copy` then :meth:`straight` (or :meth:`leap`) of ``s`` in direction ``d``, with
        no counter; None when the snail does not move (no board is built then)."""
        state = self.state.copy()
        state[N_PENDING] = 0
        kernel = _moves.leap if leap else _moves.straight
        if kernel(state, self.world, s, d, squares, jostle, _UNGUARDED, _UNGUARDED) <= 0:
            return None
        return self._holding(state)

    # -- basics ------------------------------------------------------------------------------
    @property
    def n_arrived(self) -> int:
        """How many snails have crossed the finish line."""
        return int(self.state[N_ARRIVED])

    @property
    def arrivals(self) -> list[int]:
        """Snails in the order they crossed the finish line."""
        start = HEAD + 6 * self.n
        return self.state[start : start + self.state[N_ARRIVED]].tolist()

    @property
    def pending(self) -> list[Loss]:
        """Losses caused by the board (brambles), oldest first, not yet taken by the engine."""
        start = HEAD + 7 * self.n
        return [
            Loss(s, self.c.obstacle_damage, "bramble")
            for s in self.state[start : start + self.state[N_PENDING]].tolist()
        ]

    def take_pending(self) -> list[Loss]:
        """The pending losses, which the board forgets."""
        if not self.state[N_PENDING]:
            return []
        out = self.pending
        self.state[N_PENDING] = 0
        return out

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
        return np.flatnonzero(self.status == RUNNING).tolist()

    def distance(self, s: int) -> int:
        """Steps to the finish of snail ``s`` (0 once finished, INF if KO or out)."""
        st = self.status[s]
        if st == RUNNING:
            return self.c.dist[self.pos[s]]
        return 0 if st == FINISHED else INF

    def abs_dir(self, s: int, dash: int) -> int:
        """Absolute direction (0..7) of dashboard square ``dash`` (1..8) of snail ``s``."""
        return (self.c.front[self.pos[s]] + dash - 2) % 8

    def finish(self, s: int) -> None:
        """Snail ``s`` crosses the finish line: it leaves the board, its arrival is recorded."""
        _moves.finish(self.state, s)

    def knock_out(self, s: int) -> None:
        """Snail ``s`` is KO: it stays where it is, as an obstacle that can still be jostled."""
        self.shells[s] = 0
        self.status[s] = KO

    def evacuate(self, s: int) -> None:
        """Take KO snail ``s`` off the board; it stays KO (``ko_at_finish = "evacuated"``)."""
        _moves.take_off(self.state, s, self.status[s])

    def remove(self, s: int) -> None:
        """Take snail ``s`` off the board for the rest of the race (status OUT)."""
        _moves.take_off(self.state, s, OUT)

    def enter(self, s: int, q: int) -> None:
        """Snail ``s`` ends a move of its own on ``q`` (a free square, or the finish)."""
        _moves.enter(self.state, self.world, s, q)

    # -- own moves ---------------------------------------------------------------------------
    def speed_ends(self, s: int, squares: int, dirs: frozenset[int] | None = None) -> list[int]:
        """Squares where a move of exactly ``squares`` king steps onto free squares can end.

        A speed move never pushes nor passes over a snail, may step back onto the square just
        left, ends at once on the finish line, and stops on mud. ``dirs`` restricts every step
        to these absolute directions (used by ``free`` moves). Empty list: the move is lost.
        """
        mask = _ALL if dirs is None else sum(1 << d for d in set(dirs))
        return _moves.speed_ends(self.state, self.world, s, squares, mask).tolist()

    def straight(self, s: int, d: int, squares: int, jostle: bool) -> int:
        """Move ``s`` up to ``squares`` squares in direction ``d``; returns the squares moved.

        Without ``jostle`` the snail stops before any snail; with it, entering an occupied
        square pushes the occupant one square in the same direction (chains follow). It
        always stops before what it cannot enter, on mud, and on the finish line.
        """
        return self._move(_moves.straight, s, d, squares, jostle)

    def leap(self, s: int, d: int, squares: int, jostle: bool) -> bool:
        """Leap exactly ``squares`` squares in direction ``d`` over snails and obstacles.

        A leap cannot pass a rail or off-circuit square, nor cross an arrow square against its
        arrow; it finishes if it crosses the finish line. Landing on a snail pushes it (with
        ``jostle``) or makes the leap impossible. Returns whether the snail moved.
        """
        return self._move(_moves.leap, s, d, squares, jostle) > 0

    def _move(self, kernel, s: int, d: int, squares: int, jostle: bool) -> int:
        """Run a move kernel; with a :attr:`guard`, question by question (see ``kernels.moves``):
        each question is asked on the board as it stands at that moment of the move."""
        if self.guard is None or not jostle:
            return int(kernel(self.state, self.world, s, d, squares, jostle, _UNGUARDED, _UNGUARDED))
        before = self.state.copy()
        g = np.zeros(_moves.G_ANSWERS + _moves.MAX_ANSWERS + self.n, dtype=np.int64)
        g[_moves.G_ANSWERS + _moves.MAX_ANSWERS :] = [bool(x) for x in self.guard.may_counter]
        after = np.empty_like(before)
        while True:
            g[_moves.G_SEEN] = 0
            work = before.copy()
            result = int(kernel(work, self.world, s, d, squares, jostle, g, after))
            self.state[:] = work
            if result != _moves.ASKED:
                return result
            answer = self.guard.answer(
                int(g[_moves.G_ASKED]), int(g[_moves.G_ASKED_DIR]), self.with_state(after.copy())
            )
            self.state[:] = before
            given = g[_moves.G_GIVEN]
            if given >= _moves.MAX_ANSWERS:
                raise RuntimeError("more than 64 counters asked in one move")
            g[_moves.G_ANSWERS + given] = 0 if answer == "none" else 1
            g[_moves.G_GIVEN] = given + 1

    # -- jostles, rails, start line ----------------------------------------------------------
    def push(self, t: int, d: int, locked: set[int]) -> bool:
        """Push snail ``t`` one square in direction ``d`` (no counter); True if it left its
        square. Snails in ``locked`` cannot be pushed (see ``kernels.moves.push``)."""
        mask = np.zeros(self.n, dtype=np.bool_)
        mask[list(locked)] = True
        return _moves.push(self.state, self.world, t, d, mask, _UNGUARDED, _UNGUARDED) == _moves.PUSHED

    def to_slot(self, t: int) -> bool:
        """Start-line rule: back to its start slot, or (``start_slot_taken``) it stays or goes
        to the nearest free one."""
        return bool(_moves.to_slot(self.state, self.world, t))

    # -- positions that matter to cards ------------------------------------------------------
    def behind_another(self, s: int, any_snail: bool = False) -> bool:
        """True if ``s`` stands on one of the three squares just behind another running snail
        (that snail's dashboard squares 5, 6, 7); ``any_snail``: a KO snail on the track counts too."""
        return bool(_moves.behind_another(self.state, self.world, s, any_snail))

    def shot_targets(self, s: int, reach: int) -> list[int]:
        """Running snails of other seats that ``s`` can shoot: within ``reach`` squares along one
        of the 8 grid lines, the first snail on that line, no obstacle or rail in between."""
        return _moves.shot_targets(self.state, self.world, s, reach).tolist()

    def domino_sides(self, s: int) -> tuple[list[int], list[int]]:
        """Running snails on the domino's line through ``s``, each side ordered outward from
        ``s``; the line ends at the rails. ``domino_line = "across"``: the row across the track
        (dashboard 8 side, then 4 side); ``"along"``: the file along it (front 2, then back 6)."""
        return (
            _moves.domino_side(self.state, self.world, s, 0).tolist(),
            _moves.domino_side(self.state, self.world, s, 1).tolist(),
        )

    # -- KO snails in the only passage ---------------------------------------------------------
    def clear_blocking_ko(self) -> list[int]:
        """Remove the KO snails that block the only passage of a running snail; returns them.

        A running snail is blocked when no path of its own steps (arrows honoured, running
        snails passable) leads to the finish with KO snails as obstacles while one exists
        without them; the KO snails on the edge of its reachable region are removed.
        """
        if KO not in self.status.tolist():
            return []
        return _moves.clear_blocking_ko(self.state, self.world).tolist()

    # -- display -------------------------------------------------------------------------------
    def render(self, labels: list[str] | None = None) -> list[str]:
        """The map with snails drawn (``labels[s]``; KO snails as ``x``)."""
        c = self.c
        labels = labels or [str(s) for s in range(self.n)]
        rows = [list(row) for row in c.rows]
        for s, cell in enumerate(self.pos.tolist()):
            if cell >= 0:
                r, col = divmod(cell, c.width)
                rows[r][col] = "x" if self.status[s] == KO else labels[s]
        return ["".join(row) for row in rows]
