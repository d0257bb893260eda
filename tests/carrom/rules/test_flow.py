"""Rule tests: scripted stroke outcomes through BoardState (no physics)."""

import numpy as np
import pytest

from sim.carrom.rules.board import QUEEN, WHITE
from sim.carrom.rules.flow import BoardState

from ..helpers import BLACKS, MISS, QUEEN_ID, WHITES, board, hit, rules

W, B = WHITES, BLACKS  # seat 0 plays white, seat 1 black (white_side = 0)


# ------------------------------------------------------------------ turns
@pytest.mark.parametrize("ruleset", ["family", "icf"])
def test_turn_continues_after_own_coin_and_ends_after_a_miss(ruleset):
    s = board(f"ruleset={ruleset}")
    rep = s.apply(hit(W[0]))
    assert rep.continues and s.turn == 0 and rep.whites == 1
    rep = s.apply(MISS)
    assert not rep.continues and s.turn == 1


@pytest.mark.parametrize("ruleset", ["family", "icf"])
def test_opponent_coin_alone_ends_the_turn_and_counts_for_them(ruleset):
    s = board(f"ruleset={ruleset}")
    rep = s.apply(hit(B[0]))
    assert not rep.continues and s.turn == 1
    assert s.credit[B[0]] == 1 and not s.on[B[0]]
    assert s.coins_left(1) == 8


def test_own_and_opponent_coin_together_follow_the_switch():
    s = board("ruleset=family")
    assert s.apply(hit(W[0], B[0])).continues  # seed: own coins let you play again
    s = board("ruleset=icf")
    assert not s.apply(hit(W[0], B[0])).continues  # ICF 125
    s = board("ruleset=icf", "rules.opponent_coin_ends_turn=false")
    assert s.apply(hit(W[0], B[0])).continues


def test_turn_continues_after_the_queen_even_if_it_is_returned_family():
    s = board("ruleset=family")
    rep = s.apply(hit(QUEEN_ID))  # no own coin on the previous stroke: not allowed
    assert rep.queen_event == "returned" and rep.foul == "queen_early"
    assert rep.continues and s.on[QUEEN_ID]


def test_ineligible_queen_loses_the_turn_icf():
    s = board("ruleset=icf")
    rep = s.apply(hit(QUEEN_ID))
    assert rep.queen_event == "returned" and not rep.continues and s.turn == 1


# ------------------------------------------------------------------ queen eligibility
def test_family_queen_needs_an_own_coin_on_the_previous_stroke():
    s = board("ruleset=family")
    s.apply(hit(W[0]))
    rep = s.apply(hit(QUEEN_ID))
    assert rep.queen_event == "pocketed" and s.queen_state == "pending"
    rep = s.apply(hit(W[1]))
    assert rep.queen_event == "covered" and s.queen_state == "covered" and s.queen_seat == 0


def test_family_queen_is_returned_after_an_earlier_but_not_previous_own_coin():
    s = board("ruleset=family")
    s.apply(hit(W[0]))  # own coin
    s.apply(MISS)  # turn passes
    s.apply(MISS)  # seat 1 misses
    rep = s.apply(hit(QUEEN_ID))  # seat 0: own coin down, but not on the previous stroke
    assert rep.queen_event == "returned" and s.on[QUEEN_ID]


def test_icf_queen_allowed_after_any_earlier_own_coin():
    s = board("ruleset=icf")
    s.apply(hit(W[0]))
    s.apply(MISS)
    s.apply(MISS)
    rep = s.apply(hit(QUEEN_ID))
    assert rep.queen_event == "pocketed" and s.queen_state == "pending" and rep.continues


def test_icf_queen_before_the_first_own_coin_is_returned():
    s = board("ruleset=icf")
    s.apply(hit(B[0]))  # seat 0 pockets black: counts for seat 1, turn passes
    s.apply(MISS)
    rep = s.apply(hit(QUEEN_ID))
    assert rep.queen_event == "returned" and not rep.continues


def test_uncovered_queen_returns_to_the_centre():
    s = board("ruleset=family")
    s.pos[:] = s.pos + np.array([0.0, 0.2])  # move the pack off the centre
    s.apply(hit(W[0]))
    s.apply(hit(QUEEN_ID))
    assert s.queen_state == "pending"
    rep = s.apply(MISS)  # no cover
    assert rep.queen_event == "returned" and s.on[QUEEN_ID]
    assert np.allclose(s.pos[QUEEN_ID], (0.0, 0.0))
    assert s.queen_state == "board" and s.turn == 1


