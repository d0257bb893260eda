"""A playtest score sheet: the CSV a designer fills in by hand, read and checked.

One row per match × round × player, with a header naming the columns::

    match,round,player,points          (round-scoring games; "race" may stand for "round")
    1,1,Alice,40
    1,1,Bob,100

or ``match,race,player,position`` for a race game (1 = first; a word such as ``ko`` where
the game's rounds table has a boolean column of that name). The value column decides which of
the game's per-round outcomes the sheet is fitted on. Seats are the order of the players'
first rows in each match. Blank lines and lines starting with ``#`` are skipped.

A sheet has the shape of the game's ``rounds`` table (one row per round and seat that played
it; the conformance suite's ``rounds_shape`` check): a match's rounds are numbered 1, 2, ...
without a gap, every player has a row in round 1, and a round may leave out players who did
not play it only at the end of the match, after every round that has them all (a race won
mid-round, a tie-break among some of the players). The fit reads the rows that exist, on the
sheet and in the simulated tables alike.

Every problem is one line naming the file, the row (the line number, the header is row 1)
and the column: an unknown or missing column, a repeated row, a gap in a match's rounds, a
missing row (a player without a row in round 1, or in a round before one that has every
player), a match of a size the game does not take (its
``player_counts`` and ``lineup_problems``), a value the rules cannot produce (the game's own
check, ``GameSpec.sheet.check``, or the generic one: see :func:`value_problem`), a position
repeated in a race. What the game declares about its sheets (:class:`~sim.core.sheet.ScoreSheet`)
is read in one place, :func:`sheet_hooks`.
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from sim.core.config import ConfigError
from sim.core.game import GameSpec
from sim.core.protocols import LineupProblems, SheetCheck
from sim.core.sheet import ScoreSheet

__all__ = [
    "MAX_SHEET_BYTES",
    "ROUND_COLUMNS",
    "VALUE_COLUMNS",
    "Sheet",
    "read_game_sheet",
    "read_sheet",
    "sheet_hooks",
    "value_problem",
]

#: The outcome columns a sheet may have (exactly one of them).
VALUE_COLUMNS = ("points", "position")
#: The names of the round column (a race is a round of a race game).
ROUND_COLUMNS = ("round", "race")
#: A sheet is written by hand: a few hundred kB at most.
MAX_SHEET_BYTES = 64 * 2**20
_TOKEN = re.compile(r"^[a-z][a-z0-9_]*$")

#: ``(rules, column, value, n_players) -> str | None``: the game's own check of one sheet value
#: (None: the rules can produce it; :class:`~sim.core.protocols.SheetCheck`).
ValueCheck = SheetCheck


def sheet_hooks(spec: GameSpec) -> ScoreSheet:
    """What ``spec`` declares about its sheets (``GameSpec.sheet``; none: same-named columns,
    generic checks). The one place calibration reads the hook."""
    return spec.sheet if spec.sheet is not None else ScoreSheet()


@dataclass(frozen=True)
class Sheet:
    """A checked sheet.

    Attributes:
        path: the file it was read from.
        value: the outcome column (``points`` or ``position``).
        round_word: the round column as written (``round`` or ``race``).
        rows: one row per match × round × player who played it: ``match`` (str), ``round`` (int),
            ``player`` (str), ``seat`` (int, from the first rows of the match), ``value``
            (float, or a token such as ``ko``), ``line`` (the row number in the file).
        lineups: match → its players in seat order.
    """

    path: Path
    value: str
    round_word: str
    rows: pd.DataFrame
    lineups: dict[str, tuple[str, ...]]

    @property
    def players(self) -> tuple[str, ...]:
        """Every player, in order of first appearance."""
        return tuple(dict.fromkeys(self.rows["player"]))

    @property
    def tokens(self) -> tuple[str, ...]:
        """The word values of the sheet (``ko``), sorted."""
        return tuple(sorted({v for v in self.rows["value"] if isinstance(v, str)}))

    def rounds_of(self, player: str) -> int:
        return int((self.rows["player"] == player).sum())


def _problem(path: Path, line: int, column: str | None, message: str) -> str:
    where = f"{path}: row {line}" + (f": column {column}" if column else "")
    return f"{where}: {message}"


def _fail(path: Path, line: int, column: str | None, message: str) -> ConfigError:
    return ConfigError([_problem(path, line, column, message)])


#: bad cells reported at once: a sheet with many bad rows names the first ones and counts the rest
MAX_REPORTED = 20


def _raise_all(problems: list[str]) -> None:
    if problems:
        more = len(problems) - MAX_REPORTED
        raise ConfigError(problems[:MAX_REPORTED] + ([f"... and {more} more rows like these"] if more > 0 else []))


def _read_lines(path: Path) -> list[tuple[int, list[str]]]:
    try:
        if path.is_dir():
            raise ConfigError([f"{path}: is a directory, expected a CSV score sheet"])
        if path.stat().st_size > MAX_SHEET_BYTES:
            raise ConfigError([f"{path}: too large for a score sheet (over {MAX_SHEET_BYTES // 2**20} MiB)"])
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError([f"{path}: file not found"]) from None
    except PermissionError:
        raise ConfigError([f"{path}: permission denied"]) from None
    except UnicodeDecodeError:
        raise ConfigError([f"{path}: not a UTF-8 text file"]) from None
    except OSError as exc:
        raise ConfigError([f"{path}: cannot be read ({exc.strerror or exc})"]) from None
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:
            cells = next(csv.reader([raw], skipinitialspace=True))
        except csv.Error as exc:
            raise _fail(path, number, None, f"not a CSV row ({exc})") from None
        out.append((number, [c.strip() for c in cells]))
    if not out:
        raise ConfigError([f"{path}: empty; expected a header such as match,round,player,points"])
    return out


def _columns(path: Path, line: int, header: list[str]) -> tuple[str, str]:
    """(round column, value column) of the header; one line for the first wrong column."""
    names = [h.lower() for h in header]
    allowed = ("match", *ROUND_COLUMNS, "player", *VALUE_COLUMNS)
    for name in names:
        if name not in allowed:
            raise _fail(
                path,
                line,
                name or "(empty)",
                "unknown column; allowed: match, round (or race), player, and points or position",
            )
        if names.count(name) > 1:
            raise _fail(path, line, name, "named twice")
    rounds = [n for n in names if n in ROUND_COLUMNS]
    values = [n for n in names if n in VALUE_COLUMNS]
    for needed, found in (
        ("match", "match" in names),
        ("round", bool(rounds)),
        ("player", "player" in names),
        ("points or position", bool(values)),
    ):
        if not found:
            raise _fail(
                path, line, needed, "missing; the header is match, round (or race), player, points (or position)"
            )
    if len(rounds) > 1 or len(values) > 1:
        two = rounds if len(rounds) > 1 else values
        raise _fail(path, line, two[1], f"give one of {' or '.join(two)}, not both")
    return rounds[0], values[0]


def value_problem(
    column: str, value: float | str, rules: Any = None, n_players: int = 0, check: ValueCheck | None = None
) -> str | None:
    """Why a sheet value cannot be produced, or None.

    The generic check: ``points`` are whole numbers >= 0, ``position`` a whole number >= 1 or a
    word. A game that declares its own ``check(rules, column, value, n_players)``
    (``GameSpec.sheet.check``) decides instead, for numbers and for the words of a ``position``
    column (e.g. Curlastique's points are sums of zone values, a race's only word is ``ko``);
    a word in a ``points`` column is refused before it.

    Examples:
        >>> value_problem("points", 2.5)
        'got 2.5; allowed: a whole number >= 0 (points a round can score)'
        >>> value_problem("points", 95, check=lambda rules, column, value, n: f"got {value:g}; allowed: 100")
        'got 95; allowed: 100'
        >>> value_problem("position", "ko") is None
        True
    """
    if isinstance(value, str) and column != "position":
        return f"got {value!r}; allowed: a number"
    if check is not None:
        return check(rules, column, value, n_players)
    if isinstance(value, str):
        return None
    whole = float(value).is_integer()
    if column == "points" and (value < 0 or not whole):
        return f"got {value:g}; allowed: a whole number >= 0 (points a round can score)"
    if column == "position" and (value < 1 or not whole):
        return f"got {value:g}; allowed: a whole number >= 1 (1 = first) or a word such as ko"
    return None


def _parse_value(path: Path, line: int, column: str, text: str) -> float | str:
    if text.lower() != text.upper() and _TOKEN.match(text.lower()) and text.lower() not in ("nan", "inf", "infinity"):
        return text.lower()
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        allowed = "a number" if column == "points" else "a whole number >= 1 or a word such as ko"
        raise _fail(path, line, column, f"got {text!r}; allowed: {allowed}")
    return number


def _records(path: Path, lines: list[tuple[int, list[str]]], round_col: str, value_col: str) -> pd.DataFrame:
    header = [h.lower() for h in lines[0][1]]
    index = {name: header.index(name) for name in ("match", round_col, "player", value_col)}
    records, problems = [], []
    for line, cells in lines[1:]:
        if len(cells) != len(header):
            problems.append(
                _problem(path, line, None, f"{len(cells)} cells; the header has {len(header)} ({', '.join(header)})")
            )
            continue
        match, round_text, player, value_text = (cells[index[k]] for k in ("match", round_col, "player", value_col))
        bad = [
            _problem(path, line, name, "empty")
            for name, text in (("match", match), ("player", player), (value_col, value_text))
            if not text
        ]
        if not re.fullmatch(r"\d+", round_text) or int(round_text) < 1:
            bad.append(_problem(path, line, round_col, f"got {round_text!r}; allowed: a whole number >= 1"))
        if value_text:
            try:
                value = _parse_value(path, line, value_col, value_text)
            except ConfigError as exc:
                bad += exc.problems
        problems += bad
        if not bad:
            records.append({"match": match, "round": int(round_text), "player": player, "value": value, "line": line})
    _raise_all(problems)
    if not records:
        raise _fail(path, lines[0][0], None, "a header and no rows; expected one row per match, round and player")
    return pd.DataFrame.from_records(records)


def _check_rounds(path: Path, rows: pd.DataFrame, round_col: str) -> dict[str, tuple[str, ...]]:
    """Seats from first rows; at most one row per player and round; each match's rounds
    numbered 1, 2, ... without a gap; every player in round 1; and the rounds that leave a
    player out (a race won mid-round, a tie-break) only after every round that has them all."""
    lineups: dict[str, tuple[str, ...]] = {}
    seen: dict[tuple[str, int, str], int] = {}
    for row in rows.itertuples(index=False):
        lineups.setdefault(row.match, ())
        if row.player not in lineups[row.match]:
            lineups[row.match] += (row.player,)
        key = (row.match, row.round, row.player)
        if key in seen:
            raise _fail(
                path,
                row.line,
                "player",
                f"{row.player} has a second row in match {row.match} {round_col} {row.round} (first: row {seen[key]})",
            )
        seen[key] = row.line
    for match, played in rows.groupby("match", sort=False):
        _check_match_rounds(path, match, played, lineups[match], round_col)
    return lineups


def _check_match_rounds(path: Path, match: str, rows: pd.DataFrame, lineup: tuple[str, ...], round_col: str) -> None:
    """One match's rounds: see :func:`_check_rounds`."""
    groups = {int(number): group for number, group in rows.groupby("round", sort=True)}
    numbers = sorted(groups)
    for expected, number in enumerate(numbers, start=1):
        if number != expected:
            raise _fail(
                path,
                int(groups[number]["line"].iloc[0]),
                round_col,
                f"match {match} has no {round_col} {expected} before {round_col} {number}; "
                f"number a match's {round_col}s 1, 2, ... without a gap",
            )
    missing = {n: [p for p in lineup if p not in set(groups[n]["player"])] for n in numbers}
    if missing[1]:
        raise _fail(
            path,
            int(groups[1]["line"].iloc[0]),
            "player",
            f"match {match} {round_col} 1: no row for {', '.join(missing[1])} (every player of a "
            f"match needs a row in its first {round_col}, which seats the players)",
        )
    full = [n for n in numbers if not missing[n]]
    for number in numbers[: full[-1]]:
        if missing[number]:
            raise _fail(
                path,
                int(groups[number]["line"].iloc[0]),
                "player",
                f"match {match} {round_col} {number}: no row for {', '.join(missing[number])} "
                f"({round_col} {full[-1]} has a row for every player of match {match}: only a "
                f"match's last {round_col}s may leave out players who did not play them: a game won "
                f"mid-{round_col}, a tie-break)",
            )


