"""Stop each cell of an experiment as soon as its question is answered (``[stopping]``).

An experiment file may ask each cell (variant × line-up) one or more questions::

    [stopping]
    fairness = 0.02        # is every seat's share of the decided matches within 1/n ± 0.02?
    effect = "seat 0"      # which way does each variant move this win rate ("seat N" or a profile)?
    effect_margin = 0.02   # ... or is the effect shown to lie within ±2 points?
    half_width = 0.03      # play until every seat's anytime-valid interval is this narrow
    alpha = 0.05           # the chance that any verdict of the experiment is wrong
    max_matches = 20000    # cap per cell
    step = 0               # matches between looks (0: one chunk, in whole seat rotations)

The run looks after every ``step`` matches of the cells still playing; a cell stops when each
of its questions is answered, a baseline plays on while a variant of its line-up does (effects
are paired on common seeds). Every answer comes from a confidence sequence over seeds
(:mod:`sim.core.sequential`), so it holds however often the run looked: the verdicts of the
whole experiment are wrong with probability at most ``alpha`` (Bonferroni over its claims:
each cell's fairness verdict, each variant's effect sign; within a fairness claim over the seats).

The looks happen at fixed match counts (``matches``, ``matches + step``, ...) and each look reads
only the matches below its count, so a rerun (or a resume after an interruption) makes the very
same decisions and plays no match twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .config import param
from .runner import MAX_MATCHES, Cell, run_cells
from .sequential import BettingSequence

__all__ = [
    "Stopping",
    "Question",
    "CellAnswer",
    "CellMemory",
    "questions_of",
    "answer_cell",
    "seat_observations",
    "effect_observations",
    "Looks",
    "play_until_answered",
    "PLAYER_COLUMNS",
]

#: The players-table columns the answers read.
PLAYER_COLUMNS = ("variant", "lineup", "match", "seat", "profile", "won", "seed")


@dataclass(frozen=True)
class Stopping:
    """The ``[stopping]`` table of an experiment file (all questions off by default)."""

    fairness: float = param(
        0.0, min=0.0, max=0.5, doc="half-width δ of the fair band 1/n ± δ, as a proportion (0 = do not ask)"
    )
    effect: str = param(
        "", doc='the win rate whose effect sign each variant is asked: "seat N" or a profile ("" = do not ask)'
    )
    effect_margin: float = param(
        0.02,
        min=0.0,
        max=0.5,
        doc="an effect shown inside ± this (proportion) is answered as negligible (0 = only a sign answers)",
    )
    half_width: float = param(
        0.0, min=0.0, max=0.5, doc="every seat's anytime-valid half-width to reach (proportion; 0 = do not ask)"
    )
    alpha: float = param(0.05, min=1e-6, max=0.5, doc="chance that any verdict of the experiment is wrong")
    max_matches: int = param(20000, min=1, max=MAX_MATCHES, doc="cap on matches per cell")
    step: int = param(0, min=0, max=MAX_MATCHES, doc="matches between looks (0 = one chunk)")

    @property
    def active(self) -> bool:
        """Whether any question is asked."""
        return self.fairness > 0 or bool(self.effect) or self.half_width > 0


@dataclass(frozen=True)
class Question:
    """One question of one cell: ``kind`` is fairness, effect or half_width; ``alpha`` its share."""

    kind: str
    alpha: float
    target: str = ""  # the effect's rate: "seat N" or a profile


@dataclass
class CellAnswer:
    """Where a cell stands at a look: each question's answer ("" while open) and its interval."""

    matches: int
    answers: dict[str, str] = field(default_factory=dict)
    intervals: dict[str, list[float]] = field(default_factory=dict)

    @property
    def answered(self) -> bool:
        """Every question of the cell has its answer."""
        return all(self.answers.values())

    def reason(self, answered_at: dict[str, int] | None = None) -> str:
        """Why the cell stopped (or plays on), in words; ``answered_at`` adds where each answer came."""
        at = answered_at or {}
        if not self.answers:
            return "no question is asked of this cell (fairness needs seat rotation or one profile in every seat)"
        done = [
            f"{kind}: {answer}" + (f" at {at[kind]:,} matches" if kind in at else "")
            for kind, answer in self.answers.items()
            if answer
        ]
        open_ = [kind for kind, answer in self.answers.items() if not answer]
        text = "; ".join(done) if done else "no question answered"
        return text + (f" (open: {', '.join(open_)})" if open_ else "")


