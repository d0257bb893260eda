"""A championship (one match): races on a list of circuits, points, the tables, the replay.

Random streams (``MatchSeeds``): ``setup`` draws the experopods' circuits, ``chance`` every
shuffle, die roll and random discard of every race, ``seat<i>`` the choices of seat ``i``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sim.core.game import MatchLog, Player
from sim.core.seeding import MatchSeeds

from .players import tactician_phases
from .players.policies import make_policy
from .rules.board import FINISHED, KO, OUT, RUNNING
from .rules.cards import Deck, Dice
from .rules.circuit import compile_circuit
from .rules.narration import snail_labels
from .rules.race import Race, RaceConfig
from .rules.view import View

__all__ = ["play_match", "replay", "championship_circuits"]


def championship_circuits(rules, setup: Dice) -> list[str]:
    """The circuit ids raced, in order (experopods: drawn at random from the list)."""
    names = list(rules.championship.circuits)
    if rules.variants.experopods:
        setup.shuffle(names)
        names = names[: rules.championship.experopod_races]
    return names


def _purses(rules, n: int, per: int) -> list[tuple[int, tuple[int, ...]]]:
    """Stable reserve: (seat, its snails) of each reserve. One per seat, or with
    ``reserve_split = "per_snail"`` and two snails, one per snail."""
    if per == 2 and rules.variants.reserve_split == "per_snail":
        return [(seat, (2 * seat + k,)) for seat in range(n) for k in (0, 1)]
    return [(seat, tuple(range(per * seat, per * seat + per))) for seat in range(n)]


def _commitments(rules, circuit, policies, purses, reserve, scores, race_no, races_left, upcoming) -> list[int]:
    """Stable reserve: every reserve's player commits secretly (all on the same public state)."""
    cap = rules.variants.reserve_max_commit
    out = []
    for (seat, snails), left in zip(purses, reserve):
        high = min(cap, left)
        low = min(1, high)
        view = View(
            seat=seat,
            snails=snails,
            board=None,
            hand=(),
            deck=None,
            discard=(),
            draw_sizes=(0, 0),
            hand_sizes=(),
            revealed_speed=(),
            turn=0,
            race_no=race_no,
            races_left=races_left,
            scores=tuple(scores),
            config=None,
            circuit=circuit,
            upcoming=tuple(upcoming),
        )
        value = policies[seat].commit(view, left, low, high) if high > low else high
        out.append(max(low, min(high, int(value))))
    return out


def _reserve_shells(purses, committed: list[int], n_snails: int) -> list[int]:
    """Starting shells of every snail from the reserves' commitments: a reserve of two snails
    splits its commitment evenly, the first snail getting the odd shell."""
    shells = [0] * n_snails
    for (_, snails), c in zip(purses, committed):
        if len(snails) == 1:
            shells[snails[0]] = c
        else:
            shells[snails[0]], shells[snails[1]] = (c + 1) // 2, c // 2
    return shells


def _run(
    rules,
    players: Sequence[Player],
    seeds: MatchSeeds,
    *,
    events: list | None,
    trace: list | None,
    max_races: int | None = None,
    on_turn: Callable[[Race], None] | None = None,
    told: int = 1,
) -> dict[str, Any]:
    """Play the championship (its first ``max_races`` races); ``trace`` tells race ``told`` (1-based)."""
    n = len(players)
    setup = Dice(seeds.rng("setup"))
    chance = Dice(seeds.rng("chance"))
    policies = [make_policy(p.profile, Dice(seeds.seat(i))) for i, p in enumerate(players)]
    deck = Deck(rules.deck)
    config = RaceConfig.from_rules(rules)
    per = config.snails_per_seat
    names = championship_circuits(rules, setup)
    circuits = [compile_circuit(rules.circuits[name], name) for name in names]
    v = rules.variants
    purses = _purses(rules, n, per)
    reserve = [sum(c.reserve_shells for c in circuits)] * len(purses)
    totals = {"points": [0] * n, "shells": [0] * n, "race_wins": [0] * n, "kos": [0] * n}
    points = totals["points"]  # the standings the players see (shared with each race)
    capped_races = 0
    turns_total = 0
    rounds: list[dict[str, Any]] = []
    raced = 0
    for k, (name, circuit) in enumerate(zip(names, circuits)):
        if max_races is not None and k >= max_races:
            break
        races_left = len(names) - k
        if v.experopods:
            pool = list(rules.championship.circuits)  # still to be drawn (public)
            for done in names[:k]:
                pool.remove(done)
            upcoming = [compile_circuit(rules.circuits[p], p) for p in pool]
        else:
            upcoming = circuits[k:]
        committed = [0] * n
        if v.stable_reserve:
            by_purse = _commitments(rules, circuit, policies, purses, reserve, points, k + 1, races_left, upcoming)
            for i, ((seat, _), c) in enumerate(zip(purses, by_purse)):
                reserve[i] -= c
                committed[seat] += c
            shells = _reserve_shells(purses, by_purse, n * per)
        else:
            shells = [rules.race_shells(name)] * (n * per)
        if max_races is not None and told > len(names):
            raise ValueError(f"the championship has {len(names)} races")
        telling = trace if k + 1 == told else None
        if telling is not None:
            trace.append(_header(rules, players, circuit, k + 1, len(names), per))
            if v.stable_reserve:
                trace.append(
                    "Shells committed from the stable reserve: "
                    + ", ".join(f"{snail_labels(n, 1)[s]} {committed[s]}" for s in range(n))
                )
        race = Race(
            circuit,
            deck,
            config,
            policies,
            chance,
            shells=shells,
            race_no=k + 1,
            races_left=races_left,
            scores=points,
            upcoming=upcoming,
            events=events,
            trace=telling,
            on_turn=on_turn if trace is None or telling is not None else None,
            compiled=tactician_phases,
        )
        race.run()
        raced += 1
        turns_total += race.turn
        capped_races += race.capped
        race_points = race.points()
        rounds += _race_rows(race, race_points, circuit, name, k + 1, committed, totals)
        if telling is not None:
            trace.append(_race_result(race, players, race_points))
    return {"n": n, **totals, "races": raced, "capped": capped_races, "turns": turns_total, "rounds": rounds}


