"""A carrom match, from (rules, line-up, seeds) to its :class:`~sim.core.MatchLog`.

* Line-ups: 2 players (singles, white against black), 3 players (each for themselves, every
  coin scores to who pockets it), 4 players (doubles: seats 0 and 2 against 1 and 3,
  partners opposite, the turn passing to the right).
* The first breaker is drawn by a toss (``seeds.rng("setup")``); the break then passes to
  the next seat every board (alternating in singles), through the games of a match too.
* A board follows :class:`~sim.carrom.rules.flow.BoardState`; a stroke goes: the seat's policy
  decides from its own side (:class:`~sim.carrom.players.policies.PlanView`), its execution noise
  perturbs the stroke (draws from ``seeds.seat(seat)`` only), the striker is put on the
  nearest legal free spot, and a *resolver* plays it (default: the physics engine; tests
  inject scripted resolvers).
* A game ends after the board in which a side reaches ``game.target_points`` (three players:
  ``three_players.target_points``), or after ``game.max_boards`` boards: the leader wins; a
  tie is a draw, or (``rules.extra_board_on_tie``) extra boards are played, at most
  ``game.max_extra_boards``, then it is a draw (``finished`` False).
* A match is one game, or best of ``game.best_of`` games (drawn games are replayed, at most
  ``game.max_games`` games; then the match is a draw, ``finished`` False).

Tables (one match = one row of ``matches``):
    matches: winner, winning_team, rounds (boards), finished, draw, games, strokes,
        stuck_boards, capped_games (games decided by the board cap), extra_boards,
        drawn_games, queens_pocketed, queens_covered, fouls.
    players: seat, profile, team, score (points, summed over the match's games), rank, won,
        games_won, strokes, coins_pocketed, fouls.
    rounds (one per board × seat): game, round, seat, team, side, points, cumulative,
        coins_left, queen_covered_by, breaker, board_winner (seat), won_board, end, stroke count,
        queen_pocketed, queen_returned, fouls, last_coins_early (last coins pocketed before the
        queen was covered, without the ICF penalty: rules.last_coin_before_queen_penalty).
    events (one per stroke): see :func:`_event_row`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from sim.core.game import MatchLog, Player
from sim.core.seeding import MatchSeeds
from sim.dexterity import ShotParams, Turn, play_turn

from .players.policies import make_policy
from .rules.board import (
    COLOUR_NAMES,
    N_COINS,
    POCKET_NAMES,
    WHITE,
    StrokeOutcome,
    geometry,
    physics_stroke,
    side_quarter,
)
from .rules.flow import BoardState, StrokeReport, sides_for
from .rules.schema import CarromRules
from .rules.view import PlanView, Stroke

__all__ = ["Resolver", "play_match", "plan_view", "physics_resolver"]

#: ``(state, seat, x_local, angle_local_deg, speed) -> StrokeOutcome``; ``x_local`` is a
#: legal, free striker position in the seat's frame.
Resolver = Callable[[BoardState, int, float, float, float], StrokeOutcome]


def physics_resolver(state: BoardState, seat: int, x: float, angle_deg: float, speed: float) -> StrokeOutcome:
    """Play the stroke with the physics engine (board coordinates)."""
    geo = state.geo
    start = geo.to_board(state.n_seats, seat, (x, geo.striker_y))
    angle_board = angle_deg + 90.0 * side_quarter(state.n_seats, seat)
    return physics_stroke(state.rules, state.pos, state.on, start, angle_board, speed)


def plan_view(state: BoardState, seat: int) -> PlanView:
    """What ``seat`` sees before its stroke."""
    geo, rules = state.geo, state.rules
    side = state.side_of[seat]
    nxt = state.next_seat(seat)
    if state.three:
        t = rules.three_players
        value = np.where(state.colour == WHITE, t.white_points, t.black_points) / 10.0
        queen_value = t.queen_points / 10.0
    else:
        value = _ONES
        queen_value = float(rules.scoring.queen_points) if state.scores[side] < rules.scoring.queen_bonus_below else 0.5
    prior = state.queen_prior(seat)
    return PlanView(
        geo=geo,
        pos=state.pos,
        on=state.on.copy(),
        rot=geo.rotation(state.n_seats, seat),
        next_rot=geo.rotation(state.n_seats, nxt),
        own=state.own_mask(seat),
        opp=state.opp_mask(seat),
        coin_value=value,
        next_targets=state.own_mask(nxt),
        queen_on=bool(state.on[0]),
        queen_allowed=state.queen_allowed(seat),
        queen_prior=bool(prior),
        queen_pending=state.queen_state == "pending" and state.queen_seat == seat,
        queen_settled=state.queen_state == "covered",
        queen_value=queen_value,
        own_left=state.coins_left(side),
        opp_left=0 if state.three else state.coins_left(1 - side),
        is_break=state.break_pending,
        three=state.three,
        own_down=state.own_down(seat),
        next_queen_allowed=state.queen_allowed(nxt),
    )


#: Every coin worth one (two and four players), read-only.
_ONES = np.ones(N_COINS)
_ONES.setflags(write=False)


#: The events' columns of coins pocketed, per colour then local pocket ("white_near_left", ...).
_COUNT_KEYS = tuple(f"{c}_{p}" for c in COLOUR_NAMES for p in POCKET_NAMES)


def _event_row(
    state: BoardState, rep: StrokeReport, turn: Turn[Stroke, StrokeOutcome], start_board, board_stroke: int
) -> dict:
    geo = state.geo
    stroke, executed = turn.intent, turn.executed
    row = {
        "board_stroke": board_stroke,
        "seat": rep.seat,
        "side": rep.side,
        "is_break": rep.is_break,
        "kind": stroke.kind,
        "target": int(stroke.target),
        "aimed_pocket": POCKET_NAMES[stroke.pocket] if stroke.pocket >= 0 else "",
        "planned_value": float(stroke.value),
        "intended_x": float(stroke.x),
        "intended_angle_deg": float(stroke.angle_deg),
        "intended_speed": float(stroke.speed),
        "executed_x": float(executed.x),
        "executed_angle_deg": float(executed.angle_deg),
        "executed_speed": float(executed.speed),
        "striker_x": float(start_board[0]),
        "striker_y": float(start_board[1]),
        "placed_x": float(turn.placed),
        "whites": rep.whites,
        "blacks": rep.blacks,
        "queen": rep.queen,
    }
    counts = dict.fromkeys(_COUNT_KEYS, 0)
    for _, colour, pocket in rep.pocketed:
        if pocket >= 0:
            counts[_COUNT_KEYS[colour * len(POCKET_NAMES) + geo.local_pocket(state.n_seats, rep.seat, pocket)]] += 1
    row.update(counts)
    row.update(
        {
            "striker_pocketed": bool(rep.striker_pocketed),
            "queen_event": rep.queen_event,
            "dues": int(rep.dues),
            "due_coins": int(rep.due_coins),
            "returned": int(rep.returned),
            "foul": rep.foul,
            "continues": bool(rep.continues),
            "board_over": bool(rep.board_over),
            "coins_on_board": state.coins_on_board(),
        }
    )
    return row


class _Match:
    def __init__(self, rules: CarromRules, players: Sequence[Player], seeds: MatchSeeds, resolver: Resolver | None):
        self.rules = rules
        self.players = players
        self.n = len(players)
        if self.n not in (2, 3, 4):
            raise ValueError(f"players: carrom takes 2, 3 or 4 players, got {self.n}")
        self.geo = geometry(rules)
        self.side_of = sides_for(self.n)
        self.n_sides = 3 if self.n == 3 else 2
        self.policies = [make_policy(p.profile, self.geo) for p in players]
        self.rngs = [seeds.seat(s) for s in range(self.n)]
        self.chance = seeds.rng("chance")
        self.resolver = resolver or physics_resolver
        self.breaker = int(seeds.rng("setup").integers(self.n))
        self.board_no = 0
        self.rounds: list[dict] = []
        self.events: list[dict] = []
        self.strokes = [0] * self.n
        self.pocketed = [0] * self.n
        self.fouls = [0] * self.n
        self.stuck = 0
        self.queens = [0, 0]  # pocketed, covered (boards)

    def take_turn(self, state: BoardState, seat: int) -> Turn[Stroke, StrokeOutcome]:
        """One stroke of ``seat`` (:func:`sim.dexterity.play_turn`): its policy decides from its
        view, the noise perturbs it, the striker goes to the nearest legal free spot, the
        resolver plays it; no legal spot: the stroke is lost (nothing touched)."""
        view = plan_view(state, seat)

        def resolve(shot: ShotParams) -> StrokeOutcome:
            return self.resolver(state, seat, shot.x, shot.angle_deg, shot.speed)

        return play_turn(
            self.policies[seat], view, self.rngs[seat], view.place, resolve, lambda: StrokeOutcome(touched=False)
        )

    @property
    def target(self) -> int:
        return self.rules.three_players.target_points if self.n == 3 else self.rules.game.target_points

    def play_board(self, game: int, scores: list[int]) -> BoardState:
        self.board_no += 1
        state = BoardState(self.rules, self.n, self.breaker, scores, self.chance)
        while not state.over:
            seat = state.turn
            turn = self.take_turn(state, seat)
            if np.isfinite(turn.placed):
                start = self.geo.to_board(self.n, seat, (turn.placed, self.geo.striker_y))
            else:  # no legal spot: the stroke is lost
                start = (np.nan, np.nan)
            before = state.strokes
            rep = state.apply(turn.outcome)
            row = _event_row(state, rep, turn, start, before + 1)
            row.update(
                {
                    "index": len(self.events),
                    "game": game,
                    "round": self.board_no,
                    "team": self.side_of[seat] if self.n == 4 else -1,
                }
            )
            self.events.append(row)
            self.strokes[seat] += 1
            self.pocketed[seat] += rep.whites + rep.blacks + rep.queen
            self.fouls[seat] += int(bool(rep.foul))
        self.stuck += state.end == "stuck"
        self.queens[0] += state.queen_pocketed > 0
        self.queens[1] += state.queen_state == "covered"
        return state

    def play_game(self, game: int) -> tuple[int, bool, dict]:
        """One game; returns (winning side or -1, finished, stats)."""
        g = self.rules.game
        scores = [0] * self.n_sides
        boards, extra, capped = 0, 0, False
        while True:
            breaker = self.breaker
            state = self.play_board(game, scores)
            boards += 1
            for s in range(self.n_sides):
                scores[s] += state.points[s]
            winner_seat = -1
            if state.winner_side >= 0:
                winner_seat = min(x for x in range(self.n) if self.side_of[x] == state.winner_side)
            covered_by = state.queen_seat if state.queen_state == "covered" else -1
            for seat in range(self.n):
                side = self.side_of[seat]
                self.rounds.append(
                    {
                        "game": game,
                        "round": self.board_no,
                        "seat": seat,
                        "team": side if self.n == 4 else -1,
                        "side": side,
                        "points": int(state.points[side]),
                        "cumulative": int(scores[side]),
                        "coins_left": state.coins_left(side),
                        "colour": "any" if self.n == 3 else COLOUR_NAMES[state.colour_of_side(side)],
                        "queen_covered_by": int(covered_by),
                        "breaker": int(breaker),
                        "board_winner": int(winner_seat),
                        "won_board": bool(state.winner_side == side),
                        "end": state.end,
                        "strokes": int(state.strokes),
                        "queen_pocketed": int(state.queen_pocketed),
                        "queen_returned": int(state.queen_returned),
                        "fouls": int(state.fouls),
                        "last_coins_early": int(state.last_coins_early),
                    }
                )
            self.breaker = (self.breaker + 1) % self.n
            best = max(scores)
            leaders = [s for s in range(self.n_sides) if scores[s] == best]
            if best >= self.target and len(leaders) == 1:
                return leaders[0], True, {"boards": boards, "capped": False, "extra": extra, "scores": scores}
            if boards >= g.max_boards:
                capped = True
                if len(leaders) == 1:
                    return leaders[0], True, {"boards": boards, "capped": True, "extra": extra, "scores": scores}
                if not self.rules.switches.extra_board_on_tie:
                    return -1, True, {"boards": boards, "capped": True, "extra": extra, "scores": scores}
                if extra >= g.max_extra_boards:
                    return -1, False, {"boards": boards, "capped": capped, "extra": extra, "scores": scores}
                extra += 1

    def play(self) -> MatchLog:
        g = self.rules.game
        need = g.best_of // 2 + 1
        wins = [0] * self.n_sides
        points = [0] * self.n_sides
        games, drawn, capped_games, extra_boards = 0, 0, 0, 0
        finished_all = True
        winner_side = -1
        while games < g.max_games:
            games += 1
            side, finished, stats = self.play_game(games)
            finished_all &= finished
            capped_games += stats["capped"]
            extra_boards += stats["extra"]
            for s in range(self.n_sides):
                points[s] += stats["scores"][s]
            if side < 0:
                drawn += 1
                if g.best_of == 1:
                    break
                continue
            wins[side] += 1
            if wins[side] >= need:
                winner_side = side
                break
        match_finished = finished_all and (winner_side >= 0 or g.best_of == 1)
        return self.log(winner_side, match_finished, games, drawn, capped_games, extra_boards, wins, points)

    def log(self, winner_side, finished, games, drawn, capped_games, extra_boards, wins, points) -> MatchLog:
        teams = self.n == 4
        winner = -1
        if winner_side >= 0:
            winner = min(s for s in range(self.n) if self.side_of[s] == winner_side)
        key = [(wins[self.side_of[s]], points[self.side_of[s]]) for s in range(self.n)]
        players = []
        for s, player in enumerate(self.players):
            side = self.side_of[s]
            rank = 1 + len({self.side_of[t] for t in range(self.n) if key[t] > key[s]})
            players.append(
                {
                    "seat": s,
                    "profile": player.name,
                    "team": side if teams else -1,
                    "score": int(points[side]),
                    "rank": int(rank),
                    "won": bool(winner_side >= 0 and side == winner_side),
                    "games_won": int(wins[side]),
                    "strokes": int(self.strokes[s]),
                    "coins_pocketed": int(self.pocketed[s]),
                    "fouls": int(self.fouls[s]),
                }
            )
        matches = {
            "winner": int(winner),
            "winning_team": int(winner_side) if teams and winner_side >= 0 else -1,
            "rounds": int(self.board_no),
            "finished": bool(finished),
            "draw": bool(winner_side < 0),
            "games": int(games),
            "drawn_games": int(drawn),
            "strokes": int(sum(self.strokes)),
            "stuck_boards": int(self.stuck),
            "capped_games": int(capped_games),
            "extra_boards": int(extra_boards),
            "queens_pocketed": int(self.queens[0]),
            "queens_covered": int(self.queens[1]),
            "fouls": int(sum(self.fouls)),
        }
        return MatchLog(matches=matches, players=players, rounds=self.rounds, events=self.events)


def play_match(
    rules: CarromRules, players: Sequence[Player], seeds: MatchSeeds, resolver: Resolver | None = None
) -> MatchLog:
    """Play one match; pure: the same (rules, players, seeds, resolver) give the same log.

    Args:
        rules: validated rules.
        players: one :class:`~sim.core.Player` per seat (2, 3 or 4), in turn order.
        seeds: seat ``s`` draws only from ``seeds.seat(s)``; the toss from "setup"; due coins
            placed in the outer circle from "chance".
        resolver: how a stroke plays out (default: the physics engine).
    """
    return _Match(rules, players, seeds, resolver).play()
