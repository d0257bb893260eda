"""`tablesim check FILE`: design targets verified on named line-ups and rules, for a designer's CI.

A check file (TOML) takes the target tables of a balance file as they are, the line-ups and
rules they are measured on, and a budget of matches::

    game = "curlastique"
    seed = 7
    matches = 2400                 # the most matches per line-up and rules (the last stage)
    stages = 3                     # nested sizes 600, 1200, 2400: stop as soon as decided
    alpha = 0.05                   # chance that the exit status is wrong, over every stage
    determinism = 20               # matches played twice with the same seed (0: off)
    [baseline]
    set = { "game.target_score" = 500 }
    [[variants]]                   # optional: other rules, on top of the baseline
    name = "bullseye-150"
    set = { "zones.values" = [150, 80, 40, 20] }
    [[lineups]]
    name = "club-4p"
    players = ["club", "club", "club", "club"]
    [[targets]]                    # a balance file's [[targets]] table, plus `variant`
    metric = "seat_win_rate"
    seat = 0
    target = 0.25
    tolerance = 0.07
    variant = "*"                  # under every rules set (default: the baseline)

**Verdicts.** Every stage is a look of an in-memory :class:`~analysis.balance.looks.Ledger`
(α spread over the ``stages`` planned looks, α_j = α/K, as a balance validation spends its
directory's budget). At look j a target still open is

* *met* when its equivalence test passes: the TOST of
  :func:`analysis.balance.targets.check_tables` at α_j, i.e. its (1 − 2α_j) interval (the
  seed-clustered Wilson interval for rates, a bootstrap over seeds otherwise) lies inside the
  band. "Every target met" is an intersection–union claim: a false one needs a false pass of one
  target whose band is not met, so the α_j is not split over targets (Berger 1982);
* *missed* when its (1 − α_j/T) interval (T targets) lies wholly outside the band: a false
  "missed" of a target inside its band needs that interval to miss the true value, chance at
  most α_j/T, and "some target missed" is a union claim: Bonferroni over the T targets;
* *undecided* otherwise, and played on at the next stage.

A verdict once reached stands. The run stops when every target is decided or one is missed
(the check then fails whatever the others say). By the union bound over looks the exit status
is wrong with chance at most α, however the stages went: 0 when a target lies outside its band,
1 when every target shown missed lies inside.

**Determinism.** The first ``determinism`` matches of the first cell checked are played twice
with the check's seed, once in this process in one chunk and once in chunks of a quarter on the
check's workers, and the tables compared exactly: a game whose tables depend on anything but
its seeds cannot be resumed, replayed or reproduced, whatever its statistics say.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.core.config import ConfigError, build, param, parse_override, read_toml
from sim.core.experiment import BASELINE, Lineup, RulesChange, Variant, rules_for
from sim.core.game import GameSpec, get_game
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules
from sim.core.runner import DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE, MAX_MATCHES, Cell, run_cells
from sim.core.store import KEY_COLUMNS, assemble
from sim.core.text import join_and

from .balance.looks import Ledger
from .balance.targets import Target, check_tables, game_parts_of, measure_all
from .balance.validation import human_number
from .balance.worth import WORTH_METRICS

__all__ = [
    "CheckTarget",
    "CheckFile",
    "Check",
    "load_check",
    "run_check",
    "stage_sizes",
    "first_difference",
    "check_determinism",
    "sentence",
    "exit_status",
    "text_report",
    "markdown_report",
    "EVERY",
]

#: ``lineup = "*"`` or ``variant = "*"`` in a target: required on every line-up (rules set) of the file.
EVERY = "*"
#: The exit status of each overall verdict.
EXIT = {"met": 0, "missed": 1, "undecided": 3}


@dataclass(frozen=True)
class CheckTarget(Target):
    """A balance target, measured under one of the file's rules sets."""

    variant: str = param(
        "",
        doc='the rules measured under: "baseline", a [[variants]] name, or "*" for every one (default: the baseline)',
    )


