"""Rehearse a break: which break of the profile's grid a practised player would keep.

From the command line: ``benchmarks/carrom_rehearse.py``.

A carrom board always starts from the same formation, so a practised player does not plan
its break afresh: it plays the break it rehearsed. This module finds that break the way the
planner values strokes: every break of the profile's grid (``break_offsets_m`` ×
``break_aims`` × ``break_speeds``, striker on the nearest free spot) is executed ``samples``
times with the profile's own noise and valued with the planner's valuation from the breaker's
side of a 2-player break; every break gets the same standard-normal draws (common random
numbers), so the differences between breaks are paired. It prints the best breaks, each with
its mean value and the paired 95 % interval of its difference to the best, and the profile
lines that make a player play the best one (``break_plan = "rehearsed"`` and
``rehearsed_break_*``, for a custom profile). Picking the best of many noisy means favours a
lucky one; the paired intervals show which breaks the rehearsal cannot tell apart.

The valuation is of one stroke and the next pot, not of the board: for ``club`` it prefers the
straight 5.5 m/s break by a wide margin (+0.645 coins [0.539, 0.751] over the next), yet a
``club`` that always plays it won 358 of 800 seat-rotated matches to 25 points (44.8 % [41.3,
48.2]) against a ``club`` that plans its break on every board, and the two next-best breaks did
no better (44.0 %, 44.8 %; measured with ``python benchmarks/headtohead.py carrom A:B --games
800 --set game.target_points=25`` and profile files); why is not established. So the presets do
not play a rehearsed break: they plan it once per match (``break_plan = "once_per_match"``).
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from sim.core.estimators import cluster_t

from .match import plan_view
from .players.planner import Candidates, Planner
from .players.profile import CarromProfile
from .players.value import situation
from .restrictions import allowed_breaks
from .rules.flow import BoardState
from .rules.schema import CarromRules
from .rules.view import striker_spans

__all__ = ["rehearse", "profile_lines"]


def rehearse(profile: CarromProfile, rules: CarromRules, samples: int = 500, seed: int = 0) -> pd.DataFrame:
    """Every break of ``profile``'s grid (less its forbidden break variants) valued from
    ``samples`` noisy executions (common draws), best first: columns ``offset_m``, ``aim``,
    ``speed`` (the grid's numbers), ``x_m``, ``angle_deg``, ``speed_mps`` (the stroke from the
    nearest free spot, capped speed), ``value`` (mean, in the planner's coins), ``diff``,
    ``diff_low``, ``diff_high`` (paired difference to the best and its 95 % t interval)."""
    if samples < 2:
        raise ValueError(f"samples: got {samples}; allowed: at least 2")
    state = BoardState(rules, 2, breaker=0)
    view = plan_view(state, 0)
    planner = Planner(profile, state.geo)
    offsets, aims = allowed_breaks(profile.forbid, profile.break_offsets_m, profile.break_aims)
    grid = list(itertools.product(offsets, aims, profile.break_speeds))
    if not grid:
        raise ValueError(f"forbid: {list(profile.forbid)} leaves no break of the grid to rehearse")
    cands: Candidates = planner.breaks(striker_spans(view), len(grid))
    draws = np.random.default_rng(np.random.SeedSequence(seed)).standard_normal((3, 1, samples))
    values = planner.values(situation(view, profile.safety), view, cands, np.repeat(draws, len(grid), axis=1))
    mean = values.mean(axis=1)
    best = int(mean.argmax())
    # paired differences to the best: the project's t interval (singleton clusters: a paired t)
    paired = [cluster_t(row) for row in values - values[best]]
    table = pd.DataFrame(grid, columns=["offset_m", "aim", "speed"]).assign(
        x_m=cands.x,
        angle_deg=cands.angle,
        speed_mps=cands.speed,
        value=mean,
        diff=[t.mean for t in paired],
        diff_low=[t.low for t in paired],
        diff_high=[t.high for t in paired],
    )
    return table.sort_values("value", ascending=False, kind="stable").reset_index(drop=True)


def profile_lines(table: pd.DataFrame) -> str:
    """The profile keys that make a player play the table's best break."""
    best = table.iloc[0]
    return (
        f'break_plan = "rehearsed"\nrehearsed_break_offset_m = {best["offset_m"]:g}\n'
        f"rehearsed_break_aim = {best['aim']:g}\nrehearsed_break_speed = {best['speed']:g}"
    )
