"""Rule tests: one or more per paragraph of the spec, from small hand-made positions.

Map ``OPEN`` (helpers.py): a 4-wide track, columns 1..4, finish on row 0, track rows 1..4,
start slots on row 5, behind the start line on row 6. Directions: 0 N (towards the finish),
2 E, 4 S, 6 W. Dashboard squares: 2 front, 4 right, 6 back, 8 left.
"""

from __future__ import annotations

from sim.gasterospeed.rules import dealing
from sim.gasterospeed.rules.board import FINISHED, KO, OUT
from sim.gasterospeed.rules.cards import SPEED
from sim.gasterospeed.rules.view import SACRIFICE

from ..helpers import (
    DECK,
    OPEN,
    Loaded,
    Scripted,
    at,
    circuit,
    config,
    give,
    race,
    speed,
    uid,
)

N, E, S, W = 0, 2, 4, 6


def events_of(r, phase):
    return [e for e in r.events if e["phase"] == phase]


# -- placement and dealing --------------------------------------------------------------------


def test_placement_lowest_d8_places_first_on_the_slot_of_its_choice():
    c = circuit()
    p0, p1 = Scripted(), Scripted(place=[at(c, 5, 2)])
    r = race(c, 2, policies=[p0, p1], dice=Loaded(6, 3), fill_piles=False)  # seat 0 rolls 6, seat 1 rolls 3
    dealing.place_snails(r)
    assert r.board.pos[1] == at(c, 5, 2)  # seat 1 (lower roll) chose first
    assert r.board.pos[0] != at(c, 5, 2) and r.board.pos[0] in c.slots
    [(_, (_, _, slots))] = [call for call in p0.calls if call[0] == "place"]
    assert at(c, 5, 2) not in slots and len(slots) == 3  # fewer players: slots stay empty
    assert list(r.board.slot) == list(r.board.pos)


def test_deal_four_cards_each_from_the_shuffled_deck():
    r = race(n_seats=3, fill_piles=False)
    r.setup()
    assert [len(h) for h in r.hands] == [4, 4, 4]
    assert r.card_count() == 80


def test_all_action_hand_is_announced_discards_two_at_random_and_draws_until_a_speed_card():
    r = race(events=[])
    hand = [uid("tir"), uid("choc"), uid("ressort"), uid("aspiration")]
    give(r, 0, *hand)
    # the top of the draw pile (its end) holds two action cards, then a speed card
    actions = [uid("tir", 1), uid("choc", 1)]
    for u in actions + [speed(150 - 45)]:
        r.draw[0].remove(u)
    r.draw[0] += [speed(105), uid("tir", 1), uid("choc", 1)]
    dealing.all_action_check(r, 0)
    assert any(DECK.kind[u] == SPEED for u in r.hands[0]) and len(r.hands[0]) == 4
    assert len(events_of(r, "redraw")) == 4  # two rounds of two random discards
    assert r.card_count() == 80


def test_all_speed_hand_plays_on():
    r = race(events=[])
    give(r, 0, speed(101), speed(102), speed(103), speed(201))
    dealing.all_action_check(r, 0)
    assert sorted(r.hands[0]) == sorted([speed(101), speed(102), speed(103), speed(201)])
    assert events_of(r, "redraw") == []


# -- speed phase -------------------------------------------------------------------------------


def test_speed_moves_resolve_fastest_first():
    c = circuit()
    # both snails want (2, 2); the faster card gets it, whoever holds it
    for fast in (0, 1):
        p = [Scripted(speed_move=[at(c, 2, 2)]), Scripted(speed_move=[at(c, 2, 2)])]
        p[1 - fast] = Scripted()
        r = race(c, 2, policies=p, events=[])
        r.board.place(0, at(c, 3, 1))
        r.board.place(1, at(c, 3, 3))
        cards = {fast: speed(120), 1 - fast: speed(110)}
        give(r, 0, cards[0])
        give(r, 1, cards[1])
        r.speed_phase(cards)
        assert r.board.pos[fast] == at(c, 2, 2)
        assert r.board.pos[1 - fast] != at(c, 2, 2)
        assert [e["seat"] for e in events_of(r, "speed")] == [fast, 1 - fast]


