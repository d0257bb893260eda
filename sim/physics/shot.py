"""Shot execution with skill: intended shot + Gaussian noise profile → executed shot."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ExecutionNoise:
    """Gaussian execution noise of a player (the skill knob).

    position_m  σ of the lateral position error, metres.
    angle_deg   σ of the aim angle error, degrees.
    speed_rel   σ of the relative speed error (0.05 = 5 %).
    """

    position_m: float = 0.0
    angle_deg: float = 0.0
    speed_rel: float = 0.0

    def __post_init__(self):
        for name in ("position_m", "angle_deg", "speed_rel"):
            v = float(getattr(self, name))
            if not np.isfinite(v) or v < 0.0:
                raise ValueError(f"ExecutionNoise.{name}: must be a finite number >= 0, got {v}")
            object.__setattr__(self, name, v)

    def sigmas(self) -> np.ndarray:
        """(3,) the σ in the order and units the compiled kernels take: position (m), angle
        (degrees), relative speed (see :func:`executed`)."""
        return np.array([self.position_m, self.angle_deg, self.speed_rel])


def executed(x, angle_deg, speed, sigmas, z_position, z_angle, z_speed):
    """The execution-noise model, the one copy every dexterity game uses: an intended shot
    (lateral position m, aim angle degrees, speed m/s) and three standard normals → the shot
    as executed, ``(x + σ_x·z_x, angle + σ_θ·z_θ, max(speed·(1 + σ_v·z_v), 0))`` with
    ``sigmas`` = (σ_x m, σ_θ degrees, σ_v relative) (:meth:`ExecutionNoise.sigmas`).

    Works on numpy arrays (:func:`execute_shots`) and Python floats
    (:func:`sim.dexterity.execute_shot`); the planners' compiled kernels call the same function
    compiled, :data:`sim.physics.noise.compiled_executed`. A game clamps the result to its own
    limits afterwards (the launcher, the free base line)."""
    return (
        x + sigmas[0] * z_position,
        angle_deg + sigmas[1] * z_angle,
        np.maximum(speed * (1.0 + sigmas[2] * z_speed), 0.0),
    )


def execute_shots(
    x, angle_deg, speed, noise: ExecutionNoise, rng: np.random.Generator, samples: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Executed shots from intended ones (vectorised).

    Args:
        x, angle_deg, speed: intended lateral position (m), aim angle (degrees, see
            `heading`) and speed (m/s); arrays or scalars, broadcast together to shape S.
        noise: the player's noise profile.
        rng: the only source of randomness.
        samples: if given, each intended shot gets that many noisy executions: outputs have
            shape S + (samples,); otherwise shape S.

    Returns:
        (x, angle_deg, speed) executed; speed clipped at >= 0.

    Draw order (fixed, documented): three arrays of standard normals of the output shape, in
    this order: position, angle, speed, each in C order. All three are drawn even when a σ
    is 0, so the stream consumed does not depend on the noise profile (common random
    numbers stay paired across profiles).

    >>> rng = np.random.default_rng(1)
    >>> xs, a, v = execute_shots(0.0, 0.0, 2.0, ExecutionNoise(0.01, 1.0, 0.05), rng, samples=3)
    >>> xs.shape, bool(np.all(v >= 0))
    ((3,), True)
    """
    x, angle_deg, speed = np.broadcast_arrays(
        np.asarray(x, dtype=float), np.asarray(angle_deg, dtype=float), np.asarray(speed, dtype=float)
    )
    shape = x.shape
    if samples is not None:
        samples = int(samples)
        if samples < 1:
            raise ValueError(f"samples: must be >= 1, got {samples}")
        shape = shape + (samples,)
        x, angle_deg, speed = x[..., None], angle_deg[..., None], speed[..., None]
    z = rng.standard_normal((3,) + shape)
    ex, ea, ev = executed(x, angle_deg, speed, noise.sigmas(), z[0], z[1], z[2])
    return (np.broadcast_to(ex, shape).copy(), np.broadcast_to(ea, shape).copy(), np.broadcast_to(ev, shape).copy())


def heading(angle_deg, forward=(0.0, 1.0)) -> np.ndarray:
    """Unit vector(s) rotated by angle_deg (counterclockwise positive) from `forward`.
    Output shape: angle_deg's shape + (2,).

    >>> heading(90.0).round(12).tolist()   # +y rotated 90° counterclockwise → −x
    [-1.0, 0.0]
    """
    a = np.deg2rad(np.asarray(angle_deg, dtype=float))
    f = np.asarray(forward, dtype=float)
    f = f / np.hypot(f[0], f[1])
    c, s = np.cos(a), np.sin(a)
    return np.stack([c * f[0] - s * f[1], s * f[0] + c * f[1]], axis=-1)