def _effect_target(effect: str) -> tuple[str, int | str]:
    """("seat", N) for "seat N", else ("profile", name)."""
    words = effect.split()
    if len(words) == 2 and words[0] == "seat" and words[1].isdigit():
        return "seat", int(words[1])
    return "profile", effect


def questions_of(stopping: Stopping, cells, baseline: str) -> dict[tuple[str, str], list[Question]]:
    """Every cell's questions with its share of α (Bonferroni over the experiment's claims).

    Fairness is asked of a cell whose seats can be judged (seat rotation, or one profile in
    every seat); an effect of every variant cell whose line-up holds the rate asked about.
    """
    claims: dict[tuple[str, str], list[str]] = {}
    for cell in cells:
        kinds = []
        profiles = {p.name for p in cell.players}
        if stopping.fairness > 0 and (cell.rotate_seats or len(profiles) == 1):
            kinds.append("fairness")
        if stopping.effect and cell.variant != baseline:
            kind, target = _effect_target(stopping.effect)
            if (kind == "seat" and target < len(cell.players)) or (kind == "profile" and target in profiles):
                kinds.append("effect")
        claims[(cell.variant, cell.lineup)] = kinds
    total = max(1, sum(len(kinds) for kinds in claims.values()))
    share = stopping.alpha / total
    out = {}
    for key, kinds in claims.items():
        out[key] = [Question(kind, share, stopping.effect if kind == "effect" else "") for kind in kinds]
        if stopping.half_width > 0:
            out[key].append(Question("half_width", stopping.alpha))
    return out


def seat_observations(players: pd.DataFrame) -> dict[int, np.ndarray]:
    """Each seat's share of the decided matches of every seed (seeds in order; undecided seeds left out)."""
    rows = players[["seed", "match", "seat", "won"]]
    decided = rows.groupby("match")["won"].transform("any")
    rows = rows[decided]
    if rows.empty:
        return {}
    wins = rows.pivot_table(index="seed", columns="seat", values="won", aggfunc="sum", fill_value=0)
    per_seed = rows.groupby("seed")["match"].nunique().reindex(wins.index)
    shares = wins.div(per_seed, axis=0)
    return {int(seat): shares[seat].to_numpy(float) for seat in shares.columns}


def effect_observations(variant: pd.DataFrame, baseline: pd.DataFrame, target: str) -> np.ndarray:
    """Per seed, the variant's minus the baseline's win rate of ``target``, mapped to [0, 1] as (d + 1)/2."""
    kind, value = _effect_target(target)
    pick = (lambda t: t[t["seat"] == value]) if kind == "seat" else (lambda t: t[t["profile"] == value])
    v, b = pick(variant), pick(baseline)
    paired = v.merge(b, on=["match", "seat"], suffixes=("_v", "_b"))
    if paired.empty:
        return np.zeros(0)
    difference = paired["won_v"].astype(float) - paired["won_b"].astype(float)
    per_seed = difference.groupby(paired["seed_v"], sort=True).mean()
    return ((per_seed + 1) / 2).to_numpy(float)


@dataclass
class CellMemory:
    """A cell's confidence sequences, extended look by look with the seeds new since the last."""

    sequences: dict[tuple, BettingSequence] = field(default_factory=dict)

    def extend(self, key: tuple, alpha: float, values) -> BettingSequence:
        """The sequence named ``key`` (made at level ``alpha`` on first use), extended by ``values``."""
        return self.sequences.setdefault(key, BettingSequence(alpha)).extend(values)

    def seats(self, kind: str) -> list[BettingSequence]:
        """The per-seat sequences of a question, in seat order."""
        return [self.sequences[key] for key in sorted(k for k in self.sequences if k[0] == kind and len(k) == 2)]


