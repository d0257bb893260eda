"""``tablesim shot carrom``: one stroke from seat 0's base line, as JSON, text or a drawing.

The stroke: striker at local ``x`` on seat 0's base line (the nearest legal free spot is
used if ``x`` is not one), aim ``angle_deg`` anticlockwise from straight ahead (+y), ``speed``
m/s. The coins: the break formation (default) or a TOML file::

    [[coins]]
    colour = "white"     # white | black | queen
    x = 0.10             # m, board coordinates (origin at the centre, seat 0 at y < 0)
    y = 0.05
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.core.config import ConfigError, read_toml
from sim.physics import EVENT_NAMES

from ..rules.board import COLOUR_NAMES, N_COINS, STRIKER, formation, geometry, physics_stroke
from ..rules.schema import CarromRules

__all__ = ["ShotOutcome", "shot", "load_state"]


def load_state(rules: CarromRules, path: str | Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Coins of a state file: (pos (19, 2), colour (19,), on (19,)); missing coins are off the board.

    Raises:
        ConfigError: one line per problem, naming the file and the key.
    """
    data = read_toml(path)
    problems = []
    unknown = sorted(set(data) - {"coins"})
    if unknown:
        problems.append(f"{path}: {unknown[0]}: unknown key; allowed: coins")
    coins = data.get("coins", [])
    if not isinstance(coins, list):
        raise ConfigError([f"{path}: coins: expected an array of tables [[coins]]"])
    geo = geometry(rules)
    limit = geo.half - geo.rc
    counts = {"white": 0, "black": 0, "queen": 0}
    caps = {"white": 9, "black": 9, "queen": 1}
    xy, colour = [], []
    for k, coin in enumerate(coins):
        key = f"coins[{k}]"
        if not isinstance(coin, dict):
            problems.append(f"{path}: {key}: expected a table with colour, x, y")
            continue
        extra = sorted(set(coin) - {"colour", "x", "y"})
        if extra:
            problems.append(f"{path}: {key}.{extra[0]}: unknown key; allowed: colour, x, y")
        c = coin.get("colour")
        if c not in counts:
            problems.append(f"{path}: {key}.colour: got {c!r}; allowed: 'white', 'black', 'queen'")
            continue
        counts[c] += 1
        if counts[c] > caps[c]:
            problems.append(f"{path}: {key}.colour: more than {caps[c]} {c} coin(s)")
        for axis in ("x", "y"):
            v = coin.get(axis)
            if isinstance(v, bool) or not isinstance(v, int | float):
                problems.append(f"{path}: {key}.{axis}: expected a number (m), got {v!r}")
            elif abs(v) > limit:
                problems.append(f"{path}: {key}.{axis}: got {v}; allowed: |{axis}| <= {limit:.4f} m")
        xy.append((float(coin.get("x", 0) or 0), float(coin.get("y", 0) or 0)))
        colour.append(COLOUR_NAMES.index(c))
    if problems:
        raise ConfigError(problems)
    pts = np.array(xy, dtype=float).reshape(-1, 2)
    for i in range(len(pts)):
        for j in range(i):
            if np.hypot(*(pts[i] - pts[j])) < 2 * geo.rc - 1e-9:
                problems.append(f"{path}: coins[{i}]: overlaps coins[{j}]")
    if problems:
        raise ConfigError(problems)
    # ids: the queen is 0; the rest in file order; unused ids are off the board
    pos = np.zeros((N_COINS, 2))
    col = np.zeros(N_COINS, dtype=np.int64)
    on = np.zeros(N_COINS, dtype=bool)
    order = sorted(range(len(pts)), key=lambda k: colour[k] != 2)
    nxt = 1
    free_colours = [0] * 9 + [1] * 9
    for k in order:
        cid = 0 if colour[k] == 2 else nxt
        if colour[k] != 2:
            nxt += 1
        pos[cid], col[cid], on[cid] = pts[k], colour[k], True
    # unused ids get the remaining colours so the set stays 9/9/1
    used = [int(c) for c in col[on] if c != 2]
    for c in used:
        free_colours.remove(c)
    for cid in range(1, N_COINS):
        if not on[cid]:
            col[cid] = free_colours.pop()
    col[0] = 2
    return pos, col, on


