"""Carrom's animated replay frames (GameSpec.frames): the same match as play_match, drawn."""

import json
import math

import pytest

from sim.carrom import GAME
from sim.carrom.show.frames import MAX_VERTICES, frames
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules
from sim.core.seeding import MatchSeeds


@pytest.mark.parametrize(
    "lineup,overrides",
    [(["club", "casual"], []), (["casual", "beginner", "casual"], []), (["club", "casual"], ["ruleset=icf"])],
)
def test_frames_end_on_the_scores_play_match_stores(lineup, overrides):
    rules = load_rules(GAME, None, overrides)
    players = load_lineup(GAME, lineup, rules)
    seeds = MatchSeeds(5, 1)
    page = frames(rules, players, seeds)
    log = GAME.play_match(rules, players, seeds)
    stored = [float(r["score"]) for r in sorted(log.players, key=lambda r: r["seat"])]
    assert page["final_scores"] == stored and page["frames"][-1]["scores"] == stored
    assert len(page["frames"]) == len(log.events)  # one frame per stroke
    json.dumps(page)  # JSON-able, as the page embeds it


def test_every_played_stroke_animates_the_striker_within_the_vertex_budget():
    rules = load_rules(GAME)
    players = load_lineup(GAME, ["club", "club"], rules)
    page = frames(rules, players, MatchSeeds(2, 0))
    log = GAME.play_match(rules, players, MatchSeeds(2, 0))
    for frame, event in zip(page["frames"], log.events, strict=True):
        if math.isfinite(event["placed_x"]):
            ids = [p["id"] for p in frame["paths"]]
            assert "striker" in ids
            assert all(2 <= len(p["points"]) <= MAX_VERTICES for p in frame["paths"])
            times = [pt[0] for pt in frame["paths"][ids.index("striker")]["points"]]
            assert times == sorted(times)
        coins = [s for s in frame["shapes"] if s["id"].startswith("coin")]
        assert len(coins) == event["coins_on_board"] or not math.isfinite(event["placed_x"])
