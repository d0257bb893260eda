"""Pig, the dice game, as a tablesim game made outside the project.

Each round every seat takes one turn: it rolls a die until it holds (its turn total reaches the
profile's threshold) or rolls the bust face, which ends the turn with no points. After a full
round, the best score at or above ``game.target_score`` wins; equal best scores play on.

Everything tablesim needs is here: the rules and profile dataclasses (validated, with units),
their default TOML files, a pure ``play_match``, the optional ``summary``, ``replay`` and
``frames`` hooks, and an ``examples`` folder (its demo experiment is what ``tablesim demo``
plays). The package registers itself with tablesim only through its ``tablesim.games`` entry
point (see pyproject.toml).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from sim.core import GameSpec, MatchLog, MatchSeeds, param, register
from sim.core.hints import Conformance, KeyCase

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Game:
    target_score: int = param(50, min=1, max=10_000, unit="points", doc="score that ends the game after a full round")
    max_rounds: int = param(100, min=1, max=10_000, unit="rounds", doc="a game still running then stops unfinished")


@dataclass(frozen=True)
class Die:
    faces: int = param(6, min=2, max=100, unit="faces", doc="faces of the die, numbered 1..faces")
    bust_face: int = param(1, min=1, max=100, unit="face", doc="rolling it ends the turn with no points")
    bust_loses: Literal["turn", "all"] = "turn"

    def problems(self):
        if self.bust_face > self.faces:
            yield "bust_face", f"got {self.bust_face}; allowed: <= die.faces ({self.faces})"


@dataclass(frozen=True)
class PigRules:
    game: Game = Game()
    die: Die = Die()


@dataclass(frozen=True)
class PigProfile:
    hold_at: float = param(20.0, min=1.0, max=200.0, unit="points", doc="hold once the turn total reaches this")
    hold_sigma: float = param(0.0, min=0.0, max=50.0, unit="points", doc="turn-to-turn spread of that threshold")


def _turn(rules: PigRules, profile: PigProfile, rng: np.random.Generator) -> tuple[int, list[int]]:
    """One turn: (points banked, rolls made)."""
    threshold = profile.hold_at + profile.hold_sigma * rng.standard_normal()
    total, rolls = 0, []
    while total < threshold:
        roll = int(rng.integers(1, rules.die.faces + 1))
        rolls.append(roll)
        if roll == rules.die.bust_face:
            return 0, rolls
        total += roll
    return total, rolls


def play_match(rules: PigRules, players, seeds: MatchSeeds) -> MatchLog:
    """Play one game of Pig (pure: the same rules, players and seeds give the same log)."""
    rngs = [seeds.seat(seat) for seat in range(len(players))]
    scores = [0] * len(players)
    rounds, events = [], []
    finished, round_number = False, 0
    for round_number in range(1, rules.game.max_rounds + 1):
        for seat, player in enumerate(players):
            points, rolls = _turn(rules, player.profile, rngs[seat])
            bust = not points
            if bust and rules.die.bust_loses == "all":
                points = -scores[seat]
            scores[seat] += points
            rounds.append(
                {"round": round_number, "seat": seat, "points": float(points), "cumulative": float(scores[seat])}
            )
            first = len(events)
            events.extend(
                {
                    "index": first + i,
                    "round": round_number,
                    "seat": seat,
                    "roll": roll,
                    "bust": bust and i == len(rolls) - 1,
                }
                for i, roll in enumerate(rolls)
            )
        best = max(scores)
        if best >= rules.game.target_score and scores.count(best) == 1:
            finished = True
            break
    winner = scores.index(max(scores)) if finished else -1
    order = sorted(range(len(players)), key=lambda s: (-scores[s], s))
    rank = {seat: 1 + sum(scores[o] > scores[seat] for o in order) for seat in order}
    players_rows = [
        {"seat": s, "profile": p.name, "team": -1, "score": float(scores[s]), "rank": rank[s], "won": s == winner}
        for s, p in enumerate(players)
    ]
    return MatchLog(
        matches={"winner": winner, "winning_team": -1, "rounds": round_number, "finished": finished},
        players=players_rows,
        rounds=rounds,
        events=events,
    )


def summary(tables) -> dict[str, float]:
    """The game's own metrics: share of turns that bust, rolls per turn."""
    rounds, events = tables["rounds"], tables["events"]
    turns = len(rounds)
    if not turns:
        return {}
    busts = int(events["bust"].sum()) if len(events) else 0
    return {"bust_rate": busts / turns, "rolls_per_turn": len(events) / turns}


#: Seat colours of the animated replay (Okabe–Ito).
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7")


