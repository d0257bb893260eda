"""Constants shared by the physics package: event kinds, disc statuses, tolerances.

Event kinds double as the priority used to order events that fall at exactly the same time
(lower value first): DISC < WALL < OUT < POCKET < OBSTACLE. See `sim.physics.engine`.
"""

# Event kinds (ints): also the tie-break priority at equal times, lowest first.
DISC = 0  #: disc–disc impact; event field b = the other disc's id
WALL = 1  #: bounce off a straight wall (cushion); b = wall index
OUT = 2  #: contact with an out boundary (removal, or a bounce that marks the disc LOST);
#:          b = out-segment index, or O + out-circle index
POCKET = 3  #: disc centre entered a pocket's capture circle; b = pocket index
OBSTACLE = 4  #: bounce off a static round obstacle; b = obstacle index

EVENT_NAMES = {DISC: "disc", WALL: "wall", OUT: "out", POCKET: "pocket", OBSTACLE: "obstacle"}

# Per-disc status. OUT and POCKETED discs are removed from play (no further interaction).
# A LOST disc touched an out element of a table whose out elements bounce
# (`Table.out_mode = "bounce"`): it is out of the game but still a physical body (it moves,
# collides and may touch more out elements) until the shot ends; then it is at rest.
STATUS_ON = 0
STATUS_OUT = 1
STATUS_POCKETED = 2
STATUS_LOST = 3

#: Restitution stored in the kernel's packed out elements when contact removes the disc
#: (`Table.out_mode = "remove"`); a value in [0, 1] means: bounce with it and mark LOST.
REMOVE_AT_CONTACT = -1.0

#: Contact tolerance, metres. Two bodies closer than this (gap <= 1e-9 m, or overlapping by
#: round-off) count as touching: touching and approaching = contact now; touching and
#: separating = no event. Also the largest overlap left at rest (checked by the tests).
TOUCH_TOL_M = 1e-9

#: Gap, metres, that a formation builder leaves between nominally touching discs (Carrom
#: break: queen, inner ring, outer ring). 1 µm is 1000x the contact tolerance, so each contact
#: in the pack is a separate, geometrically ordered event (time separation gap / speed ~ 2e-7 s
#: at 5 m/s, far above float resolution), and only 3e-5 of a coin diameter (far inside the
#: 1.6 mm spread the ICF allows on it: Ø 3.02–3.18 cm in the International Carrom
#: Federation's Official Laws of Carrom, 1993). Exact ties that remain (mirror-symmetric
#: contacts) are broken by the engine's documented priority (kind, then lowest ids).
FORMATION_GAP_M = 1e-6

#: Speeds below this (m/s) after an impact are set to exactly zero (round-off residue,
#: e.g. the striker after an equal-mass head-on impact at e = 1).
REST_SPEED = 1e-12

#: Standard gravity, m/s^2 (g = 9.81, the value of the analytic oracles in docs/physics.md).
GRAVITY = 9.81