def test_a_speed_move_never_pushes_nor_passes_over_a_snail_and_a_blocked_move_is_lost():
    c = circuit("""
    #FFFF#
    #....#
    #....#
    #oo..#
    #.o..#
    #oSSS#
    #====#
    """)
    r = race(c, 2, events=[])
    r.board.place(0, at(c, 4, 1))  # a pocket: its only free neighbour is (5, 2)
    r.board.place(1, at(c, 5, 2))
    assert r.board.speed_ends(0, 1) == [] and r.board.speed_ends(0, 2) == []
    give(r, 0, speed(201))
    give(r, 1, speed(101))
    r.speed_phase({0: speed(201), 1: speed(101)})
    assert [e["outcome"] for e in events_of(r, "speed") if e["seat"] == 0] == ["blocked"]
    assert r.board.pos[0] == at(c, 4, 1)
    assert speed(201) in r.in_play  # the card stays in front of the player
    r.end_turn()
    assert speed(201) in r.discard[0] and r.in_play == []


def test_the_whole_move_is_made_even_backwards_and_stepping_back_is_allowed():
    c = circuit()
    r = race(c, 4)
    for s, col in ((1, 1), (2, 2), (3, 3)):
        r.board.place(s, at(c, 1, col))  # a wall of snails in front of snail 0
    r.board.place(0, at(c, 2, 2))
    ends = r.board.speed_ends(0, 1)
    assert sorted(ends) == sorted([at(c, 2, 1), at(c, 2, 3), at(c, 3, 1), at(c, 3, 2), at(c, 3, 3)])
    assert at(c, 2, 2) in r.board.speed_ends(0, 2)  # out and back onto the square just left
    assert all(c.dist[e] >= c.dist[at(c, 2, 2)] for e in ends)


def test_a_speed_move_crossing_the_line_finishes_at_once_and_the_hand_is_discarded():
    c = circuit()
    r = race(c, 2, policies=[Scripted(speed_move=[at(c, 0, 2)]), Scripted()], events=[])
    r.board.place(0, at(c, 1, 2))
    r.board.place(1, at(c, 4, 2))
    give(r, 0, speed(130), uid("tir"), uid("ressort"))
    r.speed_phase({0: speed(130)})
    assert r.board.status[0] == FINISHED and r.board.pos[0] == -1 and r.board.arrivals == [0]
    assert r.hands[0] == [] and uid("tir") in r.discard[0]


def test_sacrifice_variant_stays_put_and_regains_a_shell_not_above_the_start():
    c = circuit()
    cfg = config(sacrifice=True)
    r = race(c, 2, config=cfg, policies=[Scripted(speed_move=[SACRIFICE]), Scripted()], events=[])
    r.board.place(0, at(c, 3, 2))
    r.board.shells[0] = 2
    give(r, 0, speed(205))
    r.speed_phase({0: speed(205)})
    assert r.board.pos[0] == at(c, 3, 2) and r.board.shells[0] == 3
    assert events_of(r, "speed")[0]["outcome"] == "sacrifice"
    [(_, (_, _, _, ends))] = [x for x in r.policies[0].calls if x[0] == "speed_move"]
    assert SACRIFICE in ends
    # a one-square card offers no sacrifice
    r2 = race(c, 2, config=cfg)
    r2.board.place(0, at(c, 3, 2))
    give(r2, 0, speed(110))
    r2.speed_phase({0: speed(110)})
    assert all(SACRIFICE not in call[1][3] for call in r2.policies[0].calls if call[0] == "speed_move")


# -- action phase ------------------------------------------------------------------------------


def test_actions_resolve_by_order_then_by_the_higher_speed_card_of_the_turn():
    c = circuit()
    r = race(c, 3, events=[])
    for s, col in ((0, 1), (1, 2), (2, 3)):
        r.board.place(s, at(c, 4, col))
    r.turn_speed = [130, 101, 120]
    give(r, 0, uid("choc"))
    give(r, 1, uid("turbo_petard"))
    give(r, 2, uid("choc", 1))
    r.action_phase({0: (uid("choc"), False), 1: (uid("turbo_petard"), False), 2: (uid("choc", 1), False)})
    assert [e["seat"] for e in events_of(r, "action")] == [1, 0, 2]


def test_an_announced_discard_goes_to_the_discard_pile_at_once():
    r = race(events=[])
    r.board.place(0, at(r.board.c, 4, 1))
    give(r, 0, speed(133))
    r.action_phase({0: (speed(133), True)})
    assert r.discard[0] == [speed(133)] and r.in_play == []
    assert events_of(r, "discard")[0]["card"] == "vitesse_1"


