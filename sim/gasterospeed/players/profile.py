"""The GasterospeedProfile: every number of a simulated player's skill and style as a profile key, with
its unit and bounds (the presets are in ``profiles.toml``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sim.core.config import param

__all__ = ["GasterospeedProfile"]


def _squares(default: float, doc: str, high: float = 20.0) -> float:
    return param(default, min=0.0, max=high, unit="squares", doc=doc)


@dataclass(frozen=True)
class GasterospeedProfile:
    """A simulated player: its decision rule, temperature, and the numbers of its strategy.

    Values are in squares (one square of progress = 1) unless a unit says otherwise; the
    ``value_*``, ``worth_*``, ``hand_*``, ``plan_*``, ``react_*``, ``place_*``, ``draw_*``,
    ``commit_*`` and ``shot_*`` keys are the tactician's (see :mod:`.tactician`), ``greedy_*``
    the greedy player's; ``temperature`` is both's; ``forbid`` every policy's.
    """

    policy: Literal["random", "greedy", "tactician"] = param(
        "tactician", doc="decision rule: uniform legal choices, best distance now, or tactics"
    )
    temperature: float = param(
        0.0,
        min=0.0,
        max=1000.0,
        unit="squares",
        doc="softmax temperature over the greedy or tactician scores (0: always the best)",
    )
    aggression: float = param(
        1.0,
        min=0.0,
        max=5.0,
        unit="factor",
        doc="tactician: multiplies value_opponent_weight (opponents' setbacks against own progress)",
    )
    # -- the tactician's value of a board
    value_opponent_weight: float = param(
        0.7,
        min=0.0,
        max=5.0,
        unit="squares per square",
        doc="weight of a near opponent's effective distance in the value",
    )
    value_near: float = _squares(4.0, "opponents less far than this behind its best snail count fully", 60.0)
    value_far_share: float = param(
        0.3,
        min=0.0,
        max=1.0,
        unit="fraction",
        doc="weight of the farther opponents, as a share of value_opponent_weight",
    )
    value_opponent_cap: float = _squares(12.0, "opponents' distances count up to this far behind its best snail", 100.0)
    value_one_shell: float = _squares(2.0, "added to the distance of a snail with 1 shell left (the KO risk)")
    value_two_shells: float = _squares(0.6, "added to the distance of a snail with 2 shells left")
    value_finished: float = _squares(
        4.0, "a finished snail's distance is minus this, minus value_arrival_step per place before the last", 100.0
    )
    value_arrival_step: float = param(
        3.0, min=0.0, max=100.0, unit="squares per place", doc="how much an earlier arrival is worth"
    )
    value_ko_distance: float = _squares(60.0, "the distance of a KO or out snail", 1000.0)
    value_tailwind: float = param(
        0.5,
        min=0.0,
        max=5.0,
        unit="fraction",
        doc="weight of the push ahead expected from opponents' jostles (0: ignored)",
    )
    value_shell_lost: float = param(
        4.0, min=0.0, max=100.0, unit="squares per shell", doc="shell championship: worth of a lost shell"
    )
    value_shell_ko: float = param(
        2.0,
        min=0.0,
        max=20.0,
        unit="shells",
        doc="shell championship: shells counted lost on top of all of them when KO",
    )
    value_shell_progress: float = param(
        0.2, min=0.0, max=5.0, unit="squares per step", doc="shell championship: weight of the steps still to go"
    )
    # -- what a card in hand is worth
    hand_discount: float = param(
        0.8, min=0.0, max=5.0, unit="fraction", doc="share of a card's worth in hand weighed against playing it now"
    )
    hand_horizon: float = param(
        8.0,
        min=0.0,
        min_exclusive=True,
        max=100.0,
        unit="squares",
        doc="nearer the finish than this, the hand's future counts proportionally less",
    )
    worth_last_speed: float = _squares(3.0, "worth of a snail's last speed card (kept at all costs)", 50.0)
    worth_speed_base: float = _squares(0.45, "worth of a one-square speed card")
    worth_speed_square: float = _squares(0.55, "worth of each square of a speed card beyond the first")
    worth_reaction: float = _squares(0.6, "worth of a reaction card")
    worth_move_rolled: float = param(
        0.3, min=0.0, max=5.0, unit="squares per square", doc="worth of a square of a move in a rolled direction"
    )
    worth_move_free: float = param(
        0.6, min=0.0, max=5.0, unit="squares per square", doc="worth of a square of a free move"
    )
    worth_move_aimed: float = param(
        0.85, min=0.0, max=5.0, unit="squares per square", doc="worth of a square of a straight move or a leap"
    )
    worth_behind_share: float = param(
        0.45, min=0.0, max=1.0, unit="fraction", doc="share of a move's worth when it needs to stand behind a snail"
    )
    worth_shell_gain: float = param(0.3, min=0.0, max=20.0, unit="squares per shell", doc="worth of a shell gained")
    worth_shell_loss: float = param(
        0.15, min=0.0, max=20.0, unit="squares per shell", doc="worth of a shell lost (a burn: the amount is negative)"
    )
    worth_shell_die: float = param(
        6.0, min=1.0, max=20.0, unit="faces", doc="faces of the die a shell effect's listed faces are weighed against"
    )
    worth_attack: float = _squares(0.35, "worth of a shot or a domino effect")
    # -- the look-ahead
    plan_ends: int = param(
        5, min=1, max=200, unit="ends", doc="speed-move ends whose action phase is planned (the best ones)"
    )
    plan_unplanned: float = _squares(1.0, "taken from the value of an end whose action phase is not planned", 100.0)
    plan_no_move: float = _squares(0.5, "taken from the plan of a speed card whose move is impossible", 100.0)
    plan_blocking: float = param(
        0.05,
        min=0.0,
        max=10.0,
        unit="squares per opponent",
        doc="bonus per opponent behind whose straight-ahead square it stops",
    )
    plan_slow_bias: float = param(
        0.002,
        min=0.0,
        max=1.0,
        unit="squares per speed number",
        doc="among equal plans the slowest card (moves last), the fastest to cross the line",
    )
    plan_finish_race: float = param(
        1.0,
        min=0.0,
        max=20.0,
        unit="squares per opponent",
        doc="per opponent near the line: bonus for crossing it earlier in the turn",
    )
    plan_threat_distance: int = param(
        5, min=0, max=1000, unit="squares", doc="an opponent this near the finish counts for plan_finish_race"
    )
    # -- reactions, shots
    react_keep: float = _squares(0.8, "worth of keeping a reaction card: a counter must save more")
    react_keep_last: float = _squares(1.2, "worth of keeping its only reaction card")
    react_keep_near_end: float = _squares(0.2, "worth of keeping a reaction card near the finish")
    react_near_end: int = param(
        3, min=0, max=1000, unit="squares", doc="this near the finish, react_keep_near_end applies"
    )
    shot_counter_share: float = param(
        0.5,
        min=0.0,
        max=1.0,
        unit="fraction",
        doc="how often a target that a shot would not knock out is expected to "
        "counter, as a share of the chance it holds a counter",
    )
    # -- placement, draws, the stable reserve
    place_gap: float = param(
        0.3,
        min=0.0,
        max=10.0,
        unit="squares per square",
        doc="start slot: bonus per square of distance to the nearest snail",
    )
    place_gap_cap: int = param(
        3, min=0, max=100, unit="squares", doc="start slot: the distance counted at most (also when no snail is placed)"
    )
    place_open: float = param(
        0.2,
        min=0.0,
        max=10.0,
        unit="squares per square",
        doc="start slot: bonus per open square ahead (front-left, front, front-right)",
    )
    draw_speed_squares: float = param(
        3.0,
        min=0.0,
        max=50.0,
        unit="squares per snail",
        doc="free draws: speed cards drawn while the hand holds fewer squares",
    )
    commit_danger_base: float = param(1.0, min=0.0, max=100.0, unit="danger", doc="stable reserve: danger of any race")
    commit_danger_shots: float = param(
        3.0, min=0.0, max=100.0, unit="danger", doc="stable reserve: danger of a circuit where every shot hits"
    )
    commit_danger_obstacles: float = param(
        1.0, min=0.0, max=100.0, unit="danger per shell", doc="stable reserve: danger per shell its brambles take"
    )
    commit_length_steps: float = param(
        20.0,
        min=0.0,
        min_exclusive=True,
        max=1000.0,
        unit="steps",
        doc="stable reserve: race length that adds one unit of danger",
    )
    # -- restricted play (sim.gasterospeed.restrictions)
    forbid: tuple[str, ...] = param(
        (),
        doc="action and reaction cards this player never plays (deck entry ids, as `tablesim worth "
        "gasterospeed --list` shows them): never placed as its action card, never used as a counter; "
        "the rules never force a play (an action phase always allows a discard, a counter is "
        "optional), so it discards or keeps them; the tactician plans without them and counts them "
        "worth 0 in hand",
    )
    # -- the greedy player
    greedy_counter_at: int = param(
        1, min=0, max=12, unit="shells", doc="greedy: counters a loss when it has this many shells or fewer"
    )
