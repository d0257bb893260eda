"""Simulated Curlastique players: a profile (skill as numbers) and the policies built from it.

Skill is two things (see :class:`CurlastiqueProfile`): execution noise (Gaussian σ on the
lateral start, the aim angle and, relatively, the speed) and planning budget (how many
candidate shots are considered and how many noisy outcomes are averaged for each).

The :class:`Planner` proposes candidates from shot families — ``draw`` to a free spot of the
best zones (straight or angled), ``takeout`` of an opponent's scoring puck (firm, soft, or cut),
``raise`` of its own puck towards the centre, ``double`` (a take-out aimed so the hit puck runs
into a second opponent puck), ``guard`` in front of its side's best puck, and jittered draws
— then simulates every candidate × noise sample under its OWN noise in one
:func:`sim.physics.simulate_batch` call and keeps the candidate with the best expected margin
(its side's round points after the throw minus the best other side's). :class:`RandomPlayer`
throws uniform legal shots (a baseline).

All draws come from the generator passed in (the seat's own stream).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np

from sim.core.config import param
from sim.physics import ExecutionNoise, execute_shots

from .board import aim_angle, simulate_throws
from .situation import Shot, Situation, free_launch_x
from .rules import CurlastiqueRules
from .scoring import scorer

__all__ = ["CurlastiqueProfile", "Policy", "RandomPlayer", "Planner", "make_policy", "FAMILIES"]

FAMILIES = ("draw", "takeout", "raise", "double", "guard")


@dataclass(frozen=True)
class CurlastiqueProfile:
    """A simulated player.

    Attributes:
        kind: ``planner`` (plans with its own noise) or ``random`` (uniform legal shots, no noise).
        position_sigma_m: σ of the lateral start position (m).
        angle_sigma_deg: σ of the aim angle (degrees).
        speed_sigma_rel: σ of the launch speed, relative (0.05 = 5 % of the intended speed).
        candidates: candidate shots considered per throw.
        samples: noisy outcomes simulated per candidate.
        families: shot families the planner may use (any of draw, takeout, raise, double, guard).
    """

    kind: Literal["planner", "random"] = param("planner", doc="planner or random")
    position_sigma_m: float = param(0.003, min=0.0, max=0.1, unit="m", doc="σ of the lateral start position")
    angle_sigma_deg: float = param(1.0, min=0.0, max=30.0, unit="deg", doc="σ of the aim angle")
    speed_sigma_rel: float = param(0.03, min=0.0, max=1.0, unit="fraction of the speed",
                                   doc="σ of the launch speed, relative")
    candidates: int = param(24, min=1, max=1000, unit="shots", doc="candidate shots per throw")
    samples: int = param(4, min=1, max=200, unit="outcomes", doc="noisy outcomes simulated per candidate")
    families: tuple[str, ...] = param(FAMILIES, doc="shot families the planner may use")

    def problems(self) -> list[tuple[str, str]]:
        bad = [f for f in self.families if f not in FAMILIES]
        if bad:
            return [("families", f"unknown family {bad[0]!r}; allowed: {', '.join(FAMILIES)}")]
        if self.kind == "planner" and not self.families:
            return [("families", "a planner needs at least one family; allowed: " + ", ".join(FAMILIES))]
        return []


# ---------------------------------------------------------------------------------------------
# Execution
# ---------------------------------------------------------------------------------------------

def clip_shots(rules: CurlastiqueRules, x, angle, speed):
    """Clip shots to what the launcher allows: |x| <= x_max, |angle| <= angle_max, 0 <= speed <= max."""
    lim = rules.launch
    return (np.clip(x, -lim.x_max, lim.x_max), np.clip(angle, -lim.angle_max_deg, lim.angle_max_deg),
            np.clip(speed, 0.0, rules.max_speed))


class Policy(ABC):
    """Base policy: executes shots exactly (no noise). Subclasses implement :meth:`decide`."""

    def __init__(self, rules: CurlastiqueRules):
        self.rules = rules

    @abstractmethod
    def decide(self, situation: Situation, rng: np.random.Generator) -> Shot:
        """The intended shot for this situation (draws only from ``rng``)."""

    def execute(self, shot: Shot, rng: np.random.Generator) -> tuple[float, float, float]:
        x, a, v = clip_shots(self.rules, shot.x, shot.angle_deg, shot.speed)
        return float(x), float(a), float(v)


class RandomPlayer(Policy):
    """Uniform legal shots: start, angle and speed each uniform over their allowed range."""

    def decide(self, situation: Situation, rng: np.random.Generator) -> Shot:
        lim = self.rules.launch
        x = rng.uniform(-lim.x_max, lim.x_max)
        a = rng.uniform(-lim.angle_max_deg, lim.angle_max_deg)
        v = rng.uniform(0.0, self.rules.max_speed)
        return Shot(float(x), float(a), float(v), "random")


class NoisyPolicy(Policy):
    """A policy whose throws are perturbed by the profile's execution noise."""

    def __init__(self, rules: CurlastiqueRules, profile: CurlastiqueProfile):
        super().__init__(rules)
        self.profile = profile
        self.noise = ExecutionNoise(profile.position_sigma_m, profile.angle_sigma_deg, profile.speed_sigma_rel)

    def noisy(self, x, angle, speed, rng, samples=None):
        """Executed shots (clipped) for intended ones; ``samples=S`` adds a trailing axis of S."""
        ex, ea, es = execute_shots(np.asarray(x, float), np.asarray(angle, float),
                                   np.asarray(speed, float), self.noise, rng, samples=samples)
        return clip_shots(self.rules, ex, ea, es)

    def execute(self, shot: Shot, rng: np.random.Generator) -> tuple[float, float, float]:
        x, a, v = self.noisy(shot.x, shot.angle_deg, shot.speed, rng)
        return float(x), float(a), float(v)


