"""Match flow with scripted throws: starters, turn order, end of game, ties, teams, cap."""

import pandas as pd
import pytest

from sim.core import MatchSeeds
from sim.core.rules import load_rules
from sim.curlastique import GAME
from sim.curlastique.match import play_match, starter_of, throw_order

from ..scripted import decompose, scripted_players, teleport


def rules_with(*overrides):
    return load_rules(GAME, None, list(overrides))


def play(plan, n=2, *overrides, default=0):
    rules = rules_with(*overrides)
    log = play_match(rules, scripted_players(rules, plan, n, default), MatchSeeds(0, 0), resolver=teleport)
    return log, {t: pd.DataFrame(rows) for t, rows in log.tables().items()}


def round_orders(events):
    return {r: list(g.sort_values("turn")["seat"]) for r, g in events.groupby("round")}


def test_decompose_helper_sums():
    for points in range(0, 520, 20):
        assert sum(decompose(points)) == points


def test_starter_helpers():
    assert starter_of([0, 1, 2], [50, 10, 10], first_round=True) == 0
    assert starter_of([0, 1, 2], [50, 10, 10], first_round=False) == 1
    assert starter_of([0, 1, 2], [5, 10, 5], first_round=False) == 0
    assert throw_order([0, 1, 2, 3], 2, 2) == [2, 3, 0, 1, 2, 3, 0, 1]


def test_round_one_oldest_starts_then_lowest_cumulative_with_ties_by_seat_order():
    # 3 players; cumulative after each round decides who starts the next
    plan = {
        (1, 0): 100,
        (1, 1): 40,
        (1, 2): 40,  # after r1: 100, 40, 40 -> tie: seat 1
        (2, 0): 0,
        (2, 1): 100,
        (2, 2): 20,  # after r2: 100, 140, 60 -> seat 2
        (3, 0): 0,
        (3, 1): 0,
        (3, 2): 40,  # after r3: 100, 140, 100 -> tie 0/2: seat 0
        (4, 0): 500,
    }  # seat 0 reaches 600 >= 500
    log, t = play(plan, 3)
    orders = round_orders(t["events"])
    assert orders[1] == [0, 1, 2] * 5
    assert orders[2] == [1, 2, 0] * 5
    assert orders[3] == [2, 0, 1] * 5
    assert orders[4] == [0, 1, 2] * 5
    starters = t["rounds"].groupby("round")["starter"].first().to_dict()
    assert starters == {1: 0, 2: 1, 3: 2, 4: 0}
    assert log.matches["winner"] == 0 and log.matches["finished"]
    assert t["players"]["score"].tolist() == [600, 140, 100]
    assert t["players"]["rank"].tolist() == [1, 2, 3]


def test_points_and_cumulative_follow_the_zones_where_pucks_stop():
    plan = {(1, 0): 260, (1, 1): 180, (2, 0): 260, (2, 1): 0}
    log, t = play(plan, 2)
    r = t["rounds"].set_index(["round", "seat"])
    assert r.loc[(1, 0), "points"] == 260 and r.loc[(1, 1), "points"] == 180
    assert r.loc[(2, 0), "cumulative"] == 520 and r.loc[(2, 1), "cumulative"] == 180
    zones = t["events"].groupby(["round", "seat"])["zone"].sum()
    assert zones.loc[(1, 0)] == 260 and zones.loc[(1, 1)] == 180
    assert log.matches["rounds"] == 2


def test_round_in_progress_is_finished_after_the_target():
    # seat 0's first puck alone would pass the target (pucks of 100 with target 100), yet the
    # round is played to the end and seat 1's later pucks still count
    plan = {(1, 0): 100, (1, 1): 500}
    log, t = play(plan, 2, "game.target_score=100")
    assert len(t["events"]) == 10 and log.matches["rounds"] == 1
    assert t["events"]["seat"].value_counts().to_dict() == {0: 5, 1: 5}
    assert log.matches["winner"] == 1


def test_tie_for_first_goes_to_decisive_rounds_until_a_winner():
    plan = {
        (1, 0): 300,
        (1, 1): 300,
        (1, 2): 100,
        (2, 0): 300,
        (2, 1): 300,
        (2, 2): 0,  # 600, 600, 100: tie between 0 and 1
        (3, 0): 100,
        (3, 1): 100,  # decisive: tie again
        (4, 0): 60,
        (4, 1): 60,  # tie again
        (5, 0): 40,
        (5, 1): 80,
    }  # seat 1 wins
    log, t = play(plan, 3)
    m = log.matches
    assert m["finished"] and m["winner"] == 1 and m["decisive_rounds"] == 3 and m["rounds"] == 5
    decisive = t["rounds"][t["rounds"]["decisive"]]
    assert sorted(decisive["seat"].unique()) == [0, 1]  # only the tied players
    assert (decisive["cumulative"] == 600).all()  # decisive points not added
    ev = t["events"][t["events"]["decisive"]]
    assert ev.groupby(["round", "seat"]).size().eq(5).all()  # 5 pucks each
    assert round_orders(ev)[3] == [0, 1] * 5  # lowest cumulative tie: seat order
    p = t["players"].set_index("seat")
    assert p["won"].tolist() == [False, True, False]
    assert p.loc[1, "rank"] == 1 and p.loc[0, "rank"] == 2 and p.loc[2, "rank"] == 3