def _race_rows(
    race: Race, race_points, circuit, name: str, race_no: int, committed: list[int], totals: dict[str, list[int]]
) -> list[dict[str, Any]]:
    """Each seat's row of the rounds table for a finished race on circuit ``name``; its points,
    shells left, win and KOs added to ``totals`` (per seat, over the championship)."""
    board = race.board
    ranking = race.ranking()
    rows = []
    for seat in range(len(totals["points"])):
        snails = race.snails_of[seat]
        pts = sum(race_points[s] for s in snails)
        shells_left = sum(board.shells[s] if board.status[s] in (RUNNING, FINISHED) else 0 for s in snails)
        arrival = min((ranking.index(s) + 1 for s in snails if s in ranking), default=0)
        snails_ko = sum(board.status[s] in (KO, OUT) for s in snails)
        totals["points"][seat] += pts
        totals["shells"][seat] += shells_left
        totals["race_wins"][seat] += arrival == 1
        totals["kos"][seat] += snails_ko
        slot = board.slot[snails[0]]
        rows.append(
            {
                "round": race_no,
                "seat": seat,
                "points": int(pts),
                "cumulative": int(totals["points"][seat]),
                "circuit": name,
                "arrival": int(arrival),
                "shells_left": int(shells_left),
                "ko": bool(snails_ko > 0),
                "snails_ko": int(snails_ko),
                "start_slot": int(circuit.slots.index(slot) + 1) if slot >= 0 else 0,
                "committed": int(committed[seat]),
                "turns": int(race.turn),
                "capped": bool(race.capped),
                "finished": bool(board.status[snails[0]] == FINISHED),
            }
        )
    return rows


def _winner(rules, result) -> tuple[int, list[float], list[int], bool]:
    n = result["n"]
    score = [float(x) for x in (result["shells"] if rules.variants.shell_championship else result["points"])]
    if rules.championship.tie_break == "race_wins":
        key = [(score[s], result["race_wins"][s]) for s in range(n)]
    else:
        key = [(score[s], 0) for s in range(n)]
    best = max(key)
    top = [s for s in range(n) if key[s] == best]
    rank = [1 + sum(1 for o in range(n) if key[o] > key[s]) for s in range(n)]
    return (top[0] if len(top) == 1 else -1), score, rank, len(top) > 1


def play_match(rules, players: Sequence[Player], seeds: MatchSeeds) -> MatchLog:
    """Play one championship and return its tables (pure: same inputs, same log).

    Tables: ``matches`` (winner, winning_team=-1, rounds = races, finished = no race capped,
    champion, tie, races, turn_capped_races, turns, turns_per_race: the mean turns of its
    races), ``players`` (score = championship points,
    or shells with ``variants.shell_championship``; rank, won, points, race_wins, shells_left,
    kos), ``rounds`` (one row per race × seat), ``events`` (one row per card played,
    reaction, discard or forced drop).
    """
    events: list[dict[str, Any]] = []
    result = _run(rules, players, seeds, events=events, trace=None)
    winner, score, rank, tie = _winner(rules, result)
    n = result["n"]
    player_rows = [
        {
            "seat": s,
            "profile": players[s].name,
            "team": -1,
            "score": score[s],
            "rank": int(rank[s]),
            "won": bool(s == winner),
            "points": int(result["points"][s]),
            "race_wins": int(result["race_wins"][s]),
            "shells_left": int(result["shells"][s]),
            "kos": int(result["kos"][s]),
        }
        for s in range(n)
    ]
    matches = {
        "winner": int(winner),
        "winning_team": -1,
        "rounds": int(result["races"]),
        "finished": bool(result["capped"] == 0),
        "champion": players[winner].name if winner >= 0 else "",
        "tie": bool(tie),
        "races": int(result["races"]),
        "turn_capped_races": int(result["capped"]),
        "turns": int(result["turns"]),
        "turns_per_race": float(result["turns"] / result["races"]) if result["races"] else 0.0,
    }
    return MatchLog(matches=matches, players=player_rows, rounds=result["rounds"], events=events)


