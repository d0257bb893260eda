"""Carrom's playtest score sheets (``match,round,player,points``, a round being a board): which
board points the rules can produce (``GameSpec.sheet``, read by ``tablesim calibrate``).

What a board scores (``flow.py``, ``BoardState``; ``match.py`` gives every seat its side's
points, so doubles partners share them):

* 2 and 4 players: only the board winner scores, the loser 0 (``_finish``), and a stuck board
  (``game.max_strokes_per_board``) scores nothing. The winner of a cleared board scores the
  opponents' coins left, 0 to 9 (the coins of a colour in the break formation), plus
  ``scoring.queen_points`` if it covered the queen while its score was below
  ``scoring.queen_bonus_below`` (``_check_board_end``); pocketing the opponents' last coin
  under ``rules.opponent_last_coin_penalty`` (ICF 106) gives the opponents the fouler's coins
  left, plus the queen's points, the same range; pocketing one's own last coin before the
  queen under ``rules.last_coin_before_queen_penalty`` (ICF 107) gives them
  ``scoring.last_coin_penalty`` (``scoring.last_coin_penalty_late`` once they have
  ``scoring.queen_bonus_below`` points). Every board score is at most
  ``scoring.max_board_points``.
* 3 players (each for themselves): a board ends when every coin is down and the queen
  covered; each player scores the coins it pocketed and kept, ``three_players.white_points``
  a white and ``three_players.black_points`` a black, plus ``three_players.queen_points`` for
  the queen it covered (``_check_board_end``); no cap.

The sets are upper bounds of what a board can score: a combination (9 coins left without the
queen's bonus, say) may need a particular game state (a winner already at
``scoring.queen_bonus_below`` points), and is allowed; what no board can score is refused.
"""

from __future__ import annotations

from functools import lru_cache

from sim.core.sheet import ScoreSheet

from .rules.board import BLACK, WHITE, formation
from .rules.schema import CarromRules

__all__ = ["SHEET", "board_points", "check_sheet_value"]


@lru_cache(maxsize=64)
def _coins(rules: CarromRules) -> tuple[int, int]:
    """(whites, blacks) of the break formation."""
    colour = formation(rules)[1]
    return int((colour == WHITE).sum()), int((colour == BLACK).sum())


def _duel_points(rules: CarromRules) -> frozenset[int]:
    s, sw = rules.scoring, rules.switches
    bonuses = (0, s.queen_points) if s.queen_bonus_below > 0 else (0,)
    out = {0} | {left + bonus for left in range(max(_coins(rules)) + 1) for bonus in bonuses}
    if sw.last_coin_before_queen_penalty:
        out |= {s.last_coin_penalty_late} | ({s.last_coin_penalty} if s.queen_bonus_below > 0 else set())
    return frozenset(min(p, s.max_board_points) for p in out)


def _three_points(rules: CarromRules) -> frozenset[int]:
    t = rules.three_players
    whites, blacks = _coins(rules)
    return frozenset(
        w * t.white_points + b * t.black_points + q * t.queen_points
        for w in range(whites + 1)
        for b in range(blacks + 1)
        for q in (0, 1)
    )


def board_points(rules: CarromRules, n_players: int) -> frozenset[int]:
    """Every score a seat's board can have under ``rules`` with ``n_players`` players.

    Examples:
        >>> from dataclasses import replace
        >>> from sim.carrom.rules.schema import CarromRules, ScoringRules
        >>> sorted(board_points(CarromRules(), 2)) == list(range(13))
        True
        >>> sorted(board_points(replace(CarromRules(), scoring=ScoringRules(queen_points=12)), 2))[-4:]
        [7, 8, 9, 12]
        >>> max(board_points(CarromRules(), 3)), 7 in board_points(CarromRules(), 3)
        (160, False)
    """
    return _three_points(rules) if n_players == 3 else _duel_points(rules)


def _spans(values: frozenset[int]) -> str:
    """``0 to 9, 12``; an arithmetic run as ``0 to 160 in steps of 5``."""
    ordered = sorted(values)
    steps = {b - a for a, b in zip(ordered, ordered[1:])}
    if len(steps) == 1 and steps != {1} and len(ordered) > 2:
        return f"{ordered[0]} to {ordered[-1]} in steps of {steps.pop()}"
    runs: list[list[int]] = []
    for v in ordered:
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    parts = [f"{r[0]} to {r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs]
    return ", ".join(parts[:8]) + (", ..." if len(parts) > 8 else "")


def _why(rules: CarromRules, n_players: int) -> str:
    if n_players == 3:
        t = rules.three_players
        return (
            f"the coins one pocketed, {t.white_points} a white and {t.black_points} a black, + "
            f"{t.queen_points} for the queen it covered (three_players.*)"
        )
    s = rules.scoring
    bonus = f" + {s.queen_points} for the queen (scoring.queen_points)," if s.queen_bonus_below > 0 else ""
    penalty = (
        f"; or a last-coin penalty, {s.last_coin_penalty} or {s.last_coin_penalty_late}"
        if rules.switches.last_coin_before_queen_penalty
        else ""
    )
    return (
        f"the board winner's: the loser's coins left, 0 to {max(_coins(rules))},{bonus} at most "
        f"{s.max_board_points} (scoring.max_board_points){penalty}; the loser's 0"
    )


def check_sheet_value(rules: CarromRules, column: str, value: float | str, n_players: int) -> str | None:
    """``GameSpec.sheet.check``: None if a seat's board can score ``value`` points, else why not.

    Examples:
        >>> check_sheet_value(CarromRules(), "points", 12, 2) is None
        True
        >>> print(check_sheet_value(CarromRules(), "points", 13, 2))
        got 13; allowed: 0 to 12 (the board winner's: the loser's coins left, 0 to 9, + 3 for the queen (scoring.queen_points), at most 12 (scoring.max_board_points); the loser's 0)
    """
    if column != "points":
        return (
            f"got a {column} column; allowed: points (a Carrom sheet is match,round,player,points; a round is a board)"
        )
    allowed = board_points(rules, n_players)
    if not isinstance(value, str) and float(value).is_integer() and int(value) in allowed:
        return None
    got = repr(value) if isinstance(value, str) else f"{value:g}"
    return f"got {got}; allowed: {_spans(allowed)} ({_why(rules, n_players)})"


#: What ``tablesim calibrate`` needs to read the game's score sheets (``GameSpec.sheet``).
SHEET = ScoreSheet(check=check_sheet_value)