def test_three_way_tie_together_narrows_to_the_players_tied_again():
    plan = {
        (1, 0): 500,
        (1, 1): 500,
        (1, 2): 500,
        (2, 0): 100,
        (2, 1): 100,
        (2, 2): 40,  # 0 and 1 tied again, 2 eliminated
        (3, 0): 20,
        (3, 1): 0,
    }
    log, t = play(plan, 3, "game.tie_break=together")
    dec = t["rounds"][t["rounds"]["decisive"]]
    assert sorted(dec[dec["round"] == 2]["seat"]) == [0, 1, 2]
    assert sorted(dec[dec["round"] == 3]["seat"]) == [0, 1]
    assert log.matches["winner"] == 0 and log.matches["decisive_rounds"] == 2


def test_three_way_tie_one_v_one_plays_meetings_in_seat_order():
    """#14 point 15, the default reading of «manche décisive en 1 contre 1»: seat 0 meets
    seat 1; the winner meets seat 2; a tied meeting is replayed between the same two."""
    plan = {
        (1, 0): 500,
        (1, 1): 500,
        (1, 2): 500,
        (2, 0): 100,
        (2, 1): 40,  # 0 beats 1
        (3, 0): 40,
        (3, 2): 40,  # 0 and 2 tie: replayed
        (4, 0): 20,
        (4, 2): 80,
    }  # 2 beats 0
    log, t = play(plan, 3)
    dec = t["rounds"][t["rounds"]["decisive"]]
    meetings = {r: sorted(g["seat"]) for r, g in dec.groupby("round")}
    assert meetings == {2: [0, 1], 3: [0, 2], 4: [0, 2]}
    assert t["events"][t["events"]["decisive"]].groupby("round").size().eq(10).all()  # 5 pucks each
    m = log.matches
    assert m["finished"] and m["winner"] == 2 and m["decisive_rounds"] == 3
    assert t["players"].set_index("seat")["won"].tolist() == [False, False, True]
    # four tied: three meetings, always the latest winner against the next seat
    plan4 = {(1, s): 500 for s in range(4)} | {(2, 1): 20, (3, 1): 20, (4, 3): 20}
    log4, t4 = play(plan4, 4)
    dec4 = t4["rounds"][t4["rounds"]["decisive"]]
    assert {r: sorted(g["seat"]) for r, g in dec4.groupby("round")} == {2: [0, 1], 3: [1, 2], 4: [1, 3]}
    assert log4.matches["winner"] == 3


def test_round_cap_counts_decisive_rounds_and_a_capped_knockout_has_no_winner():
    plan = {(1, 0): 500, (1, 1): 500, (1, 2): 500, (2, 0): 100, (2, 1): 40}
    log, t = play(plan, 3, "game.max_rounds=2")  # the second meeting never starts
    m = log.matches
    assert (m["rounds"], m["decisive_rounds"], m["finished"], m["winner"]) == (2, 1, False, -1)
    assert not t["players"]["won"].any()
    metrics = GAME.summary(t)
    assert metrics["capped_games"] == 1.0 and metrics["unfinished_rate"] == 1.0


@pytest.mark.parametrize(
    "decider, expected", [("higher_scorer", (0, 3)), ("lower_scorer", (2, 1)), ("first_seat", (0, 1))]
)
def test_teams_sum_scores_and_a_tie_is_settled_by_one_player_of_each_team(decider, expected):
    # team 0 = seats 0, 2; team 1 = seats 1, 3; both teams at 600
    plan = {(1, 0): 400, (1, 1): 200, (1, 2): 200, (1, 3): 400, (2, expected[0]): 100, (2, expected[1]): 20}
    log, t = play(plan, 4, "game.teams=true", f"game.team_decider={decider}")
    m = log.matches
    assert m["finished"] and m["winning_team"] == 0 and m["decisive_rounds"] == 1
    assert m["winner"] == expected[0]
    dec = t["rounds"][t["rounds"]["decisive"]]
    assert sorted(dec["seat"]) == sorted(expected)
    p = t["players"].set_index("seat")
    assert p["team"].tolist() == [0, 1, 0, 1]
    assert p["won"].tolist() == [True, False, True, False]
    assert p["rank"].tolist() == [1, 2, 1, 2]


def test_team_reaching_the_target_wins_on_team_total():
    # no player reaches 500 alone, the team does; the higher single scorer is in the other team
    plan = {(1, 0): 260, (1, 2): 260, (1, 1): 300, (1, 3): 0}
    log, t = play(plan, 4, "game.teams=true")
    assert log.matches["winning_team"] == 0 and log.matches["rounds"] == 1
    assert log.matches["winner"] == 0 and log.matches["top_score"] == 520


def test_team_decisive_rounds_repeat_with_the_same_players():
    plan = {(1, 0): 300, (1, 1): 300, (1, 2): 200, (1, 3): 200, (2, 0): 80, (2, 1): 80, (3, 0): 0, (3, 1): 20}
    log, t = play(plan, 4, "game.teams=true")
    assert log.matches["winning_team"] == 1 and log.matches["winner"] == 1
    assert log.matches["decisive_rounds"] == 2


