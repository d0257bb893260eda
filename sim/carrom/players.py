"""Simulated carrom players: a profile (skill) and the policy that turns a board into a stroke.

A stroke is decided in the shooter's local frame (x along its base line, y forward) as a
striker position ``x`` (m), an aim angle (degrees anticlockwise from straight ahead) and a
speed (m/s). The planner:

1. lists candidate strokes from geometry (:mod:`sim.carrom.aim`): for every own coin (and the
   queen when it may be taken) and every pocket, the ghost-ball cut from the best striker
   position on the legal base line and base circles, directly or with the striker off one
   cushion, the coin going straight or off a cushion beside the pocket; on the break, shots
   into the formation; fallback and safety shots (straight pushes of a coin);
2. ranks them by their analytic pot probability under the player's own noise;
3. simulates the best ``candidates`` of them ``samples`` times each with the player's OWN
   execution noise, all in one :func:`sim.physics.simulate_batch` call;
4. scores every simulated outcome with the rules (own coins, the queen and its cover, dues,
   last-coin hazards, whether the turn continues) plus the position left: the best pot the
   player keeps if the turn continues, minus (``safety``) the best pot the next opponent gets;
5. plays the candidate with the best mean score; its execution is then perturbed once more
   by the same noise (:func:`sim.physics.execute_shots`).

Skill is the noise (``position_sigma_m``, ``angle_sigma_deg``, ``speed_sigma_rel``) and the
planning budget (``candidates``, ``samples``, ``safety``). ``policy = "random"`` plays a
uniformly random legal stroke. All draws come from the seat's own generator.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from sim.core.config import param
from sim.physics import STATUS_POCKETED, ExecutionNoise, execute_shots, heading, simulate_batch

from .aim import LOCAL_POCKETS, best_pot_priors, kind_name, make_params, pot_candidates
from .board import N_COINS, STRIKER, Geometry, stroke_discs

__all__ = ["CarromProfile", "Stroke", "PlanView", "Planner", "RandomPlayer", "make_policy",
           "VALUE_WEIGHTS"]

#: Weights of the planner's outcome score, in "coins" (an own coin pocketed = 1).
VALUE_WEIGHTS = {
    "opponent_coin": -0.8,    # an opponent's coin pocketed (it counts for them)
    "queen_covered": 3.0,     # queen pocketed and covered in the stroke
    "queen_pending": 1.5,     # queen pocketed, cover still needed next stroke
    "queen_wasted": -0.3,     # queen pocketed but returned
    "cover_made": 3.0,        # the pending queen covered
    "cover_missed": -2.0,     # the pending queen goes back
    "due": -1.5,              # striker pocketed (rules.dues)
    "board_won": 8.0,         # last own coin down with the queen covered
    "last_coin_penalty": -6.0,  # losing the board on a last coin (ICF 106-107)
    "last_coin_returned": -0.6,  # family: the last coin comes back (it may unlock the queen)
    "next_pot_self": 1.0,     # × best pot prior left for the player when the turn continues
    "next_pot_opponent": -1.0,  # × best pot prior left for the opponent (safety players)
}


@dataclass(frozen=True)
class CarromProfile:
    """A simulated player's skill.

    Attributes:
        policy: "planner" (geometry + simulation) or "random" (any legal stroke).
        position_sigma_m: σ of the striker's placement error along the base line (m).
        angle_sigma_deg: σ of the aim error (degrees).
        speed_sigma_rel: σ of the relative speed error.
        candidates: strokes simulated per decision (planning budget).
        samples: noisy simulations per candidate.
        safety: also weigh what the stroke leaves the opponent, and try safety pushes.
    """

    policy: Literal["planner", "random"] = param("planner", doc="planner or random")
    position_sigma_m: float = param(0.002, min=0.0, unit="m", doc="σ of the striker placement")
    angle_sigma_deg: float = param(0.8, min=0.0, unit="deg", doc="σ of the aim")
    speed_sigma_rel: float = param(0.06, min=0.0, doc="σ of the speed, relative")
    candidates: int = param(12, min=1, max=200, doc="strokes simulated per decision")
    samples: int = param(4, min=1, max=100, doc="noisy simulations per candidate")
    safety: bool = param(True, doc="weigh the opponent's next chances; try safety pushes")

    @property
    def noise(self) -> ExecutionNoise:
        return ExecutionNoise(self.position_sigma_m, self.angle_sigma_deg, self.speed_sigma_rel)


@dataclass(frozen=True)
class Stroke:
    """An intended stroke in the shooter's frame: striker ``x`` (m; NaN: no legal spot, the
    stroke is forfeited), ``angle_deg`` (anticlockwise from straight ahead), ``speed`` (m/s);
    ``kind`` (cut, rebound_*, break, push, random), the target coin and local pocket, and the
    planner's mean score (NaN if not planned)."""

    x: float
    angle_deg: float
    speed: float
    kind: str = ""
    target: int = -1
    pocket: int = -1
    value: float = float("nan")


