"""Carrom"s simulated players: what a player knows. The profile (:mod:`.profile`: skill and
style as keys), the policies built from it (:mod:`.policies`) and what they plan with."""

from __future__ import annotations

from .policies import CarromPolicy, make_policy
from .profile import CarromProfile

__all__ = ["CarromProfile", "CarromPolicy", "make_policy"]
