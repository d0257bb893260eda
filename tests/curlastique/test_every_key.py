"""Every rule key is read: changing it changes the games played (no silently ignored number)."""

import pandas as pd
import pytest

from sim.core import MatchSeeds, Player
from sim.core.config import field_docs
from sim.core.rules import load_rules
from sim.curlastique import GAME
from sim.curlastique.match import play_match
from sim.curlastique.players import CurlastiqueProfile
from sim.curlastique.rules import CurlastiqueRules

from .scripted import scripted_players, teleport

BOUNCY = ("out.rim=false", "out.corners=false", "out.pegs=false", "out.elastic=false",
          "board.rim_restitution=1.0", "board.corner_restitution=1.0")

# key -> (scenario overrides, new value). Keys that only act in some situations get a
# scenario where they do (e.g. a restitution only matters when its element bounces).
CHANGES = {
    "game.target_score": ((), 60),
    "game.max_rounds": ((), 1),
    "game.teams": ((), True),
    "game.team_decider": (("game.teams=true",), "lower_scorer"),   # needs a team tie: scripted
    "game.tie_break": ((), "together"),                            # needs a 3-way tie: scripted
    "game.pucks_per_player": ((), 3),
    "zones.values": ((), [150, 80, 40, 20]),
    "zones.radii": ((), [0.05, 0.09, 0.14, 0.2]),
    "zones.line_rule": ((), "higher"),
    "zones.centre_y": ((), 0.7),
    "board.width": ((), 0.6),
    "board.length": ((), 0.95),
    "board.elastic_y": ((), 0.12),
    "board.peg_inset": (BOUNCY, 0.03),
    "board.peg_radius": (BOUNCY, 0.008),
    "board.corner_size": ((), 0.08),
    "board.rim_restitution": (("out.rim=false",), 0.8),
    "board.elastic_restitution": (BOUNCY, 0.5),
    "board.peg_restitution": (BOUNCY, 1.0),
    "board.corner_restitution": (("out.corners=false",), 0.9),
    "puck.diameter": ((), 0.04),
    "puck.mass": ((), 0.01),
    "physics.friction": ((), 0.2),
    "physics.restitution": ((), 0.6),
    "physics.contact_friction": ((), 0.3),
    "physics.gravity": ((), 9.0),
    "launch.x_max": ((), 0.15),
    "launch.angle_max_deg": ((), 20.0),
    "launch.max_pull": ((), 0.05),
    "launch.stiffness": ((), 15.0),
    "out.rim": ((), False),
    "out.corners": ((), False),
    "out.pegs": (BOUNCY[:1] + BOUNCY[2:] + ("out.pegs=true",), False),
    "out.elastic": (("out.rim=false", "board.rim_restitution=1.0"), False),
    "out.lost_puck": ((), "removed"),
}


def toml(value):
    return str(value).lower() if isinstance(value, bool) else repr(value) if isinstance(value, str) else str(value)


def games(overrides, n_players, scripted=False):
    rules = load_rules(GAME, None, ["game.target_score=150", *overrides])
    if scripted:  # teams: 600 all after round 1; no teams: seats 0, 1, 3 tie at 400; then decisive rounds
        plan = {(1, 0): 400, (1, 1): 200, (1, 2): 200, (1, 3): 400, (2, 0): 100, (2, 2): 40}
        if scripted == "three_way":
            plan = {(1, 0): 400, (1, 1): 400, (1, 2): 200, (1, 3): 400, (2, 0): 100, (2, 1): 40,
                    (3, 0): 20, (3, 3): 80}
        logs = [play_match(rules, scripted_players(rules, plan, n_players), MatchSeeds(0, 0), resolver=teleport)]
    else:
        players = tuple(Player("random", CurlastiqueProfile(kind="random")) for _ in range(n_players))
        logs = [play_match(rules, players, MatchSeeds(21, i)) for i in range(4)]
    return {t: pd.DataFrame([row for log in logs for row in log.tables()[t]]) for t in ("matches", "players", "rounds", "events")}


def test_every_key_has_a_change():
    assert set(CHANGES) == set(field_docs(CurlastiqueRules))


@pytest.mark.parametrize("key", sorted(CHANGES))
def test_changing_a_key_changes_play(key):
    scenario, value = CHANGES[key]
    n = 4 if key in ("game.teams", "game.tie_break") or "game.teams=true" in scenario else 2
    scripted = {"game.team_decider": "teams", "game.tie_break": "three_way"}.get(key, "")
    before = games(scenario, n, scripted)
    after = games((*scenario, f"{key}={toml(value)}"), n, scripted)
    assert any(not before[t].equals(after[t]) for t in before), key
