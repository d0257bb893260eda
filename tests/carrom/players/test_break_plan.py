"""How a player breaks (``break_plan``) and the break rehearsal (sim.carrom.rehearse)."""

import dataclasses
import math

import numpy as np
import pytest

from sim.carrom.match import plan_view
from sim.carrom.players.planner import Planner
from sim.carrom.rehearse import rehearse
from sim.carrom.rules.flow import BoardState
from sim.core import load_lineup
from sim.core.config import ConfigError
from sim.core.game import Player
from sim.core.seeding import MatchSeeds
from tests.benchmarks.scripts import load

from ..helpers import SPEC, rules

main = load("carrom_rehearse").main  # the study's command line


def _club(**changes):
    r = rules()
    player = load_lineup(SPEC, ["club", "club"], r)[0]
    return Player(player.name, dataclasses.replace(player.profile, **changes))


def _break_view(r=None):
    state = BoardState(r or rules(), 2, breaker=0)
    return state, plan_view(state, 0)


def _breaks_by_seat(profile_changes, matches=3):
    r = rules("game.target_points=25")
    seen = {}
    for m in range(matches):
        players = [_club(**profile_changes), _club(**profile_changes)]
        log = SPEC.play_match(r, players, MatchSeeds(5, m))
        for row in log.events:
            if row["is_break"]:
                seen.setdefault((m, row["seat"]), []).append(
                    (row["intended_x"], row["intended_angle_deg"], row["intended_speed"])
                )
    return seen


def test_the_presets_settle_on_their_break_for_the_match():
    for name in ("beginner", "casual", "club", "champion"):
        assert load_lineup(SPEC, [name, name], rules())[0].profile.break_plan == "once_per_match"


def test_once_per_match_plays_each_seats_first_break_again_and_each_board_replans():
    kept = _breaks_by_seat({"break_plan": "once_per_match"})
    assert sum(len(b) >= 2 for b in kept.values()) >= 4  # several breaks per seat were played
    assert all(len(set(b)) == 1 for b in kept.values())
    replanned = _breaks_by_seat({"break_plan": "each_board"})
    assert any(len(set(b)) > 1 for b in replanned.values())


def test_a_kept_break_is_the_first_decision_and_draws_nothing_more():
    state, view = _break_view()
    planner = Planner(_club().profile, state.geo)
    rng = np.random.default_rng(11)
    first = planner.decide(view, rng)
    after_first = rng.bit_generator.state
    assert planner.decide(view, rng) is first and rng.bit_generator.state == after_first
    # the first decision is the planner's own: a fresh planner on the same draws decides the same
    again = Planner(_club(break_plan="each_board").profile, state.geo).decide(view, np.random.default_rng(11))
    assert (again.x, again.angle_deg, again.speed) == (first.x, first.angle_deg, first.speed)


def test_a_rehearsed_break_is_played_as_written_without_planning():
    state, view = _break_view()
    profile = _club(
        break_plan="rehearsed", rehearsed_break_offset_m=0.04, rehearsed_break_aim=1.0, rehearsed_break_speed=40.0
    ).profile
    rng = np.random.default_rng(3)
    before = rng.bit_generator.state
    stroke = Planner(profile, state.geo).decide(view, rng)
    assert rng.bit_generator.state == before  # nothing simulated
    geo = state.geo
    assert stroke.kind == "break" and stroke.x == pytest.approx(0.04)
    assert stroke.speed == geo.rules.striker.max_speed  # capped
    # aimed at one coin radius right of the queen's centre, from the striker's spot
    assert stroke.angle_deg == pytest.approx(math.degrees(math.atan2(-(geo.rc - 0.04), -geo.striker_y)))


def test_rehearse_pairs_its_breaks_and_ranks_one_that_cannot_reach_the_formation_last():
    profile = _club(break_offsets_m=(0.0,), break_aims=(0.0,), break_speeds=(0.3, 5.5, 5.5)).profile
    table = rehearse(profile, rules(), samples=40, seed=2)
    assert list(table["speed"]) == [5.5, 5.5, 0.3]
    # the same break twice on common draws: exactly the same values, a zero paired difference
    assert table.loc[1, ["diff", "diff_low", "diff_high"]].tolist() == [0.0, 0.0, 0.0]
    assert table.loc[2, "diff_high"] < 0  # the slow break is told apart from the best
    again = rehearse(profile, rules(), samples=40, seed=2)
    assert again.equals(table)


def test_the_rehearse_command_prints_the_profile_lines_and_rejects_bad_input(capsys):
    assert main(["--profile", "champion", "--samples", "8", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert 'break_plan = "rehearsed"' in out and "rehearsed_break_speed = " in out
    assert main(["--profile", "nope"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'nope'" in err[0]


def test_an_unknown_break_plan_is_a_config_error_naming_the_key(tmp_path):
    bad = tmp_path / "p.toml"
    bad.write_text('base = "club"\nbreak_plan = "sometimes"\n')
    with pytest.raises(ConfigError, match="break_plan"):
        load_lineup(SPEC, [str(bad), "club"], rules())
