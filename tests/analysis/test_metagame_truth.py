"""The profile matrix against known truths (:mod:`tests.analysis.metagame_truth`): a purely
transitive game (one strength per profile, a first-seat term) and rock-paper-scissors; and the
meta-game's functions on exact matrices."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from analysis.metagame import alpha_rank, cyclic_share, nash
from tests.analysis.metagame_truth import study

REPS, MATCHES = 16, 200
LEVEL = 0.001


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


RPS = np.array([[0.5, 0.2, 0.8], [0.8, 0.5, 0.2], [0.2, 0.8, 0.5]])  # paper beats rock, ...


def test_rock_paper_scissors_is_all_cycle_with_a_uniform_equilibrium():
    assert cyclic_share(RPS) == pytest.approx(1.0)
    assert nash(RPS) == pytest.approx([1 / 3] * 3, abs=1e-9)
    assert alpha_rank(RPS) == pytest.approx([1 / 3] * 3, abs=1e-9)


def test_a_bradley_terry_matrix_is_all_gradient_with_the_best_profile_alone_in_equilibrium():
    strengths = np.array([0.0, 0.5, 1.0, 1.5])
    p = _sigmoid(strengths[:, None] - strengths[None, :])
    assert cyclic_share(p) == pytest.approx(0.0, abs=1e-12)
    assert nash(p) == pytest.approx([0, 0, 0, 1], abs=1e-9)
    ranked = alpha_rank(p)
    assert np.argmax(ranked) == 3 and ranked[3] > 0.9  # the population ends on the best profile


def test_a_dominated_profile_leaves_the_equilibrium_of_a_cycle():
    """Rock-paper-scissors plus a fourth profile every hand beats: the support stays the three."""
    p = np.full((4, 4), 0.5)
    p[:3, :3] = RPS
    p[:3, 3], p[3, :3] = 0.9, 0.1
    weights = nash(p)
    assert weights[3] == pytest.approx(0.0, abs=1e-9) and weights[:3] == pytest.approx([1 / 3] * 3, abs=1e-9)
    assert 0.1 < cyclic_share(p) < 1.0  # the cycle remains, beside the gradient towards it


@pytest.fixture(scope="module", params=["strength", "hands"])
def runs(request):
    return request.param, study(request.param, REPS, MATCHES, bootstrap=150)


def _at_least(held: int, share: float = 0.95) -> None:
    assert stats.binomtest(held, REPS, share, alternative="less").pvalue >= LEVEL, f"held in {held}/{REPS}"


@pytest.mark.slow
def test_every_interval_holds_its_truth(runs):
    mode, frame = runs
    for column in ("seat", "cyclic", "nash", "alpha_rank", *(("ratings",) if mode == "strength" else ())):
        _at_least(int(frame[column].sum()))


@pytest.mark.slow
def test_the_transitive_game_reads_transitive_and_rock_paper_scissors_cyclic(runs):
    mode, frame = runs
    if mode == "strength":
        assert (frame["top"] == "best").all() and (frame["support"] == 1).all()
        assert (frame["cyclic_high"] < 0.1).all(), frame["cyclic_high"].max()
    else:
        assert (frame["support"] == 3).all()
        assert (frame["cyclic_low"] > 0.9).all(), frame["cyclic_low"].min()