def test_an_action_made_impossible_is_lost():
    c = circuit()
    r = race(c, 2, events=[])
    r.board.place(0, at(c, 3, 1))
    r.board.place(1, at(c, 3, 4))
    give(r, 0, uid("aspiration"))
    give(r, 1, uid("tir"))
    r.action_phase({0: (uid("aspiration"), False)})
    assert events_of(r, "action")[0]["outcome"] == "not_behind" and r.board.pos[0] == at(c, 3, 1)
    # behind another snail (on its dashboard squares 5, 6, 7) it gains a square
    r.board.place(0, at(c, 4, 3))
    give(r, 0, uid("aspiration", 1))
    r.action_phase({0: (uid("aspiration", 1), False)})
    assert events_of(r, "action")[1]["outcome"] == "moved+1"
    # a shot with nobody in line of sight is lost
    r.board.place(1, at(c, 1, 4))
    r.board.place(0, at(c, 4, 2))  # not on one of the 8 lines from snail 1
    r.action_phase({1: (uid("tir"), False)})
    assert events_of(r, "action")[2]["outcome"] == "no_target"


def test_turbo_petard_goes_straight_stopping_before_a_snail_and_may_burn():
    c = circuit()
    r = race(c, 2, policies=[Scripted(move_choice=[N]), Scripted()], dice=Loaded(1), events=[])
    r.board.place(0, at(c, 4, 2))
    r.board.place(1, at(c, 1, 2))
    give(r, 0, uid("turbo_petard"))
    r.action_phase({0: (uid("turbo_petard"), False)})
    assert r.board.pos[0] == at(c, 2, 2)  # two squares, stopped before snail 1
    assert r.board.pos[1] == at(c, 1, 2)
    assert r.board.shells[0] == 2  # rolled a 1: burnt


# -- jostles, rails, start line ------------------------------------------------------------------


def test_jostle_pushes_the_occupant_and_pushes_chain():
    c = circuit()
    r = race(c, 3, events=[])
    r.board.place(0, at(c, 4, 2))
    r.board.place(1, at(c, 3, 2))
    r.board.place(2, at(c, 2, 2))
    give(r, 0, uid("rouler_bouler"))
    r.action_phase({0: (uid("rouler_bouler"), False)})
    # three squares forward: 1 and 2 are pushed ahead at every square, over the finish line
    assert r.board.pos[0] == at(c, 1, 2)
    assert r.board.arrivals == [2, 1] and r.board.status[1] == r.board.status[2] == FINISHED


def test_jostle_chain_into_a_rail_puts_the_last_snail_back_and_jostles_backwards():
    c = circuit()
    r = race(c, 4, policies=[Scripted(move_choice=[E]), Scripted(), Scripted(), Scripted()], events=[])
    for s, col in enumerate((1, 2, 3, 4)):
        r.board.place(s, at(c, 2, col))
    give(r, 0, uid("ressort"))
    r.action_phase({0: (uid("ressort"), False)})
    b = r.board
    # step 1: 3 is pushed into the rail, put back one square (3, 4); step 2: 2 is pushed into
    # the rail, its back square is taken by 3, which is jostled backwards to (4, 4)
    assert [b.pos[s] for s in range(4)] == [at(c, 2, 3), at(c, 2, 4), at(c, 3, 4), at(c, 4, 4)]


def test_rail_without_backing_the_snail_stays_and_the_move_stops():
    c = circuit("""
    #FFFF#
    #....#
    #....#
    #..oo#
    #....#
    #SSSS#
    #====#
    """)
    r = race(c, 2, events=[])
    r.board.place(0, at(c, 2, 3))
    r.board.place(1, at(c, 2, 4))  # against the rail, an obstacle behind it
    assert r.board.straight(0, E, 2, True) == 0
    assert r.board.pos[1] == at(c, 2, 4) and r.board.pos[0] == at(c, 2, 3)
    # so a Ressort has no eastward option; with no possible direction at all it is lost
    give(r, 0, uid("ressort"))
    r.action_phase({0: (uid("ressort"), False)})
    [(_, (_, _, _, options))] = [x for x in r.policies[0].calls if x[0] == "move_choice"]
    assert E not in [d for d, _ in options]


def test_pushed_behind_the_start_line_goes_back_to_its_start_slot():
    c = circuit()
    r = race(c, 2, policies=[Scripted(move_choice=[S]), Scripted()], events=[])
    r.board.place(1, at(c, 5, 4))  # its start slot
    r.board.place(1, at(c, 5, 2), start_slot=False)  # now on the start line, elsewhere
    r.board.place(0, at(c, 4, 2))
    give(r, 0, uid("ressort"))
    r.action_phase({0: (uid("ressort"), False)})
    assert r.board.pos[1] == at(c, 5, 4)
    assert r.board.pos[0] == at(c, 5, 2)


