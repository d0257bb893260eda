"""What Carrom tells the conformance suite (``sim.testing``).

A Carrom match through the physics takes a third of a second, too slow to play a few per key
and too rare in some situations (a due placed in the outer circle, a stuck board). So the rule
keys are compared through :func:`fingerprint`: the board geometry, the physics, the effective
switches, one physics stroke and a few scripted matches (:mod:`sim.carrom.players.scripted`) that
reach every rule. Values that reach those scripted scenarios are given in :data:`KEYS`.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

import numpy as np

from sim.core.hints import Conformance, KeyCase
from sim.core.rules import load_rules
from sim.core.seeding import MatchSeeds

from .match import play_match
from .players.scripted import clearing_resolver, hit, last_coins_first, never_touches, scripted_players
from .rules.board import formation, geometry
from .rules.flow import BoardState
from .rules.schema import SWITCHES
from .show.shot import shot

__all__ = ["CONFORMANCE", "fingerprint"]


def _tables(log) -> tuple:
    events = [{k: v for k, v in e.items() if not (isinstance(v, float) and np.isnan(v))} for e in log.events]
    return (log.matches, log.players, log.rounds, events)


def _merged(rules, overrides):
    """``rules`` with a scenario's overrides, except on keys ``rules`` itself changed."""
    from sim.core.config import to_dict

    from . import GAME

    flat = dict(_flatten(to_dict(rules)))
    defaults = _default_flat()
    own = {key for key, value in flat.items() if defaults.get(key) != value}
    kept = [item for item in overrides if item.split("=", 1)[0] not in own]
    return load_rules(GAME, None, [*flat.items(), *kept])


@lru_cache(maxsize=1)
def _default_flat() -> dict[str, Any]:
    from sim.core.config import to_dict

    from . import GAME

    return dict(_flatten(to_dict(load_rules(GAME))))


def _flatten(data: dict, prefix: str = ""):
    for key, value in data.items():
        if isinstance(value, dict) and value:
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def fingerprint(rules) -> list[Any]:
    """What the rules do, on scripted boards and one physics stroke (no noise): every rule key
    but the drawn-only centre circle changes it (tests/test_conformance.py)."""
    geo = geometry(rules)
    out: list[Any] = [
        rules.ruleset,
        dataclasses.astuple(rules.switches),
        geo.table.walls.tobytes(),
        geo.table.pockets.tobytes(),
        geo.legal.tobytes(),
        geo.radii.tobytes(),
        geo.masses.tobytes(),
        geo.striker_y,
        dataclasses.astuple(geo.physics),
        formation(rules)[0].tobytes(),
        formation(rules)[1].tobytes(),
        shot(rules, 0.0, 0.0, 10.0).as_dict()["discs"][-1]["final_y"],
    ]
    p2, p3, seeds = scripted_players(2), scripted_players(3), MatchSeeds(0, 0)
    scenarios = [
        (rules, p2, clearing_resolver),
        (_merged(rules, ["game.best_of=3"]), p2, clearing_resolver),
        (_merged(rules, ["game.target_points=60"]), p2, clearing_resolver),
        (rules, p3, clearing_resolver),
        (_merged(rules, ["ruleset=icf", "game.max_strokes_per_board=7", "game.best_of=3"]), p2, never_touches),
        (_merged(rules, ["ruleset=icf"]), p2, last_coins_first),
        (_merged(rules, ["ruleset=icf", "scoring.queen_bonus_below=0"]), p2, last_coins_first),
        (_merged(rules, ["game.max_strokes_per_board=7"]), p2, last_coins_first),  # last coins before the queen
    ]
    out.extend(_tables(play_match(r, players, seeds, resolver=resolver)) for r, players, resolver in scenarios)
    state = BoardState(_merged(rules, ["ruleset=icf"]), 2, 0, rng=np.random.default_rng(0), white_side=0)
    state.break_pending = False  # a due placed in the outer circle
    state.pos[:] += np.array([0.0, 0.25])
    state.apply(hit(1))
    state.apply(hit(striker=True))
    out.append(state.pos.tobytes())
    return out