@dataclass
class PlanView:
    """What the planner needs to know about the board, from the shooter's seat.

    Attributes:
        geo: board geometry. pos (19, 2): board positions; on (19,): coins on the board.
        rot, next_rot: local→board rotations of the shooter and of the seat that plays if
            the turn passes (equal in solo practice).
        own, opp: (19,) coins that score for / against the shooter (queen excluded).
        coin_value: (19,) value of each coin to the shooter, in coins (own 1, three
            players: points/10).
        next_targets: (19,) coins the next seat would pot.
        queen_on, queen_allowed, queen_prior, queen_pending: the queen on the board; may be
            taken without another coin; the shooter has the earlier own coin; waits for the
            shooter's cover.
        queen_settled: the queen is covered.
        queen_value: value of a covered queen to the shooter (coins).
        own_left, opp_left: own / opponents' coins on the board (2 and 4 players).
        is_break: the board's break.
        three: three players, each for themselves.
        solo: practice mode (one player, every coin counts, no rules).
        own_down: own coins already pocketed (the ICF queen condition).
        next_queen_allowed: the next seat may take the queen.
    """

    geo: Geometry
    pos: np.ndarray
    on: np.ndarray
    rot: np.ndarray
    next_rot: np.ndarray
    own: np.ndarray
    opp: np.ndarray
    coin_value: np.ndarray
    next_targets: np.ndarray
    queen_on: bool
    queen_allowed: bool
    queen_prior: bool
    queen_pending: bool
    queen_settled: bool
    queen_value: float
    own_left: int
    opp_left: int
    is_break: bool
    three: bool = False
    solo: bool = False
    own_down: int = 0
    next_queen_allowed: bool = False


def _free_spans(view: PlanView) -> np.ndarray:
    local = (view.pos[view.on]) @ view.rot
    spans = view.geo.free_intervals(local)
    return np.array(spans, dtype=float).reshape(-1, 2)


def _grid(spans: np.ndarray, geo: Geometry, step: float = 0.035) -> np.ndarray:
    xs = []
    for lo, hi in spans:
        n = max(1, int(round((hi - lo) / step)))
        xs.extend(np.linspace(lo, hi, n + 1) if hi > lo else [lo])
    return np.array(xs, dtype=float)


def _clamp_many(x: np.ndarray, spans: np.ndarray) -> np.ndarray:
    """Nearest point of the union of ``spans`` for every x (vectorised)."""
    c = np.clip(x[..., None], spans[:, 0], spans[:, 1])
    k = np.argmin(np.abs(c - x[..., None]), axis=-1)
    return np.take_along_axis(c, k[..., None], axis=-1)[..., 0]


class RandomPlayer:
    """A uniformly random legal stroke: striker anywhere legal, aim within ±80°, speed
    0.3–80 % of the maximum."""

    def __init__(self, profile: CarromProfile, geo: Geometry):
        self.profile = profile
        self.geo = geo

    def decide(self, view: PlanView, rng: np.random.Generator) -> Stroke:
        spans = _free_spans(view)
        if len(spans) == 0:
            return Stroke(float("nan"), 0.0, 0.0, "random")
        widths = spans[:, 1] - spans[:, 0] + 1e-9
        k = int(rng.choice(len(spans), p=widths / widths.sum()))
        x = float(rng.uniform(spans[k, 0], spans[k, 1]))
        angle = float(rng.uniform(-80.0, 80.0))
        speed = float(rng.uniform(0.3, 0.8 * self.geo.rules.striker.max_speed))
        return Stroke(x, angle, speed, "random")

    def execute(self, stroke: Stroke, rng: np.random.Generator) -> tuple[float, float, float]:
        return _execute(self.profile, self.geo, stroke, rng)


