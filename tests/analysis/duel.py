"""What the known-truth duels of the matrix and exploit tests share: one match decided by a
logistic draw."""

from __future__ import annotations

import math

from sim.core.game import MatchLog


def logistic_duel(x: float, players, seeds) -> MatchLog:
    """A two-player match the first seat wins with probability σ(x), drawn from the match's
    ``chance`` stream (pure: the same seeds give the same winner)."""
    winner = 0 if seeds.rng("chance").random() < 1 / (1 + math.exp(-x)) else 1
    return MatchLog(
        matches={"winner": winner, "winning_team": -1, "rounds": 1, "finished": True},
        players=[
            {
                "seat": s,
                "profile": p.name,
                "team": -1,
                "score": float(s == winner),
                "rank": 1 if s == winner else 2,
                "won": s == winner,
            }
            for s, p in enumerate(players)
        ],
        rounds=[
            {"round": 1, "seat": s, "points": float(s == winner), "cumulative": float(s == winner)} for s in range(2)
        ],
    )
