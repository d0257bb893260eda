"""Drawings of the Curlastique board (matplotlib, Agg backend: files only, no window)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Circle, Polygon, Rectangle  # noqa: E402

from .board import geometry  # noqa: E402
from .rules import CurlastiqueRules  # noqa: E402

__all__ = ["draw_board", "plot_shot", "plot_stops", "SEAT_COLOURS"]

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
_RING_SHADES = ("#fde0dd", "#fcc5c0", "#fa9fb5", "#f768a1", "#dd3497", "#ae017e")


def draw_board(ax, rules: CurlastiqueRules) -> None:
    """The surface, rim, corner pieces, elastic, pegs and the target rings with their values."""
    b, z, g = rules.board, rules.zones, geometry(rules)
    hw = b.width / 2
    ax.add_patch(Rectangle((-hw, 0), b.width, b.length, facecolor="#f3e3c3", edgecolor="#5b3a1a", lw=3))
    for i, (radius, value) in reversed(list(enumerate(zip(z.radii, z.values, strict=False)))):
        ax.add_patch(Circle((0, z.centre_y), radius, facecolor=_RING_SHADES[i % len(_RING_SHADES)],
                            edgecolor="#555555", lw=0.8, alpha=0.6))
        inner = z.radii[i - 1] if i else 0.0
        ax.text(0, z.centre_y + (inner + radius) / 2 if i else z.centre_y, str(value),
                ha="center", va="center", fontsize=7, color="#333333")
    for x1, y1, x2, y2 in g.corners:
        corner_x = x1 if abs(x1) > abs(x2) else x2
        ax.add_patch(Polygon([(x1, y1), (x2, y2), (corner_x, b.length)], closed=True,
                             facecolor="#5b3a1a", edgecolor="#5b3a1a"))
    x1, y1, x2, y2 = g.elastic
    ax.plot([x1, x2], [y1, y2], color="#222222", lw=1.5)
    for x, y, r in g.pegs:
        ax.add_patch(Circle((x, y), r, facecolor="#222222"))
    ax.set_xlim(-hw - 0.03, hw + 0.03)
    ax.set_ylim(-0.03, b.length + 0.03)
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")


def plot_shot(rules: CurlastiqueRules, paths: Sequence[np.ndarray], owners: Sequence[int],
              on: Sequence[bool], path: str, title: str = "") -> None:
    """Save a PNG of the board with every puck's trajectory and where it stopped.

    Args:
        paths: per puck a (k, 3) array of (t, x, y) vertices (the thrown puck last).
        owners: the seat of each puck (its colour).
        on: whether each puck is still in play (pucks out are drawn hollow).
    """
    fig, ax = plt.subplots(figsize=(4.2, 7.5))
    draw_board(ax, rules)
    r = rules.puck.radius
    for i, (verts, owner, alive) in enumerate(zip(paths, owners, on, strict=True)):
        colour = SEAT_COLOURS[int(owner) % len(SEAT_COLOURS)]
        if len(verts) > 1:
            ax.plot(verts[:, 1], verts[:, 2], color=colour, lw=1.0, ls="-" if i == len(paths) - 1 else "--")
        ax.add_patch(Circle((verts[0, 1], verts[0, 2]), r, fill=False, edgecolor=colour, lw=0.5, ls=":"))
        ax.add_patch(Circle((verts[-1, 1], verts[-1, 2]), r, facecolor=colour if alive else "none",
                            edgecolor=colour, lw=1.2, alpha=0.9))
        ax.text(verts[-1, 1], verts[-1, 2], str(i), ha="center", va="center", fontsize=6,
                color="white" if alive else colour)
    if title:
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def plot_stops(rules: CurlastiqueRules, events, max_points: int = 5000):
    """A figure of where thrown pucks stopped (pucks still in play), coloured by profile seat.

    Args:
        events: the ``events`` table (columns ``final_x``, ``final_y``, ``out``, ``seat``).
    """
    fig, ax = plt.subplots(figsize=(4.2, 7.5))
    draw_board(ax, rules)
    kept = events[~events["out"].astype(bool)]
    if len(kept) > max_points:
        kept = kept.sample(max_points, random_state=0)
    colours = [SEAT_COLOURS[int(s) % len(SEAT_COLOURS)] for s in kept["seat"]]
    ax.scatter(kept["final_x"], kept["final_y"], s=3, c=colours, alpha=0.3, linewidths=0)
    ax.set_title("where thrown pucks stopped (in play)", fontsize=9)
    fig.tight_layout()
    return fig
