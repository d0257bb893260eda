"""Experiments: a baseline and named variants × line-ups, paired by seed, resumable.

An experiment file (TOML)::

    game = "curlastique"
    matches = 2000            # per variant and line-up (with rotate_seats: seeds × rotations)
    seed = 7
    rotate_seats = true       # play each seed under every rotation of the line-up
    chunk_size = 0            # optional: matches per task (0: sized by time)
    [baseline]                # optional: a rules file and/or overrides
    rules = "my_rules.toml"   # relative to the experiment file
    set = { "game.target_score" = 1000 }
    [[variants]]
    name = "bullseye-150"
    set = { "zones.values" = [150, 80, 40, 20] }
    [[lineups]]
    name = "club-4p"
    players = ["club", "club", "club", "club"]
    [precision]               # optional: play on until the CIs are tight enough
    half_width = 0.02         # every seat's 95 % Wilson half-width below this (proportion)
    max_matches = 20000       # cap per variant and line-up
    step = 1000               # matches added per round of checking
    [stopping]                # optional: stop each cell once its question is answered
    fairness = 0.02           # every seat shown inside 1/n ± 0.02, or one outside (sim.core.stopping)
    effect = "seat 0"         # the sign of each variant's effect on a win rate
    max_matches = 20000       # cap per variant and line-up
    [sweep]                   # optional: every line-up at each value of a player axis
    slots = "all"             # "all", or the line-up slots swept (0 = the first), e.g. [1]
    skill = [0, 1, 2, 3]      # the game's skill axis (sim.core.skill: novice → expert) ...
    # key = "temperature"     # ... or a profile key of the slots' profiles
    # values = [0.0, 0.3, 1.0]
    # metrics = ["ko_rate"]   # game metrics whose variant effects are plotted against the value
    [worth]                   # optional: what each restrictable choice is worth to one seat
    choices = "all"           # "all", or the choices to measure (tablesim worth GAME --list)
    slot = 0                  # the line-up slot whose player is restricted (0 = the first)

Match ``i`` of every variant and line-up uses the same seeds (common random numbers). The
results directory keeps every finished chunk; rerunning skips them, and raising ``matches``
only plays the new matches. Under seat rotation ``matches`` is rounded up to whole rotations
of every line-up (a note says so).

A sweep makes one line-up per line-up × value, named ``<line-up> <axis>=<value>`` (e.g.
``duel skill=1.5``): the swept slots play the profile at that value (the skill axis's
interpolated profile, or their own profile with the key set), the other slots keep theirs.
Every value is played on the same seeds; the manifest's ``sweep`` maps each line-up to its
value, and the report plots every outcome against it (:mod:`analysis.sweep`).

A ``[worth]`` table adds, for every line-up and choice, a line-up named ``<line-up> without
<choice>`` in which the player of ``slot`` forbids that choice (its profile's ``forbid``): on
common seeds each pairs with the unrestricted line-up, and the report says what each choice is
worth in win rate (:mod:`analysis.worth`). A file gives ``[sweep]`` or ``[worth]``, not both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from .config import ConfigError, build, flatten, notes_prefixed, param, read_toml, to_dict
from .game import GameSpec, get_game
from .manifest import package_versions
from .profiles import load_lineup
from .restrict import choices_named, restricted_lineups, worth_manifest
from .rules import load_rules
from .runner import AUTO, DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE, MAX_MATCHES, Cell, run_cells
from .stopping import Looks, Stopping, play_until_answered
from .store import ResultStore, load_tables

__all__ = [
    "Experiment",
    "load_experiment",
    "run_experiment",
    "experiment_manifest",
    "seat_half_width",
    "whole_rotations",
]

BASELINE = "baseline"


@dataclass(frozen=True)
class RulesChange:
    """A rules file (relative to the experiment file) and dotted-key overrides."""

    rules: str = param("", doc="path of a rules TOML file")
    set: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Variant:
    name: str = param("", doc="the variant's name in the tables")
    rules: str = param("", doc="a rules file applied on top of the baseline's")
    set: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Lineup:
    name: str = param("", doc="the line-up's name in the tables")
    players: tuple[str, ...] = param((), doc="profiles by seat")


@dataclass(frozen=True)
class Precision:
    half_width: float = param(0.0, min=0.0, max=0.5, doc="target 95 % CI half-width (0 = off)")
    max_matches: int = param(20000, min=1, max=MAX_MATCHES, doc="cap on matches per variant and line-up")
    step: int = param(0, min=0, max=MAX_MATCHES, doc="matches added per check (0 = the experiment's `matches`)")


@dataclass(frozen=True)
class Sweep:
    """The ``[sweep]`` table: a player axis and its values (empty: no sweep)."""

    slots: Any = param("all", doc='"all" or a list of line-up slots (0 = the first)')
    skill: tuple[float, ...] = param((), doc="values on the game's skill axis (0 = its first preset)")
    key: str = param("", doc="a profile key to sweep instead of the skill axis")
    values: tuple[float, ...] = param((), doc="the key's values")
    metrics: tuple[str, ...] = param(
        (),
        doc="game metrics whose variant effects the report plots against "
        "the value (default: those a variant moves at some value, at most 4)",
    )

    @property
    def axis(self) -> str:
        return "skill" if self.skill else self.key

    @property
    def points(self) -> tuple[float, ...]:
        return self.skill or self.values

    def problems(self):
        if self.skill and (self.key or self.values):
            yield "skill", "give either skill values or a key and its values, not both"
        elif self.key and not self.values:
            yield "values", f"missing; the values of {self.key!r} to sweep"
        elif self.values and not self.key:
            yield "key", "missing; the profile key whose values are swept"
        if len(set(self.points)) != len(self.points):
            yield "skill" if self.skill else "values", "a value is repeated"
        if not (
            self.slots == "all"
            or (
                isinstance(self.slots, list | tuple)
                and self.slots
                and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in self.slots)
            )
        ):
            yield "slots", f'got {self.slots!r}; allowed: "all" or a list of slot numbers (0 = the first)'

    def swept(self, seats: int) -> list[int]:
        """The slots swept in a line-up of ``seats`` players."""
        return list(range(seats)) if self.slots == "all" else sorted(set(self.slots))


@dataclass(frozen=True)
class Worth:
    """The ``[worth]`` table: the choices to measure and the restricted slot (empty: none)."""

    choices: Any = param((), doc='"all" or a list of the game\'s restrictable choices (tablesim worth GAME --list)')
    slot: int = param(0, min=0, doc="the line-up slot whose player is restricted (0 = the first)")

    @property
    def active(self) -> bool:
        return bool(self.choices)

    def problems(self):
        if not (
            self.choices in ((), "all")
            or (isinstance(self.choices, list | tuple) and all(isinstance(c, str) and c for c in self.choices))
        ):
            yield "choices", f'got {self.choices!r}; allowed: "all" or a list of choice names'


@dataclass(frozen=True)
class ExperimentFile:
    game: str = param("", doc="the game's name")
    matches: int = param(0, min=1, max=MAX_MATCHES, doc="matches per variant and line-up")
    seed: int = param(0, min=0, doc="root seed")
    rotate_seats: bool = False
    chunk_size: int = param(
        AUTO, min=0, max=MAX_CHUNK_SIZE, doc="matches per task (0: sized by time, about 1 s of play each)"
    )
    baseline: RulesChange = RulesChange()
    variants: tuple[Variant, ...] = ()
    lineups: tuple[Lineup, ...] = ()
    precision: Precision = Precision()
    stopping: Stopping = Stopping()
    sweep: Sweep = Sweep()
    worth: Worth = Worth()

    def problems(self):
        if self.sweep.points and self.worth.active:
            yield "worth", "give [sweep] or [worth], not both"
        for lineup in self.lineups if self.worth.active else ():
            if self.worth.slot >= len(lineup.players):
                yield (
                    "worth.slot",
                    (
                        f"slot {self.worth.slot} is not in line-up {lineup.name!r} "
                        f"({len(lineup.players)} players: slots 0 to {len(lineup.players) - 1})"
                    ),
                )
        if self.sweep.points and self.sweep.slots != "all":
            for lineup in self.lineups:
                wrong = [slot for slot in self.sweep.swept(len(lineup.players)) if slot >= len(lineup.players)]
                if wrong:
                    yield (
                        "sweep.slots",
                        (
                            f"slot {wrong[0]} is not in line-up {lineup.name!r} "
                            f"({len(lineup.players)} players: slots 0 to {len(lineup.players) - 1})"
                        ),
                    )
        if not self.lineups:
            yield "lineups", "expected at least one [[lineups]] table with name and players"
        if self.matches < 1:
            yield "matches", "missing; the matches per variant and line-up, e.g. matches = 200"
        names = [v.name for v in self.variants]
        for index, variant in enumerate(self.variants):
            if not variant.name:
                yield f"variants[{index}].name", "missing; every variant needs a name"
            elif variant.name == BASELINE:
                yield f"variants[{index}].name", f"{BASELINE!r} is reserved for the baseline"
            elif names.count(variant.name) > 1:
                yield f"variants[{index}].name", f"duplicate variant name {variant.name!r}"
        lineup_names = [lineup.name for lineup in self.lineups]
        for index, lineup in enumerate(self.lineups):
            if not lineup.name:
                yield f"lineups[{index}].name", "missing; every line-up needs a name"
            elif lineup_names.count(lineup.name) > 1:
                yield f"lineups[{index}].name", f"duplicate line-up name {lineup.name!r}"
        if self.precision.half_width > 0 and self.precision.max_matches < self.matches:
            yield "precision.max_matches", f"must be >= matches ({self.matches})"
        yield from self._stopping_problems()

    def _stopping_problems(self):
        stop = self.stopping
        if not stop.active:
            return
        if self.precision.half_width > 0:
            yield "stopping", "give [precision] or [stopping], not both ([stopping] half_width plays to a width too)"
        if stop.max_matches < self.matches:
            yield "stopping.max_matches", f"must be >= matches ({self.matches})"
        if stop.effect:
            words = stop.effect.split()
            seats = [len(lineup.players) for lineup in self.lineups]
            profiles = {Path(p).stem if p.endswith(".toml") else p for lineup in self.lineups for p in lineup.players}
            if not words or (words[0] == "seat" and (len(words) != 2 or not words[1].isdigit())):
                yield "stopping.effect", f'got {stop.effect!r}; allowed: "seat N" (N a seat number) or a profile'
            elif words[0] == "seat" and seats and int(words[1]) >= max(seats):
                yield "stopping.effect", (f"got {stop.effect!r}; the line-ups have seats 0 to {max(seats) - 1}")
            elif words[0] != "seat" and stop.effect not in profiles:
                yield (
                    "stopping.effect",
                    (
                        f'got {stop.effect!r}; allowed: "seat N" or a profile of the '
                        f"line-ups ({', '.join(sorted(profiles))})"
                    ),
                )
            if not self.variants:
                yield "stopping.effect", "no [[variants]]: an effect is a variant against the baseline"

    @property
    def rotation_step(self) -> int:
        """Matches per whole rotation of every line-up (1 without seat rotation)."""
        if not self.rotate_seats or not self.lineups:
            return 1
        return math.lcm(*(max(1, len(lineup.players)) for lineup in self.lineups))

    def notes(self):
        step = self.rotation_step
        seats = ", ".join(map(str, sorted({len(lineup.players) for lineup in self.lineups})))
        if self.matches % step:
            yield (
                "matches",
                (
                    f"{self.matches} is not a whole number of seat rotations ({seats} seats): playing "
                    f"{_whole(self.matches, step)}, every seed under each rotation"
                ),
            )
        if self.precision.half_width > 0 and self.precision.max_matches % step:
            yield (
                "precision.max_matches",
                (
                    f"{self.precision.max_matches} is not a whole number of seat rotations "
                    f"({seats} seats): capping at {_whole(self.precision.max_matches, step)}"
                ),
            )
        if self.stopping.active and self.stopping.max_matches % step:
            yield (
                "stopping.max_matches",
                (
                    f"{self.stopping.max_matches} is not a whole number of seat rotations "
                    f"({seats} seats): capping at {_whole(self.stopping.max_matches, step)}"
                ),
            )


def _whole(matches: int, step: int) -> int:
    """``matches`` rounded up to a multiple of ``step``."""
    return -(-matches // step) * step


def whole_rotations(settings: ExperimentFile, matches: int) -> int:
    """``matches`` rounded up to whole rotations of every line-up (unchanged without rotation)."""
    return _whole(matches, settings.rotation_step)


@dataclass(frozen=True)
class Experiment:
    """A validated experiment: the file's settings and its cells (variant × line-up)."""

    path: Path
    spec: GameSpec
    settings: ExperimentFile
    cells: tuple[Cell, ...]
    swept: tuple[tuple[str, str, float], ...] = ()  # (line-up played, line-up of the file, value)
    worth: dict | None = None  # the manifest's ``worth`` (sim.core.restrict.worth_manifest), or None

    @property
    def variants(self) -> list[str]:
        return [BASELINE, *(v.name for v in self.settings.variants)]

    def sweep_manifest(self) -> dict | None:
        """The manifest's ``sweep``: the axis, the slots, the values and each line-up's value."""
        sweep = self.settings.sweep
        if not sweep.points:
            return None
        return {
            "axis": sweep.axis,
            "kind": "skill" if sweep.skill else "key",
            "slots": sweep.slots,
            "values": list(sweep.points),
            "metrics": list(sweep.metrics),
            "lineups": {name: {"lineup": base, "value": value} for name, base, value in self.swept},
        }


