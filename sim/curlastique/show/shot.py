"""One throw for ``tablesim shot curlastique``: simulate it, describe it, draw it.

The thrown puck starts with its back edge on the elastic at lateral position ``x`` (m; default
0, the axis), aimed ``angle_deg`` from straight ahead (counterclockwise positive: a positive
angle goes towards −x) at ``speed`` m/s. Both must be within the launch limits of the rules.

``state`` is an optional TOML file of pucks already at rest on the board::

    thrower = 0          # seat of the thrown puck (default 0)

    [[pucks]]
    owner = 1            # seat owning the puck (0..3)
    x = 0.01             # m, lateral (0 on the axis)
    y = 0.74             # m from the near rim

Pucks must lie on the board in front of the elastic without overlapping each other.

Example:
    >>> from sim.curlastique.rules.schema import CurlastiqueRules
    >>> out = shot(CurlastiqueRules(), x=0.0, angle_deg=0.0, speed=1.38, state=None)
    >>> out.as_dict()["points"]["by_owner"]
    {'0': 100}
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sim.core.config import ConfigError, load_config, param
from sim.physics import EVENT_NAMES, OUT, STATUS_LOST, STATUS_ON, STATUS_OUT, simulate

from ..match import free_launch_x
from ..rules.board import discs_for, launch_velocity, out_element, physics, table
from ..rules.schema import CurlastiqueRules
from ..rules.scoring import scorer

__all__ = ["shot", "ShotOutcome", "ShotState", "PuckSpec", "load_state"]


@dataclass(frozen=True)
class PuckSpec:
    """A puck at rest in a shot's starting position: its owner (seat) and where it lies (m)."""

    owner: int = param(0, min=0, max=3, doc="seat owning the puck")
    x: float = param(0.0, unit="m", doc="lateral position")
    y: float = param(0.5, unit="m", doc="distance from the near rim")


@dataclass(frozen=True)
class ShotState:
    """The position ``tablesim shot curlastique --state FILE`` starts from: the seat that throws
    and the pucks already on the board."""

    thrower: int = param(0, min=0, max=3, doc="seat of the thrown puck")
    pucks: tuple[PuckSpec, ...] = param((), doc="pucks at rest on the board")


def load_state(rules: CurlastiqueRules, path) -> ShotState:
    """Read and check a state file; problems raise :class:`ConfigError` naming the file."""
    state = load_config(ShotState, None, path)
    b, r = rules.board, rules.puck.radius
    problems = []
    for i, p in enumerate(state.pucks):
        if not (abs(p.x) < b.width / 2 - r and rules.board.elastic_y + r < p.y < b.length - r):
            problems.append(
                f"{path}: pucks[{i}]: ({p.x}, {p.y}) is not on the board in front of the "
                f"elastic; allowed: |x| < {b.width / 2 - r:.4g} m, "
                f"{b.elastic_y + r:.4g} < y < {b.length - r:.4g} m"
            )
        for j, q in enumerate(state.pucks[:i]):
            if math.hypot(p.x - q.x, p.y - q.y) < rules.puck.diameter - 1e-9:
                problems.append(
                    f"{path}: pucks[{i}]: overlaps pucks[{j}] (centres closer than "
                    f"the puck diameter {rules.puck.diameter} m)"
                )
    if problems:
        raise ConfigError(problems)
    return state


