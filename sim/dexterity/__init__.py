"""What the dexterity games share, one floor above the disc physics (:mod:`sim.physics`).

A dexterity game (Curlastique, Carrom) plays turns the same way: the seat's policy decides an
intended shot from what it sees, the player's execution noise perturbs it, the shot is put on
a legal start (or lost when there is none), the physics resolves it, and the game logs it. The
pieces of that loop that do not depend on the game live here:

    profile.py   ExecutionProfile: the noise fields of a player profile (units, bounds)
    turn.py      ShotParams, DexterityPolicy, Turn, play_turn, execute_shot: the turn step

A game keeps its own view of the board, its intents (a planned shot with its family, target
or value), its rules and its tables; it passes them through these pieces.
"""

from .profile import ExecutionProfile, angle_sigma, position_sigma, speed_sigma
from .turn import DexterityPolicy, ShotParams, Turn, execute_shot, play_turn

__all__ = [
    "ExecutionProfile",
    "position_sigma",
    "angle_sigma",
    "speed_sigma",
    "ShotParams",
    "DexterityPolicy",
    "Turn",
    "play_turn",
    "execute_shot",
]