def test_queen_waiting_for_cover_returns_when_the_turn_ends_on_an_opponent_coin():
    s = board("ruleset=icf")
    s.apply(hit(W[0]))
    rep = s.apply(hit(QUEEN_ID, B[0]))  # queen + opponent coin: turn lost (ICF 125)
    assert rep.queen_event == "returned" and not rep.continues and s.on[QUEEN_ID]


# ------------------------------------------------------------------ cover in the same stroke
def test_cover_same_stroke_with_an_earlier_own_coin():
    s = board("ruleset=family")
    s.apply(hit(W[0]))
    rep = s.apply(hit(QUEEN_ID, W[1]))
    assert rep.queen_event == "pocketed+covered" and s.queen_state == "covered"


def test_cover_same_stroke_needs_two_own_coins_without_an_earlier_one():
    s = board("ruleset=family")
    rep = s.apply(hit(QUEEN_ID, W[0]))  # seed: one coin first, the queen, another to confirm
    assert rep.queen_event == "pocketed" and s.queen_state == "pending"
    s = board("ruleset=icf")
    rep = s.apply(hit(W[0], QUEEN_ID, W[1]))  # ICF 97: queen + 2 own coins
    assert rep.queen_event == "pocketed+covered"


def test_cover_same_stroke_switched_off_needs_the_next_stroke():
    s = board("ruleset=icf", "rules.cover_same_stroke=false")
    s.apply(hit(W[0]))
    rep = s.apply(hit(QUEEN_ID, W[1], W[2]))
    assert rep.queen_event == "pocketed" and s.queen_state == "pending"
    assert s.apply(hit(W[3])).queen_event == "covered"


# ------------------------------------------------------------------ dues
def test_striker_due_returns_a_coin_to_the_centre_family():
    s = board("ruleset=family")
    s.pos[:] = s.pos + np.array([0.0, 0.2])
    s.apply(hit(W[0]))
    rep = s.apply(hit(striker=True))
    assert rep.foul == "striker" and rep.dues == 1 and rep.due_coins == 1
    assert s.on[W[0]] and np.allclose(s.pos[W[0]], (0.0, 0.0))
    assert not rep.continues and s.turn == 1


def test_striker_due_goes_into_the_outer_circle_icf():
    s = board("ruleset=icf")
    s.pos[:] = s.pos + np.array([0.0, 0.25])
    s.apply(hit(W[0]))
    s.apply(hit(striker=True))
    r_out = s.rules.board.outer_circle_diameter / 2
    assert s.on[W[0]] and np.hypot(*s.pos[W[0]]) <= r_out - s.geo.rc + 1e-9


def test_icf_striker_with_own_coins_returns_them_plus_a_due_and_continues():
    s = board("ruleset=icf")
    s.apply(hit(W[0]))
    rep = s.apply(hit(W[1], W[2], striker=True))
    assert rep.continues and rep.due_coins == 1 and rep.returned == 3
    assert s.coins_left(0) == 9


def test_family_striker_with_own_coins_keeps_them_pays_a_due_and_plays_again():
    # seed: «Tant qu'une personne réussit à loger ses jetons ou la reine, elle peut rejouer»
    s = board("ruleset=family")
    s.apply(hit(W[0]))
    rep = s.apply(hit(W[1], W[2], striker=True))  # they stay down, one pocketed coin pays the due
    assert rep.continues and s.turn == 0 and rep.foul == "striker" and rep.due_coins == 1
    assert s.coins_left(0) == 9 - 3 + 1
    assert not s.queen_allowed(0)  # a stroke that pockets the striker is no coin before the queen
    s = board("ruleset=family", "rules.due_keeps_turn_with_own=false")  # a pocketed striker ends the turn
    s.apply(hit(W[0]))
    rep = s.apply(hit(W[1], W[2], striker=True))
    assert not rep.continues and s.turn == 1 and s.coins_left(0) == 9 - 3 + 1


def test_striker_with_an_opponent_coin_keeps_it_down_and_loses_the_turn():
    s = board("ruleset=icf")
    rep = s.apply(hit(B[0], striker=True))
    assert not s.on[B[0]] and not rep.continues and s.owed[0] == 1


def test_outstanding_due_is_paid_by_the_next_own_coin_and_blocks_the_queen():
    s = board("ruleset=icf")
    s.apply(hit(striker=True))  # nothing to pay: owed
    assert s.owed[0] == 1
    s.apply(MISS)
    rep = s.apply(hit(W[0]))  # pays the due: comes back
    assert rep.due_coins == 1 and s.on[W[0]] and s.owed[0] == 0 and rep.continues
    s2 = board("ruleset=icf")
    s2.apply(hit(W[0]))  # an own coin is down: the queen would be allowed ...
    assert s2.queen_allowed(0)
    s2.owed[0] = 1  # ... but not while a due is outstanding (ICF 95b)
    assert not s2.queen_allowed(0)
    assert s2.apply(hit(QUEEN_ID)).queen_event == "returned"


