"""The carrom planner: candidate strokes from geometry, simulated with the player's own noise,
valued with the rules (the procedure is in :mod:`sim.carrom.players`).

What does not change during a decision is built once per board state (:class:`_BoardSetup`):
the compact discs of the simulation (only the coins on the board, then the striker), the
view's arrays for those coins, the situation flags and the striker grid of the valuation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sim.dexterity import ShotParams
from sim.physics import Discs, add_engine_seconds

from .aim import LOCAL_POCKETS, kind_name, make_params, noisy_strikes, pot_candidates, striker_grid
from .board import Geometry, nearest_in
from .rollout import simulate_values
from .value import outcome_values, situation, weights
from .view import PlanView, Stroke, execute_stroke, striker_spans

if TYPE_CHECKING:
    from .players import CarromProfile

__all__ = ["Planner", "Candidates", "PUSH", "BREAK"]


@dataclass(frozen=True)
class _BoardSetup:
    """One decision's fixed inputs: the compact discs (coins ``ids``, then the striker), the
    view's arrays for those coins, the situation flags, the free striker intervals and the
    striker positions tried when valuing a position."""

    discs: Discs
    ids: np.ndarray
    own: np.ndarray
    opp: np.ndarray
    coin_value: np.ndarray
    next_targets: np.ndarray
    situation: np.ndarray
    spans: np.ndarray
    grid: np.ndarray


#: Candidate kinds besides the pots (whose kind is ``5 × striker route + coin route``).
PUSH, BREAK = 25, 26


class Candidates:
    """Candidate strokes, best first, as the rows of one (6, n) array: striker ``x`` (m),
    ``angle`` (deg), ``speed`` (m/s), ``kind`` (pots: 5 × striker route + coin route, see
    :func:`~sim.carrom.aim.kind_name`; :data:`PUSH`, :data:`BREAK`), target coin and local
    pocket (-1: none)."""

    __slots__ = ("table",)

    def __init__(self, table: np.ndarray):
        self.table = table

    @classmethod
    def of(cls, rows) -> Candidates:
        """From (x, angle, speed, kind, target, pocket) rows (an (n, 6) array or a list)."""
        return cls(np.array(rows, dtype=float).reshape(-1, 6).T.copy())

    x = property(lambda self: self.table[0])
    angle = property(lambda self: self.table[1])
    speed = property(lambda self: self.table[2])
    kind = property(lambda self: self.table[3])
    target = property(lambda self: self.table[4])
    pocket = property(lambda self: self.table[5])

    def __len__(self) -> int:
        return self.table.shape[1]

    def stroke(self, i: int, value: float = math.nan) -> Stroke:
        x, angle, speed, kind, target, pocket = self.table[:, i].tolist()
        kind = int(kind)
        name = "push" if kind == PUSH else "break" if kind == BREAK else kind_name(kind // 5, kind % 5)
        return Stroke(x, angle, speed, name, int(target), int(pocket), value)


def _last_coin_unlocks(rules) -> bool:
    """Does pocketing one's last coin before the queen open the queen (family fallbacks)?"""
    if rules.switches.last_coin_before_queen_penalty:
        return False
    return rules.last_coin.before_queen in ("replay", "end_turn_unlock", "stays_down")


