"""Restricted play (profile key ``forbid``): a forbidden ring is never aimed at, a forbidden
family never chosen, nothing forbidden plays as before, everything forbidden still throws
(random shots), and ``restrictions.used`` counts what the events show."""

import dataclasses
import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from sim.core import MatchSeeds, Player, load_lineup, run_cells
from sim.core.config import ConfigError
from sim.core.restrict import USED_COLUMNS, check_forbid
from sim.core.rules import load_rules
from sim.core.runner import Cell
from sim.curlastique import GAME
from sim.curlastique.players.families import (
    AIM,
    AX,
    AY,
    FAM,
    FAMILY_IDS,
    RANDOM,
    X0,
    candidate_rows,
    kit,
    ring_of,
)
from sim.curlastique.players.planner import Planner
from sim.curlastique.players.policies import CurlastiqueProfile
from sim.curlastique.restrictions import choices, used
from sim.curlastique.rules.situation import Situation

from .test_planner import _same

RULES = load_rules(GAME, None, ["game.target_score=150"])
DATA = Path(__file__).parents[1] / "data" / "seeded_tables.json.gz"
ZONES = tuple(f"zone.{i}" for i in range(1, 5))
SHOTS = ("shot.draw", "shot.takeout", "shot.raise", "shot.double", "shot.guard")
#: pucks near the centre, two of each seat (seat 0 throws): every family has candidates
CROWDED = ([[0.0, 0.65], [-0.06, 0.64], [0.06, 0.62], [0.08, 0.70], [-0.02, 0.78]], [0, 0, 1, 1, 1])


def crowded():
    pos, owner = np.asarray(CROWDED[0], dtype=float), np.asarray(CROWDED[1], dtype=np.int64)
    return Situation(RULES, 0, 1, False, pos, owner, np.arange(2), (0, 1), np.full(2, 3), (0, 0))


def play(forbid=(), matches=3, seed=7, refs=("casual", "casual")):
    players = load_lineup(GAME, list(refs), RULES)
    first = Player(players[0].name, dataclasses.replace(players[0].profile, forbid=tuple(forbid)))
    return run_cells(GAME, [Cell("baseline", "forbid", RULES, (first, *players[1:]))], matches, seed, progress=False)


def seat(tables, s):
    ev = tables["events"]
    return ev[ev["seat"] == s]


def test_the_choices_are_the_rings_by_number_then_the_families():
    named = {c.name: c for c in choices(RULES)}
    assert tuple(named) == ZONES + SHOTS
    assert named["zone.1"].label == "the 100-point zone (ring 1)" and named["shot.takeout"].label == "take-out shots"
    five = load_rules(GAME, None, ["zones.values=[100,100,40,20,10]", "zones.radii=[0.03,0.06,0.1,0.14,0.18]"])
    assert [c.name for c in choices(five)][:5] == [f"zone.{i}" for i in range(1, 6)]  # repeated values: rings
    lone = (Player("casual", CurlastiqueProfile(forbid=("zone.5",))), Player("casual", CurlastiqueProfile()))
    check_forbid(GAME.restrictions, five, lone, GAME.name)  # zone.5 exists only with five rings
    with pytest.raises(ConfigError, match="forbid"):
        check_forbid(GAME.restrictions, RULES, lone, GAME.name)


def test_a_profile_file_loads_forbid_and_unknown_choices_are_refused(tmp_path):
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text('base = "casual"\nforbid = ["zone.1", "shot.takeout"]\n')
    bad.write_text('base = "casual"\nforbid = ["zone.9"]\n')
    players = load_lineup(GAME, [str(good), "casual"], RULES)
    assert players[0].profile.forbid == ("zone.1", "shot.takeout") and players[1].profile.forbid == ()
    with pytest.raises(ConfigError, match="zone.9"):
        load_lineup(GAME, [str(bad), "casual"], RULES)


def test_candidates_are_aimed_at_their_ring_and_none_forbidden():
    sit, base = crowded(), CurlastiqueProfile(candidates=80)
    rows = candidate_rows(kit(RULES, base), sit.pos, sit.owner, sit.side, 0, 80)
    cy, radii = RULES.zones.centre_y, np.asarray(RULES.zones.radii)
    theirs = {ring_of(x, y, 0.0, cy, radii) for (x, y), s in zip(sit.pos, sit.owner, strict=True) if s == 1}
    for row in rows:
        if row[FAM] == FAMILY_IDS["draw"]:  # where it stops: the start plus the aim vector
            assert row[AIM] == ring_of(row[X0] + row[AX], RULES.launch_y + row[AY], 0.0, cy, radii)
        elif row[FAM] == FAMILY_IDS["takeout"]:  # the ring of the puck it hits
            assert row[AIM] in theirs
    assert {int(a) for a in rows[:, AIM]} >= {1, 2}
    forbid = ("zone.1", "shot.takeout")
    limited = candidate_rows(kit(RULES, dataclasses.replace(base, forbid=forbid)), sit.pos, sit.owner, sit.side, 0, 80)
    assert len(limited) and 1 not in limited[:, AIM] and FAMILY_IDS["takeout"] not in limited[:, FAM]


