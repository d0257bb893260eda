"""The shared dexterity pieces: the noise fields and the turn step (decide, noise, place, resolve)."""

import math
from dataclasses import dataclass, fields

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.core.config import ConfigError, build
from sim.dexterity import ExecutionProfile, ShotParams, angle_sigma, execute_shot, play_turn
from sim.physics import execute_shots


@given(st.integers(0, 2**32 - 1), st.floats(-0.2, 0.2), st.floats(-60, 60), st.floats(0.0, 8.0))
def test_one_execution_draws_exactly_what_execute_shots_draws(seed, x, angle, speed):
    profile = ExecutionProfile(0.004, 1.5, 0.08)
    mine = execute_shot(ShotParams(x, angle, speed), profile.noise, np.random.default_rng(seed))
    ex, ea, ev = execute_shots(x, angle, speed, profile.noise, np.random.default_rng(seed))
    assert mine == (float(ex), float(ea), float(ev))
    assert mine.speed >= 0.0


def test_the_noise_fields_carry_units_and_bounds_and_a_game_may_change_the_defaults():
    @dataclass(frozen=True)
    class Game(ExecutionProfile):
        angle_sigma_deg: float = angle_sigma(0.7)

    meta = {f.name: f.metadata for f in fields(Game)}
    assert meta["angle_sigma_deg"]["unit"] == "deg" and meta["position_sigma_m"]["unit"] == "m"
    assert Game().angle_sigma_deg == 0.7 and Game().noise.angle_deg == 0.7
    with pytest.raises(ConfigError) as exc:
        build(Game, {"angle_sigma_deg": 45.0})
    assert any("angle_sigma_deg" in line for line in exc.value.problems)


class _Policy:
    def __init__(self, x):
        self.x = x

    def decide(self, view, rng):
        return ("intent", view)

    def execute(self, intent, rng):
        return ShotParams(self.x, 1.0, 2.0)


def test_a_turn_places_the_executed_shot_and_resolves_it_from_there():
    turn = play_turn(
        _Policy(0.3),
        "board",
        np.random.default_rng(0),
        place=lambda x: x - 0.1,
        resolve=lambda shot: ("played", shot),
        forfeit=lambda: "lost",
    )
    assert turn.intent == ("intent", "board") and turn.executed == ShotParams(0.3, 1.0, 2.0)
    assert turn.placed == pytest.approx(0.2) and turn.played == ShotParams(turn.placed, 1.0, 2.0)
    assert turn.outcome == ("played", turn.played)


@pytest.mark.parametrize(
    "x, place", [(math.nan, lambda x: pytest.fail("placed a forfeited shot")), (0.3, lambda x: math.nan)]
)
def test_a_shot_without_a_legal_start_is_forfeited_and_not_resolved(x, place):
    turn = play_turn(
        _Policy(x),
        "board",
        np.random.default_rng(0),
        place=place,
        resolve=lambda shot: pytest.fail("resolved a forfeited shot"),
        forfeit=lambda: "lost",
    )
    assert turn.outcome == "lost" and math.isnan(turn.placed)
