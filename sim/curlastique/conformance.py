"""What Curlastique tells the conformance suite (``sim.testing``).

Rule keys are compared through :func:`fingerprint`: four short games of two random players
(four players with ``game.teams``) through the physics, plus one scripted game (throws land
where a plan says, no physics) that reaches the decisive rounds: a tie between two teams with
``game.teams`` (for ``game.team_decider``), a three-way tie without (for ``game.tie_break``).
:data:`KEYS` gives every rule key its changed value, and the scenario where it acts for keys
that act only in some (a restitution only matters when its element bounces). Profile keys are
changed in the first seat of two short games of ``casual`` players, to the value derived from
their bounds unless :data:`PROFILE_KEYS` gives one; :data:`CHOICES` gives the scenarios of the
restrictable choices the first seat rarely makes.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from sim.core.game import Player
from sim.core.hints import Conformance, KeyCase
from sim.core.seeding import MatchSeeds

from .match import play_match
from .players.policies import CurlastiqueProfile, ExactPolicy, ExecutedShot
from .rules.board import Landing
from .rules.situation import Shot

__all__ = ["CONFORMANCE", "fingerprint"]

#: distance from the target centre of a puck fully inside each default ring ("lower" rule)
_ZONE_DISTANCE = {100: 0.0, 80: 0.06, 40: 0.105, 20: 0.16}
#: (round, seat) -> points: the two teams tie at 600 after round 1; round 2 is decisive
_TEAM_TIE = {(1, 0): 400, (1, 1): 200, (1, 2): 200, (1, 3): 400, (2, 0): 100, (2, 2): 40}
#: seats 0, 1 and 3 tie at 400; the decisive rounds differ between the tie_break readings
_THREE_WAY = {(1, 0): 400, (1, 1): 400, (1, 2): 200, (1, 3): 400, (2, 0): 100, (2, 1): 40, (3, 0): 20, (3, 3): 80}


class _Planned(ExactPolicy):
    """Scores ``plan[(round, seat)]`` points in that round: each throw lands (through
    :func:`_teleport`) on a spot of the zone a decomposition of those points needs."""

    def __init__(self, rules, plan):
        super().__init__(rules)
        self.plan = plan

    def decide(self, situation, rng) -> Shot:
        pucks = self.rules.game.pucks_per_player
        k = pucks - 1 - int(situation.left[situation.seat])
        points = self.plan.get((situation.round, situation.seat), 0)
        value = next(
            (v for v in itertools.combinations_with_replacement((100, 80, 40, 20, 0), pucks) if sum(v) == points),
            (0,) * pucks,
        )[k]  # a plan fewer pucks cannot score: all out
        if value == 0:
            return Shot(0.0, 0.0, -1.0, "planned")
        phi = k * 2 * math.pi / 5 + 0.3
        rho = _ZONE_DISTANCE[value]
        return Shot(rho * math.sin(phi), 0.0, self.rules.zones.centre_y + rho * math.cos(phi), "planned")

    def execute(self, shot, rng):
        return ExecutedShot(shot.x, shot.angle_deg, shot.speed)


def _teleport(rules, pos, owner, seat, x, angle_deg, speed):
    """The thrown puck lands at (x, speed), or goes out when speed < 0; nothing else moves."""
    final = np.vstack([np.reshape(pos, (-1, 2)), [[x, speed]]])
    on = np.ones(len(final), dtype=bool)
    on[-1] = speed >= 0
    return Landing(final, on)


def _tables(log) -> tuple:
    events = [{k: v for k, v in e.items() if not (isinstance(v, float) and np.isnan(v))} for e in log.events]
    return (log.matches, log.players, log.rounds, events)


def fingerprint(rules) -> tuple:
    """A deterministic view of what the rules do (compared for every rule key)."""
    n = 4 if rules.game.teams else 2
    random = tuple(Player("random", CurlastiqueProfile(policy="random")) for _ in range(n))
    games = [_tables(play_match(rules, random, MatchSeeds(21, i))) for i in range(4)]
    plans = (_TEAM_TIE,) if rules.game.teams else (_THREE_WAY,)
    for plan in plans:
        seats = tuple(Player(f"planned{s}", _Planned(rules, plan)) for s in range(4))
        games.append(_tables(play_match(rules, seats, MatchSeeds(0, 0), resolver=_teleport)))
    return tuple(games)


_BOUNCY = (
    "out.rim=false",
    "out.corners=false",
    "out.pegs=false",
    "out.elastic=false",
    "board.rim_restitution=1.0",
    "board.corner_restitution=1.0",
)
_QUICK = "game.target_score=150"

#: Every rule key with the changed value (and the scenario, when it acts only in some) that
#: shows it changes play: the scenarios of the game's former test of every key.
KEYS = {
    "game.target_score": KeyCase(value=60),
    "game.max_rounds": KeyCase(value=1),
    "game.teams": KeyCase(value=True, players=("casual",) * 4),
    "game.team_decider": KeyCase(value="lower_scorer", given=("game.teams=true",), players=("casual",) * 4),
    "game.tie_break": KeyCase(value="together"),
    "game.tie_order": KeyCase(value="random"),
    "game.pucks_per_player": KeyCase(value=3),
    "zones.values": KeyCase(value=(150, 80, 40, 20)),
    "zones.radii": KeyCase(value=(0.05, 0.09, 0.14, 0.2)),
    "zones.line_rule": KeyCase(value="higher"),
    "zones.centre_y": KeyCase(value=0.7),
    "board.width": KeyCase(value=0.6),
    "board.length": KeyCase(value=0.95),
    "board.elastic_y": KeyCase(value=0.12),
    "board.peg_inset": KeyCase(value=0.03, given=_BOUNCY),
    "board.peg_radius": KeyCase(value=0.008, given=_BOUNCY),
    "board.corner_size": KeyCase(value=0.08),
    "board.rim_restitution": KeyCase(value=0.8, given=("out.rim=false",)),
    "board.elastic_restitution": KeyCase(value=0.5, given=_BOUNCY),
    "board.peg_restitution": KeyCase(value=1.0, given=_BOUNCY),
    "board.corner_restitution": KeyCase(value=0.9, given=("out.corners=false",)),
    "puck.diameter": KeyCase(value=0.04),
    "puck.mass": KeyCase(value=0.01),
    "physics.friction": KeyCase(value=0.2),
    "physics.restitution": KeyCase(value=0.6),
    "physics.contact_friction": KeyCase(value=0.3),
    "physics.gravity": KeyCase(value=9.0),
    "launch.x_max": KeyCase(value=0.15),
    "launch.angle_max_deg": KeyCase(value=20.0),
    "launch.max_pull": KeyCase(value=0.05),
    "launch.stiffness": KeyCase(value=15.0),
    "out.rim": KeyCase(value=False),
    "out.corners": KeyCase(value=False),
    "out.pegs": KeyCase(value=False, given=_BOUNCY[:1] + _BOUNCY[3:] + ("out.pegs=true",)),
    "out.elastic": KeyCase(value=False, given=("out.rim=false", "board.rim_restitution=1.0")),
    "out.lost_puck": KeyCase(value="removed"),
}

_CLUB, _EXPERT = ("club", "club"), ("expert", "expert")

#: Profile keys whose derived value would not show in two short games of ``casual`` players
#: (twelve candidates: the first rows of each family, no jittered copies).
PROFILE_KEYS = {
    "families": KeyCase(value=("draw",)),
    "draw_spots": KeyCase(value=2),
    "takeout_targets": KeyCase(value=1),
    "raise_targets": KeyCase(value=1),
    "double_targets": KeyCase(value=1, players=_EXPERT, matches=3),
    "double_partners": KeyCase(value=0, players=_EXPERT, matches=3),
    "double_max_gap_m": KeyCase(value=0.0, players=_EXPERT, matches=3),
    "double_speed": KeyCase(value=1.0, players=_EXPERT, matches=3),
    "guard_distances_m": KeyCase(value=(0.3,), players=_CLUB),
    "jitter_x_m": KeyCase(value=0.05, players=_EXPERT, matches=3),
    "jitter_angle_deg": KeyCase(value=3.0, players=_EXPERT, matches=3),
    "jitter_speed_rel": KeyCase(value=0.1, players=_EXPERT, matches=3),
    "fallback_speed": KeyCase(
        inert='acts only when no family offers a shot (e.g. families = ["takeout"] on '
        "an empty board), which no preset meets; "
        "tests/curlastique/players/test_planner.py::test_jitter_fills_the_budget_and_random_"
        "shots_when_no_family_offers_one shows it"
    ),
}

#: Restrictable choices (:mod:`sim.curlastique.restrictions`) that two short games of
#: ``casual`` players make too rarely: the outer rings, made the best (zone values), and the
#: families the first seat then chooses most rarely, made its only one (so forbidding it leaves
#: only the random fallback shots).
CHOICES = {
    "zone.3": KeyCase(given=("zones.values=[40,80,100,20]",)),
    "zone.4": KeyCase(given=("zones.values=[40,80,20,100]",)),
    "shot.double": KeyCase(profile_given=(("families", ("double",)),)),
    "shot.guard": KeyCase(profile_given=(("families", ("guard",)),)),
}

CONFORMANCE = Conformance(
    lineup=("casual", "casual"),
    quick=(_QUICK,),
    matches=2,
    keys=KEYS,
    profile_keys=PROFILE_KEYS,
    fingerprint=fingerprint,
    choices=CHOICES,
)
