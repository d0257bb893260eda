"""One carrom match told stroke by stroke, for ``tablesim replay carrom``.

:func:`replay` plays the match with :func:`~sim.carrom.match.play_match` (so the story is
exactly the match the runner would store for the same seeds) and :func:`describe` turns its
:class:`~sim.core.MatchLog` into plain text:

* a header: the rule set, the target, the line-up by seat (sides, teams in doubles);
* per board (a ``round`` of the tables): who breaks and who plays which colour, one line per
  stroke (``  stroke N  seat S (profile)  kind  at pocket  -> ...``: the coins pocketed and in
  which pockets, the queen, fouls and dues, coins put back, whether the seat plays again),
  then how the board ended, its points and the game score;
* the end of every game, then the match winner and the final scores.

Pockets are named from the shooter's seat (``near left`` ... ``far right``); the executed
stroke is not repeated (see the events table). Both functions are pure: nothing is printed,
and the same inputs give the same text.
"""

from __future__ import annotations

from collections.abc import Sequence

from sim.core.game import MatchLog, Player
from sim.core.seeding import MatchSeeds
from sim.core.text import SeatNames, final_scores_block, replay_title
from sim.core.text import join_and as _and
from sim.core.text import plural as _plural

from ..match import Resolver, play_match
from ..rules.board import COLOUR_NAMES, POCKET_NAMES
from ..rules.flow import sides_for
from ..rules.schema import CarromRules

__all__ = ["replay", "describe"]

_FOULS = {
    "striker": "FOUL: striker pocketed",
    "queen_early": "FOUL: queen pocketed before it was allowed",
    "last_coin": "FOUL: own last coin pocketed before the queen was covered",
    "opponent_last_coin": "FOUL: the opponents' last coin pocketed",
    "break_miss": "break try touched no coin",
}
_QUEEN = {
    "pocketed": "queen pocketed, to be covered",
    "covered": "queen covered",
    "pocketed+covered": "queen pocketed and covered",
    "returned": "queen back to the centre",
}


def replay(rules: CarromRules, players: Sequence[Player], seeds: MatchSeeds, resolver: Resolver | None = None) -> str:
    """The match of ``play_match(rules, players, seeds)`` told stroke by stroke.

    Args:
        rules: validated rules.
        players: one :class:`~sim.core.Player` per seat (2, 3 or 4), in turn order.
        seeds: the match's seeds.
        resolver: how a stroke plays out (default: the physics engine, as in
            :func:`~sim.carrom.match.play_match`).
    """
    log = play_match(rules, players, seeds, resolver)
    return describe(rules, players, log, seeds)


def _pocket(name: str) -> str:
    return name.replace("_", " ")


class _Names(SeatNames):
    """Labels of seats (``seat 1 (casual)``) and sides (a seat, or a team in doubles)."""

    def __init__(self, players: Sequence[Player]):
        super().__init__(players)
        self.n = len(players)
        self.side_of = sides_for(self.n)
        self.n_sides = 3 if self.n == 3 else 2

    def side(self, side: int) -> str:
        if self.n != 4:
            return self.plain[side]
        seats = [s for s in range(self.n) if self.side_of[s] == side]
        return f"team {side} (seats {_and([str(s) for s in seats])})"

    def scores(self, scores: Sequence[int]) -> str:
        return ", ".join(f"{self.side(side)} {scores[side]}" for side in range(self.n_sides))


def _pocketed(e: dict) -> str:
    """``2 white (far right, far left), queen (near left)`` or ``nothing pocketed``."""
    parts = []
    for colour in COLOUR_NAMES:
        total = int(e[{"white": "whites", "black": "blacks", "queen": "queen"}[colour]])
        if total == 0:
            continue
        where = [_pocket(p) for p in POCKET_NAMES for _ in range(int(e.get(f"{colour}_{p}", 0)))]
        label = "queen" if colour == "queen" else f"{total} {colour}"
        parts.append(label + (f" ({', '.join(where)})" if where else ""))
    return "pocketed " + ", ".join(parts) if parts else "nothing pocketed"


