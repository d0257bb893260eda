"""The animated replay's frames are the stored match: same throws, same final scores."""

import json
import math

import pytest

from sim.core import MatchSeeds, load_lineup, load_rules
from sim.core.game import get_game
from sim.curlastique.match import play_match
from sim.curlastique.show.frames import MAX_VERTICES, _Recorder, frames

SPEC = get_game("curlastique")


@pytest.mark.parametrize(
    "names, overrides, seed",
    [
        (["club", "casual"], [], (31, 3)),
        (["novice", "club", "casual"], ["game.target_score=200"], (7, 0)),
        (["club", "casual", "novice", "club"], ["game.teams=true", "game.target_score=200"], (5, 2)),
        (["expert", "random"], ["out.lost_puck=removed", "game.target_score=150"], (11, 1)),
    ],
)
def test_frames_final_scores_are_play_matchs_scores(names, overrides, seed):
    rules = load_rules(SPEC, None, overrides)
    players = load_lineup(SPEC, names, rules)
    seeds = MatchSeeds(*seed)
    log = play_match(rules, players, seeds)
    page = frames(rules, players, seeds)
    assert page["final_scores"] == [float(p["score"]) for p in sorted(log.players, key=lambda p: p["seat"])]
    assert page["frames"][-1]["scores"] == page["final_scores"]
    assert len(page["frames"]) == len(log.events) == log.matches["throws"]
    json.dumps(page)  # plain JSON
    for frame, event in zip(page["frames"], log.events, strict=True):
        assert all(2 <= len(p["points"]) <= MAX_VERTICES for p in frame["paths"])
        # the pucks at rest after a throw: those of the round still in play, the thrown one among
        # them when it stayed in play
        ids = {s["id"] for s in frame["shapes"]}
        assert len(ids) == len(frame["shapes"])
        if math.isfinite(event["executed_x"]):
            thrown = frame["paths"][-1]
            assert (thrown["id"] in ids) == (not event["out"])
            assert thrown["points"][0][1:] == pytest.approx([event["executed_x"], rules.launch_y], abs=1e-5)
            if not event["out"]:
                assert thrown["points"][-1][1:] == pytest.approx([event["final_x"], event["final_y"]], abs=1e-5)


def test_the_recording_resolver_plays_the_stored_game_throw_for_throw():
    rules = load_rules(SPEC, None, ["game.target_score=300"])
    players = load_lineup(SPEC, ["club", "casual"], rules)
    for match in range(3):
        seeds = MatchSeeds(2026, match)
        stored, recorded = play_match(rules, players, seeds), play_match(rules, players, seeds, _Recorder())
        assert recorded.events == stored.events and recorded.rounds == stored.rounds
        assert recorded.players == stored.players and recorded.matches == stored.matches


def test_the_board_is_drawn_with_every_ring_and_the_start_line():
    rules = load_rules(SPEC, None, [])
    page = frames(rules, load_lineup(SPEC, ["random", "random"], rules), MatchSeeds(1, 0))
    shapes = page["board"]["shapes"]
    rings = [s for s in shapes if s["kind"] == "circle" and s["y"] == rules.zones.centre_y]
    assert sorted(s["r"] for s in rings) == sorted(rules.zones.radii)
    assert {s["text"] for s in shapes if s["kind"] == "text"} == {str(v) for v in rules.zones.values}
    elastic = [s for s in shapes if s["kind"] == "line" and not s.get("closed")]
    assert elastic and all(p[1] == rules.board.elastic_y for p in elastic[0]["points"])
    x0, y0, x1, y1 = page["board"]["extent"]
    assert x0 < -rules.board.width / 2 and x1 > rules.board.width / 2 and y0 < 0 and y1 > rules.board.length
