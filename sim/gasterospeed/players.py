"""Simulated players: ``random``, ``greedy``, ``tactician`` and a temperature between them.

A policy answers the race engine's questions, each with the :class:`~sim.gasterospeed.race.View`
of its seat (public information and its own hand only) and a list of legal options, by
returning the index of its choice:

========================  ===========================================================
``place``                 which free start slot
``commit``                how many reserve shells to commit (stable-reserve variant)
``speed_card``            which card to place face down: play a speed card, or discard a card
``speed_move``            where the speed move ends (or ``SACRIFICE``)
``action_card``           which card to place: play an action card, or discard a card
``move_choice``           which direction / square within an action card's freedom
``target``                which snail to shoot
``react``                 whether to counter (a loss of shells, a jostle), and with which reaction
``draw_piles``            which piles to draw from (free-draws variant)
``discard``               which cards to discard when one of two snails is lost
========================  ===========================================================

* ``random``: uniform over the legal options.
* ``greedy``: the option that leaves its own snail closest to the finish now (ties at random;
  a discard instead of a speed move only when every move would leave it farther); it counters a
  loss only when the loss would knock it out, and a jostle only when it would push it farther
  from the finish.
* ``tactician``: scores every option in "squares" (one square of progress = 1): its own
  distance, opponents' distances (jostles, KOs), shell safety, hand quality. It plans the turn
  (a speed card and the end of its move are chosen with the best action they then allow, e.g.
  a clear lane for Rouler Bouler or a square behind a snail for an Aspiration), plays its
  slowest card among equals so that it moves last (it blocks bottlenecks meanwhile and sees
  where the others went) but its fastest when it can cross the line, predicts the moves of
  the slower snails from their revealed cards, likes to stand straight in front of opponents
  whose jostling cards would push it ahead (the chance they hold one is inferred from the
  cards not seen yet), shoots or dominoes the snails that matter most (knock-outs of the
  leaders first) weighing the reactions it can infer opponents hold, keeps its reactions for
  losses and jostles that matter (a counter must be worth more, in squares, than keeping the
  card), discards instead of a speed move only when every move would leave it farther from the
  finish, and commits reserve shells by circuit danger.
* ``temperature`` T > 0 (greedy or tactician) samples ``softmax(score / T)`` instead of taking
  the best: T = 0 plays its best, large T approaches uniform play over the same options.

Randomness comes only from the seat's own :class:`~sim.gasterospeed.cards.Dice`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from sim.core.config import param

from .board import FINISHED, RUNNING, Board
from .cards import ACTION, REACTION, SPEED, Dice
from .race import NO_REACTION, SACRIFICE, View

__all__ = ["Profile", "make_policy", "RandomPolicy", "GreedyPolicy", "TacticianPolicy",
           "move_outcomes"]


@dataclass(frozen=True)
class Profile:
    """A simulated player's skill."""

    kind: Literal["random", "greedy", "tactician"] = param(
        "tactician", doc="decision rule: uniform legal choices, best distance now, or tactics")
    temperature: float = param(0.0, min=0.0, max=1000.0, unit="squares",
                               doc="softmax temperature over the greedy or tactician scores (0: always the best)")
    aggression: float = param(1.0, min=0.0, max=5.0,
                              doc="tactician: weight of opponents' setbacks and losses against its own progress")


def make_policy(profile: Profile, dice: Dice):
    """The policy object of a profile, drawing from the seat's ``dice``."""
    cls = {"random": RandomPolicy, "greedy": GreedyPolicy, "tactician": TacticianPolicy}[profile.kind]
    return cls(profile, dice)


# ----------------------------------------------------------------------------------------------
# Simulating a card's movement on a copy of the public board
# ----------------------------------------------------------------------------------------------

def _apply_move(board: Board, s: int, eff, d: int) -> Board | None:
    """A copy of ``board`` after snail ``s`` makes move ``eff`` in direction ``d`` (None if it
    cannot move at all). ``free`` moves take their best end for the caller's ranking later."""
    after = board.copy()
    if eff.path == "straight":
        return after if after.straight(s, d, eff.squares, eff.jostle) > 0 else None
    if eff.path == "leap":
        return after if after.leap(s, d, eff.squares, eff.jostle) else None
    raise ValueError("free moves are handled by their ends")


