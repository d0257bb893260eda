"""The planner: its shot families and their profile keys, its noise, and the same tables for the
same seeds as before it was compiled."""

import dataclasses
import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest

from sim.core import MatchSeeds, load_lineup
from sim.core.rules import load_rules
from sim.curlastique import GAME
from sim.curlastique.players.families import FAMILY_IDS, RANDOM, candidate_rows, finish, kit
from sim.curlastique.players.planner import Planner
from sim.curlastique.players.policies import (
    CurlastiqueProfile,
    NoisyPolicy,
    Policy,
    RandomPlayer,
    clip_shot,
    launch_limits,
    make_policy,
)
from sim.curlastique.rules.board import discs_for, launch_velocity, physics, simulate_throws, table
from sim.curlastique.rules.situation import Shot, Situation
from sim.physics import DISC, ExecutionNoise, execute_shots, trace

RULES = load_rules(GAME)
MUG = RULES.physics.friction * RULES.physics.gravity
CY = RULES.zones.centre_y
DATA = Path(__file__).parents[1] / "data" / "seeded_tables.json.gz"
#: columns added since the stored tables were written (new columns, not changes of play)
ADDED = {"events": {"aim_zone"}}


def situation(pos, owner, seat=0, n=2):
    pos = np.asarray(pos, dtype=float).reshape(-1, 2)
    return Situation(
        RULES,
        seat,
        1,
        False,
        pos,
        np.asarray(owner, dtype=np.int64),
        np.arange(n),
        tuple(range(n)),
        np.full(n, 3),
        (0,) * n,
    )


def shots_of(profile, sit, budget=None):
    k = kit(RULES, profile)
    rows = candidate_rows(k, sit.pos, sit.owner, sit.side, sit.seat, budget or profile.candidates)
    return finish(k, rows), rows[:, 0].astype(int).tolist()


def test_a_seat_policy_is_built_from_its_profile_or_is_the_policy_itself():
    assert isinstance(make_policy(CurlastiqueProfile(), RULES), Planner)
    assert isinstance(make_policy(CurlastiqueProfile(policy="random"), RULES), RandomPlayer)
    scripted = RandomPlayer(RULES)
    assert isinstance(scripted, Policy) and make_policy(scripted, RULES) is scripted


def test_execution_noise_is_the_physics_execute_shots_draw_for_draw():
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    profile = CurlastiqueProfile(position_sigma_m=0.02, angle_sigma_deg=4.0, speed_sigma_rel=0.4)
    policy = NoisyPolicy(RULES, profile)
    noise = ExecutionNoise(0.02, 4.0, 0.4)
    for x, angle, speed in ((0.0, 0.0, 1.4), (0.18, 33.0, 2.9), (-0.1, -20.0, 0.3)) * 20:
        got = policy.execute(Shot(x, angle, speed), rng_a)
        ex, ea, ev = execute_shots(x, angle, speed, noise, rng_b)
        assert got == clip_shot(launch_limits(RULES), float(ex), float(ea), float(ev))


def test_families_fill_the_budget_in_the_profiles_fill_order():
    empty = situation(np.zeros((0, 2)), [])
    _, fams = shots_of(CurlastiqueProfile(candidates=8), empty)  # empty board: draws and guards only
    assert fams == [FAMILY_IDS[f] for f in ("draw", "draw", "draw", "guard") * 2]
    order = ("guard", "draw")
    _, fams = shots_of(CurlastiqueProfile(candidates=5, fill_order=order), empty)
    assert fams == [FAMILY_IDS[f] for f in ("guard", "draw", "guard", "draw", "draw")]
    _, fams = shots_of(CurlastiqueProfile(candidates=6, families=("draw",)), empty)
    assert set(fams) == {FAMILY_IDS["draw"]}


def test_the_first_draw_stops_on_the_target_centre():
    shots, _ = shots_of(CurlastiqueProfile(), situation(np.zeros((0, 2)), []))
    x, angle, speed = shots[0]
    final, on = simulate_throws(RULES, np.zeros((0, 2)), np.zeros(0, int), 0, [x], [angle], [speed])
    assert on[0, 0] and final[0, 0] == pytest.approx([0.0, CY], abs=1e-9)


def test_draws_avoid_spots_near_resting_pucks_by_the_clearance():
    pos = [[0.01, CY]]
    for clearance, centre_free in ((0.0, True), (1.15, False)):
        shots, fams = shots_of(CurlastiqueProfile(draw_clearance=clearance), situation(pos, [1]))
        draws = shots[np.array(fams) == FAMILY_IDS["draw"]]
        final, _ = simulate_throws(RULES, np.zeros((0, 2)), np.zeros(0, int), 0, *draws.T)
        assert (np.hypot(final[:, 0, 0], final[:, 0, 1] - CY) < 1e-6).any() == centre_free


@pytest.mark.parametrize("firm, soft", [(1.2, 0.6), (0.9, 0.3)])
def test_take_outs_arrive_at_their_impact_speeds(firm, soft):
    target = np.array([[0.0, 0.7]])
    profile = CurlastiqueProfile(takeout_firm_speed=firm, takeout_soft_speed=soft)
    shots, fams = shots_of(profile, situation(target, [1]))
    takeouts = shots[np.array(fams) == FAMILY_IDS["takeout"]]
    assert len(takeouts) == 4  # firm, soft, two cuts
    for (x, angle, speed), impact in zip(takeouts[:2], (firm, soft), strict=True):
        discs = discs_for(RULES, target, np.array([1]), 0)
        discs.pos[-1] = (x, RULES.launch_y)
        discs.vel[-1] = launch_velocity(angle, speed)
        tr = trace(table(RULES), physics(RULES), discs)
        first = int(np.flatnonzero(tr.result.events["kind"] == DISC)[0])
        row = tr.impact(first)
        mover = "a" if int(tr.result.events[first]["a"]) == 1 else "b"
        assert math.hypot(row[f"{mover}_vx_before"], row[f"{mover}_vy_before"]) == pytest.approx(impact, rel=1e-9)


