"""Shared helpers for the physics tests."""

import numpy as np
from hypothesis import HealthCheck, settings

from sim.physics import STATUS_ON

# Deterministic hypothesis runs (same examples every time, CI-friendly); no deadline
# because the very first call of the engine on a machine compiles it.
settings.register_profile(
    "physics",
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PHYSICS = settings.get_profile("physics")


def max_overlap(final_pos: np.ndarray, radius: np.ndarray, status: np.ndarray) -> float:
    """Largest overlap (m) between discs in play; final_pos (..., N, 2), status (..., N)."""
    d = np.linalg.norm(final_pos[..., :, None, :] - final_pos[..., None, :, :], axis=-1)
    rr = radius[:, None] + radius[None, :]
    on = status == STATUS_ON
    pair = on[..., :, None] & on[..., None, :]
    n = radius.shape[0]
    pair &= ~np.eye(n, dtype=bool)
    ov = np.where(pair, rr - d, -np.inf)
    return float(ov.max()) if ov.size else -np.inf


def kinetic(m, v, r=None, w=None):
    """Translational (+ rotational, I = ½mR²) kinetic energy, J."""
    ke = 0.5 * m * np.sum(np.asarray(v) ** 2)
    if w is not None:
        ke += 0.5 * (0.5 * m * r * r) * w * w
    return ke


def post_speed(path: np.ndarray, k: int, mu_g: float) -> tuple[float, np.ndarray]:
    """Speed (m/s) and unit direction right after path vertex k, when the disc then slides
    freely to its rest point (vertex k+1 is the rest point): v = √(2μg·d)."""
    seg = path[k + 1, 1:] - path[k, 1:]
    d = float(np.hypot(*seg))
    return float(np.sqrt(2.0 * mu_g * d)), seg / d
