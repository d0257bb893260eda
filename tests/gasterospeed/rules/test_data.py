"""The deck and the circuits as data: defaults, overrides, validation naming card and field."""

from __future__ import annotations

import pytest

from sim.core.config import ConfigError
from sim.core.profiles import load_lineup, preset_names
from sim.core.rules import default_rules_text, load_rules
from sim.gasterospeed import GAME
from sim.gasterospeed.rules.cards import ACTION, REACTION, SPEED, Deck
from sim.gasterospeed.rules.circuit import INF, compile_circuit

from ..helpers import circuit


def problems(*overrides):
    with pytest.raises(ConfigError) as info:
        load_rules(GAME, None, list(overrides))
    return info.value.problems


def test_default_deck_is_46_speed_and_34_action_cards_as_in_the_spec():
    deck = Deck(load_rules(GAME).deck)
    assert len(deck) == 80
    numbers = sorted(c.number for c in deck.cards if c.kind == SPEED)
    assert numbers == list(range(101, 135)) + list(range(201, 213))
    assert all(c.squares == (2 if c.number >= 200 else 1) for c in deck.cards if c.kind == SPEED)
    counts = {cid: len(deck.uids(cid)) for cid in deck.ids if deck.cards[deck.uids(cid)[0]].kind != SPEED}
    assert counts == {
        "aspiration": 4,
        "laitue_bleue": 3,
        "turbo_petard": 3,
        "ressort": 3,
        "kangouroute_aigue": 3,
        "rouler_bouler": 3,
        "coup_de_folie": 3,
        "choc": 3,
        "tir": 5,
        "renfort_de_coquille": 2,
        "retour_de_baton": 2,
    }
    orders = {c.cid: c.number for c in deck.cards if c.kind == ACTION}
    assert orders == {
        "aspiration": 1,
        "laitue_bleue": 1,
        "turbo_petard": 1,
        "ressort": 2,
        "kangouroute_aigue": 2,
        "rouler_bouler": 3,
        "coup_de_folie": 3,
        "choc": 4,
        "tir": 4,
    }
    assert {c.cid: dict(c.counters) for c in deck.cards if c.kind == REACTION} == {
        "renfort_de_coquille": {"shot": "cancel", "domino": "stop", "jostle": "block", "loss": "cancel"},
        "retour_de_baton": {"shot": "reflect", "domino": "return", "jostle": "reverse", "loss": "cancel"},
    }
    assert deck.counter_counts[("jostle", "block")] == 2 and deck.counter_counts[("loss", "cancel")] == 4


def test_rule_keys_other_tools_rely_on():
    rules = load_rules(GAME)
    assert rules.race.hand_size == 4 and rules.race.shells == 3 and rules.race.turn_cap >= 1
    assert rules.championship.circuits == (
        "ligne_droite",
        "goulet",
        "champignonniere",
        "virage_du_potager",
        "stargot",
        "cross_ronces",
    )
    assert all(
        isinstance(getattr(rules.variants, k), bool)
        for k in (
            "two_snails",
            "separate_decks",
            "free_draws",
            "radis_sale",
            "experopods",
            "expert",
            "shell_championship",
            "stable_reserve",
            "sacrifice",
        )
    )
    assert rules.deck["tir"].count == 5


def test_set_deck_count_changes_the_mix_and_a_new_card_can_be_added():
    rules = load_rules(GAME, None, ["deck.tir.count=10"])
    deck = Deck(rules.deck)
    assert len(deck) == 85 and len(deck.uids("tir")) == 10
    rules = load_rules(
        GAME,
        None,
        [
            "deck.bond.kind=action",
            "deck.bond.order=2",
            "deck.bond.count=2",
            'deck.bond.effects=[{op="move", squares=4, path="straight", directions=[2]}]',
        ],
    )
    assert len(Deck(rules.deck).uids("bond")) == 2


def test_reconstructed_defaults_are_marked_in_the_data_file():
    text = default_rules_text(GAME)
    assert text.count("# default: not in the published rules") >= 30
    for key in ("[deck.tir]", "[deck.renfort_de_coquille]", "[circuits.stargot]", "[circuits.cross_ronces]"):
        assert key in text


