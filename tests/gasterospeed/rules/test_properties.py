"""Property tests over random races with random variant switches.

After every phase of every turn: all the deck's cards are accounted for (draw piles + hands +
in play + discard piles, each card once), never two snails on one square, shells between 0 and
their maximum; and every race ends (all snails done, or the turn cap recorded).
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.core.rules import load_rules
from sim.gasterospeed import GAME
from sim.gasterospeed.players.policies import GasterospeedProfile, make_policy
from sim.gasterospeed.rules.board import KO, RUNNING
from sim.gasterospeed.rules.cards import Deck, Dice
from sim.gasterospeed.rules.circuit import compile_circuit
from sim.gasterospeed.rules.race import Race, RaceConfig

SWITCHES = ("two_snails", "separate_decks", "free_draws", "radis_sale", "expert", "sacrifice")
CIRCUITS = ("ligne_droite", "goulet", "champignonniere", "virage_du_potager", "stargot", "cross_ronces")


def check(race: Race, deck_size: int) -> None:
    all_cards = [u for pile in race.draw + race.discard + race.hands for u in pile] + race.in_play
    assert len(all_cards) == deck_size == race.card_count()
    assert sorted(all_cards) == list(range(deck_size))
    b = race.board
    on_board = [s for s in range(b.n) if b.pos[s] >= 0]
    assert len({b.pos[s] for s in on_board}) == len(on_board)  # one snail per square
    assert all(b.occ[b.pos[s]] == s for s in on_board)
    assert sum(1 for x in b.occ if x >= 0) == len(on_board)
    for s in range(b.n):
        assert 0 <= b.shells[s] <= b.max_shells[s]
        if b.status[s] == RUNNING:
            assert b.shells[s] >= 1 and b.pos[s] >= 0
        if b.status[s] == KO:
            assert b.shells[s] == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    switches=st.fixed_dictionaries({k: st.booleans() for k in SWITCHES}),
    circuit=st.sampled_from(CIRCUITS),
    kinds=st.lists(st.sampled_from(["random", "greedy", "tactician"]), min_size=2, max_size=6),
    tir=st.integers(0, 12),
    shells=st.integers(1, 4),
)
def test_random_races_keep_every_invariant_and_end(seed, switches, circuit, kinds, tir, shells):
    overrides = [f"variants.{k}={'true' if v else 'false'}" for k, v in switches.items()]
    overrides += [f"deck.tir.count={tir}", f"race.shells={shells}", "race.turn_cap=30"]
    rules = load_rules(GAME, None, overrides)
    if switches["two_snails"]:
        kinds = kinds[:3]
    deck = Deck(rules.deck)
    config = RaceConfig.from_rules(rules)
    rng = np.random.default_rng(seed)
    policies = [
        make_policy(GasterospeedProfile(policy=k), Dice(np.random.default_rng(rng.integers(2**32)))) for k in kinds
    ]
    race = Race(
        compile_circuit(rules.circuits[circuit], circuit),
        deck,
        config,
        policies,
        Dice(np.random.default_rng(seed)),
        shells=rules.shells,
        events=[],
    )
    race.setup()
    check(race, len(deck))
    while race.running() and race.turn < config.turn_cap:
        race.turn += 1
        race.speed_phase()
        check(race, len(deck))
        race.action_phase()
        check(race, len(deck))
        race.end_turn()
        check(race, len(deck))
    assert not race.running() or race.turn == config.turn_cap
    ranking, points = race.ranking(), race.points()
    assert len(set(ranking)) == len(ranking) and len(points) == race.board.n
