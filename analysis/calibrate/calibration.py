"""Calibration end to end: simulate the design once, fit the emulator, fit any number of
sheets against it.

    emulated = build_emulators(spec, rules, space, outcome, player_counts=(2,), points=81, matches=8)
    result = fit_sheet(emulated, sheet)          # cheap: reuse ``emulated`` for every sheet
    result.players                               # name, estimate and 95 % interval per axis

This is the one module of the package that plays matches (through the runner).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from sim.core.config import ConfigError
from sim.core.game import GameSpec

from .design import Design, DesignRounds, make_design, play_design
from .emulator import Basis, Emulator
from .fit import Fit, fit_players
from .likelihood import Group, Likelihood
from .outcome import Categories, RoundOutcome, make_categories
from .sheet import Sheet, sheet_hooks

__all__ = ["Emulated", "PlayerFit", "SheetFit", "build_emulators", "fit_sheet", "sheet_outcome"]


@dataclass
class Emulated:
    """The design's simulations and the emulators fitted to them (one per line-up size)."""

    spec: GameSpec
    rules: Any
    space: Any
    outcome: RoundOutcome
    categories: Categories
    emulators: dict[int, Emulator]
    designs: dict[int, Design]
    rounds: dict[int, DesignRounds]

    @property
    def matches_played(self) -> int:
        return sum(len(d.units) * d.matches for d in self.designs.values())


@dataclass(frozen=True)
class PlayerFit:
    """One player's fitted numbers (natural units) with their 95 % intervals."""

    name: str
    values: tuple[float, ...]
    intervals: tuple[tuple[float, float], ...]
    rounds: int


@dataclass
class SheetFit:
    """A score sheet fitted against the emulators: the sheet, its likelihood, the fit and each
    player's place on the skill axis."""

    emulated: Emulated
    sheet: Sheet
    likelihood: Likelihood
    fit: Fit
    players: list[PlayerFit]


def sheet_outcome(spec: GameSpec, sheet: Sheet, columns: dict[str, str] | None = None) -> RoundOutcome:
    """The outcome the sheet records: its value column, read from the rounds column the game
    maps it to (``GameSpec.sheet.columns``; ``columns``, when given, replaces that map)."""
    mapping = dict(sheet_hooks(spec).columns) if columns is None else dict(columns)
    return RoundOutcome(sheet.value, mapping.get(sheet.value, sheet.value), sheet.tokens)


#: Intervals between a spline's knots, at least: own number, the others' mean. A skill path's
#: presets are always knots (the profile is interpolated linearly between them).
OWN_INTERVALS, OTHER_INTERVALS = 6, 3


