"""The CurlastiqueProfile: every number of a simulated player's skill and style as a profile key, with
its unit and bounds (the presets are in ``profiles.toml``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from sim.core.config import param
from sim.dexterity import ExecutionProfile, angle_sigma, position_sigma, speed_sigma

from .families import FAMILIES

if TYPE_CHECKING:
    pass

__all__ = ["CurlastiqueProfile"]


#: The order in which families fill a candidate budget by default (then repeats).
FILL_ORDER = ("draw", "takeout", "draw", "raise", "takeout", "double", "draw", "guard")

#: The policies a profile may name.
POLICIES = ("planner", "random")


@dataclass(frozen=True)
class CurlastiqueProfile(ExecutionProfile):
    """A simulated player: its policy, execution noise, planning budget and planning style.

    Noise: the dexterity games' shared keys (:class:`~sim.dexterity.ExecutionProfile`:
    ``position_sigma_m``, ``angle_sigma_deg``, ``speed_sigma_rel``), with Curlastique's
    defaults. Lengths in m, speeds in m/s, angles in degrees. The style keys act on the planner's shot
    families (:mod:`sim.curlastique.players.families`); ``policy = "random"`` ignores all but the name.
    """

    policy: Literal["planner", "random"] = param(
        "planner",
        doc="planner (simulates candidate shots under its own noise) or random (uniform legal shots, no noise)",
    )
    position_sigma_m: float = position_sigma(0.003)
    angle_sigma_deg: float = angle_sigma(1.0)
    speed_sigma_rel: float = speed_sigma(0.03)
    candidates: int = param(24, min=1, max=1000, unit="shots", doc="candidate shots per throw")
    samples: int = param(4, min=1, max=200, unit="outcomes", doc="noisy outcomes simulated per candidate")
    families: tuple[str, ...] = param(
        FAMILIES, doc="shot families the planner may use (any of draw, takeout, raise, double, guard)"
    )
    fill_order: tuple[str, ...] = param(
        FILL_ORDER,
        doc="order in which the families' candidates fill the budget, repeated (each family's own best first)",
    )
    draw_spots_per_ring: int = param(
        8,
        min=1,
        max=64,
        unit="spots",
        doc="draw spots on the middle circle of each ring (the next ring's turned by half a step), plus the centre",
    )
    draw_spots: int = param(
        6,
        min=0,
        max=200,
        unit="spots",
        doc="free draw spots aimed at, best zone first (nearest the centre, then the axis, then the near side)",
    )
    draw_clearance: float = param(
        1.15,
        min=0.0,
        max=5.0,
        unit="puck diameters",
        doc="a draw spot is free when every resting puck's centre is farther from it than this",
    )
    draw_offset_m: float = param(
        0.09,
        min=0.0,
        max=0.38,
        unit="m",
        doc="lateral start offset of the two angled draws to each spot (one each side of the straight one)",
    )
    takeout_targets: int = param(
        3, min=0, max=20, unit="pucks", doc="opponents' scoring pucks aimed at, most points first (then farthest)"
    )
    takeout_firm_speed: float = param(
        1.2, min=0.0, max=3.0, unit="m/s", doc="impact speed of the firm take-outs (full and cut)"
    )
    takeout_soft_speed: float = param(0.6, min=0.0, max=3.0, unit="m/s", doc="impact speed of the soft take-out (full)")
    takeout_cut: float = param(
        0.6,
        min=0.0,
        max=2.0,
        unit="puck radii",
        doc="aim beside the target's centre for the two cut take-outs, each side",
    )
    raise_targets: int = param(
        3, min=0, max=20, unit="pucks", doc="own pucks below the best zone pushed towards the centre, most points first"
    )
    double_targets: int = param(
        3, min=0, max=20, unit="pucks", doc="opponents' pucks hit first in a double (the take-out order)"
    )
    double_partners: int = param(
        4, min=0, max=20, unit="pucks", doc="opponents' pucks a double may send the first one into (the take-out order)"
    )
    double_max_gap_m: float = param(
        0.2, min=0.0, max=1.2, unit="m", doc="largest distance between the two pucks of a double"
    )
    double_speed: float = param(1.6, min=0.0, max=3.0, unit="m/s", doc="impact speed of a double")
    guard_distances_m: tuple[float, ...] = param(
        (0.16, 0.24),
        min=0.0,
        max=1.0,
        unit="m",
        doc="guards stop this far short of the side's best puck (of the target centre if none)",
    )
    jitter_x_m: float = param(
        0.01,
        min=0.0,
        max=0.38,
        unit="m",
        doc="σ of the start of the jittered copies that fill a budget the families leave",
    )
    jitter_angle_deg: float = param(1.0, min=0.0, max=30.0, unit="deg", doc="σ of their aim angle")
    jitter_speed_rel: float = param(
        0.03, min=0.0, max=1.0, unit="fraction of the speed", doc="σ of their speed, relative"
    )
    fallback_speed: tuple[float, float] = param(
        (0.3, 1.0),
        min=0.0,
        max=3.0,
        length=2,
        unit="fraction of the draw speed to the target centre",
        doc="range of the uniform speeds of random shots thrown when no family offers a shot forbid allows",
    )
    forbid: tuple[str, ...] = param(
        (),
        doc="choices never made (restricted play, sim.curlastique.restrictions): zone.<ring> "
        "(1 the innermost) never aimed at, shot.<family> never chosen; the planner picks "
        "among the other candidates, or, when a throw has none, among its random shots "
        "(fallback_speed: of no family, aimed at no zone); a random player aims at nothing",
    )

    def problems(self) -> list[tuple[str, str]]:
        for key in ("families", "fill_order"):
            bad = [f for f in getattr(self, key) if f not in FAMILIES]
            if bad:
                return [(key, f"unknown family {bad[0]!r}; allowed: {', '.join(FAMILIES)}")]
        if self.policy == "planner" and not self.families:
            return [("families", "a planner needs at least one family; allowed: " + ", ".join(FAMILIES))]
        if self.policy == "planner" and not set(self.families) & set(self.fill_order):
            return [
                (
                    "fill_order",
                    "names none of the profile's families, so no candidate would be "
                    f"considered; allowed: {', '.join(FAMILIES)}",
                )
            ]
        if self.fallback_speed[0] > self.fallback_speed[1]:
            return [("fallback_speed", f"got {list(self.fallback_speed)}; allowed: [low, high] with low <= high")]
        return []
