"""Game and match rules with scripted strokes: 25 points, 8 boards, ties, best of 3, line-ups."""

from sim.carrom.match import play_match
from sim.core.seeding import MatchSeeds

from .helpers import QueueResolver, clearing_resolver, hit, rules, scripted_players


def _breakers(log):
    return [r["breaker"] for r in log.rounds if r["seat"] == 0]


def test_game_ends_at_25_points_with_the_queen_bonus_stopping_at_22():
    log = play_match(rules("ruleset=family"), scripted_players(2), MatchSeeds(0, 0), resolver=clearing_resolver)
    first = _breakers(log)[0]
    # each breaker clears its board at once: 9 + 3 points, then 9 only from 22 on
    pts = {r["round"]: r["points"] for r in log.rounds if r["seat"] == first}
    assert [pts[b] for b in (1, 3, 5)] == [12, 12, 9]
    assert log.matches["rounds"] == 5 and log.matches["finished"] and not log.matches["draw"]
    assert log.matches["winner"] == first
    assert {p["seat"]: p["score"] for p in log.players}[first] == 33
    assert _breakers(log) == [first, 1 - first] * 2 + [first]  # the break alternates


def test_eight_stuck_boards_end_the_game_in_a_draw():
    resolver = QueueResolver([hit(1)])  # one white falls on the first stroke, then misses
    log = play_match(rules("game.max_strokes_per_board=4"), scripted_players(2), MatchSeeds(0, 0), resolver=resolver)
    assert log.matches["rounds"] == 8 and log.matches["stuck_boards"] == 8
    assert log.matches["draw"] and log.matches["winner"] == -1 and log.matches["finished"]
    assert log.matches["capped_games"] == 1


def test_tie_after_8_boards_is_a_draw_family_and_extra_boards_icf():
    r = rules("ruleset=icf", "game.max_strokes_per_board=3", "game.max_extra_boards=2")
    log = play_match(r, scripted_players(2), MatchSeeds(0, 0), resolver=QueueResolver())
    assert log.matches["rounds"] == 10 and log.matches["extra_boards"] == 2
    assert log.matches["draw"] and not log.matches["finished"]


def test_leader_after_8_boards_wins_below_the_target():
    def only_seat0(state, seat, x, angle, speed):
        return clearing_resolver(state, seat, x, angle, speed) if seat == 0 else hit()

    log = play_match(rules("game.target_points=100"), scripted_players(2), MatchSeeds(0, 0), resolver=only_seat0)
    assert log.matches["rounds"] == 8 and log.matches["finished"] and not log.matches["draw"]
    assert log.matches["winner"] == 0 and log.matches["capped_games"] == 1
    assert {p["seat"]: p["score"] for p in log.players} == {0: 12 + 12 + 6 * 9, 1: 0}


def test_tied_family_game_after_8_boards_is_a_draw():
    log = play_match(rules("game.target_points=100"), scripted_players(2), MatchSeeds(0, 0), resolver=clearing_resolver)
    # each breaker clears 4 boards: 12 + 12 + 9 + 9 = 42 a side
    assert log.matches["rounds"] == 8 and log.matches["finished"] and log.matches["draw"]
    assert [p["score"] for p in log.players] == [42, 42] and not any(p["won"] for p in log.players)


def test_best_of_three_stops_when_a_side_has_two_games():
    r = rules("game.best_of=3")
    log = play_match(r, scripted_players(2), MatchSeeds(0, 0), resolver=clearing_resolver)
    wins = {p["seat"]: p["games_won"] for p in log.players}
    assert max(wins.values()) == 2 and log.matches["games"] in (2, 3)
    assert log.matches["winner"] in (0, 1) and log.matches["finished"]
    assert sorted({r["game"] for r in log.rounds}) == list(range(1, log.matches["games"] + 1))


def test_doubles_turn_order_and_team_scores():
    resolver = QueueResolver()
    r = rules("game.max_strokes_per_board=8", "game.max_boards=1")
    log = play_match(r, scripted_players(4), MatchSeeds(0, 0), resolver=resolver)
    first = log.rounds[0]["breaker"]
    assert resolver.seats == [(first + k) % 4 for k in range(8)]  # to the right, round the table
    log = play_match(rules(), scripted_players(4), MatchSeeds(0, 0), resolver=clearing_resolver)
    teams = {p["seat"]: (p["team"], p["score"]) for p in log.players}
    assert teams[0][0] == teams[2][0] == 0 and teams[1][0] == teams[3][0] == 1
    assert teams[0][1] == teams[2][1] and teams[1][1] == teams[3][1]
    assert log.matches["winning_team"] in (0, 1)


def test_three_players_each_for_themselves():
    log = play_match(rules(), scripted_players(3), MatchSeeds(0, 0), resolver=clearing_resolver)
    first = log.rounds[0]["breaker"]
    t = rules().three_players
    board1 = {r["seat"]: r["points"] for r in log.rounds if r["round"] == 1}
    assert board1[first] == 9 * t.white_points + 9 * t.black_points + t.queen_points
    assert log.matches["winner"] == first and log.matches["winning_team"] == -1
