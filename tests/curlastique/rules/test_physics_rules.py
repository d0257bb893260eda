"""Rules that need real physics: collisions move pucks, out-of-play triggers, `tablesim shot`."""

import json
import math

import numpy as np
import pandas as pd
import pytest

from sim.core import ConfigError, MatchSeeds, Player
from sim.core.rules import load_rules
from sim.curlastique import GAME
from sim.curlastique.match import Shot, play_match
from sim.curlastique.players.policies import ExactPolicy
from sim.curlastique.rules.board import simulate_throws, table
from sim.curlastique.show.shot import shot
from sim.physics import OBSTACLE, OUT

MUG = 0.15 * 9.81  # deceleration (m/s²) with the default friction
R = 0.0175  # puck radius (m)
Y0 = 0.10 + R  # launch y of a puck's centre (m)
CY = 0.75  # target centre (m)


def rules_with(*overrides):
    return load_rules(GAME, None, list(overrides))


class Fixed(ExactPolicy):
    """Throws a fixed list of exact shots (x, angle, speed), one per turn."""

    def __init__(self, rules, shots):
        super().__init__(rules)
        self.shots = list(shots)

    def decide(self, situation, rng):
        return Shot(*self.shots.pop(0), "fixed")


def draw_speed(y):
    return math.sqrt(2 * MUG * (y - Y0))


def test_a_puck_moved_by_an_opponent_scores_for_its_owner_where_it_stops():
    rules = rules_with("game.pucks_per_player=1", "game.target_score=50")
    red_y = CY - 0.16  # 20-point zone
    contact = red_y - 2 * R
    impact = 2 * math.sqrt(2 * MUG * 0.16) / (1 + 0.85)  # pushes red exactly to the centre
    blue_speed = math.sqrt(impact**2 + 2 * MUG * (contact - Y0))
    players = (
        Player("red", Fixed(rules, [(0.0, 0.0, draw_speed(red_y))])),
        Player("blue", Fixed(rules, [(0.0, 0.0, blue_speed)])),
    )
    log = play_match(rules, players, MatchSeeds(0, 0))
    ev = pd.DataFrame(log.events)
    assert ev.loc[0, "zone"] == 20  # red lands in the 20 zone
    assert ev.loc[1, "zone"] == 0 and not ev.loc[1, "out"]  # blue stays short of the rings
    rounds = pd.DataFrame(log.rounds).set_index("seat")
    assert rounds.loc[0, "points"] == 100  # red was raised into the 100 zone
    assert rounds.loc[1, "points"] == 0
    assert log.matches["winner"] == 0


def test_a_puck_touching_the_rim_and_coming_back_is_lost_unless_the_rim_bounces():
    # straight at the far rim, fast enough to come back (rim restitution 0.5) to the centre
    back = CY - 0.0  # stop on the centre after the bounce
    v_after = math.sqrt(2 * MUG * (1.0 - R - back))
    v_launch = math.sqrt((v_after / 0.5) ** 2 + 2 * MUG * (1.0 - R - Y0))
    bouncy = shot(rules_with("out.rim=false"), 0.0, 0.0, v_launch, None).as_dict()
    assert bouncy["discs"][0]["status"] == "rest" and bouncy["points"]["thrown"] == 100
    assert [e["kind"] for e in bouncy["events"]] == ["wall"]
    # the seed: lost at the contact, even though it comes back onto the board (to the centre)
    lost = shot(rules_with(), 0.0, 0.0, v_launch, None).as_dict()
    assert lost["discs"][0]["status"] == "lost" and lost["discs"][0]["out_by"] == "rim"
    assert lost["discs"][0]["final_y"] == pytest.approx(back, abs=1e-9)  # it did come back
    assert lost["points"]["thrown"] == 0 and [e["kind"] for e in lost["events"]] == ["out"]
    removed = shot(rules_with("out.lost_puck=removed"), 0.0, 0.0, v_launch, None).as_dict()
    assert removed["discs"][0]["status"] == "out" and removed["discs"][0]["final_y"] == pytest.approx(1 - R)
    # the same in a game: one puck each, seat 0 banks off the rim
    for overrides, points in ((("out.rim=false",), 100), ((), 0), (("out.lost_puck=removed",), 0)):
        rules = rules_with("game.pucks_per_player=1", "game.max_rounds=1", *overrides)
        players = (Player("a", Fixed(rules, [(0.0, 0.0, v_launch)])), Player("b", Fixed(rules, [(0.0, 0.0, 0.0)])))
        log = play_match(rules, players, MatchSeeds(0, 0))
        assert log.rounds[0]["points"] == points
        assert log.events[0]["out"] is (points == 0)


