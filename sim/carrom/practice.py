"""Solo practice: one player clears all 19 coins (queen included, no cover, no dues), from the
break formation; the number of strokes measures shot-making alone.

From the command line, ``benchmarks/carrom_practice.py`` prints, per profile, the mean strokes
to clear the board with a 95 % t confidence interval, and the fraction of boards cleared within
the stroke cap. For scale: the 2016 pymunk carrom
agents of samiranrl/Carrom_rl needed about 30 strokes with aimed random shots (the agent logs
of that repository, ``Carrom_1Player/*.txt``: 30 ± 10 strokes over 50 games).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.game import Player
from sim.core.seeding import MatchSeeds
from sim.dexterity import ShotParams, Turn, play_turn

from .players.policies import make_policy
from .rules.board import N_COINS, StrokeOutcome, formation, geometry, physics_stroke
from .rules.schema import CarromRules
from .rules.view import PlanView

__all__ = ["PracticeResult", "solo_practice", "practice_table"]


@dataclass(frozen=True)
class PracticeResult:
    """strokes: strokes played; cleared: all 19 coins down within the cap; coins_left;
    striker_pocketed: strokes that sank the striker."""

    strokes: int
    cleared: bool
    coins_left: int
    striker_pocketed: int


def _practice_turn(rules: CarromRules, policy, view: PlanView, rng: np.random.Generator) -> Turn:
    """One practice stroke from seat 0's side (outcome None: no legal spot, the stroke is lost)."""
    geo = view.geo
    local = view.pos[view.on]

    def place(x: float) -> float:
        placed = geo.place_striker(x, local)
        return np.nan if placed is None else placed

    def resolve(shot: ShotParams) -> StrokeOutcome:
        return physics_stroke(rules, view.pos, view.on, (shot.x, geo.striker_y), shot.angle_deg, shot.speed)

    return play_turn(policy, view, rng, place, resolve, lambda: None)


def solo_practice(rules: CarromRules, player: Player, seeds: MatchSeeds, max_strokes: int = 300) -> PracticeResult:
    """One practice board: ``player`` plays every stroke from seat 0's side until the board is
    clear. All draws come from ``seeds.seat(0)``."""
    geo = geometry(rules)
    policy = make_policy(player.profile, geo)
    rng = seeds.seat(0)
    pos, colour = formation(rules, 0)
    on = np.ones(N_COINS, dtype=bool)
    rot = np.eye(2)
    everything = colour >= 0
    strokes = sank = 0
    first = True
    while on.any() and strokes < max_strokes:
        view = PlanView(
            geo=geo,
            pos=pos,
            on=on.copy(),
            rot=rot,
            next_rot=rot,
            own=everything & (np.arange(N_COINS) != 0),
            opp=np.zeros(N_COINS, bool),
            coin_value=np.ones(N_COINS),
            next_targets=everything,
            queen_on=bool(on[0]),
            queen_allowed=True,
            queen_prior=True,
            queen_pending=False,
            queen_settled=False,
            queen_value=1.0,
            own_left=int(on.sum()),
            opp_left=0,
            is_break=first,
            solo=True,
        )
        turn = _practice_turn(rules, policy, view, rng)
        strokes += 1
        out = turn.outcome
        if out is None:  # no legal spot: the stroke is lost
            continue
        pos = np.where(on[:, None], out.final_pos, pos)
        for c in out.pocketed:
            on[c] = False
        sank += out.striker_pocketed
        first = False
    return PracticeResult(strokes, not on.any(), int(on.sum()), sank)


def practice_table(rules: CarromRules, players: list[Player], boards: int, seed: int = 0, max_strokes: int = 300):
    """A DataFrame with one row per profile × practice board (board i uses the same seeds for
    every profile: common random numbers)."""
    import pandas as pd

    rows = []
    for player in players:
        for i in range(boards):
            r = solo_practice(rules, player, MatchSeeds(seed, i), max_strokes)
            rows.append(
                {
                    "profile": player.name,
                    "board": i,
                    "strokes": r.strokes,
                    "cleared": r.cleared,
                    "coins_left": r.coins_left,
                    "striker_pocketed": r.striker_pocketed,
                }
            )
    return pd.DataFrame(rows)
