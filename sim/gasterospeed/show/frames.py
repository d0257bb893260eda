"""A championship as drawing frames for the animated replay (``tablesim replay --html``).

The board holds every circuit of the championship side by side (one rect per square, coloured
by its kind, the title above); each frame is the board after a turn (the first of a race: the
snails placed): the running snails as circles of their seat's colour on their race's circuit,
KO snails grey, finished snails in arrival order above the finish. Scores are championship
points so far (shells with ``variants.shell_championship``), updated at the last frame of each
race. The championship is exactly ``play_match``'s (same seeds, same decisions).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.core.game import Player
from sim.core.seeding import MatchSeeds

from ..match import _run, _winner
from ..rules.board import FINISHED, KO, RUNNING
from ..rules.circuit import ARROW, BEHIND, FINISH, MUD, OBST, TRACK, Circuit
from ..rules.narration import snail_labels

__all__ = ["frames"]

#: Seat colours (Okabe–Ito) and square colours by kind; rails are the background.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
SQUARES = {TRACK: "#d9e8b0", MUD: "#8c6d46", ARROW: "#a9cbe8", FINISH: "#ffffff", BEHIND: "#bfb28f", OBST: "#4f6b2f"}
SLOT, KO_FILL, GAP = "#efe0a8", "#9a9a9a", 2.0


def _layout(circuits: Sequence[Circuit]) -> dict[str, float]:
    """Left edge of each circuit (by name, in order of first appearance), side by side."""
    out: dict[str, float] = {}
    x = 0.0
    for c in circuits:
        if c.name not in out:
            out[c.name] = x
            x += c.width + GAP
    return out


def _board(circuits: dict[str, Circuit], left: dict[str, float]) -> list[dict[str, Any]]:
    shapes: list[dict[str, Any]] = []
    for name, c in circuits.items():
        x0, slots = left[name], set(c.slots)
        for q, kind in enumerate(c.kind):
            fill = SLOT if q in slots else SQUARES.get(kind)
            if fill is not None:
                row, col = divmod(q, c.width)
                shapes.append(
                    {
                        "kind": "rect",
                        "x": x0 + col,
                        "y": c.height - 1 - row,
                        "w": 1,
                        "h": 1,
                        "fill": fill,
                        "stroke": "#7a7a7a",
                    }
                )
        shapes.append(
            {
                "kind": "text",
                "x": x0 + c.width / 2,
                "y": c.height + 1.6,
                "text": c.title,
                "anchor": "middle",
                "size": 13,
                "fill": "#ffffff",
            }
        )
    return shapes


def _snails(state: dict[str, Any], c: Circuit, x0: float, labels: list[str]) -> list[dict[str, Any]]:
    """The circles of one recorded board."""
    shapes = []
    for s, (q, status, owner) in enumerate(zip(state["pos"], state["status"], state["owner"])):
        colour = COLOURS[owner % len(COLOURS)]
        if q >= 0 and status in (RUNNING, KO):
            row, col = divmod(q, c.width)
            x, y = x0 + col + 0.5, c.height - 1 - row + 0.5
        elif status == FINISHED:
            x, y = x0 + 0.5 + state["arrivals"].index(s) % c.width, c.height + 0.5
        else:
            continue
        shapes.append(
            {
                "kind": "circle",
                "id": f"snail{s}",
                "x": x,
                "y": y,
                "r": 0.42,
                "fill": KO_FILL if status == KO else colour,
                "stroke": colour if status == KO else "#000000",
                "label": labels[s],
            }
        )
    return shapes


def _paths(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Straight slides of the snails that moved between two boards of one race."""
    old = {shape["id"]: shape for shape in before}
    out = []
    for shape in after:
        prev = old.get(shape["id"])
        if prev is not None and (prev["x"], prev["y"]) != (shape["x"], shape["y"]):
            out.append(
                {
                    "id": shape["id"],
                    "r": shape["r"],
                    "fill": shape["fill"],
                    "points": [[0.0, prev["x"], prev["y"]], [0.6, shape["x"], shape["y"]]],
                }
            )
    return out


def _scores(rules, rounds: list[dict[str, Any]], n: int, races: int) -> list[list[float]]:
    """Championship score of every seat after each race (row 0: before the first)."""
    shells = rules.variants.shell_championship
    out = [[0.0] * n]
    for k in range(1, races + 1):
        row = list(out[-1])
        for r in rounds:
            if r["round"] == k:
                row[r["seat"]] += r["shells_left"] if shells else r["points"]
        out.append(row)
    return out


def frames(rules, players: Sequence[Player], seeds: MatchSeeds) -> dict[str, Any]:
    """One championship as drawing frames (:class:`sim.core.protocols.Frames`)."""
    states: list[dict[str, Any]] = []
    circuits: dict[str, Circuit] = {}

    def record(race) -> None:
        b = race.board
        circuits.setdefault(b.c.name, b.c)
        states.append(
            {
                "race": race.race_no,
                "turn": race.turn,
                "circuit": b.c.name,
                "pos": b.pos.tolist(),
                "status": b.status.tolist(),
                "shells": b.shells.tolist(),
                "owner": b.owner,
                "arrivals": b.arrivals,
            }
        )

    result = _run(rules, players, seeds, events=[], trace=None, on_turn=record)
    final = _winner(rules, result)[1]
    n, per = result["n"], 2 if rules.variants.two_snails else 1
    labels = snail_labels(n, per)
    left = _layout(list(circuits.values()))
    after_race = _scores(rules, result["rounds"], n, result["races"])
    out: list[dict[str, Any]] = []
    previous: list[dict[str, Any]] = []
    for i, state in enumerate(states):
        c = circuits[state["circuit"]]
        last = i + 1 == len(states) or states[i + 1]["race"] != state["race"]
        shapes = _snails(state, c, left[c.name], labels)
        paths = _paths(previous, shapes) if state["turn"] > 0 else []
        what = "start" if state["turn"] == 0 else f"turn {state['turn']}"
        shells = ", ".join(f"{labels[s]} {sh}" for s, sh in enumerate(state["shells"]))
        out.append(
            {
                "label": f"race {state['race']} · {c.title} · {what}" + (" · race over" if last else ""),
                "scores": [float(x) for x in after_race[state["race"] if last else state["race"] - 1]],
                "shapes": shapes,
                "paths": paths,
                "text": f"shells: {shells}",
            }
        )
        previous = shapes
    if out:
        out[-1]["scores"] = [float(x) for x in final]
    width = max((left[name] + c.width for name, c in circuits.items()), default=1.0)
    height = max((c.height for c in circuits.values()), default=1)
    who = ", ".join(f"{labels[s * per]} seat {s} {p.name}" for s, p in enumerate(players))
    return {
        "title": f"Gastérospeed championship, {result['races']} races: {who}",
        "board": {
            "extent": [-0.5, -0.5, width + 0.5, height + 2.5],
            "background": "#3b3b3b",
            "shapes": _board(circuits, left),
        },
        "seats": [{"name": p.name, "colour": COLOURS[s % len(COLOURS)]} for s, p in enumerate(players)],
        "frames": out,
        "final_scores": [float(x) for x in final],
    }