@dataclass(frozen=True)
class ShotOutcome:
    """A simulated throw: where every puck started and stopped, the events, the points."""

    rules: CurlastiqueRules
    x: float
    angle_deg: float
    speed: float
    owners: np.ndarray  # (N,) seat of each puck; the thrown puck last
    start: np.ndarray  # (N, 2) m
    final: np.ndarray  # (N, 2) m
    status: np.ndarray  # (N,) physics status
    events: np.ndarray  # EVENT_DTYPE
    paths: list[np.ndarray]  # per puck (k, 3): t, x, y

    @property
    def on(self) -> np.ndarray:
        return self.status == STATUS_ON

    def puck_points(self) -> np.ndarray:
        return scorer(self.rules.zones, self.rules.puck.radius).points(self.final, self.on)

    def out_by(self) -> dict[int, str]:
        """For each puck put out: the element it touched first (rim, corner, elastic, peg)."""
        ev = self.events
        first: dict[int, str] = {}
        for e in ev[ev["kind"] == OUT]:
            first.setdefault(int(e["a"]), out_element(self.rules, int(e["b"])))
        return first

    def as_dict(self) -> dict:
        names = {STATUS_ON: "rest", STATUS_OUT: "out", STATUS_LOST: "lost"}
        pts = self.puck_points()
        by_owner: dict[str, int] = {}
        for owner, p in zip(self.owners, pts, strict=True):
            by_owner[str(int(owner))] = by_owner.get(str(int(owner)), 0) + int(p)
        out_by = self.out_by()
        discs = [
            {
                "id": i,
                "owner": int(self.owners[i]),
                "start_x": float(self.start[i, 0]),
                "start_y": float(self.start[i, 1]),
                "final_x": float(self.final[i, 0]),
                "final_y": float(self.final[i, 1]),
                "status": names.get(int(self.status[i]), "pocketed"),
                "points": int(pts[i]),
                "out_by": out_by.get(i),
            }
            for i in range(len(self.owners))
        ]
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
        return {
            "shot": {"x": self.x, "angle_deg": self.angle_deg, "speed": self.speed, "thrown": len(self.owners) - 1},
            "discs": discs,
            "events": events,
            "points": {"by_owner": by_owner, "thrown": int(pts[-1])},
        }

    def text(self) -> str:
        d = self.as_dict()
        alone = self.speed**2 / (2 * self.rules.physics.friction * self.rules.physics.gravity)
        lines = [
            f"throw: x = {self.x:+.4f} m, angle = {self.angle_deg:+.2f}°, speed = {self.speed:.3f} m/s "
            f"(alone it would slide {alone:.3f} m)"
        ]
        for disc in d["discs"]:
            tag = "thrown" if disc["id"] == len(d["discs"]) - 1 else "resting"
            where = f"({disc['final_x']:+.4f}, {disc['final_y']:.4f}) m"
            if disc["status"] == "rest":
                state = f"stops at {where}: {disc['points']} points"
            elif disc["status"] == "lost":
                state = f"lost ({disc['out_by']}), moved on and stopped at {where}: 0 points"
            else:
                state = f"out ({disc['out_by'] or disc['status']}) at {where}"
            lines.append(f"  puck {disc['id']} (seat {disc['owner']}, {tag}): {state}")
        lines.append(
            f"events: {len(d['events'])} "
            + (
                ", ".join(f"{e['kind']}@{e['time']:.3f}s" for e in d["events"][:12])
                + (" ..." if len(d["events"]) > 12 else "")
            )
        )
        lines.append(
            "points by seat: " + ", ".join(f"seat {k}: {v}" for k, v in sorted(d["points"]["by_owner"].items()))
        )
        return "\n".join(lines)

    def plot(self, path) -> None:
        from .plot import plot_shot

        plot_shot(
            self.rules,
            self.paths,
            self.owners,
            self.on,
            str(path),
            title=f"x={self.x:+.3f} m, angle={self.angle_deg:+.1f}°, speed={self.speed:.2f} m/s",
        )


def shot(rules: CurlastiqueRules, x: float | None, angle_deg: float, speed: float, state: str | None) -> ShotOutcome:
    """Simulate one throw (no execution noise) from an optional board state file.

    Args:
        x: lateral start (m), None for the axis.
        angle_deg: aim, degrees from straight ahead (counterclockwise positive).
        speed: launch speed (m/s), at most the spring's ``max_pull·√(stiffness/mass)``.
        state: path of a TOML file of pucks at rest (see the module docstring), or None.
    """
    x = 0.0 if x is None else float(x)
    lim, problems = rules.launch, []
    if not abs(x) <= lim.x_max:
        problems.append(f"--x: got {x} m; allowed: -{lim.x_max} to {lim.x_max} m (launch.x_max)")
    if not abs(angle_deg) <= lim.angle_max_deg:
        problems.append(
            f"--angle: got {angle_deg}°; allowed: -{lim.angle_max_deg} to {lim.angle_max_deg}° (launch.angle_max_deg)"
        )
    if not 0.0 <= speed <= rules.max_speed + 1e-12:
        problems.append(
            f"--speed: got {speed} m/s; allowed: 0 to {rules.max_speed:.4g} m/s "
            "(launch.max_pull·√(launch.stiffness/puck.mass))"
        )
    if problems:
        raise ConfigError(problems)
    st = load_state(rules, state) if state is not None else ShotState()
    pos = np.array([[p.x, p.y] for p in st.pucks], dtype=float).reshape(-1, 2)
    owner = np.array([p.owner for p in st.pucks], dtype=np.int64)
    free = float(free_launch_x(rules, np.array(x), pos))
    if free != x:
        raise ConfigError(
            [
                f"--x: a puck at rest lies on the start line at x = {x} m; "
                + (f"nearest free start: {free:.4f} m" if np.isfinite(free) else "no free start")
            ]
        )
    discs = discs_for(rules, pos, owner, st.thrower)
    discs.pos[-1] = (x, rules.launch_y)
    discs.vel[-1] = launch_velocity(angle_deg, speed)
    result = simulate(table(rules), physics(rules), discs, record_paths=True)
    return ShotOutcome(
        rules=rules,
        x=x,
        angle_deg=float(angle_deg),
        speed=float(speed),
        owners=discs.kind.copy(),
        start=discs.pos.copy(),
        final=result.final_pos,
        status=result.status,
        events=result.events,
        paths=result.paths,
    )
