"""One board of carrom as a state machine: stroke outcomes in, rule consequences out.

:class:`BoardState` holds the coins, whose turn it is, the queen's state, dues owed and the
board result. :meth:`BoardState.apply` takes a :class:`~sim.carrom.rules.board.StrokeOutcome`
(which coins fell, whether the striker fell, whether it touched a coin, where the coins
stopped) and applies the rules (the publisher's sheet "Carrom — Billard indien", the ICF Laws,
and the defaults listed in ``rules.toml``) under the effective switches
(:attr:`CarromRules.switches`). It never calls the physics, so tests script outcomes
directly; the match loop feeds it the engine's outcomes.

Sides: singles, side = seat (seat 0 vs 1); doubles, side = seat % 2 (partners opposite);
three players, side = seat (each for themselves, every coin fair game). Coin ids: see
:func:`sim.carrom.rules.board.formation` (the queen is id 0).

Decisions where the rules are silent (those tied to a switch are also in rules.toml):

* A queen with no own coin left to cover it counts as covered (nothing can cover it); a
  queen that is the last disc on the board may always be pocketed (three players).
* A pocketed striker never scores the queen: a queen pocketed or waiting for its cover in
  that stroke goes back to the centre (ICF 100-101, applied to both rule sets).
* A queen still waiting for its cover when the turn ends (e.g. an opponent's coin ended it)
  goes back to the centre.
* A due is paid with the coin the player likes least to lose: three players pay with a
  black (lowest value) first.
* "An own coin on the previous stroke" (family queen rule) means the previous stroke of the
  same turn: it is forgotten when the turn passes.
* A stroke that pockets the striker never counts as the own coin before the queen.
* Family rules, a last coin pocketed while the queen is not covered (``last_coin.before_queen``):
  it stays down ("stays_down", default: the seed ends a board when a player has all their
  coins in and the queen is in, in any order): the player plays again, may pocket the queen
  on any stroke (confirmed: nothing is left to confirm it with), and the board ends when the
  queen is down; if both sides have cleared, the side that pockets it wins. Or it comes back
  to the centre and the player plays again, the queen allowed on that next stroke
  ("replay"), or the turn ends ("end_turn"; "end_turn_unlock": the queen allowed on the
  player's next stroke, after the opponents' turn).
* A failed break try (the striker touched nothing) with ``break_retries`` leaves the
  formation untouched and is replayed; after ``game.break_tries`` failures the next seat
  breaks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .board import BLACK, N_COINS, QUEEN, WHITE, StrokeOutcome, formation, geometry, side_quarter
from .schema import CarromRules

__all__ = ["BoardState", "StrokeReport", "QUEEN_ID", "sides_for"]

QUEEN_ID = 0


def sides_for(n_seats: int) -> tuple[int, ...]:
    """Side of each seat: doubles 0, 1, 0, 1 (partners opposite); otherwise the seat."""
    if n_seats == 4:
        return tuple(s % 2 for s in range(4))
    return tuple(range(n_seats))


@dataclass
class StrokeReport:
    """What one stroke did under the rules (one row of the events table).

    Attributes:
        seat, side: who played.
        is_break: the board's break stroke (or a break try).
        whites, blacks, queen: coins of each colour pocketed in the stroke.
        pocketed: (coin id, colour, board pocket) of each coin that fell.
        striker_pocketed: the striker fell.
        queen_event: "" | "pocketed" (waiting for a cover) | "covered" | "returned" | "pocketed+covered".
        dues: dues incurred (0 or 1); due_coins: coins returned to the board for dues.
        returned: coins (queen included) put back on the board after the stroke.
        foul: "" | "striker" | "queen_early" | "last_coin" | "opponent_last_coin" | "break_miss".
        continues: the same seat plays again.
        board_over: the stroke ended the board.
    """

    seat: int
    side: int
    is_break: bool = False
    whites: int = 0
    blacks: int = 0
    queen: int = 0
    pocketed: list = field(default_factory=list)
    striker_pocketed: bool = False
    queen_event: str = ""
    dues: int = 0
    due_coins: int = 0
    returned: int = 0
    foul: str = ""
    continues: bool = False
    board_over: bool = False


class BoardState:
    """The state of one board and the rules that move it.

    Args:
        rules: validated rules.
        n_seats: 2, 3 or 4.
        breaker: the seat that breaks (and plays first).
        scores: each side's game score before this board (the queen bonus and late
            penalties depend on it).
        rng: the match's "chance" generator (due coins placed in the outer circle).
        white_side: the side playing white (2 and 4 players; None: decided by the rules —
            the breaker's side with ``breaker_plays_white``, else side 0).
        layout: optional (pos (19, 2), colour (19,)) instead of the break formation (tests,
            practice positions); ``break_pending`` is then False.
    """

    def __init__(
        self,
        rules: CarromRules,
        n_seats: int,
        breaker: int,
        scores=None,
        rng: np.random.Generator | None = None,
        white_side: int | None = None,
        layout: tuple[np.ndarray, np.ndarray] | None = None,
    ):
        self.rules = rules
        self.sw = rules.switches
        self.geo = geometry(rules)
        self.n_seats = n_seats
        self.three = n_seats == 3
        self.side_of = sides_for(n_seats)
        self.n_sides = 3 if self.three else 2
        self.scores = list(scores) if scores is not None else [0] * self.n_sides
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.breaker = breaker
        if white_side is None:
            white_side = self.side_of[breaker] if self.sw.breaker_plays_white else 0
        self.white_side = white_side
        if layout is None:
            self.pos, self.colour = formation(rules, side_quarter(n_seats, breaker))
            self.break_pending = True
        else:
            self.pos = np.array(layout[0], dtype=float).copy()
            self.colour = np.array(layout[1], dtype=np.int64).copy()
            self.break_pending = False
        self._side_masks, self._not_queen = self._colour_masks()
        self.on = np.ones(N_COINS, dtype=bool)
        self.credit = np.full(N_COINS, -1, dtype=np.int64)  # side credited for a pocketed coin
        self.queen_state = "board"  # "board" | "pending" | "covered"
        self.queen_seat = -1  # seat waiting to cover, then the seat that covered
        self.owed = [0] * self.n_sides
        self.prev_own = [False] * n_seats  # an own coin on the seat's previous stroke, this turn
        self.queen_ticket = [False] * n_seats  # last_coin.before_queen = "end_turn_unlock"
        self.turn = breaker
        self.strokes = 0
        self.break_fails = 0
        self.over = False
        self.end = ""  # "cleared" | "last_coin" | "opponent_last_coin" | "stuck"
        self.winner_side = -1
        self.points = [0] * self.n_sides
        # per-board tallies
        self.queen_pocketed = 0
        self.queen_returned = 0
        self.fouls = 0
        self.last_coins_early = 0  # family: last coins pocketed before the queen was covered

    # ------------------------------------------------------------------ who owns what
    def _colour_masks(self) -> tuple[list[np.ndarray], np.ndarray]:
        """Each side's own coins and the coins that are not the queen, (19,) read-only masks
        made once (the colours and sides do not change during a board)."""
        not_queen = self.colour != QUEEN
        if self.three:
            sides = [not_queen] * self.n_sides
        else:
            sides = [self.colour == self.colour_of_side(side) for side in range(self.n_sides)]
        for mask in [*sides, not_queen]:
            mask.setflags(write=False)
        return sides, not_queen

    def colour_of_side(self, side: int) -> int:
        """WHITE or BLACK (2 and 4 players)."""
        return WHITE if side == self.white_side else BLACK

    def own_mask(self, seat: int) -> np.ndarray:
        """(19,) coins that count as the seat's own (three players: every coin but the queen);
        read-only."""
        return self._side_masks[self.side_of[seat]]

    def opp_mask(self, seat: int) -> np.ndarray:
        """(19,) the opponents' coins (none with three players)."""
        if self.three:
            return np.zeros(N_COINS, dtype=bool)
        return self._side_masks[1 - self.side_of[seat]]

    def coins_left(self, side: int) -> int:
        """Own coins of a side still on the board (three players: all coins but the queen)."""
        return int(np.count_nonzero(self.on & self._side_masks[side]))

    def own_down(self, seat: int) -> int:
        """Own coins already pocketed (ICF "own C/m down"); three players: coins this seat
        has pocketed and kept."""
        if self.three:
            return int(np.count_nonzero(~self.on & (self.credit == seat) & (self.colour != QUEEN)))
        return int(np.count_nonzero(~self.on & self.own_mask(seat)))

    def coin_value(self, coin: int) -> int:
        """Points of a coin with three players."""
        t = self.rules.three_players
        return {WHITE: t.white_points, BLACK: t.black_points, QUEEN: t.queen_points}[int(self.colour[coin])]

    def queen_allowed(self, seat: int) -> bool:
        """Could ``seat`` pocket the queen legally now, without an own coin in the same stroke?"""
        if self.only_queen_left():
            return True
        if self.sw.due_outstanding and self.owed[self.side_of[seat]] > 0:
            return False
        return self.queen_prior(seat)

    def queen_prior(self, seat: int) -> bool:
        """The own coin the queen needs before it: ICF, any own coin down; family, an own coin
        on the seat's previous stroke of this turn (or the "end_turn_unlock" credit)."""
        if self.sw.queen_needs_own_first:
            return self.own_down(seat) > 0
        if self.prev_own[seat] or self.queen_ticket[seat]:
            return True
        # "stays_down": a player with no coin left cannot have one on the previous stroke
        return (
            self.rules.last_coin.before_queen == "stays_down"
            and not self.three
            and self.coins_left(self.side_of[seat]) == 0
        )

    def only_queen_left(self) -> bool:
        return bool(self.on[QUEEN_ID] and np.count_nonzero(self.on) == 1)

    def next_seat(self, seat: int) -> int:
        """The seat on the right (anticlockwise), who plays when the turn passes."""
        return (seat + 1) % self.n_seats

    # ------------------------------------------------------------------ placing coins back
    def _others(self, coin: int) -> np.ndarray:
        mask = self.on.copy()
        mask[coin] = False
        return self.pos[mask]

    def _return(self, coin: int, where: str) -> None:
        """Put a pocketed coin back: "centre" (nearest free spot to the centre) or "due"."""
        others = self._others(coin)
        if where == "due" and self.sw.due_in_outer_circle:
            spot = self.geo.random_spot(self.rules.board.outer_circle_diameter / 2, others, self.rng)
        else:
            spot = self.geo.free_spot((0.0, 0.0), others)
        self.pos[coin] = spot
        self.on[coin] = True
        self.credit[coin] = -1

    # ------------------------------------------------------------------ the rules
    def apply(self, outcome: StrokeOutcome) -> StrokeReport:
        """Apply one stroke of the seat whose turn it is; returns what happened."""
        if self.over:
            raise RuntimeError("the board is over")
        seat = self.turn
        side = self.side_of[seat]
        rep = StrokeReport(seat=seat, side=side, is_break=self.break_pending)
        self.strokes += 1
        if self.break_pending:
            if self._break_missed(outcome, rep):
                return rep
            self.break_pending = False
        prior = self.queen_prior(seat)  # before the stroke
        self.queen_ticket[seat] = False  # used (or lost) by this stroke
        fell = self._take_pocketed(outcome, rep)
        queen_in = QUEEN_ID in fell
        own_mask, opp_mask = self.own_mask(seat), self.opp_mask(seat)
        own = [c for c in fell if own_mask[c]]
        opp = [c for c in fell if opp_mask[c]]
        for c in own:
            self.credit[c] = seat if self.three else side
        for c in opp:
            self.credit[c] = 1 - side
        self.queen_pocketed += queen_in
        returns: list[tuple[int, str]] = []
        rep.striker_pocketed = outcome.striker_pocketed
        if outcome.striker_pocketed and self.sw.dues:
            continues, effective = self._striker_due(seat, own, opp, queen_in, rep, returns)
        else:
            continues, effective = self._clean_stroke(seat, fell, own, opp, prior, rep, returns)
        self.prev_own[seat] = effective >= 1
        for coin, place in returns:
            self._return(coin, place)
        rep.returned = len(returns)
        return self._close_stroke(seat, own, opp, rep, continues)

    # ------------------------------------------------------------------ helpers of apply
    def _break_missed(self, outcome: StrokeOutcome, rep: StrokeReport) -> bool:
        """A break try that touched nothing, with ``break_retries``: replayed, or after
        ``game.break_tries`` failures the next seat breaks. True if so (the stroke is done)."""
        if outcome.touched or not self.sw.break_retries:
            return False
        seat = rep.seat
        self.break_fails += 1
        rep.foul = "break_miss"
        if self.break_fails >= self.rules.game.break_tries:
            self.break_fails = 0
            self.turn = self.next_seat(seat)
        rep.continues = self.turn == seat
        self._check_stuck(rep)
        return True

    def _take_pocketed(self, outcome: StrokeOutcome, rep: StrokeReport) -> list[int]:
        """Move the coins where they stopped; take off the ones that fell (returned, in order)."""
        if outcome.final_pos is not None:
            np.copyto(self.pos, np.asarray(outcome.final_pos, dtype=float), where=self.on[:, None])
        if not outcome.pocketed:  # most strokes: nothing fell (the report's counts stay 0)
            return []
        fell = [c for c in outcome.pocketed if self.on[c]]
        pockets = list(outcome.pockets) + [-1] * (len(outcome.pocketed) - len(outcome.pockets))
        where = dict(zip(outcome.pocketed, pockets, strict=True))
        for c in fell:
            self.on[c] = False
            rep.pocketed.append((int(c), int(self.colour[c]), int(where.get(c, -1))))
        rep.whites = sum(1 for c in fell if self.colour[c] == WHITE)
        rep.blacks = sum(1 for c in fell if self.colour[c] == BLACK)
        rep.queen = int(QUEEN_ID in fell)
        return fell

    def _striker_due(
        self, seat: int, own: list[int], opp: list[int], queen_in: bool, rep: StrokeReport, returns: list
    ) -> tuple[bool, int]:
        """The striker fell (``rules.dues``): the queen back, the due paid or owed.
        Returns (the turn continues, own coins that count: always 0)."""
        sw, side = self.sw, self.side_of[seat]
        rep.foul, rep.dues = "striker", 1
        if queen_in or self.queen_state == "pending":
            returns.append((QUEEN_ID, "centre"))
            self._drop_queen()
            rep.queen_event = "returned"
        if sw.due_returns_stroke_coins:
            returns += [(c, "due") for c in own]
        payer = self._due_coin(seat, exclude={c for c, _ in returns})
        if payer >= 0:
            returns.append((payer, "due"))
            rep.due_coins = 1
        elif sw.due_outstanding:
            self.owed[side] += 1
        continues = sw.due_keeps_turn_with_own and len(own) > 0
        if opp and sw.opponent_coin_ends_turn:
            continues = False
        return continues, 0

    def _clean_stroke(
        self, seat: int, fell: list[int], own: list[int], opp: list[int], prior: bool, rep: StrokeReport, returns: list
    ) -> tuple[bool, int]:
        """No due: outstanding dues paid, the pending queen covered or returned, a queen that
        fell judged. Returns (the turn continues, own coins that count for the queen)."""
        side = self.side_of[seat]
        kept_own = list(own)
        owed = self.owed[side]
        if owed and own:
            pay = min(owed, len(own))
            for c in own[-pay:]:
                returns.append((c, "due"))
                kept_own.remove(c)
            self.owed[side] -= pay
            rep.due_coins = pay
        effective = len(kept_own)
        if self.queen_state == "pending" and self.queen_seat == seat:
            if effective >= 1:
                self.queen_state = "covered"
                rep.queen_event = "covered"
            else:
                returns.append((QUEEN_ID, "centre"))
                self._drop_queen()
                rep.queen_event = "returned"
        continues = bool(own) or QUEEN_ID in fell
        if QUEEN_ID in fell:
            continues = self._queen_fell(seat, fell, prior, effective, rep, returns, continues)
        if opp and self.sw.opponent_coin_ends_turn:
            continues = False
        return continues, effective

    def _queen_fell(
        self, seat: int, fell: list[int], prior: bool, effective: int, rep: StrokeReport, returns: list, continues: bool
    ) -> bool:
        """The queen fell without a due: returned if not allowed, else covered or pending."""
        sw, side = self.sw, self.side_of[seat]
        alone = fell == [QUEEN_ID] and not self.on.any()  # the last disc on the board
        blocked = sw.due_outstanding and self.owed[side] > 0
        if not (alone or ((prior or effective >= 1) and not blocked)):
            returns.append((QUEEN_ID, "centre"))
            self._drop_queen()
            rep.queen_event = "returned"
            rep.foul = "queen_early"
            return continues and not sw.ineligible_queen_loses_turn
        cover_now = sw.cover_same_stroke and ((prior and effective >= 1) or effective >= 2)
        nothing_to_cover = self._own_left_after(seat, returns) == 0
        self.queen_seat = seat
        if cover_now or nothing_to_cover or alone:
            self.queen_state = "covered"
            rep.queen_event = "pocketed+covered"
        else:
            self.queen_state = "pending"
            rep.queen_event = "pocketed"
        return continues

    def _close_stroke(
        self, seat: int, own: list[int], opp: list[int], rep: StrokeReport, continues: bool
    ) -> StrokeReport:
        """Last coins, the board's end, a pending queen left at the turn's end, whose turn."""
        if not self.three:
            continues = self._last_coin_rules(seat, self.side_of[seat], own, opp, rep, continues)
        if not self.over:
            self._check_board_end(seat, rep)
        if not self.over and not continues and self.queen_state == "pending":
            self._return(QUEEN_ID, "centre")
            self._drop_queen()
            rep.queen_event = "returned"
            rep.returned += 1
        if rep.queen_event == "returned":
            self.queen_returned += 1
        if rep.foul:
            self.fouls += 1
        rep.continues = bool(continues) and not self.over
        if not self.over and not rep.continues:
            self.prev_own[seat] = False  # "à son coup précédent": within the turn only
            self.turn = self.next_seat(seat)
        self._check_stuck(rep)
        rep.board_over = self.over
        return rep

    def _drop_queen(self) -> None:
        self.queen_state = "board"
        self.queen_seat = -1

    def _own_left_after(self, seat: int, returns) -> int:
        back = {c for c, _ in returns}
        mask = self.own_mask(seat)
        return int(np.sum(mask & (self.on | np.isin(np.arange(N_COINS), list(back)))))

    def _due_coin(self, seat: int, exclude: set[int]) -> int:
        """The pocketed coin that pays a due, or -1 if the seat's side has none."""
        side = self.side_of[seat]
        if self.three:
            cands = [
                c
                for c in range(N_COINS)
                if not self.on[c] and self.credit[c] == seat and self.colour[c] != QUEEN and c not in exclude
            ]
            cands.sort(key=lambda c: (self.coin_value(c), c))
        else:
            mask = self.own_mask(seat)
            cands = [c for c in range(N_COINS) if not self.on[c] and mask[c] and c not in exclude]
            # prefer a coin the side pocketed itself, then the latest id: deterministic
            cands.sort(key=lambda c: (self.credit[c] != side, c))
        return cands[0] if cands else -1

    def _last_coin_rules(
        self, seat: int, side: int, own: list[int], opp: list[int], rep: StrokeReport, continues: bool
    ) -> bool:
        """ICF 106-107 or the family fallback when a side's last coin falls."""
        sw = self.sw
        other = 1 - side
        settled = self.queen_state == "covered"
        if own and self.coins_left(side) == 0 and not settled:
            if sw.last_coin_before_queen_penalty:
                rep.foul = "last_coin"
                late = self.scores[other] >= self.rules.scoring.queen_bonus_below
                pts = self.rules.scoring.last_coin_penalty_late if late else self.rules.scoring.last_coin_penalty
                self._finish(other, pts, "last_coin")
            else:  # last_coin.before_queen says what follows
                self.last_coins_early += 1
                mode = self.rules.last_coin.before_queen
                if mode != "stays_down":  # back to the centre: the queen must come first
                    self._return(own[-1], "centre")
                    rep.returned += 1
                if mode in ("end_turn", "end_turn_unlock"):  # else the turn goes on
                    continues = False
                    self.queen_ticket[seat] = mode == "end_turn_unlock"
        if not self.over and opp and self.coins_left(other) == 0:
            if sw.opponent_last_coin_penalty:
                rep.foul = "opponent_last_coin"
                pts = self.coins_left(side)
                if (
                    not (settled and self.side_of[self.queen_seat] == side)
                    and self.scores[other] < self.rules.scoring.queen_bonus_below
                ):
                    pts += self.rules.scoring.queen_points
                self._finish(other, pts, "opponent_last_coin")
            elif not settled:
                self._return(opp[-1], "centre")
                rep.returned += 1
        return continues

    def _check_board_end(self, seat: int, rep: StrokeReport) -> None:
        if self.three:
            if not self.on.any() and self.queen_state == "covered":
                pts = [0] * self.n_sides
                for c in range(N_COINS):
                    if c == QUEEN_ID:
                        pts[self.queen_seat] += self.coin_value(c)
                    elif self.credit[c] >= 0:
                        pts[self.credit[c]] += self.coin_value(c)
                self.points = pts
                best = max(pts)
                leaders = [s for s in range(3) if pts[s] == best]
                self.winner_side = leaders[0] if len(leaders) == 1 else -1
                self.over, self.end = True, "cleared"
            return
        if self.queen_state != "covered":
            return
        side = self.side_of[seat]
        for s in (side, 1 - side):  # the shooter's side first if both are cleared
            if self.coins_left(s) == 0:
                sc = self.rules.scoring
                pts = self.coins_left(1 - s)
                if self.side_of[self.queen_seat] == s and self.scores[s] < sc.queen_bonus_below:
                    pts += sc.queen_points
                self._finish(s, pts, "cleared")
                return

    def _finish(self, winner_side: int, points: int, end: str) -> None:
        points = min(points, self.rules.scoring.max_board_points)
        self.points = [0] * self.n_sides
        self.points[winner_side] = points
        self.winner_side = winner_side
        self.over, self.end = True, end

    def _check_stuck(self, rep: StrokeReport) -> None:
        if not self.over and self.strokes >= self.rules.game.max_strokes_per_board:
            self.over, self.end = True, "stuck"
            self.points = [0] * self.n_sides
            self.winner_side = -1
        rep.board_over = self.over

    # ------------------------------------------------------------------ views
    def coins_on_board(self) -> int:
        return int(self.on.sum())

    def accounted(self) -> int:
        """Coins on the board + coins pocketed (always 19)."""
        return int(self.on.sum() + (~self.on).sum())
