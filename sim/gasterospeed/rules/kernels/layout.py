"""Where everything lives in the compact int64 arrays the compiled kernels read.

**The state** of a board is one int64 array, so a copy for a look-ahead is one array copy::

    [0] n snails   [1] arrivals so far   [2] pending losses   [3] squares of the circuit
    then n entries each: pos, status, shells, max_shells, slot, owner, arrivals (in order)
    then the pending losses (snails pushed into brambles, in order; PENDING_PER_SNAIL × n + 16)
    then the occupant of every square (-1: free)

**The world** is the circuit and the readings of the race rules a board applies, built once
per circuit and rules (:func:`world_array`)::

    [0] squares  [1] width  [2] obstacle damage  [3] ko_at_finish = "evacuated"
    [4] pushed_into_obstacle = "stay"  [5] start_slot_taken = "nearest"
    [6] domino_line = "along"  [7] the shot die's faces  [8] faces that hit
    [9] start slots  [10] where the square table starts
    [11] pushes_cut_arrows = false (a push never moves a snail diagonally onto or off an arrow
    square); start slots from WORLD_HEAD
    then GEO_COLUMNS per square: kind, arrow, front, dist, back square, back direction,
    the 8 neighbours, the 8 own steps (square reached by a step in each direction, -1: none)

**The cards** of a deck are one int64 array (:func:`cards_array`): one row of TYPE_COLUMNS
per deck entry (kind, number or order, squares, where its effects and its direction table
start and how many), then EFFECT_COLUMNS per effect (op, squares, path, roll, jostle, amount,
range, the ``behind`` condition (0 none, 1 behind a running snail, 2 behind any snail on the
track), how many die faces, directions, then how many times each
face 0..20 is listed), then the direction tables.

Helpers (``get``, ``put``, ``occupant`` ...) are compiled and inlined into their callers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..circuit import INF

__all__ = [
    "RUNNING",
    "FINISHED",
    "KO",
    "OUT",
    "POS",
    "STATUS",
    "SHELLS",
    "MAX_SHELLS",
    "SLOT",
    "OWNER",
    "new_state",
    "state_size",
    "world_array",
    "cards_array",
    "pending_capacity",
]

RUNNING, FINISHED, KO, OUT = 0, 1, 2, 3

# -- the state array
N_SNAILS, N_ARRIVED, N_PENDING, N_SQUARES = 0, 1, 2, 3
HEAD = 4
#: per-snail fields, each n entries after HEAD
POS, STATUS, SHELLS, MAX_SHELLS, SLOT, OWNER, ARRIVALS = range(7)
_FIELDS = 7
#: pending losses a state can hold per snail: a move of at most 10 squares pushes each snail at
#: most once per square; the engine takes them after every effect, look-aheads ignore them
PENDING_PER_SNAIL = 16

# -- the world array
(
    W_SQUARES,
    W_WIDTH,
    W_DAMAGE,
    W_EVACUATED,
    W_STAY,
    W_NEAREST,
    W_ALONG,
    W_DIE,
    W_HITS,
    W_SLOTS,
    W_GEO,
    W_ARROWS_STRAIGHT,
) = range(12)
WORLD_HEAD = 12
KIND, ARROW, FRONT, DIST, BACK_Q, BACK_D, NB, STEP = 0, 1, 2, 3, 4, 5, 6, 14
GEO_COLUMNS = 22


# -- the cards array
C_TYPES, C_EFFECTS_AT, C_TABLES_AT = 0, 1, 2
CARDS_HEAD = 4
T_KIND, T_NUMBER, T_SQUARES, T_EFF_START, T_EFF_COUNT, T_TAB_START, T_TAB_LEN, T_ATTACKS = range(8)
TYPE_COLUMNS = 8
(E_OP, E_SQUARES, E_PATH, E_ROLL, E_JOSTLE, E_AMOUNT, E_RANGE, E_BEHIND, E_N_FACES, E_N_DIRS, E_DIRS) = range(11)
E_FACES = E_DIRS + 8
EFFECT_COLUMNS = E_FACES + 21
MOVE, SHELL, SHOOT, DOMINO = range(4)  # the order of rules.EFFECT_OPS
STRAIGHT, LEAP, FREE = range(3)
_OPS = {"move": MOVE, "shell": SHELL, "shoot": SHOOT, "domino": DOMINO}
_PATHS = {"straight": STRAIGHT, "leap": LEAP, "free": FREE}
#: an effect's E_BEHIND column: no condition, behind a running snail, behind any snail on the track
NO_CONDITION, BEHIND_RUNNING, BEHIND_ANY = range(3)
_CONDITIONS = {"none": NO_CONDITION, "behind": BEHIND_RUNNING, "behind_any": BEHIND_ANY}


def cards_array(types) -> np.ndarray:
    """The cards array of a deck's entries (``types``: one CardInfo per deck entry, in order)."""
    effects = [e for info in types for e in info.effects]
    tables = [dash for info in types for dash in info.direction_table]
    effects_at = CARDS_HEAD + TYPE_COLUMNS * len(types)
    tables_at = effects_at + EFFECT_COLUMNS * len(effects)
    a = np.zeros(tables_at + len(tables), dtype=np.int64)
    a[C_TYPES], a[C_EFFECTS_AT], a[C_TABLES_AT] = len(types), effects_at, tables_at
    a[tables_at:] = tables
    n_effects = n_dashes = 0
    for t, info in enumerate(types):
        row = CARDS_HEAD + TYPE_COLUMNS * t
        a[row : row + TYPE_COLUMNS] = (
            info.kind,
            info.number,
            info.squares,
            n_effects,
            len(info.effects),
            n_dashes,
            len(info.direction_table),
            any(e.op in ("shoot", "domino") for e in info.effects),
        )
        n_dashes += len(info.direction_table)
        for eff in info.effects:
            at = effects_at + EFFECT_COLUMNS * n_effects
            dirs = list(dict.fromkeys(eff.directions))  # dashboard squares, repeats dropped
            a[at : at + E_DIRS] = (
                _OPS[eff.op],
                eff.squares,
                _PATHS[eff.path],
                eff.roll,
                eff.jostle,
                eff.amount,
                eff.range,
                _CONDITIONS[eff.condition],
                len(eff.faces),
                len(dirs),
            )
            a[at + E_DIRS : at + E_DIRS + len(dirs)] = dirs
            for face in eff.faces:
                a[at + E_FACES + face] += 1
            n_effects += 1
    return a