#: Values that reach the scripted scenarios (scores jump by 12 and 9 there); every switch is
#: set against its family default.
KEYS = {
    "scoring.queen_bonus_below": KeyCase(value=30),
    "scoring.max_board_points": KeyCase(value=10),
    "scoring.queen_points": KeyCase(value=1),
    "three_players.target_points": KeyCase(value=360),
    "game.best_of": KeyCase(value=3),
    "board.centre_circle_diameter": KeyCase(
        inert="drawn only: a returned coin goes to the free spot nearest the centre (rules.toml)"
    ),
    **{f"rules.{name}": KeyCase(value=not family) for name, (family, _icf, _doc) in SWITCHES.items()},
}

#: Profile keys: the suite's small changes (x 1.25) rarely alter two short casual matches, so
#: each key gets a value that changes the plan, and the line-up where it acts: beginner and
#: casual give the next seat's pot no weight (safety keys on club players); coin values differ
#: only with three players (the ranking worths); random_* act on the random player; the
#: rehearsed break's numbers act only with break_plan = "rehearsed".
_CLUB, _THREE, _RANDOM = ("club", "club"), ("casual",) * 3, ("random", "random")
#: longer matches, for the last coins before the queen (rare in the quick ones)
_LONG = ("game.target_points=25", "game.max_boards=4")
PROFILE_KEYS = {
    "safety": KeyCase(players=_CLUB),
    "value_opponent_queen": KeyCase(value=100.0, players=_CLUB, given=("ruleset=icf", *_LONG), matches=3),
    "value_practice_due": KeyCase(inert="solo practice only (sim.carrom.practice): no rules, no match"),
    "finalists": KeyCase(inert="acts only when screen_samples < samples (no preset screens: the default)"),
    "screen_samples": KeyCase(value=1),
    "pot_min_prior": KeyCase(value=0.9),
    "rank_worth_floor": KeyCase(value=10.0, players=_THREE),
    "rank_cover_factor": KeyCase(value=0.0, players=_THREE),
    "rank_last_coin_unlocks": KeyCase(value=10.0),
    "rank_last_coin_waits": KeyCase(value=10.0, given=("last_coin.before_queen=end_turn", *_LONG), matches=3),
    "rebound_pocket_clearance": KeyCase(value=10.0),
    "value_opponent_coin": KeyCase(value=5.0),
    "value_queen_wasted": KeyCase(value=5.0),
    "value_due": KeyCase(value=10.0),
    "value_last_coin_penalty": KeyCase(value=100.0, given=("ruleset=icf", *_LONG), matches=3),
    "value_last_coin_returned": KeyCase(value=100.0, given=("last_coin.before_queen=end_turn", *_LONG), matches=3),
    "position_good_enough": KeyCase(value=0.0),
    **{
        f"rehearsed_break_{name}": KeyCase(value=value, players=_CLUB, profile_given=(("break_plan", "rehearsed"),))
        for name, value in (("offset_m", 0.12), ("aim", 3.0), ("speed", 2.0))
    },
    "random_max_angle_deg": KeyCase(value=10.0, players=_RANDOM),
    "random_min_speed": KeyCase(value=2.0, players=_RANDOM),
    "random_max_speed_share": KeyCase(value=0.2, players=_RANDOM),
}

#: Restrictable choices the casual line-up makes too rarely: casual plans its break among the
#: grid's first 8 breaks (``candidates``), all from the base line's centre, so the off-centre
#: spot comes first in the scenario's grid.
CHOICES = {
    "break.off_centre": KeyCase(profile_given=(("break_offsets_m", (0.04, 0.0)),)),
}

CONFORMANCE = Conformance(
    lineup=("casual",),
    quick=("game.target_points=9", "game.max_boards=2"),
    matches=2,
    keys=KEYS,
    profile_keys=PROFILE_KEYS,
    fingerprint=fingerprint,
    choices=CHOICES,
)