# ----------------------------------------------------------------------------------------------
# Replay
# ----------------------------------------------------------------------------------------------


def _header(rules, players, circuit, race_no, races, per) -> str:
    labels = snail_labels(len(players), per)
    who = ", ".join(
        f"{labels[s * per]}{'/' + labels[s * per + 1] if per == 2 else ''} = seat {s} ({p.name})"
        for s, p in enumerate(players)
    )
    hits = "/".join(str(f) for f in sorted(circuit.shot_hits))
    lines = [
        f"Race {race_no} of {races}: {circuit.title} ({circuit.width} x {circuit.height} squares, "
        f"{circuit.start_distance} steps from the start line; shots hit on {hits} of a D{circuit.die})",
        f"Snails: {who}",
        "Legend: . track  S start slot  F finish  = behind the start  # rail  o obstacle  ~ mud  "
        "^>v< arrows  x KO snail",
    ]
    return "\n".join(lines)


def _race_result(race: Race, players, race_points) -> str:
    board = race.board
    lines = ["", f"Race over after {race.turn} turns" + (" (turn cap)" if race.capped else "") + "."]
    order = race.ranking()
    for k, s in enumerate(order):
        lines.append(
            f"  {k + 1}. {race.labels[s]} ({players[board.owner[s]].name}): {race_points[s]} points, "
            f"{board.shells[s]} shells left" + ("" if board.status[s] == FINISHED else " (still running)")
        )
    for s in range(board.n):
        if board.status[s] in (KO, OUT):
            lines.append(f"  KO {race.labels[s]} ({players[board.owner[s]].name}): {race_points[s]} point")
    return "\n".join(lines)


#: Turns with a lone snail left shorter than this are told in full.
FOLD_AT = 3


def replay(rules, players: Sequence[Player], seeds: MatchSeeds, part: int = 1, fold: bool = True) -> str:
    """Race ``part`` (1-based) of the match told turn by turn, with the map after every turn.

    The race is exactly race ``part`` of ``play_match(rules, players, seeds)`` (the races
    before it are played untold). With ``fold``, a run of turns in which a single snail is
    still running becomes one line (the last of them is told in full).

    Raises:
        ValueError: ``part`` is not a race of the championship.
    """
    if part < 1:
        raise ValueError("races are numbered from 1")
    trace: list[str] = []
    marks: list[tuple[int, int, int]] = []  # (turn, snails running after it, trace length after it)

    def mark(race: Race) -> None:
        marks.append((race.turn, sum(race.board.status[s] == RUNNING for s in range(race.board.n)), len(trace)))

    _run(rules, players, seeds, events=None, trace=trace, max_races=part, on_turn=mark, told=part)
    return "\n".join(_folded(trace, marks) if fold else trace)


def _folded(trace: list[str], marks: list[tuple[int, int, int]]) -> list[str]:
    """The trace with each run of lone-snail turns but its last told in one line."""
    lone = [i for i in range(1, len(marks)) if marks[i - 1][1] == 1]  # turns that began with one snail running
    runs: list[list[int]] = []
    for i in lone:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    out, cursor = [], 0
    for run in runs:
        folded = run[:-1]  # the last lone turn (the finish, or the cap) is told in full
        if len(folded) < FOLD_AT:
            continue
        first, last = folded[0], folded[-1]
        out += trace[cursor : marks[first - 1][2]]
        out.append(
            f"\n=== Turns {marks[first][0]}-{marks[last][0]}: one snail left running; its "
            f"{len(folded)} turns are folded (--all-turns tells them) ==="
        )
        out += trace[marks[last][2] - len(_map_rows(trace, marks[last][2])) : marks[last][2]]
        cursor = marks[last][2]
    return out + trace[cursor:]


def _map_rows(trace: list[str], end: int) -> list[str]:
    """The map printed just before ``end`` in the trace (its rows start with two spaces and '#')."""
    rows = []
    for line in reversed(trace[:end]):
        if not line.startswith("  #"):
            break
        rows.append(line)
    return rows[::-1]
