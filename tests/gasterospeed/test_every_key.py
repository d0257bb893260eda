"""Every rule key is read: changing it changes the championships played (no silent number).

Keys that act only in some situations get a scenario where they do. Display names (a card's
``name``, a circuit's ``title``) do not change play: they change the replay's text instead.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from sim.core.config import field_docs
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules
from sim.core.seeding import MatchSeeds
from sim.gasterospeed import GAME
from sim.gasterospeed.match import play_match, replay
from sim.gasterospeed.rules import Card, CircuitRules, GasterospeedRules

BASE = ('championship.circuits=["ligne_droite", "cross_ronces"]',)
PLAYERS = ("tactician", "greedy", "random")
TIES = ("race.points=[4, 4, 1]", "race.last_gets_ko_points=false")

EXPEROPODS = ("championship.experopod_races=2",)
HURT = ("deck.tir.count=30", "circuits.ligne_droite.shot_hits=[1, 2, 3, 4, 5, 6]", "race.shells=6")
#: a 3-wide sprint raced three times: the snails run side by side, jostles and lines are full
LANE = ('championship.circuits=["ligne_droite", "ligne_droite", "ligne_droite"]',
        "circuits.ligne_droite.map='''\n#FFF#\n" + "#...#\n" * 9 + "#SSS#\n#===#\n'''")
REACT = (*LANE, "deck.renfort_de_coquille.count=12", "deck.retour_de_baton.count=12")
JOSTLES = ("deck.rouler_bouler.count=20", "deck.ressort.count=20")
#: snails knocked out by their own firecracker three squares ahead, and many jostles forward
#: to push them over the line
KO_PUSHED = (*LANE, *JOSTLES, "race.shells=1", "deck.turbo_petard.count=20", "deck.rouler_bouler.count=40",
             'deck.turbo_petard.effects=[{op="move", squares=3, path="straight", directions=[2]}, '
             '{op="shell", amount=-1}]', "deck.renfort_de_coquille.count=0", "deck.retour_de_baton.count=0")
#: start slots in single file and many backward jostles: snails pushed behind the start line
#: while another snail holds their slot
QUEUE = ('championship.circuits=["ligne_droite", "ligne_droite", "ligne_droite"]',
         "circuits.ligne_droite.map='''\n#FFF#\n" + "#...#\n" * 5 + "##S##\n" * 5 + "##=##\n'''",
         "deck.coup_de_folie.count=30", "deck.coup_de_folie.direction_table=[6, 6, 6, 5, 7, 6]")

# key -> (scenario overrides, new value[, championships to compare])
CHANGES = {
    "race.hand_size": ((), 5),
    "race.shells": ((), 1),
    "race.turn_cap": ((), 4),
    "race.points": ((), [10, 6, 4, 3, 2, 1]),
    "race.ko_points": ((), 0),
    "race.last_gets_ko_points": ((), False),
    "race.all_action_discard": ((), 3),
    "race.placement_die": ((), 2, 6),        # only ties change the order (broken at random)
    "race.discard_in_speed_phase": ((), False),
    "race.ko_at_finish": (KO_PUSHED, "evacuated", 12),
    "race.pushed_into_obstacle": (JOSTLES, "stay"),
    "race.start_slot_taken": (QUEUE, "nearest", 12),
    "race.domino_line": ((), "along"),
    "championship.circuits": ((), ["goulet"]),
    "championship.tie_break": (TIES, "none"),
    "championship.experopod_races": (("variants.experopods=true",), 1),
    "variants.two_snails": ((), True),
    "variants.two_snails_hand_size": (("variants.two_snails=true",), 8),
    "variants.two_snails_placement": (("variants.two_snails=true",), "both"),
    "variants.separate_decks": ((), True),
    "variants.free_draws": ((), True),
    "variants.radis_sale": (("variants.free_draws=true",), True, 8),
    "variants.experopods": (EXPEROPODS, True),
    "variants.expert": ((), True),
    "variants.expert_hand_size": (("variants.expert=true",), 7),
    "variants.expert_shells": (("variants.expert=true",), 2),
    "variants.shell_championship": ((), True),
    "variants.stable_reserve": ((), True),
    "variants.reserve_max_commit": (("variants.stable_reserve=true",), 2),
    "variants.reserve_split": (("variants.stable_reserve=true", "variants.two_snails=true"), "per_snail"),
    "variants.sacrifice": ((), True),
    "variants.sacrifice_gain": (("variants.sacrifice=true", *HURT, "race.discard_in_speed_phase=false"), 2, 4),
    # the deck: every field of a card
    "deck.tir.count": ((), 10),
    "deck.tir.order": ((), 1),
    "deck.tir.effects": ((), [{"op": "domino"}]),
    "deck.coup_de_folie.direction_table": ((), [2, 2, 2, 2, 2, 2]),
    "deck.retour_de_baton.vs_shot": ((*REACT, "deck.tir.count=20", "circuits.ligne_droite.shot_hits=[1, 2, 3, 4, 5, 6]"),
                                     "cancel", 4),
    "deck.retour_de_baton.vs_domino": ((*REACT, "deck.choc.count=20"), "stop"),
    "deck.renfort_de_coquille.vs_jostle": ((*REACT, *JOSTLES), "none", 8),
    "deck.renfort_de_coquille.vs_loss": ((*REACT, "deck.turbo_petard.count=20"), "none"),
    "deck.vitesse_2.squares": ((), 3),
    "deck.vitesse_2.first": ((), 50),                # the two-square cards now move last
    "deck.vitesse_2.kind": ((), "reaction"),
    # the circuits: every field of a circuit
    "circuits.cross_ronces.map": ((), "\n#FFFFFF#\n#......#\n#......#\n#SSSSSS#\n#======#\n"),
    "circuits.ligne_droite.die": (("circuits.ligne_droite.shot_hits=[3]",), 3),
    "circuits.ligne_droite.shot_hits": (("deck.tir.count=20",), [6]),
    "circuits.cross_ronces.reserve_shells": (("variants.stable_reserve=true",), 9),
    "circuits.cross_ronces.obstacle_damage": (JOSTLES, 0),
    "circuits.cross_ronces.start_shells": ((), 5),
}
DISPLAY = {"deck.tir.name": "Pan", "circuits.ligne_droite.title": "Le Sprint"}


def _leaves(cls, prefix):
    return {prefix + key for key in field_docs(cls)}


def test_every_key_has_a_change():
    keys = {k for k in field_docs(GasterospeedRules) if k not in ("deck", "circuits")}
    keys |= {k for k in _leaves(Card, "deck.*.")} | {k for k in _leaves(CircuitRules, "circuits.*.")}
    covered = {k if not k.startswith(("deck.", "circuits.")) else
               ".".join([k.split(".")[0], "*", k.split(".")[2]]) for k in list(CHANGES) + list(DISPLAY)}
    assert keys == covered


def _toml(value):
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f"'''{value}'''" if "\n" in value else f'"{value}"'
    if isinstance(value, list) and value and isinstance(value[0], dict):
        items = ", ".join("{" + ", ".join(f"{k} = {_toml(v)}" for k, v in d.items()) + "}" for d in value)
        return f"[{items}]"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


@lru_cache(maxsize=None)
def _tables(overrides: tuple[str, ...], n: int):
    rules = load_rules(GAME, None, [*BASE, *overrides])
    players = load_lineup(GAME, list(PLAYERS), rules)
    return [play_match(rules, players, MatchSeeds(31, i)).tables() for i in range(n)]


@pytest.mark.parametrize("key", sorted(CHANGES))
def test_changing_a_key_changes_play(key):
    scenario, value, *n = CHANGES[key]
    n = n[0] if n else (12 if scenario == TIES else 2)
    if key == "championship.experopod_races" or key.startswith("variants.") and "experopods=true" in str(scenario):
        scenario = (*scenario, *EXPEROPODS)
    assert _tables(tuple(scenario), n) != _tables((*scenario, f"{key}={_toml(value)}"), n)


@pytest.mark.parametrize("key", sorted(DISPLAY))
def test_display_names_change_the_replay_only(key):
    rules = load_rules(GAME, None, list(BASE))
    changed = load_rules(GAME, None, [*BASE, f"{key}={_toml(DISPLAY[key])}"])
    players = load_lineup(GAME, list(PLAYERS), rules)
    assert play_match(rules, players, MatchSeeds(4, 0)).tables() == play_match(changed, players, MatchSeeds(4, 0)).tables()
    seeds = MatchSeeds(4, 0) if key.startswith("circuits") else MatchSeeds(6, 3)
    assert replay(rules, players, seeds) != replay(changed, players, seeds)