@dataclass
class ShotOutcome:
    """One stroke's result: discs' start and final positions, statuses, and the events."""

    rules: CarromRules
    start: np.ndarray  # (20, 2)
    final: np.ndarray  # (20, 2)
    status: list[str]  # per disc: rest | pocketed | off (not on the board)
    owners: list[str]  # per disc: white | black | queen | striker
    events: np.ndarray
    paths: list | None
    placed_x: float

    def as_dict(self) -> dict:
        discs = []
        for i in range(len(self.owners)):
            if self.status[i] == "off":
                continue
            discs.append(
                {
                    "id": i,
                    "owner": self.owners[i],
                    "start_x": float(self.start[i, 0]),
                    "start_y": float(self.start[i, 1]),
                    "final_x": float(self.final[i, 0]),
                    "final_y": float(self.final[i, 1]),
                    "status": self.status[i],
                }
            )
        events = [
            {
                "time": float(e["time"]),
                "kind": EVENT_NAMES[int(e["kind"])],
                "a": int(e["a"]),
                "b": int(e["b"]),
                "x": float(e["x"]),
                "y": float(e["y"]),
            }
            for e in self.events
        ]
        return {"striker_x": self.placed_x, "discs": discs, "events": events}

    def text(self) -> str:
        d = self.as_dict()
        fell = [x for x in d["discs"] if x["status"] == "pocketed"]
        lines = [f"striker at x = {self.placed_x:+.4f} m on seat 0's base line; {len(d['events'])} events"]
        if fell:
            lines.append("pocketed: " + ", ".join(f"{x['owner']} #{x['id']}" for x in fell))
        else:
            lines.append("pocketed: nothing")
        s = d["discs"][-1]
        lines.append(f"striker: {s['status']} at ({s['final_x']:+.3f}, {s['final_y']:+.3f}) m")
        return "\n".join(lines)

    def plot(self, path: str | Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 6))
        draw_board(ax, self.rules)
        colours = {"white": "#f3ead2", "black": "#222222", "queen": "#c0392b", "striker": "#2e86c1"}
        geo = geometry(self.rules)
        for i, owner in enumerate(self.owners):
            if self.status[i] == "off":
                continue
            r = geo.rs if i == STRIKER else geo.rc
            if self.paths is not None and len(self.paths[i]) > 1:
                p = self.paths[i]
                ax.plot(
                    p[:, 1], p[:, 2], "-", color=colours[owner] if owner != "white" else "#b08d57", lw=1.0, alpha=0.8
                )
            ax.add_patch(plt.Circle(self.start[i], r, fill=False, ls=":", ec="grey", lw=0.6))
            if self.status[i] == "rest":
                ax.add_patch(plt.Circle(self.final[i], r, fc=colours[owner], ec="black", lw=0.5))
        ax.set_title(f"carrom stroke: {sum(s == 'pocketed' for s in self.status)} pocketed")
        fig.savefig(path, dpi=120, bbox_inches="tight")
        plt.close(fig)


def draw_board(ax, rules: CarromRules) -> None:
    """Cushions, pockets, base lines and circles, centre and outer circles (board metres)."""
    import matplotlib.pyplot as plt

    b = rules.board
    geo = geometry(rules)
    h = b.half
    ax.add_patch(plt.Rectangle((-h, -h), 2 * h, 2 * h, fc="#f5deb3", ec="#5d4037", lw=3))
    for x, y in geo.pocket_xy:
        ax.add_patch(plt.Circle((x, y), b.pocket_radius, fc="#333333"))
    ax.add_patch(plt.Circle((0, 0), b.centre_circle_diameter / 2, fill=False, ec="#c0392b"))
    ax.add_patch(plt.Circle((0, 0), b.outer_circle_diameter / 2, fill=False, ec="#c0392b", lw=0.6))
    y0 = h - b.baseline_offset
    y1 = y0 - b.baseline_gap
    xc = b.base_circle_x
    for q in range(4):
        rot = np.array([[1, 0], [0, 1]]) if q == 0 else np.linalg.matrix_power(np.array([[0, -1], [1, 0]]), q)
        for yy in (-y0, -y1):
            seg = np.array([[-xc, yy], [xc, yy]]) @ rot.T
            ax.plot(seg[:, 0], seg[:, 1], color="#5d4037", lw=0.6)
        for sx in (-xc, xc):
            c = np.array([sx, geo.striker_y]) @ rot.T
            ax.add_patch(plt.Circle(c, b.base_circle_diameter / 2, fill=False, ec="#c0392b", lw=0.6))
    ax.set_xlim(-h - 0.02, h + 0.02)
    ax.set_ylim(-h - 0.02, h + 0.02)
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")


def shot(
    rules: CarromRules,
    x: float | None = None,
    angle_deg: float = 0.0,
    speed: float = 4.0,
    state: str | Path | None = None,
) -> ShotOutcome:
    """Play one stroke from seat 0's base line (see the module docstring).

    Args:
        x: striker position along the base line (m; None: 0, the middle).
        angle_deg: anticlockwise from straight ahead (degrees).
        speed: m/s (clipped to ``striker.max_speed``).
        state: a coins TOML file; None: the break formation.
    """
    geo = geometry(rules)
    if state is None:
        pos, col = formation(rules, 0)
        on = np.ones(N_COINS, dtype=bool)
    else:
        pos, col, on = load_state(rules, state)
    want = 0.0 if x is None else float(x)
    placed = geo.place_striker(want, pos[on])
    if placed is None:
        raise ConfigError(["--x: no legal free spot for the striker on the base line"])
    speed = min(max(float(speed), 0.0), rules.striker.max_speed)
    out = physics_stroke(rules, pos, on, (placed, geo.striker_y), angle_deg, speed, record_paths=True)
    start = np.vstack([pos, [placed, geo.striker_y]])
    events = out.events
    final = np.vstack([out.final_pos, [np.nan, np.nan]])
    status = ["rest" if on[i] else "off" for i in range(N_COINS)] + ["rest"]
    for c in out.pocketed:
        status[c] = "pocketed"
    if out.striker_pocketed:
        status[STRIKER] = "pocketed"
    final[STRIKER] = out.striker_final
    owners = [COLOUR_NAMES[int(c)] for c in col] + ["striker"]
    return ShotOutcome(rules, start, final, status, owners, events, out.paths, float(placed))