# ---------------------------------------------------------------------------------------------
# The planner
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Kit:
    """Per-rules constants of the planner."""

    r: float
    d: float
    y0: float
    x_max: float
    a_max: float
    v_max: float
    mug: float          # deceleration μg (m/s²)
    e: float
    centre: np.ndarray  # (2,)
    spots: np.ndarray   # (P, 2) draw spots, best zone first
    spot_values: np.ndarray


@lru_cache(maxsize=32)
def _kit(rules: CurlastiqueRules) -> _Kit:
    r = rules.puck.radius
    cy = rules.zones.centre_y
    radii = np.asarray(rules.zones.radii)
    score = scorer(rules.zones, r)
    rows = [np.array([[0.0, cy]])]
    inner = 0.0
    for radius in radii:
        lo, hi = inner + r, radius - r
        rho = 0.5 * (lo + hi) if hi > lo else 0.5 * (inner + radius)
        phi = np.arange(8) * (np.pi / 4) + (np.pi / 8 if len(rows) % 2 else 0.0)
        if rho > 0:
            rows.append(np.c_[rho * np.sin(phi), cy - rho * np.cos(phi)])
        inner = radius
    spots = np.vstack(rows)
    on_board = ((np.abs(spots[:, 0]) <= rules.board.width / 2 - r)
                & (spots[:, 1] <= rules.board.length - r) & (spots[:, 1] >= rules.launch_y + rules.puck.diameter))
    spots = spots[on_board]
    values = score.points(spots)
    # best zone first; within a zone, nearest the centre, then nearest the axis, then the near side
    order = np.lexsort((spots[:, 1], np.abs(spots[:, 0]), np.hypot(spots[:, 0], spots[:, 1] - cy), -values))
    return _Kit(r=r, d=rules.puck.diameter, y0=rules.launch_y, x_max=rules.launch.x_max,
                a_max=rules.launch.angle_max_deg, v_max=rules.max_speed,
                mug=rules.physics.friction * rules.physics.gravity, e=rules.physics.restitution,
                centre=np.array([0.0, cy]), spots=spots[order], spot_values=values[order])


class _Pool:
    """Candidate shots by family, in each family's own priority order."""

    def __init__(self):
        self.rows: dict[str, list[tuple[float, float, float]]] = {f: [] for f in FAMILIES}

    def add(self, family: str, x0, angle, speed) -> None:
        for a, b, c in zip(np.atleast_1d(x0), np.atleast_1d(angle), np.atleast_1d(speed), strict=True):
            self.rows[family].append((float(a), float(b), float(c)))


#: The order in which families fill a candidate budget (then repeats).
_PATTERN = ("draw", "takeout", "draw", "raise", "takeout", "double", "draw", "guard")


