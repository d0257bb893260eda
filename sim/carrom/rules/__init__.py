"""Carrom"s rules: what a referee knows. The rule keys (:mod:`.schema`, loaded from the game"s
``rules.toml``), the board, and how play goes on from one move to the next. Nothing here
imports the players or the drawings."""

from __future__ import annotations

from .schema import RULESETS, CarromRules, lineup_problems

__all__ = ["CarromRules", "RULESETS", "lineup_problems"]