def _fairness(players: pd.DataFrame, margin: float, alpha: float, memory: CellMemory) -> tuple[str, list[float]]:
    shares = seat_observations(players)
    for seat, x in shares.items():
        memory.extend(("fairness", seat), alpha / len(shares), x)
    intervals = [seq.interval() for seq in memory.seats("fairness")]
    seats = len(intervals)
    if seats < 2:
        return "", []
    low_band, high_band = 1 / seats - margin, 1 / seats + margin
    widest = max(intervals, key=lambda r: abs(r.mean - 1 / seats))
    if any(r.high < low_band or r.low > high_band for r in intervals):
        return "unfair", [widest.low, widest.high]
    if all(low_band < r.low and r.high < high_band for r in intervals):
        return "fair", [widest.low, widest.high]
    return "", [widest.low, widest.high]


def _effect(
    variant: pd.DataFrame, baseline: pd.DataFrame, target: str, alpha: float, margin: float, memory: CellMemory
) -> tuple[str, list[float]]:
    r = memory.extend(("effect",), alpha, effect_observations(variant, baseline, target)).interval()
    low, high = 2 * r.low - 1, 2 * r.high - 1
    if low > 0:
        return "raises", [low, high]
    if high < 0:
        return "lowers", [low, high]
    if -margin < low and high < margin:
        return f"within ±{100 * margin:g} points", [low, high]
    return "", [low, high]


def _half_width(players: pd.DataFrame, target: float, alpha: float, memory: CellMemory) -> tuple[str, list[float]]:
    for seat, x in seat_observations(players).items():
        memory.extend(("half_width", seat), alpha, x)
    widths = [seq.interval().half_width for seq in memory.seats("half_width")]
    if not widths:
        return "", []
    return ("reached" if max(widths) <= target else ""), [max(widths)]


def answer_cell(
    questions: list[Question],
    stopping: Stopping,
    players: pd.DataFrame,
    baseline_players: pd.DataFrame | None,
    matches: int,
    memory: CellMemory | None = None,
) -> CellAnswer:
    """Each question of a cell answered (or not) from its first ``matches`` matches.

    ``players`` and ``baseline_players`` hold the cell's and its line-up's baseline rows of the
    players table below ``matches`` that ``memory`` has not seen yet (every row when it is
    None: a fresh memory); whole seeds only, as the looks fall on whole rotations.
    """
    memory = CellMemory() if memory is None else memory
    answer = CellAnswer(matches)
    for q in questions:
        if q.kind == "fairness":
            verdict, bounds = _fairness(players, stopping.fairness, q.alpha, memory)
        elif q.kind == "effect":
            verdict, bounds = (
                ("", [])
                if baseline_players is None
                else _effect(players, baseline_players, q.target, q.alpha, stopping.effect_margin, memory)
            )
        else:
            verdict, bounds = _half_width(players, stopping.half_width, q.alpha, memory)
        answer.answers[q.kind], answer.intervals[q.kind] = verdict, bounds
    return answer


@dataclass(frozen=True)
class Looks:
    """What a run under a stopping rule plays: the cells, the rule, and where its looks fall.

    Attributes:
        spec: the game. cells: the cells (variant × line-up) to play.
        rule: the questions, their α and the cap (``rule.max_matches``).
        first: matches at the first look; step: matches between two looks (whole rotations).
        seed: the root seed. chunk_size: matches per task.
        baseline: the variant the effects are measured against.
    """

    spec: Any
    cells: Sequence[Cell]
    rule: Stopping
    first: int
    step: int
    seed: int
    chunk_size: int
    baseline: str = "baseline"


