"""One game of Curlastique told throw by throw, for ``tablesim replay curlastique``.

:func:`replay` plays the match with :func:`~sim.curlastique.match.play_match` (so the story is
exactly the match the runner would store for the same seeds) and :func:`describe` turns its
:class:`~sim.core.MatchLog` into plain text:

* a header: the game, the target score, the zones, the line-up with its profiles by seat;
* per round: who starts, one line per throw (``  turn N  seat S (profile)  family  ...``: the
  executed shot, the pucks it knocked out, where the thrown puck stopped and the zone points
  of that spot), then the round's points and the cumulative score of every seat; decisive
  (tie-break) rounds are marked and their points are not added to the scores;
* the winner and the final scores.

Lengths are in metres, angles in degrees (counterclockwise positive), speeds in m/s. Both
functions are pure: nothing is printed, and the same inputs give the same text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sim.core.game import MatchLog, Player
from sim.core.seeding import MatchSeeds
from sim.core.text import SeatNames, final_scores_block, replay_title
from sim.core.text import join_and as _and
from sim.core.text import plural as _plural

from ..match import Resolver, play_match, sides_of
from ..rules.schema import CurlastiqueRules

__all__ = ["replay", "describe"]


def replay(
    rules: CurlastiqueRules, players: Sequence[Player], seeds: MatchSeeds, resolver: Resolver | None = None
) -> str:
    """The game of ``play_match(rules, players, seeds)`` told throw by throw.

    Args:
        rules: validated rules.
        players: one :class:`~sim.core.Player` per seat, seat 0 first.
        seeds: the match's seeds.
        resolver: where pucks stop after a throw (default: the physics engine, as in
            :func:`~sim.curlastique.match.play_match`).
    """
    log = play_match(rules, players, seeds, resolver)
    return describe(rules, players, log, seeds)


class _Names(SeatNames):
    """Seat labels (``seat 1 (casual)``) and team labels."""

    def __init__(self, players: Sequence[Player], teams: bool):
        super().__init__(players)
        self.teams = teams

    def team(self, t: int, side: Sequence[int]) -> str:
        seats = [s for s in range(len(self.players)) if side[s] == t]
        return f"team {t} (seats {_and([str(s) for s in seats])})"


_LINE_RULES = {
    "lower": "a puck on a line counts the lower zone, over the outer edge 0",
    "higher": "a puck counts the best zone it touches",
    "centre": "a puck counts the zone holding its centre",
}


def _where(e: dict) -> str:
    """Where the thrown puck ended and what that spot scores."""
    x, y = e["final_x"], e["final_y"]
    if not (math.isfinite(e["executed_x"]) and math.isfinite(x)):
        return "no room on the start line: not played, counts as out"
    at = f"({x:+.3f}, {y:.3f}) m"
    if e["out"]:
        return f"out of play (ended at {at}: where it stopped, or left the board if removed at contact)"
    if e["zone"] > 0:
        return f"{e['zone']}-point zone at {at}"
    return f"no zone (0 points) at {at}"


def _knocks(e: dict, teams: bool) -> str:
    k, opp = int(e["knocked_out"]), int(e["opponents_knocked_out"])
    if k == 0:
        return ""
    own = k - opp
    parts = []
    if opp:
        parts.append(f"{opp} of an opponent" if k == 1 or opp == 1 else f"{opp} of opponents")
    if own:
        parts.append(f"{own} of its own team" if teams else f"{own} of its own")
    return f"knocked out {_plural(k, 'puck')} ({', '.join(parts)})"


def _throw(e: dict, names: _Names, family_width: int, teams: bool) -> str:
    family = (e["family"] or "-").ljust(family_width)
    if math.isfinite(e["executed_x"]):
        shot = f"x {e['executed_x']:+.3f} m {e['executed_angle_deg']:+6.2f} deg {e['executed_speed']:.2f} m/s"
    else:
        shot = "no room".ljust(len("x +0.000 m +00.00 deg 0.00 m/s"))
    told = [part for part in (_knocks(e, teams), _where(e)) if part]
    return f"  turn {e['turn']:2d}  {names.padded(e['seat'])}  {family}  {shot}  -> {', '.join(told)}"


def _header(
    rules: CurlastiqueRules, players: Sequence[Player], seeds: MatchSeeds | None, names: _Names, side: list[int]
) -> list[str]:
    """The lines before the first round: the title, the rules that matter, the line-up and the key
    to the throw lines."""
    g, z = rules.game, rules.zones
    teams = bool(g.teams)
    lines: list[str] = [replay_title("Curlastique", seeds)]
    lines.append(
        f"Target: {g.target_score} points; {_plural(g.pucks_per_player, 'puck')} per player "
        f"and round; at most {_plural(g.max_rounds, 'round')}."
    )
    rings = ", ".join(f"{v} within {r:.3f}" for v, r in zip(z.values, z.radii, strict=True))
    lines.append(
        f"Zones: centre at (0, {z.centre_y:.3f}) m; points by ring radius (m): {rings}; "
        f"{_LINE_RULES.get(z.line_rule, 'line rule ' + repr(z.line_rule))}."
    )
    if teams:
        lines.append("Teams: " + " against ".join(names.team(t, side) for t in sorted(set(side))) + ".")
    lines.append("Line-up:")
    for s, p in enumerate(players):
        extra = f", team {side[s]}" if teams else ""
        lines.append(f"  seat {s}: {p.name}{extra}")
    lines.append(
        "Throw lines: shot family, executed shot (start x, angle, speed), then what it "
        "knocked out and where the thrown puck stopped (later throws may still move it)."
    )
    return lines


def describe(rules: CurlastiqueRules, players: Sequence[Player], log: MatchLog, seeds: MatchSeeds | None = None) -> str:
    """The text of a finished match log (see the module docstring)."""
    g = rules.game
    n = len(players)
    teams = bool(g.teams)
    side = [int(s) for s in sides_of(rules, n)]
    names = _Names(players, teams)
    family_width = max([len(e["family"] or "-") for e in log.events] + [8])
    lines = _header(rules, players, seeds, names, side)

    events_by_round, rounds_by_no = log.by_round()

    for no in sorted(set(rounds_by_no) | set(events_by_round)):
        rows = sorted(rounds_by_no.get(no, []), key=lambda r: r["seat"])
        throws = events_by_round.get(no, [])
        decisive = bool(rows[0]["decisive"]) if rows else bool(throws and throws[0]["decisive"])
        seats = [int(r["seat"]) for r in rows] or sorted({int(e["seat"]) for e in throws})
        lines.append("")
        head = f"Round {no}"
        if decisive:
            head += (
                " - DECISIVE (tie-break between "
                + _and([names.seat(s) for s in seats])
                + "; points not added to the scores)"
            )
        if rows:
            head += f": {names.seat(int(rows[0]['starter']))} starts"
        lines.append(head)
        for e in throws:
            lines.append(_throw(e, names, family_width, teams))
        if not rows:
            continue
        lines.append(f"  Round {no} points" + (" (decisive)" if decisive else "") + ":")
        width = max(len(names.seat(int(r["seat"]))) for r in rows)
        for r in rows:
            s = int(r["seat"])
            total = "" if decisive else f"   total {r['cumulative']:4d}"
            lines.append(f"    {names.seat(s).ljust(width)}  {r['points']:4d} points{total}")
        if teams and not decisive:
            for t in sorted(set(side)):
                pts = sum(r["points"] for r in rows if side[int(r["seat"])] == t)
                total = sum(r["cumulative"] for r in rows if side[int(r["seat"])] == t)
                lines.append(f"    {names.team(t, side)}: {pts} points, total {total}")
        if decisive:
            best = max(r["points"] for r in rows)
            top = [int(r["seat"]) for r in rows if r["points"] == best]
            if len(top) == 1:
                for_team = f" for team {side[top[0]]}" if teams else ""
                lines.append(f"  {names.seat(top[0])} wins the tie-break{for_team}.")
            else:
                lines.append(f"  Tied again: {_and([names.seat(s) for s in top])}.")

    lines.append("")
    m = log.matches
    rounds_told = f"{_plural(int(m['rounds']), 'round')}"
    if m.get("decisive_rounds"):
        rounds_told += f" ({m['decisive_rounds']} decisive)"
    score = {int(p["seat"]): int(p["score"]) for p in log.players}
    if m["winner"] >= 0:
        w = int(m["winner"])
        if teams:
            t = side[w]
            team_total = sum(score[s] for s in range(n) if side[s] == t)
            lines.append(
                f"Winner: seat {w} ({players[w].name}) for {names.team(t, side)}, "
                f"{team_total} team points after {rounds_told}."
            )
        else:
            lines.append(f"Winner: seat {w} ({players[w].name}) with {score[w]} points after {rounds_told}.")
    else:
        lines.append(
            f"No winner: the game stopped unfinished after {rounds_told} (cap game.max_rounds = {g.max_rounds})."
        )

    def detail(p) -> str:
        team = f"  team {side[int(p['seat'])]}" if teams else ""
        return f"{p['score']:4d} points{team}"

    lines += final_scores_block(log.players, int(m["winner"]), names.seat, detail)
    if teams:
        for t in sorted(set(side)):
            lines.append(f"  {names.team(t, side)}: {sum(score[s] for s in range(n) if side[s] == t)} points")
    return "\n".join(lines)
