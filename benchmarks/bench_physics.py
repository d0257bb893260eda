"""Shots per second of the disc physics engine on one core, side by side with pymunk.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_physics.py [--format json] [--seconds S]

Cases (scenes from `sim.physics.scenes`, the games' default numbers):
  (a) Carrom break: striker at 4 m/s (a set of slightly noisy breaks: σ 5 mm, 0.5°, 2 %)
      into the full ICF formation of 19 coins; one `simulate` call per break.
  (b) Curlastique throw at 1.4 m/s (σ 3 cm lateral, 2°, 3 %) into the target with 9 pucks
      lying around it: one `simulate` call per throw, and batched (`simulate_batch`,
      1,000 throws per call).
The same scenes run in pymunk (Chipmunk 2D) with the same physics: 1 ms steps, Coulomb
friction applied after each step as a velocity decrement μg·dt clamped at zero, the same
restitutions (pymunk multiplies the two shapes' elasticities, so discs get √e and walls
e_wall/√e), frictionless contacts, pockets and out boundaries as sensors (a pocket captures
a disc whose centre is inside the capture circle; an out boundary takes a disc that touches
it while approaching it). pymunk has no batching: its batched figure is its per-throw figure.
Agreement: max distance (m) between the two engines' final positions on a non-chaotic cut
(`scenes.carrom_cut_shot`: the striker cuts one coin into a pocket).

Timing: CPU time of this process (`time.process_time`; everything here is single-threaded,
so this is shots per second of one core, and other load on the machine does not count against
us), after a warm-up call (compilation / cache load not counted). Each case runs for about
`seconds_per_case` split in 5 windows and reports the best window.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sim.physics import (  # noqa: E402
    STATUS_ON,
    STATUS_OUT,
    STATUS_POCKETED,
    Discs,
    ExecutionNoise,
    Physics,
    Table,
    execute_shots,
    heading,
    simulate,
    simulate_batch,
)
from sim.physics import scenes as S  # noqa: E402

WINDOWS = 5
BATCH = 1000


# ------------------------------------------------------------------------------ pymunk
DISC_T, POCKET_T, OUT_T = 1, 2, 3  # pymunk collision types


def _pymunk_static(pymunk, space, table: Table, se: float) -> dict:
    """The table's static bodies in `space` (walls and posts bounce; out elements and pockets
    are sensors); returns {pocket shape: (x, y, capture radius)}."""
    static = space.static_body
    for x1, y1, x2, y2, ew in table.walls:
        s = pymunk.Segment(static, (x1, y1), (x2, y2), 0.0)
        s.elasticity, s.friction = ew / se, 0.0
        space.add(s)
    for x, y, rad, eo in table.obstacles:
        s = pymunk.Circle(static, rad, (x, y))
        s.elasticity, s.friction = eo / se, 0.0
        space.add(s)
    for x1, y1, x2, y2 in table.out_segments[:, :4]:
        s = pymunk.Segment(static, (x1, y1), (x2, y2), 0.0)
        s.sensor, s.collision_type = True, OUT_T
        space.add(s)
    for x, y, rad in table.out_circles[:, :3]:
        s = pymunk.Circle(static, rad, (x, y))
        s.sensor, s.collision_type = True, OUT_T
        space.add(s)
    pockets = {}
    for x, y, rho in table.pockets:
        s = pymunk.Circle(static, rho, (x, y))
        s.sensor, s.collision_type = True, POCKET_T
        pockets[s] = (x, y, rho)
        space.add(s)
    return pockets


def pymunk_simulate(
    table: Table, physics: Physics, discs: Discs, dt: float = 1e-3, t_max: float = 30.0
) -> tuple[np.ndarray, np.ndarray]:
    """The same shot in pymunk: returns (final_pos (N, 2), status (N,))."""
    import pymunk

    e = physics.restitution
    if e <= 0.0 or physics.contact_friction != 0.0 or table.out_mode != "remove":
        raise ValueError(
            "the pymunk reference supports e > 0, frictionless contacts and out elements that remove at contact only"
        )
    se = math.sqrt(e)
    space = pymunk.Space()
    space.gravity = (0.0, 0.0)
    space.collision_slop = 1e-6  # metres: Chipmunk's default (0.1) assumes pixels
    pockets = _pymunk_static(pymunk, space, table, se)

    n = discs.n
    status = discs.status.copy()
    final = discs.pos.copy()
    bodies = {}
    for i in range(n):
        if status[i] != STATUS_ON:
            continue
        m, r = float(discs.mass[i]), float(discs.radius[i])
        b = pymunk.Body(m, pymunk.moment_for_circle(m, 0.0, r))
        b.position = tuple(discs.pos[i])
        b.velocity = tuple(discs.vel[i])
        c = pymunk.Circle(b, r)
        c.elasticity, c.friction, c.collision_type = se, 0.0, DISC_T
        space.add(b, c)
        bodies[i] = (b, c)
    index = {bodies[i][0]: i for i in bodies}
    removed: dict[int, int] = {}
    candidates: dict[int, tuple] = {}

    def out_begin(arbiter, space_, data):
        disc_shape, sensor = arbiter.shapes if arbiter.shapes[0].collision_type == DISC_T else arbiter.shapes[::-1]
        body = disc_shape.body
        q = sensor.point_query(body.position)  # closest point of the boundary
        nvec = body.position - q.point
        if nvec.length > 0 and body.velocity.dot(nvec) < 0:  # approaching it
            removed.setdefault(index[body], STATUS_OUT)

    def pocket_begin(arbiter, space_, data):
        disc_shape, sensor = arbiter.shapes if arbiter.shapes[0].collision_type == DISC_T else arbiter.shapes[::-1]
        candidates[index[disc_shape.body]] = pockets[sensor]

    def pocket_separate(arbiter, space_, data):
        disc_shape = arbiter.shapes[0] if arbiter.shapes[0].collision_type == DISC_T else arbiter.shapes[1]
        candidates.pop(index.get(disc_shape.body, -1), None)

    space.on_collision(DISC_T, OUT_T, begin=out_begin)
    space.on_collision(DISC_T, POCKET_T, begin=pocket_begin, separate=pocket_separate)
    dv = physics.friction * physics.gravity * dt
    t = 0.0
    live = dict(bodies)
    while live and t < t_max:
        space.step(dt)
        t += dt
        for i, (x, y, rho) in list(candidates.items()):
            b = live[i][0] if i in live else None
            if b is not None and (b.position.x - x) ** 2 + (b.position.y - y) ** 2 < rho * rho:
                removed.setdefault(i, STATUS_POCKETED)
        for i, st in list(removed.items()):
            if i in live:
                b, c = live.pop(i)
                final[i] = (b.position.x, b.position.y)
                status[i] = st
                candidates.pop(i, None)
                space.remove(b, c)
        moving = False
        for b, _ in live.values():
            vx, vy = b.velocity
            s = math.hypot(vx, vy)
            if s > dv:
                k = (s - dv) / s
                b.velocity = (vx * k, vy * k)
                moving = True
            elif s > 0.0:
                b.velocity = (0.0, 0.0)
            b.angular_velocity = 0.0
        if not moving:
            break
    for i, (b, _) in live.items():
        final[i] = (b.position.x, b.position.y)
    return final, status


# ------------------------------------------------------------------------------ timing
def _rate(run_one, n_items: int, seconds: float) -> tuple[float, int]:
    """Best shots per CPU-second over WINDOWS windows of about seconds/WINDOWS each (at least
    one call each); run_one(k) runs item k (cycled) and returns how many shots it ran.
    Returns (rate, calls made)."""
    best, k = 0.0, 0
    window = seconds / WINDOWS
    for _ in range(WINDOWS):
        done, start = 0, time.process_time()
        while True:
            done += run_one(k % n_items)
            k += 1
            elapsed = time.process_time() - start
            if elapsed >= window:
                break
        best = max(best, done / elapsed)
    return best, k


def _carrom_breaks(m: int = 64) -> list[Discs]:
    rng = np.random.default_rng(2024)
    x, ang, v = execute_shots(0.0, 0.0, 4.0, ExecutionNoise(0.005, 0.5, 0.02), rng, samples=m)
    return [S.carrom_break(speed=float(v[i]), striker_x=float(x[i]), angle_deg=float(ang[i])) for i in range(m)]


def _curl_throws(m: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    x, ang, v = execute_shots(0.0, 0.0, 1.4, ExecutionNoise(0.03, 2.0, 0.03), rng, samples=m)
    starts = np.column_stack([x, np.full(m, S.CURL_ELASTIC_Y + S.PUCK_R)])
    return starts, heading(ang) * v[:, None]


def run_benchmarks(seconds_per_case: float = 2.0) -> dict:
    """Measure every case; returns flat figures (see the module docstring)."""
    out: dict[str, float | str] = {}
    # (a) Carrom break, one call per break
    ctable, cphys = S.carrom_table(), S.CARROM_PHYSICS
    breaks = _carrom_breaks()
    simulate(ctable, cphys, breaks[0])  # warm-up: compile or load the numba cache

    def one_break(k):
        simulate(ctable, cphys, breaks[k])
        return 1

    out["carrom_break_per_s"], _ = _rate(one_break, len(breaks), seconds_per_case)
    out["carrom_break_events_mean"] = float(np.mean([simulate(ctable, cphys, d).n_events for d in breaks]))
    # (b) Curlastique throw: per call, and batched
    ttable, tphys = S.curlastique_table(), S.CURL_PHYSICS
    base = S.curlastique_throw()
    starts, vels = _curl_throws(BATCH)
    throw = base.copy()

    def one_throw(k):
        throw.pos[0], throw.vel[0] = starts[k], vels[k]
        simulate(ttable, tphys, throw)
        return 1

    def batch_of_throws(_):
        simulate_batch(ttable, tphys, base, 0, starts, vels)
        return BATCH

    one_throw(0)
    out["curlastique_throw_per_s"], _ = _rate(one_throw, BATCH, seconds_per_case)
    simulate_batch(ttable, tphys, base, 0, starts[:2], vels[:2])
    out["curlastique_throw_batched_per_s"], _ = _rate(batch_of_throws, 1, seconds_per_case)
    out["curlastique_throw_events_mean"] = float(simulate_batch(ttable, tphys, base, 0, starts, vels).n_events.mean())

    # the same scenes in pymunk
    def pm_break(k):
        pymunk_simulate(ctable, cphys, breaks[k])
        return 1

    def pm_throw(k):
        throw.pos[0], throw.vel[0] = starts[k], vels[k]
        pymunk_simulate(ttable, tphys, throw)
        return 1

    out["pymunk_carrom_break_per_s"], _ = _rate(pm_break, len(breaks), seconds_per_case)
    out["pymunk_curlastique_throw_per_s"], _ = _rate(pm_throw, BATCH, seconds_per_case)
    out["pymunk_curlastique_throw_batched_per_s"] = out["pymunk_curlastique_throw_per_s"]
    # agreement on a non-chaotic cut shot
    cut, _pocket = S.carrom_cut_shot()
    ours = simulate(ctable, cphys, cut)
    theirs, their_status = pymunk_simulate(ctable, cphys, cut)
    out["cut_shot_max_position_diff_m"] = float(np.max(np.hypot(*(ours.final_pos - theirs).T)))
    out["cut_shot_same_status"] = bool(np.array_equal(ours.status, their_status))
    for k, v in out.items():
        if isinstance(v, float) and k.endswith("_per_s"):
            out[k] = round(v, 1)
    out["command"] = (
        f"PYTHONPATH=. .venv/bin/python benchmarks/bench_physics.py --format json --seconds {seconds_per_case:g}"
    )
    return out


def _table(f: dict) -> str:
    rows = [
        ("Carrom break 4 m/s, 19 coins (per call)", f["carrom_break_per_s"], f["pymunk_carrom_break_per_s"]),
        (
            "Curlastique throw 1.4 m/s, 9 pucks (per call)",
            f["curlastique_throw_per_s"],
            f["pymunk_curlastique_throw_per_s"],
        ),
        (
            f"Curlastique throw, batched ({BATCH}/call)",
            f["curlastique_throw_batched_per_s"],
            f["pymunk_curlastique_throw_batched_per_s"],
        ),
    ]
    lines = [f"{'shots per CPU-second, one core':48s} {'tablesim':>12s} {'pymunk':>10s} {'ratio':>8s}"]
    for name, ours, theirs in rows:
        lines.append(f"{name:48s} {ours:12,.0f} {theirs:10,.1f} {ours / theirs:7.0f}x")
    lines.append(
        f"events per Carrom break (mean): {f['carrom_break_events_mean']:.1f}; "
        f"per Curlastique throw: {f['curlastique_throw_events_mean']:.2f}"
    )
    lines.append(
        f"cut shot, max distance between final positions: "
        f"{f['cut_shot_max_position_diff_m']:.2e} m (same outcome: "
        f"{f['cut_shot_same_status']})"
    )
    lines.append(f"command: {f['command']}")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per case (s)")
    args = parser.parse_args(argv)
    figures = run_benchmarks(args.seconds)
    print(json.dumps(figures, indent=2) if args.format == "json" else _table(figures))


if __name__ == "__main__":
    main()
