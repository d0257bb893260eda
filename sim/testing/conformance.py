"""The conformance checks (OpenSpiel's shared game test, scikit-learn's ``check_estimator``).

Each check takes a :class:`Case` (check, game, player count or key) and raises
``AssertionError`` with what is wrong. :func:`conformance_cases` lists every case of every
registered game — the per-seat checks at every allowed player count (among them the shape of
the ``rounds`` table the analyses read: :func:`rounds_shape_problem`), the key checks for every
rule and profile key — so a test file parametrises over it and a fourth game is checked the
day it is installed. :func:`check_game` runs them all and reports every failure at once.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.config import ConfigError, to_dict, to_toml
from ..core.game import REQUIRED_COLUMNS, TABLES, GameSpec, Player, game_names, get_game
from ..core.hints import AUTO, Conformance, KeyCase
from ..core.profiles import load_lineup, load_profile, preset_names
from ..core.restrict import FORBID_KEY, USED_COLUMNS, check_forbid, forbidden
from ..core.rules import default_rules_text, load_rules
from ..core.runner import Cell, run_cells
from ..core.seeding import MatchSeeds
from ..core.store import ResultStore
from .keys import Key, bad_values, changed_value, rule_keys

__all__ = ["Case", "CHECKS", "conformance_cases", "run_case", "check_game", "rounds_shape_problem"]


@dataclass(frozen=True)
class Case:
    """One check of one game: at a player count (``players``) or for a key (``key``)."""

    check: str
    game: str
    players: int | None = None
    key: str | None = None

    def __str__(self) -> str:
        detail = f"{self.players}p" if self.players else self.key or ""
        return f"{self.game}-{self.check}" + (f"-{detail}" if detail else "")


# --------------------------------------------------------------------------------------------
# Playing a few short matches
# --------------------------------------------------------------------------------------------


def _hints(spec: GameSpec) -> Conformance:
    return spec.conformance or Conformance()


def _lineup_refs(spec: GameSpec, n: int, refs: Sequence[str] | None = None) -> list[str]:
    refs = list(refs or _hints(spec).lineup or spec.demo_players or preset_names(spec)[:1])
    return [refs[i % len(refs)] for i in range(n)]


def _rules(spec: GameSpec, extra: Iterable[Any] = ()) -> Any:
    return load_rules(spec, None, [*_hints(spec).quick, *extra], override_label="conformance")


def _players(spec: GameSpec, rules: Any, n: int, refs: Sequence[str] | None = None) -> tuple[Player, ...]:
    return load_lineup(spec, _lineup_refs(spec, n, refs), rules)


def _play(
    spec: GameSpec, rules: Any, players: Sequence[Player], matches: int, seed: int = 11, **kwargs: Any
) -> dict[str, pd.DataFrame]:
    cell = Cell("baseline", "conformance", rules, tuple(players), rotate_seats=kwargs.pop("rotate", False))
    return run_cells(spec, [cell], matches, seed, progress=False, **kwargs)


def _same(a: dict[str, pd.DataFrame], b: dict[str, pd.DataFrame]) -> bool:
    return all(a[t].equals(b[t]) for t in TABLES)


def _smallest(spec: GameSpec) -> int:
    return min(spec.player_counts)


# --------------------------------------------------------------------------------------------
# Checks per player count
# --------------------------------------------------------------------------------------------


def check_spec(spec: GameSpec, case: Case) -> None:
    """The spec's files load: defaults validate, every preset builds, demo line-up allowed."""
    assert spec.player_counts and all(n >= 1 for n in spec.player_counts), "player_counts must be >= 1"
    rules = load_rules(spec)
    for name in preset_names(spec):
        load_profile(spec, name)
    if spec.demo_players:
        load_lineup(spec, list(spec.demo_players), rules)
    assert spec.name in game_names(), f"{spec.name} is not listed by game_names()"