def test_a_forbidden_ring_is_replaced_by_the_next_spots_and_pucks():
    profile = CurlastiqueProfile(candidates=80, draw_spots=6)
    empty = Situation(
        RULES, 0, 1, False, np.zeros((0, 2)), np.zeros(0, dtype=np.int64), np.arange(2), (0, 1), np.full(2, 3), (0, 0)
    )
    rows = candidate_rows(kit(RULES, profile), empty.pos, empty.owner, empty.side, 0, 80)
    draws = rows[rows[:, FAM] == FAMILY_IDS["draw"]]
    assert len(draws) == 18 and set(draws[:, AIM]) == {1}  # six spots of the 100 ring
    no_centre = dataclasses.replace(profile, forbid=("zone.1",))
    rows = candidate_rows(kit(RULES, no_centre), empty.pos, empty.owner, empty.side, 0, 80)
    draws = rows[rows[:, FAM] == FAMILY_IDS["draw"]]
    assert len(draws) == 18 and set(draws[:, AIM]) == {2}  # six spots of the 80 ring instead
    sit = crowded()  # the opponent's pucks lie in rings 4, 3 and 1
    aims = {}
    for forbid in ((), ("zone.1",)):
        k = kit(RULES, dataclasses.replace(profile, takeout_targets=1, forbid=forbid))
        rows = candidate_rows(k, sit.pos, sit.owner, sit.side, 0, 80)
        aims[forbid] = set(rows[rows[:, FAM] == FAMILY_IDS["takeout"], AIM])
    assert aims[()] == {1} and aims[("zone.1",)] == {3}  # the next target, outside the forbidden ring


def test_a_forbidden_ring_is_never_aimed_at_and_a_forbidden_family_never_chosen():
    tables = play(forbid=("zone.1", "shot.takeout"), matches=6)
    mine, theirs = seat(tables, 0), seat(tables, 1)
    assert len(mine) >= 30 and not (mine["aim_zone"] == 1).any() and not (mine["family"] == "takeout").any()
    assert (theirs["aim_zone"] == 1).any() and (theirs["family"] == "takeout").any()
    assert (mine["family"] == "draw").any()  # it still draws, to the other rings


def test_nothing_forbidden_plays_the_stored_games():
    """An explicit empty ``forbid`` plays the stored reference games (test_planner's file):
    every column they have equal, only ``aim_zone`` added."""
    stored = json.loads(gzip.open(DATA, "rt", encoding="utf-8").read())
    for case in stored[:4]:
        rules = load_rules(GAME, None, case["set"])
        players = [
            Player(p.name, dataclasses.replace(p.profile, forbid=())) for p in load_lineup(GAME, case["players"], rules)
        ]
        got = GAME.play_match(rules, players, MatchSeeds(*case["seed"])).tables()
        for name, rows in case["tables"].items():
            for i, (old, new) in enumerate(zip(rows, got[name], strict=True)):
                for key in old:
                    _same(old[key], new[key], (case["players"], name, i, key))
    assert not play(matches=2)["events"].equals(play(forbid=("zone.1",), matches=2)["events"])


def test_everything_forbidden_still_throws_random_shots():
    tables = play(forbid=ZONES + SHOTS, matches=2)
    mine = seat(tables, 0)
    assert len(mine) == tables["players"].query("seat == 0")["throws"].sum() > 0
    assert set(mine["family"]) == {"random"} and not mine["aim_zone"].any()
    assert tables["matches"]["finished"].all()
    planner = Planner(RULES, CurlastiqueProfile(forbid=ZONES + SHOTS))
    shots, fams, aims = planner.candidates(crowded(), np.random.default_rng(0))
    assert len(shots) == planner.profile.candidates and set(fams.tolist()) == {RANDOM} and not aims.any()


def test_used_counts_the_events():
    tables = play(forbid=("shot.draw",), matches=2, refs=("club", "casual"))
    got = used(tables)
    assert tuple(got.columns) == USED_COLUMNS and (got["uses"] > 0).all()
    ev = tables["events"]
    for (match, s), rows in ev.groupby(["match", "seat"]):
        want = {f"shot.{f}": n for f, n in rows["family"].value_counts().items() if f != "random"}
        want |= {f"zone.{z}": n for z, n in rows["aim_zone"].value_counts().items() if z > 0}
        mine = got[(got["match"] == match) & (got["seat"] == s)]
        assert dict(zip(mine["choice"], mine["uses"], strict=True)) == want
    assert not got[(got["seat"] == 0) & (got["choice"] == "shot.draw")]["uses"].sum()
    assert got[(got["seat"] == 1) & (got["choice"] == "shot.draw")]["uses"].sum() > 0
    assert got["uses"].sum() == len(ev[ev["family"] != "random"]) + int((ev["aim_zone"] > 0).sum())