def rules_for(spec: GameSpec, folder: Path, changes: list[tuple[str, RulesChange | Variant]]):
    """Rules from the defaults then each (label, change) in order; errors name the label."""
    files = [folder / change.rules for _, change in changes if change.rules]
    overrides = [(key, value) for _, change in changes for key, value in change.set.items()]
    if len(files) > 1:  # a variant's file applies on top of the baseline's
        from .config import apply_overrides

        merged: dict = {}
        for path in files:
            apply_overrides(merged, flatten(read_toml(path)).items())
        overrides = [*flatten(merged).items(), *overrides]
        files = []
    return load_rules(spec, files[0] if files else None, overrides, override_label="")


def load_experiment(path: str | Path) -> Experiment:
    """Read and validate an experiment file: every problem of every variant and line-up."""
    path = Path(path)
    data = read_toml(path)
    settings = build(ExperimentFile, data, sources={k: str(path) for k in data}, default_source=str(path))
    step = settings.rotation_step  # whole rotations only (said by ExperimentFile.notes)
    settings = replace(
        settings,
        matches=_whole(settings.matches, step),
        precision=replace(settings.precision, max_matches=_whole(settings.precision.max_matches, step)),
        stopping=replace(settings.stopping, max_matches=_whole(settings.stopping.max_matches, step)),
    )
    if not settings.game:
        raise ConfigError([f"{path}: game: missing; expected a game's name"])
    try:
        spec = get_game(settings.game)
    except KeyError as exc:
        raise ConfigError([f"{path}: game: {exc.args[0]}"]) from None
    problems: list[str] = []
    rules_by_variant: dict[str, Any] = {}
    for label, changes in [
        (BASELINE, [(BASELINE, settings.baseline)]),
        *[(v.name, [(BASELINE, settings.baseline), (v.name, v)]) for v in settings.variants],
    ]:
        try:
            with notes_prefixed(f"{path}: variant {label!r}: "):
                rules_by_variant[label] = rules_for(spec, path.parent, changes)
        except ConfigError as exc:
            problems += [f"{path}: variant {label!r}: {line}" for line in exc.problems]
    cells, swept, restricted = [], {}, {}
    for lineup in settings.lineups:
        expanded = None  # the sweep's line-ups: the same players under every variant
        failed: dict[str, list[str]] = {}  # a line-up's problem → the variants it arises under
        for variant, rules in rules_by_variant.items():
            try:
                players = load_lineup(spec, [_resolve_profile(p, path.parent) for p in lineup.players], rules)
            except ConfigError as exc:
                for line in exc.problems:
                    failed.setdefault(line, []).append(variant)
                continue
            if expanded is None:
                try:
                    expanded = list(_swept_lineups(spec, path, settings.sweep, lineup.name, players))
                    if settings.worth.active:
                        expanded = _worth_lineups(spec, rules, settings.worth, lineup.name, players, restricted)
                except ConfigError as exc:
                    problems += [f"{path}: lineup {lineup.name!r}: {line}" for line in exc.problems]
                    break
            for name, value, seated in expanded:
                cells.append(Cell(variant, name, rules, seated, settings.rotate_seats))
                if value is not None:
                    swept[name] = (name, lineup.name, value)
        # a problem every variant shares is said once; one of some variants names them
        problems += [
            f"{path}: lineup {lineup.name!r}"
            + ("" if len(variants) == len(rules_by_variant) else f" ({', '.join(variants)})")
            + f": {line}"
            for line, variants in failed.items()
        ]
    if problems:
        raise ConfigError(list(dict.fromkeys(problems)))
    worth = None
    if settings.worth.active:
        choices = choices_named(spec.restrictions, rules_by_variant[BASELINE], settings.worth.choices, spec.name)
        worth = worth_manifest(settings.worth.slot, choices, restricted)
    return Experiment(path, spec, settings, tuple(cells), tuple(swept.values()), worth)