def test_team_and_player_count_are_checked_together():
    rules = rules_with("game.teams=true")
    assert GAME.lineup_problems(rules, 3) == ["players: game.teams = true needs 4 players (2 teams of 2), got 3"]
    assert GAME.lineup_problems(rules, 4) == []
    assert GAME.lineup_problems(rules_with(), 3) == []


def test_max_rounds_cap_ends_an_unreachable_game_unfinished():
    log, t = play({}, 2, "game.max_rounds=7", default=40)
    m = log.matches
    assert (m["finished"], m["winner"], m["winning_team"], m["rounds"]) == (False, -1, -1, 7)
    assert not t["players"]["won"].any()
    assert t["players"]["score"].tolist() == [280, 280]


def test_cap_also_stops_endless_decisive_rounds():
    plan = {(1, 0): 500, (1, 1): 500}
    log, t = play(plan, 2, "game.max_rounds=4")
    assert log.matches["rounds"] == 4 and log.matches["decisive_rounds"] == 3
    assert not log.matches["finished"] and log.matches["winner"] == -1
    finished, _ = play({(1, 0): 500}, 2, "game.max_rounds=4")
    both = {
        t: pd.concat([pd.DataFrame(a), pd.DataFrame(b)], ignore_index=True)
        for t, a, b in ((k, log.tables()[k], finished.tables()[k]) for k in log.tables())
    }
    assert GAME.summary(both)["capped_games"] == 1.0 and GAME.summary(both)["unfinished_rate"] == 0.5


def test_fewer_pucks_per_player_rule():
    log, t = play({(1, 0): 200, (1, 1): 100}, 2, "game.pucks_per_player=2", "game.target_score=150")
    assert len(t["events"]) == 4 and log.matches["winner"] == 0


def test_start_positions_avoid_pucks_lying_on_the_start_line():
    import numpy as np

    from sim.curlastique.match import free_launch_x

    rules = rules_with()
    y0, d = rules.launch_y, rules.puck.diameter
    x = np.array([0.0, 0.01, -0.02, 0.05, 0.19])
    assert np.array_equal(free_launch_x(rules, x, np.zeros((0, 2))), x)
    assert np.array_equal(free_launch_x(rules, x, np.array([[0.0, 0.6]])), x)  # far away
    moved = free_launch_x(rules, x, np.array([[0.0, y0]]))
    assert moved.tolist() == [-d, d, -d, 0.05, 0.19]  # nearest side; ties go left
    # a blocker slightly in front of the line forbids a narrower interval
    half = np.sqrt(d**2 - 0.02**2)
    assert free_launch_x(rules, np.array([0.02]), np.array([[0.0, y0 + 0.02]]))[0] == pytest.approx(half)
    # at the edge of the range the only free side is used; a full line leaves no start
    assert free_launch_x(rules, np.array([0.18]), np.array([[0.19, y0]]))[0] == pytest.approx(0.19 - d)
    wall = np.c_[np.arange(-0.2, 0.21, 0.03), np.full(14, y0)]
    assert np.isnan(free_launch_x(rules, np.array([0.0]), wall)[0])


def test_three_way_tie_one_v_one_in_a_random_order_follows_the_matchs_own_draw():
    """``game.tie_order = "random"``: the meetings follow an order drawn from the match's
    ``tie_order`` stream (so the last tied seat is not always the one that plays once), the
    same order for the same seed; the default keeps seat order."""
    rules = load_rules(GAME, overrides=["game.tie_order=random"])
    # all three tie at 500; in every decisive round the lower seat scores more, so it wins its meeting
    plan = {(1, s): 500 for s in range(3)} | {(r, s): 100 - 20 * s for r in (2, 3) for s in range(3)}
    orders = set()
    for match in range(12):
        seeds = MatchSeeds(0, match)
        log = play_match(rules, scripted_players(rules, plan, 3, 0), seeds, resolver=teleport)
        order = [int(s) for s in MatchSeeds(0, match).rng("tie_order").permutation(3)]
        rounds = pd.DataFrame(log.rounds)
        dec = rounds[rounds["decisive"]]
        meetings = [sorted(g["seat"]) for _, g in dec.groupby("round")]
        first = min(order[0], order[1])
        assert meetings == [sorted(order[:2]), sorted([first, order[2]])], (match, order, meetings)
        assert log.matches["winner"] == min(first, order[2])
        again = play_match(rules, scripted_players(rules, plan, 3, 0), MatchSeeds(0, match), resolver=teleport)
        assert again.rounds == log.rounds
        orders.add(tuple(order))
    assert len(orders) > 1  # the order is drawn, not fixed
    seat_order = play_match(load_rules(GAME), scripted_players(rules, plan, 3, 0), MatchSeeds(0, 5), resolver=teleport)
    dec = pd.DataFrame(seat_order.rounds).query("decisive")
    assert [sorted(g["seat"]) for _, g in dec.groupby("round")] == [[0, 1], [0, 2]]