def pending_capacity(n: int) -> int:
    return PENDING_PER_SNAIL * n + 16


def state_size(n: int, squares: int) -> int:
    return HEAD + _FIELDS * n + pending_capacity(n) + squares


def new_state(owners, shells, squares: int) -> np.ndarray:
    """A state with every snail off the board (pos and slot -1), running, with its shells."""
    n = len(owners)
    st = np.full(state_size(n, squares), -1, dtype=np.int64)
    st[N_SNAILS], st[N_ARRIVED], st[N_PENDING], st[N_SQUARES] = n, 0, 0, squares
    st[HEAD + STATUS * n : HEAD + (STATUS + 1) * n] = RUNNING
    st[HEAD + SHELLS * n : HEAD + (SHELLS + 1) * n] = shells
    st[HEAD + MAX_SHELLS * n : HEAD + (MAX_SHELLS + 1) * n] = shells
    st[HEAD + OWNER * n : HEAD + (OWNER + 1) * n] = owners
    return st


def world_array(
    circuit, evacuated: bool, stay: bool, nearest: bool, along: bool, arrows_straight: bool = False
) -> np.ndarray:
    """The world of a compiled circuit under the rules' readings (see the module docstring)."""
    squares = circuit.width * circuit.height
    slots = list(circuit.slots)
    geo_at = WORLD_HEAD + len(slots)
    w = np.full(geo_at + squares * GEO_COLUMNS, -1, dtype=np.int64)
    w[: W_ARROWS_STRAIGHT + 1] = (
        squares,
        circuit.width,
        circuit.obstacle_damage,
        evacuated,
        stay,
        nearest,
        along,
        circuit.die,
        len(circuit.shot_hits),
        len(slots),
        geo_at,
        arrows_straight,
    )
    w[WORLD_HEAD:geo_at] = slots
    geo = w[geo_at:].reshape(squares, GEO_COLUMNS)
    geo[:, KIND] = circuit.kind
    geo[:, ARROW] = circuit.arrow
    geo[:, FRONT] = circuit.front
    geo[:, DIST] = circuit.dist
    geo[:, BACK_Q] = [b[0] for b in circuit.back]
    geo[:, BACK_D] = [b[1] for b in circuit.back]
    geo[:, NB : NB + 8] = circuit.nb
    for p, steps in enumerate(circuit.steps):
        for d, q in steps:
            geo[p, STEP + d] = q
    return w


