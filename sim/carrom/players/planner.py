"""The carrom planner: candidate strokes from geometry, simulated with the player's own noise,
valued with the rules (the procedure is in :mod:`sim.carrom.players.policies`).

A decision is a few compiled calls: the candidate table (:mod:`sim.carrom.players.candidates`; only
the pushes' length is worked out here), then the simulations and their values
(:func:`sim.carrom.players.rollout.simulate_values`: noisy strikes, the physics engine on the compact
board, the valuation), once, or twice with a screening.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from sim.core.config import ConfigError
from sim.core.restrict import FORBID_KEY
from sim.dexterity import ShotParams
from sim.physics import add_engine_seconds

from ..restrictions import BREAK_CHOICES, allowed_breaks, break_choices, break_problem, pot_routes
from ..rules.board import Geometry
from ..rules.view import PlanView, Stroke, execute_stroke, striker_spans
from .aim import LOCAL_POCKETS, P_KCOLL, kind_name, make_params
from .candidates import BREAK, PUSH, WORTH_AS_IS, WORTH_COVER, WORTH_LAST_COIN, break_table, pot_table
from .rollout import simulate_values
from .value import situation, weights

if TYPE_CHECKING:
    from .profile import CarromProfile

__all__ = ["Planner", "Candidates", "PUSH", "BREAK"]


class Candidates:
    """Candidate strokes, best first, as the rows of one (6, n) array: striker ``x`` (m),
    ``angle`` (deg), ``speed`` (m/s), ``kind`` (pots: 5 × striker route + coin route, see
    :func:`~sim.carrom.players.aim.kind_name`; :data:`PUSH`, :data:`BREAK`), target coin and local
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
    """The geometry + simulation player (see :mod:`sim.carrom.players.policies`)."""

    def __init__(self, profile: CarromProfile, geo: Geometry):
        self.profile = profile
        self.geo = geo
        self.noise = profile.noise
        self.sigma = self.noise.sigmas()
        self.prm = make_params(geo, profile)
        self.weights = weights(profile)
        self.pockets = LOCAL_POCKETS(geo.rules.board.pocket_centre)
        self.max_speed = geo.rules.striker.max_speed
        self.break_offsets, self.break_aims, self.break_speeds = (
            np.array(v, dtype=np.float64) for v in (profile.break_offsets_m, profile.break_aims, profile.break_speeds)
        )
        self.kept_break: Stroke | None = None  # break_plan = "once_per_match": the match's break
        self.break_plan = profile.break_plan
        self.rehearsed = tuple(
            np.array([v], dtype=np.float64)
            for v in (profile.rehearsed_break_offset_m, profile.rehearsed_break_aim, profile.rehearsed_break_speed)
        )
        # a push's striker speed at the coin for each travel, and the pushes' share of the budget
        self.push_u = [math.sqrt(2 * geo.decel * push) / self.prm[P_KCOLL] for push in profile.push_travel_m]
        self.n_push = min(max(profile.push_min, int(profile.candidates * profile.push_share)), profile.candidates - 1)
        # restricted play (sim.carrom.restrictions): forbidden kinds are never candidates
        forbid = set(getattr(profile, "forbid", ()))
        self.routes = pot_routes(forbid, profile.rebounds)
        self.queen_pots = "shot.queen" not in forbid
        self.pushes = "shot.push" not in forbid
        if not self.pushes:
            self.n_push = 0  # the whole budget goes to pots
        # the break grid less the forbidden break variants (the last resort keeps the whole grid)
        self.break_grid = (self.break_offsets, self.break_aims, self.break_speeds)
        if forbid & BREAK_CHOICES:
            problem = break_problem(profile)
            if problem is not None:  # a profile changed in code (the profile's problems refuse it when loaded)
                raise ConfigError([f"{FORBID_KEY}: {problem}"])
            offsets, aims = allowed_breaks(forbid, profile.break_offsets_m, profile.break_aims)
            self.break_grid = (np.array(offsets, dtype=np.float64), np.array(aims, dtype=np.float64), self.break_speeds)
            if self.break_plan == "rehearsed" and forbid & set(
                break_choices(profile.rehearsed_break_offset_m, profile.rehearsed_break_aim)
            ):
                self.break_plan = "once_per_match"  # the rehearsed break is forbidden: plan one from the grid

    def execute(self, stroke: Stroke, rng: np.random.Generator) -> ShotParams:
        return execute_stroke(self.noise, self.max_speed, stroke, rng)

    # ------------------------------------------------------------------ candidates
    def breaks(self, spans: np.ndarray, limit: int) -> Candidates:
        """The first ``limit`` breaks of the profile's grid (offsets × aims × speeds) less the
        forbidden break variants (:func:`~sim.carrom.restrictions.allowed_breaks`)."""
        return Candidates(break_table(spans, *self.break_grid, self.geo.rc, self.geo.striker_y, self.max_speed, limit))

    def through_middle(self, spans: np.ndarray) -> Candidates:
        """The last resort: the first break of the whole grid (never forbidden: it is no break)."""
        return Candidates(
            break_table(
                spans,
                self.break_offsets,
                self.break_aims,
                self.break_speeds,
                self.geo.rc,
                self.geo.striker_y,
                self.max_speed,
                1,
            )
        )

    def rehearsed_break(self, spans: np.ndarray) -> Candidates:
        """The profile's rehearsed break (``rehearsed_break_*``), from the nearest free spot."""
        return Candidates(break_table(spans, *self.rehearsed, self.geo.rc, self.geo.striker_y, self.max_speed, 1))

    def _worth(self, view: PlanView) -> tuple[int, float]:
        """How the own coins are ranked: (``candidates.WORTH_*`` mode, its value)."""
        p = self.profile
        if (
            not view.three
            and not view.solo
            and view.own_left <= 1
            and not view.queen_settled
            and not view.queen_pending
        ):
            # the last coin must wait for the queen (family: potting it may unlock the queen)
            late = p.rank_last_coin_unlocks if _last_coin_unlocks(self.geo.rules) else p.rank_last_coin_waits
            return WORTH_LAST_COIN, late
        if view.queen_pending:
            return WORTH_COVER, p.rank_cover_factor  # the cover
        return WORTH_AS_IS, 0.0

    def _pushes(self, ahead: np.ndarray, limit: int) -> list[tuple]:
        """Straight, full-ball pushes of the coins ``ahead`` (:func:`~sim.carrom.players.candidates.pot_table`),
        each as far as ``push_travel_m`` says: fallback strokes when nothing can be potted and
        safety strokes. (The distance is ``math.hypot``'s, as the decisions were tuned with.)"""
        geo = self.geo
        rs, rc, a = geo.rs, geo.rc, geo.decel
        rows: list[tuple] = []
        for i, x, angle, dx, dy in ahead.tolist():
            if len(rows) >= limit:
                break
            D = math.hypot(dx, dy)
            if D <= rs + rc:
                continue
            travel = D - rs - rc
            for u in self.push_u:
                v0 = math.sqrt(u * u + 2 * a * travel)
                rows.append((x, angle, min(v0, self.max_speed), PUSH, i, -1))
        return rows[:limit]

    def candidates(self, view: PlanView, spans: np.ndarray) -> Candidates:
        """The strokes worth simulating, best first (at most ``candidates``): the best pots,
        then ``push_share`` of the budget (at least ``push_min``) as pushes; none of a kind the
        profile forbids (no pushes: the whole budget to pots). Nothing allowed to pot or push: a
        firm stroke through the middle (the fallback, never forbidden). The break: the allowed
        grid's first ``candidates`` breaks, or the rehearsed break (unless forbidden: then the
        allowed grid, planned once per match)."""
        p = self.profile
        budget = p.candidates
        if view.is_break:
            # a rehearsed break is one candidate: nothing is simulated
            return self.rehearsed_break(spans) if self.break_plan == "rehearsed" else self.breaks(spans, budget)
        mode, arg = self._worth(view)
        # only budget - n_push pots can be used (the pushes' share is theirs, or left to more
        # pushes when fewer pots exist), so the search looks for no more: it stops sooner
        table, ahead, n_pots = pot_table(
            view.pos @ view.rot,
            view.on,
            view.own,
            self._coin_values(view),
            bool(self.queen_pots and view.queen_on and (view.queen_allowed or view.solo)),
            float(view.queen_value),
            mode,
            float(arg),
            p.rank_worth_floor,
            self.pockets,
            spans,
            p.aim_grid_m,
            self.routes,
            self.prm,
            budget - self.n_push,
            p.pot_min_prior,
        )
        pushes = self._pushes(ahead, max(self.n_push, budget - n_pots)) if self.pushes else []
        if not n_pots and not pushes:  # nothing to pot and nothing in front: a firm stroke through the middle
            return self.through_middle(spans)
        rows = np.empty((6, n_pots + len(pushes)))
        rows[:, :n_pots] = table[:, :n_pots]
        for j, row in enumerate(pushes):
            rows[:, n_pots + j] = row
        return Candidates(rows)

    @staticmethod
    def _coin_values(view: PlanView) -> np.ndarray:
        cv = view.coin_value
        return cv if isinstance(cv, np.ndarray) and cv.dtype == np.float64 else np.asarray(cv, dtype=np.float64)

    # ------------------------------------------------------------------ deciding
    def decide(self, view: PlanView, rng: np.random.Generator) -> Stroke:
        """The candidate with the best mean simulated value, by successive halving: every
        candidate ``screen_samples`` times, the best ``finalists`` up to ``samples``. With
        ``break_plan = "once_per_match"`` the seat's first break of the match is kept and
        played again at its later breaks (this planner lives for one match), as is a break
        planned because the rehearsed one is forbidden."""
        if view.is_break and self.kept_break is not None:
            return self.kept_break
        stroke = self._decide(view, rng)
        if view.is_break and self.break_plan == "once_per_match" and math.isfinite(stroke.x):
            self.kept_break = stroke
        return stroke

    def _decide(self, view: PlanView, rng: np.random.Generator) -> Stroke:
        spans = striker_spans(view)
        if len(spans) == 0:
            return Stroke(float("nan"), 0.0, 0.0, "none")
        cands = self.candidates(view, spans)
        if len(cands) == 1:
            return cands.stroke(0)
        p = self.profile
        sit = situation(view, p.safety)
        first = min(p.screen_samples, p.samples)
        scores = self._simulate(sit, view, cands, first, rng)
        if first < p.samples:
            pool = np.argsort(-scores.mean(axis=1), kind="stable")[: p.finalists]
            more = self._simulate(
                sit, view, Candidates(np.ascontiguousarray(cands.table[:, pool])), p.samples - first, rng
            )
            scores = np.concatenate([scores[pool], more], axis=1)
        else:
            pool = None
        mean = np.add.reduce(scores, axis=1) / scores.shape[1]  # = scores.mean(axis=1), without its checks
        best = int(mean.argmax())
        return cands.stroke(best if pool is None else int(pool[best]), float(mean[best]))

    def _simulate(
        self, sit: np.ndarray, view: PlanView, cands: Candidates, samples: int, rng: np.random.Generator
    ) -> np.ndarray:
        """(len(cands), samples) values of noisy executions of the candidates (``sit``: the
        situation array, :func:`~sim.carrom.players.value.situation`)."""
        z = rng.standard_normal((3, len(cands), samples))  # sim.physics.execute_shots's draws
        return self.values(sit, view, cands, z)

    def values(self, sit: np.ndarray, view: PlanView, cands: Candidates, z: np.ndarray) -> np.ndarray:
        """(len(cands), samples) values of the candidates executed with the standard-normal
        draws ``z`` (3, len(cands), samples) scaled by the player's noise."""
        geo = self.geo
        samples = z.shape[2]
        values, seconds = simulate_values(
            cands.x,
            cands.angle,
            cands.speed,
            z,
            self.sigma,
            self.max_speed,
            geo.striker_y,
            view.spans,
            view.rot,
            geo.engine_args,
            view.pos,
            view.on,
            geo.radii,
            geo.masses,
            view.own,
            view.opp,
            self._coin_values(view),
            view.next_targets,
            view.next_rot,
            sit,
            self.weights,
            self.pockets,
            self.profile.position_grid_m,
            geo.legal,
            self.prm,
        )
        add_engine_seconds(seconds)
        return values.reshape(len(cands), samples)
