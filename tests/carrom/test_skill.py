"""Skill is real: the champion beats the beginner, and clears a practice board in fewer strokes
than the club player. Bounded statistical tests (about a minute together).

The full measurement (more games, Wilson CIs) is in the report of the carrom issue:
    PYTHONPATH=. .venv/bin/python -m sim.carrom.practice --boards 40
"""

import numpy as np
import pytest
from scipy import stats

from sim.carrom.practice import practice_table
from sim.core import load_lineup
from sim.core.seeding import MatchSeeds

from .helpers import SPEC, rules


@pytest.mark.slow
def test_champion_beats_beginner_in_90_percent_of_games():
    r = rules()
    n, wins = 24, 0
    for m in range(n):
        lineup = ["champion", "beginner"] if m % 2 == 0 else ["beginner", "champion"]
        log = SPEC.play_match(r, load_lineup(SPEC, lineup, r), MatchSeeds(2026, m))
        w = log.matches["winner"]
        wins += w >= 0 and lineup[w] == "champion"
    assert wins / n >= 0.9
    assert stats.binomtest(wins, n).proportion_ci(method="wilson").low > 0.7


@pytest.mark.slow
def test_champion_clears_a_practice_board_in_fewer_strokes_than_club():
    r = rules()
    players = [load_lineup(SPEC, [name, name], r)[0] for name in ("champion", "club")]
    table = practice_table(r, players, boards=10, seed=7)
    champ = table[table.profile == "champion"]["strokes"].to_numpy(float)
    club = table[table.profile == "club"]["strokes"].to_numpy(float)
    assert table["cleared"].all()
    assert champ.mean() < club.mean()
    assert stats.ttest_ind(champ, club, equal_var=False, alternative="less").pvalue < 0.01
    assert np.median(champ) < np.median(club)