def test_guards_stop_their_distances_short_of_the_sides_best_puck():
    own = np.array([[0.03, CY]])
    profile = CurlastiqueProfile(guard_distances_m=(0.1, 0.2, 0.3))
    shots, fams = shots_of(profile, situation(own, [0]))
    guards = shots[np.array(fams) == FAMILY_IDS["guard"]]
    final, _ = simulate_throws(RULES, np.zeros((0, 2)), np.zeros(0, int), 0, *guards.T)
    assert final[:, 0, 1] == pytest.approx([CY - 0.1, CY - 0.2, CY - 0.3], abs=1e-9)
    assert final[:, 0, 0] == pytest.approx([0.03] * 3, abs=1e-9)


#: Own pucks worth 40 and 20 (the first in line with the centre), opponents' worth 20, 40, 80
#: (the first two in line for a double).
CROWDED = ([[0.0, 0.65], [-0.06, 0.64], [0.06, 0.62], [0.08, 0.70], [-0.02, 0.78]], [0, 0, 1, 1, 1])


def test_raises_and_doubles_aim_along_the_line_of_centres():
    sit = situation(*CROWDED)
    shots, fams = shots_of(CurlastiqueProfile(candidates=80), sit)
    assert fams.count(FAMILY_IDS["raise"]) == 1 and fams.count(FAMILY_IDS["double"]) == 1
    for family, hit in (("raise", 0), ("double", 2)):
        x, angle, speed = shots[fams.index(FAMILY_IDS[family])]
        final, on = simulate_throws(RULES, sit.pos, sit.owner, 0, [x], [angle], [speed])
        moved = np.hypot(*(final[0, hit] - sit.pos[hit]))
        assert moved > 0.01, family  # the aimed puck was hit
    x, angle, speed = shots[fams.index(FAMILY_IDS["raise"])]
    final, _ = simulate_throws(RULES, sit.pos, sit.owner, 0, [x], [angle], [speed])
    assert np.hypot(final[0, 0, 0], final[0, 0, 1] - CY) < 0.01  # raised onto the centre


#: Every style key, with a changed value, on a crowded board.
STYLE = {
    "draw_spots_per_ring": 6,
    "draw_spots": 3,
    "draw_clearance": 2.0,
    "draw_offset_m": 0.05,
    "takeout_targets": 1,
    "takeout_firm_speed": 1.5,
    "takeout_soft_speed": 0.4,
    "takeout_cut": 0.9,
    "raise_targets": 0,
    "double_targets": 1,
    "double_partners": 1,
    "double_max_gap_m": 0.05,
    "double_speed": 1.2,
    "guard_distances_m": (0.1,),
    "fill_order": ("takeout", "double", "raise"),
}


@pytest.mark.parametrize("key", sorted(STYLE))
def test_every_style_key_changes_the_candidates(key):
    sit = situation(*CROWDED)
    base = CurlastiqueProfile(candidates=80)
    before = shots_of(base, sit)[0]
    after = shots_of(dataclasses.replace(base, **{key: STYLE[key]}), sit)[0]
    assert before.shape != after.shape or not np.array_equal(before, after), key


def test_jitter_fills_the_budget_and_random_shots_when_no_family_offers_one():
    profile = CurlastiqueProfile(candidates=30, families=("takeout",), fallback_speed=(0.5, 0.6))
    planner = Planner(RULES, profile)
    empty = situation(np.zeros((0, 2)), [])
    shots, fams, aims = planner.candidates(empty, np.random.default_rng(0))
    draw = math.sqrt(2 * MUG * (CY - RULES.launch_y))
    assert set(fams.tolist()) == {RANDOM} and len(shots) == 30 and not aims.any()
    assert ((shots[:, 2] >= 0.5 * draw) & (shots[:, 2] <= 0.6 * draw)).all()
    planner = Planner(
        RULES, CurlastiqueProfile(candidates=30, jitter_x_m=0.0, jitter_angle_deg=0.0, jitter_speed_rel=0.0)
    )
    shots, fams, aims = planner.candidates(empty, np.random.default_rng(0))  # 20 from the families, 10 copies
    assert np.array_equal(shots[20:], shots[:10]) and fams[20:].tolist() == fams[:10].tolist()
    assert aims[20:].tolist() == aims[:10].tolist()


def _same(a, b, path):
    if isinstance(a, float) and isinstance(b, float):
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-9, abs=1e-12), path
    else:
        assert a == b, path


def test_same_seeds_give_the_stored_tables():
    """``data/seeded_tables.json.gz``: 11 seeded matches played by a reference version of the
    planner (not compiled, and without the engine's broad phase). The same decisions, integers
    equal and floats equal to 1e-9 (the stored file was bit-identical on the machine that wrote it),
    plus the columns added since (``ADDED``); regenerate it only with a change that is meant to alter play."""
    stored = json.loads(gzip.open(DATA, "rt", encoding="utf-8").read())
    for case in stored:
        rules = load_rules(GAME, None, case["set"])
        log = GAME.play_match(rules, load_lineup(GAME, case["players"], rules), MatchSeeds(*case["seed"]))
        for name, rows in case["tables"].items():
            got = log.tables()[name]
            assert len(got) == len(rows), (case["players"], name)
            for i, (old, new) in enumerate(zip(rows, got, strict=True)):
                assert set(new) - set(old) == ADDED.get(name, set()) and set(old) <= set(new), (name, i)
                for key in old:
                    _same(old[key], new[key], (case["players"], case["set"], name, i, key))
