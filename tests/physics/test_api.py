"""Public API: import cost, validation, results, paths, batch interface."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sim.physics as P
from sim.physics import (
    DISC,
    EVENT_DTYPE,
    OUT,
    POCKET,
    STATUS_ON,
    WALL,
    Discs,
    Physics,
    Table,
    simulate,
    simulate_batch,
)
from sim.physics import scenes as S

ROOT = Path(__file__).resolve().parents[2]


def test_import_does_not_load_numba_or_compile():
    code = (
        "import sys, time; t = time.perf_counter(); import sim.physics; "
        "print('numba' in sys.modules, time.perf_counter() - t)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": ""},
        check=True,
    ).stdout.split()
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


def test_a_prepared_batch_gives_simulate_batch_and_sees_discs_written_in_place():
    table, d = S.carrom_table(), S.carrom_break()
    starts, vels = np.repeat(d.pos[:1], 3, axis=0), np.array([[0.0, 3.0], [0.1, 4.0], [-0.2, 2.5]])
    batch = P.PreparedBatch(table, S.CARROM_PHYSICS, d, 0)
    for _ in range(2):  # the same answer every time: nothing carried from one run to the next
        got, expected = batch.run(starts, vels), simulate_batch(table, S.CARROM_PHYSICS, d, 0, starts, vels)
        assert np.array_equal(got.final_pos, expected.final_pos) and np.array_equal(got.status, expected.status)
        assert np.array_equal(got.n_events, expected.n_events)
    d.pos[5] += [0.0, 0.05]  # a new layout, written into the held arrays
    assert np.array_equal(
        batch.run(starts, vels).final_pos, simulate_batch(table, S.CARROM_PHYSICS, d, 0, starts, vels).final_pos
    )
    with pytest.raises(ValueError, match="same"):
        batch.run(starts, vels[:2])


def test_a_shot_longer_than_the_record_buffers_is_recorded_whole():
    """simulate_kernel starts with room for 64 + 8n events and runs the shot again with twice
    the room when they run out: the records, paths and result are those of one run."""
    walls = [
        (-0.5, -0.5, 0.5, -0.5, 1.0),
        (0.5, -0.5, 0.5, 0.5, 1.0),
        (0.5, 0.5, -0.5, 0.5, 1.0),
        (-0.5, 0.5, -0.5, -0.5, 1.0),
    ]
    table, physics = Table.build(walls=walls), Physics(friction=0.001, restitution=1.0)
    d = Discs(pos=[[0.0, 0.0], [0.2, 0.1]], vel=[[3.0, 1.3], [-1.0, 2.2]], radius=0.02, mass=0.01)
    tr = P.trace(table, physics, d)
    r = tr.result
    assert r.n_events > 1000 and len(tr.impacts) == r.n_events and np.all(np.diff(r.events["time"]) >= 0)
    batch = simulate_batch(table, physics, d, 0, d.pos[:1], d.vel[:1])
    assert np.array_equal(r.final_pos, batch.final_pos[0]) and r.n_events == batch.n_events[0]
    assert np.array_equal(simulate(table, physics, d).events, r.events)
    for i, path in enumerate(r.paths):
        assert np.array_equal(path[-1, 1:], r.final_pos[i])
    cut = simulate(table, physics, d, max_events=300)
    assert cut.truncated and np.array_equal(cut.events, r.events[:300])


def test_the_compiled_cpu_clock_is_the_process_clock():
    import sys
    import time

    from sim.physics.clock import cpu_seconds

    before, inside, after = time.process_time(), cpu_seconds(), time.process_time()
    if sys.platform in ("linux", "darwin"):
        assert before - 1e-3 <= inside <= after + 1e-3
    else:
        assert inside == 0.0


def test_a_stale_kernel_cache_is_cleared(tmp_path):
    from types import SimpleNamespace

    from sim.physics.kernel_cache import clear_stale

    source = tmp_path / "kernels.py"
    source.write_text("x = 1\n")
    cached = tmp_path / "kernels.f-1.py311.nbi"
    cached.write_text("")
    fake = SimpleNamespace(_cache=SimpleNamespace(cache_path=str(tmp_path)))
    clear_stale(fake, [source], "k.stamp", ["*.nbi"])  # no stamp yet: cleared, stamped
    assert not cached.exists() and (tmp_path / "k.stamp").exists()
    cached.write_text("")
    clear_stale(fake, [source], "k.stamp", ["*.nbi"])  # same sources: kept
    assert cached.exists()
    source.write_text("x = 2\n")
    clear_stale(fake, [source], "k.stamp", ["*.nbi"])  # a source changed: cleared
    assert not cached.exists()


def test_a_game_package_cache_is_cleared_in_every_folder_when_any_module_changed(tmp_path):
    from sim.physics.kernel_cache import clear_stale_package

    package = tmp_path / "game"
    for folder in ("", "rules", "players/kernels"):
        (package / folder / "__pycache__").mkdir(parents=True)
        (package / folder / "__init__.py").write_text("")
    rules_module = package / "rules" / "moves.py"
    rules_module.write_text("STEP = 1\n")
    caches = [
        package / "rules" / "__pycache__" / "moves.push-1.py311.nbi",
        package / "players" / "kernels" / "__pycache__" / "lookahead.plan-3.py311.nbc",
    ]

    def fill() -> None:
        for cached in caches:
            cached.write_text("")

    fill()
    clear_stale_package(package, "game.stamp")  # no stamp yet: every folder cleared
    assert not any(c.exists() for c in caches) and (package / "__pycache__" / "game.stamp").exists()
    fill()
    clear_stale_package(package, "game.stamp")  # nothing changed: kept
    assert all(c.exists() for c in caches)
    rules_module.write_text("STEP = 2\n")  # a rules module changed: the players'
    clear_stale_package(package, "game.stamp")  # kernel that calls it is cleared too
    assert not any(c.exists() for c in caches)