def test_obstacle_damage_scratches_a_snail_pushed_into_brambles():
    c = circuit(
        """
    #FFFF#
    #....#
    #..o.#
    #....#
    #....#
    #SSSS#
    #====#
    """,
        obstacle_damage=1,
    )
    r = race(c, 2, policies=[Scripted(move_choice=[1]), Scripted()], events=[])  # north-east
    r.board.place(0, at(c, 4, 1))
    r.board.place(1, at(c, 3, 2))
    give(r, 0, uid("ressort"))
    r.action_phase({0: (uid("ressort"), False)})
    # pushed into the bramble: scratched, and put back one square by the rail rule
    assert r.board.shells[1] == 2 and r.board.pos[1] == at(c, 4, 2) and r.board.pos[0] == at(c, 3, 2)


# -- shots, reactions, domino -----------------------------------------------------------------


def test_shot_rolls_on_the_circuits_table_within_range_and_line_of_sight():
    c = circuit(shot_hits=(4, 5, 6))
    for face, shells in ((3, 3), (4, 2)):
        r = race(c, 2, dice=Loaded(face), events=[])
        r.board.place(0, at(c, 4, 1))
        r.board.place(1, at(c, 1, 4))  # 3 squares away on the diagonal
        give(r, 0, uid("tir"))
        r.action_phase({0: (uid("tir"), False)})
        assert r.board.shells[1] == shells
    blocked = circuit("""
    #FFFF#
    #....#
    #..o.#
    #....#
    #....#
    #SSSS#
    #====#
    """)
    r = race(blocked, 2)
    r.board.place(0, at(blocked, 4, 1))
    r.board.place(1, at(blocked, 1, 4))
    assert r.board.shot_targets(0, 3) == []
    r.board.place(1, at(blocked, 0 + 4, 4))
    assert r.board.shot_targets(0, 3) == [1]


def test_renfort_cancels_a_shot_and_retour_de_baton_sends_it_back_to_the_shooter():
    c = circuit(shot_hits=(1, 2, 3, 4, 5, 6))
    r = race(c, 2, policies=[Scripted(), Scripted(react=["cancel"])], dice=Loaded(6), events=[])
    r.board.place(0, at(c, 4, 1))
    r.board.place(1, at(c, 4, 3))
    give(r, 0, uid("tir"))
    give(r, 1, uid("renfort_de_coquille"), uid("retour_de_baton"))
    r.action_phase({0: (uid("tir"), False)})
    assert list(r.board.shells) == [3, 3] and events_of(r, "action")[0]["outcome"] == "cancelled"
    assert uid("renfort_de_coquille") in r.discard[0]
    r.policies[1] = Scripted(react=["reflect"])
    give(r, 0, uid("tir", 1))
    r.action_phase({0: (uid("tir", 1), False)})
    assert list(r.board.shells) == [2, 3] and events_of(r, "action")[1]["outcome"] == "reflected"
    assert [e["outcome"] for e in events_of(r, "reaction")] == ["cancel_shot", "reflect_shot"]


def _domino_race(reactions):
    c = circuit()
    policies = [Scripted(react=reactions.get(s, [])) for s in range(4)]
    r = race(c, 4, policies=policies, events=[])
    for s, col in enumerate((1, 2, 3, 4)):
        r.board.place(s, at(c, 2, col))
    give(r, 0, uid("choc"))
    return r


def test_domino_hits_every_snail_on_the_line_starting_from_the_first_after_the_player():
    r = _domino_race({})
    r.action_phase({0: (uid("choc"), False)})
    assert list(r.board.shells) == [3, 2, 2, 2]


def test_domino_is_stopped_by_renfort_de_coquille():
    r = _domino_race({2: ["cancel"]})
    give(r, 2, uid("renfort_de_coquille"))
    r.action_phase({0: (uid("choc"), False)})
    assert list(r.board.shells) == [3, 2, 3, 3]  # snail 3, after the Renfort, is spared


def test_domino_returned_by_retour_de_baton_and_ping_pong():
    r = _domino_race({2: ["reflect"]})
    give(r, 2, uid("retour_de_baton"))
    r.action_phase({0: (uid("choc"), False)})
    # back towards the causer: snail 1 is hit again, then the causer; snail 3 is spared
    assert list(r.board.shells) == [2, 1, 3, 3]
    r = _domino_race({2: ["reflect"], 0: ["reflect"]})
    give(r, 2, uid("retour_de_baton"))
    give(r, 0, uid("retour_de_baton", 1))
    r.action_phase({0: (uid("choc"), False)})
    # ping-pong: the causer sends it out again; 1 loses a third shell (KO), 2 and 3 lose one
    assert list(r.board.shells) == [3, 0, 2, 2] and r.board.status[1] == KO