def _execute(profile: CarromProfile, geo: Geometry, stroke: Stroke, rng) -> tuple[float, float, float]:
    x, a, v = execute_shots(stroke.x if math.isfinite(stroke.x) else 0.0, stroke.angle_deg,
                            stroke.speed, profile.noise, rng)
    v = min(float(v), geo.rules.striker.max_speed)
    return (float(x) if math.isfinite(stroke.x) else float("nan")), float(a), v


class Planner:
    """The geometry + simulation player (see the module docstring)."""

    def __init__(self, profile: CarromProfile, geo: Geometry):
        self.profile = profile
        self.geo = geo
        self.prm = make_params(geo, profile.position_sigma_m, profile.angle_sigma_deg,
                               profile.speed_sigma_rel)
        self.pockets = LOCAL_POCKETS(geo.rules.board.pocket_centre)

    def execute(self, stroke: Stroke, rng: np.random.Generator) -> tuple[float, float, float]:
        return _execute(self.profile, self.geo, stroke, rng)

    # ------------------------------------------------------------------ candidates
    def _break_candidates(self, spans: np.ndarray) -> list[Stroke]:
        geo = self.geo
        sy = geo.striker_y
        out = []
        for x0 in (0.0, 0.04, -0.04, 0.08, -0.08, 0.12, -0.12):
            x = float(_clamp_many(np.array([x0]), spans)[0])
            for aim_x in (0.0, geo.rc, -geo.rc):
                for speed in (4.5, 3.5, 5.5):
                    dx, dy = aim_x - x, 0.0 - sy
                    angle = math.degrees(math.atan2(-dx, dy))
                    out.append(Stroke(x, angle, min(speed, geo.rules.striker.max_speed), "break"))
        return out

    def _push_candidates(self, view: PlanView, local: np.ndarray, spans: np.ndarray,
                         xs: np.ndarray, limit: int) -> list[Stroke]:
        """Straight, full-ball pushes of coins (own coins first, nearest first): fallback
        strokes when nothing can be potted and safety strokes."""
        geo = self.geo
        sy, rs, rc, a = geo.striker_y, geo.rs, geo.rc, geo.decel
        kcoll = self.prm[3]
        order = [i for i in range(N_COINS) if view.on[i] and local[i, 1] > sy]
        order.sort(key=lambda i: (not view.own[i], local[i, 1]))
        out: list[Stroke] = []
        for i in order:
            cx, cy = local[i]
            x = float(_clamp_many(np.array([cx]), spans)[0])
            dx, dy = cx - x, cy - sy
            D = math.hypot(dx, dy)
            if D <= rs + rc:
                continue
            travel = D - rs - rc
            for push in (0.25, 0.08):
                vc = math.sqrt(2 * a * push)
                u = vc / kcoll
                v0 = math.sqrt(u * u + 2 * a * travel)
                angle = math.degrees(math.atan2(-dx, dy))
                out.append(Stroke(x, angle, min(v0, geo.rules.striker.max_speed), "push", int(i)))
            if len(out) >= limit:
                break
        return out[:limit]

    def candidates(self, view: PlanView, spans: np.ndarray) -> list[Stroke]:
        """The strokes worth simulating, best first (at most ``profile.candidates``)."""
        budget = self.profile.candidates
        if view.is_break:
            return self._break_candidates(spans)[:budget]
        local = view.pos @ view.rot
        xs = _grid(spans, self.geo)
        targets = [i for i in range(N_COINS) if view.on[i] and view.own[i]]
        if view.queen_on and (view.queen_allowed or view.solo):
            targets.append(0)
        pots: list[Stroke] = []
        if targets:
            rows = pot_candidates(local, view.on, np.array(targets, dtype=np.int64), self.pockets,
                                  xs, spans, True, self.prm)
            rows = rows[rows[:, 7] > 1e-4]
            t = rows[:, 0].astype(np.int64)
            worth = np.where(t == 0, view.queen_value, view.coin_value[t])
            if not view.three and not view.solo and view.own_left <= 1 \
                    and not view.queen_settled and not view.queen_pending:
                # the last coin must wait for the queen (family: potting it may unlock the queen)
                late = 0.6 if _last_coin_unlocks(self.geo.rules) else 0.05
                worth = np.where(t == 0, worth, late)
            elif view.queen_pending:
                worth = worth * 3.0  # the cover
            score = rows[:, 7] * np.maximum(worth, 0.1)
            for k in np.argsort(-score, kind="stable")[:budget]:
                tt, p, wall, bank, x, ang, sp, _ = rows[k]
                pots.append(Stroke(float(x), float(ang), float(sp), kind_name(int(wall), int(bank)),
                                   int(tt), int(p)))
        n_push = max(1, budget // 4) if self.profile.safety else (1 if budget > 2 else 0)
        if len(pots) < budget - n_push:
            n_push = budget - len(pots)
        chosen = pots[:budget - n_push]
        chosen += self._push_candidates(view, local, spans, xs, n_push)
        if not chosen:  # nothing to pot and nothing in front: a firm stroke through the middle
            chosen = self._break_candidates(spans)[:1]
        return chosen[:budget]

    # ------------------------------------------------------------------ deciding
    def decide(self, view: PlanView, rng: np.random.Generator) -> Stroke:
        spans = _free_spans(view)
        if len(spans) == 0:
            return Stroke(float("nan"), 0.0, 0.0, "none")
        cands = self.candidates(view, spans)
        if len(cands) == 1:
            return cands[0]
        S = self.profile.samples
        geo = self.geo
        x = np.array([c.x for c in cands])
        ang = np.array([c.angle_deg for c in cands])
        sp = np.array([c.speed for c in cands])
        ex, ea, ev = execute_shots(x, ang, sp, self.profile.noise, rng, samples=S)
        ex = _clamp_many(ex.reshape(-1), spans)
        ev = np.minimum(ev.reshape(-1), geo.rules.striker.max_speed)
        local_start = np.column_stack([ex, np.full(ex.shape, geo.striker_y)])
        starts = local_start @ view.rot.T
        dirs = heading(ea.reshape(-1)) @ view.rot.T
        vels = dirs * ev[:, None]
        discs = stroke_discs(geo, view.pos, view.on, starts[0], (0.0, 0.0))
        batch = simulate_batch(geo.table, geo.physics, discs, STRIKER, starts, vels)
        scores = self.score(view, batch.status, batch.final_pos, spans)
        mean = scores.reshape(len(cands), S).mean(axis=1)
        best = int(np.argmax(mean))
        c = cands[best]
        return Stroke(c.x, c.angle_deg, c.speed, c.kind, c.target, c.pocket, float(mean[best]))

    def score(self, view: PlanView, status: np.ndarray, final: np.ndarray,
              spans: np.ndarray) -> np.ndarray:
        """The rules-aware score of each simulated outcome (see :data:`VALUE_WEIGHTS`):
        what the stroke pocketed under the rules, plus the best weighted pot the player keeps
        if its turn continues, minus (``safety``) the best one the next seat gets."""
        W = VALUE_WEIGHTS
        geo = self.geo
        sw = geo.rules.switches
        pk = (status[:, :N_COINS] == STATUS_POCKETED) & view.on[None, :]
        st = status[:, STRIKER] == STATUS_POCKETED
        alive = view.on[None, :] & ~pk
        n = pk.shape[0]
        ones = np.ones(n, dtype=bool)
        if view.solo:
            value = pk.sum(axis=1).astype(float) - 0.5 * st
            cont = ones
            w_self = np.broadcast_to(np.ones(N_COINS), (n, N_COINS)).copy()
        else:
            own_n = (pk & view.own[None, :]).sum(axis=1)
            opp_n = (pk & view.opp[None, :]).sum(axis=1)
            q = pk[:, 0]
            value = (pk * np.where(view.own, view.coin_value, 0.0)[None, :]).sum(axis=1) \
                + W["opponent_coin"] * opp_n
            foul = st & sw.dues
            settled = np.full(n, view.queen_settled)
            pending_after = np.zeros(n, dtype=bool)
            if view.queen_pending:
                made = (own_n >= 1) & ~foul
                value += np.where(made, W["cover_made"], W["cover_missed"])
                settled |= made
            q_ok = q & (view.queen_allowed | (own_n >= 1)) & ~foul
            if view.queen_on:
                cover_now = q_ok & sw.cover_same_stroke & (
                    (view.queen_prior & (own_n >= 1)) | (own_n >= 2))
                cover_now |= q_ok & (view.own_left - own_n <= 0)
                scale = view.queen_value / 3.0
                value += np.where(cover_now, W["queen_covered"] * scale,
                                  np.where(q_ok, W["queen_pending"] * scale,
                                           np.where(q, W["queen_wasted"], 0.0)))
                settled |= cover_now
                pending_after = q_ok & ~cover_now
            cont = (own_n > 0) | q
            if sw.dues:
                value += W["due"] * st
                cont &= ~st | (sw.due_keeps_turn_with_own & (own_n > 0))
                if sw.due_returns_stroke_coins:
                    value -= np.where(st, own_n, 0)
            if sw.opponent_coin_ends_turn:
                cont &= opp_n == 0
            if sw.ineligible_queen_loses_turn:
                cont &= ~(q & ~q_ok)
            if not view.three:
                value, cont = self._board_end_terms(view, own_n, opp_n, foul, settled, value, cont)
            # what the player's next stroke would be worth, per coin
            w_self = np.broadcast_to(np.where(view.own, view.coin_value, 0.0), (n, N_COINS)).copy()
            if not view.three:
                hazard = (view.own_left - own_n <= 1) & ~settled & ~pending_after
                w_self[hazard] *= 0.1  # the last coin must wait for the queen
            w_self[pending_after] *= W["cover_made"]
            queen_next = view.queen_on & ~q_ok & ~settled & ~pending_after
            if sw.queen_needs_own_first:
                queen_next &= (view.own_down + own_n) > 0
            else:
                queen_next &= own_n > 0
            w_self[:, 0] = np.where(queen_next, W["queen_pending"] * view.queen_value / 3.0, 0.0)
        # the position left behind
        xs = _grid(spans, geo, step=0.09)
        if cont.any():
            idx = np.flatnonzero(cont)
            rot = np.broadcast_to(view.rot, (len(idx), 2, 2)).copy()
            ease = best_pot_priors(final[idx], alive[idx], np.ascontiguousarray(w_self[idx]), rot,
                                   self.pockets, xs, geo.legal, self.prm)
            value[idx] += W["next_pot_self"] * ease
        if self.profile.safety and not view.solo and (~cont).any():
            idx = np.flatnonzero(~cont)
            w_opp = np.where(view.next_targets, 1.0, 0.0)
            w_opp[0] = W["queen_pending"] if view.next_queen_allowed else 0.0
            weights = np.broadcast_to(w_opp, (len(idx), N_COINS)).copy()
            rot = np.broadcast_to(view.next_rot, (len(idx), 2, 2)).copy()
            ease = best_pot_priors(final[idx], alive[idx], weights, rot, self.pockets, xs,
                                   geo.legal, self.prm)
            value[idx] += W["next_pot_opponent"] * ease
        return value

    def _board_end_terms(self, view: PlanView, own_n, opp_n, foul, settled, value, cont):
        """The score's board-end terms (2 and 4 players): the board won, a last coin pocketed
        before the queen (rules.last_coin_before_queen_penalty, last_coin.before_queen), the
        opponent's last coin, a queen that ends a board the opponent has cleared."""
        W, rules = VALUE_WEIGHTS, self.geo.rules
        sw, mode = rules.switches, rules.last_coin.before_queen
        cleared = (own_n > 0) & (view.own_left - own_n <= 0) & ~foul
        won = (cleared | (view.own_left == 0)) & ~foul & settled
        value = value + W["board_won"] * won
        bad = cleared & ~settled
        if sw.last_coin_before_queen_penalty:
            value += W["last_coin_penalty"] * bad
            cont = cont & ~bad
        elif mode != "stays_down":  # the coin comes back; "replay": the turn goes on
            value += W["last_coin_returned"] * bad
            if mode != "replay":
                cont = cont & ~bad
        opp_cleared = (opp_n > 0) & (view.opp_left - opp_n <= 0)
        if sw.opponent_last_coin_penalty:
            value += W["last_coin_penalty"] * opp_cleared
        else:
            value += W["last_coin_penalty"] * (opp_cleared & settled)
        if view.opp_left == 0 and not view.queen_settled:  # "stays_down": the queen ends it for them
            value += W["last_coin_penalty"] * (settled & ~won)
        return value, cont & ~won


def _last_coin_unlocks(rules) -> bool:
    """Does pocketing one's last coin before the queen open the queen (family fallbacks)?"""
    if rules.switches.last_coin_before_queen_penalty:
        return False
    return rules.last_coin.before_queen in ("replay", "end_turn_unlock", "stays_down")


def make_policy(profile, geo: Geometry):
    """The policy of a profile: a profile object with a ``decide`` method is its own policy
    (tests inject scripted players); otherwise a :class:`Planner` or :class:`RandomPlayer`."""
    if hasattr(profile, "decide"):
        return profile
    if profile.policy == "random":
        return RandomPlayer(profile, geo)
    return Planner(profile, geo)