def test_due_forgiven_without_due_outstanding():
    s = board("ruleset=family")
    s.apply(hit(striker=True))
    assert s.owed == [0, 0]


def test_dues_switched_off_ignore_the_striker():
    s = board("ruleset=icf", "rules.dues=false")
    rep = s.apply(hit(W[0], striker=True))
    assert rep.foul == "" and rep.continues and not s.on[W[0]]


def test_striker_sends_back_a_queen_waiting_for_its_cover():
    s = board("ruleset=family")
    s.apply(hit(W[0]))
    s.apply(hit(QUEEN_ID))
    rep = s.apply(hit(W[1], striker=True))
    assert rep.queen_event == "returned" and s.on[QUEEN_ID]


# ------------------------------------------------------------------ last coins, board end, scoring
def _leave(s: BoardState, side_coins: list[int], keep: int) -> None:
    for c in side_coins[keep:]:
        s.on[c] = False


def test_board_won_scores_opponent_coins_left_plus_the_queen():
    s = board("ruleset=family")
    _leave(s, W, 2)
    _leave(s, B, 5)
    s.apply(hit(W[0]))
    s.apply(hit(QUEEN_ID))
    rep = s.apply(hit(W[1]))  # cover with the last coin: board over
    assert rep.board_over and s.end == "cleared" and s.winner_side == 0
    assert s.points == [5 + 3, 0]


def test_queen_bonus_stops_at_22():
    for score, bonus in ((21, 3), (22, 0)):
        s = board("ruleset=family", scores=[score, 0])
        _leave(s, W, 2)
        _leave(s, B, 4)
        s.apply(hit(W[0]))
        s.apply(hit(QUEEN_ID))
        s.apply(hit(W[1]))
        assert s.points[0] == 4 + bonus


def test_queen_bonus_only_to_the_winner_who_covered_it():
    s = board("ruleset=icf")
    _leave(s, W, 1)
    _leave(s, B, 3)
    s.turn = 1
    s.apply(hit(B[0]))
    s.apply(hit(QUEEN_ID, B[1]))  # black covers the queen
    assert s.queen_state == "covered" and s.queen_seat == 1
    s.apply(MISS)
    rep = s.apply(hit(W[0]))  # white clears: wins, no queen bonus
    assert rep.board_over and s.winner_side == 0 and s.points == [1, 0]


def test_at_most_12_points_a_board():
    s = board("ruleset=family")
    s.apply(hit(W[0]))
    s.apply(hit(QUEEN_ID))
    s.apply(hit(*W[1:]))  # 8 whites cover and clear: 9 blacks left + 3
    assert s.points[0] == 12
    s = board("ruleset=family", "scoring.max_board_points=10")
    s.apply(hit(W[0]))
    s.apply(hit(QUEEN_ID))
    s.apply(hit(*W[1:]))
    assert s.points[0] == 10


def test_icf_last_coin_before_the_queen_loses_the_board_by_3_or_1():
    for opp_score, pts in ((10, 3), (22, 1)):
        s = board("ruleset=icf", scores=[0, opp_score])
        _leave(s, W, 1)
        rep = s.apply(hit(W[0]))
        assert rep.foul == "last_coin" and rep.board_over
        assert s.winner_side == 1 and s.points == [0, pts] and s.end == "last_coin"


def test_family_last_coin_before_the_queen_comes_back_and_the_player_plays_again_replay():
    s = board("ruleset=family", "last_coin.before_queen=replay")
    _leave(s, W, 1)
    rep = s.apply(hit(W[0]))
    assert not rep.board_over and s.on[W[0]] and rep.continues and s.turn == 0
    assert s.last_coins_early == 1
    assert np.allclose(s.pos[W[0]], s.geo.free_spot((0.0, 0.0), s.pos[s.on & (np.arange(19) != W[0])]))
    assert s.queen_allowed(0)  # that stroke was the own coin on the previous stroke
    assert s.apply(hit(QUEEN_ID)).queen_event == "pocketed"
    rep = s.apply(hit(W[0]))  # the cover with the last coin ends the board
    assert rep.board_over and s.winner_side == 0 and s.end == "cleared"