def check_round_trip(spec: GameSpec, case: Case, tmp: Path) -> None:
    """The commented defaults and the plain TOML of any rules load back to the same rules."""
    defaults = load_rules(spec)
    text = tmp / "defaults.toml"
    text.write_text(default_rules_text(spec), encoding="utf-8")
    assert load_rules(spec, text) == defaults, "the commented default rules do not load to the defaults"
    quick = _rules(spec)
    plain = tmp / "quick.toml"
    plain.write_text(to_toml(quick), encoding="utf-8")
    assert load_rules(spec, plain) == quick, "to_toml(rules) does not load back to the same rules"


def check_schema(spec: GameSpec, case: Case) -> None:
    """The tidy tables have their required columns and consistent keys, seats and winners."""
    n = case.players
    rules = _rules(spec)
    tables = _play(spec, rules, _players(spec, rules, n), _hints(spec).matches)
    for table, columns in REQUIRED_COLUMNS.items():
        missing = set(columns) - set(tables[table].columns)
        assert not missing, f"{table}: missing columns {sorted(missing)}"
    matches, players = tables["matches"], tables["players"]
    assert len(players) == n * len(matches), "players: not one row per match and seat"
    seats = players.groupby("match")["seat"].apply(sorted)
    assert all(list(s) == list(range(n)) for s in seats), "players: seats are not 0..n-1 in every match"
    assert players["rank"].ge(1).all(), "players: rank below 1"
    for _, row in matches.iterrows():
        won = players[(players["match"] == row["match"]) & players["won"]]
        if row["winner"] >= 0:
            assert row["winner"] in set(won["seat"]), f"match {row['match']}: the winner's row has won = False"
        else:
            assert row["winning_team"] >= 0 or won.empty, f"match {row['match']}: no winner but a seat won"
        assert bool(row["finished"]) or row["winner"] < 0, f"match {row['match']}: unfinished with a winner"
    if len(tables["events"]):
        keys = ["variant", "lineup", "match", "index"]
        assert not tables["events"].duplicated(keys).any(), "events: an index appears twice in a match"
    _check_sheet_values(spec, rules, tables["rounds"], n)


#: The value columns of a playtest score sheet (``analysis.calibrate.sheet.VALUE_COLUMNS``).
SHEET_COLUMNS = ("points", "position")


def _check_sheet_values(spec: GameSpec, rules: Any, rounds: pd.DataFrame, n: int) -> None:
    """Every round value the game records passes its own score-sheet check (``GameSpec.sheet``):
    a check that refused what play produces would refuse a designer's true sheet."""
    sheet = spec.sheet
    if sheet is None or sheet.check is None:
        return
    for column in SHEET_COLUMNS:
        source = sheet.source(column)
        if source not in rounds.columns:
            continue
        for _, row in rounds.iterrows():
            value = "ko" if column == "position" and bool(row.get("ko", False)) else float(row[source])
            problem = sheet.check(rules, column, value, n)
            assert problem is None, (
                f"rounds: match {row['match']} round {row['round']} seat {row['seat']} "
                f"recorded {source} = {row[source]!r}, which the sheet check refuses: {problem}"
            )


def rounds_shape_problem(rounds: pd.DataFrame, matches: pd.DataFrame, n: int) -> str | None:
    """What breaks the shape the analyses read the ``rounds`` table in, or None.

    One row per round and seat that played it: ``round`` and ``seat`` whole numbers, seats 0 ..
    n - 1, at most one row per match, round and seat; a match's rounds numbered 1 .. R without
    a gap, R its ``rounds`` in the ``matches`` table; every seat in round 1 (which seats a
    score sheet's players); a round may leave seats out (a race won mid-round, a tie-break
    among some seats) only after every round that has them all. ``tablesim calibrate`` reads a
    playtest score sheet by the same rules (:mod:`analysis.calibrate.sheet`), and compares its
    rows with these rows.
    """
    missing = sorted({"match", "round", "seat"} - set(rounds.columns))
    if missing:
        return f"rounds: missing columns {missing}"
    for column in ("round", "seat"):
        values = pd.to_numeric(rounds[column], errors="coerce")
        bad = values.isna() | (values % 1 != 0) | (rounds[column].dtype == bool)
        if bad.any():
            return f"rounds: {column} holds {rounds[column][bad].iloc[0]!r}; allowed: whole numbers"
    outside = rounds[(rounds["seat"] < 0) | (rounds["seat"] >= n)]
    if len(outside):
        row = outside.iloc[0]
        return f"rounds: match {row['match']} round {row['round']}: seat {row['seat']}; allowed: 0 to {n - 1}"
    keys = [k for k in ("variant", "lineup") if k in rounds.columns and k in matches.columns] + ["match"]
    twice = rounds[rounds.duplicated([*keys, "round", "seat"])]
    if len(twice):
        row = twice.iloc[0]
        return f"rounds: match {row['match']} round {row['round']}: seat {row['seat']} has two rows"
    lengths = (
        {tuple(k): r for k, r in zip(matches[keys].itertuples(index=False), matches["rounds"])}
        if "rounds" in matches.columns
        else {}
    )
    for key, played in rounds.groupby(keys, sort=True):
        problem = _match_rounds_problem(key[-1], played, n, lengths.get(tuple(key)))
        if problem:
            return problem
    return None


