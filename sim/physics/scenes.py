"""Reference scenes for the physics tests, benchmarks and examples.

The games build their own boards from their rules files; these are fixed, documented
scenes with the default numbers of the game pages (docs/games/carrom.md,
docs/games/curlastique.md) and the ICF equipment (International Carrom Federation, Official
Laws of Carrom, 1993), so that tests and benchmarks measure the same thing every time.
"""

from __future__ import annotations

import numpy as np

from .constants import FORMATION_GAP_M
from .table import Discs, Physics, Table

# Carrom (ICF equipment, Official Laws of Carrom 1993; defaults of docs/games/carrom.md)
CARROM_HALF = 0.37  # m, half of the 0.74 m playing surface
CARROM_POCKET_R = 0.02225  # m, pocket Ø 44.5 mm
COIN_R = 0.0159  # m, the ICF's largest coin, Ø 3.18 cm (r = 1.59 cm)
COIN_M = 0.0055  # kg, 5.0–5.5 g
STRIKER_R = 0.02065  # m, Ø ≤ 41.3 mm
STRIKER_M = 0.015  # kg, ≤ 15 g
STRIKER_Y = -0.2526  # m, striker centre row (11.74 cm from the cushion)
CARROM_PHYSICS = Physics(friction=0.1, restitution=0.85)  # μ ≈ 0.1, coin–coin e 0.85
CARROM_CUSHION_E = 0.7

# Curlastique (defaults of docs/games/curlastique.md)
CURL_W = 0.50  # m, board width (x from -0.25 to 0.25)
CURL_L = 1.00  # m, board length (y from 0 to 1)
CURL_ELASTIC_Y = 0.10  # m, elastic 0.10 m from the near rim
CURL_PEG_X = 0.23  # m, pegs holding the elastic (our choice: 2 cm inside the rim)
CURL_PEG_R = 0.005  # m
CURL_CORNER = 0.05  # m, 45° corner pieces at the far corners
CURL_TARGET = (0.0, 0.75)  # m
PUCK_R = 0.0175  # m, Ø 35 mm
PUCK_M = 0.008  # kg
CURL_PHYSICS = Physics(friction=0.15, restitution=0.85)

KIND_STRIKER, KIND_QUEEN, KIND_WHITE, KIND_BLACK = 0, 1, 2, 3