def frames(rules: PigRules, players, seeds: MatchSeeds) -> dict:
    """One game as drawing frames (:class:`sim.core.protocols.Frames`): a lane per seat whose bar
    is the seat's score, one frame per turn; the seat's marker slides to its new score."""
    log = play_match(rules, players, seeds)
    events, _ = log.by_round()
    n = len(players)
    width = 1.15 * max(rules.game.target_score, max(r["score"] for r in log.players), 1)
    h, r = 0.12 * width, 0.02 * width  # a lane's height and a marker's radius, in points
    lane = {seat: (n - 1 - seat) * h for seat in range(n)}  # seat 0 on top
    board = [
        {
            "kind": "rect",
            "x": 0,
            "y": lane[s] + 0.1 * h,
            "w": width,
            "h": 0.8 * h,
            "fill": "#ffffff",
            "stroke": "#cccccc",
        }
        for s in range(n)
    ]
    board += [
        {
            "kind": "text",
            "x": -0.02 * width,
            "y": lane[s] + 0.5 * h,
            "text": f"seat {s} {p.name}",
            "anchor": "end",
            "size": 14,
        }
        for s, p in enumerate(players)
    ]
    target = rules.game.target_score
    board += [
        {"kind": "line", "points": [[target, -0.05 * h], [target, n * h + 0.05 * h]], "stroke": "#333333", "width": 2},
        {"kind": "text", "x": target, "y": n * h + 0.2 * h, "text": f"target {target}", "anchor": "middle", "size": 13},
    ]
    scores = [0.0] * n
    out = []
    for row in log.rounds:
        seat, before = row["seat"], scores[row["seat"]]
        scores[seat] = row["cumulative"]
        rolls = [e["roll"] for e in events.get(row["round"], []) if e["seat"] == seat]
        bust = row["points"] <= 0 and rolls and rolls[-1] == rules.die.bust_face
        shapes = []
        for s in range(n):
            shapes.append(
                {
                    "kind": "rect",
                    "id": f"bar{s}",
                    "x": 0,
                    "y": lane[s] + 0.4 * h,
                    "w": max(scores[s], 0),
                    "h": 0.2 * h,
                    "fill": COLOURS[s % len(COLOURS)],
                }
            )
            shapes.append(
                {
                    "kind": "circle",
                    "id": f"marker{s}",
                    "x": max(scores[s], 0),
                    "y": lane[s] + 0.5 * h,
                    "r": r,
                    "fill": COLOURS[s % len(COLOURS)],
                    "stroke": "#000000",
                    "label": f"{scores[s]:.0f}",
                }
            )
        paths = (
            []
            if before == scores[seat]
            else [
                {
                    "id": f"marker{seat}",
                    "points": [
                        [0.0, max(before, 0), lane[seat] + 0.5 * h],
                        [0.8, max(scores[seat], 0), lane[seat] + 0.5 * h],
                    ],
                    "r": r,
                    "fill": COLOURS[seat % len(COLOURS)],
                }
            ]
        )
        outcome = "bust" if bust else f"holds {row['points']:+.0f}"
        out.append(
            {
                "label": f"round {row['round']} · seat {seat} ({players[seat].name}): {outcome}",
                "scores": list(scores),
                "shapes": shapes,
                "paths": paths,
                "text": "rolls " + ", ".join(map(str, rolls)),
            }
        )
    winner = log.matches["winner"]
    if out:
        out[-1]["text"] += f" — winner: seat {winner}" if winner >= 0 else " — no winner (round cap)"
    return {
        "title": f"Pig to {target}: " + ", ".join(f"seat {s} {p.name}" for s, p in enumerate(players)),
        "board": {
            "extent": [-0.3 * width, -0.2 * h, 1.02 * width, (n + 0.5) * h],
            "background": "#f4f4f4",
            "shapes": board,
        },
        "seats": [{"name": p.name, "colour": COLOURS[s % len(COLOURS)]} for s, p in enumerate(players)],
        "frames": out,
        "final_scores": [float(r["score"]) for r in sorted(log.players, key=lambda r: r["seat"])],
    }


def replay(rules: PigRules, players, seeds: MatchSeeds) -> str:
    """One game told turn by turn."""
    log = play_match(rules, players, seeds)
    events, rounds = log.by_round()
    lines = [f"Pig to {rules.game.target_score}: " + ", ".join(f"seat {s} {p.name}" for s, p in enumerate(players))]
    for number in sorted(rounds):
        for row in rounds[number]:
            rolls = [e["roll"] for e in events.get(number, []) if e["seat"] == row["seat"]]
            lines.append(
                f"round {number:>3} seat {row['seat']}: rolls {rolls} -> {row['points']:+.0f} "
                f"(total {row['cumulative']:.0f})"
            )
    winner = log.matches["winner"]
    lines.append(f"winner: seat {winner}" if winner >= 0 else "no winner (round cap)")
    return "\n".join(lines)


GAME = register(
    GameSpec(
        name="pig",
        title="Pig",
        rules_type=PigRules,
        default_rules=HERE / "rules.toml",
        profile_type=PigProfile,
        profiles=HERE / "profiles.toml",
        play_match=play_match,
        player_counts=(2, 3, 4),
        summary=summary,
        replay=replay,
        demo_players=("standard", "bold"),
        skill_path=("cautious", "standard", "bold"),
        frames=frames,
        examples=HERE / "examples",
        # a round cap only acts when games reach it
        conformance=Conformance(lineup=("standard", "bold"), keys={"game.max_rounds": KeyCase(value=2)}),
    )
)
