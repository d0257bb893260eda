"""The continuous skill axis (GameSpec.skill_path, sim.core.skill) through the planner presets."""

import dataclasses

import pytest

from analysis.winrates import wilson_interval
from sim.core.game import Player, get_game
from sim.core.profiles import load_profile
from sim.core.rules import load_rules
from sim.core.runner import Cell, run_cells
from sim.core.skill import player_at_skill, profile_at_skill, skill_range

SPEC = get_game("curlastique")


def test_the_path_runs_through_four_planner_presets_and_ends_on_them():
    path = SPEC.skill_path
    assert len(path) >= 3 and {load_profile(SPEC, name).profile.policy for name in path} == {"planner"}
    assert skill_range(SPEC) == (0.0, len(path) - 1)
    for skill, name in enumerate(path):  # 0 and the top are the end presets, integers the others
        assert player_at_skill(SPEC, float(skill)).profile == load_profile(SPEC, name).profile
    low, high = (load_profile(SPEC, name).profile for name in path[1:3])
    half = profile_at_skill(SPEC, 1.5)
    assert half.candidates == round((low.candidates + high.candidates) / 2)
    assert (
        min(low.angle_sigma_deg, high.angle_sigma_deg)
        < half.angle_sigma_deg
        < max(low.angle_sigma_deg, high.angle_sigma_deg)
    )
    assert dataclasses.replace(
        half, candidates=low.candidates, samples=low.samples, position_sigma_m=0, angle_sigma_deg=0, speed_sigma_rel=0
    ) == dataclasses.replace(low, position_sigma_m=0, angle_sigma_deg=0, speed_sigma_rel=0)  # only skill moves


@pytest.mark.slow
def test_win_rate_against_a_fixed_opponent_rises_along_the_path():
    """Skills 0, 1, 2, 3 each play 60 games (30 seeds, both seatings) against the club preset
    (against the novice one club and expert both win about 95 %: no room to rise), to 300 points:
    the win rate rises at every step, and the ends' 95 % intervals are apart."""
    rules = load_rules(SPEC, None, ["game.target_score=300"])
    reference = Player("reference", load_profile(SPEC, "club").profile)
    skills = [float(s) for s in range(len(SPEC.skill_path))]
    cells = [
        Cell("path", f"skill-{s:g}", rules, [player_at_skill(SPEC, s), reference], rotate_seats=True) for s in skills
    ]
    tables = run_cells(SPEC, cells, 60, root_seed=20261202, jobs=2, progress=False)
    players = tables["players"]
    rates, intervals = [], []
    for s in skills:
        mine = players[(players["lineup"] == f"skill-{s:g}") & (players["profile"] == f"skill-{s:g}")]
        wins, games = int(mine["won"].sum()), len(mine)
        assert games == 60
        rates.append(wins / games)
        intervals.append(wilson_interval(wins, games, 0.95))
    assert rates == sorted(rates) and len(set(rates)) == len(rates), rates
    assert intervals[0][1] < intervals[-1][0], (rates, intervals)