def _worth_lineups(spec: GameSpec, rules: Any, worth: Worth, name: str, players: tuple, restricted: dict) -> list:
    """The line-up and one per choice with its ``slot`` restricted (as :func:`_swept_lineups`
    yields them, value None); records each line-up played in ``restricted``."""
    choices = choices_named(spec.restrictions, rules, worth.choices, spec.name, label="worth.choices")
    out = []
    for played, choice, seated in restricted_lineups(name, players, worth.slot, choices):
        restricted[played] = (name, choice)
        out.append((played, None, seated))
    return out


def _swept_lineups(spec: GameSpec, path: Path, sweep: Sweep, name: str, players: tuple):
    """(line-up name, swept value, players) of a line-up at each value of the sweep (itself if none)."""
    if not sweep.points:
        yield name, None, players
        return
    from .skill import player_at_skill

    for value in sweep.points:
        seated = list(players)
        for slot in sweep.swept(len(players)):
            if sweep.skill:
                seated[slot] = player_at_skill(spec, float(value))
            else:
                seated[slot] = _with_key(spec, path, players[slot], sweep.key, value)
        yield f"{name} {sweep.axis}={value:g}", float(value), tuple(seated)


def _with_key(spec: GameSpec, path: Path, player, key: str, value: float):
    """The player with one profile key set (validated as a profile file would be)."""
    from .game import Player

    data = {**to_dict(player.profile), key: value}
    profile = build(spec.profile_type, data, sources={key: f"{path} [sweep]"}, default_source=str(spec.profiles))
    return Player(f"{player.name} {key}={value:g}", profile)