def _check_values(
    path: Path,
    rows: pd.DataFrame,
    value_col: str,
    round_col: str,
    lineups: dict[str, tuple[str, ...]],
    rules: Any,
    check: ValueCheck | None,
) -> None:
    problems = []
    for row in rows.itertuples(index=False):
        problem = value_problem(value_col, row.value, rules, len(lineups[row.match]), check)
        if problem:
            problems.append(_problem(path, row.line, value_col, problem))
    _raise_all(problems)
    if value_col != "position":
        return
    for (match, number), group in rows.groupby(["match", "round"], sort=False):
        taken: dict[float, int] = {}
        for value, line in zip(group["value"], group["line"]):
            if isinstance(value, str):
                continue
            if value in taken:
                raise _fail(
                    path,
                    int(line),
                    value_col,
                    f"position {value:g} twice in match {match} "
                    f"{round_col} {number} (first: row {taken[value]}); positions in a {round_col} differ",
                )
            taken[value] = int(line)


def _check_sizes(
    path: Path,
    rows: pd.DataFrame,
    lineups: dict[str, tuple[str, ...]],
    rules: Any,
    player_counts: tuple[int, ...] | None,
    lineup_problems: LineupProblems | None,
) -> None:
    """Every match has a size the game takes (and its rules allow: ``lineup_problems``)."""
    for match, players in lineups.items():
        first = int(rows.loc[rows["match"] == match, "line"].iloc[0])
        if player_counts is not None and len(players) not in player_counts:
            raise _fail(
                path,
                first,
                "player",
                f"match {match} has {len(players)} players; the game takes " + ", ".join(str(n) for n in player_counts),
            )
        problems = lineup_problems(rules, len(players)) if lineup_problems is not None and rules is not None else []
        if problems:
            raise _fail(
                path,
                first,
                "player",
                f"match {match} has {len(players)} players: {problems[0].removeprefix('players: ')}",
            )


