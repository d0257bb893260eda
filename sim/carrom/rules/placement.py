"""Where the striker may stand: the free stretches of a base line, compiled (numba).

The rules allow the striker anywhere on the seat's base line (and base circles) where it
touches no coin; :func:`free_spans` turns the legal stretches and the coins near the line
into the free intervals, in the shooter's local frame (metres). The board
(:meth:`~sim.carrom.rules.board.Geometry.free_spans`) and the players' aim both use it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["free_spans"]


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