class Planner(NoisyPolicy):
    """Generates candidate shots, simulates each under its own noise, keeps the best on average."""

    def __init__(self, rules: CurlastiqueRules, profile: CurlastiqueProfile):
        super().__init__(rules, profile)
        self.kit = _kit(rules)
        self.score = scorer(rules.zones, rules.puck.radius)
        self.families = set(profile.families)

    # -- geometry ------------------------------------------------------------------------------
    def aim(self, x0, tx, ty):
        """Angle (deg) and distance (m) from a start ``x0`` to a point ``(tx, ty)``."""
        dx, dy = np.asarray(tx) - x0, np.asarray(ty) - self.kit.y0
        return aim_angle(dx, dy), np.hypot(dx, dy)

    def draw_speed(self, dist):
        """Launch speed (m/s) that stops a free puck after ``dist`` (m): √(2μg·dist)."""
        return np.sqrt(2 * self.kit.mug * np.maximum(dist, 0.0))

    def hit_speed(self, dist, impact):
        """Launch speed (m/s) that arrives at speed ``impact`` after ``dist`` (m), capped."""
        return np.minimum(np.sqrt(impact ** 2 + 2 * self.kit.mug * np.maximum(dist, 0.0)), self.kit.v_max)

    def along(self, point, direction):
        """Start ``x0`` (m) and angle of the path that passes through ``point`` moving along
        unit ``direction``; None when it needs an illegal start or angle."""
        k = self.kit
        if direction[1] <= 0.2:
            return None
        x0 = point[0] - (point[1] - k.y0) * direction[0] / direction[1]
        angle = float(aim_angle(direction[0], direction[1]))
        if abs(x0) > k.x_max or abs(angle) > k.a_max:
            return None
        return x0, angle

    # -- candidates ----------------------------------------------------------------------------
    def pool(self, sit: Situation) -> _Pool:
        k = self.kit
        pool = _Pool()
        pos, owner = sit.pos, sit.owner
        mine = sit.side[owner] == sit.side[sit.seat]
        pts = self.score.points(pos)
        fam = self.families
        # draws: free spots, best zone first; straight then angled approaches
        if "draw" in fam:
            spots = k.spots
            if len(pos):
                gap = np.min(np.linalg.norm(spots[:, None, :] - pos[None, :, :], axis=2), axis=1)
                spots = spots[gap > k.d * 1.15]
            spots = spots[:6]
            for x_off in (0.0, -0.09, 0.09):
                x0 = np.clip(spots[:, 0] + x_off, -k.x_max, k.x_max)
                ang, dist = self.aim(x0, spots[:, 0], spots[:, 1])
                pool.add("draw", x0, ang, self.draw_speed(dist))
        # take-outs of the opponents' scoring pucks, best first
        theirs = np.flatnonzero(~mine & (pts > 0))
        theirs = theirs[np.lexsort((-pos[theirs, 1], -pts[theirs]))] if len(theirs) else theirs
        if "takeout" in fam:
            for impact, offsets in ((1.2, (0.0,)), (0.6, (0.0,)), (1.2, (-0.6, 0.6))):
                for i in theirs[:3]:
                    for off in offsets:
                        tx = pos[i, 0] + off * k.r
                        x0 = float(np.clip(tx, -k.x_max, k.x_max))
                        ang, dist = self.aim(x0, tx, pos[i, 1])
                        pool.add("takeout", x0, ang, self.hit_speed(dist - k.d, impact))
        # raises: push one's own puck towards the centre along the line of centres
        if "raise" in fam:
            own = np.flatnonzero(mine & (pts < k.spot_values[0]))
            for i in own[np.argsort(-pts[own])][:3]:
                gap = k.centre - pos[i]
                dist_t = float(np.hypot(*gap))
                if dist_t < 1e-6:
                    continue
                n = gap / dist_t
                contact = pos[i] - k.d * n
                path = self.along(contact, n)
                if path is None:
                    continue
                x0, ang = path
                v_target = math.sqrt(2 * k.mug * dist_t)
                impact = 2 * v_target / (1 + k.e)
                reach = math.hypot(contact[0] - x0, contact[1] - k.y0)
                pool.add("raise", x0, ang, self.hit_speed(reach, impact))
        # doubles: hit one opponent puck into another
        if "double" in fam and len(theirs) >= 2:
            for i in theirs[:3]:
                for j in theirs[:4]:
                    gap = pos[j] - pos[i]
                    dist = float(np.hypot(*gap))
                    if i == j or dist > 0.2:
                        continue
                    n = gap / dist
                    contact = pos[i] - k.d * n
                    path = self.along(contact, n)
                    if path is None:
                        continue
                    x0, ang = path
                    reach = math.hypot(contact[0] - x0, contact[1] - k.y0)
                    pool.add("double", x0, ang, self.hit_speed(reach, 1.6))
        # guards: in front of the side's best puck (or of the centre if the board is empty)
        if "guard" in fam:
            ours = np.flatnonzero(mine & (pts > 0))
            targets = [pos[ours[np.argmax(pts[ours])]]] if len(ours) else [k.centre]
            for t in targets:
                for back in (0.16, 0.24):
                    ty = t[1] - back
                    if ty > k.y0 + k.d:
                        x0 = float(np.clip(t[0], -k.x_max, k.x_max))
                        ang, dist = self.aim(x0, t[0], ty)
                        pool.add("guard", x0, ang, self.draw_speed(dist))
        return pool

    def candidates(self, sit: Situation, rng: np.random.Generator):
        """Up to ``profile.candidates`` shots ``(x0, angle, speed, family)`` as arrays."""
        budget = self.profile.candidates
        pool = self.pool(sit).rows
        cursor = dict.fromkeys(FAMILIES, 0)
        picked: list[tuple[float, float, float]] = []
        fams: list[str] = []
        while len(picked) < budget:
            progressed = False
            for family in _PATTERN:
                if len(picked) >= budget:
                    break
                rows = pool[family]
                if cursor[family] < len(rows):
                    picked.append(rows[cursor[family]])
                    fams.append(family)
                    cursor[family] += 1
                    progressed = True
            if not progressed:
                break
        shots = np.array(picked, dtype=float).reshape(-1, 3)
        extra = budget - len(shots)
        if extra > 0:  # jittered variations of the first candidates (random shots if none)
            base = shots[np.arange(extra) % len(shots)] if len(shots) else None
            if base is None:
                lim = self.rules.launch
                jitter = np.c_[rng.uniform(-lim.x_max, lim.x_max, extra),
                               rng.uniform(-lim.angle_max_deg, lim.angle_max_deg, extra),
                               rng.uniform(0.3, 1.0, extra) * self.draw_speed(self.kit.centre[1] - self.kit.y0)]
                fams += ["random"] * extra
            else:
                scale = np.c_[np.full(extra, 0.01), np.full(extra, 1.0), 0.03 * base[:, 2]]
                jitter = base + rng.normal(0.0, 1.0, (extra, 3)) * scale
                fams += [fams[i % len(fams)] for i in range(extra)]
            shots = np.vstack([shots, jitter])
        x, a, v = clip_shots(self.rules, shots[:, 0], shots[:, 1], shots[:, 2])
        return x, a, v, fams

    # -- evaluation ----------------------------------------------------------------------------
    def decide(self, sit: Situation, rng: np.random.Generator) -> Shot:
        x, a, v, fams = self.candidates(sit, rng)
        c, s = len(x), self.profile.samples
        ex, ea, es = self.noisy(x, a, v, rng, samples=s)            # (C, S)
        ex = free_launch_x(self.rules, ex, sit.pos)
        final, on = simulate_throws(self.rules, sit.pos, sit.owner, sit.seat,
                                    ex.ravel(), ea.ravel(), es.ravel())   # (K, N, 2), (K, N)
        margin = self.margins(sit, final, on).reshape(c, s).mean(axis=1)
        best = int(np.argmax(margin))
        return Shot(float(x[best]), float(a[best]), float(v[best]), fams[best], float(margin[best]))

    def margins(self, sit: Situation, final: np.ndarray, on: np.ndarray) -> np.ndarray:
        """Own side's round points minus the best other participating side's, per outcome (K,)."""
        owners = np.append(sit.owner, sit.seat)
        sides = sit.side[owners]
        pts = self.score.points(final, on)                             # (K, N)
        mine = sit.side[sit.seat]
        others = sorted({int(sit.side[s]) for s in sit.order} - {int(mine)})
        own = pts[:, sides == mine].sum(axis=1)
        best_other = np.max(np.stack([pts[:, sides == o].sum(axis=1) for o in others]), axis=0) \
            if others else np.zeros(len(pts))
        return (own - best_other).astype(float)


def make_policy(profile, rules: CurlastiqueRules) -> Policy:
    """The policy of a seat: its profile itself if it already is one (scripted tests), else
    a :class:`Planner` or :class:`RandomPlayer` built from a :class:`CurlastiqueProfile`."""
    if hasattr(profile, "decide") and hasattr(profile, "execute"):
        return profile
    if profile.kind == "random":
        return RandomPlayer(rules)
    return Planner(rules, profile)