def _resolve_profile(reference: str, folder: Path) -> str:
    return str(folder / reference) if reference.endswith(".toml") else reference


def experiment_manifest(experiment: Experiment, versions: dict[str, str] | None = None) -> dict:
    """The manifest of an experiment's results directory (everything needed to reproduce it)."""
    settings = experiment.settings
    rules = {cell.variant: to_dict(cell.rules) for cell in experiment.cells}
    return {
        "kind": "experiment",
        "game": experiment.spec.name,
        "experiment_file": str(experiment.path),
        "seed": settings.seed,
        "matches": settings.matches,
        "rotate_seats": settings.rotate_seats,
        "chunk_size": settings.chunk_size,
        "baseline": {
            "rules": settings.baseline.rules,
            "set": dict(settings.baseline.set),
            "rules_dict": rules.get(BASELINE),
        },
        "variants": [
            {"name": v.name, "rules_file": v.rules, "set": dict(v.set), "rules": rules.get(v.name)}
            for v in settings.variants
        ],
        "lineups": [{"name": lineup.name, "players": list(lineup.players)} for lineup in settings.lineups],
        "cells": [
            {
                "variant": c.variant,
                "lineup": c.lineup,
                "rules": rules[c.variant],
                "players": [{"name": p.name, "profile": to_dict(p.profile)} for p in c.players],
                "rotate_seats": c.rotate_seats,
            }
            for c in experiment.cells
        ],
        "precision": to_dict(settings.precision),
        **(
            {"stopping_rule": {**to_dict(settings.stopping), "look_every": look_step(settings)}}
            if settings.stopping.active
            else {}
        ),
        **({"sweep": experiment.sweep_manifest()} if experiment.sweep_manifest() else {}),
        **({"worth": experiment.worth} if experiment.worth else {}),
        "versions": versions or package_versions(),
    }


