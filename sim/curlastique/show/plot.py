"""Drawings of the Curlastique board (matplotlib, Agg backend: files only, no window)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Circle, Polygon, Rectangle  # noqa: E402

from ..rules.board import geometry  # noqa: E402
from ..rules.schema import CurlastiqueRules  # noqa: E402

__all__ = ["draw_board", "plot_shot", "plot_stops", "game_plots", "SEAT_COLOURS"]

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e")
_RING_SHADES = ("#f768a1", "#fa9fb5", "#fcc5c0", "#fde0dd", "#fef0ee", "#fff7f6")  # innermost first


def draw_board(ax, rules: CurlastiqueRules) -> None:
    """The surface, rim, corner pieces, elastic, pegs and the target rings with their values."""
    b, z, g = rules.board, rules.zones, geometry(rules)
    hw = b.width / 2
    ax.add_patch(Rectangle((-hw, 0), b.width, b.length, facecolor="#f3e3c3", edgecolor="#5b3a1a", lw=3))
    for i, (radius, value) in reversed(list(enumerate(zip(z.radii, z.values, strict=False)))):
        ax.add_patch(
            Circle(
                (0, z.centre_y),
                radius,
                facecolor=_RING_SHADES[i % len(_RING_SHADES)],
                edgecolor="#555555",
                lw=0.8,
                alpha=0.6,
            )
        )
        inner = z.radii[i - 1] if i else 0.0
        ax.text(
            0,
            z.centre_y + (inner + radius) / 2 if i else z.centre_y,
            str(value),
            ha="center",
            va="center",
            fontsize=7,
            color="#333333",
        )
    for x1, y1, x2, y2 in g.corners:
        corner_x = x1 if abs(x1) > abs(x2) else x2
        ax.add_patch(
            Polygon([(x1, y1), (x2, y2), (corner_x, b.length)], closed=True, facecolor="#5b3a1a", edgecolor="#5b3a1a")
        )
    x1, y1, x2, y2 = g.elastic
    ax.plot([x1, x2], [y1, y2], color="#222222", lw=1.5)
    for x, y, r in g.pegs:
        ax.add_patch(Circle((x, y), r, facecolor="#222222"))
    ax.set_xlim(-hw - 0.03, hw + 0.03)
    ax.set_ylim(-0.03, b.length + 0.03)
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")


def plot_shot(
    rules: CurlastiqueRules,
    paths: Sequence[np.ndarray],
    owners: Sequence[int],
    on: Sequence[bool],
    path: str,
    title: str = "",
) -> None:
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
        ax.add_patch(
            Circle(
                (verts[-1, 1], verts[-1, 2]),
                r,
                facecolor=colour if alive else "none",
                edgecolor=colour,
                lw=1.2,
                alpha=0.9,
            )
        )
        ax.text(
            verts[-1, 1], verts[-1, 2], str(i), ha="center", va="center", fontsize=6, color="white" if alive else colour
        )
    if title:
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)


def plot_stops(rules: CurlastiqueRules, events, players=None, max_points: int = 5000):
    """A figure of where thrown pucks stopped (those still in play after their throw).

    Args:
        events: the ``events`` table (columns ``final_x``, ``final_y``, ``out``, ``seat``).
        players: optional ``players`` table: colour by profile instead of by seat.
    """
    fig, ax = plt.subplots(figsize=(4.6, 7.5))
    draw_board(ax, rules)
    kept = events[~events["out"].astype(bool)]
    label = "seat"
    if players is not None and len(kept):
        keys = [k for k in ("variant", "lineup", "match") if k in kept.columns and k in players.columns]
        kept = kept.merge(players[keys + ["seat", "profile"]], on=keys + ["seat"], how="left")
        label = "profile"
    if len(kept) > max_points:
        kept = kept.sample(max_points, random_state=0)
    for i, (name, group) in enumerate(kept.groupby(label, sort=True)):
        ax.scatter(
            group["final_x"],
            group["final_y"],
            s=3,
            alpha=0.3,
            linewidths=0,
            color=SEAT_COLOURS[i % len(SEAT_COLOURS)],
            label=f"{label} {name}",
        )
    if len(kept):
        ax.legend(loc="lower right", fontsize=7, markerscale=3)
    ax.set_title("where thrown pucks stopped (in play)", fontsize=9)
    fig.tight_layout()
    return fig


def game_plots(tables) -> list[tuple[str, object]]:
    """The GameSpec ``plots`` hook: figures of a run's tables (drawn on the default board)."""
    events = tables.get("events")
    if events is None or not len(events):
        return []
    return [("Where thrown pucks stopped", plot_stops(CurlastiqueRules(), events, tables.get("players")))]
