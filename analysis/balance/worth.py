"""Worth targets: what a choice is worth, measured by restricted play inside a balance search.

A ``worth`` target bands one choice's worth (``choice = "choc"``) and a ``worth_spread``
target the spread between the most and the least valuable of a set of choices (``choices``,
default every choice the game declares), both on one line-up. For every line-up such a target
names, each trial (and each validation) also plays one restricted line-up per choice: the
player of ``slot`` forbids it, every other seat is unchanged, on the same seeds and seatings
as the line-up itself (common random numbers across the restricted line-ups as across
trials). The restricted line-ups are named ``<line-up> without <choice>``, as ``tablesim
worth`` names them, so the same tables feed :func:`analysis.worth.worth_table`.

Intervals (:func:`measure_worth`): a worth gets the paired score interval clustered by seed
(:func:`analysis.worth.worth_interval`); a spread gets the interval of
:func:`analysis.worth.worth_spread` (every pair of choices' paired difference, Bonferroni over
the pairs) taken at a level that makes each of its two sides hold at ``(1 − confidence)/2``, so
a TOST on it (the spread's upper bound inside the band) is a test at the validation's α.

The search itself ranks trials by the point estimates. A spread's point estimate is biased
upward by noise on few matches (a max − min), which the ``[surface]`` model over
``prefix = "worth."`` averages out across trials.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from sim.core.config import ConfigError
from sim.core.restrict import Choice, choices_named, restricted_player, worth_manifest

__all__ = [
    "WORTH_METRICS",
    "WITHOUT",
    "worth_plans",
    "plan_problems",
    "restricted_cells",
    "lineups_played",
    "lineup_worth_table",
    "measure_worth",
    "worth_metrics",
]

#: The balance metrics measured by restricted play.
WORTH_METRICS = ("worth", "worth_spread")

#: What joins a line-up's name and a choice's in a restricted line-up's name.
WITHOUT = " without "


def worth_plans(targets: Sequence[Any]) -> dict[str, tuple[int, tuple[str, ...] | None]]:
    """Per line-up with a worth target: the restricted slot and the choices to restrict
    (None: every choice the game declares under the point's rules)."""
    plans: dict[str, tuple[int, tuple[str, ...] | None]] = {}
    for target in targets:
        if target.metric not in WORTH_METRICS:
            continue
        names: tuple[str, ...] | None = (
            (target.choice,) if target.metric == "worth" else (tuple(target.choices) or None)
        )
        slot, known = plans.get(target.lineup, (target.slot, ()))
        merged = None if names is None or known is None else tuple(dict.fromkeys((*known, *names)))
        plans[target.lineup] = (slot, merged)
    return plans


def plan_problems(spec, rules, targets: Sequence[Any], lineups: Mapping[str, tuple], where: str) -> list[str]:
    """One line per worth target the game, its rules or the line-up cannot serve."""
    problems = []
    slots: dict[str, int] = {}
    for k, target in enumerate(targets):
        if target.metric not in WORTH_METRICS:
            continue
        label = f"{where}: targets[{k}]"
        if spec.restrictions is None:
            problems.append(
                f"{label}.metric: {spec.name} declares no choices a profile may forbid; "
                "worth targets need restrictable choices"
            )
            continue
        players = lineups.get(target.lineup)
        if players is not None and target.slot >= len(players):
            problems.append(
                f"{label}.slot: got {target.slot}; line-up {target.lineup!r} has slots 0 to {len(players) - 1}"
            )
        if slots.setdefault(target.lineup, target.slot) != target.slot:
            problems.append(
                f"{label}.slot: got {target.slot}; every worth target on line-up {target.lineup!r} "
                f"restricts the same slot ({slots[target.lineup]})"
            )
        names = (target.choice,) if target.metric == "worth" else target.choices
        try:
            choices_named(
                spec.restrictions,
                rules,
                list(names),
                spec.name,
                label=f"{label}.{'choice' if target.metric == 'worth' else 'choices'}",
            )
        except ConfigError as exc:
            problems += exc.problems
    if problems:
        return problems
    for lineup, (slot, names) in worth_plans(targets).items():  # a restriction a profile refuses
        for choice in _choices(spec, rules, names):
            try:
                restricted_player(lineups[lineup][slot], choice)
            except ConfigError as exc:
                problems += [f"{where}: line-up {lineup!r}: {line}" for line in exc.problems]
    return problems


def _choices(spec, rules, names: tuple[str, ...] | None) -> tuple[Choice, ...]:
    """The game's choices under ``rules`` that ``names`` lists (None: all), those the rules
    lack left out (a count searched down to 0 removes a card)."""
    every = spec.restrictions.choices(rules)
    return tuple(every) if names is None else tuple(c for c in every if c.name in set(names))


def restricted_cells(
    spec, targets: Sequence[Any], lineups: Mapping[str, tuple], rules, variant: str, rotate_seats: bool
) -> list:
    """The restricted line-ups' cells of a point: one per line-up with a worth target and per
    choice, the slot's player forbidding that choice."""
    from sim.core.runner import Cell

    cells = []
    for lineup, (slot, names) in worth_plans(targets).items():
        players = lineups[lineup]
        for choice in _choices(spec, rules, names):
            seated = list(players)
            seated[slot] = restricted_player(players[slot], choice)
            cells.append(Cell(variant, f"{lineup}{WITHOUT}{choice.name}", rules, tuple(seated), rotate_seats))
    return cells


def lineups_played(balance) -> int:
    """Line-ups a balance point plays, restricted ones included (under the baseline rules):
    what match counts multiply by."""
    targets = [balance.placed(t) for t in balance.settings.targets]
    rules = balance.baseline_rules()
    return len(balance.lineups) + sum(
        len(_choices(balance.spec, rules, names)) for _, names in worth_plans(targets).values()
    )


def _manifest(target, tables: Mapping[str, pd.DataFrame]) -> dict:
    """A ``worth`` manifest for the target's line-up and every restricted line-up in the tables."""
    lineups = pd.unique(tables["matches"]["lineup"]) if len(tables["matches"]) else []
    prefix = f"{target.lineup}{WITHOUT}"
    played = {str(name): str(name)[len(prefix) :] for name in lineups if str(name).startswith(prefix)}
    choices = {name: Choice(name, "", name) for name in played.values()}
    manifest = worth_manifest(
        target.slot, list(choices.values()), {name: (target.lineup, choices[choice]) for name, choice in played.items()}
    )
    manifest["lineups"][target.lineup] = {"lineup": target.lineup, "choice": None}
    return manifest


def lineup_worth_table(target, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The worth table of the target's line-up: one row per restricted line-up in the tables."""
    from analysis.worth import worth_table

    return worth_table(tables, _manifest(target, tables))


def measure_worth(
    target, tables: Mapping[str, pd.DataFrame], confidence: float, table: pd.DataFrame | None = None
) -> dict[str, Any]:
    """A worth target's value (a proportion of matches won) with its interval at ``confidence``
    (for a spread: each side holds at ``(1 − confidence)/2``, see the module docstring).

    ``table``: the line-up's :func:`analysis.worth.worth_table`, when already computed."""
    from analysis.worth import restricted_wins, worth_interval, worth_spread

    table = lineup_worth_table(target, tables) if table is None else table
    nan = float("nan")
    if target.metric == "worth":
        rows = table[table["choice"] == target.choice]
        if rows.empty:
            return {"value": nan, "n": 0, "ci_low": nan, "ci_high": nan}
        row = rows.iloc[0].to_dict()
        low, high = worth_interval(row, confidence)
        return {"value": float(row["worth"]), "n": int(row["pairs"]), "ci_low": float(low), "ci_high": float(high)}
    if target.choices:
        table = table[table["choice"].isin(target.choices)]
    if table.empty:
        return {"value": nan, "n": 0, "ci_low": nan, "ci_high": nan}
    wins = restricted_wins(tables, _manifest(target, tables), str(table["variant"].iloc[0]), target.lineup)
    spread = worth_spread(table, wins, 1 - (1 - confidence) / 2)
    return {
        "value": spread["spread"],
        "n": int(table["pairs"].min()),
        "ci_low": spread["low"],
        "ci_high": spread["high"],
        "best": spread["best"],
        "worst": spread["worst"],
    }


def worth_metrics(targets: Sequence[Any], tables: Mapping[str, pd.DataFrame]) -> dict[str, dict[str, float]]:
    """Per line-up with a worth target: ``worth.<choice>`` for every restricted line-up played
    (stored with each trial, so a ``[surface]`` with ``prefix = "worth."`` can model them)."""
    out: dict[str, dict[str, float]] = {}
    for lineup in worth_plans(targets):
        probe = next(t for t in targets if t.metric in WORTH_METRICS and t.lineup == lineup)
        table = lineup_worth_table(probe, tables)
        out[lineup] = {f"worth.{row['choice']}": float(row["worth"]) for row in table.to_dict("records")}
    return out