# -- compiled accessors ------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def card(cards, t, column):
    return cards[CARDS_HEAD + TYPE_COLUMNS * t + column]


@njit(cache=True, _nrt=False)
def effect(cards, t, k, column):
    """Column of the ``k``-th effect of card type ``t``."""
    e = cards[CARDS_HEAD + TYPE_COLUMNS * t + T_EFF_START] + k
    return cards[cards[C_EFFECTS_AT] + EFFECT_COLUMNS * e + column]


@njit(cache=True, _nrt=False)
def dash(cards, t, i):
    """The ``i``-th entry of card type ``t``'s direction table."""
    return cards[cards[C_TABLES_AT] + cards[CARDS_HEAD + TYPE_COLUMNS * t + T_TAB_START] + i]


@njit(cache=True, _nrt=False)
def copy_state(dst, src):
    """``dst[:] = src`` for two states of one size, as a plain loop (numba's slice assignment
    checks shapes and broadcasts: several times slower on these short arrays)."""
    for i in range(src.size):
        dst[i] = src[i]


@njit(cache=True, _nrt=False)
def get(st, field, s):
    return st[HEAD + field * st[N_SNAILS] + s]


@njit(cache=True, _nrt=False)
def put(st, field, s, value):
    st[HEAD + field * st[N_SNAILS] + s] = value


@njit(cache=True, _nrt=False)
def occ_at(st):
    n = st[N_SNAILS]
    return HEAD + _FIELDS * n + PENDING_PER_SNAIL * n + 16


@njit(cache=True, _nrt=False)
def occupant(st, q):
    return st[occ_at(st) + q]


@njit(cache=True, _nrt=False)
def set_occupant(st, q, s):
    st[occ_at(st) + q] = s


@njit(cache=True, _nrt=False)
def arrival_index(st, s):
    """Index of snail ``s`` in the arrival order (-1 if it has not finished)."""
    base = HEAD + ARRIVALS * st[N_SNAILS]
    for k in range(st[N_ARRIVED]):
        if st[base + k] == s:
            return k
    return -1


@njit(cache=True, _nrt=False)
def geo(w, p, column):
    return w[w[W_GEO] + p * GEO_COLUMNS + column]


@njit(cache=True, _nrt=False)
def steps_to_finish(st, w, s):
    """Steps to the finish of snail ``s``: 0 once finished, ``INF`` if KO or out (as
    :meth:`~sim.gasterospeed.rules.board.Board.distance`)."""
    status = get(st, STATUS, s)
    if status == RUNNING:
        return dist(w, get(st, POS, s))
    return 0 if status == FINISHED else INF


@njit(cache=True, _nrt=False)
def kind(w, p):
    return w[w[W_GEO] + p * GEO_COLUMNS + KIND]


@njit(cache=True, _nrt=False)
def dist(w, p):
    return w[w[W_GEO] + p * GEO_COLUMNS + DIST]


@njit(cache=True, _nrt=False)
def nb(w, p, d):
    return w[w[W_GEO] + p * GEO_COLUMNS + NB + d]


@njit(cache=True, _nrt=False)
def step(w, p, d):
    return w[w[W_GEO] + p * GEO_COLUMNS + STEP + d]
