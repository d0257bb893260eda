"""Shot execution with skill: noise from the given Generator only, fixed draw order."""

import numpy as np
import pytest

from sim.physics import ExecutionNoise, execute_shots, heading


def test_shapes_and_broadcasting():
    rng = np.random.default_rng(0)
    noise = ExecutionNoise(0.01, 1.0, 0.05)
    x, a, v = execute_shots(0.1, 5.0, 2.0, noise, rng)
    assert x.shape == a.shape == v.shape == ()
    x, a, v = execute_shots([0.0, 0.1, 0.2], 5.0, [1.0, 2.0, 3.0], noise, rng)
    assert x.shape == (3,)
    x, a, v = execute_shots([0.0, 0.1, 0.2], 5.0, 2.0, noise, rng, samples=7)
    assert x.shape == a.shape == v.shape == (3, 7)
    assert np.all(np.abs(x[1] - 0.1) < 0.1)


def test_same_generator_state_same_shots_and_fixed_draw_order():
    noise = ExecutionNoise(0.01, 2.0, 0.05)
    a = execute_shots(0.0, 0.0, 1.0, noise, np.random.default_rng(42), samples=100)
    b = execute_shots(0.0, 0.0, 1.0, noise, np.random.default_rng(42), samples=100)
    for u, w in zip(a, b):
        assert u.tobytes() == w.tobytes()
    # documented order: position, angle, speed, each of the output shape
    z = np.random.default_rng(42).standard_normal((3, 100))
    assert np.allclose(a[0], 0.01 * z[0]) and np.allclose(a[1], 2.0 * z[1])
    assert np.allclose(a[2], 1.0 + 0.05 * z[2])


def test_streams_stay_paired_across_noise_profiles():
    """All three arrays are always drawn, so a profile with a zero σ consumes the same
    stream: common random numbers across players."""
    rng1, rng2 = np.random.default_rng(3), np.random.default_rng(3)
    _, a1, _ = execute_shots(0.0, 0.0, 1.0, ExecutionNoise(0.0, 1.0, 0.0), rng1, samples=50)
    _, a2, _ = execute_shots(0.0, 0.0, 1.0, ExecutionNoise(0.02, 3.0, 0.1), rng2, samples=50)
    assert np.allclose(3.0 * a1, a2)
    assert rng1.random() == rng2.random()


def test_noise_statistics():
    rng = np.random.default_rng(1)
    noise = ExecutionNoise(position_m=0.004, angle_deg=1.5, speed_rel=0.03)
    x, a, v = execute_shots(0.05, 10.0, 2.0, noise, rng, samples=200_000)
    assert x.mean() == pytest.approx(0.05, abs=1e-4) and x.std() == pytest.approx(0.004, rel=0.01)
    assert a.mean() == pytest.approx(10.0, abs=0.02) and a.std() == pytest.approx(1.5, rel=0.01)
    assert v.mean() == pytest.approx(2.0, rel=1e-3) and (v / 2.0).std() == pytest.approx(0.03, rel=0.01)


def test_speed_is_clipped_at_zero_and_zero_noise_is_exact():
    rng = np.random.default_rng(5)
    _, _, v = execute_shots(0.0, 0.0, 0.1, ExecutionNoise(speed_rel=5.0), rng, samples=1000)
    assert v.min() == 0.0 and (v > 0).any()
    x, a, v = execute_shots(0.3, -7.0, 1.2, ExecutionNoise(), rng, samples=4)
    assert np.all(x == 0.3) and np.all(a == -7.0) and np.all(v == 1.2)


def test_noise_validation():
    with pytest.raises(ValueError, match="angle_deg"):
        ExecutionNoise(angle_deg=-1.0)
    with pytest.raises(ValueError, match="samples"):
        execute_shots(0.0, 0.0, 1.0, ExecutionNoise(), np.random.default_rng(), samples=0)


def test_heading():
    assert np.allclose(heading(0.0), [0.0, 1.0])
    assert np.allclose(heading(90.0), [-1.0, 0.0])  # counterclockwise
    assert np.allclose(heading(-90.0), [1.0, 0.0])
    assert np.allclose(heading(90.0, forward=(1.0, 0.0)), [0.0, 1.0])
    h = heading(np.linspace(-180, 180, 37).reshape(37, 1))
    assert h.shape == (37, 1, 2) and np.allclose(np.hypot(h[..., 0], h[..., 1]), 1.0)