@pytest.mark.parametrize(
    "override, expected",
    [
        ("deck.vitesse_1.count=0", "deck: no speed cards"),
        ("deck.tir.count=-1", "deck.tir.count: got -1; allowed: >= 0"),
        ("deck.tir.order=5", "deck.tir.order: got 5; allowed: <= 4"),
        ("deck.choc.order=0", "deck.choc.order: got 0; allowed: >= 1"),
        (
            'deck.tir.effects=[{op="fly"}]',
            "deck.tir.effects[0].op: got 'fly'; allowed: 'move', 'shell', 'shoot', 'domino'",
        ),
        ('deck.tir.effects=[{op="shoot"}]', "deck.tir.effects[0].range: a shot needs range >= 1"),
        ("deck.vitesse_2.first=130", "deck.vitesse_2.first: speed numbers 130-141 overlap deck.vitesse_1"),
        ('championship.circuits=["nowhere"]', "championship.circuits[0]: unknown circuit 'nowhere'"),
        ("circuits.goulet.shot_hits=[5, 9]", "circuits.goulet.shot_hits: faces [9] exceed the die (D6)"),
    ],
)
def test_bad_deck_or_circuit_names_the_entry_and_the_field(override, expected):
    lines = problems(override, "deck.vitesse_2.count=0") if "vitesse_1.count=0" in override else problems(override)
    assert any(expected in line for line in lines), lines


def test_a_map_whose_finish_cannot_be_reached_from_a_start_slot_is_refused():
    walled = "'''\n#FFFF#\n#....#\n######\n#....#\n#SSSS#\n#====#\n'''"
    lines = problems(f"circuits.goulet.map={walled}")
    assert any("circuits.goulet.map: start slot 1 (row 5, column 2) cannot reach the finish" in x for x in lines)
    lines = problems("circuits.goulet.map='''\n#F?#\n#S.#\n'''")
    assert any("unknown square '?'" in x for x in lines)
    lines = problems("circuits.goulet.map='''\n#FF#\n#S.\n'''")
    assert any("row 2 has 3 squares, expected 4" in x for x in lines)


def test_six_circuits_with_named_ones_and_reachable_finishes():
    rules = load_rules(GAME)
    assert {"stargot", "cross_ronces"} <= set(rules.circuits) and len(rules.circuits) == 6
    assert rules.circuits["stargot"].title == "Stargot" and rules.circuits["cross_ronces"].title == "Cross Ronces"
    assert rules.circuits["cross_ronces"].reserve_shells == 5
    for name, cr in rules.circuits.items():
        c = compile_circuit(cr, name)
        assert len(c.slots) >= 6
        assert all(c.dist[s] < INF for s in c.slots)
    assert any(k == 2 for k in compile_circuit(rules.circuits["stargot"]).kind)  # arrow squares
    assert any(k == 2 for k in compile_circuit(rules.circuits["cross_ronces"]).kind)


def test_distance_field_is_a_bfs_over_king_moves_honouring_obstacles_and_arrows():
    c = circuit("""
    #FFFF#
    #....#
    #oo^o#
    #....#
    #SSSS#
    #====#
    """)
    # row 3 must go through the arrow square (row 2, col 3), entered straight from below
    assert c.dist[3 * c.width + 3] == 3  # (3,3) -> (2,3) -> (1,x) -> F
    assert c.dist[3 * c.width + 1] == 5  # (3,1) -> (3,2) -> (3,3) -> arrow -> row 1 -> F
    assert c.dist[3 * c.width + 4] == 4  # no diagonal into the arrow square
    assert c.dist[2 * c.width + 1] == INF  # obstacles have no distance
    assert c.step_allowed(3 * c.width + 4, 7) == -1  # NW into the arrow square: refused
    assert c.step_allowed(3 * c.width + 3, 0) == 2 * c.width + 3


def test_curved_circuit_forward_follows_the_track():
    rules = load_rules(GAME)
    c = compile_circuit(rules.circuits["virage_du_potager"])
    bend_row = 3
    # in the horizontal leg "front" points east (towards the finish column), in the leg north
    assert c.front[bend_row * c.width + 12] == 2
    assert c.front[15 * c.width + 3] == 0
    assert c.start_distance == max(c.dist[s] for s in c.slots)


def test_profiles_presets_and_a_bad_profile():
    assert preset_names(GAME)[:3] == ["random", "greedy", "tactician"]
    assert {"casual", "novice"} <= set(preset_names(GAME))
    players = load_lineup(GAME, ["tactician", "casual"], load_rules(GAME))
    assert players[1].profile.temperature > 0
    with pytest.raises(ConfigError):
        load_lineup(GAME, ["tactician", "wizard"], load_rules(GAME))


def test_lineup_problems_two_snails_need_start_slots():
    rules = load_rules(GAME, None, ["variants.two_snails=true"])
    assert GAME.lineup_problems(rules, 3) == []
    lines = GAME.lineup_problems(rules, 4)
    assert lines and "has 6 start slots, 4 players x 2 snails need 8" in lines[0]
    with pytest.raises(ConfigError):
        load_lineup(GAME, ["random"] * 4, rules)