def rim_rebound_shot(push):
    """A throw at -6° that touches the far rim (restitution 0.5) and comes back head-on onto
    a puck lying on the target centre, pushing it ``push`` m along its path: (x0, angle,
    speed, where the pushed puck stops), all from Coulomb motion and the impact laws."""
    a = math.radians(-6.0)
    u_in = np.array([-math.sin(a), math.cos(a)])
    v_ref = np.array([u_in[0], -0.5 * u_in[1]])  # rim: normal part × restitution
    k = float(np.hypot(*v_ref))
    u_ref = v_ref / k
    centre = np.array([0.0, CY])
    back = (1 - R - CY) / -u_ref[1]  # rim contact → puck on the centre
    rim = centre - back * u_ref
    up = (rim[1] - Y0) / u_in[1]  # launch → rim contact
    x0 = rim[0] - up * u_in[0]
    impact = 2 * math.sqrt(2 * MUG * push) / (1 + 0.85)  # head-on, equal masses, e = 0.85
    after_rim = math.sqrt(impact**2 + 2 * MUG * (back - 2 * R))
    speed = math.sqrt((after_rim / k) ** 2 + 2 * MUG * up)
    return x0, -6.0, speed, centre + push * u_ref


def test_a_lost_puck_coming_back_from_the_rim_knocks_an_opponent_into_another_zone(tmp_path):
    """#14 point 14: the puck is lost at the rim but moves on; it knocks the opponent's puck
    from the 100 zone into the 40 zone, which then counts. Removed at contact, it cannot."""
    x0, angle, speed, end = rim_rebound_shot(push=0.10)
    state = tmp_path / "state.toml"
    state.write_text(f"thrower = 1\n[[pucks]]\nowner = 0\nx = 0.0\ny = {CY}\n")
    moved = shot(rules_with(), x0, angle, speed, str(state))
    d = moved.as_dict()
    assert [e["kind"] for e in d["events"]] == ["out", "disc"]  # the rim first, then the puck
    assert d["discs"][1]["status"] == "lost" and d["discs"][1]["out_by"] == "rim"
    assert d["discs"][0]["status"] == "rest"
    assert (d["discs"][0]["final_x"], d["discs"][0]["final_y"]) == pytest.approx(tuple(end), abs=1e-8)
    assert d["points"]["by_owner"] == {"0": 40, "1": 0}
    kept = shot(rules_with("out.lost_puck=removed"), x0, angle, speed, str(state)).as_dict()
    assert [e["kind"] for e in kept["events"]] == ["out"]
    assert kept["discs"][1]["status"] == "out" and kept["points"]["by_owner"] == {"0": 100, "1": 0}
    # in a game: seat 0 draws to the centre, seat 1 throws the rebound; round points follow
    for overrides, points in (((), 40), (("out.lost_puck=removed",), 100)):
        rules = rules_with("game.pucks_per_player=1", "game.max_rounds=1", *overrides)
        players = (
            Player("a", Fixed(rules, [(0.0, 0.0, draw_speed(CY))])),
            Player("b", Fixed(rules, [(x0, angle, speed)])),
        )
        log = play_match(rules, players, MatchSeeds(0, 0))
        assert [r["points"] for r in log.rounds] == [points, 0]
        assert log.events[1]["out"] and log.events[1]["knocked_out"] == 0


def test_corner_piece_puts_out_or_bounces():
    lost = shot(rules_with(), 0.0, -13.4, 2.0, None).as_dict()["discs"][0]
    assert lost["status"] == "lost" and lost["out_by"] == "corner"
    out = shot(rules_with("out.lost_puck=removed"), 0.0, -13.4, 2.0, None).as_dict()["discs"][0]
    assert out["status"] == "out" and out["out_by"] == "corner"
    bounced = shot(rules_with("out.corners=false"), 0.0, -13.4, 2.0, None)
    assert bounced.events[0]["kind"] != OUT and bounced.out_by().get(0) != "corner"


def test_elastic_puts_out_a_puck_coming_back_or_bounces_it():
    base = ("out.rim=false", "board.rim_restitution=1.0")
    out = shot(rules_with(*base), 0.0, 0.0, 3.0, None).as_dict()["discs"][0]
    assert out["status"] == "lost" and out["out_by"] == "elastic"
    out = shot(rules_with(*base, "out.lost_puck=removed"), 0.0, 0.0, 3.0, None).as_dict()["discs"][0]
    assert out["status"] == "out" and out["out_by"] == "elastic"
    kept = shot(rules_with(*base, "out.elastic=false"), 0.0, 0.0, 3.0, None).as_dict()
    assert kept["discs"][0]["status"] == "rest"
    assert [e["kind"] for e in kept["events"]][:2] == ["wall", "wall"]