@dataclass(frozen=True)
class CheckFile:
    """A check file (``tablesim check FILE``)."""

    game: str = ""
    seed: int = param(0, min=0, doc="root seed")
    matches: int = param(2000, min=1, max=MAX_MATCHES, doc="the most matches per line-up and rules (the last stage)")
    stages: int = param(1, min=1, max=8, doc="nested sizes matches·2^(s−S), each a look spending alpha / stages")
    alpha: float = param(0.05, min=0.0001, max=0.25, doc="chance that the exit status is wrong, over every stage")
    bootstrap: int = param(400, min=50, doc="bootstrap resamples (of seeds) for the intervals of non-rate metrics")
    determinism: int = param(20, min=0, max=100_000, doc="matches played twice with the same seed (0: off)")
    rotate_seats: bool = False
    chunk_size: int = param(DEFAULT_CHUNK_SIZE, min=1, max=MAX_CHUNK_SIZE, doc="matches per task")
    baseline: RulesChange = RulesChange()
    variants: tuple[Variant, ...] = ()
    lineups: tuple[Lineup, ...] = ()
    targets: tuple[CheckTarget, ...] = ()

    def problems(self):
        if not self.game:
            yield "game", "missing; expected a game's name (tablesim games)"
        if not self.lineups:
            yield "lineups", "expected at least one [[lineups]] table with name and players"
        if not self.targets:
            yield "targets", "expected at least one [[targets]] table"
        for kind, items in (("lineups", self.lineups), ("variants", self.variants)):
            names = [item.name for item in items]
            for index, name in enumerate(names):
                if not name:
                    yield f"{kind}[{index}].name", "missing; every one needs a name"
                elif names.count(name) > 1:
                    yield f"{kind}[{index}].name", f"duplicate name {name!r}"
                elif name == EVERY or (kind == "variants" and name == BASELINE):
                    yield f"{kind}[{index}].name", f"{name!r} is reserved"
        lineups = [lineup.name for lineup in self.lineups]
        variants = [BASELINE, *(v.name for v in self.variants)]
        for index, target in enumerate(self.targets):
            if target.lineup and target.lineup != EVERY and target.lineup not in lineups:
                yield f"targets[{index}].lineup", f"unknown line-up {target.lineup!r}; allowed: {', '.join(lineups)}, *"
            if target.variant and target.variant != EVERY and target.variant not in variants:
                yield (
                    f"targets[{index}].variant",
                    (f"unknown rules {target.variant!r}; allowed: {', '.join(variants)}, *"),
                )


@dataclass
class Check:
    """A validated check: the game, the settings, the cells to play and the targets placed on them.

    ``targets`` holds ``(variant, target)`` pairs, the target's line-up set; ``cells`` the
    (variant × line-up) cells some target is measured on, in the file's order.
    """

    path: Path
    spec: GameSpec
    settings: CheckFile
    cells: list[Cell]
    targets: list[tuple[str, Target]]
    labelled: bool  # the file has variants: labels name the rules

    def label(self, variant: str, target: Target) -> str:
        return f"{target.label} [{variant}]" if self.labelled else target.label