def test_family_last_coin_queen_credit_does_not_survive_a_missed_stroke():
    s = board("ruleset=family", "last_coin.before_queen=replay")
    _leave(s, W, 1)
    s.apply(hit(W[0]))
    s.apply(MISS)  # the turn passes: the credit is gone
    s.apply(MISS)  # seat 1
    assert s.turn == 0 and not s.queen_allowed(0)
    assert s.apply(hit(QUEEN_ID)).queen_event == "returned"


@pytest.mark.parametrize("mode, allowed_next_turn", [("end_turn", False), ("end_turn_unlock", True)])
def test_family_last_coin_modes_that_end_the_turn(mode, allowed_next_turn):
    s = board("ruleset=family", f"last_coin.before_queen={mode}")
    _leave(s, W, 1)
    rep = s.apply(hit(W[0]))
    assert s.on[W[0]] and not rep.continues and s.turn == 1
    s.apply(MISS)  # seat 1
    assert s.queen_allowed(0) is allowed_next_turn
    rep = s.apply(hit(QUEEN_ID))
    assert rep.queen_event == ("pocketed" if allowed_next_turn else "returned")
    if allowed_next_turn:
        assert s.apply(MISS).queen_event == "returned"  # no cover: back it goes, the turn passes
        s.apply(MISS)  # seat 1
    assert s.turn == 0 and not s.queen_allowed(0)  # the unlock lasted one stroke


def test_family_last_coin_stays_down_then_the_queen_ends_the_board():
    # seed: «Une manche se termine lorsqu'une personne a réussi à placer tous ses jetons dans les
    # filets et que la reine est elle-même dans un filet» (in any order: "stays_down", default)
    s = board("ruleset=family")
    assert s.rules.last_coin.before_queen == "stays_down"
    _leave(s, W, 1)
    _leave(s, B, 4)
    rep = s.apply(hit(W[0]))
    assert not rep.board_over and not s.on[W[0]] and rep.continues and s.coins_left(0) == 0
    s.apply(MISS)
    s.apply(MISS)  # seat 1
    assert s.queen_allowed(0)  # no coin left: the queen on any stroke
    rep = s.apply(hit(QUEEN_ID))
    assert rep.queen_event == "pocketed+covered" and rep.board_over
    assert s.winner_side == 0 and s.points == [4 + 3, 0]


def test_family_stays_down_the_opponent_who_takes_the_queen_ends_the_board_for_the_other():
    s = board("ruleset=family", "last_coin.before_queen=stays_down")
    _leave(s, W, 1)
    _leave(s, B, 4)
    s.apply(hit(W[0]))
    s.apply(MISS)  # seat 0's turn ends, nothing lost
    s.apply(hit(B[0]))
    rep = s.apply(hit(QUEEN_ID, B[1]))  # seat 1 confirms the queen: seat 0 had all its coins in
    assert rep.board_over and s.winner_side == 0 and s.points == [2, 0]  # no queen bonus


def test_family_stays_down_both_cleared_the_side_that_pockets_the_queen_wins():
    s = board("ruleset=family", "last_coin.before_queen=stays_down")
    _leave(s, W, 1)
    _leave(s, B, 1)
    s.apply(hit(W[0]))
    s.apply(MISS)
    s.apply(hit(B[0]))  # seat 1 clears too
    rep = s.apply(hit(QUEEN_ID))
    assert rep.board_over and s.winner_side == 1 and s.points == [0, 3]


def test_own_coin_on_the_last_stroke_of_a_turn_is_forgotten_when_the_turn_passes():
    # seed: «loger un jeton à son coup précédent»: the player's previous stroke, in this turn
    s = board("ruleset=family", "rules.opponent_coin_ends_turn=true")
    rep = s.apply(hit(W[0], B[0]))  # own coin, but the opponent's coin ends the turn
    assert not rep.continues and s.turn == 1
    s.apply(MISS)
    assert s.turn == 0 and not s.queen_allowed(0)
    assert s.apply(hit(QUEEN_ID)).queen_event == "returned"


def test_family_last_coin_and_queen_in_one_stroke_win_the_board():
    s = board("ruleset=family")
    _leave(s, W, 1)
    _leave(s, B, 3)
    rep = s.apply(hit(W[0], QUEEN_ID))  # nothing left to confirm it with: covered
    assert rep.board_over and s.winner_side == 0 and s.points == [3 + 3, 0]


