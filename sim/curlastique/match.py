"""One game of Curlastique, from (rules, line-up, seeds) to its :class:`~sim.core.MatchLog`.

The flow follows the rules exactly (see docs/games/curlastique.md):

* Round 1 is started by seat 0 (the oldest); later rounds by the player with the lowest
  cumulative score, ties broken by seat order (the order fixed at the start). Play goes round
  the table in seat order from the starter, one puck per turn, until everyone has thrown
  ``game.pucks_per_player`` pucks (so nobody throws twice in a row while others have pucks).
* At the end of a round each player scores the zone values of its pucks still on the board
  (wherever collisions left them); pucks out of play score nothing.
* The game ends after the round in which someone (teams: a team) reaches ``game.target_score``;
  the highest cumulative score wins. A tie for first is settled by decisive rounds (same
  rules, best round score wins; players tied again play again): between two players, a
  1-against-1 round; between more, 1-against-1 meetings in seat order, the winner of each
  meeting the next (``game.tie_break = "one_v_one"``), or one round of all of them
  (``"together"``). Teams: one player of each team plays them (``game.team_decider``).
  Decisive points are not added to the cumulative scores.
* ``game.max_rounds`` caps the rounds played, decisive ones included; a capped game is
  unfinished: winner -1, nobody won (``finished`` false).
* A puck put out of play (rim, corner piece, peg, elastic) scores nothing; with
  ``out.lost_puck = "moves_on"`` it first moves on physically and may knock other pucks,
  which stay where they stop.

A throw goes: the seat's policy decides an intended shot from a :class:`Situation`, its own
execution noise perturbs it (draws from ``seeds.seat(seat)`` only), it is placed on the start
line, and it is resolved into where every puck stops — by default on the rules'
:class:`~sim.curlastique.rules.board.Arena` (the physics engine, built once), or by an injected
:class:`Resolver` (tests inject scripted resolvers and policies: a ``Player`` whose
``profile`` is a :class:`~sim.curlastique.players.policies.Policy` is used as its own policy).

Tables (plain Python ints, floats, bools and strings, the same keys in every row):

* ``matches``: ``winner`` (seat; with teams the winning team's top scorer or its decisive
  player; -1 if unfinished), ``winning_team`` (-1 without teams), ``rounds`` (decisive ones
  included), ``decisive_rounds``, ``throws``, ``finished``, ``top_score`` (best side total).
* ``players``: ``seat``, ``profile``, ``team`` (-1 without teams), ``score`` (cumulative),
  ``rank`` (1 = best; ties share; teams ranked as teams; the winner of decisive rounds first),
  ``won``, ``throws``, ``pucks_out`` (own pucks that ended a throw out of play).
* ``rounds``: ``round``, ``seat``, ``team``, ``points`` (of the round), ``cumulative`` (after it;
  unchanged by decisive rounds), ``decisive``, ``starter`` (seat that threw first).
* ``events`` (one per throw): ``index`` (0-based in the match), ``round``, ``decisive``,
  ``turn`` (1-based in the round), ``seat``, ``puck`` (the seat's 1st..5th), ``family`` (shot
  family chosen), ``planned_margin`` (the planner's expected margin, points; NaN if not
  planned), ``intended_x`` / ``intended_angle_deg`` / ``intended_speed`` and the same
  ``executed_*`` (m, degrees, m/s), ``final_x`` / ``final_y`` (m: where the thrown puck
  stopped, lost or not, or where it left the board when removed at contact), ``zone`` (points
  of that spot, 0 if out), ``out`` (bool: put out of play),
  ``knocked_out`` (pucks at rest put out by this throw), ``opponents_knocked_out`` (those of
  other sides) and ``aim_zone`` (the ring the shot was aimed at, 1 the innermost, 0 none: where
  a draw or guard was meant to stop, the puck a take-out, raise or double hits first; see
  :mod:`sim.curlastique.restrictions`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple, Protocol

import numpy as np
from numba import njit

from sim.core.game import MatchLog, Player
from sim.core.seeding import MatchSeeds
from sim.dexterity import ShotParams, play_turn

from .players.policies import make_policy
from .players.throwing import ExecutedShot
from .rules.board import Landing, arena
from .rules.schema import CurlastiqueRules
from .rules.scoring import scorer
from .rules.situation import Shot, Situation, free_launch_x, free_start

__all__ = ["Situation", "Shot", "Resolver", "play_match", "starter_of", "throw_order", "sides_of", "free_launch_x"]


class Resolver(Protocol):
    """Where every puck stops after a throw: ``(rules, pos (M, 2), owner (M,), seat, x,
    angle_deg, speed)`` → :class:`~sim.curlastique.rules.board.Landing` (``final`` (M+1, 2), the
    thrown puck last, and ``on`` (M+1,): still in play). Tests inject scripted ones."""

    def __call__(
        self,
        rules: CurlastiqueRules,
        pos: np.ndarray,
        owner: np.ndarray,
        seat: int,
        x: float,
        angle_deg: float,
        speed: float,
    ) -> Landing: ...


@njit(cache=True, error_model="numpy")
def _in_play(final, on, owner, seat):
    """The pucks still in play after a throw: positions (M', 2) and owners (the thrown one
    last, owned by ``seat``)."""
    keep = np.flatnonzero(on)
    pos = np.empty((keep.shape[0], 2))
    owners = np.empty(keep.shape[0], dtype=np.int64)
    for q in range(keep.shape[0]):
        i = keep[q]
        pos[q, 0], pos[q, 1] = final[i, 0], final[i, 1]
        owners[q] = owner[i] if i < owner.shape[0] else seat
    return pos, owners


class Settlement(NamedTuple):
    """How a game ended: ``finished`` (False when capped), the winning ``side`` and the seat
    that won the decisive rounds (``decider``; -1 when none were needed)."""

    finished: bool
    side: int
    decider: int


def sides_of(rules: CurlastiqueRules, n_seats: int) -> np.ndarray:
    """Side of each seat: teams 0, 1, 0, 1 with ``game.teams``, else the seat number."""
    if rules.game.teams:
        return np.arange(n_seats) % 2
    return np.arange(n_seats)


def starter_of(participants: Sequence[int], cumulative: Sequence[int], first_round: bool) -> int:
    """Who starts a round: seat 0's turn in round 1 (the lowest participating seat), then the
    lowest cumulative score, ties broken by seat order."""
    if first_round:
        return min(participants)
    return min(participants, key=lambda s: (cumulative[s], s))


def throw_order(participants: Sequence[int], starter: int, pucks: int) -> list[int]:
    """Seats in throwing order for a whole round: round the table from ``starter``."""
    seats = sorted(participants)
    k = seats.index(starter)
    lap = seats[k:] + seats[:k]
    return lap * pucks


class _Game:
    """The mutable state of one match (scores, logs) and the round procedure."""

    def __init__(
        self, rules: CurlastiqueRules, players: Sequence[Player], seeds: MatchSeeds, resolver: Resolver | None
    ):
        self.rules = rules
        self.n = len(players)
        self.players = players
        self.side = sides_of(rules, self.n)
        self.sides = self.side.tolist()
        self.arena = arena(rules)  # the physics, built once for the rules
        self.policies = [make_policy(p.profile, rules, self.arena) for p in players]
        self.rngs = [seeds.seat(s) for s in range(self.n)]
        self.seeds = seeds
        self.resolver = resolver
        self.scorer = scorer(rules.zones, rules.puck.radius)
        self.cumulative = [0] * self.n
        self.round = 0
        self.rounds: list[dict] = []
        self.events: list[dict] = []
        self.throws = [0] * self.n
        self.pucks_out = [0] * self.n
        self.launch_y, self.diameter, self.x_max = rules.launch_y, rules.puck.diameter, rules.launch.x_max

    def place_x(self, x: float, pos: np.ndarray) -> float:
        """The start x actually used for an executed start ``x`` (m): off pucks lying on the
        start line (NaN: no room)."""
        return free_start(x, pos, self.launch_y, self.diameter, self.x_max)

    def resolve(self, pos: np.ndarray, owner: np.ndarray, seat: int, x: float, executed: ShotParams | None) -> Landing:
        """Where every puck stops (the thrown one last) and which are still in play."""
        if not math.isfinite(x):  # no room on the start line: the puck cannot be played, it counts as out
            return Landing(np.vstack([pos, [[np.nan, np.nan]]]), np.append(np.ones(len(pos), dtype=bool), False))
        if self.resolver is not None:
            final, on = self.resolver(self.rules, pos, owner, seat, x, executed.angle_deg, executed.speed)
            return Landing(np.asarray(final, dtype=float), np.asarray(on, dtype=bool))
        return self.arena.throw(pos, owner, seat, x, executed.angle_deg, executed.speed)

    def log_throw(
        self,
        turn: int,
        seat: int,
        puck: int,
        decisive: bool,
        shot: Shot,
        executed: ExecutedShot,
        x: float,
        landing: Landing,
        owner: np.ndarray,
    ) -> None:
        """One row of the ``events`` table; counts the seat's throw and every side's pucks out."""
        final, on = landing
        in_play, sides = on.tolist(), self.sides
        knocked = [s for s, kept in zip(owner.tolist(), in_play) if not kept]
        thrown_on = in_play[-1]
        fx, fy = final[-1].tolist()
        self.events.append(
            {
                "index": len(self.events),
                "round": self.round,
                "decisive": decisive,
                "turn": turn,
                "seat": seat,
                "puck": puck,
                "family": shot.family,
                "planned_margin": float(shot.value),
                "intended_x": float(shot.x),
                "intended_angle_deg": float(shot.angle_deg),
                "intended_speed": float(shot.speed),
                "executed_x": x,
                "executed_angle_deg": float(executed.angle_deg),
                "executed_speed": float(executed.speed),
                "final_x": fx,
                "final_y": fy,
                "zone": self.scorer.zone_value(fx, fy) if thrown_on else 0,
                "out": not thrown_on,
                "knocked_out": len(knocked),
                "opponents_knocked_out": sum(1 for s in knocked if sides[s] != sides[seat]) if knocked else 0,
                "aim_zone": int(getattr(shot, "aim_zone", 0)),
            }
        )
        self.throws[seat] += 1
        for s in knocked if thrown_on else [*knocked, seat]:
            self.pucks_out[s] += 1

    def play_round(self, participants: Sequence[int], decisive: bool) -> dict[int, int]:
        """Play one round; return the points of each participant (and log it)."""
        rules = self.rules
        self.round += 1
        starter = starter_of(participants, self.cumulative, first_round=self.round == 1)
        order = throw_order(participants, starter, rules.game.pucks_per_player)
        left = np.zeros(self.n, dtype=np.int64)
        left[list(participants)] = rules.game.pucks_per_player
        pos = np.zeros((0, 2))
        owner = np.zeros(0, dtype=np.int64)
        lap, cumulative = tuple(order[: len(participants)]), tuple(self.cumulative)  # (fixed in a round)
        for turn, seat in enumerate(order, start=1):
            left[seat] -= 1
            situation = Situation(
                rules, seat, self.round, decisive, pos, owner, self.side, lap, left.copy(), cumulative
            )
            # the dexterity turn step (sim.dexterity): decide, add the seat's noise, place on
            # the start line, resolve (a throw with no room on the line counts as out); then log
            step = play_turn(
                self.policies[seat],
                situation,
                self.rngs[seat],
                place=lambda x: self.place_x(x, pos),
                resolve=lambda shot: self.resolve(pos, owner, seat, shot.x, shot),
                forfeit=lambda: self.resolve(pos, owner, seat, math.nan, None),
            )
            landing = step.outcome
            self.log_throw(
                turn,
                seat,
                rules.game.pucks_per_player - int(left[seat]),
                decisive,
                step.intent,
                step.executed,
                step.placed,
                landing,
                owner,
            )
            pos, owner = _in_play(landing.final, landing.on, owner, seat)
        pts = self.scorer.points(pos)
        points = {s: int(pts[owner == s].sum()) for s in participants}
        for s in sorted(participants):
            if not decisive:
                self.cumulative[s] += points[s]
            self.rounds.append(
                {
                    "round": self.round,
                    "seat": s,
                    "team": self._team(s),
                    "points": points[s],
                    "cumulative": self.cumulative[s],
                    "decisive": decisive,
                    "starter": starter,
                }
            )
        return points

    def _team(self, seat: int) -> int:
        return int(self.side[seat]) if self.rules.game.teams else -1

    def totals(self) -> dict[int, int]:
        """Cumulative score of each side."""
        out: dict[int, int] = {}
        for s in range(self.n):
            out[int(self.side[s])] = out.get(int(self.side[s]), 0) + self.cumulative[s]
        return out

    def capped(self) -> bool:
        return self.round >= self.rules.game.max_rounds

    def play(self) -> MatchLog:
        g = self.rules.game
        outcome = Settlement(False, -1, -1)
        regular = 0
        while not self.capped():
            self.play_round(range(self.n), decisive=False)
            regular += 1
            totals = self.totals()
            best = max(totals.values())
            if best >= g.target_score:
                leaders = sorted(side for side, t in totals.items() if t == best)
                outcome = self.settle(leaders)
                break
        return self.log(outcome, regular)

    def settle(self, leaders: list[int]) -> Settlement:
        """Decisive rounds among the tied sides.

        Teams: one player of each team (``game.team_decider``). More than two players tied
        (``game.tie_break``): ``one_v_one`` plays 1-against-1 meetings in seat order (or an
        order drawn from the match's own ``tie_order`` stream, ``game.tie_order = "random"``),
        the winner of each meeting the next tied player; ``together`` plays one decisive round
        of all of them (then of those tied again)."""
        if len(leaders) == 1:
            return Settlement(True, leaders[0], -1)
        if self.rules.game.teams:
            seats = [self.team_decider(team) for team in leaders]
        else:
            seats = list(leaders)
        if len(seats) > 2 and self.rules.game.tie_break == "one_v_one":
            if self.rules.game.tie_order == "random":
                seats = [seats[i] for i in self.seeds.rng("tie_order").permutation(len(seats))]
            winner = seats[0]
            for challenger in seats[1:]:
                winner = self.decide([winner, challenger])
                if winner < 0:
                    break
        else:
            winner = self.decide(seats)
        if winner < 0:
            return Settlement(False, -1, -1)
        return Settlement(True, int(self.side[winner]), winner)

    def decide(self, seats: list[int]) -> int:
        """Decisive rounds among ``seats`` until one has the best round score (those tied
        again play again); the winning seat, or -1 if ``game.max_rounds`` stops it first."""
        while not self.capped():
            points = self.play_round(seats, decisive=True)
            best = max(points.values())
            tied = [s for s in seats if points[s] == best]
            if len(tied) == 1:
                return tied[0]
            seats = tied
        return -1

    def team_decider(self, team: int) -> int:
        """The seat that plays a team's decisive rounds (``game.team_decider``)."""
        members = [s for s in range(self.n) if self.side[s] == team]
        rule = self.rules.game.team_decider
        if rule == "higher_scorer":
            return min(members, key=lambda s: (-self.cumulative[s], s))
        if rule == "lower_scorer":
            return min(members, key=lambda s: (self.cumulative[s], s))
        return min(members)

    def log(self, outcome: Settlement, regular: int) -> MatchLog:
        finished, winner_side, decider = outcome
        teams = self.rules.game.teams
        side_score = self.totals()
        if not finished:
            winner = -1
        elif decider >= 0:
            winner = decider
        else:  # the winning side's top scorer (without teams: the side is the seat)
            members = [s for s in range(self.n) if self.side[s] == winner_side]
            winner = min(members, key=lambda s: (-self.cumulative[s], s))
        keys = [
            (
                (int(self.side[s]) == winner_side) if finished else False,
                side_score[int(self.side[s])] if teams else self.cumulative[s],
            )
            for s in range(self.n)
        ]
        players = []
        for s, player in enumerate(self.players):
            won = bool(finished and int(self.side[s]) == winner_side)
            rank = 1 + len({int(self.side[t]) for t in range(self.n) if keys[t] > keys[s]})
            players.append(
                {
                    "seat": s,
                    "profile": player.name,
                    "team": self._team(s),
                    "score": int(self.cumulative[s]),
                    "rank": int(rank),
                    "won": won,
                    "throws": int(self.throws[s]),
                    "pucks_out": int(self.pucks_out[s]),
                }
            )
        matches = {
            "winner": int(winner),
            "winning_team": int(winner_side) if teams and finished else -1,
            "rounds": int(self.round),
            "decisive_rounds": int(self.round - regular),
            "throws": int(sum(self.throws)),
            "finished": bool(finished),
            "top_score": int(max(side_score.values())),
        }
        return MatchLog(matches=matches, players=players, rounds=self.rounds, events=self.events)


def play_match(
    rules: CurlastiqueRules, players: Sequence[Player], seeds: MatchSeeds, resolver: Resolver | None = None
) -> MatchLog:
    """Play one game; pure: the same (rules, players, seeds, resolver) give the same log.

    Args:
        rules: validated rules.
        players: one :class:`~sim.core.Player` per seat, seat 0 first (the oldest player).
        seeds: the match's seeds; seat ``s`` draws only from ``seeds.seat(s)``.
        resolver: where pucks stop after a throw (default: the physics engine).

    Returns:
        The match log (the columns are listed in the module docstring).
    """
    return _Game(rules, players, seeds, resolver).play()