def _match_rounds_problem(match: Any, played: pd.DataFrame, n: int, length: Any) -> str | None:
    """One match's rounds: numbered 1 .. R (its ``rounds``), every seat in round 1, seats left
    out only in the rounds after the last that has them all."""
    seats = {int(r): set(map(int, g["seat"])) for r, g in played.groupby("round", sort=True)}
    numbers = sorted(seats)
    if numbers != list(range(1, len(numbers) + 1)):
        gap = next(k for k, r in enumerate(numbers, start=1) if r != k)
        return (
            f"rounds: match {match} has round {numbers[gap - 1]} but no round {gap}; "
            "allowed: rounds 1, 2, ... without a gap"
        )
    if length is not None and int(length) != len(numbers):
        return f"rounds: match {match} has rounds 1 to {len(numbers)}, but its rounds in the matches table is {length}"
    absent = {r: sorted(set(range(n)) - seats[r]) for r in numbers}
    if absent[1]:
        return f"rounds: match {match} round 1 has no row for seat {absent[1][0]}; every seat plays round 1"
    last_full = max(r for r in numbers if not absent[r])
    for r in numbers[: last_full - 1]:
        if absent[r]:
            return (
                f"rounds: match {match} round {r} has no row for seat {absent[r][0]}, but round {last_full} "
                "has every seat; only a match's last rounds may leave out seats that did not play them "
                "(a race won mid-round, a tie-break)"
            )
    return None


def check_rounds_shape(spec: GameSpec, case: Case) -> None:
    """The rounds table has the shape the analyses read it in (:func:`rounds_shape_problem`)."""
    rules = _rules(spec)
    tables = _play(spec, rules, _players(spec, rules, case.players), max(_hints(spec).matches, 4))
    problem = rounds_shape_problem(tables["rounds"], tables["matches"], case.players)
    assert problem is None, problem


def check_determinism(spec: GameSpec, case: Case) -> None:
    """Same seeds, same log; another root seed, another game (pure play_match)."""
    rules = _rules(spec)
    players = _players(spec, rules, case.players)
    matches = _hints(spec).matches
    first, again = _play(spec, rules, players, matches), _play(spec, rules, players, matches)
    assert _same(first, again), "two runs with the same seed differ"
    log = spec.play_match(rules, players, MatchSeeds(11, 0))
    assert log.tables() == spec.play_match(rules, players, MatchSeeds(11, 0)).tables(), "play_match is not pure"
    assert not _same(first, _play(spec, rules, players, matches, seed=12)), "another root seed plays the same games"


def check_workers_and_chunks(spec: GameSpec, case: Case, tmp: Path) -> None:
    """Tables stored by 2 workers in chunks of 1 equal those of 1 worker in one chunk,
    with seats rotated."""
    rules = _rules(spec)
    players = _players(spec, rules, case.players)
    matches = max(_hints(spec).matches, case.players)
    runs = []
    for jobs, chunk in ((1, 100), (2, 1)):
        store = ResultStore(tmp / f"j{jobs}")
        runs.append(_play(spec, rules, players, matches, jobs=jobs, chunk_size=chunk, store=store, rotate=True))
    for table in TABLES:
        pd.testing.assert_frame_equal(runs[0][table], runs[1][table], obj=f"{table} (jobs 1 vs 2)")


