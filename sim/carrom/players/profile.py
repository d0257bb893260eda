"""The CarromProfile: every number of a simulated player's skill and style as a profile key, with
its unit and bounds (the presets are in ``profiles.toml``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sim.core.config import param
from sim.dexterity import ExecutionProfile, angle_sigma, position_sigma, speed_sigma

from ..restrictions import break_problem

__all__ = ["CarromProfile"]


def _value(default: float, doc: str, unit: str = "coins", lo: float = -100.0, hi: float = 100.0):
    return param(default, min=lo, max=hi, unit=unit, doc=doc)


@dataclass(frozen=True)
class CarromProfile(ExecutionProfile):
    """A simulated carrom player: noise (skill), planning budget and style.

    Noise (:class:`~sim.dexterity.ExecutionProfile`): ``position_sigma_m``,
    ``angle_sigma_deg``, ``speed_sigma_rel``. Budget: ``candidates``, ``samples``,
    ``screen_samples``, ``finalists``. The other keys shape which strokes are tried, how pots
    are estimated before simulating (``max_cut_deg`` ... ``bank_shift``, see
    :mod:`sim.carrom.players.aim`) and how outcomes are valued (``value_*``, in coins: an own coin
    pocketed = 1). ``forbid``: shot kinds and break variants never tried (:mod:`sim.carrom.restrictions`).
    ``random_*`` apply to ``policy = "random"`` only.
    """

    policy: Literal["planner", "random"] = param("planner", doc="planner (geometry + simulation) or random")
    position_sigma_m: float = position_sigma(0.002)
    angle_sigma_deg: float = angle_sigma(0.8)
    speed_sigma_rel: float = speed_sigma(0.06)
    # -- planning budget
    candidates: int = param(12, min=1, max=200, unit="strokes", doc="strokes simulated per decision")
    samples: int = param(
        4, min=1, max=100, unit="simulations", doc="noisy simulations of each finalist (its mean value decides)"
    )
    screen_samples: int = param(
        100,
        min=1,
        max=100,
        unit="simulations",
        doc="noisy simulations of every candidate before the best are kept "
        "(>= samples, the default: no screening, every candidate gets samples)",
    )
    finalists: int = param(
        4, min=1, max=200, unit="strokes", doc="candidates kept after the screening, simulated up to samples"
    )
    safety: bool = param(True, doc="weigh the pot the next seat is left when the turn passes")
    push_share: float = param(
        0.25,
        min=0.0,
        max=1.0,
        unit="fraction of candidates",
        doc="share of the candidate budget given to straight pushes (rounded down)",
    )
    push_min: int = param(
        1, min=0, max=50, unit="strokes", doc="pushes tried at least (when the budget leaves room for a pot)"
    )
    push_travel_m: tuple[float, ...] = param(
        (0.25, 0.08), min=0.0, max=1.0, unit="m", doc="how far a push sends its coin, one stroke each"
    )
    # -- candidate strokes
    aim_grid_m: float = param(
        0.035, min=0.005, max=0.5, unit="m", doc="spacing of the striker positions tried for each pot"
    )
    rebounds: bool = param(True, doc="also plan the striker off one cushion")
    pot_min_prior: float = param(
        1e-4, min=0.0, max=1.0, unit="probability", doc="pots less likely than this are not candidates"
    )
    rank_worth_floor: float = param(
        0.1, min=0.0, max=10.0, unit="coins", doc="least worth of a target when ranking pots (prior × worth)"
    )
    rank_cover_factor: float = param(
        3.0, min=0.0, max=20.0, unit="factor", doc="worth of a coin that covers the pending queen, × its value"
    )
    rank_last_coin_unlocks: float = param(
        0.6, min=0.0, max=10.0, unit="coins", doc="worth of one's last coin before the queen when it opens the queen"
    )
    rank_last_coin_waits: float = param(
        0.05, min=0.0, max=10.0, unit="coins", doc="worth of one's last coin before the queen otherwise"
    )
    break_offsets_m: tuple[float, ...] = param(
        (0.0, 0.04, -0.04, 0.08, -0.08, 0.12, -0.12),
        min=-0.3,
        max=0.3,
        unit="m",
        doc="striker positions tried on the break",
    )
    break_aims: tuple[float, ...] = param(
        (0.0, 1.0, -1.0),
        min=-10.0,
        max=10.0,
        unit="coin radii",
        doc="break aim points, across the queen (0: its centre)",
    )
    break_speeds: tuple[float, ...] = param(
        (4.5, 3.5, 5.5), min=0.1, max=20.0, unit="m/s", doc="break speeds tried (capped at striker.max_speed)"
    )
    break_plan: Literal["each_board", "once_per_match", "rehearsed"] = param(
        "each_board",
        doc="each_board: the break is planned on every board (the grid's first `candidates` "
        "breaks simulated); once_per_match: planned on the seat's first break of the match, "
        "then played again (the board starts the same); rehearsed: rehearsed_break_*, "
        "never simulated (benchmarks/carrom_rehearse.py finds one)",
    )
    rehearsed_break_offset_m: float = param(
        0.0, min=-0.3, max=0.3, unit="m", doc="the rehearsed break's striker position (break_plan = rehearsed)"
    )
    rehearsed_break_aim: float = param(
        0.0,
        min=-10.0,
        max=10.0,
        unit="coin radii",
        doc="the rehearsed break's aim point, across the queen (0: its centre)",
    )
    rehearsed_break_speed: float = param(
        4.5, min=0.1, max=20.0, unit="m/s", doc="the rehearsed break's speed (capped at striker.max_speed)"
    )
    # -- the pot estimate (aim.py)
    max_cut_deg: float = param(80.0, min=0.0, max=89.0, unit="deg", doc="thinnest cut tried")
    coin_speed_factor: float = param(
        1.15, min=1.0, max=5.0, unit="factor", doc="coin speed planned, × the least speed that reaches the pocket"
    )
    coin_speed_margin: float = param(0.2, min=0.0, max=5.0, unit="m/s", doc="added to that coin speed")
    pot_depth: float = param(
        0.7, min=0.0, max=1.0, unit="capture radii", doc="how far past the pocket's edge the coin must roll to drop"
    )
    pot_aperture: float = param(
        0.9,
        min=0.0,
        max=1.0,
        min_exclusive=True,
        unit="capture radii",
        doc="half-width of the pocket the player counts on",
    )
    rebound_prior_factor: float = param(
        0.85, min=0.0, max=1.0, unit="factor", doc="pot estimate of a striker rebound, × the analytic one"
    )
    rebound_pocket_clearance: float = param(
        2.5, min=0.0, max=10.0, unit="pocket radii", doc="a cushion bounce stays this far from the pockets"
    )
    bank_shift: float = param(
        0.5, min=0.0, max=0.9, unit="capture radii", doc="steep banks aim this far inside the pocket's centre"
    )
    # -- the value of an outcome (value.py), in coins
    value_opponent_coin: float = _value(-0.8, "an opponent's coin pocketed (it counts for them)")
    value_queen_covered: float = _value(1.0, "queen pocketed and covered in the stroke", "× queen value")
    value_queen_pending: float = _value(0.5, "queen pocketed, its cover still to make", "× queen value")
    value_queen_wasted: float = _value(-0.3, "queen pocketed but returned")
    value_cover_made: float = _value(3.0, "the pending queen covered (also: × the next pot's worth)")
    value_cover_missed: float = _value(-2.0, "the pending queen goes back")
    value_due: float = _value(-1.5, "striker pocketed (a due)")
    value_practice_due: float = _value(-0.5, "striker pocketed in solo practice (a wasted stroke; no rules)")
    value_board_won: float = _value(8.0, "last own coin down with the queen covered")
    value_last_coin_penalty: float = _value(-6.0, "a board lost on a last coin (ICF 106-107)")
    value_last_coin_returned: float = _value(-0.6, "family rules: one's last coin comes back")
    value_last_coin_wait: float = _value(
        0.1, "next pot's worth of a last coin that must wait for the queen", "factor", 0.0, 1.0
    )
    value_next_pot_self: float = _value(1.0, "× the best pot the player keeps when its turn continues", "factor")
    value_next_pot_opponent: float = _value(-1.0, "× the best pot the next seat gets (safety)", "factor")
    value_opponent_queen: float = _value(1.5, "worth to the next seat of potting the queen, when it may")
    position_grid_m: float = param(
        0.09, min=0.005, max=0.5, unit="m", doc="spacing of the striker positions tried when valuing a position"
    )
    position_good_enough: float = param(
        0.9, min=0.0, max=1.0, unit="fraction", doc="a position's search stops at a pot this good × the best target"
    )
    # -- restricted play (sim.carrom.restrictions)
    forbid: tuple[str, ...] = param(
        (),
        doc="shot kinds and break variants never played (shot.cut, shot.rebound, shot.bank, shot.queen, "
        "shot.push; break.centre: aimed at the queen's centre, break.cut: aimed off it, "
        "break.off_centre: from off the base line's centre): they are not candidates; with every pot "
        "and push forbidden, the stroke is the planner's last resort, a firm stroke through the middle; "
        "a rehearsed break of a forbidden variant is planned from the allowed grid once per match; "
        "a profile that leaves no break is refused",
    )
    # -- the random player
    random_max_angle_deg: float = param(80.0, min=0.0, max=90.0, unit="deg", doc="random aims within ±this")
    random_min_speed: float = param(0.3, min=0.0, max=20.0, unit="m/s", doc="slowest random stroke")
    random_max_speed_share: float = param(
        0.8, min=0.0, max=1.0, unit="fraction of striker.max_speed", doc="fastest random stroke"
    )

    def problems(self) -> list[tuple[str, str]]:
        empty = [
            (name, "needs at least one value")
            for name in ("break_offsets_m", "break_aims", "break_speeds")
            if not getattr(self, name)
        ]
        if empty:
            return empty
        no_break = break_problem(self)  # every break of the grid forbidden: the break must be played
        return [] if no_break is None else [("forbid", no_break)]