def read_sheet(
    path: str | Path,
    rules: Any = None,
    check: ValueCheck | None = None,
    player_counts: tuple[int, ...] | None = None,
    lineup_problems: LineupProblems | None = None,
) -> Sheet:
    """Read and check a score sheet; :class:`ConfigError` (one line) on the first problem.

    Args:
        rules: the rules the sheet was played under (passed to ``check`` and ``lineup_problems``).
        check: the game's own value check (see :func:`value_problem`), or None.
        player_counts: the line-up sizes the game allows (a match with another is refused).
        lineup_problems: the game's check of a line-up size against the rules (``GameSpec``).
    """
    path = Path(path)
    lines = _read_lines(path)
    round_col, value_col = _columns(path, *lines[0])
    rows = _records(path, lines, round_col, value_col)
    lineups = _check_rounds(path, rows, round_col)
    _check_sizes(path, rows, lineups, rules, player_counts, lineup_problems)
    _check_values(path, rows, value_col, round_col, lineups, rules, check)
    rows["seat"] = [lineups[m].index(p) for m, p in zip(rows["match"], rows["player"])]
    rows = rows[["match", "round", "player", "seat", "value", "line"]]
    return Sheet(path=path, value=value_col, round_word=round_col, rows=rows, lineups=lineups)


def read_game_sheet(spec: GameSpec, path: str | Path, rules: Any) -> Sheet:
    """:func:`read_sheet` with everything ``spec`` knows: its check of each value
    (``GameSpec.sheet``), its player counts and line-up checks."""
    return read_sheet(path, rules, sheet_hooks(spec).check, tuple(spec.player_counts), spec.lineup_problems)
