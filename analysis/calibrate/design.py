"""The simulation design: line-ups spread over the profile space, each match with its own seeds.

For ``n`` players with ``d`` fitted numbers each, a design point is one line-up (n × d
numbers). Up to two numbers in all, the points are a grid (``points`` rounded to a square);
beyond, a Latin hypercube (scipy.stats.qmc). Every match of the design has its own seeds
(point ``j`` plays seed indices ``j·M .. j·M + M - 1``): the emulator is a regression of
outcome levels, whose errors average out over neighbouring points only when the points' luck
is independent (common random numbers sharpen differences between points, not levels), and
every match is then one cluster of its covariance. The runner plays the points in parallel
(``jobs``) and the tables never depend on how many workers played them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.stats import qmc

from sim.core.game import GameSpec, Player
from sim.core.runner import Cell, run_cells

from .outcome import RoundOutcome

__all__ = ["Design", "DesignRounds", "make_design", "play_design"]


@dataclass(frozen=True)
class Design:
    """``units``: (J points, n seats, d numbers) in [0, 1]; ``matches`` per point."""

    units: np.ndarray
    matches: int
    seed: int

    @property
    def n_players(self) -> int:
        return self.units.shape[1]

    def own_other(self) -> tuple[np.ndarray, np.ndarray]:
        """(J, n, d) own numbers and mean of the other seats' numbers."""
        n = self.n_players
        total = self.units.sum(axis=1, keepdims=True)
        other = (total - self.units) / max(n - 1, 1) if n > 1 else np.full_like(self.units, 0.5)
        return self.units, other


def make_design(n_players: int, d: int, points: int, matches: int, seed: int) -> Design:
    """A grid (n·d <= 2) or a Latin hypercube of ``points`` line-ups."""
    dims = n_players * d
    if dims <= 2:
        side = max(2, int(round(points ** (1.0 / dims))))
        axis = np.linspace(0.0, 1.0, side)
        grid = np.stack(np.meshgrid(*[axis] * dims, indexing="ij"), axis=-1).reshape(-1, dims)
    else:
        grid = qmc.LatinHypercube(d=dims, seed=seed).random(points)
    return Design(units=grid.reshape(-1, n_players, d), matches=matches, seed=seed)


@dataclass(frozen=True)
class DesignRounds:
    """The outcomes the design produced, per row of the rounds table of every point (``match``:
    the match's index within its point, 0 .. M - 1). The rows are those the game wrote: a
    round that left some seats out (a race won mid-round, a tie-break) has rows for the others
    only, as on a score sheet."""

    point: np.ndarray
    match: np.ndarray
    seat: np.ndarray
    values: list
    round: np.ndarray

    def partial_rounds(self, n_players: int) -> int:
        """How many rounds (of every point and match) left out at least one of the ``n_players`` seats."""
        if not len(self.seat):
            return 0
        keys = np.stack([self.point, self.match, self.round], axis=1)
        _, sizes = np.unique(keys, axis=0, return_counts=True)
        return int((sizes < n_players).sum())


def play_design(
    spec: GameSpec,
    rules: Any,
    space,
    design: Design,
    outcome: RoundOutcome,
    *,
    jobs: int = 1,
    progress: bool | None = None,
    store=None,
) -> DesignRounds:
    """Play every design point (``space`` turns numbers into profiles) and read the outcomes."""
    cells = []
    for j, lineup in enumerate(design.units):
        players = tuple(
            Player(f"point{j}-seat{s}", space.profile([a.from_unit(u) for a, u in zip(space.axes, row)]))
            for s, row in enumerate(lineup)
        )
        cells.append(
            Cell(variant="calibrate", lineup=f"point{j}", rules=rules, players=players, seed_offset=j * design.matches)
        )
    tables = run_cells(spec, cells, design.matches, design.seed, jobs=jobs, progress=progress, store=store)
    rounds = tables["rounds"]
    if len(rounds):
        outcome.check_columns(rounds, spec.name, "simulated rounds")
    return DesignRounds(
        point=rounds["lineup"].str.removeprefix("point").astype(int).to_numpy(),
        match=rounds["match"].to_numpy(dtype=int),
        seat=rounds["seat"].to_numpy(dtype=int),
        values=outcome.values(rounds),
        round=rounds["round"].to_numpy(dtype=int),
    )
