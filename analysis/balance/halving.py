"""Successive halving of trials on common random numbers: matches where they decide something.

Every trial of a balance search plays the same seeds (common random numbers), so two trials'
objectives on their first ``n`` matches are a paired comparison. Asynchronous successive
halving (ASHA: Li et al., "A system for massively parallel hyperparameter tuning", MLSys
2020; optuna's ``SuccessiveHalvingPruner``) spends matches accordingly: a trial first plays a
small *rung* of matches; it is promoted to the next rung (more matches on the same seeds)
only if its objective there is among the best ``1/η`` of every trial that reached that rung so
far; the best trials reach the full ``matches`` and only they can become candidates.

Rungs (:func:`rungs`): ``first``, ``first·η``, ``first·η²``, ... while below ``matches``, then
``matches``. With ``matches = 800``, ``first = 100``, ``η = 3``: 100, 300, 800. A trial stopped
at a rung is stored as ``pruned`` with the objective of every rung it reached.

Halving only decides where the *search* spends its matches. It does not touch the claims:
a candidate is claimed only by its validation on fresh seeds that no trial played, in an
order fixed before those seeds are played (:mod:`analysis.balance.search`), so whatever the
search did — halving, pruning, TPE's choices — the chance of a false "meets every target"
stays the validation's α.

The promotion rule is pure and depends only on the stored trials, so a resumed search makes
the same decisions as an uninterrupted one.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["rungs", "promoted"]


def rungs(matches: int, first: int, reduction: int) -> list[int]:
    """Cumulative matches at each rung: ``first·η^k`` below ``matches``, then ``matches``.

    >>> rungs(800, 100, 3)
    [100, 300, 800]
    >>> rungs(800, 800, 3)
    [800]
    """
    sizes, size = [], max(1, int(first))
    while size < matches:
        sizes.append(size)
        size *= max(2, int(reduction))
    return [*sizes, int(matches)]


def promoted(value: float, earlier: Sequence[float], reduction: int) -> bool:
    """Whether a trial whose objective at a rung is ``value`` goes on to the next rung.

    ``earlier``: the objectives, at the same rung, of every earlier trial that reached it. The
    trial goes on if it ranks among the best ``max(1, ⌊n/η⌋)`` of the ``n`` trials at the
    rung (itself included): the first trial always goes on, and later ones only while they
    are as good as the best ``1/η`` so far (ASHA's rule; ties go on).

    >>> promoted(0.5, [], 3)
    True
    >>> promoted(0.5, [0.1, 0.9], 3), promoted(0.05, [0.1, 0.9], 3)
    (False, True)
    """
    values = sorted([*earlier, value])
    keep = max(1, len(values) // max(2, int(reduction)))
    return value <= values[keep - 1]
