"""Public API: import cost, validation, results, paths, batch interface."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sim.physics as P
from sim.physics import (
    DISC, EVENT_DTYPE, OUT, POCKET, STATUS_ON, WALL, Discs, Physics, Table, simulate,
    simulate_batch,
)
from sim.physics import scenes as S

ROOT = Path(__file__).resolve().parents[2]


def test_import_does_not_load_numba_or_compile():
    code = ("import sys, time; t = time.perf_counter(); import sim.physics; "
            "print('numba' in sys.modules, time.perf_counter() - t)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": ""}, check=True).stdout.split()
    assert out[0] == "False"
    assert float(out[1]) < 1.0


def test_public_names():
    assert (P.DISC, P.WALL, P.OUT, P.POCKET, P.OBSTACLE) == (0, 1, 2, 3, 4)
    assert (P.STATUS_ON, P.STATUS_OUT, P.STATUS_POCKETED) == (0, 1, 2)
    assert 0 < P.FORMATION_GAP_M < 1e-4
    for name in P.__all__:
        assert hasattr(P, name)


def test_validation_messages_name_the_parameter():
    with pytest.raises(ValueError, match="Physics.friction"):
        Physics(friction=0.0, restitution=0.9)
    with pytest.raises(ValueError, match="Physics.restitution"):
        Physics(friction=0.1, restitution=1.5)
    with pytest.raises(ValueError, match="Table.walls"):
        Table.build(walls=[(0, 0, 1, 1)])
    with pytest.raises(ValueError, match="Table.walls: zero-length"):
        Table.build(walls=[(0, 0, 0, 0, 0.5)])
    with pytest.raises(ValueError, match="Table.pockets"):
        Table.build(pockets=[(0, 0, -0.01)])
    with pytest.raises(ValueError, match="Discs.vel"):
        Discs(pos=[[0, 0], [1, 1]], vel=[[0, 0]], radius=0.01, mass=0.01)
    with pytest.raises(ValueError, match="Discs.radius"):
        Discs(pos=[[0, 0]], radius=0.0, mass=0.01)
    d = S.carrom_break()
    with pytest.raises(ValueError, match="mover"):
        simulate_batch(S.carrom_table(), S.CARROM_PHYSICS, d, 20, np.zeros((1, 2)), np.zeros((1, 2)))
    with pytest.raises(ValueError, match="same"):
        simulate_batch(S.carrom_table(), S.CARROM_PHYSICS, d, 0, np.zeros((2, 2)), np.zeros((1, 2)))
    with pytest.raises(ValueError, match="max_events"):
        simulate(S.carrom_table(), S.CARROM_PHYSICS, d, max_events=0)
    # Discs is mutable: arrays replaced with a wrong shape never reach the compiled loop
    bad = S.carrom_break()
    bad.vel = np.zeros((3, 2))
    with pytest.raises(ValueError, match="Discs.vel"):
        simulate(S.carrom_table(), S.CARROM_PHYSICS, bad)
    # ... while a list or another dtype is converted
    ok = S.carrom_break()
    ok.pos = ok.pos.astype(np.float32).astype(np.float64).tolist()
    assert simulate(S.carrom_table(), S.CARROM_PHYSICS, ok).n_events > 0


def test_table_arrays_are_float64_contiguous_and_empty_shapes():
    t = Table()
    assert t.walls.shape == (0, 5) and t.out_segments.shape == (0, 4)
    assert t.obstacles.shape == (0, 4) and t.out_circles.shape == (0, 3) and t.pockets.shape == (0, 3)
    t = Table.build(walls=[(0, 0, 1, 0, 1)], pockets=[(0, 0, 0.01)])
    assert t.walls.dtype == np.float64 and t.walls.flags.c_contiguous


def test_simulate_does_not_mutate_discs_and_result_fields():
    table, d = S.carrom_table(), S.carrom_break()
    before = d.copy()
    r = simulate(table, S.CARROM_PHYSICS, d, record_paths=True)
    for f in ("pos", "vel", "radius", "mass", "status", "kind"):
        assert np.array_equal(getattr(d, f), getattr(before, f))
    assert r.final_pos.shape == (20, 2) and r.status.dtype == np.int8
    assert r.events.dtype == EVENT_DTYPE and r.n_events == len(r.events)
    assert r.first_contact(0) >= 1 and r.touched(0, DISC) and not r.touched(0, OUT)
    assert len(r.paths) == 20 and all(p.shape[1] == 3 for p in r.paths)


def test_paths_are_exact_polylines():
    """Vertices: start, every velocity change, rest point; each event position is a vertex."""
    table, d = S.carrom_table(), S.carrom_break(speed=3.0, striker_x=0.02, angle_deg=1.0)
    r = simulate(table, S.CARROM_PHYSICS, d, record_paths=True)
    for i, p in enumerate(r.paths):
        assert np.array_equal(p[0], [0.0, *d.pos[i]])
        assert np.array_equal(p[-1, 1:], r.final_pos[i])
        assert np.all(np.diff(p[:, 0]) >= 0)
    for e in r.events:
        p = r.paths[e["a"]]
        assert ((p[:, 0] == e["time"]) & (p[:, 1] == e["x"]) & (p[:, 2] == e["y"])).any()
    # between two vertices the disc decelerates uniformly along a straight line: the mean
    # speed of a segment ending at rest is half the speed at its start
    mu_g = S.CARROM_PHYSICS.deceleration
    p = r.paths[0]
    seg = np.hypot(*(p[-1, 1:] - p[-2, 1:]))
    dt = p[-1, 0] - p[-2, 0]
    assert seg == pytest.approx(0.5 * mu_g * dt * dt, rel=1e-9)


def test_truncation_flag_freezes_a_valid_state():
    table, d = S.carrom_table(), S.carrom_break()
    r = simulate(table, S.CARROM_PHYSICS, d, max_events=5)
    assert r.truncated and r.n_events == 5
    from .conftest import max_overlap
    assert max_overlap(r.final_pos, d.radius, r.status) <= 1e-9


def test_curlastique_scene_semantics():
    """The thrown puck leaves the elastic without going out; a throw into the rim is out."""
    t = S.curlastique_table()
    r = simulate(t, S.CURL_PHYSICS, S.curlastique_throw(speed=1.4))
    assert r.status[0] == STATUS_ON and not r.touched(0, OUT)
    r = simulate(t, S.CURL_PHYSICS, S.curlastique_throw(speed=2.5, x=0.15, angle_deg=-30.0))
    assert r.touched(0, OUT) or any(r.touched(i, OUT) for i in range(10))
    ev = r.events[r.events["kind"] == OUT]
    assert np.all(ev["b"] < 9)  # 7 out segments + 2 pegs


def test_carrom_pocketing_cut_shot():
    discs, pocket = S.carrom_cut_shot()
    r = simulate(S.carrom_table(), S.CARROM_PHYSICS, discs)
    assert r.first_contact(0) == 1
    pk = r.events[r.events["kind"] == POCKET]
    assert len(pk) >= 1 and pk[0]["a"] == 1 and pk[0]["b"] == pocket
    assert r.touched(0, WALL) or r.status[0] == STATUS_ON


def test_engine_seconds_grow_with_every_kernel_call():
    from sim.physics import Physics, engine_seconds, scenes, simulate

    before = engine_seconds()
    table, physics, discs = scenes.carrom_table(), Physics(friction=0.1, restitution=0.85), scenes.carrom_break()
    for _ in range(50):
        simulate(table, physics, discs)
    assert engine_seconds() > before