def load_check(
    path: str | Path, overrides: list[str] = (), seed: int | None = None, matches: int | None = None
) -> Check:
    """Read and validate a check file: every problem as one line naming the file, nothing played.

    ``overrides`` (``--set KEY=VALUE``) apply to the baseline rules and so to every variant;
    ``seed`` and ``matches`` replace the file's.
    """
    path = Path(path)
    data = read_toml(path)
    settings = build(CheckFile, data, sources={k: str(path) for k in data}, default_source=str(path))
    settings = dataclasses.replace(
        settings, seed=settings.seed if seed is None else seed, matches=settings.matches if matches is None else matches
    )
    try:
        spec = get_game(settings.game)
    except KeyError as exc:
        raise ConfigError([f"{path}: game: {exc.args[0]}"]) from None
    if overrides:
        load_rules(spec, None, overrides)  # a bad --set is named as such
        extra = dict(parse_override(text) for text in overrides)
        settings = dataclasses.replace(
            settings, baseline=dataclasses.replace(settings.baseline, set={**settings.baseline.set, **extra})
        )
    problems: list[str] = []
    rules = _rules_sets(spec, path, settings, problems)
    players = {}
    for lineup in settings.lineups:
        references = [str(path.parent / p) if p.endswith(".toml") else p for p in lineup.players]
        try:
            players[lineup.name] = load_lineup(spec, references, rules.get(BASELINE))
        except ConfigError as exc:
            problems += [f"{path}: lineup {lineup.name!r}: {line}" for line in exc.problems]
    targets = _placed(spec, path, settings, players, problems)
    if problems:
        raise ConfigError(list(dict.fromkeys(problems)))
    used = {(variant, target.lineup) for variant, target in targets}
    cells = [
        Cell(variant, lineup.name, rules[variant], players[lineup.name], settings.rotate_seats)
        for variant in rules
        for lineup in settings.lineups
        if (variant, lineup.name) in used
    ]
    return Check(path, spec, settings, cells, targets, bool(settings.variants))


def _rules_sets(spec: GameSpec, path: Path, settings: CheckFile, problems: list[str]) -> dict[str, Any]:
    """The baseline's and every variant's rules, by name (problems appended, one line each)."""
    rules = {}
    for label, changes in [
        (BASELINE, [(BASELINE, settings.baseline)]),
        *[(v.name, [(BASELINE, settings.baseline), (v.name, v)]) for v in settings.variants],
    ]:
        try:
            rules[label] = rules_for(spec, path.parent, changes)
        except ConfigError as exc:
            problems += [f"{path}: rules {label!r}: {line}" for line in exc.problems]
    return rules


#: The metrics a target may name on any game (beside ``game``, a game's own summary metric).
EVERY_GAME_METRICS = (
    "seat_win_rate",
    "profile_win_rate",
    "rounds_quantile",
    "rounds_mean",
    "length_quantile",
    "length_mean",
    "completion",
)


def _placed(spec: GameSpec, path: Path, settings: CheckFile, players: dict, problems: list[str]):
    """Every target on its line-up and rules (``*`` expanded), checked against the line-up."""
    declared = spec.length.column
    lengths = sorted({"rounds", declared})
    variants = [BASELINE, *(v.name for v in settings.variants)]
    placed = []
    for k, target in enumerate(settings.targets):
        base = Target(**{f.name: getattr(target, f.name) for f in dataclasses.fields(Target)})
        if base.metric.startswith("length_"):
            base = dataclasses.replace(base, column=base.column or declared)
            if base.column not in lengths:
                problems.append(
                    f"{path}: targets[{k}].column: got {base.column!r}; allowed: {', '.join(lengths)} "
                    "(the game's length columns)"
                )
        if base.metric in WORTH_METRICS:
            problems.append(
                f"{path}: targets[{k}].metric: got {base.metric!r}, which `tablesim balance` measures "
                f"by restricted play; allowed here: {', '.join((*EVERY_GAME_METRICS, 'game'))}"
            )
            continue
        if base.metric == "game" and spec.summary is None:
            problems.append(
                f"{path}: targets[{k}].metric: {spec.name} has no game metrics; allowed: "
                f"{', '.join(EVERY_GAME_METRICS)}"
            )
        names = (
            [lineup.name for lineup in settings.lineups]
            if base.lineup == EVERY
            else [base.lineup or (settings.lineups[0].name if settings.lineups else "")]
        )
        for name in names:
            seated = players.get(name)
            if seated is None:
                continue
            if base.metric == "seat_win_rate" and base.seat >= len(seated):
                problems.append(
                    f"{path}: targets[{k}].seat: got {base.seat}; line-up {name!r} has seats 0 to {len(seated) - 1}"
                )
            profiles = list(dict.fromkeys(p.name for p in seated))
            if base.metric == "profile_win_rate" and base.profile not in profiles:
                problems.append(
                    f"{path}: targets[{k}].profile: got {base.profile!r}, not a profile of line-up "
                    f"{name!r}; allowed: {', '.join(profiles)}"
                )
            rules = variants if target.variant == EVERY else [target.variant or BASELINE]
            placed += [(variant, dataclasses.replace(base, lineup=name)) for variant in rules]
    return placed


