"""Gastérospeed"s simulated players: what a player knows. The profile (:mod:`.profile`: skill and
style as keys), the policies built from it (:mod:`.policies`) and what they plan with."""

from __future__ import annotations

from .policies import Policy, make_policy
from .profile import GasterospeedProfile

__all__ = ["GasterospeedProfile", "Policy", "make_policy"]