def play_until_answered(
    looks: Looks,
    store,
    on_look: Callable[[list[dict]], None] | None = None,
    kept: dict[str, list[pd.DataFrame]] | None = None,
    **options,
) -> list[dict]:
    """Play the cells from ``looks.first`` matches in looks of ``looks.step`` until each is answered or capped.

    At each look (``first``, ``first + step``, ... up to ``rule.max_matches``) every cell still
    playing is answered from its matches below the look's count; a cell stops once answered,
    a baseline (variant ``baseline``) plays on while a variant of its line-up does. Each look
    reads only the new chunks (from ``store``, or from what :func:`run_cells` returns without
    one). ``on_look`` receives the stop records so far after every look; without a store,
    ``kept`` (table name → frames) collects every table played.

    Returns:
        one record per cell, in the order of ``cells``: ``variant``, ``lineup``, ``matches``
        (where it stopped), ``answers``, ``answered_at`` (the matches at the first look that
        answered each question) and ``intervals`` per question, ``reason``.
    """
    spec, cells, rule, baseline, seed, chunk_size = (
        looks.spec,
        looks.cells,
        looks.rule,
        looks.baseline,
        looks.seed,
        looks.chunk_size,
    )
    questions = questions_of(rule, cells, baseline)
    count, active, records = min(looks.first, rule.max_matches), list(cells), {}
    answered_at: dict[tuple[str, str], dict[str, int]] = {}
    memories = {(cell.variant, cell.lineup): CellMemory() for cell in cells}
    seen: set[str] = set()
    pending: pd.DataFrame | None = None  # rows read, not yet given to the sequences
    played = 0
    while True:
        tables = run_cells(
            spec,
            active,
            count,
            seed,
            chunk_size=chunk_size,
            store=store,
            read_back=False,
            start=0 if store is not None else played,
            **options,
        )
        if store is not None:
            new = store.read_new("players", seen, PLAYER_COLUMNS)
        else:
            new = [tables["players"][list(PLAYER_COLUMNS)]]
            for name, frame in tables.items() if kept is not None else ():
                kept.setdefault(name, []).append(frame)
        played = count
        if new:
            pending = pd.concat([*([] if pending is None else [pending]), *new], ignore_index=True)
        if pending is None:
            pending = pd.DataFrame(columns=PLAYER_COLUMNS)
        due = pending["match"] < count  # the matches of this look, in whole seeds
        players, pending = pending[due], pending[~due]
        rows = dict(iter(players.groupby(["variant", "lineup"], sort=False)))
        empty = players.iloc[:0]
        answers = {}
        for cell in active:
            key = (cell.variant, cell.lineup)
            base = rows.get((baseline, cell.lineup), empty) if cell.variant != baseline else None
            answers[key] = answer_cell(questions[key], rule, rows.get(key, empty), base, count, memories[key])
        for key, answer in answers.items():
            for kind, verdict in answer.answers.items():
                if verdict:
                    answered_at.setdefault(key, {}).setdefault(kind, count)
        playing = {key for key, answer in answers.items() if not answer.answered}
        playing |= {(baseline, lineup) for variant, lineup in playing if variant != baseline}
        capped = count >= rule.max_matches
        for key, answer in answers.items():
            if key not in playing or capped:
                said = answer.reason(answered_at.get(key))
                reason = said if answer.answered else f"reached max_matches: {said}"
                if answer.answered and key in playing:
                    reason += "; played on for the variants of its line-up"
                records[key] = {
                    "variant": key[0],
                    "lineup": key[1],
                    "matches": count,
                    "answers": answer.answers,
                    "answered_at": answered_at.get(key, {}),
                    "intervals": answer.intervals,
                    "reason": reason,
                }
        active = [] if capped else [cell for cell in active if (cell.variant, cell.lineup) in playing]
        if on_look is not None:
            on_look(list(records.values()))
        if not active:
            break
        count = min(rule.max_matches, count + looks.step)
    return [records[(cell.variant, cell.lineup)] for cell in cells]