def stage_sizes(settings: CheckFile, step: int) -> list[int]:
    """The nested sizes of the stages, smallest first, in whole seat rotations (``step`` matches).

    >>> stage_sizes(CheckFile(matches=2000, stages=3), 1)
    [500, 1000, 2000]
    >>> stage_sizes(CheckFile(matches=1000, stages=2), 4)
    [500, 1000]
    """
    whole = [
        -(-math.ceil(settings.matches / 2 ** (settings.stages - 1 - s)) // step) * step for s in range(settings.stages)
    ]
    return sorted(set(whole))


def _rotation_step(check: Check) -> int:
    if not check.settings.rotate_seats or not check.cells:
        return 1
    return math.lcm(*(len(cell.players) for cell in check.cells))


def first_difference(first: dict[str, pd.DataFrame], second: dict[str, pd.DataFrame]) -> dict[str, Any] | None:
    """Where two plays of the same matches differ first (None: identical tables, every value exact).

    Tables are compared in key order (variant, line-up, match, then each row's own order).
    """
    for name in sorted(set(first) | set(second)):
        a, b = (_ordered(tables.get(name, pd.DataFrame())) for tables in (first, second))
        if set(a.columns) != set(b.columns):
            return {
                "table": name,
                "match": None,
                "column": None,
                "first": sorted(map(str, a.columns)),
                "second": sorted(map(str, b.columns)),
            }
        b = b[list(a.columns)]
        if len(a) != len(b):
            return {"table": name, "match": None, "column": None, "first": f"{len(a)} rows", "second": f"{len(b)} rows"}
        for column in a.columns:
            same = _same(a[column], b[column])
            if not same.all():
                row = int(np.argmin(same.to_numpy()))
                match = int(a["match"].iloc[row]) if "match" in a.columns else None
                return {
                    "table": name,
                    "match": match,
                    "column": str(column),
                    "first": _plain(a[column].iloc[row]),
                    "second": _plain(b[column].iloc[row]),
                }
    return None


def _ordered(frame: pd.DataFrame) -> pd.DataFrame:
    keys = [c for c in KEY_COLUMNS if c in frame.columns]
    return frame.sort_values(keys, kind="stable").reset_index(drop=True) if keys and len(frame) else frame


def _same(a: pd.Series, b: pd.Series) -> pd.Series:
    """Row by row: the same value (exactly; missing in both counts as the same, whatever the dtype
    each piece of a chunked run gave the column)."""
    try:
        return ((a == b) | (a.isna() & b.isna())).astype(bool)
    except (TypeError, ValueError):  # values pandas cannot compare at once (lists, arrays)
        return pd.Series([repr(x) == repr(y) for x, y in zip(a, b)], index=a.index)


def _plain(value: Any) -> Any:
    return (
        value.item()
        if isinstance(value, np.generic)
        else value
        if isinstance(value, int | float | str | bool)
        else repr(value)
    )


def check_determinism(check: Check, jobs: int, backend: str) -> dict[str, Any] | None:
    """The first ``determinism`` matches of the first cell played twice with the check's seed."""
    matches = check.settings.determinism
    if not matches or not check.cells:
        return None
    cell, seed = check.cells[0], check.settings.seed
    once = run_cells(
        check.spec, [cell], matches, seed, jobs=1, chunk_size=matches, backend="sequential", progress=False
    )
    twice = run_cells(
        check.spec,
        [cell],
        matches,
        seed,
        jobs=jobs,
        chunk_size=max(1, -(-matches // 4)),
        backend=backend,
        progress=False,
    )
    difference = first_difference(once, twice)
    return {
        "matches": matches,
        "variant": cell.variant,
        "lineup": cell.lineup,
        "seed": seed,
        "identical": difference is None,
        "difference": difference,
    }


def _unknown_metrics(check: Check, tables: dict[str, pd.DataFrame]) -> None:
    """Refuse (one line each) a game metric the game's summary does not compute on the target's cell."""
    known: dict[tuple[str, str], set[str]] = {}
    problems = []
    for variant, target in check.targets:
        if target.metric != "game":
            continue
        cell = (variant, target.lineup)
        if cell not in known:
            rows = {
                name: frame[(frame["variant"] == variant) & (frame["lineup"] == target.lineup)] if len(frame) else frame
                for name, frame in tables.items()
            }
            known[cell] = set(check.spec.summary(rows))
        if target.name not in known[cell]:
            problems.append(
                f"{check.path}: targets: name: unknown game metric {target.name!r} on line-up "
                f"{target.lineup!r}; allowed: {', '.join(sorted(known[cell]))}"
            )
    if problems:
        raise ConfigError(list(dict.fromkeys(problems)))


def _measure(check: Check, tables: dict[str, pd.DataFrame], open_: list[int], level: float) -> dict[int, dict]:
    """Each open target's TOST at ``level`` and its (1 − level/T) interval, by target index."""
    spec, settings = check.spec, check.settings
    parts = game_parts_of(spec)
    count = len(check.targets)
    out: dict[int, dict] = {}
    for variant in dict.fromkeys(check.targets[i][0] for i in open_):
        indices = [i for i in open_ if check.targets[i][0] == variant]
        targets = [check.targets[i][1] for i in indices]
        rows = {name: frame[frame["variant"] == variant] if len(frame) else frame for name, frame in tables.items()}
        tests = check_tables(
            targets, rows, spec.summary, bootstrap=settings.bootstrap, seed=settings.seed, alpha=level, game_parts=parts
        )
        wide = measure_all(targets, rows, spec.summary, settings.bootstrap, settings.seed, 1 - level / count, parts)
        for index, test, outside in zip(indices, tests, wide):
            low, high = test["band"]
            missed = outside["ci_low"] > high or outside["ci_high"] < low
            verdict = "met" if test["met"] else "missed" if missed else "undecided"
            out[index] = {
                **test,
                "verdict": verdict,
                "confidence": 1 - 2 * level,
                "outside_ci": [outside["ci_low"], outside["ci_high"]],
                "outside_confidence": 1 - level / count,
            }
    return out


def run_check(check: Check, *, jobs: int = 1, backend: str = "loky", progress: bool | None = None) -> dict[str, Any]:
    """Play the check stage by stage and decide every target; the summary (see the module docstring)."""
    settings = check.settings
    determinism = check_determinism(check, jobs, backend)
    sizes = stage_sizes(settings, _rotation_step(check))
    ledger = Ledger(None, settings.alpha, len(sizes))
    results: dict[int, dict] = {}  # each target's latest result; a decided one keeps the look that decided it
    parts: dict[str, list[pd.DataFrame]] = {}
    played = 0
    for matches in sizes:
        look, alpha, _ = ledger.alpha_for(0, matches)
        new = run_cells(
            check.spec,
            check.cells,
            matches,
            settings.seed,
            start=played,
            jobs=jobs,
            chunk_size=settings.chunk_size,
            backend=backend,
            progress=progress,
        )
        for name, frame in new.items():
            parts.setdefault(name, []).append(frame)
        tables, played = assemble(parts), matches
        if look == 1:
            _unknown_metrics(check, tables)
        open_ = [i for i in range(len(check.targets)) if results.get(i, {}).get("verdict", "undecided") == "undecided"]
        for index, result in _measure(check, tables, open_, alpha).items():
            results[index] = {**result, "look": look, "matches": matches, "alpha": alpha}
        verdicts = [results[i]["verdict"] for i in range(len(check.targets))]
        ledger.record(
            {
                "look": look,
                "validation_round": 0,
                "matches": matches,
                "alpha": alpha,
                "claimable": True,
                "confidence": 1 - 2 * alpha,
                "decided": sum(results[i]["look"] == look and v != "undecided" for i, v in enumerate(verdicts)),
            }
        )
        if "missed" in verdicts or "undecided" not in verdicts:
            break
    return _summary(check, determinism, ledger, [results[i] for i in range(len(check.targets))], played)


def exit_status(status: str, deterministic: bool = True) -> int:
    """0 every target met, 1 one missed (or the game is not deterministic), 3 undecided.

    >>> exit_status("met"), exit_status("undecided"), exit_status("missed"), exit_status("met", False)
    (0, 3, 1, 1)
    """
    return EXIT[status] if deterministic else EXIT["missed"]


def _summary(check: Check, determinism: dict | None, ledger: Ledger, results: list[dict], played: int) -> dict:
    verdicts = [r["verdict"] for r in results]
    status = "missed" if "missed" in verdicts else "undecided" if "undecided" in verdicts else "met"
    deterministic = determinism is None or determinism["identical"]
    keep = (
        "band",
        "verdict",
        "value",
        "ci_low",
        "ci_high",
        "confidence",
        "outside_ci",
        "outside_confidence",
        "p_tost",
        "n",
        "design_effect",
        "look",
        "matches",
        "alpha",
    )
    targets = [
        {
            "target": check.label(variant, target),
            "metric": target.metric,
            "variant": variant,
            "lineup": target.lineup,
            **{k: r[k] for k in keep if k in r},
        }
        for (variant, target), r in zip(check.targets, results)
    ]
    summary = {
        "game": check.spec.name,
        "title": check.spec.title,
        "file": str(check.path),
        "seed": check.settings.seed,
        "alpha": check.settings.alpha,
        "stages": stage_sizes(check.settings, _rotation_step(check)),
        "looks_planned": ledger.planned,
        "looks": [
            {k: v for k, v in look.items() if k not in ("validation_round", "claimable")} for look in ledger.looks
        ],
        "matches_per_cell": played,
        "cells": [{"variant": c.variant, "lineup": c.lineup} for c in check.cells],
        "matches_played": played * len(check.cells) + 2 * (determinism or {}).get("matches", 0),
        "status": status,
        "deterministic": deterministic,
        "determinism": determinism,
        "exit_status": exit_status(status, deterministic),
        "targets": targets,
    }
    summary["sentence"] = sentence(summary)
    return _clean(summary)


def _clean(value: Any) -> Any:
    """The summary as plain JSON values (numpy scalars as numbers, NaN as None)."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def sentence(summary: dict) -> str:
    """The verdict in one sentence (two when the game is not deterministic)."""
    targets = summary["targets"]
    named = {v: [t["target"] for t in targets if t["verdict"] == v] for v in ("met", "missed", "undecided")}
    if summary["status"] == "met":
        text = (
            f"Every target is met: the intervals of all {len(targets)} lie inside their bands."
            if len(targets) > 1
            else "Every target is met: its interval lies inside its band."
        )
    elif summary["status"] == "missed":
        text = f"The check fails: {join_and(named['missed'])} missed (interval wholly outside the band)"
        text += f"; {join_and(named['undecided'])} not decided when it stopped." if named["undecided"] else "."
    else:
        text = (
            f"Cannot tell with {summary['matches_per_cell']:,} matches per line-up and rules: "
            f"{join_and(named['undecided'])} neither shown met nor shown missed (interval across a band "
            "edge); raise `matches` or widen the band."
        )
    determinism = summary.get("determinism")
    if determinism and not determinism["identical"]:
        text = f"The game is not deterministic: {_difference_text(determinism)}. " + text
    return text


def _difference_text(determinism: dict) -> str:
    d = determinism["difference"]
    where = f"match {d['match']}" if d.get("match") is not None else "its rows"
    what = (
        f", column {d['column']!r}: {d['first']!r} then {d['second']!r}"
        if d.get("column")
        else f": {d['first']} then {d['second']}"
    )
    return f"the same seed gave different {d['table']} tables (first at {where}{what})"


def _determinism_line(summary: dict) -> str:
    d = summary.get("determinism")
    if d is None:
        return "determinism: not checked (determinism = 0)"
    played = f"{d['matches']} matches of {d['variant']} / {d['lineup']} played twice with seed {d['seed']}"
    return f"determinism: {played}: " + ("identical tables" if d["identical"] else f"DIFFERENT: {_difference_text(d)}")


def _interval(target: dict) -> tuple[str, float | None, float | None]:
    """The interval of the test that decided: the band-outside one for a miss, the TOST's else."""
    if target["verdict"] == "missed":
        low, high = target["outside_ci"]
        return f"{100 * target['outside_confidence']:.3g} %", low, high
    return f"{100 * target['confidence']:.3g} %", target.get("ci_low"), target.get("ci_high")


def _looks_line(summary: dict) -> str:
    last = summary["looks"][-1] if summary["looks"] else {"look": 0, "matches": 0, "alpha": 0.0}
    return (
        f"look {last['look']} of {summary['looks_planned']} planned ({last['matches']:,} matches per line-up and "
        f"rules, stages {', '.join(f'{n:,}' for n in summary['stages'])}); each look spends "
        f"α = {human_number(summary['alpha'] / summary['looks_planned'])} of α = {summary['alpha']:g}"
    )


def text_report(summary: dict) -> str:
    """The console report: what was played, one line per target, the sentence, the exit status."""
    width = max(len(t["target"]) for t in summary["targets"]) if summary["targets"] else 10
    cells = len(summary["cells"])
    lines = [
        f"{summary['title']} check of {summary['file']}: {_count(len(summary['targets']), 'target')} on "
        f"{_count(cells, 'line-up and rules cell')}, seed {summary['seed']}",
        _determinism_line(summary),
        _looks_line(summary),
    ]
    for t in summary["targets"]:
        level, low, high = _interval(t)
        lines.append(
            f"  {t['target']:<{width}}  {human_number(t['value']):>7}  {level} CI [{human_number(low)}, "
            f"{human_number(high)}]  band [{human_number(t['band'][0])}, {human_number(t['band'][1])}]  "
            f"{t['verdict'].upper() if t['verdict'] == 'missed' else t['verdict']} "
            f"(look {t['look']}, {t['matches']:,} matches)"
        )
    lines += [summary["sentence"], f"exit status {summary['exit_status']}"]
    return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    """
    >>> _count(1, "target"), _count(3, "target")
    ('1 target', '3 targets')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"


MARK = {"met": "✅", "missed": "❌", "undecided": "❔"}


def markdown_report(summary: dict) -> str:
    """The summary as Markdown, for a CI job's summary page (GitHub's ``$GITHUB_STEP_SUMMARY``)."""
    status = summary["status"] if summary["deterministic"] else "missed"
    head = {"met": "every target met", "missed": "failed", "undecided": "undecided"}[status]
    lines = [
        f"### {MARK[status]} tablesim check: `{summary['file']}` ({summary['title']}): {head}",
        "",
        summary["sentence"],
        "",
        "| target | value | interval | band | verdict | decided at |",
        "|---|---:|---|---|---|---|",
    ]
    for t in summary["targets"]:
        level, low, high = _interval(t)
        lines.append(
            f"| `{t['target']}` | {human_number(t['value'])} | {level} [{human_number(low)}, "
            f"{human_number(high)}] | [{human_number(t['band'][0])}, {human_number(t['band'][1])}] | "
            f"{MARK[t['verdict']]} {t['verdict']} | look {t['look']}, {t['matches']:,} matches |"
        )
    lines += [
        "",
        f"- {_determinism_line(summary).capitalize()}.",
        f"- {_looks_line(summary).capitalize()}.",
        f"- {summary['matches_played']:,} matches played, seed {summary['seed']}; exit status "
        f"{summary['exit_status']}.",
    ]
    if summary.get("command"):
        lines.append(f"- Command: `{summary['command']}`")
    return "\n".join(lines) + "\n"
