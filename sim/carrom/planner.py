"""The carrom planner: candidate strokes from geometry, simulated with the player's own noise,
valued with the rules (the procedure is in :mod:`sim.carrom.players`).

What does not change during a decision is built once per board state (:class:`_BoardSetup`):
the compact discs of the simulation (only the coins on the board, then the striker), the
view's arrays for those coins, the situation flags and the striker grid of the valuation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from sim.dexterity import ShotParams
from sim.physics import Discs, simulate_batch

from .aim import LOCAL_POCKETS, kind_name, make_params, noisy_strikes, pot_candidates, striker_grid
from .board import N_COINS, Geometry
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


class Candidates(NamedTuple):
    """Candidate strokes as arrays, best first: striker ``x`` (m), ``angle`` (deg), ``speed``
    (m/s), ``kind`` (pots: 5 × striker route + coin route, see :func:`~sim.carrom.aim.kind_name`;
    :data:`PUSH`, :data:`BREAK`), target coin and local pocket (-1: none)."""

    x: np.ndarray
    angle: np.ndarray
    speed: np.ndarray
    kind: np.ndarray
    target: np.ndarray
    pocket: np.ndarray

    @classmethod
    def empty(cls) -> Candidates:
        return cls.of([], PUSH)

    @classmethod
    def of(cls, rows: list[tuple[float, float, float, float]], kind: int) -> Candidates:
        """From (x, angle, speed, target) rows of one kind."""
        a = np.array(rows, dtype=float).reshape(-1, 4)
        n = len(a)
        return cls(a[:, 0], a[:, 1], a[:, 2], np.full(n, kind, np.int64), a[:, 3].astype(np.int64),
                   np.full(n, -1, np.int64))

    def __len__(self) -> int:
        return len(self.x)

    def head(self, n: int) -> Candidates:
        return Candidates(*(column[:max(n, 0)] for column in self))

    def then(self, other: Candidates) -> Candidates:
        return Candidates(*(np.concatenate([a, b]) for a, b in zip(self, other, strict=True)))

    def stroke(self, i: int, value: float = math.nan) -> Stroke:
        kind = int(self.kind[i])
        name = "push" if kind == PUSH else "break" if kind == BREAK else kind_name(kind // 5, kind % 5)
        return Stroke(float(self.x[i]), float(self.angle[i]), float(self.speed[i]), name, int(self.target[i]),
                      int(self.pocket[i]), value)


def _clamp(x: float, spans: list[list[float]]) -> float:
    """The nearest point of the union of intervals ``spans`` to x (the first of equals)."""
    best, gap = x, math.inf
    for lo, hi in spans:
        c = lo if x < lo else hi if x > hi else x
        if abs(c - x) < gap:
            best, gap = c, abs(c - x)
    return best


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
        self._discs: dict[int, Discs] = {}

    def execute(self, stroke: Stroke, rng: np.random.Generator) -> ShotParams:
        return execute_stroke(self.profile, self.geo, stroke, rng)

    # ------------------------------------------------------------------ candidates
    def _break_candidates(self, spans: np.ndarray, limit: int) -> Candidates:
        geo, p = self.geo, self.profile
        sy = geo.striker_y
        rows = []
        for x0 in p.break_offsets_m:
            x = _clamp(x0, spans.tolist())
            for aim in p.break_aims:
                for speed in p.break_speeds:
                    dx, dy = aim * geo.rc - x, 0.0 - sy
                    rows.append((x, math.degrees(math.atan2(-dx, dy)), min(speed, self.max_speed), -1.0))
                    if len(rows) >= limit:
                        return Candidates.of(rows, BREAK)
        return Candidates.of(rows, BREAK)

    def _push_candidates(self, view: PlanView, local: np.ndarray, spans: np.ndarray,
                         limit: int) -> Candidates:
        """Straight, full-ball pushes of coins (own coins first, nearest first), each as far as
        ``push_travel_m`` says: fallback strokes when nothing can be potted and safety strokes."""
        geo = self.geo
        sy, rs, rc, a = geo.striker_y, geo.rs, geo.rc, geo.decel
        kcoll = self.prm[3]
        ahead = np.flatnonzero(view.on & (local[:, 1] > sy))
        order = ahead[np.lexsort((local[ahead, 1], ~view.own[ahead]))]
        free = spans.tolist()
        rows: list[tuple[float, float, float, float]] = []
        for i in order.tolist():
            if len(rows) >= limit:
                break
            cx, cy = float(local[i, 0]), float(local[i, 1])
            x = _clamp(cx, free)
            dx, dy = cx - x, cy - sy
            D = math.hypot(dx, dy)
            if D <= rs + rc:
                continue
            travel = D - rs - rc
            for push in self.profile.push_travel_m:
                u = math.sqrt(2 * a * push) / kcoll
                v0 = math.sqrt(u * u + 2 * a * travel)
                rows.append((x, math.degrees(math.atan2(-dx, dy)), min(v0, self.max_speed), float(i)))
        return Candidates.of(rows[:limit], PUSH)

    def _pots(self, view: PlanView, local: np.ndarray, spans: np.ndarray, budget: int) -> Candidates:
        """The ``budget`` best pots, ranked by prior × the target's worth."""
        p = self.profile
        targets = np.flatnonzero(view.on & view.own)
        if view.queen_on and (view.queen_allowed or view.solo):
            targets = np.append(targets, 0)
        if not len(targets):
            return Candidates.empty()
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
        return Candidates(best[:, 4], best[:, 5], best[:, 6], (best[:, 2] * 5 + best[:, 3]).astype(np.int64),
                          best[:, 0].astype(np.int64), best[:, 1].astype(np.int64))

    def candidates(self, view: PlanView, spans: np.ndarray) -> Candidates:
        """The strokes worth simulating, best first (at most ``candidates``): the best pots,
        then ``push_share`` of the budget (at least ``push_min``) as pushes."""
        p = self.profile
        budget = p.candidates
        if view.is_break:
            return self._break_candidates(spans, budget)
        local = view.pos @ view.rot
        pots = self._pots(view, local, spans, budget)
        n_push = min(max(p.push_min, int(budget * p.push_share)), budget - 1)
        if len(pots) < budget - n_push:
            n_push = budget - len(pots)
        chosen = pots.head(budget - n_push).then(self._push_candidates(view, local, spans, n_push))
        if not len(chosen):  # nothing to pot and nothing in front: a firm stroke through the middle
            chosen = self._break_candidates(spans, 1)
        return chosen.head(budget)

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
        pool = np.arange(len(cands))
        scores = self._simulate(setup, view, cands, pool, first, rng)
        if first < p.samples:
            pool = np.argsort(-scores.mean(axis=1), kind="stable")[:p.finalists]
            more = self._simulate(setup, view, cands, pool, p.samples - first, rng)
            scores = np.concatenate([scores[pool], more], axis=1)
        mean = scores.mean(axis=1)
        best = int(np.argmax(mean))
        return cands.stroke(int(pool[best]), float(mean[best]))

    def _setup(self, view: PlanView, spans: np.ndarray) -> _BoardSetup:
        geo = self.geo
        ids = np.flatnonzero(view.on)
        discs = self._discs.get(len(ids))
        if discs is None:  # one mutable Discs per number of coins on the board (radii, masses fixed)
            keep = np.r_[ids, N_COINS]
            discs = self._discs.setdefault(len(ids), Discs(np.zeros((len(keep), 2)), None, geo.radii[keep],
                                                           geo.masses[keep]))
        discs.pos[:-1] = view.pos[ids]
        discs.pos[-1] = (spans[0, 0], geo.striker_y) @ view.rot.T  # any legal spot: the batch moves it
        return _BoardSetup(discs, ids, view.own[ids], view.opp[ids], np.asarray(view.coin_value, float)[ids],
                           view.next_targets[ids], situation(view, self.profile.safety), spans,
                           striker_grid(spans, self.profile.position_grid_m))

    def _simulate(self, setup: _BoardSetup, view: PlanView, cands: Candidates, which: np.ndarray,
                  samples: int, rng: np.random.Generator) -> np.ndarray:
        """(len(which), samples) values of noisy executions of the candidates ``which``."""
        geo = self.geo
        z = rng.standard_normal((3, len(which), samples))  # sim.physics.execute_shots's draws
        starts, vels = noisy_strikes(cands.x[which], cands.angle[which], cands.speed[which], z, self.sigma, self.max_speed, geo.striker_y, setup.spans,
                                     view.rot)
        batch = simulate_batch(geo.table, geo.physics, setup.discs, len(setup.ids), starts, vels)
        values = outcome_values(batch.status, batch.final_pos, setup.discs.pos[:-1], setup.ids, setup.own, setup.opp, setup.coin_value,
                                setup.next_targets, view.rot, view.next_rot, setup.situation, self.weights,
                                self.pockets, setup.grid, geo.legal, self.prm)
        return values.reshape(len(which), samples)
