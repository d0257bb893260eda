"""Pig as a race, a test game that ends mid-round: the match stops the moment a seat's score
reaches ``game.target_score``, and the seats after it do not play the rest of that round.

Pig's rules, profiles and skill path (tests/testgame, ``tablesim_pig``) with another
``play_match``: the last round of most matches has rows for its first seats only, which is what
the MatchLog contract allows and what a score sheet of such games looks like. Registered as
``pig-race`` only inside :func:`registered` (a test's ``with``), so no other test sees it.

Every seat plays round 1, as the contract asks: a seat that reaches the target in round 1
(a rare turn at Pig's default target, 50) wins once the round is over, the best score first.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator

from sim.core import game as registry
from sim.core import get_game
from sim.core.game import GameSpec, MatchLog
from sim.core.hints import Conformance
from sim.core.seeding import MatchSeeds

NAME = "pig-race"


def play_match(rules, players, seeds: MatchSeeds) -> MatchLog:
    """Seats take Pig turns in order; from round 2 on, the first to reach the target wins at
    once (pure)."""
    from tablesim_pig import _turn

    rngs = [seeds.seat(seat) for seat in range(len(players))]
    scores = [0.0] * len(players)
    rounds = []
    winner, number = -1, 0
    for number in range(1, rules.game.max_rounds + 1):
        for seat, player in enumerate(players):
            points, _ = _turn(rules, player.profile, rngs[seat])
            scores[seat] += points
            rounds.append({"round": number, "seat": seat, "points": float(points), "cumulative": scores[seat]})
            if number > 1 and scores[seat] >= rules.game.target_score:
                winner = seat
                break
        if number == 1 and max(scores) >= rules.game.target_score:
            winner = scores.index(max(scores))
        if winner >= 0:
            break
    ranks = [1 + sum(other > mine for other in scores) for mine in scores]
    players_rows = [
        {"seat": s, "profile": p.name, "team": -1, "score": scores[s], "rank": ranks[s], "won": s == winner}
        for s, p in enumerate(players)
    ]
    return MatchLog(
        matches={"winner": winner, "winning_team": -1, "rounds": number, "finished": winner >= 0},
        players=players_rows,
        rounds=rounds,
    )


def spec() -> GameSpec:
    pig = get_game("pig")
    return dataclasses.replace(
        pig,
        name=NAME,
        title="Pig race",
        play_match=play_match,
        summary=None,
        replay=None,
        frames=None,
        examples=None,
        conformance=Conformance(lineup=("standard", "bold"), keys=dict(pig.conformance.keys)),
    )


@contextlib.contextmanager
def registered() -> Iterator[GameSpec]:
    """``pig-race`` in the game registry for the ``with`` block (worker-free runs: ``jobs=1``)."""
    with registry.registered_while(spec()) as game:
        yield game
