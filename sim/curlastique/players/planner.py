"""The Curlastique planner: candidate shots simulated under the player's own noise.

:meth:`Planner.decide` takes the candidates of :mod:`sim.curlastique.players.families` (up to the
profile's ``candidates``, filled in its ``fill_order``, none that its ``forbid`` rules out; when
the families offer fewer, jittered copies of them, or uniform random shots when they offer
none), throws each ``samples`` times
with the profile's execution noise, settles all of them on the game's
:class:`~sim.curlastique.rules.board.Arena` (the broad phase, then the engine for the throws that touch
something) and keeps the candidate with the best mean margin: its side's round points after the
throw minus the best other participating side's; all of that in one compiled call (:func:`_plan`).

Per decision the generator gives, in this order: the jitter's normals (or the random shots'
uniforms), then the candidates' noise (three standard normals per candidate × sample, in the
order position, angle, speed, as :func:`sim.physics.execute_shots` draws them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import njit

from sim.physics import STATUS_ON, add_engine_seconds
from sim.physics.noise import compiled_executed

from ..rules.board import Arena, arena
from ..rules.flight import free_flights, launch_velocity_of
from ..rules.schema import CurlastiqueRules
from ..rules.scoring import zone_points
from ..rules.settling import engine_batch
from ..rules.situation import Shot, Situation, off_spans, start_line_spans
from .families import AIM, FAMILIES, G_CENTRE_Y, G_DECEL, G_LAUNCH_Y, RANDOM, candidate_rows, finish, kit
from .throwing import NoisyPolicy

if TYPE_CHECKING:
    from .profile import CurlastiqueProfile

__all__ = ["Planner", "Candidates"]

_NAMES = (*FAMILIES, "random")


class Candidates(NamedTuple):
    """Candidate shots: ``shots`` (C, 3) ``x0`` (m), ``angle_deg``, ``speed`` (m/s), the
    family id of each, (C,) (``families.FAMILY_IDS``, or ``families.RANDOM``), and the ring
    each aims at, (C,) (1 the innermost; 0 none: random shots)."""

    shots: np.ndarray
    families: np.ndarray
    aims: np.ndarray


@njit(cache=True, error_model="numpy")
def _throws(shots, z, sigmas, limits, pos, launch_y, d, a, edges, circles, parked):
    """The candidates' noisy throws, settled where they touch nothing.

    Clips the candidate ``shots`` (C, 3) in place to the launcher's ``limits`` (x, angle,
    speed); executes each with the noise ``z`` (3, C, S) (σ ``sigmas``), moved off pucks on the
    start line. Returns, per throw k = c·S + s: ``placed`` (the puck could be set on the start
    line), then :func:`~sim.curlastique.rules.flight.free_flights`' ``free``, ``rest`` and the starts
    and velocities of the throws left to the engine."""
    nc, ns = z.shape[1], z.shape[2]
    x_max, a_max, v_max = limits
    spans = start_line_spans(pos, launch_y, d)
    starts, vel = np.empty((nc * ns, 2)), np.empty((nc * ns, 2))
    placed = np.empty(nc * ns, dtype=np.bool_)
    for c in range(nc):
        x = min(max(shots[c, 0], -x_max), x_max)
        an = min(max(shots[c, 1], -a_max), a_max)
        v = min(max(shots[c, 2], 0.0), v_max)
        shots[c, 0], shots[c, 1], shots[c, 2] = x, an, v
        for s in range(ns):
            k = c * ns + s
            ex, ea, ev = compiled_executed(x, an, v, sigmas, z[0, c, s], z[1, c, s], z[2, c, s])
            ex = min(max(ex, -x_max), x_max)
            ea = min(max(ea, -a_max), a_max)
            ev = min(max(ev, 0.0), v_max)
            if spans.shape[0]:
                ex = off_spans(ex, spans, x_max)
            placed[k] = np.isfinite(ex)
            starts[k, 0], starts[k, 1] = ex, launch_y
            vel[k, 0], vel[k, 1] = launch_velocity_of(ea, ev if placed[k] else 0.0)
    free, rest, hit_starts, hit_vel = free_flights(pos, starts, vel, a, d / 2, edges, circles, parked)
    return placed, free, rest, hit_starts, hit_vel


@njit(cache=True, error_model="numpy")
def _jittered(shots, fams, z, jitter):
    """The ``shots`` (n, 3) and their families, then ``len(z)`` jittered copies of them in turn:
    ``shot + z·(σ_x, σ_angle, σ_speed·speed)`` (``jitter`` the three σ)."""
    n, extra = shots.shape[0], z.shape[0]
    out = np.empty((n + extra, 3))
    out_fams = np.empty(n + extra, dtype=np.int64)
    for i in range(n):  # loops, not slice assignments (those compile shape-error formatting)
        out[i, 0], out[i, 1], out[i, 2], out_fams[i] = shots[i, 0], shots[i, 1], shots[i, 2], fams[i]
    for i in range(extra):
        b = i % n
        out[n + i, 0] = shots[b, 0] + z[i, 0] * jitter[0]
        out[n + i, 1] = shots[b, 1] + z[i, 1] * jitter[1]
        out[n + i, 2] = shots[b, 2] + z[i, 2] * (jitter[2] * shots[b, 2])
        out_fams[n + i] = fams[b]
    return out, out_fams


@njit(cache=True, error_model="numpy")
def _best(pos, owner, seat, side, rival, samples, placed, free, rest, engine_final, engine_status, zones):
    """Index and mean margin of the best candidate: per outcome, the thrower's side's points
    minus the best rival side's (``rival`` (n_sides,) bool: the other sides playing this
    round). Outcome k is, if ``free[k]``, the pucks at rest unmoved and the thrown one at
    ``rest[k]`` (in play if ``placed[k]``), else the engine's next row."""
    cx, cy, radii, values, rule, radius, decreasing = zones
    m, n_sides, mine = pos.shape[0], rival.shape[0], side[seat]
    resting = np.zeros(n_sides)  # points of the pucks at rest, unmoved, by side
    pts = np.empty(m)
    for i in range(m):
        pts[i] = zone_points(pos[i, 0], pos[i, 1], cx, cy, radii, values, rule, radius, decreasing)
        resting[side[owner[i]]] += pts[i]
    totals = np.zeros(n_sides)
    best, best_margin, j = 0, -np.inf, 0
    for c in range(free.shape[0] // samples):
        acc = 0.0
        for s in range(samples):
            k = c * samples + s
            if free[k]:
                for r in range(n_sides):
                    totals[r] = resting[r]
                if placed[k]:
                    totals[mine] += zone_points(rest[k, 0], rest[k, 1], cx, cy, radii, values, rule, radius, decreasing)
            else:
                totals[:] = 0.0
                for i in range(m + 1):
                    if engine_status[j, i] != STATUS_ON:
                        continue
                    x, y = engine_final[j, i, 0], engine_final[j, i, 1]
                    if i < m and x == pos[i, 0] and y == pos[i, 1]:  # not moved: as it lay
                        totals[side[owner[i]]] += pts[i]
                    else:
                        totals[side[owner[i]] if i < m else mine] += zone_points(
                            x, y, cx, cy, radii, values, rule, radius, decreasing
                        )
                j += 1
            other = 0.0
            if rival.any():
                other = -np.inf
                for r in range(n_sides):
                    if rival[r] and totals[r] > other:
                        other = totals[r]
            acc += totals[mine] - other
        margin = acc / samples
        if margin > best_margin:
            best, best_margin = c, margin
    return best, best_margin


@njit(cache=True, error_model="numpy")
def _plan(shots, z, sigmas, limits, pos, owner, seat, side, rival, samples, zones, flight, engine, mass):
    """:func:`_throws`, the engine for the throws that touch something
    (:func:`~sim.curlastique.rules.settling.engine_batch`) and :func:`_best`, in one call: the best
    candidate's index, its mean margin and the engine's CPU seconds."""
    launch_y, d, a, edges, circles, parked = flight
    placed, free, rest, hit_starts, hit_vel = _throws(
        shots, z, sigmas, limits, pos, launch_y, d, a, edges, circles, parked
    )
    final, status, seconds = engine_batch(pos, parked, hit_starts, hit_vel, engine, d / 2, mass)
    best, margin = _best(pos, owner, seat, side, rival, samples, placed, free, rest, final, status, zones)
    return best, margin, seconds


class Planner(NoisyPolicy):
    """Generates candidate shots, simulates each under its own noise, keeps the best on average."""

    def __init__(self, rules: CurlastiqueRules, profile: CurlastiqueProfile, board: Arena | None = None):
        super().__init__(rules, profile)
        self.arena = arena(rules) if board is None else board
        self.kit = kit(rules, profile)
        self.noise = np.array(self.sigmas)
        self._rivals: dict[tuple, np.ndarray] = {}
        self.jitter = np.array([profile.jitter_x_m, profile.jitter_angle_deg, profile.jitter_speed_rel])

    def rivals(self, sit: Situation) -> np.ndarray:
        """(n_sides,) bool: the sides other than the thrower's playing this round."""
        key = (sit.order, sit.seat, len(sit.side))
        rival = self._rivals.get(key)
        if rival is None:
            rival = np.zeros(int(sit.side.max()) + 1, dtype=np.bool_)
            rival[sit.side[list(sit.order)]] = True
            rival[sit.side[sit.seat]] = False
            self._rivals[key] = rival
        return rival

    def candidates(self, sit: Situation, rng: np.random.Generator) -> Candidates:
        """Up to ``profile.candidates`` shots, not yet clipped to the launcher's limits; none
        of a family or aimed at a ring the profile forbids (the random shots, thrown when no
        family offers an allowed one, are of no family and aimed at no ring)."""
        budget = self.profile.candidates
        rows = candidate_rows(self.kit, sit.pos, sit.owner, sit.side, sit.seat, budget)
        shots = finish(self.kit, rows)
        aims = rows[:, AIM].astype(np.int64)
        extra = budget - len(shots)
        if extra <= 0:
            return Candidates(shots, rows[:, 0].astype(np.int64), aims)
        if len(shots):  # jittered copies of the first candidates (aimed where they are)
            jittered, fams = _jittered(
                shots, rows[:, 0].astype(np.int64), rng.normal(0.0, 1.0, (extra, 3)), self.jitter
            )
            return Candidates(jittered, fams, np.concatenate([aims, aims[np.arange(extra) % len(aims)]]))
        x_max, a_max, _ = self.limits  # no family offers a shot: random ones
        low, high = self.profile.fallback_speed
        g = self.kit.geometry
        draw = np.sqrt(2 * float(g[G_DECEL]) * max(float(g[G_CENTRE_Y] - g[G_LAUNCH_Y]), 0.0))
        shots = np.column_stack(
            [rng.uniform(-x_max, x_max, extra), rng.uniform(-a_max, a_max, extra), rng.uniform(low, high, extra) * draw]
        )
        return Candidates(shots, np.full(extra, RANDOM, dtype=np.int64), np.zeros(extra, dtype=np.int64))

    def decide(self, sit: Situation, rng: np.random.Generator) -> Shot:
        shots, fams, aims = self.candidates(sit, rng)
        samples, board = self.profile.samples, self.arena
        z = rng.standard_normal((3, len(shots), samples))
        best, margin, seconds = _plan(
            shots,
            z,
            self.noise,
            self.limits,
            sit.pos,
            sit.owner,
            sit.seat,
            sit.side,
            self.rivals(sit),
            samples,
            self.kit.zones,
            board.flight,
            board.engine_args,
            board.mass,
        )
        add_engine_seconds(seconds)
        x, a, v = shots[best].tolist()
        return Shot(x, a, v, _NAMES[fams[best]], margin, int(aims[best]))