# --------------------------------------------------------------------------------------------
# Checks per key
# --------------------------------------------------------------------------------------------


def _rule_keys(spec: GameSpec) -> dict[str, Key]:
    return {key.name: key for key in rule_keys(load_rules(spec))}


def _profile_keys(spec: GameSpec) -> dict[str, Key]:
    return {key.name: key for key in rule_keys(spec.profile_type())}


def _case_value(key: Key, hint: KeyCase) -> Any:
    value = changed_value(key) if hint.value is AUTO else hint.value
    assert value is not None, (
        f"{key.name}: no changed value can be derived from its type; give one in the game's Conformance.keys"
    )
    return value


def _observed(spec: GameSpec, rules: Any, players: Sequence[Player], hint: KeyCase, rule_key: bool) -> Any:
    matches = hint.matches or _hints(spec).matches
    if hint.observe == "replay":
        assert spec.replay is not None, "observe='replay' needs the game's replay hook"
        return [spec.replay(rules, players, MatchSeeds(11, m)) for m in range(matches)]
    fingerprint = _hints(spec).fingerprint
    if hint.observe == "default" and rule_key and fingerprint is not None:
        return fingerprint(rules)
    tables = _play(spec, rules, players, matches)
    return [tables[t] for t in TABLES]


def _differ(before: Any, after: Any) -> bool:
    if isinstance(before, list) and before and isinstance(before[0], pd.DataFrame):
        return not all(a.equals(b) for a, b in zip(before, after))
    return before != after


def check_rule_key_changes_play(spec: GameSpec, case: Case) -> None:
    """Changing this rule key changes the matches played (no silently ignored number)."""
    key, hint = _rule_keys(spec)[case.key], _hints(spec).keys.get(case.key, KeyCase())
    base = _rules(spec, hint.given)
    if hint.inert:
        return
    value = _case_value(key, hint)
    changed = _rules(spec, [*hint.given, *hint.with_value, (case.key, to_dict(value))])
    assert changed != base, f"{case.key} = {value!r} builds the same rules"
    n = _smallest(spec) if hint.players is None else len(hint.players)
    before = _observed(spec, base, _players(spec, base, n, hint.players), hint, True)
    after = _observed(spec, changed, _players(spec, changed, n, hint.players), hint, True)
    assert _differ(before, after), f"{case.key}: {key.default!r} -> {value!r} changes nothing it should"


def _scenario(spec: GameSpec, hint: KeyCase) -> tuple[Any, tuple[Player, ...]]:
    """The rules and line-up of a key's or a choice's scenario: the hint's rule overrides, its
    line-up (or the game's), and its ``profile_given`` keys set in the first seat's profile."""
    rules = _rules(spec, hint.given)
    n = _smallest(spec) if hint.players is None else len(hint.players)
    players = _players(spec, rules, n, hint.players)
    given = players[0].profile
    for name, setting in hint.profile_given:
        given = _with(given, name, setting)
    return rules, (Player(players[0].name, given), *players[1:])


def check_profile_key_changes_play(spec: GameSpec, case: Case) -> None:
    """Changing this profile key (in the first seat's profile) changes the matches played."""
    key, hint = _profile_keys(spec)[case.key], _hints(spec).profile_keys.get(case.key, KeyCase())
    rules, players = _scenario(spec, hint)
    if hint.value is AUTO:
        key = replace(key, default=_leaf(players[0].profile, case.key))
    value = _case_value(key, hint)
    profile = _with(players[0].profile, case.key, value)
    changed = (Player(players[0].name, profile), *players[1:])
    if hint.inert:
        return
    before, after = _observed(spec, rules, players, hint, False), _observed(spec, rules, changed, hint, False)
    assert _differ(before, after), f"profile {case.key}: {key.default!r} -> {value!r} changes nothing"