def test_icf_pocketing_the_opponent_last_coin_loses_by_own_coins_plus_queen():
    s = board("ruleset=icf")
    _leave(s, B, 1)
    _leave(s, W, 4)
    rep = s.apply(hit(B[0]))
    assert rep.foul == "opponent_last_coin" and rep.board_over
    assert s.winner_side == 1 and s.points == [0, 4 + 3]


def test_family_opponent_last_coin_counts_for_them_once_the_queen_is_covered():
    s = board("ruleset=family")
    _leave(s, B, 1)
    _leave(s, W, 4)
    rep = s.apply(hit(B[0]))  # queen on the board: the coin comes back
    assert not rep.board_over and s.on[B[0]]
    s2 = board("ruleset=family")
    _leave(s2, B, 1)
    _leave(s2, W, 4)
    s2.queen_state, s2.queen_seat, s2.on[QUEEN_ID] = "covered", 0, False
    rep = s2.apply(hit(B[0]))
    assert rep.board_over and s2.winner_side == 1 and s2.points == [0, 4]


def test_stuck_board_ends_after_the_stroke_cap():
    s = board("game.max_strokes_per_board=5")
    for _ in range(5):
        rep = s.apply(MISS)
    assert rep.board_over and s.end == "stuck" and s.points == [0, 0] and s.winner_side == -1


# ------------------------------------------------------------------ break and colours
def test_icf_break_must_touch_a_coin_three_tries_then_the_next_seat():
    r = rules("ruleset=icf")
    s = BoardState(r, 2, 0)
    assert s.break_pending
    for _ in range(2):
        rep = s.apply(hit(touched=False))
        assert rep.foul == "break_miss" and rep.continues and s.turn == 0
    rep = s.apply(hit(touched=False))
    assert not rep.continues and s.turn == 1 and s.break_pending
    s.apply(hit(touched=True))
    assert not s.break_pending


def test_family_break_that_misses_is_an_ordinary_miss():
    s = BoardState(rules("ruleset=family"), 2, 0)
    rep = s.apply(hit(touched=False))
    assert rep.foul == "" and s.turn == 1 and not s.break_pending


def test_breaker_plays_white_icf():
    s = BoardState(rules("ruleset=icf"), 2, 1)
    assert s.colour_of_side(1) == WHITE
    s = BoardState(rules("ruleset=family"), 2, 1)
    assert s.colour_of_side(0) == WHITE


# ------------------------------------------------------------------ doubles and three players
def test_doubles_turn_passes_to_the_right_and_partners_share_a_colour():
    s = board("ruleset=icf", n_seats=4)
    order = [s.turn]
    for _ in range(5):
        s.apply(MISS)
        order.append(s.turn)
    assert order == [0, 1, 2, 3, 0, 1]
    assert s.colour_of_side(s.side_of[0]) == s.colour_of_side(s.side_of[2])
    assert s.colour_of_side(s.side_of[1]) != s.colour_of_side(s.side_of[0])
    s.turn = 2
    s.apply(hit(W[0]))  # seat 2 plays white for team 0
    assert s.credit[W[0]] == 0 and s.turn == 2


def test_doubles_partner_coin_counts_as_own_for_the_icf_queen():
    s = board("ruleset=icf", n_seats=4)
    s.apply(hit(W[0]))  # seat 0
    s.apply(MISS)
    s.apply(MISS)  # seat 1
    assert s.turn == 2 and s.queen_allowed(2)


def test_three_players_every_coin_scores_to_who_pockets_it():
    s = board("ruleset=family", n_seats=3)
    t = s.rules.three_players
    s.apply(hit(W[0], B[0]))
    assert s.credit[W[0]] == 0 and s.credit[B[0]] == 0 and s.turn == 0
    s.apply(MISS)
    s.apply(hit(*W[1:], *B[1:]))  # seat 1 clears everything but the queen
    assert s.turn == 1
    rep = s.apply(hit(QUEEN_ID))  # the queen is the last disc: allowed, nothing to cover it with
    assert rep.queen_event == "pocketed+covered" and rep.board_over
    assert s.points[0] == t.white_points + t.black_points
    assert s.points[1] == 8 * t.white_points + 8 * t.black_points + t.queen_points


def test_three_players_due_pays_with_the_cheapest_coin():
    s = board("ruleset=family", n_seats=3)
    s.apply(hit(W[0], B[0]))
    s.apply(hit(striker=True))
    assert s.on[B[0]] and not s.on[W[0]]


def test_queen_colour_and_counts_of_the_formation():
    s = board()
    assert (s.colour == QUEEN).sum() == 1 and s.colour[QUEEN_ID] == QUEEN
    assert len(WHITES) == 9 and len(BLACKS) == 9