def _stroke(e: dict, names: _Names, kind_width: int, owed: bool) -> str:
    told = []
    if e["foul"] == "break_miss":
        told.append(_FOULS["break_miss"])
    else:
        told.append(_pocketed(e))
    if e["striker_pocketed"] and e["foul"] != "striker":
        told.append("striker pocketed")
    if e["foul"] and e["foul"] != "break_miss":
        told.append(_FOULS.get(e["foul"], f"FOUL: {e['foul']}"))
    if e["queen_event"]:
        told.append(_QUEEN.get(e["queen_event"], f"queen {e['queen_event']}"))
    paid = int(e["due_coins"])
    if e["dues"]:
        how = f"paid with {_plural(paid, 'coin')} put back" if paid else "owed" if owed else "nothing to pay it with"
        told.append(f"{_plural(int(e['dues']), 'due')}, {how}")
    elif paid:
        told.append(f"{_plural(paid, 'coin')} put back to pay an owed due")
    back = int(e["returned"]) - int(e["queen_event"] == "returned") - int(e["due_coins"])
    if back > 0 and e["foul"] == "striker":
        told.append(f"{_plural(back, 'pocketed coin')} back")
    elif back > 0:
        told.append(f"{_plural(back, 'last coin')} back to the centre (queen not covered yet)")
    if e["board_over"]:
        told.append("board over")
    elif e["continues"]:
        told.append("plays again")
    else:
        told.append("turn passes")
    aim = f"at {_pocket(e['aimed_pocket'])}" if e["aimed_pocket"] else ""
    kind = (e["kind"] or "-").ljust(kind_width)
    return (
        f"  stroke {e['board_stroke']:3d}  {names.padded(e['seat'])}  {kind}  {aim:<13s} -> "
        f"{'; '.join(told)}  [{e['coins_on_board']} on board]"
    )


def _board_end(rows: list[dict], names: _Names, rules: CarromRules, three: bool) -> list[str]:
    """How a board ended and what it scored (``rows``: its rounds rows, one per seat)."""
    first = rows[0]
    by_side = {int(r["side"]): r for r in rows}
    strokes = _plural(int(first["strokes"]), "stroke")
    end, win = first["end"], int(first["board_winner"])
    win_side = names.side_of[win] if win >= 0 else -1
    queen = (
        f"queen covered by {names.seat(int(first['queen_covered_by']))}"
        if first["queen_covered_by"] >= 0
        else "queen not covered"
    )
    lines = []
    if end == "stuck":
        lines.append(
            f"  Board over after {strokes}: stuck (cap game.max_strokes_per_board = "
            f"{rules.game.max_strokes_per_board}); nobody scores; {queen}."
        )
        return lines
    if three:
        pts = ", ".join(f"{names.side(s)} {by_side[s]['points']}" for s in sorted(by_side))
        who = f"{names.side(win_side)} wins the board" if win_side >= 0 else "no board winner (tie)"
        lines.append(f"  Board over after {strokes}: board cleared, {who}; {queen}.")
        lines.append(f"  Board points: {pts}.")
        return lines
    lose_side = 1 - win_side
    left = int(by_side[lose_side]["coins_left"])
    colour = by_side[lose_side]["colour"]
    how = {
        "cleared": f"{names.side(win_side)} cleared its coins",
        "last_coin": f"{names.side(lose_side)} pocketed its last coin before the queen was covered",
        "opponent_last_coin": f"{names.side(lose_side)} pocketed the opponents' last coin",
    }.get(end, f"ended ({end})")
    lines.append(f"  Board over after {strokes}: {how}; {queen}.")
    lines.append(
        f"  {names.side(win_side)} wins the board: {_plural(int(by_side[win_side]['points']), 'point')} "
        f"({left} {colour} {'coin' if left == 1 else 'coins'} left)."
    )
    return lines