def carrom_table(pocket_fraction: float = 1.0, cushion_restitution: float = CARROM_CUSHION_E) -> Table:
    """0.74 m square board: 4 full-length cushions, 4 corner pockets tangent to both
    cushions; capture radius = pocket_fraction × pocket radius."""
    h = CARROM_HALF
    e = cushion_restitution
    walls = [(-h, -h, h, -h, e), (h, -h, h, h, e), (h, h, -h, h, e), (-h, h, -h, -h, e)]
    c = h - CARROM_POCKET_R
    pockets = [(sx * c, sy * c, pocket_fraction * CARROM_POCKET_R) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return Table.build(walls=walls, pockets=pockets)


def carrom_break_formation(gap: float = FORMATION_GAP_M) -> tuple[np.ndarray, np.ndarray]:
    """ICF rule 41 break: queen at the centre, 6 coins touching it, 12 around them (Official
    Laws of Carrom, 1993), with `gap` metres between nominally touching coins. One inner coin
    points at the striker (−y). Returns (positions (19, 2), kinds (19,)): queen first, then the inner ring
    (alternating white/black), then the outer ring (12, by angle)."""
    d = 2.0 * COIN_R + gap
    pos = [(0.0, 0.0)]
    kinds = [KIND_QUEEN]
    for k in range(6):
        ang = np.deg2rad(90.0 + 60.0 * k)
        pos.append((d * np.cos(ang), d * np.sin(ang)))
        kinds.append(KIND_WHITE if k % 2 == 0 else KIND_BLACK)
    for k in range(12):
        ang = np.deg2rad(90.0 + 30.0 * k)
        rad = 2.0 * d if k % 2 == 0 else np.sqrt(3.0) * d
        pos.append((rad * np.cos(ang), rad * np.sin(ang)))
        # the "Y": outer coins straight behind the inner whites are white
        kinds.append(
            (KIND_WHITE if (k // 2) % 2 == 0 else KIND_BLACK)
            if k % 2 == 0
            else (KIND_WHITE if (k // 2) % 2 == 1 else KIND_BLACK)
        )
    return np.array(pos), np.array(kinds)


def carrom_break(
    speed: float = 4.0, striker_x: float = 0.0, angle_deg: float = 0.0, gap: float = FORMATION_GAP_M
) -> Discs:
    """Striker (id 0) on its base line shooting at the full 19-coin formation."""
    cpos, ckind = carrom_break_formation(gap)
    pos = np.vstack([[striker_x, STRIKER_Y], cpos])
    vel = np.zeros_like(pos)
    a = np.deg2rad(angle_deg)
    vel[0] = (-speed * np.sin(a), speed * np.cos(a))
    radius = np.r_[STRIKER_R, np.full(19, COIN_R)]
    mass = np.r_[STRIKER_M, np.full(19, COIN_M)]
    return Discs(pos, vel, radius, mass, kind=np.r_[KIND_STRIKER, ckind])


def carrom_cut_shot(speed: float = 1.5) -> tuple[Discs, int]:
    """Non-chaotic cut: the striker (id 0) from (−0.10, base line) cuts one coin (id 1) at
    (0.20, 0.15) toward the top-right pocket. Returns (discs, pocket index)."""
    pocket = np.array([CARROM_HALF - CARROM_POCKET_R] * 2)
    coin = np.array([0.20, 0.15])
    to_pocket = (pocket - coin) / np.linalg.norm(pocket - coin)
    ghost = coin - (COIN_R + STRIKER_R) * to_pocket  # striker centre at impact
    start = np.array([-0.10, STRIKER_Y])
    u = (ghost - start) / np.linalg.norm(ghost - start)
    pos = np.vstack([start, coin])
    vel = np.vstack([speed * u, [0.0, 0.0]])
    return Discs(pos, vel, [STRIKER_R, COIN_R], [STRIKER_M, COIN_M], kind=[KIND_STRIKER, KIND_WHITE]), 2


def curlastique_table() -> Table:
    """0.50 × 1.00 m board (x in [−0.25, 0.25], y in [0, 1]): the rim, the two far corner
    pieces and the elastic (y = 0.10 m) are OUT segments; the two pegs holding the elastic
    are OUT circles (indices 7 and 8 in events: offset by the 7 out segments)."""
    hw = CURL_W / 2.0
    L = CURL_L
    c = CURL_CORNER
    outs = [
        (-hw, 0.0, hw, 0.0),
        (hw, 0.0, hw, L),
        (hw, L, -hw, L),
        (-hw, L, -hw, 0.0),  # rim
        (hw - c, L, hw, L - c),
        (-hw + c, L, -hw, L - c),  # corner pieces
        (-CURL_PEG_X, CURL_ELASTIC_Y, CURL_PEG_X, CURL_ELASTIC_Y),  # elastic
    ]
    pegs = [(-CURL_PEG_X, CURL_ELASTIC_Y, CURL_PEG_R), (CURL_PEG_X, CURL_ELASTIC_Y, CURL_PEG_R)]
    return Table.build(out_segments=outs, out_circles=pegs)


#: 9 pucks lying in and around the target (centre (0, 0.75)), ids 1..9.
CURL_LAYOUT = np.array(
    [
        (0.000, 0.700),
        (-0.060, 0.760),
        (0.070, 0.780),
        (0.020, 0.840),
        (-0.100, 0.660),
        (0.120, 0.680),
        (-0.030, 0.920),
        (0.150, 0.860),
        (-0.150, 0.820),
    ]
)


def curlastique_throw(speed: float = 1.4, x: float = 0.0, angle_deg: float = 0.0) -> Discs:
    """Thrown puck (id 0) set against the elastic at lateral x, launched at `speed` m/s,
    angle from straight ahead (counterclockwise positive), into 9 resting pucks."""
    pos = np.vstack([[x, CURL_ELASTIC_Y + PUCK_R], CURL_LAYOUT])
    vel = np.zeros_like(pos)
    a = np.deg2rad(angle_deg)
    vel[0] = (-speed * np.sin(a), speed * np.cos(a))
    kinds = np.r_[0, np.arange(9) % 4]
    return Discs(pos, vel, PUCK_R, PUCK_M, kind=kinds)