def _knots(axis, least: int) -> tuple[float, ...]:
    segments = int(round(axis.high - axis.low)) if axis.key == "skill" else 1
    intervals = segments * -(-least // segments)
    return tuple(np.arange(1, intervals) / intervals)


def _basis(space, n_players: int) -> Basis:
    own = tuple(_knots(a, OWN_INTERVALS) for a in space.axes)
    other = tuple(_knots(a, OTHER_INTERVALS) for a in space.axes) if n_players > 1 else ()
    return Basis(own, other)


def _counts(rounds: DesignRounds, design: Design, categories: Categories) -> np.ndarray:
    """(M matches, J points, n seats, C) counts of the design's rounds."""
    codes = categories.codes(rounds.values)
    out = np.zeros((design.matches, len(design.units), design.n_players, categories.size))
    np.add.at(out, (rounds.match, rounds.point, rounds.seat, codes), 1)
    return out


def build_emulators(
    spec: GameSpec,
    rules: Any,
    space,
    outcome: RoundOutcome,
    player_counts,
    *,
    points: int = 81,
    matches: int = 8,
    seed: int = 0,
    jobs: int = 1,
    progress: bool | None = None,
    max_bins: int = 10,
) -> Emulated:
    """Play a design for each line-up size and fit one emulator to each."""
    d = len(space.axes)
    designs, played = {}, {}
    for n in sorted(set(player_counts)):
        designs[n] = make_design(n, d, points, matches, seed + 7919 * n)
        played[n] = play_design(spec, rules, space, designs[n], outcome, jobs=jobs, progress=progress)
    values = [v for r in played.values() for v in r.values]
    categories = make_categories(values, list(outcome.tokens), max_bins=max_bins)
    emulators = {}
    for n, design in designs.items():
        own, other = design.own_other()
        emulators[n] = Emulator.fit(_basis(space, n), own, other, _counts(played[n], design, categories))
    return Emulated(spec, rules, space, outcome, categories, emulators, designs, played)


def _groups(sheet: Sheet, categories: Categories) -> list[Group]:
    players = list(sheet.players)
    matches = list(sheet.lineups)
    rows = sheet.rows.assign(code=categories.codes(list(sheet.rows["value"])))
    by_size: dict[int, list] = {}
    for (match, seat), part in rows.groupby(["match", "seat"], sort=False):
        lineup = sheet.lineups[match]
        counts = np.bincount(part["code"], minlength=categories.size)
        others = [players.index(p) for s, p in enumerate(lineup) if s != seat]
        by_size.setdefault(len(lineup), []).append(
            (players.index(lineup[seat]), others, seat, matches.index(match), counts)
        )
    groups = []
    for n, items in sorted(by_size.items()):
        own, others, seat, cluster, counts = zip(*items)
        groups.append(
            Group(
                n,
                np.array(own),
                np.array(others, dtype=int).reshape(len(items), n - 1),
                np.array(seat),
                np.array(cluster),
                np.array(counts, dtype=float),
            )
        )
    return groups


def _check_partial_rounds(emulated: Emulated, sheet: Sheet) -> None:
    """A round of the sheet that leaves a player out is refused (one line) when the game never
    left a seat out of a round in the design's matches of that size: there it is a missing row,
    not a race won mid-round."""
    simulated: dict[int, int] = {}
    for (match, number), group in sheet.rows.groupby(["match", "round"], sort=False):
        lineup = sheet.lineups[match]
        n = len(lineup)
        if len(group) == n:
            continue
        if n not in simulated:
            simulated[n] = emulated.rounds[n].partial_rounds(n)
        if simulated[n]:
            continue
        absent = ", ".join(p for p in lineup if p not in set(group["player"]))
        played = len(emulated.designs[n].units) * emulated.designs[n].matches
        raise ConfigError(
            [
                f"{sheet.path}: row {int(group['line'].iloc[0])}: column player: match {match} "
                f"{sheet.round_word} {number}: no row for {absent} ({emulated.spec.name} left no "
                f"player out of a {sheet.round_word} in {played} simulated matches of {n} players: "
                f"write a row for every player, or simulate more matches if such endings are rare)"
            ]
        )


def fit_sheet(emulated: Emulated, sheet: Sheet) -> SheetFit:
    """Fit every player of ``sheet`` against the emulators (no match is played).

    The likelihood is summed over the sheet's rows, and the emulator was fitted to the rows of
    the simulated rounds tables: a round that left players out counts for those who played it,
    on both sides. Such a round is refused where the game never leaves a player out
    (:func:`_check_partial_rounds`)."""
    missing = sorted({len(lineup) for lineup in sheet.lineups.values()} - set(emulated.emulators))
    if missing:
        raise ConfigError(
            [
                f"{sheet.path}: matches of {missing[0]} players; the emulators cover "
                + ", ".join(str(n) for n in emulated.emulators)
            ]
        )
    _check_partial_rounds(emulated, sheet)
    unknown = [t for t in sheet.tokens if t not in emulated.categories.tokens]
    if unknown:
        raise ConfigError([f"{sheet.path}: column {sheet.value}: {unknown[0]!r} was not simulated"])
    axes = emulated.space.axes
    like = Likelihood(emulated.emulators, _groups(sheet, emulated.categories), len(sheet.players), len(axes))
    with threadpool_limits(1):  # many tiny products: a threaded BLAS only adds contention
        fit = fit_players(like)
    players = []
    for p, name in enumerate(sheet.players):
        values = tuple(a.from_unit(u) for a, u in zip(axes, fit.theta[p]))
        intervals = tuple((a.from_unit(lo), a.from_unit(hi)) for a, (lo, hi) in zip(axes, fit.intervals[p]))
        players.append(PlayerFit(name, values, intervals, sheet.rounds_of(name)))
    return SheetFit(emulated, sheet, like, fit, players)


def check_budget(points: int, matches: int) -> None:
    if points < 4 or matches < 2 or not math.isfinite(points * matches):
        raise ConfigError([f"design: {points} points x {matches} matches; allowed: >= 4 points, >= 2 matches each"])
