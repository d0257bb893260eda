"""Skill is real: the champion beats the beginner, and clears a practice board in fewer strokes
than the club player. Bounded statistical tests (about a minute together).

A fuller measurement (more games, Wilson CIs):
    PYTHONPATH=. .venv/bin/python benchmarks/carrom_practice.py --boards 40
"""

import numpy as np
import pytest
from scipy import stats

from sim.carrom.practice import practice_table
from sim.core import load_lineup
from sim.core.seeding import MatchSeeds

from ..helpers import SPEC, rules


@pytest.mark.slow
def test_champion_beats_beginner_in_90_percent_of_games():
    r = rules()
    n, wins = 16, 0  # (24 before: about a minute on CI; 16/16 has a Wilson low of 0.81)
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


def test_the_skill_path_ends_at_its_presets_and_interpolates_between_them():
    from sim.core.profiles import load_profile
    from sim.core.skill import player_at_skill, skill_range

    path = SPEC.skill_path
    assert path == ("beginner", "casual", "club", "champion")
    assert skill_range(SPEC) == (0.0, 3.0)
    assert player_at_skill(SPEC, 0.0).profile == load_profile(SPEC, path[0]).profile
    assert player_at_skill(SPEC, 3.0).profile == load_profile(SPEC, path[-1]).profile
    mid = player_at_skill(SPEC, 1.5).profile  # half way from casual to club
    casual, club = (load_profile(SPEC, name).profile for name in ("casual", "club"))
    assert mid.angle_sigma_deg == pytest.approx((casual.angle_sigma_deg + club.angle_sigma_deg) / 2)
    assert mid.value_next_pot_opponent == pytest.approx(-0.5)  # casual weighs nothing, club -1


@pytest.mark.slow
def test_win_rate_rises_along_the_skill_path():
    from sim.core.game import Player
    from sim.core.skill import player_at_skill

    r = rules("game.max_boards=1")
    wins = n = 0
    for low, high in ((0.0, 1.5), (1.5, 3.0)):
        a, b = player_at_skill(SPEC, high, "high"), player_at_skill(SPEC, low, "low")
        for m in range(8):
            seats = (a, b) if m % 2 == 0 else (b, a)
            log = SPEC.play_match(r, tuple(Player(p.name, p.profile) for p in seats), MatchSeeds(77, m))
            w = log.matches["winner"]
            n += 1
            wins += w >= 0 and seats[w].name == "high"
    assert stats.binomtest(wins, n, alternative="greater").pvalue < 0.05, (wins, n)
