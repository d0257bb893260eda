"""What Gastérospeed tells the conformance suite (``sim.testing``).

Most rule keys are compared through :func:`fingerprint`: what the race engine reads from the
rules (the race rules, the compiled deck and the championship's circuits, the variants'
numbers where their switch is on) and the tables of two short championships. The keys of
:data:`PLAYED` must change the tables of real championships instead, each in a scenario where
it acts (a switch on, a crowded sprint, many reactions...); display names are compared on the
replay; the fields a deck entry of its kind never reads are declared inert, with the reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sim.core.config import load_config
from sim.core.hints import Conformance, KeyCase
from sim.core.profiles import load_lineup
from sim.core.seeding import MatchSeeds

from .match import play_match
from .rules.cards import Deck
from .rules.circuit import compile_circuit
from .rules.race import RaceConfig
from .rules.schema import GasterospeedRules

__all__ = ["CONFORMANCE", "fingerprint"]

QUICK = ('championship.circuits=["ligne_droite", "goulet"]',)
#: a small valid map, for the circuits' ``map`` keys
SPRINT = "\n#FFFF#\n#....#\n#....#\n#SSSS#\n#====#\n"

#: the championships of the played scenarios (:data:`PLAYED`): a sprint and brambles, three players
BASE = ('championship.circuits=["ligne_droite", "cross_ronces"]',)
PLAYERS = ("tactician", "greedy", "random")
RANDOM = ("random", "random", "random")
TIES = ("race.points=[4, 4, 1]", "race.last_gets_ko_points=false")
HURT = ("deck.tir.count=30", "circuits.ligne_droite.shot_hits=[1, 2, 3, 4, 5, 6]", "race.shells=6")
#: a 3-wide sprint raced three times: the snails run side by side, jostles and lines are full
LANE = (
    'championship.circuits=["ligne_droite", "ligne_droite", "ligne_droite"]',
    "circuits.ligne_droite.map='''\n#FFF#\n" + "#...#\n" * 9 + "#SSS#\n#===#\n'''",
)
REACT = (*LANE, "deck.renfort_de_coquille.count=12", "deck.retour_de_baton.count=12")
JOSTLES = ("deck.rouler_bouler.count=20", "deck.ressort.count=20")
#: snails knocked out by their own firecracker three squares ahead, and many jostles forward
#: to push them over the line
KO_PUSHED = (
    *LANE,
    *JOSTLES,
    "race.shells=1",
    "deck.turbo_petard.count=20",
    "deck.rouler_bouler.count=40",
    'deck.turbo_petard.effects=[{op="move", squares=3, path="straight", directions=[2]}, {op="shell", amount=-1}]',
    "deck.renfort_de_coquille.count=0",
    "deck.retour_de_baton.count=0",
)
#: a deck of speed cards and a single action card (separate decks: its pile runs out at once)
ONE_ACTION_CARD = tuple(
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
) + ("deck.tir.count=1",)
#: start slots in single file and many backward jostles: snails pushed behind the start line
#: while another snail holds their slot
QUEUE = (
    'championship.circuits=["ligne_droite", "ligne_droite", "ligne_droite"]',
    "circuits.ligne_droite.map='''\n#FFF#\n" + "#...#\n" * 5 + "##S##\n" * 5 + "##=##\n'''",
    "deck.coup_de_folie.count=30",
    "deck.coup_de_folie.direction_table=[6, 6, 6, 5, 7, 6]",
)

#: a 3-wide sprint with a row of arrow squares and many jostles in every direction: snails are
#: pushed diagonally onto and off the arrows
ARROWS = (
    'championship.circuits=["ligne_droite", "ligne_droite", "ligne_droite"]',
    "circuits.ligne_droite.map='''\n#FFF#\n" + "#...#\n" * 4 + "#^^^#\n" + "#...#\n" * 4 + "#SSS#\n#===#\n'''",
    "deck.coup_de_folie.count=30",
    "deck.ressort.count=20",
)

#: Keys whose change must change the *tables* of real championships (not only what the engine
#: reads), each in a scenario where it acts: key -> (overrides on :data:`BASE`, new value[,
#: championships to compare[, line-up (default :data:`PLAYERS`)]]).
PLAYED: dict[str, tuple] = {
    "race.hand_size": ((), 5),
    "race.shells": ((), 1),
    "race.turn_cap": ((), 4),
    "race.points": ((), [10, 6, 4, 3, 2, 1]),
    "race.ko_points": ((), 0),
    "race.last_gets_ko_points": ((), False),
    "race.all_action_discard": ((), 3),
    "race.placement_die": ((), 2, 6),  # only ties change the order (broken at random)
    "race.discard_in_speed_phase": ((), False),
    "race.ko_at_finish": (KO_PUSHED, "evacuated", 12),
    "race.pushed_into_obstacle": (JOSTLES, "stay", 8),
    "race.start_slot_taken": (QUEUE, "nearest", 2, RANDOM),  # random players jostle backwards
    "race.domino_line": ((), "along"),
    "race.pushes_cut_arrows": (ARROWS, False, 4, RANDOM),
    "championship.circuits": ((), ["goulet"]),
    "championship.tie_break": (TIES, "none"),
    "championship.experopod_races": (("variants.experopods=true", "championship.experopod_races=2"), 1),
    "variants.two_snails": ((), True),
    "variants.two_snails_hand_size": (("variants.two_snails=true",), 8),
    "variants.two_snails_placement": (("variants.two_snails=true",), "both"),
    "variants.two_snails_choice_order": (("variants.two_snails=true",), "behind"),
    "variants.separate_decks": ((), True),
    "variants.free_draws": ((), True),
    # one action card in the whole deck: the action pile is empty after the first deal
    "variants.separate_fallback": (("variants.separate_decks=true", *ONE_ACTION_CARD), False),
    "variants.radis_sale": (("variants.free_draws=true",), True, 8),
    "variants.experopods": (("championship.experopod_races=2",), True),
    "variants.expert": ((), True),
    "variants.expert_hand_size": (("variants.expert=true",), 7),
    "variants.expert_shells": (("variants.expert=true",), 2),
    "variants.shell_championship": ((), True),
    "variants.stable_reserve": ((), True),
    "variants.reserve_max_commit": (("variants.stable_reserve=true",), 2),
    "variants.reserve_split": (("variants.stable_reserve=true", "variants.two_snails=true"), "per_snail"),
    "variants.sacrifice": ((), True),
    "variants.sacrifice_gain": (
        ("variants.sacrifice=true", *HURT, "race.discard_in_speed_phase=false"),
        2,
        2,
        RANDOM,
    ),  # random players sacrifice often
    "deck.tir.count": ((), 10),
    "deck.tir.order": ((), 1),
    "deck.tir.effects": ((), [{"op": "domino"}]),
    "deck.coup_de_folie.direction_table": ((), [2, 2, 2, 2, 2, 2]),
    "deck.retour_de_baton.vs_shot": (
        (*REACT, "deck.tir.count=20", "circuits.ligne_droite.shot_hits=[1, 2, 3, 4, 5, 6]"),
        "cancel",
        4,
    ),
    "deck.retour_de_baton.vs_domino": ((*REACT, "deck.choc.count=20"), "stop", 8),
    "deck.renfort_de_coquille.vs_jostle": ((*REACT, *JOSTLES), "none", 16),
    "deck.renfort_de_coquille.vs_loss": ((*REACT, "deck.turbo_petard.count=20"), "none"),
    "deck.vitesse_2.squares": ((), 3),
    "deck.vitesse_2.first": ((), 50),  # the two-square cards now move last
    "deck.vitesse_2.kind": ((), "reaction"),
    "circuits.cross_ronces.map": ((), "\n#FFFFFF#\n#......#\n#......#\n#SSSSSS#\n#======#\n"),
    "circuits.ligne_droite.die": (("circuits.ligne_droite.shot_hits=[3]",), 3),
    "circuits.ligne_droite.shot_hits": (("deck.tir.count=20",), [6]),
    "circuits.cross_ronces.reserve_shells": (("variants.stable_reserve=true",), 9),
    "circuits.cross_ronces.obstacle_damage": (JOSTLES, 0, 8),
    "circuits.cross_ronces.start_shells": ((), 5),
}


def _card(info) -> tuple:
    rolls = any(e.op == "move" and e.roll for e in info.effects)
    return (
        info.cid,
        info.kind,
        info.number,
        info.squares,
        info.effects,
        info.direction_table if rolls else (),
        info.counters,
    )


def fingerprint(rules) -> list[Any]:
    """What the rules make the engine do (see the module docstring); computed once per rules
    (the suite's base rules recur for every key; rules hold dicts, so their repr is the key)."""
    text = repr(rules)
    if text not in _FINGERPRINTS:
        if len(_FINGERPRINTS) >= 8:
            _FINGERPRINTS.pop(next(iter(_FINGERPRINTS)))
        _FINGERPRINTS[text] = _fingerprint(rules)
    return _FINGERPRINTS[text]


_FINGERPRINTS: dict[str, list[Any]] = {}


def _fingerprint(rules) -> list[Any]:
    from . import GAME

    v, champ = rules.variants, rules.championship
    circuits = []
    for name in dict.fromkeys(champ.circuits):
        c = compile_circuit(rules.circuits[name], name)
        circuits.append(
            (
                name,
                c.rows,
                c.die,
                tuple(sorted(c.shot_hits)),
                c.obstacle_damage,
                c.reserve_shells if v.stable_reserve else rules.race_shells(name),
            )
        )
    reserve = (v.reserve_max_commit, v.reserve_split if v.two_snails else "") if v.stable_reserve else ()
    out: list[Any] = [
        RaceConfig.from_rules(rules),
        [_card(c) for c in Deck(rules.deck).cards],
        circuits,
        champ.circuits,
        champ.tie_break,
        champ.experopod_races if v.experopods else 0,
        v.experopods,
        v.stable_reserve,
        reserve,
        rules.shells,
    ]
    players = load_lineup(GAME, ["tactician", "greedy"], rules)
    out += [play_match(rules, players, MatchSeeds(0, m)).tables() for m in range(2)]
    return out


def _card_keys(rules: GasterospeedRules) -> dict[str, KeyCase]:
    """Every deck entry's fields: those its kind never reads are inert; a kind changed to
    another comes with the fields the new kind needs (``with_value``)."""
    keys: dict[str, KeyCase] = {}
    for cid, card in rules.deck.items():
        unread = {
            "speed": ("order", "effects", "direction_table", "vs_shot", "vs_domino", "vs_jostle", "vs_loss"),
            "action": ("first", "squares", "vs_shot", "vs_domino", "vs_jostle", "vs_loss"),
            "reaction": ("first", "squares", "order", "effects", "direction_table"),
        }[card.kind]
        for name in unread:
            keys[f"deck.{cid}.{name}"] = KeyCase(inert=f"a {card.kind} card has no {name}")
        if card.kind == "action" and not any(e.op == "move" and e.roll for e in card.effects):
            keys[f"deck.{cid}.direction_table"] = KeyCase(inert="this card makes no direction roll")
        if card.kind == "speed":
            keys[f"deck.{cid}.first"] = KeyCase(value=1)  # numbers 1.. overlap no other run
            keys[f"deck.{cid}.name"] = KeyCase(value="Renamed", inert="speed cards are shown by their number")
            keys[f"deck.{cid}.kind"] = KeyCase(value="reaction")
        else:
            keys[f"deck.{cid}.name"] = KeyCase(
                value="Renamed", observe="replay", matches=4, given=(f"deck.{cid}.count=30",)
            )
        if card.kind == "reaction":  # a speed run needs its first number (900.. overlaps no other run)
            keys[f"deck.{cid}.kind"] = KeyCase(value="speed", with_value=(f"deck.{cid}.first=900",))
        if card.kind == "action":
            other = [{"op": "shoot", "range": 2}] if card.effects[0].op == "domino" else [{"op": "domino"}]
            keys[f"deck.{cid}.effects"] = KeyCase(value=other)
            # only action cards have effects: they go with the kind
            keys[f"deck.{cid}.kind"] = KeyCase(value="reaction", with_value=(f"deck.{cid}.effects=[]",))
    return keys


def _circuit_keys(rules: GasterospeedRules) -> dict[str, KeyCase]:
    """Every circuit's fields, on a championship of that circuit alone."""
    keys: dict[str, KeyCase] = {}
    for name in rules.circuits:
        only = (f'championship.circuits=["{name}"]',)
        keys[f"circuits.{name}.title"] = KeyCase(value="Renamed", observe="replay", given=only, matches=1)
        keys[f"circuits.{name}.map"] = KeyCase(value=SPRINT, given=only)
        keys[f"circuits.{name}.shot_hits"] = KeyCase(value=[1], given=only)
        keys[f"circuits.{name}.reserve_shells"] = KeyCase(given=(*only, "variants.stable_reserve=true"))
        for field in ("die", "obstacle_damage", "start_shells"):
            keys[f"circuits.{name}.{field}"] = KeyCase(given=only)
    return keys


def _played() -> dict[str, KeyCase]:
    """:data:`PLAYED` as key cases: the tables of real championships must change."""
    keys = {}
    for key, (scenario, value, *rest) in PLAYED.items():
        matches = rest[0] if rest else (12 if scenario == TIES else 2)
        players = rest[1] if len(rest) > 1 else PLAYERS
        keys[key] = KeyCase(value=value, given=(*BASE, *scenario), matches=matches, players=players, observe="tables")
    return keys


def _keys() -> dict[str, KeyCase]:
    rules = load_config(GasterospeedRules, Path(__file__).with_name("rules.toml"))
    keys: dict[str, KeyCase] = {}
    keys.update(_card_keys(rules))
    keys.update(_circuit_keys(rules))
    keys.update(_played())
    return keys


SHELLS, RESERVE, FREE = (
    ("variants.shell_championship=true",),
    ("variants.stable_reserve=true",),
    ("variants.free_draws=true",),
)
#: four seats: more snails to knock out, burn and jostle
FOUR = ("tactician", "greedy", "random", "greedy")
#: the full championship of six circuits (their dangers differ: what the reserve's commitments weigh)
SIX = (
    'championship.circuits=["ligne_droite", "goulet", "champignonniere", "virage_du_potager", "stargot", '
    '"cross_ronces"]',
)
TABLE = ("tactician", "greedy", "casual", "greedy")

#: Profile keys: a strategy number changes the decisions only when it tips one, so most get a
#: value far enough from the default to tip some in two short championships (the derived
#: values, a quarter of their range away, often do not), under the variant where they act.
PROFILE_KEYS: dict[str, KeyCase] = {
    "aggression": KeyCase(value=3.0, matches=4),
    "value_opponent_weight": KeyCase(value=5.0),
    "value_opponent_cap": KeyCase(value=0.0),
    "value_one_shell": KeyCase(value=20.0),
    "value_two_shells": KeyCase(value=20.0),
    "value_tailwind": KeyCase(value=5.0),
    "value_near": KeyCase(value=0.0, matches=8),
    "value_ko_distance": KeyCase(value=0.0, players=FOUR, matches=3),
    "value_shell_lost": KeyCase(value=100.0, given=SHELLS),
    "value_shell_progress": KeyCase(given=SHELLS),
    "value_shell_ko": KeyCase(value=0.0, given=(*SHELLS, *SIX), players=("tactician", "random", "greedy", "random")),
    "hand_discount": KeyCase(value=5.0),
    "hand_horizon": KeyCase(value=2.0),
    "worth_last_speed": KeyCase(value=0.0),
    "worth_speed_base": KeyCase(value=20.0),
    "worth_speed_square": KeyCase(value=20.0),
    "worth_reaction": KeyCase(value=20.0),
    "worth_move_free": KeyCase(value=5.0),
    "worth_move_aimed": KeyCase(value=5.0),
    "worth_behind_share": KeyCase(value=1.0),
    "worth_shell_loss": KeyCase(value=20.0, players=FOUR, matches=3),
    "worth_attack": KeyCase(value=20.0),
    "plan_ends": KeyCase(value=1),
    "plan_blocking": KeyCase(value=10.0),
    "plan_slow_bias": KeyCase(value=1.0),
    "react_keep_last": KeyCase(value=0.0),
    "react_keep_near_end": KeyCase(value=20.0, matches=8),
    "place_gap": KeyCase(value=0.0, matches=8),
    "place_gap_cap": KeyCase(matches=8),
    "place_open": KeyCase(value=0.0),
    "draw_speed_squares": KeyCase(given=FREE),
    "commit_danger_base": KeyCase(value=0.0, given=(*RESERVE, *SIX), players=TABLE),
    "commit_danger_shots": KeyCase(given=(*RESERVE, *SIX), players=TABLE),
    "commit_danger_obstacles": KeyCase(given=(*RESERVE, *SIX), players=TABLE),
    "commit_length_steps": KeyCase(given=(*RESERVE, *SIX), players=TABLE),
    "value_far_share": KeyCase(value=0.0, given=SIX, players=TABLE),
    "greedy_counter_at": KeyCase(value=12, players=("greedy", "tactician")),
}

#: Strategy keys the tactician reads (evaluation.py, tactician.py) but for which no value, at
#: either bound, x4, x10 or /4, changed a single decision in 8 two-player or 4-player
#: championships on the six circuits (a search over those values): they break ties that real
#: positions almost never offer (e.g. the arrival bonus is the same for every option that
#: finishes this turn). Declared here, not hidden: an open question for the strategy's design.
RARELY_DECISIVE = (
    "value_finished",
    "value_arrival_step",
    "worth_shell_die",
    "plan_unplanned",
    "plan_no_move",
    "plan_finish_race",
    "plan_threat_distance",
    "react_keep",
    "shot_counter_share",
)
PROFILE_KEYS.update(
    {
        key: KeyCase(
            inert="read by the tactician, but no value tried changed a decision in "
            "8 championships (rarely decisive tie-break)"
        )
        for key in RARELY_DECISIVE
    }
)

#: Restrictable cards (:mod:`.restrictions`) the conformance line-up plays too rarely in two short
#: championships to see the restriction: more copies of the card; for a counter, more attacks to
#: counter and three tacticians (the greedy player seldom attacks).
ATTACKS = ("deck.tir.count=20", "deck.choc.count=10")
CHOICES: dict[str, KeyCase] = {
    "kangouroute_aigue": KeyCase(given=("deck.kangouroute_aigue.count=20",)),
    "coup_de_folie": KeyCase(given=("deck.coup_de_folie.count=20",)),
    **{
        card: KeyCase(given=(f"deck.{card}.count=12", *ATTACKS), players=("tactician",) * 3)
        for card in ("renfort_de_coquille", "retour_de_baton")
    },
}

CONFORMANCE = Conformance(
    lineup=("tactician", "greedy"),
    quick=QUICK,
    matches=2,
    keys=_keys(),
    profile_keys=PROFILE_KEYS,
    fingerprint=fingerprint,
    choices=CHOICES,
)
