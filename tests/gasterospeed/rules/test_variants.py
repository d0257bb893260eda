"""Every variant of the seed is a switch: two snails, separate decks, free draws, radis salé,
experopods, expert, shell-point championship, stable reserve (the sacrifice is in test_race)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.profiles import load_lineup
from sim.core.rules import load_rules
from sim.core.seeding import MatchSeeds
from sim.gasterospeed import GAME
from sim.gasterospeed.players.policies import GasterospeedProfile, make_policy
from sim.gasterospeed.rules import dealing, reactions
from sim.gasterospeed.rules.board import KO
from sim.gasterospeed.rules.cards import SPEED, Dice
from sim.gasterospeed.rules.race import RaceConfig

from ..helpers import DECK, Scripted, at, circuit, config, give, race, speed, uid


def play(overrides, players=("tactician", "greedy", "random"), seed=3):
    rules = load_rules(GAME, None, list(overrides))
    return rules, GAME.play_match(rules, load_lineup(GAME, list(players), rules), MatchSeeds(seed, 0))


def test_two_snails_six_cards_one_card_per_snail_and_losing_a_snail_discards_two():
    cfg = config(two_snails=True)
    r = race(circuit(), 2, config=cfg, fill_piles=True)
    assert r.snails_of == [[0, 1], [2, 3]] and r.hand_target == [6, 6]
    c = r.board.c
    for s, col in enumerate((1, 2, 3, 4)):
        r.board.place(s, at(c, 4, col))
    dealing.refill(r, 0)
    dealing.refill(r, 1)
    assert [len(h) for h in r.hands] == [6, 6]
    give(r, 0, speed(110), speed(111), speed(112))
    r.speed_phase()
    calls = [x for x in r.policies[0].calls if x[0] == "speed_card"]
    assert [call[1][1] for call in calls] == [0, 1]  # one speed card for each snail
    plays = [u for u, discard in calls[1][1][2] if not discard]
    assert len(plays) == 2 and calls[0][1][2][0][0] not in plays  # not the card chosen for snail 0
    assert len(r.hands[0]) == 9 - 2
    r.board.shells[1] = 1
    reactions.inflict(r, 1, None, "burn")
    assert r.board.status[1] == KO and len(r.hands[0]) == 5 and r.hand_target[0] == 4
    r.end_turn()
    assert len(r.hands[0]) == 5  # no refill above the hand of 4


@pytest.mark.parametrize("first_row", [4, 2])  # snail 0 behind, or ahead of snail 1
def test_two_snails_a_single_speed_card_goes_to_the_snail_chosen_for_first(first_row):
    got = {}
    for order in ("first", "behind", "ahead"):
        r = race(circuit(), 2, config=config(two_snails=True, two_snails_choice_order=order))
        c = r.board.c
        for s, (row, col) in enumerate(((first_row, 1), (6 - first_row, 2), (4, 3), (4, 4))):
            r.board.place(s, at(c, row, col))
        give(r, 0, speed(110), uid("tir"))
        give(r, 1, speed(111), speed(112))
        r.speed_phase()
        got[order] = [call[1][1] for call in r.policies[0].calls if call[0] == "speed_card"]
    behind, ahead = (0, 1) if first_row == 4 else (1, 0)
    assert got == {"first": [0], "behind": [behind], "ahead": [ahead]}


def test_two_snails_championship_scores_both_snails():
    rules, log = play(["variants.two_snails=true"])
    assert all(row["points"] >= 2 for row in log.rounds)  # two snails, each scores at least 1
    assert max(row["points"] for row in log.rounds) <= 9 + 6


def test_separate_decks_two_speed_two_action_and_two_discard_piles():
    cfg = config(separate=True)
    r = race(circuit(), 2, config=cfg, fill_piles=False)
    r.setup()
    for hand in r.hands:
        if any(DECK.kind[u] != SPEED for u in hand):
            assert sorted(DECK.kind[u] == SPEED for u in hand) == [False, False, True, True]
    assert all(DECK.kind[u] == SPEED for u in r.draw[0])
    assert all(DECK.kind[u] != SPEED for u in r.draw[1])
    r.piles.discard_card(uid("tir"))
    r.piles.discard_card(speed(101))
    assert r.discard == [[speed(101)], [uid("tir")]]


def test_free_draws_start_one_plus_one_then_the_player_picks_the_piles():
    cfg = config(separate=True, free_draws=True)
    p = Scripted(draw_piles=[1, 1])
    r = race(circuit(), 1, config=cfg, policies=[p], fill_piles=False)
    r.setup()
    calls = [x for x in p.calls if x[0] == "draw_piles"]
    assert [call[1][1] for call in calls] == [1, 1]  # one card at a time
    assert len(calls[0][1][0].hand) == 2  # after the 1 + 1
    assert len(calls[1][1][0].hand) == 3  # it saw the card it drew
    assert sorted(DECK.kind[u] == SPEED for u in r.hands[0]) == [False, False, False, True]


def test_radis_sale_no_choice_depends_on_cards_drawn_during_the_refill():
    cfg = config(separate=True, free_draws=True, radis_sale=True)
    p = Scripted(draw_piles=[0, 1])
    r = race(circuit(), 1, config=cfg, policies=[p], fill_piles=False)
    r.setup()
    calls = [x for x in p.calls if x[0] == "draw_piles"]
    assert len(calls) == 1 and calls[0][1][1] == 2  # both piles chosen at once
    assert len(calls[0][1][0].hand) == 2  # seeing only the 1 + 1 dealt before
    # the tactician's choice then differs from its card-by-card choice when a 2-square card comes
    tactician = make_policy(GasterospeedProfile(), Dice(np.random.default_rng(0)))
    view = race(circuit(), 1, config=config(separate=True, free_draws=True, hand_size=6)).view(0)
    view.hand = (uid("tir"), speed(105))
    view.snails = (0,)
    assert tactician.draw_piles(view, 2) == [0, 0]  # unknown draws count as slow
    view.hand = (uid("tir"), speed(105), speed(205))
    assert tactician.draw_piles(view, 1) == [1]  # a 2-square card came: no more speed


def test_experopods_draw_five_circuits_at_random():
    rules, log = play(["variants.experopods=true"])
    circuits = [row["circuit"] for row in log.rounds if row["seat"] == 0]
    assert len(circuits) == 5 == len(set(circuits)) and set(circuits) <= set(rules.championship.circuits)
    orders = {
        tuple(row["circuit"] for row in play(["variants.experopods=true"], seed=s)[1].rounds if row["seat"] == 0)
        for s in range(6)
    }
    assert len(orders) > 1
    assert play(["variants.experopods=true"])[1].rounds == log.rounds  # the seed decides


def test_expert_five_cards_and_four_shells():
    rules = load_rules(GAME, None, ["variants.expert=true"])
    assert RaceConfig.from_rules(rules).hand_size == 5 and rules.shells == 4
    r = race(circuit(), 2, config=RaceConfig.from_rules(rules), shells=rules.shells, fill_piles=False)
    r.setup()
    assert [len(h) for h in r.hands] == [5, 5] and list(r.board.shells) == [4, 4]
    _, log = play(["variants.expert=true"])
    assert max(row["shells_left"] for row in log.rounds) == 4


def test_shell_championship_is_won_on_shells_left():
    rules, log = play(["variants.shell_championship=true"])
    for row in log.players:
        mine = [x["shells_left"] for x in log.rounds if x["seat"] == row["seat"]]
        assert row["score"] == row["shells_left"] == sum(mine)
    best = max(row["score"] for row in log.players)
    assert all(row["score"] == best for row in log.players if row["won"])


def test_stable_reserve_commits_secretly_at_most_six_and_unspent_shells_are_lost():
    rules, log = play(["variants.stable_reserve=true"], players=("tactician", "greedy", "random", "random"))
    reserve = 3 * 5 + 5  # Cross Ronces counts 5
    for seat in range(4):
        rows = [x for x in log.rounds if x["seat"] == seat]
        commits = [x["committed"] for x in rows]
        assert all(0 <= k <= 6 for k in commits) and sum(commits) <= reserve
        assert all(x["shells_left"] <= x["committed"] for x in rows)
    tactician = [x["committed"] for x in log.rounds if x["seat"] == 0]
    assert tactician[-1] > tactician[0]  # more on the dangerous last circuit
