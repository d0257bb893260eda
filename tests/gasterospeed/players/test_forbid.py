"""Restricted play (``forbid``, sim/gasterospeed/restrictions.py): a seat never plays the cards it
forbids, as its action card or as a counter, whatever its policy and on either path of a table
of tacticians (the compiled calls keep it); the other seats still play them; an empty
``forbid`` changes nothing; a seat that may play no card at all still races; where only a
forbidden card could be played it discards it (or takes the loss), and the tactician's
look-ahead never plans it."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from sim.core.game import Player
from sim.core.profiles import load_lineup, load_profile
from sim.core.rules import load_rules
from sim.core.seeding import MatchSeeds
from sim.gasterospeed import GAME
from sim.gasterospeed.match import play_match
from sim.gasterospeed.players import tactician_phases
from sim.gasterospeed.players.kernels.lookahead import FORBIDDEN
from sim.gasterospeed.players.policies import make_policy
from sim.gasterospeed.restrictions import choices, used
from sim.gasterospeed.rules.cards import ACTION, Dice
from sim.gasterospeed.rules.kernels.layout import T_KIND, card

from ..helpers import RULES as DEFAULT_RULES
from ..helpers import Scripted, at, circuit, give, race, speed, uid

#: two short circuits, many attacks and counters (so that every policy plays them often)
RULES = load_rules(
    GAME,
    None,
    [
        'championship.circuits=["ligne_droite", "goulet"]',
        "deck.tir.count=10",
        "deck.choc.count=6",
        "deck.renfort_de_coquille.count=8",
    ],
)
#: two action cards and a counter
FORBID = ("tir", "choc", "renfort_de_coquille")


def _lineup(names, forbid=FORBID, rules=RULES, **changes) -> list[Player]:
    """The presets ``names`` with the profile ``changes``, the first forbidding ``forbid``."""
    players = [Player(p.name, dataclasses.replace(p.profile, **changes)) for p in load_lineup(GAME, list(names), rules)]
    players[0] = Player(players[0].name, dataclasses.replace(players[0].profile, forbid=tuple(forbid)))
    return players


def _tables(players, matches, seed=5, rules=RULES) -> list[dict]:
    return [play_match(rules, players, MatchSeeds(seed, m)).tables() for m in range(matches)]


def _played(tables, seat) -> Counter:
    """Cards ``seat`` played (action cards and counters) over the matches."""
    return Counter(
        e["card"] for t in tables for e in t["events"] if e["seat"] == seat and e["phase"] in ("action", "reaction")
    )


#: profile changes that make the players counter more often (so that the others' counters are seen)
GREEDY_COUNTERS = {"greedy_counter_at": 3}
KEEPS_NO_COUNTER = {"react_keep": 0.0, "react_keep_last": 0.0, "react_keep_near_end": 0.0}


@pytest.mark.parametrize(
    "names, matches, changes",
    [
        (("random", "random", "random"), 2, {}),
        (("greedy", "greedy", "greedy"), 6, GREEDY_COUNTERS),
        (("tactician", "tactician", "greedy"), 6, {}),  # the Python phases (a greedy seat)
        (("casual", "casual", "casual"), 6, {}),  # temperature 0.2
        (("novice", "novice", "novice"), 12, KEEPS_NO_COUNTER),  # temperature 1.0
        (("tactician", "tactician", "tactician"), 8, {}),  # the compiled calls
    ],
)
def test_a_forbidden_card_is_never_played_and_the_others_still_play_it(names, matches, changes, monkeypatch):
    compiled = []
    phase = tactician_phases.speed_phase
    monkeypatch.setattr(tactician_phases, "speed_phase", lambda race, **kw: compiled.append(1) or phase(race, **kw))
    tables = _tables(_lineup(names, **changes), matches)
    mine = _played(tables, 0)
    others = sum((_played(tables, seat) for seat in range(1, len(names))), Counter())
    assert mine and not set(mine) & set(FORBID), mine  # it plays other cards, never these
    assert set(FORBID) <= set(others), others  # the same policies play them all
    assert bool(compiled) == (set(names) == {"tactician"})  # a restricted table keeps the compiled calls


def test_the_compiled_calls_play_a_restricted_table_as_the_python_phases(monkeypatch):
    players = _lineup(("tactician",) * 4, forbid=("tir", "ressort", "retour_de_baton"))
    compiled = _tables(players, 3)
    monkeypatch.setattr(tactician_phases, "ENABLED", False)
    assert _tables(players, 3) == compiled
    assert not {"tir", "ressort", "retour_de_baton"} & set(_played(compiled, 0))


def test_an_empty_forbid_changes_no_table(tmp_path):
    """A profile file stating ``forbid = []`` plays the preset's matches exactly."""
    path = tmp_path / "open.toml"
    path.write_text('base = "tactician"\nforbid = []\n', encoding="utf-8")
    stated = load_profile(GAME, str(path)).profile
    assert stated.forbid == ()
    for names in (("tactician", "greedy", "casual", "random"), ("tactician",) * 4):
        preset = list(load_lineup(GAME, list(names), DEFAULT_RULES))
        again = [Player(preset[0].name, stated), *preset[1:]]
        assert _tables(again, 2, rules=DEFAULT_RULES) == _tables(preset, 2, rules=DEFAULT_RULES)


@pytest.mark.parametrize(
    "names", [("random", "greedy"), ("greedy", "random"), ("casual", "tactician"), ("tactician", "tactician")]
)
def test_a_seat_forbidding_every_card_still_races_discarding(names):
    every = [c.name for c in choices(RULES)]
    tables = _tables(_lineup(names, forbid=every), 2)
    assert all(t["matches"][0]["races"] == 2 for t in tables)
    assert not _played(tables, 0) and _played(tables, 1)
    discarded = Counter(e["card"] for t in tables for e in t["events"] if e["seat"] == 0 and e["phase"] == "discard")
    assert set(every) & set(discarded)  # it gives those cards up