def move_outcomes(board: Board, s: int, info, eff, value) -> list[tuple[float, Board | None]]:
    """(probability, board after) of a move effect, the direction chosen by ``value(board)``
    when the card lets the player choose, rolled on the card's table otherwise. A branch whose
    move is impossible (or whose condition is not met) has None: the card is lost there."""
    if board.status[s] != RUNNING:
        return [(1.0, board)]
    if eff.condition == "behind" and not board.behind_another(s):
        return [(1.0, None)]
    if eff.roll:
        table = info.direction_table
        out = []
        for dash in table:
            d = board.abs_dir(s, dash)
            if eff.path == "free":
                ends = board.speed_ends(s, eff.squares, frozenset((d,)))
                after = _best_end(board, s, ends, value)
            else:
                after = _apply_move(board, s, eff, d)
            out.append((1.0 / len(table), after))
        return out
    if eff.path == "free":
        dirs = frozenset(board.abs_dir(s, k) for k in eff.directions)
        return [(1.0, _best_end(board, s, board.speed_ends(s, eff.squares, dirs), value))]
    best, best_v = None, -math.inf
    for d in dict.fromkeys(board.abs_dir(s, k) for k in eff.directions):
        after = _apply_move(board, s, eff, d)
        if after is not None:
            v = value(after)
            if v > best_v:
                best, best_v = after, v
    return [(1.0, best)]


def _best_end(board: Board, s: int, ends: list[int], value) -> Board | None:
    best, best_v = None, -math.inf
    for end in ends:
        after = board.copy()
        after.enter(s, end)
        v = value(after)
        if v > best_v:
            best, best_v = after, v
    return best


# ----------------------------------------------------------------------------------------------
# Policies
# ----------------------------------------------------------------------------------------------

class RandomPolicy:
    """Uniform over the legal options of every decision."""

    wants_board = False

    def __init__(self, profile: Profile, dice: Dice):
        self.profile = profile
        self.dice = dice

    def place(self, view: View, s: int, slots: list[int]) -> int:
        return self.dice.index(len(slots))

    def commit(self, view: View, reserve: int, low: int, high: int) -> int:
        return low + self.dice.index(high - low + 1)

    def speed_card(self, view: View, s: int, options: list[tuple[int, bool]]) -> int:
        return self.dice.index(len(options))

    def speed_move(self, view: View, s: int, uid: int, ends: list[int]) -> int:
        return self.dice.index(len(ends))

    def action_card(self, view: View, s: int, options: list[tuple[int, bool]]) -> int:
        return self.dice.index(len(options))

    def move_choice(self, view: View, s: int, uid: int, options: list) -> int:
        return self.dice.index(len(options))

    def target(self, view: View, s: int, uid: int, targets: list[int]) -> int:
        return self.dice.index(len(targets))

    def react(self, view: View, s: int, source, cause: str, options: list[int]) -> int:
        return self.dice.index(len(options))

    def draw_piles(self, view: View, n: int) -> list[int]:
        return [self.dice.index(2) for _ in range(n)]

    def discard(self, view: View, n: int) -> list[int]:
        order = list(range(len(view.hand)))
        self.dice.shuffle(order)
        return order[:n]


