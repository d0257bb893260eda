"""The GameSpec hooks of Gastérospeed: the animated replay's frames, the examples folder, the
skill path through the tactician's presets, and the race length column."""

from __future__ import annotations

import json

import pytest
from scipy.stats import fisher_exact

from sim.core import Cell, run_cells
from sim.core.profiles import load_lineup, load_profile
from sim.core.rules import load_rules
from sim.core.seeding import MatchSeeds
from sim.core.skill import player_at_skill
from sim.gasterospeed import GAME
from sim.gasterospeed.match import play_match

QUICK = ['championship.circuits=["ligne_droite", "goulet"]']


@pytest.mark.parametrize("overrides", [[], ["variants.shell_championship=true"], ["variants.two_snails=true"]])
def test_frames_end_on_the_scores_play_match_stores(overrides):
    rules = load_rules(GAME, None, [*QUICK, *overrides])
    players = load_lineup(GAME, ["tactician", "greedy", "casual"], rules)  # random players' races are long
    for match in range(2):
        seeds = MatchSeeds(7, match)
        log = play_match(rules, players, seeds)
        page = GAME.frames(rules, players, seeds)
        json.dumps(page)  # JSON-able
        scores = [row["score"] for row in sorted(log.players, key=lambda r: r["seat"])]
        assert page["final_scores"] == scores and page["frames"][-1]["scores"] == scores
        rounds = log.rounds
        # one frame per turn of every race, plus its start
        races = sorted({r["round"] for r in rounds})
        turns = {r["round"]: r["turns"] for r in rounds}
        assert len(page["frames"]) == sum(turns[k] + 1 for k in races)
        xmin, ymin, xmax, ymax = page["board"]["extent"]
        for frame in page["frames"]:
            for shape in frame["shapes"]:
                assert xmin <= shape["x"] <= xmax and ymin <= shape["y"] <= ymax


def test_frames_show_every_running_snail_on_its_square_and_the_points_so_far():
    rules = load_rules(GAME, None, QUICK)
    players = load_lineup(GAME, ["tactician", "greedy"], rules)
    page = GAME.frames(rules, players, MatchSeeds(3, 0))
    first = page["frames"][0]
    assert first["label"].startswith("race 1") and "start" in first["label"]
    assert {shape["id"] for shape in first["shapes"]} == {"snail0", "snail1"}
    assert first["scores"] == [0.0, 0.0]
    log = play_match(rules, players, MatchSeeds(3, 0))
    after_first = [r["cumulative"] for r in log.rounds if r["round"] == 1]
    ends = [f for f in page["frames"] if f["label"].endswith("race over")]
    assert len(ends) == 2 and ends[0]["scores"] == [float(x) for x in after_first]


def test_examples_are_the_games_own_folder():
    names = sorted(p.name for p in GAME.examples.glob("*.toml"))  # (an __init__.py makes it package data)
    assert names == [
        "gasterospeed_balance.toml",
        "gasterospeed_demo.toml",
        "gasterospeed_temperature_sweep.toml",
        "gasterospeed_worth_balance.toml",
    ]
    first = (GAME.examples / "gasterospeed_balance.toml").read_text(encoding="utf-8").splitlines()[0]
    assert "sim/gasterospeed/examples/gasterospeed_balance.toml" in first


def test_the_matches_table_has_the_race_length_column():
    rules = load_rules(GAME, None, QUICK)
    players = load_lineup(GAME, ["tactician", "greedy"], rules)
    log = play_match(rules, players, MatchSeeds(1, 0))
    turns = [r["turns"] for r in log.rounds if r["seat"] == 0]
    assert GAME.length.column == "turns_per_race"
    assert log.matches["turns_per_race"] == pytest.approx(sum(turns) / len(turns))


def test_skill_path_ends_are_its_end_presets():
    path = GAME.skill_path
    assert len(path) >= 3
    policies = {load_profile(GAME, name).profile.policy for name in path}
    assert policies == {"tactician"}
    assert player_at_skill(GAME, 0.0).profile == load_profile(GAME, path[0]).profile
    assert player_at_skill(GAME, float(len(path) - 1)).profile == load_profile(GAME, path[-1]).profile


@pytest.mark.slow
def test_win_rate_rises_along_the_skill_path():
    """Each skill level plays the same 80 two-player championships (3 races) against greedy,
    seats rotated; wins rise from level to level, the ends significantly (one-sided Fisher)."""
    rules = load_rules(GAME, None, ['championship.circuits=["ligne_droite", "goulet", "champignonniere"]'])
    greedy = load_lineup(GAME, ["greedy", "greedy"], rules)[0]
    wins = []
    for skill in (0.0, 1.0, 2.0):
        me = player_at_skill(GAME, skill, "me")
        tables = run_cells(GAME, [Cell("skill", "c", rules, (me, greedy), rotate_seats=True)], 80, 5, progress=False)
        mine = tables["players"][tables["players"]["profile"] == "me"]
        wins.append(int(mine["won"].sum()))
    assert wins[0] < wins[1] <= wins[2], wins
    assert fisher_exact([[wins[2], 80 - wins[2]], [wins[0], 80 - wins[0]]], alternative="greater").pvalue < 0.01