def test_used_counts_the_cards_each_seat_played():
    tables = _tables(_lineup(("tactician", "greedy")), 2)
    events = pd.DataFrame(
        [{"variant": "v", "lineup": "l", "match": m, **row} for m, t in enumerate(tables) for row in t["events"]]
    )
    counts = used({"events": events})
    assert list(counts.columns) == ["variant", "lineup", "match", "seat", "choice", "uses"]
    for seat in (0, 1):
        mine = counts[counts["seat"] == seat]
        assert dict(mine.groupby("choice")["uses"].sum()) == dict(_played(tables, seat))
    assert [c.name for c in choices(RULES)] == [
        "aspiration",
        "laitue_bleue",
        "turbo_petard",
        "ressort",
        "kangouroute_aigue",
        "rouler_bouler",
        "coup_de_folie",
        "choc",
        "tir",
        "renfort_de_coquille",
        "retour_de_baton",
    ]
    assert "tir" not in [c.name for c in choices(load_rules(GAME, None, ["deck.tir.count=0"]))]


# -- scripted positions ------------------------------------------------------------------------


def _policy(name: str, forbid=("tir",)):
    profile = dataclasses.replace(load_profile(GAME, name).profile, forbid=tuple(forbid))
    return make_policy(profile, Dice(np.random.default_rng(3)))


@pytest.mark.parametrize("name", ["random", "greedy", "tactician", "novice"])
def test_with_only_a_forbidden_action_card_it_discards(name):
    """A hand of a speed card and a Tir, a target in range: the restricted seat's options are
    the two discards (it never plays the Tir); with a Tir alone it discards it unasked."""
    c = circuit(shot_hits=(1, 2, 3, 4, 5, 6))
    for hand in ((speed(104), uid("tir")), (uid("tir"),)):
        r = race(c, 2, policies=[_policy(name), Scripted()], events=[])
        r.board.place(0, at(c, 4, 1))
        r.board.place(1, at(c, 3, 2))
        give(r, 0, *hand)
        r.action_phase()
        assert [(e["phase"], e["seat"]) for e in r.events] == [("discard", 0)]  # no Tir played
        assert r.board.shells[1] == 3 and len(r.hands[0]) == len(hand) - 1
        if len(hand) == 1:
            assert r.events[0]["card"] == "tir"


def test_options_and_counters_leave_forbidden_cards_out():
    """The engine offers a forbidden action card as a discard only, and a counter it never
    plays not at all: with a Renfort forbidden and a Retour de bâton held, only the Retour is
    offered against a shot; with only the Renfort, the seat takes the hit unasked."""
    c = circuit(shot_hits=(1, 2, 3, 4, 5, 6))
    restricted = Scripted(react=["reflect"])
    restricted.forbid = frozenset({"renfort_de_coquille", "ressort"})
    r = race(c, 2, policies=[Scripted(), restricted], events=[])
    r.board.place(0, at(c, 4, 1))
    r.board.place(1, at(c, 4, 3))
    give(r, 0, uid("tir"), uid("tir", 1))
    give(r, 1, uid("renfort_de_coquille"), uid("retour_de_baton"), uid("ressort"), speed(101))
    r.action_phase({0: (uid("tir"), False)})
    ((_, (_, _, _, _, options)),) = [call for call in restricted.calls if call[0] == "react"]
    assert options == [-1, uid("retour_de_baton")] and list(r.board.shells) == [2, 3]
    restricted.calls.clear()
    r.action_phase({0: (uid("tir", 1), False)})
    assert not [call for call in restricted.calls if call[0] == "react"] and list(r.board.shells) == [2, 2]
    r.action_phase()
    ((_, (_, _, offered)),) = [call for call in restricted.calls if call[0] == "action_card"]
    assert len(offered) == 3 and all(discard for _, discard in offered)  # its Ressort: a discard only


def test_the_look_ahead_never_plans_a_forbidden_card():
    """A tactician holding only a Tir, a snail with one shell in range: unrestricted, the ends
    of its speed move that keep the shot are planned higher; restricted, every end plans the
    same discard (its cards array marks the Tir, and it is worth nothing kept)."""
    c = circuit(shot_hits=(1, 2, 3, 4, 5, 6))
    gains = {}
    for forbid in ((), ("tir",)):
        policy = _policy("tactician", forbid)
        profile = dataclasses.replace(policy.profile, plan_ends=200, plan_blocking=0.0)
        policy = make_policy(profile, Dice(np.random.default_rng(3)))
        r = race(c, 2, policies=[policy, Scripted()], shells=[3, 1])
        r.board.place(0, at(c, 4, 2))
        r.board.place(1, at(c, 1, 2))
        give(r, 0, uid("tir"))
        view = r.view(0)
        ends = r.board.speed_ends(0, 1)
        policy._start(view, view.hand)
        ev = policy.eval
        scores = ev.plan_ends(view.board, view.deck, 0, ends, view.hand)
        values = []
        for e in ends:
            after = view.board.copy()
            after.enter(0, e)
            values.append(ev.value(after))
        gains[forbid] = np.array(scores) - np.array(values)
        assert card(ev.cards(r.deck), r.deck.type_index["tir"], T_KIND) == (FORBIDDEN if forbid else ACTION)
    assert np.ptp(gains[("tir",)]) < 1e-9  # the same discard from every end
    assert gains[()].max() > gains[("tir",)].max() + 0.1  # unrestricted: the shot is planned