# -- KO ----------------------------------------------------------------------------------------


def test_ko_snail_stays_as_a_jostlable_obstacle_and_discards_its_hand():
    c = circuit(shot_hits=(1, 2, 3, 4, 5, 6))
    r = race(c, 3, policies=[Scripted(), Scripted(), Scripted(move_choice=[N])], dice=Loaded(5), events=[])
    r.board.place(0, at(c, 4, 1))
    r.board.place(1, at(c, 3, 2))
    r.board.place(2, at(c, 4, 2))
    r.board.shells[1] = 1
    give(r, 0, uid("tir"))
    give(r, 1, uid("ressort"), speed(110))
    r.policies[0] = Scripted(target=[1])
    r.action_phase({0: (uid("tir"), False)})
    assert r.board.status[1] == KO and r.board.pos[1] == at(c, 3, 2) and r.hands[1] == []
    assert at(c, 3, 2) not in r.board.speed_ends(2, 1)  # an obstacle to speed moves
    give(r, 2, uid("ressort"))
    r.action_phase({2: (uid("ressort"), False)})
    assert r.board.pos[1] == at(c, 1, 2)  # but jostled like any snail


def test_ko_snails_blocking_the_only_passage_are_removed():
    c = circuit(
        """
    #FFF#
    #...#
    ##.##
    #...#
    #SSS#
    #===#
    """,
        shot_hits=(1, 2, 3, 4, 5, 6),
    )
    r = race(c, 3, policies=[Scripted(target=[1]), Scripted(), Scripted()], dice=Loaded(2), events=[])
    r.board.place(0, at(c, 3, 1))
    r.board.place(1, at(c, 2, 2))  # in the only passage
    r.board.place(2, at(c, 4, 2))
    r.board.shells[1] = 1
    give(r, 0, uid("tir"))
    r.action_phase({0: (uid("tir"), False)})
    assert r.board.status[1] == OUT and r.board.pos[1] == -1 and r.board.occ[at(c, 2, 2)] == -1
    # a KO snail that blocks nothing stays
    r2 = race(circuit(OPEN), 2)
    r2.board.place(0, at(r2.board.c, 4, 1))
    r2.board.place(1, at(r2.board.c, 2, 2))
    r2.board.knock_out(1)
    assert r2.board.clear_blocking_ko() == [] and r2.board.status[1] == KO


# -- finish and points -------------------------------------------------------------------------


def test_finishing_order_points_9_6_4_3_2_1_ko_and_the_last_get_1():
    r = race(n_seats=6)
    b = r.board
    for s in (3, 0, 5, 1):
        b.finish(s)
    b.knock_out(2)
    b.knock_out(4)
    assert r.ranking() == [3, 0, 5, 1]
    assert r.points() == [6, 1, 1, 9, 1, 4]  # 4 arrivals: 9, 6, 4 and the last gets 1
    r.config = config(last_gets_ko_points=False)
    assert r.points() == [6, 3, 1, 9, 1, 4]
    r6 = race(n_seats=6)
    for s in range(6):
        r6.board.finish(s)
    assert r6.points() == [9, 6, 4, 3, 2, 1]


def test_a_capped_race_ranks_the_running_snails_by_distance():
    c = circuit()
    r = race(c, 3, config=config(turn_cap=1))
    r.board.place(0, at(c, 4, 1))
    r.board.place(1, at(c, 2, 2))
    r.board.place(2, at(c, 3, 3))
    assert r.ranking() == [1, 2, 0]


# -- end of turn ---------------------------------------------------------------------------------


def test_end_of_turn_refills_to_four_and_an_empty_draw_pile_reshuffles_the_discard():
    r = race(n_seats=2, fill_piles=False)
    r.board.place(0, at(r.board.c, 4, 1))
    r.board.place(1, at(r.board.c, 4, 3))
    r.discard[0] = list(range(80))
    r.end_turn()
    assert [len(h) for h in r.hands] == [4, 4] and len(r.draw[0]) + len(r.discard[0]) == 72
    assert len(r.draw[0]) > 0
    assert r.card_count() == 80


def test_turn_cap_is_recorded_as_such():
    r = race(n_seats=2, config=config(turn_cap=2), fill_piles=False)
    r.run()
    assert r.turn == 2 and r.capped and r.running()