def seat_half_width(players: pd.DataFrame) -> float:
    """The widest 95 % half-width of any seat's win rate in any cell (proportion).

    The interval is the report's (:func:`sim.core.estimators.clustered_wilson`): Wilson on
    the effective sample size n/deff, where the matches of one seed (its rotations) are one
    cluster — so a precision target is reached on the evidence the report will show, not on
    the number of matches. Half of the interval's width is taken (it is not symmetric).
    """
    from .estimators import cluster_counts, clustered_wilson

    clustered = "seed" in players.columns
    widest = 0.0
    for _, group in players.groupby(["variant", "lineup", "seat"]):
        clusters = group["seed"].to_numpy() if clustered else None
        _, low, high, _ = clustered_wilson(*cluster_counts(group["won"].to_numpy(float), clusters), 0.95)
        widest = max(widest, (high - low) / 2)
    return widest


def run_experiment(
    experiment: Experiment,
    store: ResultStore,
    *,
    jobs: int = 1,
    backend: str = "loky",
    progress: bool | None = None,
    parallel_kwargs: dict | None = None,
    manifest: dict | None = None,
) -> dict[str, pd.DataFrame]:
    """Play every cell (resuming from the store) and, with a precision target, play on.

    Holds the store's lock throughout; writes the manifest (``manifest`` or
    :func:`experiment_manifest`) first with status "running", then "complete" with
    ``matches_played``. Returns the tables as stored.
    """
    manifest = dict(manifest or experiment_manifest(experiment))
    with store.lock(str(manifest.get("command", ""))):
        return _run_locked(
            experiment, store, manifest, jobs=jobs, backend=backend, progress=progress, parallel_kwargs=parallel_kwargs
        )


