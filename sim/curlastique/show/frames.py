"""One game of Curlastique as drawing frames, for ``tablesim replay DIR --match N --html FILE``.

:func:`frames` plays the match with :func:`~sim.curlastique.match.play_match` through a
:class:`_Recorder`, a resolver that throws every puck with :func:`sim.physics.simulate`
(``record_paths=True``): the same engine and arithmetic as the match's own resolver (the broad
phase of :mod:`sim.curlastique.rules.flight` gives the engine's rest points bit for bit), so the log,
and the final scores, are the ones ``play_match`` stores for the same seeds
(``tests/curlastique/show/test_frames.py`` checks it). One frame per throw: the pucks at rest
afterwards (a circle per puck, its seat's colour, a stable ``id`` so the page moves it), the
trajectories of the pucks that moved and of the thrown one (the engine's vertices, at most :data:`MAX_VERTICES` per
puck), every seat's score (cumulative, updated at the end of each round). The board: surface,
target rings with their values, corner pieces, the elastic (start line) and its pegs. Lengths
in m (y forward from the near rim, up on the page), times in s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from sim.core.game import Player
from sim.core.seeding import MatchSeeds
from sim.dexterity.paths import MAX_VERTICES, subsampled_path
from sim.physics import STATUS_ON, simulate

from ..match import play_match
from ..rules.board import Landing, discs_for, geometry, physics, table
from ..rules.flight import launch_velocity_of
from ..rules.schema import CurlastiqueRules

__all__ = ["frames", "board_shapes", "MAX_VERTICES", "SEAT_COLOURS"]


#: Seat colours (as the static plots of :mod:`sim.curlastique.show.plot`).
SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
_RING_SHADES = ("#f768a1", "#fa9fb5", "#fcc5c0", "#fde0dd", "#fef0ee", "#fff7f6")  # innermost first


class _Recorder:
    """A :class:`~sim.curlastique.match.Resolver` that keeps, per throw, the pucks' paths and ids.

    Ids follow the match's own bookkeeping: the pucks in play keep their order, the thrown one
    last (:func:`sim.curlastique.match._in_play`); a new board (no puck at rest) starts afresh."""

    def __init__(self):
        self.ids: list[str] = []
        self.throws: list[dict] = []

    def __call__(
        self,
        rules: CurlastiqueRules,
        pos: np.ndarray,
        owner: np.ndarray,
        seat: int,
        x: float,
        angle_deg: float,
        speed: float,
    ) -> Landing:
        if len(pos) == 0:
            self.ids = []
        discs = discs_for(rules, pos, owner, seat)
        discs.pos[-1] = (x, rules.launch_y)
        discs.vel[-1] = launch_velocity_of(angle_deg, speed)
        start = discs.pos.copy()
        result = simulate(table(rules), physics(rules), discs, record_paths=True)
        on = result.status == STATUS_ON
        ids = [*self.ids, f"puck{len(self.throws)}"]
        owners = [*np.asarray(owner).tolist(), seat]
        moved = [
            i
            for i in range(len(ids))
            if i == len(ids) - 1 or not on[i] or not np.array_equal(result.final_pos[i], start[i])
        ]
        self.throws.append(
            {
                "paths": [(ids[i], owners[i], subsampled_path(result.paths[i])) for i in moved],
                "rest": [(ids[i], owners[i], *result.final_pos[i].tolist()) for i in range(len(ids)) if on[i]],
            }
        )
        self.ids = [ids[i] for i in range(len(ids)) if on[i]]
        return Landing(result.final_pos, on)


def board_shapes(rules: CurlastiqueRules) -> list[dict]:
    """The board as shapes: surface, rings (outermost first) and their values, corner pieces,
    the elastic and its pegs."""
    b, z, g = rules.board, rules.zones, geometry(rules)
    hw = b.width / 2
    shapes: list[dict] = [
        {"kind": "rect", "x": -hw, "y": 0.0, "w": b.width, "h": b.length, "fill": "#f3e3c3", "stroke": "#5b3a1a"}
    ]
    for i in reversed(range(len(z.radii))):
        shapes.append(
            {
                "kind": "circle",
                "x": 0.0,
                "y": z.centre_y,
                "r": float(z.radii[i]),
                "fill": _RING_SHADES[i % len(_RING_SHADES)],
                "stroke": "#555555",
            }
        )
    for i, (radius, value) in enumerate(zip(z.radii, z.values, strict=True)):
        inner = z.radii[i - 1] if i else 0.0
        shapes.append(
            {
                "kind": "text",
                "x": 0.0,
                "y": z.centre_y + ((inner + radius) / 2 if i else 0.0),
                "text": str(value),
                "size": 11,
                "fill": "#333333",
                "anchor": "middle",
            }
        )
    for x1, y1, x2, y2 in g.corners:
        corner_x = x1 if abs(x1) > abs(x2) else x2
        shapes.append(
            {
                "kind": "line",
                "points": [[x1, y1], [x2, y2], [corner_x, b.length]],
                "closed": True,
                "fill": "#5b3a1a",
                "stroke": "#5b3a1a",
                "width": 1,
            }
        )
    x1, y1, x2, y2 = g.elastic
    shapes.append({"kind": "line", "points": [[x1, y1], [x2, y2]], "stroke": "#222222", "width": 2})
    shapes += [{"kind": "circle", "x": x, "y": y, "r": r, "fill": "#222222"} for x, y, r in g.pegs]
    return shapes


def _puck(rules: CurlastiqueRules, pid: str, owner: int, x: float, y: float) -> dict:
    return {
        "kind": "circle",
        "id": pid,
        "x": round(x, 5),
        "y": round(y, 5),
        "r": rules.puck.radius,
        "fill": SEAT_COLOURS[owner % len(SEAT_COLOURS)],
        "stroke": "#000000",
    }


def _told(e: dict) -> str:
    """One line of detail of a throw: its family, what it knocked out, where it stopped."""
    parts = [e["family"] or "-"]
    if not math.isfinite(e["executed_x"]):
        return f"{parts[0]}: no room on the start line, counts as out"
    parts.append(f"x {e['executed_x']:+.3f} m, {e['executed_angle_deg']:+.1f} deg, {e['executed_speed']:.2f} m/s")
    if e["knocked_out"]:
        parts.append(f"knocked out {e['knocked_out']}")
    parts.append("out of play" if e["out"] else f"{e['zone']}-point zone")
    return " · ".join(parts)


def frames(rules: CurlastiqueRules, players: Sequence[Player], seeds: MatchSeeds) -> dict:
    """The match of ``play_match(rules, players, seeds)`` as frames (:class:`sim.core.protocols.Frames`)."""
    recorder = _Recorder()
    log = play_match(rules, players, seeds, recorder)
    n = len(players)
    end_of_round = {}  # (round) -> cumulative by seat after it
    for row in log.rounds:
        end_of_round.setdefault(row["round"], {})[row["seat"]] = row["cumulative"]
    last_throw = {e["round"]: e["index"] for e in log.events}
    scores = [0.0] * n
    throws = iter(recorder.throws)
    shapes: list[dict] = []
    out = []
    for e in log.events:
        paths = []
        if math.isfinite(e["executed_x"]):
            record = next(throws)
            shapes = [_puck(rules, pid, owner, x, y) for pid, owner, x, y in record["rest"]]
            paths = [
                {"id": pid, "points": points, "r": rules.puck.radius, "fill": SEAT_COLOURS[owner % len(SEAT_COLOURS)]}
                for pid, owner, points in record["paths"]
            ]
        if last_throw[e["round"]] == e["index"]:
            for seat, cumulative in end_of_round.get(e["round"], {}).items():
                scores[seat] = float(cumulative)
        decisive = " (decisive)" if e["decisive"] else ""
        out.append(
            {
                "label": f"round {e['round']}{decisive} · seat {e['seat']} ({players[e['seat']].name}): "
                f"throw {e['puck']}",
                "scores": list(scores),
                "shapes": shapes,
                "paths": paths,
                "text": _told(e),
            }
        )
    winner = log.matches["winner"]
    if out:
        out[-1]["text"] += f" — winner: seat {winner}" if winner >= 0 else " — no winner (round cap)"
    b = rules.board
    margin = 0.03
    return {
        "title": f"Curlastique to {rules.game.target_score}: "
        + ", ".join(f"seat {s} {p.name}" for s, p in enumerate(players)),
        "board": {
            "extent": [-b.width / 2 - margin, -margin, b.width / 2 + margin, b.length + margin],
            "background": "#ffffff",
            "shapes": board_shapes(rules),
        },
        "seats": [{"name": p.name, "colour": SEAT_COLOURS[s % len(SEAT_COLOURS)]} for s, p in enumerate(players)],
        "frames": out,
        "final_scores": [float(r["score"]) for r in sorted(log.players, key=lambda r: r["seat"])],
    }
