"""Gastérospeed's playtest score sheets: ``match,race,player,position`` (1 = first, or ``ko``),
or ``match,race,player,points``; which values the rules can produce (``GameSpec.sheet``, read
by ``tablesim calibrate``).

The ``rounds`` table (``match.py``, ``_run``) has one row per race × player: ``arrival``, the
place of the player's best-placed snail among the ranked snails (1 = first; 0 when none is
ranked), ``ko`` (true when one of its snails is KO or out), and ``points``, its snails' race
points. A sheet's ``position`` is compared with ``arrival`` (:data:`COLUMNS`) and its word
``ko`` with the ``ko`` column. What the rules allow:

* ``position``: ``ko``, or a whole number from 1 to the number of snails in the race less the
  player's other snails (its best snail cannot be last): the players of the match, one snail
  each, or two with ``variants.two_snails`` (``RaceConfig.snails_per_seat``): 1 to ``n``, or
  1 to ``2n - 1``. Positions in a race differ (the sheet reader checks it).
* ``points`` (``scoring.py``, ``points``): each snail scores ``race.points`` by its place
  (beyond the list its last value), a KO or out snail ``race.ko_points``, and with
  ``race.last_gets_ko_points`` the last ranked snail too (when at least two are ranked); a
  player's points are the sum over its snails, any number of which may be KO.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from sim.core.sheet import ScoreSheet

from .rules.schema import GasterospeedRules

__all__ = ["SHEET", "COLUMNS", "WORDS", "check_sheet_value", "last_position", "race_points"]

#: Sheet column → rounds-table column (``GameSpec.sheet.columns``).
COLUMNS = {"position": "arrival"}
#: The words a ``position`` column may hold: boolean columns of the rounds table.
WORDS = ("ko",)


def _snails(rules: GasterospeedRules) -> int:
    return 2 if rules.variants.two_snails else 1


def last_position(rules: GasterospeedRules, n_players: int) -> int:
    """The worst place a player's best snail can have in a race of ``n_players``."""
    per = _snails(rules)
    return n_players * per - per + 1


@lru_cache(maxsize=64)
def _race_points(points: tuple[int, ...], ko: int, last_gets_ko: bool, snails: int, per: int) -> frozenset[int]:
    out: set[int] = set()
    for ranked in range(snails + 1):  # how many snails of the race are ranked (the rest KO or out)

        def place(k: int) -> int:
            return ko if last_gets_ko and ranked >= 2 and k == ranked - 1 else points[min(k, len(points) - 1)]

        for own_ranked in range(min(per, ranked) + 1):
            if per - own_ranked > snails - ranked:  # not enough KO snails for the player's others
                continue
            for places in combinations(range(ranked), own_ranked):
                out.add(sum(place(k) for k in places) + (per - own_ranked) * ko)
    return frozenset(out)


def race_points(rules: GasterospeedRules, n_players: int) -> frozenset[int]:
    """Every number of race points a player can score in one race.

    Examples:
        >>> sorted(race_points(GasterospeedRules(), 2)), sorted(race_points(GasterospeedRules(), 4))
        ([1, 9], [1, 4, 6, 9])
    """
    race = rules.race
    per = _snails(rules)
    return _race_points(tuple(race.points), race.ko_points, race.last_gets_ko_points, n_players * per, per)


def _players_text(rules: GasterospeedRules, n_players: int) -> str:
    if _snails(rules) == 2:
        return f"{n_players} players x 2 snails (variants.two_snails), a player's best"
    return f"{n_players} players, one snail each"


def check_sheet_value(rules: GasterospeedRules, column: str, value: float | str, n_players: int) -> str | None:
    """``GameSpec.sheet.check``: None if the rules can give a player ``value`` in one race.

    Examples:
        >>> rules = GasterospeedRules()
        >>> check_sheet_value(rules, "position", 2, 2) is None, check_sheet_value(rules, "position", "ko", 2) is None
        (True, True)
        >>> print(check_sheet_value(rules, "position", 3, 2))
        got 3; allowed: a whole number from 1 (first) to 2 (2 players, one snail each) or ko
    """
    got = repr(value) if isinstance(value, str) else f"{value:g}"
    if column == "position":
        last = last_position(rules, n_players)
        if value in WORDS or (not isinstance(value, str) and float(value).is_integer() and 1 <= value <= last):
            return None
        return (
            f"got {got}; allowed: a whole number from 1 (first) to {last} ({_players_text(rules, n_players)}) "
            f"or {' or '.join(WORDS)}"
        )
    if column == "points":
        allowed = race_points(rules, n_players)
        if not isinstance(value, str) and float(value).is_integer() and int(value) in allowed:
            return None
        return (
            f"got {got}; allowed: {', '.join(map(str, sorted(allowed)))} (the race points of "
            f"{_players_text(rules, n_players)}: race.points by place, race.ko_points a KO snail{' and the last' if rules.race.last_gets_ko_points else ''})"
        )
    return f"got a {column} column; allowed: position or points (a Gastérospeed sheet is match,race,player,position)"


#: What ``tablesim calibrate`` needs to read the game's score sheets (``GameSpec.sheet``).
SHEET = ScoreSheet(columns=COLUMNS, check=check_sheet_value)
