"""The animated replay page: one match's frames (a game's ``frames`` hook) as a self-contained HTML.

:func:`render_replay_page` checks the frames against the contract of
:class:`sim.core.protocols.Frames` and renders ``templates/replay.html.j2``: a canvas, inline
JavaScript (play, pause, step, a slider, keyboard), the score line, no network. The renderer
knows no game: it draws the board's primitives (circle, rect, line, text), each frame's state
and, while a frame plays, its trajectories (polylines of (t, x, y) vertices).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jinja2

__all__ = ["check_frames", "render_replay_page", "write_replay_page", "SHAPE_KINDS"]

TEMPLATES = Path(__file__).parent / "templates"
SHAPE_KINDS = {"circle": ("x", "y", "r"), "rect": ("x", "y", "w", "h"), "line": ("points",), "text": ("x", "y", "text")}


def _shape_problems(where: str, shape: Any) -> list[str]:
    if not isinstance(shape, Mapping) or shape.get("kind") not in SHAPE_KINDS:
        return [f"{where}: expected a shape with kind one of {', '.join(SHAPE_KINDS)}, got {shape!r:.80}"]
    missing = [k for k in SHAPE_KINDS[shape["kind"]] if k not in shape]
    return [f"{where}: a {shape['kind']} needs {', '.join(missing)}"] if missing else []


def _numbers(values: Any) -> bool:
    return isinstance(values, list) and all(isinstance(v, int | float) and math.isfinite(v) for v in values)


def check_frames(data: Any) -> list[str]:
    """The problems of a frames dict against the contract (empty: none); one line each."""
    if not isinstance(data, Mapping):
        return [f"frames: expected a dict, got {type(data).__name__}"]
    problems = [f"frames: missing {key!r}" for key in ("board", "seats", "frames", "final_scores") if key not in data]
    if problems:
        return problems
    board, seats = data["board"], data["seats"]
    extent = board.get("extent") if isinstance(board, Mapping) else None
    if not _numbers(extent) or len(extent) != 4 or not (extent[2] > extent[0] and extent[3] > extent[1]):
        problems.append(
            f"board.extent: expected [xmin, ymin, xmax, ymax] with xmax > xmin, ymax > ymin, got {extent!r}"
        )
    for i, shape in enumerate(board.get("shapes", []) if isinstance(board, Mapping) else []):
        problems += _shape_problems(f"board.shapes[{i}]", shape)
    n = len(seats) if isinstance(seats, list) else -1
    if not _numbers(data["final_scores"]) or len(data["final_scores"]) != n:
        problems.append(f"final_scores: expected one number per seat ({n}), got {data['final_scores']!r:.80}")
    frames = data["frames"]
    if not isinstance(frames, list) or not frames:
        return problems + ["frames: expected a non-empty list of frames"]
    for i, frame in enumerate(frames):
        if not isinstance(frame, Mapping):
            problems.append(f"frames[{i}]: expected a dict")
            continue
        if not _numbers(frame.get("scores")) or len(frame["scores"]) != n:
            problems.append(f"frames[{i}].scores: expected one number per seat ({n})")
        for j, shape in enumerate(frame.get("shapes", [])):
            problems += _shape_problems(f"frames[{i}].shapes[{j}]", shape)
        for j, path in enumerate(frame.get("paths", [])):
            points = path.get("points") if isinstance(path, Mapping) else None
            if not isinstance(points, list) or not all(_numbers(p) and len(p) == 3 for p in points):
                problems.append(f"frames[{i}].paths[{j}].points: expected [[t, x, y], ...]")
    if not problems and list(frames[-1]["scores"]) != list(data["final_scores"]):
        problems.append(f"frames[-1].scores {frames[-1]['scores']} differ from final_scores {data['final_scores']}")
    return problems


def render_replay_page(data: Mapping[str, Any]) -> str:
    """The page as one HTML string; ``ValueError`` lists the frames' problems."""
    problems = check_frames(data)
    if problems:
        raise ValueError("; ".join(problems[:5]))
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    text = text.replace("</", "<\\/").replace("<!--", "<\\!--")  # safe inside <script>
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined
    )
    return env.get_template("replay.html.j2").render(title=str(data.get("title", "replay")), data_json=text)


def write_replay_page(data: Mapping[str, Any], path: str | Path) -> Path:
    """Write the page to ``path`` (UTF-8) and return it."""
    path = Path(path)
    path.write_text(render_replay_page(data), encoding="utf-8")
    return path
