"""The continuous skill axis through a game's presets (sim.core.skill), on Pig."""

import pytest

from sim.core import ConfigError, get_game, load_profile
from sim.core.skill import player_at_skill, profile_at_skill, skill_range

PIG = get_game("pig")


def test_whole_skills_are_the_presets_and_halves_lie_between():
    for skill, name in enumerate(PIG.skill_path):
        assert profile_at_skill(PIG, skill) == load_profile(PIG, name).profile
    half = profile_at_skill(PIG, 1.5)
    assert half.hold_at == pytest.approx(25.0) and half.hold_sigma == pytest.approx(3.0)
    assert player_at_skill(PIG, 0.25).name == "skill-0.25"


@pytest.mark.parametrize("bad", [-0.1, 2.5, float("nan")])
def test_a_skill_off_the_path_is_one_line_naming_the_range(bad):
    with pytest.raises(ConfigError) as error:
        profile_at_skill(PIG, bad)
    assert len(error.value.problems) == 1 and "allowed: 0 (cautious) to 2 (bold)" in error.value.problems[0]
    assert skill_range(PIG) == (0.0, 2.0)
