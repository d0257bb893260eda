"""What Gastérospeed tells the conformance suite (``sim.testing``).

Rule keys are compared through :func:`fingerprint`: what the race engine reads from the rules
(the race rules, the compiled deck and the championship's circuits, the variants' numbers
where their switch is on) and the tables of two short championships. Keys that act only under
a switch get it in :data:`KEYS` (``given``); display names are compared on the replay; the
fields a deck entry of another kind never reads are declared inert, with the reason. (Play by
play, every key is checked on real championships by tests/gasterospeed/test_every_key.py.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.core.config import load_config
from sim.core.hints import Conformance, KeyCase
from sim.core.profiles import load_lineup
from sim.core.seeding import MatchSeeds

from .cards import Deck
from .circuit import compile_circuit
from .match import play_match
from .race import RaceConfig
from .rules import GasterospeedRules

__all__ = ["CONFORMANCE", "fingerprint"]

QUICK = ('championship.circuits=["ligne_droite", "goulet"]',)
#: a small valid map, for the circuits' ``map`` keys
SPRINT = "\n#FFFF#\n#....#\n#....#\n#SSSS#\n#====#\n"


def _card(info) -> tuple:
    rolls = any(e.op == "move" and e.roll for e in info.effects)
    return (info.cid, info.kind, info.number, info.squares, info.effects,
            info.direction_table if rolls else (), info.counters)


def fingerprint(rules) -> list[Any]:
    """What the rules make the engine do (see the module docstring)."""
    from . import GAME

    v, champ = rules.variants, rules.championship
    circuits = []
    for name in dict.fromkeys(champ.circuits):
        c = compile_circuit(rules.circuits[name], name)
        circuits.append((name, c.rows, c.die, tuple(sorted(c.shot_hits)), c.obstacle_damage,
                         c.reserve_shells if v.stable_reserve else rules.race_shells(name)))
    reserve = (v.reserve_max_commit, v.reserve_split if v.two_snails else "") if v.stable_reserve else ()
    out: list[Any] = [RaceConfig.from_rules(rules), [_card(c) for c in Deck(rules.deck).cards], circuits,
                      champ.circuits, champ.tie_break, champ.experopod_races if v.experopods else 0,
                      v.experopods, v.stable_reserve, reserve, rules.shells]
    players = load_lineup(GAME, ["tactician", "greedy"], rules)
    out += [play_match(rules, players, MatchSeeds(0, m)).tables() for m in range(2)]
    return out


def _keys() -> dict[str, KeyCase]:
    rules = load_config(GasterospeedRules, Path(__file__).with_name("rules.toml"))
    keys: dict[str, KeyCase] = {
        "championship.experopod_races": KeyCase(value=1, given=("variants.experopods=true",
                                                                 "championship.experopod_races=2")),
        "variants.experopods": KeyCase(given=("championship.experopod_races=2",)),
        "variants.two_snails_hand_size": KeyCase(given=("variants.two_snails=true",)),
        "variants.two_snails_placement": KeyCase(given=("variants.two_snails=true",)),
        "variants.radis_sale": KeyCase(given=("variants.free_draws=true",)),
        "variants.expert_hand_size": KeyCase(given=("variants.expert=true",)),
        "variants.expert_shells": KeyCase(given=("variants.expert=true",)),
        "variants.reserve_max_commit": KeyCase(given=("variants.stable_reserve=true",)),
        "variants.reserve_split": KeyCase(given=("variants.stable_reserve=true", "variants.two_snails=true")),
        "variants.sacrifice_gain": KeyCase(given=("variants.sacrifice=true",)),
    }
    for cid, card in rules.deck.items():
        unread = {"speed": ("order", "direction_table", "vs_shot", "vs_domino", "vs_jostle", "vs_loss"),
                  "action": ("first", "squares", "vs_shot", "vs_domino", "vs_jostle", "vs_loss"),
                  "reaction": ("first", "squares", "order", "direction_table")}[card.kind]
        for name in unread:
            keys[f"deck.{cid}.{name}"] = KeyCase(inert=f"a {card.kind} card has no {name}")
        if card.kind == "action" and not any(e.op == "move" and e.roll for e in card.effects):
            keys[f"deck.{cid}.direction_table"] = KeyCase(inert="this card makes no direction roll")
        if card.kind == "speed":
            keys[f"deck.{cid}.first"] = KeyCase(value=1)               # numbers 1.. overlap no other run
            keys[f"deck.{cid}.name"] = KeyCase(value="Renamed", inert="speed cards are shown by their number")
            keys[f"deck.{cid}.kind"] = KeyCase(value="reaction")
        else:
            keys[f"deck.{cid}.name"] = KeyCase(value="Renamed", observe="replay", matches=4,
                                               given=(f"deck.{cid}.count=30",))
        if card.kind == "reaction":
            keys[f"deck.{cid}.kind"] = KeyCase(value="speed", given=(f"deck.{cid}.first=900",))
        if card.kind == "action":
            other = [{"op": "shoot", "range": 2}] if card.effects[0].op == "domino" else [{"op": "domino"}]
            keys[f"deck.{cid}.effects"] = KeyCase(value=other)
    for name in rules.circuits:
        only = (f'championship.circuits=["{name}"]',)
        keys[f"circuits.{name}.title"] = KeyCase(value="Renamed", observe="replay", given=only, matches=1)
        keys[f"circuits.{name}.map"] = KeyCase(value=SPRINT, given=only)
        keys[f"circuits.{name}.shot_hits"] = KeyCase(value=[1], given=only)
        keys[f"circuits.{name}.reserve_shells"] = KeyCase(given=(*only, "variants.stable_reserve=true"))
        for field in ("die", "obstacle_damage", "start_shells"):
            keys[f"circuits.{name}.{field}"] = KeyCase(given=only)
    return keys


CONFORMANCE = Conformance(lineup=("tactician", "greedy"), quick=QUICK, matches=2, keys=_keys(),
                          profile_keys={"aggression": KeyCase(value=3.0, matches=4)}, fingerprint=fingerprint)
