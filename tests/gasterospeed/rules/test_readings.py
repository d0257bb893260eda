"""The rule sheet's rules and our documented readings, one scripted position each.

Map ``OPEN`` (helpers.py): a 4-wide track, columns 1..4, finish on row 0, track rows 1..4,
start slots on row 5, behind the start line on row 6. Directions: 0 N (towards the finish),
1 NE, 2 E, 4 S, 6 W.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sim.core import Cell, run_cells
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules
from sim.core.seeding import MatchSeeds
from sim.gasterospeed import GAME
from sim.gasterospeed.match import _purses, _reserve_shells, play_match
from sim.gasterospeed.players.policies import GasterospeedProfile, make_policy
from sim.gasterospeed.rules import dealing, reactions
from sim.gasterospeed.rules.board import FINISHED, KO
from sim.gasterospeed.rules.cards import Deck, Dice
from sim.gasterospeed.rules.race import Race, RaceConfig
from sim.gasterospeed.rules.view import NO_REACTION

from ..helpers import (
    CONFIG,
    DECK,
    RULES,
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

N, NE, E, S, W = 0, 1, 2, 4, 6


def events_of(r, phase):
    return [e for e in r.events if e["phase"] == phase]


def calls_of(policy, name):
    return [args for call, args in policy.calls if call == name]


# -- 1. a KO snail never finishes --------------------------------------------------------------


def test_a_ko_snail_pushed_at_the_finish_line_stays_on_the_track_and_scores_as_ko():
    c = circuit()
    r = race(c, 2, policies=[Scripted(), Scripted()], events=[])
    r.board.place(0, at(c, 3, 2))
    r.board.place(1, at(c, 1, 2))
    r.board.knock_out(1)
    give(r, 0, uid("rouler_bouler"))
    r.action_phase({0: (uid("rouler_bouler"), False)})
    # the line is a rail for it: put back onto the pusher's square, which is taken, so it stays
    assert r.board.status[1] == KO and r.board.pos[1] == at(c, 1, 2) and r.board.arrivals == []
    assert r.board.pos[0] == at(c, 2, 2)
    r.board.finish(0)
    assert r.points() == [9, 1]


def test_a_ko_snail_pushed_diagonally_over_the_line_is_put_back_one_square_and_the_pusher_finishes():
    c = circuit()
    r = race(c, 2, policies=[Scripted(move_choice=[NE]), Scripted()], events=[])
    r.board.place(0, at(c, 2, 1))
    r.board.place(1, at(c, 1, 2))
    r.board.knock_out(1)
    give(r, 0, uid("ressort"))
    r.action_phase({0: (uid("ressort"), False)})
    assert r.board.status[1] == KO and r.board.pos[1] == at(c, 2, 2)  # the rail rule: one square back
    assert r.board.arrivals == [0] and r.board.status[0] == FINISHED


def test_ko_at_finish_evacuated_takes_it_off_the_board_still_ko():
    c = circuit()
    r = race(c, 2, config=config(ko_at_finish="evacuated"), events=[])
    r.board.place(0, at(c, 3, 2))
    r.board.place(1, at(c, 1, 2))
    r.board.knock_out(1)
    give(r, 0, uid("rouler_bouler"))
    r.action_phase({0: (uid("rouler_bouler"), False)})
    assert r.board.status[1] == KO and r.board.pos[1] == -1 and r.board.occ[at(c, 1, 2)] == -1
    assert r.board.arrivals == [0]  # the pusher rolled on over the line
    assert r.points() == [9, 1]


# -- 2. reactions counter a card of another player aimed at the holder ---------------------------


def _jostle(reaction, answer, mover=(4, 2), holder=(3, 2), direction=N, card="ressort"):
    c = circuit()
    policies = [Scripted(move_choice=[direction]), Scripted(react=[answer])]
    r = race(c, 2, policies=policies, events=[])
    r.board.place(0, at(c, *mover))
    r.board.place(1, at(c, *holder))
    give(r, 0, uid(card))
    give(r, 1, uid(reaction))
    r.action_phase({0: (uid(card), False)})
    return c, r


def test_renfort_de_coquille_blocks_a_jostle_the_mover_stops():
    c, r = _jostle("renfort_de_coquille", "cancel")
    assert list(r.board.pos) == [at(c, 4, 2), at(c, 3, 2)]
    assert events_of(r, "action")[0]["outcome"] == "countered"
    assert [e["outcome"] for e in events_of(r, "reaction")] == ["block_jostle"]
    assert uid("renfort_de_coquille") in r.discard[0] and r.hands[1] == []
    # the holder saw what each answer leads to
    [(view, s, source, cause, options)] = calls_of(r.policies[1], "react")
    assert (s, source, cause) == (1, 0, "jostle") and options == [NO_REACTION, uid("renfort_de_coquille")]
    assert view.stakes["none"].pos[1] == at(c, 2, 2) and view.stakes["block"].pos[1] == at(c, 3, 2)


def test_retour_de_baton_reverses_a_jostle_the_mover_is_pushed_one_square_back():
    c, r = _jostle("retour_de_baton", "reflect")
    assert list(r.board.pos) == [at(c, 5, 2), at(c, 3, 2)]
    assert [e["outcome"] for e in events_of(r, "reaction")] == ["reverse_jostle"]


def test_a_declined_counter_lets_the_jostle_happen():
    c, r = _jostle("renfort_de_coquille", "none")
    assert list(r.board.pos) == [at(c, 2, 2), at(c, 1, 2)]  # two squares, pushing the holder ahead
    assert r.hands[1] == [uid("renfort_de_coquille")]


def test_in_a_chain_every_pushed_player_may_counter_and_one_block_stops_the_chain():
    c = circuit()
    policies = [Scripted(move_choice=[N]), Scripted(), Scripted(react=["cancel"])]
    r = race(c, 3, policies=policies, events=[])
    for s, row in ((0, 4), (1, 3), (2, 2)):
        r.board.place(s, at(c, row, 2))
    give(r, 0, uid("ressort"))
    give(r, 1, uid("retour_de_baton"))
    give(r, 2, uid("renfort_de_coquille"))
    r.action_phase({0: (uid("ressort"), False)})
    assert len(calls_of(policies[1], "react")) == 1 and len(calls_of(policies[2], "react")) == 1
    assert list(r.board.pos) == [at(c, 4, 2), at(c, 3, 2), at(c, 2, 2)]


def test_no_counter_is_offered_against_a_push_that_cannot_happen_nor_against_ones_own_card():
    c = circuit("""
    #FFFF#
    #....#
    #....#
    #..oo#
    #....#
    #SSSS#
    #====#
    """)
    r = race(c, 2, policies=[Scripted(move_choice=[E]), Scripted(react=["cancel"])], events=[])
    r.board.place(0, at(c, 2, 3))
    r.board.place(1, at(c, 2, 4))  # against the rail, no backing possible
    give(r, 1, uid("renfort_de_coquille"))
    guard = reactions.jostle_guard(r, 0, E)
    r.board.guard = guard
    assert r.board.straight(0, E, 2, True) == 0
    assert calls_of(r.policies[1], "react") == []
    # two snails of one seat: its own card pushes its other snail without a counter
    r2 = race(circuit(), 1, config=config(two_snails=True), policies=[Scripted(move_choice=[N], react=["cancel"])])
    r2.board.place(0, at(r2.board.c, 4, 2))
    r2.board.place(1, at(r2.board.c, 3, 2))
    give(r2, 0, uid("ressort"), uid("renfort_de_coquille"))
    r2.action_phase({0: (uid("ressort"), False)})
    assert (
        list(r2.board.pos) == [at(r2.board.c, 2, 2), at(r2.board.c, 1, 2)] and calls_of(r2.policies[0], "react") == []
    )


def test_retour_de_baton_against_a_shot_is_a_key():
    deck = Deck(load_rules(GAME, None, ['deck.retour_de_baton.vs_shot="cancel"']).deck)
    c = circuit(shot_hits=(1, 2, 3, 4, 5, 6))
    shots = {}
    for name, d in (("reflect", DECK), ("cancel", deck)):
        r = Race(c, d, CONFIG, [Scripted(), Scripted(react=["reflect"])], Loaded(6), shells=3, events=[])
        r.draw[0] = list(range(len(d)))
        r.board.place(0, at(c, 4, 1))
        r.board.place(1, at(c, 4, 3))
        give(r, 0, d.uids("tir")[0])
        give(r, 1, d.uids("retour_de_baton")[0])
        r.action_phase({0: (d.uids("tir")[0], False)})
        shots[name] = list(r.board.shells)
    assert shots == {"reflect": [2, 3], "cancel": [3, 3]}


def test_retour_de_baton_cancels_a_burn_as_the_sheet_says_of_both_reactions():
    c = circuit()
    r = race(c, 2, policies=[Scripted(move_choice=[N], react=["reflect"]), Scripted()], dice=Loaded(1), events=[])
    r.board.place(0, at(c, 4, 2))
    give(r, 0, uid("turbo_petard"), uid("retour_de_baton"))
    r.action_phase({0: (uid("turbo_petard"), False)})
    assert r.board.shells[0] == 3 and [e["outcome"] for e in events_of(r, "reaction")] == ["cancel_burn"]


def _policy(kind):
    return make_policy(GasterospeedProfile(policy=kind), Dice(np.random.default_rng(1)))


def test_random_players_counter_uniformly_over_the_legal_answers():
    policy = _policy("random")
    options = [NO_REACTION, uid("renfort_de_coquille"), uid("retour_de_baton")]
    picks = np.bincount([policy.react(None, 1, 0, "jostle", options) for _ in range(3000)], minlength=3)
    assert np.all(np.abs(picks / 3000 - 1 / 3) < 0.04), picks


@pytest.mark.parametrize("kind", ["greedy", "tactician"])
def test_greedy_and_tactician_block_a_jostle_that_sets_them_back_not_one_that_helps(kind):
    outcomes = {}
    for name, mover, holder, direction in (("back", (1, 2), (2, 2), S), ("ahead", (3, 2), (2, 2), N)):
        c = circuit()
        policies = [Scripted(move_choice=[direction]), _policy(kind)]
        r = race(c, 2, policies=policies, events=[])
        r.board.place(0, at(c, *mover))
        r.board.place(1, at(c, *holder))
        give(r, 0, uid("ressort"))
        give(r, 1, uid("renfort_de_coquille"), speed(110))
        r.action_phase({0: (uid("ressort"), False)})
        outcomes[name] = [e["outcome"] for e in events_of(r, "reaction")]
    assert outcomes == {"back": ["block_jostle"], "ahead": []}


# -- 3. a card made impossible is lost as a whole ---------------------------------------------------

POCKET = """
#FFFF#
#....#
#....#
#oo..#
#.o..#
#oSSS#
#====#
"""


def test_a_boxed_in_turbo_petard_is_lost_and_burns_nothing():
    c = circuit(POCKET)
    dice = Loaded(1, 1, 1)
    r = race(c, 2, dice=dice, events=[])
    r.board.place(0, at(c, 4, 1))  # its only free neighbour is taken
    r.board.place(1, at(c, 5, 2))
    give(r, 0, uid("turbo_petard"))
    r.action_phase({0: (uid("turbo_petard"), False)})
    assert events_of(r, "action")[0]["outcome"] == "lost"
    assert r.board.shells[0] == 3 and dice.asked == []  # no burn roll at all


def test_laitue_bleue_keeps_no_gain_when_its_move_fails_and_keeps_it_when_it_moves():
    c = circuit()
    for blocked, (shells, where, outcome) in ((True, (2, (3, 2), "lost")), (False, (3, (2, 2), "gained1+moved+1"))):
        r = race(c, 2, dice=Loaded(1), events=[])  # face 1: dashboard square 2, straight ahead
        r.board.place(0, at(c, 3, 2))
        r.board.place(1, at(c, 2, 2) if blocked else at(c, 4, 4))
        r.board.shells[0] = 2
        give(r, 0, uid("laitue_bleue"))
        r.action_phase({0: (uid("laitue_bleue"), False)})
        assert (r.board.shells[0], r.board.pos[0], events_of(r, "action")[0]["outcome"]) == (
            shells,
            at(c, *where),
            outcome,
        )


# -- 4. the (!) parades are the reaction cards: counters in addition to the card placed --------------


def test_a_reaction_is_played_in_addition_to_the_card_placed_face_down_and_is_never_placed():
    c = circuit(shot_hits=(1, 2, 3, 4, 5, 6))
    policies = [
        Scripted(action_card=[uid("tir")], target=[1]),
        Scripted(action_card=[uid("choc")], react=["cancel", "cancel"]),
        Scripted(action_card=[uid("tir", 1)], target=[1]),
    ]
    r = race(c, 3, policies=policies, dice=Loaded(6, 6), events=[])
    for s, (row, col) in enumerate(((4, 1), (4, 3), (2, 3))):  # 1 is in the sights of 0 and 2
        r.board.place(s, at(c, row, col))
    give(r, 0, uid("tir"))
    give(r, 1, uid("choc"), uid("renfort_de_coquille"), uid("renfort_de_coquille", 1))
    give(r, 2, uid("tir", 1))
    r.action_phase()
    [(_, _, options)] = calls_of(policies[1], "action_card")
    assert (uid("renfort_de_coquille"), False) not in options and (uid("renfort_de_coquille"), True) in options
    assert [e["card"] for e in events_of(r, "action") if e["seat"] == 1] == ["choc"]
    assert [e["outcome"] for e in events_of(r, "reaction")] == ["cancel_shot", "cancel_shot"]  # two in one turn
    assert r.board.shells[1] == 3


# -- 5. a discard instead of a card, in the speed phase too -------------------------------------------


def test_a_card_may_be_discarded_instead_of_a_speed_card():
    c = circuit()
    p = Scripted(speed_card=[(uid("tir"), True)])
    r = race(c, 2, policies=[p, Scripted()], events=[])
    r.board.place(0, at(c, 4, 2))
    r.board.place(1, at(c, 4, 4))
    give(r, 0, speed(110), uid("tir"))
    give(r, 1, speed(120))
    r.speed_phase()
    [(_, _, options)] = calls_of(p, "speed_card")
    assert options == [(speed(110), False), (speed(110), True), (uid("tir"), True)]
    assert r.board.pos[0] == at(c, 4, 2) and r.turn_speed[0] == 0 and uid("tir") in r.discard[0]
    assert [(e["seat"], e["card"], e["outcome"]) for e in events_of(r, "discard")] == [(0, "tir", "speed_phase")]
    r2 = race(c, 1, config=config(discard_in_speed_phase=False), policies=[Scripted()])
    r2.board.place(0, at(c, 4, 2))
    give(r2, 0, speed(110), speed(111), uid("tir"))
    r2.speed_phase()
    [(_, _, options)] = calls_of(r2.policies[0], "speed_card")
    assert options == [(speed(110), False), (speed(111), False)]


@pytest.mark.parametrize("kind", ["greedy", "tactician"])
def test_greedy_and_tactician_discard_rather_than_make_a_move_that_only_goes_back(kind):
    c = circuit()
    r = race(c, 1 + 5)
    r.board.place(0, at(c, 3, 2))
    for s, (row, col) in enumerate(((2, 1), (2, 2), (2, 3), (3, 1), (3, 3)), start=1):
        r.board.place(s, at(c, row, col))
    give(r, 0, speed(110), uid("tir"))
    options = [(speed(110), False), (speed(110), True), (uid("tir"), True)]
    player = _policy(kind)
    assert options[player.speed_card(r.view(0), 0, options)][1]
    r.board.place(2, at(c, 1, 2))  # a square ahead frees up: it plays the card
    assert options[player.speed_card(r.view(0), 0, options)] == (speed(110), False)


# -- 6. our inventions, each a key --------------------------------------------------------------

BRAMBLE = """
#FFFF#
#....#
#..o.#
#....#
#....#
#SSSS#
#====#
"""


def test_pushed_into_an_obstacle_the_rail_rule_or_it_stays():
    c = circuit(BRAMBLE, obstacle_damage=1)
    where = {}
    for reading in ("rail", "stay"):
        r = race(c, 2, config=config(pushed_into_obstacle=reading))
        r.board.place(0, at(c, 4, 1))
        r.board.place(1, at(c, 3, 2))
        moved = r.board.straight(0, NE, 2, True)  # a Ressort north-east into the bramble
        where[reading] = (moved, r.board.pos[0], r.board.pos[1], r.board.pending)
    scratch = [(1, 1, "bramble")]  # scratched either way
    assert where == {"rail": (1, at(c, 3, 2), at(c, 4, 2), scratch), "stay": (0, at(c, 4, 1), at(c, 3, 2), scratch)}


ARROW_ROW = """
#FFFF#
#....#
#.^^^#
#....#
#....#
#SSSS#
#====#
"""


def test_a_diagonal_push_onto_an_arrow_square_goes_through_or_fails():
    c = circuit(ARROW_ROW)
    where = {}
    for cut in (True, False):
        r = race(c, 2, config=config(pushes_cut_arrows=cut))
        r.board.place(0, at(c, 4, 2))
        r.board.place(1, at(c, 3, 3))
        moved = r.board.straight(0, NE, 1, True)  # a Ressort north-east: snail 1 pushed onto the arrow
        where[cut] = (moved, r.board.pos[0], r.board.pos[1])
    assert where == {True: (1, at(c, 3, 3), at(c, 2, 4)), False: (0, at(c, 4, 2), at(c, 3, 3))}


def test_a_straight_push_onto_an_arrow_square_goes_through_in_both_readings():
    c = circuit(ARROW_ROW)
    for cut in (True, False):
        r = race(c, 2, config=config(pushes_cut_arrows=cut))
        r.board.place(0, at(c, 4, 3))
        r.board.place(1, at(c, 3, 3))
        assert r.board.straight(0, N, 1, True) == 1
        assert (r.board.pos[0], r.board.pos[1]) == (at(c, 3, 3), at(c, 2, 3))


def test_the_die_of_each_table_is_a_key():
    c = circuit(die=8, shot_hits=(7, 8))
    dice = Loaded(7)
    r = race(c, 2, dice=dice, events=[])
    r.board.place(0, at(c, 4, 1))
    r.board.place(1, at(c, 4, 3))
    give(r, 0, uid("tir"))
    r.action_phase({0: (uid("tir"), False)})
    assert dice.asked == [8] and r.board.shells[1] == 2  # the shot table's die: a D8
    deck = Deck(load_rules(GAME, None, ["deck.coup_de_folie.direction_table=[2, 2, 2, 2, 2, 2, 2, 6]"]).deck)
    dice = Loaded(8)
    r = Race(circuit(), deck, CONFIG, [Scripted()], dice, shells=3)
    r.board.place(0, at(r.board.c, 2, 2))
    u = deck.uids("coup_de_folie")[0]
    r.hands[0].append(u)
    r.action_phase({0: (u, False)})
    assert dice.asked == [8] and r.board.pos[0] == at(r.board.c, 5, 2)  # a D8 direction roll: back
    dice = Loaded(3, 12)
    r = race(circuit(), 2, config=config(placement_die=12), dice=dice, fill_piles=False)
    dealing.place_snails(r)
    assert dice.asked == [12, 12]


def test_the_domino_line_across_or_along_the_track():
    hits = {}
    for line in ("across", "along"):
        c = circuit()
        r = race(c, 4, config=config(domino_line=line))
        for s, (row, col) in enumerate(((3, 2), (3, 3), (2, 2), (4, 2))):  # player, beside, ahead, behind
            r.board.place(s, at(c, row, col))
        give(r, 0, uid("choc"))
        r.action_phase({0: (uid("choc"), False)})
        hits[line] = list(r.board.shells)
    assert hits == {"across": [3, 2, 3, 3], "along": [3, 3, 2, 2]}


def test_pushed_behind_the_start_line_onto_a_taken_slot_it_stays_or_goes_to_the_nearest_free_slot():
    where = {}
    for reading in ("stay", "nearest"):
        c = circuit()
        r = race(c, 3, config=config(start_slot_taken=reading))
        r.board.place(1, at(c, 5, 4))  # snail 1's start slot ...
        r.board.place(1, at(c, 5, 2), start_slot=False)  # ... it now stands elsewhere on the line
        r.board.place(2, at(c, 5, 4))  # and snail 2 holds its slot
        r.board.place(0, at(c, 4, 2))
        moved = r.board.straight(0, S, 2, True)  # a Ressort backwards
        where[reading] = (moved, r.board.pos[0], r.board.pos[1])
    assert where == {"stay": (0, at(c, 4, 2), at(c, 5, 2)), "nearest": (1, at(c, 5, 2), at(c, 5, 3))}


def test_two_snails_placement_in_rounds_or_both_at_once():
    slots = {}
    for order in ("round", "both"):
        c = circuit()
        r = race(c, 2, config=config(two_snails=True, two_snails_placement=order), dice=Loaded(3, 1), fill_piles=False)
        dealing.place_snails(r)  # seat 1 rolled lower: it places first
        slots[order] = [c.slots.index(r.board.pos[s]) for s in range(4)]
    assert slots == {"round": [1, 3, 0, 2], "both": [2, 3, 0, 1]}


def test_a_stable_reserve_split_evenly_or_one_per_snail():
    even = load_rules(GAME, None, ["variants.stable_reserve=true", "variants.two_snails=true"])
    per = load_rules(
        GAME, None, ["variants.stable_reserve=true", "variants.two_snails=true", 'variants.reserve_split="per_snail"']
    )
    assert _purses(even, 2, 2) == [(0, (0, 1)), (1, (2, 3))]
    assert _reserve_shells(_purses(even, 2, 2), [5, 2], 4) == [3, 2, 1, 1]
    assert _purses(per, 2, 2) == [(0, (0,)), (0, (1,)), (1, (2,)), (1, (3,))]
    assert _reserve_shells(_purses(per, 2, 2), [6, 1, 0, 4], 4) == [6, 1, 0, 4]
    log = play_match(per, load_lineup(GAME, ["tactician", "greedy"], per), MatchSeeds(3, 0))
    reserve = 2 * (3 * 5 + 5)  # two reserves per player
    for seat in (0, 1):
        commits = [x["committed"] for x in log.rounds if x["seat"] == seat]
        assert sum(commits) <= reserve and max(commits) <= 12
    assert max(x["committed"] for x in log.rounds) > 6  # more than one reserve's most per race


# -- 7. Cross Ronces' five shells -----------------------------------------------------------------


def test_cross_ronces_five_shells_read_as_the_reserve_only_or_at_every_start():
    assert RULES.race_shells("cross_ronces") == 3 and RULES.circuits["cross_ronces"].reserve_shells == 5
    five = load_rules(GAME, None, ["circuits.cross_ronces.start_shells=5", 'championship.circuits=["cross_ronces"]'])
    assert five.race_shells("cross_ronces") == 5
    players = load_lineup(GAME, ["tactician", "tactician", "tactician"], five)
    left = [x["shells_left"] for i in range(3) for x in play_match(five, players, MatchSeeds(2, i)).rounds]
    assert max(left) > 3


# -- 9. the turn cap is a guard a legal player does not reach -------------------------------------


@pytest.mark.slow
def test_random_players_finish_their_races_far_below_the_turn_cap():
    cell = Cell("baseline", "random-4", RULES, load_lineup(GAME, ["random"] * 4, RULES), rotate_seats=False)
    tables = run_cells(GAME, [cell], 24, 99, jobs=2, chunk_size=6, progress=False)
    metrics = GAME.summary(tables)
    for name in RULES.championship.circuits:
        assert metrics[f"turn_capped_races.{name}"] == 0
        assert metrics[f"race_turns_max.{name}"] < RULES.race.turn_cap / 2
    assert metrics["turn_capped_rate"] == 0 and metrics["races"] == 24 * 6


# -- one source of truth for the race rules --------------------------------------------------------


def test_race_config_has_no_defaults_of_its_own_and_comes_from_the_rules():
    assert all(f.default is dataclasses.MISSING for f in dataclasses.fields(RaceConfig))
    with pytest.raises(TypeError):
        RaceConfig()
    rules = load_rules(GAME, None, ["race.turn_cap=77", "race.points=[5, 3, 1]", "race.hand_size=6"])
    cfg = RaceConfig.from_rules(rules)
    assert (cfg.turn_cap, cfg.points, cfg.hand_size) == (77, (5, 3, 1), 6)
    with pytest.raises(TypeError):
        Race(circuit(), DECK, cfg, [Scripted()], Loaded())  # the starting shells are the caller's


def test_aspiration_behind_a_ko_snail_is_lost_by_default_and_moves_when_ko_snails_count():
    """«juste derrière un autre escargot»: read as a snail still racing (``condition = "behind"``);
    ``condition = "behind_any"`` counts a KO snail on the track as well."""
    c = circuit()
    aspiration = (
        'deck.aspiration.effects=[{op="move", squares=1, path="free", directions=[1, 2, 3], condition="behind_any"}]'
    )
    for deck, outcome in ((DECK, "not_behind"), (Deck(load_rules(GAME, overrides=[aspiration]).deck), "moved+1")):
        r = race(c, 2, events=[], deck=deck)
        r.board.place(0, at(c, 4, 3))
        r.board.place(1, at(c, 3, 2))  # snail 0 stands on snail 1's dashboard square 5, 6 or 7
        assert r.board.behind_another(0) and r.board.behind_another(0, any_snail=True)
        r.board.knock_out(1)
        assert not r.board.behind_another(0) and r.board.behind_another(0, any_snail=True)
        give(r, 0, uid("aspiration"))
        r.action_phase({0: (uid("aspiration"), False)})
        assert events_of(r, "action")[0]["outcome"] == outcome, deck


def test_separate_decks_an_exhausted_pile_falls_back_on_the_other_or_draws_nothing():
    """The sheet does not say what a draw from an exhausted pile does: by default it is taken
    from the other pile (``variants.separate_fallback``); off, nothing is drawn."""
    from sim.gasterospeed.rules.piles import Piles

    speed_uid, action_uid = uid("vitesse_1"), uid("tir")
    for fallback, drawn, hand in ((True, True, [speed_uid]), (False, False, [])):
        piles = Piles(DECK, True, 1, Dice(np.random.default_rng(0)), lambda text: None, fallback=fallback)
        piles.draw[0], piles.draw[1] = [speed_uid], []  # the action pile: no card, no discard
        assert piles.draw_card(0, 1) is drawn and piles.hands[0] == hand
    both = Piles(DECK, True, 1, Dice(np.random.default_rng(0)), lambda text: None, fallback=False)
    both.draw[1] = [action_uid]
    assert both.draw_card(0, 1) and both.hands[0] == [action_uid]  # a pile with cards is drawn as usual
    # the rules key reaches the race (the conformance suite plays it: a single action card, hands short)
    rules = load_rules(
        GAME,
        overrides=[
            "variants.separate_decks=true",
            "variants.separate_fallback=false",
            *[
                f"deck.{card}.count=0"
                for card in (
                    "aspiration",
                    "laitue_bleue",
                    "turbo_petard",
                    "ressort",
                    "kangouroute_aigue",
                    "rouler_bouler",
                    "coup_de_folie",
                    "choc",
                    "renfort_de_coquille",
                    "retour_de_baton",
                )
            ],
            "deck.tir.count=1",
        ],
    )
    assert RaceConfig.from_rules(rules).separate_fallback is False