class _Scoring:
    """Shared machinery: pick the best score (ties at random) or sample a softmax."""

    wants_board = True

    def __init__(self, profile: Profile, dice: Dice):
        self.profile = profile
        self.dice = dice
        self.temperature = profile.temperature

    def pick(self, scores: list[float]) -> int:
        if len(scores) == 1:
            return 0
        if self.temperature > 0:
            top = max(scores)
            weights = [math.exp((x - top) / self.temperature) for x in scores]
            r = self.dice.u() * sum(weights)
            for i, w in enumerate(weights):
                r -= w
                if r < 0:
                    return i
            return len(scores) - 1
        top = max(scores)
        best = [i for i, x in enumerate(scores) if x >= top - 1e-9]
        return best[0] if len(best) == 1 else best[self.dice.index(len(best))]

    @staticmethod
    def _speed_target(view: View) -> int:
        per = len(view.snails)
        return max(1, (view.config.hand_size + 1) // 2) + (1 if per == 2 else 0)

    def draw_piles(self, view: View, n: int) -> list[int]:
        """Speed cards until the hand holds about half of them, then action cards."""
        n_speed = sum(1 for u in view.hand if view.deck.kind[u] == SPEED)
        out = []
        for _ in range(n):
            pile = 0 if n_speed < self._speed_target(view) else 1
            n_speed += pile == 0
            out.append(pile)
        return out

    def commit(self, view: View, reserve: int, low: int, high: int) -> int:
        """An even share of the reserve over the races left (this one included)."""
        races = max(1, view.races_left)
        keep = races - 1
        return max(low, min(high, reserve - keep, round(reserve / races)))


class GreedyPolicy(_Scoring):
    """Best own distance to the finish now; counters a loss only when it would knock it out."""

    @staticmethod
    def _dist(board: Board, s: int) -> float:
        st = board.status[s]
        if st == RUNNING:
            return board.c.dist[board.pos[s]]
        return -1.0 if st == FINISHED else 1e6

    def place(self, view: View, s: int, slots: list[int]) -> int:
        dist = view.circuit.dist
        return self.pick([-dist[c] for c in slots])

    def speed_card(self, view: View, s: int, options: list[tuple[int, bool]]) -> int:
        """The card whose move ends nearest the finish; a discard (which card: at random) only
        when every move would leave the snail farther than it is."""
        board, deck = view.board, view.deck
        dist = board.c.dist
        here = dist[board.pos[s]]
        best_by_squares: dict[int, float] = {}
        plays, discards = [], []
        for i, (u, discard) in enumerate(options):
            if discard:
                discards.append(i)
                continue
            sq = deck.squares[u]
            if sq not in best_by_squares:
                ends = board.speed_ends(s, sq)
                best_by_squares[sq] = min((dist[e] for e in ends), default=here)
            plays.append((i, -best_by_squares[sq]))
        if discards and max(score for _, score in plays) < -here:
            return discards[self.dice.index(len(discards))]
        return plays[self.pick([score for _, score in plays])][0]

    def speed_move(self, view: View, s: int, uid: int, ends: list[int]) -> int:
        dist = view.board.c.dist
        here = dist[view.board.pos[s]]
        return self.pick([-(here if e == SACRIFICE else dist[e]) for e in ends])

    def action_card(self, view: View, s: int, options: list[tuple[int, bool]]) -> int:
        board, deck = view.board, view.deck
        here = self._dist(board, s)
        cache: dict[str, float] = {}
        scores = []
        for uid, discard in options:
            if discard:
                scores.append(-here)
                continue
            cid = deck.cid[uid]
            if cid not in cache:
                cache[cid] = -self._expected_dist(board, s, deck.cards[uid])
            scores.append(cache[cid])
        return self.pick(scores)

    def _expected_dist(self, board: Board, s: int, info) -> float:
        def value(b: Board) -> float:
            return -self._dist(b, s)

        boards = [(1.0, board)]
        for eff in info.effects:
            if eff.op != "move":
                continue
            boards = [(p * q, b2 if b2 is not None else board) for p, b in boards
                      for q, b2 in move_outcomes(b, s, info, eff, value)]
        return sum(p * self._dist(b, s) for p, b in boards)

    def move_choice(self, view: View, s: int, uid: int, options: list) -> int:
        return self.pick([-self._dist(after, s) for _, after in options])

    def target(self, view: View, s: int, uid: int, targets: list[int]) -> int:
        return self.dice.index(len(targets))

    def react(self, view: View, s: int, source, cause: str, options: list[int]) -> int:
        """A loss: counter only when it would knock it out. A jostle: counter only when the push
        would leave it farther from the finish (the counter that leaves it nearest)."""
        if cause == "jostle":
            stakes = view.stakes
            deck = view.deck
            taken = self._dist(stakes["none"], s)
            scores = [-taken] + [-self._dist(stakes[deck.cards[u].counter("jostle")], s) for u in options[1:]]
            if max(scores[1:]) <= -taken:
                return 0
            return 1 + self.pick(scores[1:])
        if view.board.shells[s] <= 1:
            return 1 + self.dice.index(len(options) - 1)
        return 0

    def discard(self, view: View, n: int) -> list[int]:
        order = list(range(len(view.hand)))
        self.dice.shuffle(order)
        return order[:n]


# The tactician's tuning (in squares unless said otherwise), set by measurement against greedy
# players (see the report); the profile's temperature and aggression act on top of these.
_HAND_DISCOUNT = 0.8      # share of a card's worth in hand weighed against playing it now
_HORIZON = 8.0            # within this many squares of the finish the hand's future counts less
_LAST_SPEED_WORTH = 3.0   # worth of the last speed card of each snail: kept
_PLAN_ENDS = 5            # speed-move ends whose action phase is planned (the best ones)
_SLOW_BIAS = 0.002        # per speed number: among equal plans the slowest card (moves last)
_SHELL1 = 2.0             # effective distance added with 1 shell left (KO risk)
_SHELL2 = 0.6             # ... with 2 shells left
_LAMBDA = 0.7             # weight of an opponent's distance (times the profile's aggression)
_NEAR = 4.0               # opponents less than this far behind it count fully, the others 30 %
_FINISH_RACE = 1.0        # per opponent near the line: bonus for crossing it earlier in the turn
_TAIL = 0.5               # weight of the expected push ahead by opponents' jostles (tailwind)
_NO_PUSH = (0.0, 0.0, 0.0, 0.0)
#: Reaction effects that cancel what they counter / that send it back to the other player.
_CANCELS = ("cancel", "stop", "block")
_SENDS_BACK = ("reflect", "return", "reverse")


def card_worth(info) -> float:
    """A card's worth in hand, in squares: what it typically brings when played later."""
    if info.kind == SPEED:
        return 0.45 + 0.55 * (info.squares - 1)
    if info.kind == REACTION:
        return 0.6
    worth = 0.0
    for eff in info.effects:
        if eff.op == "move":
            factor = 0.3 if eff.roll else (0.6 if eff.path == "free" else 0.85)
            worth += eff.squares * factor * (0.45 if eff.condition == "behind" else 1.0)
        elif eff.op == "shell":
            share = len(eff.faces) / 6.0 if eff.faces else 1.0
            worth += (0.3 if eff.amount > 0 else 0.15) * eff.amount * share
        else:
            worth += 0.35
    return worth


class TacticianPolicy(_Scoring):
    """Scores options in squares from what it can infer; see the module docstring.

    It plans the turn: a speed card and the square where its move ends are scored together
    with the best action its hand then allows from there (a clear lane for a straight move,
    a square behind a snail for an Aspiration, ...); moving last (slowest card among equals)
    lets it see where the others went before it moves.
    """

    def __init__(self, profile: Profile, dice: Dice):
        super().__init__(profile, dice)
        self.aggression = profile.aggression
        self._weights: list[float] = []
        self._cap = 0.0
        self._worth_cache: dict[str, float] = {}
        self._threat = 0
        self._snails = 1
        self._disc = _HAND_DISCOUNT
        self._shell_mode = False
        self._jostlers: dict[int, dict] = {}
        self._push_by: dict[int, list[float]] = {}
        self._push_key: tuple = ()
        self._squares_cache: dict[int, dict[int, int]] = {}
        self._avg_worth: float | None = None

    # -- evaluation ------------------------------------------------------------------------
    def value(self, board: Board, seat: int) -> float:
        """The seat's standing in squares: minus its snails' effective distances, plus the
        opponents' effective distances weighted by where they stood when the decision began
        (:meth:`_anchor`): those ahead of or close to it count fully, the others little."""
        eff = self._effective(board)
        owner = board.owner
        total = 0.0
        weights = self._weights
        cap = self._cap
        for s in range(len(eff)):
            if owner[s] == seat:
                total -= eff[s]
                if _TAIL and board.status[s] == RUNNING:
                    total += _TAIL * self._tailwind(board, s, seat)
            else:
                e = eff[s]
                total += weights[s] * (e if e < cap else cap)
        return total

    def _tailwind(self, board: Board, s: int, seat: int) -> float:
        """Squares ``s`` can expect to be pushed ahead by a snail of another seat straight behind
        it (1 to 3 squares, nothing between) playing a jostling move forward: the chance it
        holds such a card (inferred from the unseen cards) times the push."""
        c, occ = board.c, board.occ
        p = board.pos[s]
        back = (c.front[p] + 4) % 8
        nb, kind = c.nb, c.kind
        cur = p
        for k in (1, 2, 3):
            cur = nb[cur][back]
            if cur < 0 or kind[cur] > 2:
                return 0.0
            o = occ[cur]
            if o >= 0:
                if board.owner[o] == seat or board.status[o] != RUNNING:
                    return 0.0
                return self._push_by.get(board.owner[o], _NO_PUSH)[k]
        return 0.0

    def _infer_pushes(self, view: View) -> None:
        """Per opponent seat, the expected push of a snail 1, 2 or 3 squares straight ahead of
        it, from the jostling forward moves of the deck and the cards not seen yet."""
        deck = view.deck
        counts = self._jostlers.get(id(deck))
        if counts is None:
            counts = {}
            for info in deck.cards:
                push = [0.0, 0.0, 0.0, 0.0]
                for eff in info.effects:
                    if eff.op != "move" or not eff.jostle or eff.roll or 2 not in eff.directions:
                        continue
                    forward = 1.0 if len(eff.directions) == 1 else 1.0 / len(
                        [k for k in eff.directions if k in (1, 2, 3)])
                    for k in (1, 2, 3):
                        if eff.path == "straight" and k <= eff.squares:
                            push[k] = max(push[k], forward * (eff.squares - k + 1))
                        elif eff.path == "leap" and k == eff.squares:
                            push[k] = max(push[k], forward)
                if any(push):
                    counts.setdefault(info.cid, [0, push])[0] += 1
            self._jostlers[id(deck)] = counts
        if not counts:
            self._push_by = {}
            return
        seen: dict[str, int] = {}
        for u in view.discard:
            cid = deck.cid[u]
            if cid in counts:
                seen[cid] = seen.get(cid, 0) + 1
        for u in view.hand:
            cid = deck.cid[u]
            if cid in counts:
                seen[cid] = seen.get(cid, 0) + 1
        unseen = sum(view.draw_sizes) + sum(h for i, h in enumerate(view.hand_sizes) if i != view.seat)
        out = {}
        for o, h in enumerate(view.hand_sizes):
            if o == view.seat or unseen <= 0 or h <= 0:
                continue
            push = [0.0, 0.0, 0.0, 0.0]
            for cid, (n, amount) in counts.items():
                left = max(0, n - seen.get(cid, 0))
                p_hold = 1.0 - (1.0 - min(1.0, left / unseen)) ** h
                for k in (1, 2, 3):
                    push[k] += p_hold * amount[k]
            out[o] = push
        self._push_by = out

    def _effective(self, board: Board) -> list[float]:
        """Effective distance of every snail: steps to go plus shell vulnerability; finished
        snails below zero by arrival order, KO snails far away. In the shell championship the
        shells are what counts (progress only a little: a finished snail is safe)."""
        dist, pos, status, shells = board.c.dist, board.pos, board.status, board.shells
        n = len(status)
        eff = [0.0] * n
        if self._shell_mode:
            for s in range(n):
                st = status[s]
                lost = board.max_shells[s] - shells[s] if st in (RUNNING, FINISHED) else board.max_shells[s] + 2
                eff[s] = 4.0 * lost + (0.2 * dist[pos[s]] if st == RUNNING else 0.0)
            return eff
        for s in range(n):
            st = status[s]
            if st == RUNNING:
                sh = shells[s]
                eff[s] = dist[pos[s]] + (_SHELL1 if sh == 1 else _SHELL2 if sh == 2 else 0.0)
            elif st == FINISHED:
                eff[s] = -4.0 - 3.0 * (n - board.arrivals.index(s))
            else:
                eff[s] = 60.0
        return eff

    def _anchor(self, board: Board, seat: int) -> None:
        """Fix the opponents' weights from the board at the start of a decision, so that the
        options of that decision are compared on the same scale."""
        eff = self._effective(board)
        mine = [eff[s] for s in range(len(eff)) if board.owner[s] == seat]
        ref = min(mine) if mine else 0.0
        lam = _LAMBDA * self.aggression
        self._cap = ref + 12.0
        self._weights = [0.0 if board.owner[s] == seat else (lam if eff[s] < ref + _NEAR else 0.3 * lam)
                         for s in range(len(eff))]

    def _worth(self, deck, uid: int, hand, keep_last_speed: bool = True) -> float:
        """Worth of keeping ``uid`` in ``hand`` (the last speed cards are kept at all costs,
        unless ``keep_last_speed`` is off: in the speed phase, where playing it is its use)."""
        if keep_last_speed and deck.kind[uid] == SPEED:
            n_speed = sum(1 for u in hand if deck.kind[u] == SPEED)
            if n_speed <= self._snails:
                return _LAST_SPEED_WORTH
        cid = deck.cid[uid]
        w = self._worth_cache.get(cid)
        if w is None:
            w = self._worth_cache[cid] = card_worth(deck.cards[uid])
        return w

    def _mean_worth(self, deck) -> float:
        """Expected worth of a fresh card from the deck."""
        if self._avg_worth is None:
            self._avg_worth = sum(card_worth(c) for c in deck.cards) / max(1, len(deck.cards))
        return self._avg_worth

    def _p_counter(self, view: View, t: int, situation: str) -> tuple[float, float]:
        """Chances that the owner of ``t`` holds a reaction against ``situation`` (``shot``,
        ``domino``, ``jostle``) that cancels it (cancel, stop, block) / that sends it back
        (reflect, return, reverse), inferred from the cards not yet seen (neither in the
        discard pile nor in this hand)."""
        deck = view.deck
        seen: dict[str, int] = {}
        for u in view.discard + view.hand:
            effect = deck.cards[u].counter(situation)
            if effect:
                seen[effect] = seen.get(effect, 0) + 1
        owner = view.board.owner[t]
        unseen = sum(view.draw_sizes) + sum(h for i, h in enumerate(view.hand_sizes) if i != view.seat)
        h = view.hand_sizes[owner]
        if unseen <= 0 or h <= 0:
            return 0.0, 0.0
        out = []
        for effects in (_CANCELS, _SENDS_BACK):
            left = sum(max(0, deck.counter_counts.get((situation, e), 0) - seen.get(e, 0)) for e in effects)
            out.append(1.0 - (1.0 - min(1.0, left / unseen)) ** h)
        return out[0], out[1]

    def _loss_delta(self, board: Board, seat: int, t: int, base: float) -> float:
        """Change of the seat's value if snail ``t`` loses one shell."""
        after = board.copy()
        after.shells[t] -= 1
        if after.shells[t] <= 0:
            after.shells[t] = 0
            after.status[t] = 3
        return self.value(after, seat) - base

    def _shot_value(self, view: View, board: Board, s: int, t: int, base: float) -> float:
        c = board.c
        p_hit = len(c.shot_hits) / c.die
        gain = self._loss_delta(board, view.seat, t, base)
        p_cancel, p_reflect = self._p_counter(view, t, "shot")
        urgent = 1.0 if board.shells[t] <= 1 else 0.5
        p_cancel *= urgent
        p_reflect *= urgent
        back = self._loss_delta(board, view.seat, s, base)
        return p_hit * ((1.0 - p_cancel - p_reflect) * gain + p_reflect * back)

    def _domino_value(self, view: View, board: Board, s: int, base: float) -> float:
        left, right = board.domino_sides(s)
        total = 0.0
        for t in left + right:
            gain = self._loss_delta(board, view.seat, t, base)
            p_cancel, p_reflect = self._p_counter(view, t, "domino")
            back = self._loss_delta(board, view.seat, s, base)
            total += (1 - p_cancel - p_reflect) * gain + p_reflect * back
        return total

    def _play_value(self, view: View, board: Board, s: int, uid: int, base: float) -> float:
        """Expected change of value if snail ``s`` plays action card ``uid`` on ``board``.

        Branches of the card's chance (direction rolls, burns) are (probability, board, alive);
        a branch where the card becomes impossible goes back to ``board`` and stops (the card
        is lost: no later effect, no earlier shell change), as in the engine."""
        seat = view.seat
        info = view.deck.cards[uid]
        boards = [(1.0, board, True)]
        extra = 0.0

        def value(b: Board) -> float:
            return self.value(b, seat)

        for eff in info.effects:
            if eff.condition == "behind":
                boards = [(p, b, True) if a and b.behind_another(s) else (p, board if a else b, False)
                          for p, b, a in boards]
            alive = sum(p for p, _, a in boards if a)
            if alive <= 0:
                break
            if eff.op == "move":
                boards = self._move_branches(boards, board, s, info, eff, value)
            elif eff.op == "shell":
                boards = self._shell_branches(boards, s, eff, board.c.die)
            elif eff.op == "shoot":
                targets = board.shot_targets(s, eff.range)
                if not targets:
                    boards = [(p, board if a else b, False) for p, b, a in boards]
                extra += alive * max((self._shot_value(view, board, s, t, base) for t in targets), default=0.0)
            else:
                extra += alive * self._domino_value(view, board, s, base)
        if all(b is board for _, b, _ in boards):
            return extra
        race_bonus = self._threat * _FINISH_RACE * (5 - info.number) / 5.0
        return sum(p * (self.value(b, seat) + (race_bonus if b.status[s] == FINISHED else 0.0))
                   for p, b, _ in boards) - base + extra

    @staticmethod
    def _move_branches(boards, start: Board, s: int, info, eff, value):
        """The branches after a move effect; an impossible move sends its branch back to ``start``."""
        out = []
        for p, b, alive in boards:
            if not alive:
                out.append((p, b, False))
                continue
            for q, after in move_outcomes(b, s, info, eff, value):
                out.append((p * q, after, True) if after is not None else (p * q, start, False))
        return out

    @staticmethod
    def _shell_branches(boards, s: int, eff, die: int):
        """The branches after a shell effect (a gain up to the start value, or a loss; with
        ``faces``, only on those faces of the circuit's die)."""
        chance = (sum(1 for f in eff.faces if f <= die) / die) if eff.faces else 1.0
        out = []
        for p, b, alive in boards:
            if not alive or b.status[s] != RUNNING:
                out.append((p, b, alive))
                continue
            b2 = b.copy()
            if eff.amount > 0:
                b2.shells[s] = min(b2.max_shells[s], b2.shells[s] + eff.amount)
            else:
                b2.shells[s] = max(0, b2.shells[s] + eff.amount)
                if b2.shells[s] == 0:
                    b2.status[s] = 3
            if chance < 1.0:
                out.append((p * (1 - chance), b, True))
            out.append((p * chance, b2, True))
        return out

    def _action_plan(self, view: View, board: Board, s: int, hand, values: dict | None = None) -> float:
        """Best score of the coming action phase from ``board`` with ``hand``: play an action
        card (its expected value change, minus the worth it takes out of the hand) or
        discard the card worth least. ``values``: a cache of the cards' play values on this
        same board (card id → value), shared by the callers that plan from one board."""
        deck = view.deck
        values = {} if values is None else values
        base = self.value(board, view.seat)
        avg = self._mean_worth(deck)
        best = -math.inf
        done = set()
        for uid in hand:
            churn = self._disc * (avg - self._worth(deck, uid, hand))
            if churn > best:
                best = churn
            cid = deck.cid[uid]
            if deck.kind[uid] != ACTION or cid in done:
                continue
            done.add(cid)
            if cid not in values:
                values[cid] = self._play_value(view, board, s, uid, base)
            score = values[cid] + churn
            if score > best:
                best = score
        return 0.0 if best == -math.inf else best

    def _plan_ends(self, view: View, s: int, ends: list[int], hand, later=()) -> list[float]:
        """Score of each end of a speed move: the value there, once the snails ``later`` (snail,
        squares) that move after it have made their likeliest move, plus the best action from
        there (the action is planned for the best few ends only)."""
        board, seat = view.board, view.seat
        afters = []
        for e in ends:
            after = board.copy()
            if e == SACRIFICE:
                after.shells[s] = min(after.max_shells[s], after.shells[s] + view.config.sacrifice_gain)
            else:
                after.enter(s, e)
            for o, squares in later:
                if after.status[o] == RUNNING:
                    o_ends = after.speed_ends(o, squares)
                    if o_ends:
                        dist = after.c.dist
                        after.enter(o, min(o_ends, key=dist.__getitem__))
            afters.append((self.value(after, seat), after))
        ranked = sorted(range(len(ends)), key=lambda i: -afters[i][0])[:_PLAN_ENDS]
        scores = [v - 1.0 for v, _ in afters]
        for i in ranked:
            v, after = afters[i]
            plan = self._action_plan(view, after, s, hand) if after.status[s] == RUNNING \
                else self._threat * _FINISH_RACE
            scores[i] = v + plan + 0.05 * self._blocking(after, s, seat)
        return scores

    # -- decisions -------------------------------------------------------------------------
    def _start(self, view: View) -> None:
        board = view.board
        self._shell_mode = view.config.shell_championship
        here = min((board.distance(s) for s in view.snails), default=0)
        self._disc = _HAND_DISCOUNT * min(1.0, here / _HORIZON)
        self._anchor(view.board, view.seat)
        self._snails = len(view.snails)
        if _TAIL:
            key = (view.race_no, view.turn, len(view.discard), view.draw_sizes)
            if key != self._push_key:
                self._push_key = key
                self._infer_pushes(view)
        dist = board.c.dist
        self._threat = sum(1 for o, p in enumerate(board.pos)
                           if p >= 0 and board.status[o] == RUNNING and board.owner[o] != view.seat
                           and dist[p] <= 5)

    def place(self, view: View, s: int, slots: list[int]) -> int:
        board = view.board
        c = board.c
        scores = []
        others = [p for p in board.pos if p >= 0]
        for cell in slots:
            r, col = divmod(cell, c.width)
            gap = min((max(abs(r - o // c.width), abs(col - o % c.width)) for o in others), default=3)
            f = c.front[cell]
            open_ahead = sum(1 for k in (-1, 0, 1) if c.nb[cell][(f + k) % 8] >= 0
                             and c.dist[c.nb[cell][(f + k) % 8]] < c.dist[cell])
            scores.append(-c.dist[cell] + 0.3 * min(gap, 3) + 0.2 * open_ahead)
        return self.pick(scores)

    def speed_card(self, view: View, s: int, options: list[tuple[int, bool]]) -> int:
        """The speed card (and the end of its move) with the best plan for the turn. A discard
        is weighed only when no speed move it can make ends as near the finish as it stands
        (its plans see the board before the faster snails move, so they undervalue crowded
        squares ahead); it is scored as staying put with the action plan of the hand without
        that card."""
        self._start(view)
        board, deck = view.board, view.deck
        dist = board.c.dist
        here = dist[board.pos[s]]
        reach = {deck.squares[u] for u, discard in options if not discard}
        if any(dist[e] <= here for sq in reach for e in board.speed_ends(s, sq)):
            kept = [i for i, (_, discard) in enumerate(options) if not discard]
        else:
            kept = list(range(len(options)))
        options = [options[i] for i in kept]
        plans: dict[int, float] = {}
        values: dict[str, float] = {}        # action cards' values from the board as it stands
        for u, discard in options:
            sq = deck.squares[u]
            if discard or sq in plans:
                continue
            hand = [x for x in view.hand if x != u]
            ends = board.speed_ends(s, sq)
            if ends:
                plans[sq] = max(self._plan_ends(view, s, ends, hand))
            else:
                plans[sq] = self.value(board, view.seat) + self._action_plan(view, board, s, hand, values) - 0.5
        mean = self._mean_worth(deck)
        scores = []
        for u, discard in options:
            worth = self._worth(deck, u, view.hand, keep_last_speed=False)
            if discard:
                hand = [x for x in view.hand if x != u]
                scores.append(self.value(board, view.seat) + self._action_plan(view, board, s, hand, values)
                              + self._disc * (mean - worth))
                continue
            # among equal plans the slowest card: it moves last, blocking those behind and
            # finding the squares ahead vacated; but the fastest when it can cross the line,
            # to arrive before the others finishing in the same phase
            bias = _SLOW_BIAS if deck.squares[u] >= here else -_SLOW_BIAS
            scores.append(plans[deck.squares[u]] + self._disc * (mean - worth) + bias * deck.number[u])
        return kept[self.pick(scores)]

    @staticmethod
    def _blocking(board: Board, s: int, seat: int) -> int:
        """Opponents behind ``s`` whose straight-ahead square it now occupies."""
        p = board.pos[s]
        if p < 0:
            return 0
        c = board.c
        n = 0
        for o, q in enumerate(board.pos):
            if q >= 0 and board.owner[o] != seat and board.status[o] == RUNNING:
                if c.nb[q][c.front[q]] == p:
                    n += 1
        return n

    def _squares_of(self, deck) -> dict[int, int]:
        """Speed number → squares of that speed card (revealed cards tell the others' moves)."""
        table = self._squares_cache.get(id(deck))
        if table is None:
            table = {deck.number[u]: deck.squares[u] for u in range(len(deck)) if deck.kind[u] == SPEED}
            self._squares_cache[id(deck)] = table
        return table

    def speed_move(self, view: View, s: int, uid: int, ends: list[int]) -> int:
        self._start(view)
        mine = view.deck.number[uid]
        speeds = view.revealed_speed
        squares = self._squares_of(view.deck)
        later = sorted(((o, n) for o, n in enumerate(speeds) if 0 < n < mine and o != s),
                       key=lambda x: -x[1])
        later = [(o, squares.get(n, 1)) for o, n in later]
        return self.pick(self._plan_ends(view, s, ends, view.hand, later))

    def action_card(self, view: View, s: int, options: list[tuple[int, bool]]) -> int:
        self._start(view)
        deck, board = view.deck, view.board
        base = self.value(board, view.seat)
        avg = self._mean_worth(deck)
        cache: dict[str, float] = {}
        scores = []
        for uid, discard in options:
            churn = self._disc * (avg - self._worth(deck, uid, view.hand))
            if discard:
                scores.append(churn)
                continue
            cid = deck.cid[uid]
            if cid not in cache:
                cache[cid] = self._play_value(view, board, s, uid, base)
            scores.append(cache[cid] + churn)
        return self.pick(scores)

    def move_choice(self, view: View, s: int, uid: int, options: list) -> int:
        self._start(view)
        seat = view.seat
        return self.pick([self.value(after, seat) for _, after in options])

    def target(self, view: View, s: int, uid: int, targets: list[int]) -> int:
        self._start(view)
        base = self.value(view.board, view.seat)
        return self.pick([self._shot_value(view, view.board, s, t, base) for t in targets])

    def react(self, view: View, s: int, source, cause: str, options: list[int]) -> int:
        """Counter when what the counter saves (the shell's value, or for a jostle the value of
        the board without the push, or with the mover pushed back) exceeds the worth of
        keeping the card; sending a loss back adds the expected value of the other's loss."""
        self._start(view)
        board, deck, seat = view.board, view.deck, view.seat
        n_reactions = sum(1 for u in view.hand if deck.kind[u] == REACTION)
        near_end = board.c.dist[board.pos[s]] <= 3
        keep = 0.2 if near_end else (1.2 if n_reactions == 1 else 0.8)
        if cause == "jostle":
            taken = self.value(view.stakes["none"], seat)
            return self.pick([0.0] + [self.value(view.stakes[deck.cards[u].counter("jostle")], seat) - taken - keep
                                      for u in options[1:]])
        situation = cause if cause in ("shot", "domino") else "loss"
        base = self.value(board, seat)
        loss = -self._loss_delta(board, seat, s, base)
        scores = []
        for uid in options:
            if uid == NO_REACTION:
                scores.append(0.0)
                continue
            score = loss - keep
            if deck.cards[uid].counter(situation) in _SENDS_BACK and source is not None \
                    and board.status[source] == RUNNING:
                p_cancel, p_reflect = self._p_counter(view, source, situation)
                score += (1 - p_cancel - p_reflect) * self._loss_delta(board, seat, source, base)
            scores.append(score)
        return self.pick(scores)

    def draw_piles(self, view: View, n: int) -> list[int]:
        """Free draws: a speed card for each snail first, then speed cards while the hand holds
        fewer than 3 squares of speed per snail (at most one speed card more than half the
        hand), action cards otherwise. Cards drawn later in the same refill are unknown and
        counted as one-square cards; one card at a time it sees what it drew, so the "radis
        salé" variant (all piles chosen before drawing) changes its choices."""
        deck = view.deck
        speed = [u for u in view.hand if deck.kind[u] == SPEED]
        n_speed = len(speed)
        squares = sum(deck.squares[u] for u in speed)
        snails = len(view.snails)
        most = self._speed_target(view) + 1
        out = []
        for _ in range(n):
            want = n_speed < snails or (squares < 3 * snails and n_speed < most)
            out.append(0 if want else 1)
            n_speed += want
            squares += want
        return out

    def discard(self, view: View, n: int) -> list[int]:
        self._snails = len(view.snails)
        deck = view.deck
        order = sorted(range(len(view.hand)), key=lambda i: (self._worth(deck, view.hand[i], view.hand), i))
        return order[:n]

    def commit(self, view: View, reserve: int, low: int, high: int) -> int:
        """Shells by circuit danger: more where shots hit often, obstacles hurt and the race is
        long; at least one shell kept for each race still to come."""
        def danger(c) -> float:
            return 1.0 + 3.0 * len(c.shot_hits) / c.die + c.obstacle_damage + c.start_distance / 20.0

        upcoming = list(view.upcoming) or [view.circuit]
        races = max(1, view.races_left)
        total = sum(danger(c) for c in upcoming) * races / len(upcoming)
        share = reserve * danger(view.circuit) / total if total > 0 else reserve / races
        return max(low, min(high, reserve - (races - 1), round(share)))