def test_pegs_put_out_or_bounce():
    # find shots that reach a peg (rim and corners bounce), then replay them with pegs bouncing
    rules = rules_with(
        "out.rim=false", "out.corners=false", "board.rim_restitution=1.0", "board.corner_restitution=1.0"
    )
    xs, angles = np.meshgrid(np.linspace(-0.19, 0.19, 21), np.linspace(-35, 35, 29))
    x, a = xs.ravel(), angles.ravel()
    v = np.full(x.shape, 3.0)
    final, on = simulate_throws(rules, np.zeros((0, 2)), np.zeros(0, int), 0, x, a, v)
    n_out_segments = table(rules).out_segments.shape[0]
    peg_hits = []
    for k in np.flatnonzero(~on[:, 0]):
        res = shot(rules, float(x[k]), float(a[k]), 3.0, None)
        outs = res.events[res.events["kind"] == OUT]
        if len(outs) and outs[0]["b"] >= n_out_segments:
            peg_hits.append(k)
    assert peg_hits, "no shot of the grid reaches a peg"
    k = peg_hits[0]
    assert shot(rules, float(x[k]), float(a[k]), 3.0, None).out_by() == {0: "peg"}
    bouncy = shot(
        rules_with(
            "out.rim=false",
            "out.corners=false",
            "board.rim_restitution=1.0",
            "board.corner_restitution=1.0",
            "out.pegs=false",
        ),
        float(x[k]),
        float(a[k]),
        3.0,
        None,
    )
    assert (bouncy.events["kind"] == OBSTACLE).any()
    assert bouncy.out_by().get(0) != "peg"


def test_out_switches_move_elements_between_out_and_walls():
    default = table(rules_with())
    assert default.walls.shape[0] == 0 and default.out_segments.shape[0] == 7
    assert default.out_circles.shape[0] == 2 and default.obstacles.shape[0] == 0
    soft = table(rules_with("out.rim=false", "out.pegs=false", "board.rim_restitution=0.3"))
    assert soft.walls.shape[0] == 4 and np.allclose(soft.walls[:, 4], 0.3)
    assert soft.out_segments.shape[0] == 3 and soft.obstacles.shape[0] == 2
    assert table(rules_with("board.corner_size=0")).out_segments.shape[0] == 5


def test_shot_outcome_as_dict_text_and_plot(tmp_path):
    state = tmp_path / "state.toml"
    state.write_text("thrower = 1\n[[pucks]]\nowner = 0\nx = 0.0\ny = 0.60\n[[pucks]]\nowner = 2\nx = 0.1\ny = 0.8\n")
    outcome = shot(rules_with(), None, 0.0, 1.6, str(state))
    d = outcome.as_dict()
    json.dumps(d)
    assert [disc["owner"] for disc in d["discs"]] == [0, 2, 1]
    assert set(d["discs"][0]) >= {"id", "owner", "start_x", "start_y", "final_x", "final_y", "status"}
    assert d["discs"][0]["final_y"] > 0.60  # the resting puck was pushed
    assert d["events"][0]["kind"] == "disc" and {d["events"][0]["a"], d["events"][0]["b"]} == {0, 2}
    assert set(d["events"][0]) == {"time", "kind", "a", "b", "x", "y"}
    assert sum(d["points"]["by_owner"].values()) == sum(disc["points"] for disc in d["discs"])
    text = outcome.text()
    assert text.startswith("throw: x = +0.0000 m") and "puck 0 (seat 0, resting)" in text
    png = tmp_path / "shot.png"
    outcome.plot(png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_shot_rejects_bad_input(tmp_path):
    with pytest.raises(ConfigError, match=r"--angle: got 40.0°; allowed: -35.0 to 35.0°"):
        shot(rules_with(), 0.0, 40.0, 1.0, None)
    with pytest.raises(ConfigError, match=r"--speed: got 3.5 m/s; allowed: 0 to 3 m/s"):
        shot(rules_with(), 0.0, 0.0, 3.5, None)
    bad = tmp_path / "bad.toml"
    bad.write_text(
        "[[pucks]]\nowner = 0\nx = 0.0\ny = 0.6\n[[pucks]]\nowner = 1\nx = 0.01\ny = 0.6\n"
        "[[pucks]]\nowner = 1\nx = 0.4\ny = 0.6\n"
    )
    with pytest.raises(ConfigError) as info:
        shot(rules_with(), 0.0, 0.0, 1.0, str(bad))
    assert any("pucks[1]: overlaps pucks[0]" in line for line in info.value.problems)
    assert any("pucks[2]: (0.4, 0.6) is not on the board" in line for line in info.value.problems)
    typo = tmp_path / "typo.toml"
    typo.write_text("[[pucks]]\nowner = 0\nx = 0.0\nyy = 0.6\n")
    with pytest.raises(ConfigError, match=r"typo.toml: pucks\[0\]\.yy: unknown key"):
        shot(rules_with(), 0.0, 0.0, 1.0, str(typo))
    blocked = tmp_path / "blocked.toml"
    blocked.write_text(f"[[pucks]]\nowner = 1\nx = 0.0\ny = {Y0 + 0.01}\n")
    with pytest.raises(ConfigError, match="lies on the start line"):
        shot(rules_with(), 0.0, 0.0, 1.0, str(blocked))