class Planner:
    """The geometry + simulation player (see :mod:`sim.carrom.players`)."""

    def __init__(self, profile: CarromProfile, geo: Geometry):
        self.profile = profile
        self.geo = geo
        self.noise = profile.noise
        self.sigma = np.array([self.noise.position_m, self.noise.angle_deg, self.noise.speed_rel])
        self.prm = make_params(geo, profile)
        self.weights = weights(profile)
        self.pockets = LOCAL_POCKETS(geo.rules.board.pocket_centre)
        self.max_speed = geo.rules.striker.max_speed

    def execute(self, stroke: Stroke, rng: np.random.Generator) -> ShotParams:
        return execute_stroke(self.noise, self.max_speed, stroke, rng)

    # ------------------------------------------------------------------ candidates
    def _break_candidates(self, spans: np.ndarray, limit: int) -> list[tuple]:
        geo, p = self.geo, self.profile
        sy = geo.striker_y
        free = spans.tolist()
        rows = []
        for x0 in p.break_offsets_m:
            x = nearest_in(x0, free)
            for aim in p.break_aims:
                for speed in p.break_speeds:
                    dx, dy = aim * geo.rc - x, 0.0 - sy
                    rows.append((x, math.degrees(math.atan2(-dx, dy)), min(speed, self.max_speed), BREAK, -1, -1))
                    if len(rows) >= limit:
                        return rows
        return rows

    def _push_candidates(self, view: PlanView, local: np.ndarray, spans: np.ndarray,
                         limit: int) -> list[tuple]:
        """Straight, full-ball pushes of coins (own coins first, nearest first), each as far as
        ``push_travel_m`` says: fallback strokes when nothing can be potted and safety strokes."""
        geo = self.geo
        sy, rs, rc, a = geo.striker_y, geo.rs, geo.rc, geo.decel
        kcoll = self.prm[3]
        xs, ys = local.T.tolist()
        on, own = view.on.tolist(), view.own.tolist()
        ahead = sorted((i for i in range(len(on)) if on[i] and ys[i] > sy), key=lambda i: (not own[i], ys[i]))
        free = spans.tolist()
        rows: list[tuple] = []
        for i in ahead:
            if len(rows) >= limit:
                break
            cx, cy = xs[i], ys[i]
            x = nearest_in(cx, free)
            dx, dy = cx - x, cy - sy
            D = math.hypot(dx, dy)
            if D <= rs + rc:
                continue
            travel = D - rs - rc
            for push in self.profile.push_travel_m:
                u = math.sqrt(2 * a * push) / kcoll
                v0 = math.sqrt(u * u + 2 * a * travel)
                rows.append((x, math.degrees(math.atan2(-dx, dy)), min(v0, self.max_speed), PUSH, i, -1))
        return rows[:limit]

    def _pots(self, view: PlanView, local: np.ndarray, spans: np.ndarray, budget: int) -> np.ndarray:
        """The ``budget`` best pots, ranked by prior × the target's worth: (n, 6) rows (see
        :class:`Candidates`)."""
        p = self.profile
        targets = np.flatnonzero(view.on & view.own)
        if view.queen_on and (view.queen_allowed or view.solo):
            targets = np.append(targets, 0)
        if not len(targets):
            return np.empty((0, 6))
        worth = np.where(targets == 0, view.queen_value, view.coin_value[targets])
        if not view.three and not view.solo and view.own_left <= 1 \
                and not view.queen_settled and not view.queen_pending:
            # the last coin must wait for the queen (family: potting it may unlock the queen)
            late = p.rank_last_coin_unlocks if _last_coin_unlocks(self.geo.rules) else p.rank_last_coin_waits
            worth = np.where(targets == 0, worth, late)
        elif view.queen_pending:
            worth = worth * p.rank_cover_factor  # the cover
        worth = np.maximum(worth, p.rank_worth_floor)
        rows, order = pot_candidates(local, view.on, targets, self.pockets, striker_grid(spans, p.aim_grid_m), spans,
                                     p.rebounds, self.prm, worth, budget, p.pot_min_prior)
        best = rows[order]
        out = np.empty((len(best), 6))
        out[:, :3] = best[:, 4:7]
        out[:, 3] = best[:, 2] * 5 + best[:, 3]
        out[:, 4:] = best[:, :2]
        return out

    def candidates(self, view: PlanView, spans: np.ndarray) -> Candidates:
        """The strokes worth simulating, best first (at most ``candidates``): the best pots,
        then ``push_share`` of the budget (at least ``push_min``) as pushes."""
        p = self.profile
        budget = p.candidates
        if view.is_break:
            return Candidates.of(self._break_candidates(spans, budget))
        local = view.pos @ view.rot
        pots = self._pots(view, local, spans, budget)
        n_push = min(max(p.push_min, int(budget * p.push_share)), budget - 1)
        if len(pots) < budget - n_push:
            n_push = budget - len(pots)
        pushes = self._push_candidates(view, local, spans, n_push)
        if not len(pots) and not pushes:  # nothing to pot and nothing in front: a firm stroke through the middle
            return Candidates.of(self._break_candidates(spans, 1))
        if not pushes:
            return Candidates.of(pots[:budget - n_push])
        return Candidates.of(np.vstack([pots[:budget - n_push], np.array(pushes, dtype=float)])[:budget])

    # ------------------------------------------------------------------ deciding
    def decide(self, view: PlanView, rng: np.random.Generator) -> Stroke:
        """The candidate with the best mean simulated value, by successive halving: every
        candidate ``screen_samples`` times, the best ``finalists`` up to ``samples``."""
        spans = striker_spans(view)
        if len(spans) == 0:
            return Stroke(float("nan"), 0.0, 0.0, "none")
        cands = self.candidates(view, spans)
        if len(cands) == 1:
            return cands.stroke(0)
        p = self.profile
        setup = self._setup(view, spans)
        first = min(p.screen_samples, p.samples)
        scores = self._simulate(setup, view, cands, first, rng)
        if first < p.samples:
            pool = np.argsort(-scores.mean(axis=1), kind="stable")[:p.finalists]
            more = self._simulate(setup, view, Candidates(np.ascontiguousarray(cands.table[:, pool])), p.samples - first,
                                  rng)
            scores = np.concatenate([scores[pool], more], axis=1)
        else:
            pool = None
        mean = np.add.reduce(scores, axis=1) / scores.shape[1]  # = scores.mean(axis=1), without its checks
        best = int(mean.argmax())
        return cands.stroke(best if pool is None else int(pool[best]), float(mean[best]))

    def _setup(self, view: PlanView, spans: np.ndarray) -> _BoardSetup:
        geo = self.geo
        ids = np.flatnonzero(view.on)
        discs = geo.compact_discs(len(ids))
        discs.pos[:-1] = view.pos[ids]
        discs.pos[-1] = (spans[0, 0], geo.striker_y) @ view.rot.T  # any legal spot: the batch moves it
        return _BoardSetup(discs, ids, view.own[ids], view.opp[ids], np.asarray(view.coin_value, float)[ids],
                           view.next_targets[ids], situation(view, self.profile.safety), spans,
                           striker_grid(spans, self.profile.position_grid_m))

    def _simulate(self, setup: _BoardSetup, view: PlanView, cands: Candidates, samples: int,
                  rng: np.random.Generator) -> np.ndarray:
        """(len(cands), samples) values of noisy executions of the candidates."""
        geo = self.geo
        z = rng.standard_normal((3, len(cands), samples))  # sim.physics.execute_shots's draws
        discs = setup.discs
        values, seconds = simulate_values(
            cands.x, cands.angle, cands.speed, z, self.sigma, self.max_speed, geo.striker_y, setup.spans, view.rot,
            geo.engine_args, discs.pos, discs.radius, discs.mass, setup.ids, setup.own, setup.opp, setup.coin_value,
            setup.next_targets, view.next_rot, setup.situation, self.weights, self.pockets, setup.grid, geo.legal,
            self.prm)
        add_engine_seconds(seconds)
        return values.reshape(len(cands), samples)