def describe(rules: CarromRules, players: Sequence[Player], log: MatchLog, seeds: MatchSeeds | None = None) -> str:
    """The text of a finished match log (see the module docstring)."""
    g, sw = rules.game, rules.switches
    names = _Names(players)
    n = names.n
    three = n == 3
    target = rules.three_players.target_points if three else g.target_points
    kind_width = max([len(e["kind"] or "-") for e in log.events] + [5])

    lines: list[str] = [replay_title("Carrom", seeds)]
    mode = {2: "singles", 3: "three players, each for themselves", 4: "doubles"}[n]
    extra = (
        f", then the leader wins (up to {_plural(g.max_extra_boards, 'extra board')} on a tie)"
        if sw.extra_board_on_tie
        else ", then the leader wins (a tie is a draw)"
    )
    who = "team" if n == 4 else "player"
    lines.append(
        f"Rules: {rules.ruleset} ({mode}); a game is won by the first {who} to {target} points "
        f"after a board, or after {_plural(g.max_boards, 'board')}{extra}."
    )
    if g.best_of > 1:
        lines.append(f"Match: best of {g.best_of} games (drawn games replayed, at most {g.max_games} games).")
    if three:
        t = rules.three_players
        lines.append(
            f"Coins score to who pockets them: white {t.white_points}, black {t.black_points}, "
            f"queen {t.queen_points} once covered."
        )
    else:
        lines.append(
            f"The board winner scores the opponents' coins left, +{rules.scoring.queen_points} "
            f"for a queen it covered (below {rules.scoring.queen_bonus_below} points), "
            f"at most {rules.scoring.max_board_points} a board."
        )
    lines.append("Line-up:")
    for s, p in enumerate(players):
        team = f", team {names.side_of[s]} (partner: seat {(s + 2) % 4})" if n == 4 else ""
        lines.append(f"  seat {s}: {p.name}{team}")
    lines.append(
        "Stroke lines: shot kind and aimed pocket, then what fell and where "
        "(pockets named from the shooter's seat) and what the rules made of it."
    )

    events_by_board, rows_by_board = log.by_round()
    boards = sorted(set(rows_by_board) | set(events_by_board))
    game_of = {b: int((rows_by_board.get(b) or events_by_board[b])[0]["game"]) for b in boards}

    board_in_game = 0
    for k, b in enumerate(boards):
        rows = sorted(rows_by_board.get(b, []), key=lambda r: r["seat"])
        game = game_of[b]
        board_in_game = 1 if k == 0 or game_of[boards[k - 1]] != game else board_in_game + 1
        lines.append("")
        where = f"game {game}, board {board_in_game}" if g.best_of > 1 or game > 1 else f"board {board_in_game}"
        head = f"Board {b}"
        if where != f"board {b}":
            head += f" ({where})"
        if board_in_game > g.max_boards:
            head += " - extra board (tie)"
        if rows:
            head += f": {names.seat(int(rows[0]['breaker']))} breaks"
            if not three:
                colours = {int(r["side"]): r["colour"] for r in rows}
                head += "; " + ", ".join(
                    f"{colours[s]}: {names.side(s)}" for s in sorted(colours, key=lambda s: colours[s] != "white")
                )
        lines.append(head)
        for e in events_by_board.get(b, []):
            lines.append(_stroke(e, names, kind_width, sw.due_outstanding))
        if not rows:
            continue
        lines.extend(_board_end(rows, names, rules, three))
        scores = [0] * names.n_sides
        for r in rows:
            scores[int(r["side"])] = int(r["cumulative"])
        lines.append(f"  Game {game} score: {names.scores(scores)}.")
        last_of_game = k == len(boards) - 1 or game_of[boards[k + 1]] != game
        if last_of_game:
            best = max(scores)
            leaders = [s for s in range(names.n_sides) if scores[s] == best]
            told = "-".join(str(x) for x in scores)
            lines.append("")
            if len(leaders) == 1:
                lines.append(
                    f"Game {game} over after {_plural(board_in_game, 'board')}: {names.side(leaders[0])} wins, {told}."
                )
            else:
                lines.append(f"Game {game} over after {_plural(board_in_game, 'board')}: drawn, {told}.")

    lines.append("")
    lines.extend(_match_end(log, names))
    return "\n".join(lines)


def _match_end(log: MatchLog, names: _Names) -> list[str]:
    """The winner and the final scores of a match."""
    lines: list[str] = []
    n = names.n
    m = log.matches
    by_seat = {int(p["seat"]): p for p in log.players}
    if m["winner"] >= 0:
        w = int(m["winner"])
        side = names.side_of[w]
        games = f"{_plural(int(by_seat[w]['games_won']), 'game')} won, " if m["games"] > 1 else ""
        for_team = f" for {names.side(side)}" if n == 4 else ""
        lines.append(
            f"Winner: {names.seat(w)}{for_team}: {games}{by_seat[w]['score']} points "
            f"after {_plural(int(m['rounds']), 'board')}."
        )
    else:
        unfinished = "" if m["finished"] else " (unfinished: a cap stopped it)"
        lines.append(f"No winner: the match is a draw after {_plural(int(m['rounds']), 'board')}{unfinished}.")

    def detail(p) -> str:
        team = f"  team {names.side_of[int(p['seat'])]}" if n == 4 else ""
        return (
            f"{p['score']:3d} points{team}  games won {p['games_won']}, {p['coins_pocketed']} coins pocketed, "
            f"{_plural(int(p['fouls']), 'foul')}"
        )

    lines += final_scores_block(
        log.players, int(m["winner"]), names.seat, detail, "Final scores (points over the match's games):"
    )
    return lines