def _leaf(instance: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        instance = instance[part] if isinstance(instance, dict) else getattr(instance, part)
    return instance


def _with(instance: Any, dotted: str, value: Any) -> Any:
    head, _, rest = dotted.partition(".")
    if not rest:
        return replace(instance, **{head: tuple(value) if isinstance(value, list) else value})
    return replace(instance, **{head: _with(getattr(instance, head), rest, value)})


def _refused(load: Callable[[], Any], key: str, what: str, value: Any) -> None:
    try:
        load()
    except ConfigError as exc:
        lines = exc.problems
        assert len(lines) == 1, f"{key} {what} ({value!r}): {len(lines)} error lines: {lines}"
        assert key.split(".")[-1] in lines[0], f"{key} {what} ({value!r}): the error does not name it: {lines[0]}"
        return
    raise AssertionError(f"{key} {what} ({value!r}) was accepted")


def check_bad_rule_values(spec: GameSpec, case: Case) -> None:
    """Values below the minimum, above the maximum, of the wrong type or length are refused
    with one line naming the key."""
    key = _rule_keys(spec)[case.key]
    for what, value in bad_values(key):
        _refused(lambda: load_rules(spec, None, [(case.key, value)]), case.key, what, value)


def check_bad_profile_values(spec: GameSpec, case: Case, tmp: Path) -> None:
    """The same for a custom profile file built on the first preset."""
    import tomli_w

    key, base = _profile_keys(spec)[case.key], preset_names(spec)[0]
    for index, (what, value) in enumerate(bad_values(key)):
        path = tmp / f"bad{index}.toml"
        data: dict[str, Any] = {"base": base}
        node = data
        *parents, leaf = case.key.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
        path.write_text(tomli_w.dumps(data), encoding="utf-8")
        _refused(lambda: load_profile(spec, str(path)), case.key, what, value)


def _with_forbid(player: Player, names: Sequence[str]) -> Player:
    return Player(player.name, replace(player.profile, **{FORBID_KEY: tuple(names)}))


def check_forbid_key(spec: GameSpec, case: Case) -> None:
    """A game that declares restrictable choices gives every profile the ``forbid`` key
    (default: nothing forbidden), and a line-up forbidding a choice the game does not have is
    refused in one line naming ``forbid`` and the choices allowed."""
    has_key = FORBID_KEY in _profile_keys(spec)
    if spec.restrictions is None:
        assert not has_key, f"the profile has a {FORBID_KEY!r} key but the spec declares no restrictions"
        return
    assert has_key, f"the spec declares restrictions but the profile type has no {FORBID_KEY!r} key"
    rules = _rules(spec)
    names = [c.name for c in spec.restrictions.choices(rules)]
    assert names and len(set(names)) == len(names), f"choice names must be unique and not empty: {names}"
    assert all(n == n.lower() and " " not in n for n in names), f"choice names are lower case, no spaces: {names}"
    players = _players(spec, rules, _smallest(spec))
    assert not any(forbidden(p) for p in players), "a preset forbids a choice; presets play every choice"
    wrong = (_with_forbid(players[0], ["no-such-choice"]), *players[1:])
    try:
        check_forbid(spec.restrictions, rules, wrong, spec.name)
    except ConfigError as exc:
        assert len(exc.problems) == 1 and FORBID_KEY in exc.problems[0] and names[0] in exc.problems[0], exc.problems
    else:
        raise AssertionError("forbid = ['no-such-choice'] was accepted")


def _uses(spec: GameSpec, tables: dict[str, pd.DataFrame], seat: int, choice: str) -> int:
    used = spec.restrictions.used(tables)
    missing = [c for c in USED_COLUMNS if c not in used.columns]
    assert not missing, f"restrictions.used: the table lacks the columns {missing}"
    rows = used[(used["seat"] == seat) & (used["choice"] == choice)]
    return int(rows["uses"].sum())


def check_choice_restricted(spec: GameSpec, case: Case) -> None:
    """Forbidding this choice in the first seat's profile: the unrestricted seat makes it in
    the short matches, the restricted seat never does (the game's own count of choices made),
    and the matches played change."""
    hint = _hints(spec).choices.get(case.key, KeyCase())
    rules, players = _scenario(spec, hint)
    restricted = (_with_forbid(players[0], [case.key]), *players[1:])
    matches = hint.matches or _hints(spec).matches
    before, after = _play(spec, rules, players, matches), _play(spec, rules, restricted, matches)
    made = _uses(spec, before, 0, case.key)
    assert made > 0, (
        f"{case.key}: the first seat never makes it in {matches} short matches, so forbidding it "
        "cannot be seen; give a scenario in the game's Conformance.choices"
    )
    assert _uses(spec, after, 0, case.key) == 0, f"{case.key}: forbidden, yet the first seat made it"
    assert not _same(before, after), f"{case.key}: forbidding it changes nothing"


def _choice_names(spec: GameSpec) -> list[str]:
    if spec.restrictions is None:
        return []
    return [c.name for c in spec.restrictions.choices(_rules(spec))]


# --------------------------------------------------------------------------------------------
# Listing and running cases
# --------------------------------------------------------------------------------------------

#: check name → (function, scope): "game", "players" (every allowed count), "rule", "profile",
#: "choice" (every restrictable choice the game declares under its quick rules).
CHECKS: dict[str, tuple[Callable[..., None], str]] = {
    "spec": (check_spec, "game"),
    "round_trip": (check_round_trip, "game"),
    "schema": (check_schema, "players"),
    "rounds_shape": (check_rounds_shape, "players"),
    "determinism": (check_determinism, "players"),
    "workers": (check_workers_and_chunks, "players"),
    "rule_key": (check_rule_key_changes_play, "rule"),
    "bad_rule_value": (check_bad_rule_values, "rule"),
    "profile_key": (check_profile_key_changes_play, "profile"),
    "bad_profile_value": (check_bad_profile_values, "profile"),
    "forbid_key": (check_forbid_key, "game"),
    "choice_restricted": (check_choice_restricted, "choice"),
}


def conformance_cases(games: Iterable[str] | None = None, checks: Iterable[str] | None = None) -> list[Case]:
    """Every case of every registered game (or of ``games``), for ``checks`` (default all)."""
    cases = []
    for name in games if games is not None else game_names():
        spec = get_game(name)
        for check in checks if checks is not None else CHECKS:
            scope = CHECKS[check][1]
            if scope == "game":
                cases.append(Case(check, name))
            elif scope == "players":
                cases.extend(Case(check, name, players=n) for n in spec.player_counts)
            elif scope == "choice":
                cases.extend(Case(check, name, key=choice) for choice in _choice_names(spec))
            else:
                keys = _rule_keys(spec) if scope == "rule" else _profile_keys(spec)
                if check == "profile_key":  # forbid: checked choice by choice (choice_restricted)
                    keys = {k: v for k, v in keys.items() if k != FORBID_KEY}
                cases.extend(Case(check, name, key=key) for key in keys)
    return cases


def run_case(case: Case, tmp: Path | None = None) -> None:
    """Run one case; ``tmp`` is a scratch directory (a temporary one if not given)."""
    func, _ = CHECKS[case.check]
    spec = get_game(case.game)
    needs_tmp = "tmp" in func.__code__.co_varnames[: func.__code__.co_argcount]
    if not needs_tmp:
        func(spec, case)
        return
    if tmp is not None:
        func(spec, case, Path(tmp))
        return
    with tempfile.TemporaryDirectory() as scratch:
        func(spec, case, Path(scratch))


def check_game(game: str | GameSpec, checks: Iterable[str] | None = None) -> None:
    """Run every conformance case of one game; raise ``AssertionError`` listing each failure."""
    name = game.name if isinstance(game, GameSpec) else game
    failures = []
    for case in conformance_cases([name], checks):
        try:
            run_case(case)
        except (AssertionError, ConfigError) as exc:
            failures.append(f"{case}: {exc}")
    if failures:
        raise AssertionError(f"{name}: {len(failures)} conformance failure(s):\n" + "\n".join(failures))
