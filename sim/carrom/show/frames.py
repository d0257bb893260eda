"""One Carrom match as drawing frames, for ``tablesim replay DIR --match N --html FILE``.

:func:`frames` plays the match with :func:`~sim.carrom.match.play_match` through a
:class:`_Recorder`: the physics resolver of the match (:func:`~sim.carrom.match.physics_resolver`,
the same engine call) with ``record_paths=True``, which changes no result, so the log and the
final scores are the ones ``play_match`` stores for the same seeds
(``tests/carrom/show/test_frames.py`` checks it). One frame per stroke: the coins and the striker
that moved, as the engine's trajectories (at most :data:`MAX_VERTICES` vertices each), then the
coins on the board when the next stroke starts (after the rules returned a due coin or the
queen), every seat's score (points of the game in play, updated at the end of each board; the
last frame shows the match's final scores). The board: frame, pockets, centre circle and the
four baulk lines. Lengths in m (board centre at the origin, y up), times in s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from sim.core.game import Player
from sim.core.seeding import MatchSeeds
from sim.dexterity.paths import MAX_VERTICES, subsampled_path

from ..match import play_match
from ..rules.board import BLACK, N_COINS, QUEEN, STRIKER, WHITE, geometry, physics_stroke, side_quarter
from ..rules.flow import BoardState
from ..rules.schema import CarromRules

__all__ = ["frames", "board_shapes", "MAX_VERTICES", "SEAT_COLOURS"]

#: Seat colours in the score line (a seat's coins are white or black, as on the board).
SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
_COIN_FILL = {WHITE: "#f7f3e8", BLACK: "#222222", QUEEN: "#c0143c"}
_STRIKER_FILL = "#4a90d9"


class _Recorder:
    """The match's physics resolver, keeping per stroke the board before it and the discs' paths."""

    def __init__(self):
        self.strokes: list[dict] = []

    def __call__(self, state: BoardState, seat: int, x: float, angle_deg: float, speed: float):
        geo = state.geo
        start = geo.to_board(state.n_seats, seat, (x, geo.striker_y))
        angle_board = angle_deg + 90.0 * side_quarter(state.n_seats, seat)
        before = (state.pos.copy(), state.on.copy(), state.colour.copy())
        outcome = physics_stroke(state.rules, state.pos, state.on, start, angle_board, speed, record_paths=True)
        self.strokes.append({"state": state, "before": before, "outcome": outcome})
        return outcome


def board_shapes(rules: CarromRules) -> list[dict]:
    """The board as shapes: playing surface, pockets, centre circle and the four baulk lines."""
    geo = geometry(rules)
    h = geo.half
    shapes: list[dict] = [
        {"kind": "rect", "x": -h - 0.04, "y": -h - 0.04, "w": 2 * h + 0.08, "h": 2 * h + 0.08, "fill": "#6b3d1e"},
        {"kind": "rect", "x": -h, "y": -h, "w": 2 * h, "h": 2 * h, "fill": "#f1dfb5", "stroke": "#5b3a1a"},
    ]
    shapes += [
        {"kind": "circle", "x": float(px), "y": float(py), "r": float(geo.capture), "fill": "#111111"}
        for px, py in geo.pocket_xy
    ]
    shapes.append({"kind": "circle", "x": 0.0, "y": 0.0, "r": 0.16, "stroke": "#8a5a2b"})
    low, high = float(geo.legal[0][0]), float(geo.legal[-1][1])
    y = abs(float(geo.striker_y))
    for sign in (1, -1):
        shapes.append({"kind": "line", "points": [[low, sign * y], [high, sign * y]], "stroke": "#8a5a2b", "width": 1})
        shapes.append({"kind": "line", "points": [[sign * y, low], [sign * y, high]], "stroke": "#8a5a2b", "width": 1})
    return shapes


def _discs_at_rest(pos: np.ndarray, on: np.ndarray, colour: np.ndarray, r: float) -> list[dict]:
    """The coins on the board, one circle each (a stable id per coin, so the page moves it)."""
    return [
        {
            "kind": "circle",
            "id": f"coin{i}",
            "x": round(float(pos[i, 0]), 5),
            "y": round(float(pos[i, 1]), 5),
            "r": r,
            "fill": _COIN_FILL[int(colour[i])],
            "stroke": "#000000",
        }
        for i in range(N_COINS)
        if on[i]
    ]


def _stroke_paths(record: dict, coin_r: float, striker_r: float) -> list[dict]:
    """The trajectories of the discs that moved in one stroke (the striker always)."""
    paths, colour = [], record["before"][2]
    for i, path in enumerate(record["outcome"].paths or []):
        path = np.asarray(path, dtype=float)
        if i != STRIKER and (len(path) < 2 or np.allclose(path[0, 1:], path[-1, 1:])):
            continue
        if i == STRIKER:
            paths.append({"id": "striker", "points": subsampled_path(path), "r": striker_r, "fill": _STRIKER_FILL})
        else:
            paths.append(
                {"id": f"coin{i}", "points": subsampled_path(path), "r": coin_r, "fill": _COIN_FILL[int(colour[i])]}
            )
    return paths


def _told(e: dict) -> str:
    """One line of detail of a stroke."""
    if not math.isfinite(e["placed_x"]):
        return "no legal striker spot: the stroke is lost"
    parts = [
        f"aims at coin {e['target']}" if e.get("target") not in (None, "", -1) else "stroke",
        f"{e['executed_speed']:.2f} m/s",
    ]
    if e["whites"] or e["blacks"] or e["queen"]:
        parts.append(f"pocketed {e['whites']} white, {e['blacks']} black" + (", the queen" if e["queen"] else ""))
    if e["foul"]:
        parts.append("foul")
    return " · ".join(parts)


def frames(rules: CarromRules, players: Sequence[Player], seeds: MatchSeeds) -> dict:
    """The match of ``play_match(rules, players, seeds)`` as frames (:class:`sim.core.protocols.Frames`)."""
    recorder = _Recorder()
    log = play_match(rules, players, seeds, recorder)
    n = len(players)
    geo = geometry(rules)
    coin_r, striker_r = float(geo.rc), float(geo.rs)
    board_end = {}
    for row in log.rounds:
        board_end.setdefault((row["game"], row["round"]), {})[row["seat"]] = row["cumulative"]
    last_stroke = {}
    for e in log.events:
        last_stroke[(e["game"], e["round"])] = e["index"]
    played = recorder.strokes  # one per stroke that reached the physics, in order
    scores, shapes, out, k = [0.0] * n, [], [], 0
    for e in log.events:
        paths = []
        if math.isfinite(e["placed_x"]):
            record = played[k]
            following = played[k + 1] if k + 1 < len(played) and played[k + 1]["state"] is record["state"] else None
            if following is not None:
                pos, on, colour = following["before"]
            else:
                outcome = record["outcome"]
                pocketed = set(outcome.pocketed)
                before_on = record["before"][1]
                on = np.array([before_on[i] and i not in pocketed for i in range(N_COINS)])
                pos, colour = outcome.final_pos, record["before"][2]
            shapes = _discs_at_rest(pos, on, colour, coin_r)
            paths = _stroke_paths(record, coin_r, striker_r)
            k += 1
        key = (e["game"], e["round"])
        if last_stroke[key] == e["index"]:
            for seat, cumulative in board_end.get(key, {}).items():
                scores[seat] = float(cumulative)
        out.append(
            {
                "label": f"game {e['game']} · board {e['round']} · seat {e['seat']} ({players[e['seat']].name}): "
                f"stroke {e['board_stroke']}",
                "scores": list(scores),
                "shapes": shapes,
                "paths": paths,
                "text": _told(e),
            }
        )
    final = [float(r["score"]) for r in sorted(log.players, key=lambda r: r["seat"])]
    if out:
        out[-1]["scores"] = final
        winner = log.matches["winner"]
        out[-1]["text"] += f" — winner: seat {winner}" if winner >= 0 else " — no winner"
    h = float(geo.half) + 0.06  # the frame around the playing surface
    return {
        "title": f"Carrom ({rules.ruleset} rules): " + ", ".join(f"seat {s} {p.name}" for s, p in enumerate(players)),
        "board": {"extent": [-h, -h, h, h], "background": "#ffffff", "shapes": board_shapes(rules)},
        "seats": [{"name": p.name, "colour": SEAT_COLOURS[s % len(SEAT_COLOURS)]} for s, p in enumerate(players)],
        "frames": out,
        "final_scores": final,
    }
