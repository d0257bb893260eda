"""Gastérospeed's compiled kernels (numba): the movement rules and the players' look-ahead on
a compact board (one int64 array per state, see :mod:`.layout`).

    layout.py     where the state, the circuit ("world") and the cards live in their arrays
    moves.py      speed moves, straight moves, leaps, jostles, rails, lines (the one copy of
                  the movement rules: the race engine and every look-ahead use it)
    value.py      the tactician's value of a board, the greedy player's distance
    lookahead.py  move outcomes, card play values, action plans, speed-move plans
    tactician_phases.py  a table of tacticians: its speed phase, its action cards chosen

numba caches the machine code on disk (``cache=True``) but only tracks the file that defines a
function, not the modules it calls: importing this package stamps the cache with a digest of
every kernel source and clears it when one changed, so an edit of ``moves.py`` never leaves a
stale ``lookahead`` behind. Nothing is compiled until a kernel is first called.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_MODULES = ("layout", "moves", "value", "lookahead", "tactician_phases")


def _drop_stale_cache() -> None:
    here = Path(__file__).parent
    cache = here / "__pycache__"
    digest = hashlib.sha256()
    for name in _MODULES:
        digest.update((here / f"{name}.py").read_bytes())
    stamp = cache / "gasterospeed_kernels.stamp"
    try:
        if stamp.exists() and stamp.read_text() == digest.hexdigest():
            return
        for name in _MODULES:
            for path in cache.glob(f"{name}.*.nb[ic]"):
                path.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest.hexdigest())
    except OSError:  # a read-only install: nothing to clear, nothing to stamp
        pass


_drop_stale_cache()