def look_step(settings: ExperimentFile) -> int:
    """Matches between two looks of a ``[stopping]`` rule: its ``step``, else one chunk, in whole rotations."""
    return _whole(settings.stopping.step or settings.chunk_size or DEFAULT_CHUNK_SIZE, settings.rotation_step)


def _run_stopping(experiment: Experiment, store: ResultStore, manifest: dict, **options) -> dict[str, pd.DataFrame]:
    """Play every cell in looks, each until its questions are answered (:func:`.stopping.play_until_answered`)."""
    settings = experiment.settings

    def record(stops: list[dict]) -> None:
        store.write_manifest({**manifest, "status": "running", "stopping": stops})

    looks = Looks(
        experiment.spec,
        experiment.cells,
        settings.stopping,
        settings.matches,
        look_step(settings),
        settings.seed,
        settings.chunk_size,
        BASELINE,
    )
    stops = play_until_answered(looks, store, record, **options)
    manifest.update(stopping=stops)
    store.write_manifest({**manifest, "matches_played": max(r["matches"] for r in stops), "status": "complete"})
    return load_tables(store.path)


def _run_locked(experiment: Experiment, store: ResultStore, manifest: dict, **options) -> dict[str, pd.DataFrame]:
    store.write_manifest({**manifest, "status": "running"})
    if experiment.settings.stopping.active:
        return _run_stopping(experiment, store, manifest, **options)
    settings = experiment.settings
    matches = settings.matches
    while True:
        tables = run_cells(
            experiment.spec,
            experiment.cells,
            matches,
            settings.seed,
            chunk_size=settings.chunk_size,
            store=store,
            **options,
        )
        target = settings.precision
        if target.half_width <= 0 or matches >= target.max_matches:
            break
        if seat_half_width(tables["players"]) <= target.half_width:
            break
        step = target.step or settings.matches
        if settings.rotate_seats:  # whole rotations only
            seats = settings.rotation_step
            step = max(seats, step - step % seats)
        matches = min(target.max_matches, matches + step)
    store.write_manifest({**manifest, "matches_played": matches, "status": "complete"})
    return tables
