"""The report's summary in plain sentences, from an :class:`~analysis.analyse.Analysis`.

Each sentence states an estimate with its interval, says which interval it is (its level, and
whether it is simultaneous or adjusted), and for a variant effect gives its p-value after the
multiplicity correction, e.g. "In line-up club-4p, bullseye-150 raises seat 0's win rate (first
to play) by 4.1 percentage points [2.3, 5.9] (99.2 % adjusted interval; 31.0 % → 35.1 %;
p < 0.001 after Holm)." When the results directory lacks planned matches, the overview's first
sentence says so (:class:`sim.core.completeness.Completeness`).
"""

from __future__ import annotations

import math

import pandas as pd

from .analyse import Analysis
from .effects import adjusted_level
from .results import BASELINE

__all__ = [
    "pct",
    "pval",
    "number",
    "digits_for",
    "level_text",
    "adjusted_level",
    "effect_sentence",
    "fairness_sentence",
    "summary_blocks",
    "summary_sentences",
    "CORRECTION_NAMES",
]

CORRECTION_NAMES = {"holm": "Holm", "fdr_bh": "Benjamini–Hochberg"}
#: At most this many effect sentences per variant and line-up (the table has them all).
MAX_EFFECTS = 4


def pct(value: float, digits: int = 1) -> str:
    """A proportion as a percentage (``0.3125`` → ``"31.2 %"``); NaN → ``"—"``."""
    return "—" if value is None or math.isnan(value) else f"{100 * value:.{digits}f} %"


def digits_for(value: float) -> int:
    """Decimals that show ``value`` with about 3 significant digits (0 from 100 up)."""
    magnitude = abs(value) if value is not None and not math.isnan(value) else 1.0
    return 0 if magnitude >= 100 else 1 if magnitude >= 10 else 2 if magnitude >= 1 else 3


def number(value: float, digits: int | None = None) -> str:
    """A number with sensible digits (about 3 significant); NaN → ``"—"``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    digits = digits_for(value) if digits is None else digits
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.00"


def pval(p: float) -> str:
    """``"p < 0.001"`` or ``"p = 0.012"`` (two significant digits); NaN → ``"p = —"``."""
    if p is None or math.isnan(p):
        return "p = —"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.2g}" if p < 0.1 else f"p = {p:.2f}"


def _interval(low: float, high: float, scale: float, digits: int | None) -> str:
    return f"[{number(scale * low, digits)}, {number(scale * high, digits)}]"


def level_text(level: float) -> str:
    """A coverage level as a percentage with no trailing zeros (``0.9875`` → ``"98.75 %"``).

    >>> level_text(0.95), level_text(0.9875), level_text(1 - 0.05 / 3)
    ('95 %', '98.75 %', '98.33 %')
    """
    return f"{100 * level:.2f}".rstrip("0").rstrip(".") + " %"


def _adjusted_label(p: float, p_adjusted: float, alpha: float) -> str:
    """``"99.2 % adjusted interval"`` (or ``"adjusted interval"`` if its level is unknown)."""
    level = adjusted_level(p, p_adjusted, alpha)
    return "adjusted interval" if math.isnan(level) else f"{level_text(level)} adjusted interval"


def effect_sentence(
    row, correction: str = "holm", with_lineup: bool = True, alpha: float = 0.05, lengths: tuple[str, ...] = ("rounds",)
) -> str:
    """One variant effect (a row of :func:`analysis.effects.variant_effects`) as a sentence;
    an effect on one of the ``lengths`` columns lengthens or shortens, the others raise or lower.

    The interval is the adjusted one, consistent with the adjusted p-value it stands beside,
    and the sentence gives its level (1 − α·p/p_adjusted).
    """
    up = row.effect > 0
    magnitude = abs(row.effect)
    # the interval that matches the adjusted p-value beside it (excludes 0 ⇔ adjusted p < α)
    first, last = (getattr(row, "ci_low_adjusted", row.ci_low), getattr(row, "ci_high_adjusted", row.ci_high))
    low, high = (first, last) if up else (-last, -first)
    if row.binary:
        verb = "raises" if up else "lowers"
        amount = f"{100 * magnitude:.1f} percentage points {_interval(low, high, 100, 1)}"
        change = f"{pct(row.base)} → {pct(row.value)}"
    else:
        verb = ("lengthens" if up else "shortens") if row.outcome in lengths else ("raises" if up else "lowers")
        digits = digits_for(magnitude)
        amount = f"{number(magnitude, digits)} {row.unit} {_interval(low, high, 1, digits)}"
        change = f"{number(row.base)} → {number(row.value)} {row.unit}"
    where = f"In line-up {row.lineup}, " if with_lineup else ""
    subject = f"variant {row.variant}" if where else f"Variant {row.variant}"
    possessive = row.outcome.startswith(("seat", "team", "profile_won:"))
    label = row.label if possessive else f"the {row.label}"
    return (
        f"{where}{subject} {verb} {label} by {amount} ({_adjusted_label(row.p, row.p_adjusted, alpha)}; "
        f"{change}; {pval(row.p_adjusted)} after {CORRECTION_NAMES.get(correction, correction)})."
    )


def fairness_sentence(
    seats: pd.DataFrame, verdict: str, lineup: str, variant: str = BASELINE, family: int = 1, alpha: float = 0.05
) -> str:
    """The fairness verdict of one cell (its rows of :func:`analysis.fairness.seat_fairness`).

    ``family`` is the number of cells judged together (the verdicts are family-wise).
    """
    unit = seats["unit"].iloc[0]
    target, margin = float(seats["target"].iloc[0]), float(seats["margin"].iloc[0])
    band = f"{100 * target:.1f} ± {100 * margin:.0f} points"
    worst = seats.iloc[(seats["share"] - target).abs().argmax()]
    level = f"{level_text(float(worst['ci_level']))} family-wise interval" if "ci_level" in worst else "interval"
    worst_text = (
        f"{unit} {int(worst['id'])} wins {pct(worst['share'])} of the decided matches, {level} "
        f"[{100 * worst['ci_low']:.1f}, {100 * worst['ci_high']:.1f}]"
    )
    rules = "" if variant == BASELINE else f" under {variant}"
    control = (
        f"TOST, α = {alpha:g}"
        if family <= 1
        else f"TOST; α = {alpha:g} family-wise over the {family} line-ups of this report, Holm–Shaffer"
    )
    if verdict == "fair":
        return (
            f"Line-up {lineup} is fair by {unit}{rules}: every {unit}'s share of the decided "
            f"matches is shown to lie within {band} ({control})."
        )
    if verdict == "unfair":
        return f"Line-up {lineup} is not fair{rules}: {worst_text}, outside the fair band {band}."
    if verdict == "small bias":
        return (
            f"Line-up {lineup} has a detectable {unit} bias{rules}: {worst_text} (fair: "
            f"{pct(target)}), though it is not shown to leave the band {band}."
        )
    if verdict == "not applicable":
        return (
            f"Line-up {lineup} mixes profiles without seat rotation, so seat and skill are "
            f"confounded: no fairness verdict."
        )
    needed = int(seats["matches_needed"].max())
    return (
        f"Line-up {lineup}{rules}: no {unit} is shown to be unfair ({worst_text}), but "
        f"{int(seats['decided'].iloc[0])} decided matches are too few to show fairness within "
        f"{band}; about {needed:,} would give an exactly fair line-up an 80 % chance to be shown "
        f"fair (every {unit} at once)."
    )


def _overview(analysis: Analysis) -> str:
    results = analysis.results
    matches = results.tables["matches"]
    per_cell = matches.groupby(["variant", "lineup"]).size()
    n = int(per_cell.max()) if len(per_cell) else 0
    fewest = int(per_cell.min()) if len(per_cell) else 0
    each = f"{n:,} matches each" if fewest == n else f"{fewest:,} to {n:,} matches each"
    seeds = int(matches.groupby(["variant", "lineup"])["seed"].nunique().max()) if "seed" in matches else n
    rotated = seeds < n
    if results.kind == "experiment" or analysis.has_variants:
        variants = [v for v in results.variants if v != BASELINE]
        text = (
            f"{results.title}: {len(variants)} variant{'s' if len(variants) != 1 else ''} "
            f"({', '.join(variants) or 'none'}) against the baseline rules on "
            f"{len(results.lineups)} line-up{'s' if len(results.lineups) != 1 else ''}, "
            f"{each}; every variant replays the baseline's seeds (common random "
            f"numbers), so effects are paired differences."
        )
    else:
        text = f"{results.title}: {n:,} matches of line-up {', '.join(results.lineups)}."
    if rotated:
        text += f" Each of the {seeds:,} seeds is played under every rotation of the seats."
    return text


def _length_sentence(analysis: Analysis, lineup: str, variant: str = BASELINE) -> str | None:
    """The game's declared length (``GameSpec.length``) in one sentence; a constant said as one."""
    from .length import constant_length, constant_sentence, length_of, length_table

    results = analysis.results
    constant = constant_length(results, lineup, variant)
    if constant is not None:
        return constant_sentence(results, constant)
    lengths = length_table(analysis)
    rows = lengths[(lengths["lineup"] == lineup) & (lengths["variant"] == variant)]
    if rows.empty:
        return None
    row = rows.iloc[0]
    length = length_of(results)
    capped = f"{pct(row['capped'])} were stopped by the cap" if row["capped"] > 0 else "none hit the cap"
    subject = "Matches last" if length.column == "rounds" else f"The {length.label} is"
    level = level_text(analysis.options.confidence)
    return (
        f"{subject} {number(row['mean'])} {length.unit} on average "
        f"[{number(row['ci_low'])}, {number(row['ci_high'])}] ({level} CI; median {number(row['median'])}); "
        f"{capped}."
    )


def _game_effect_sentences(analysis: Analysis, lineup: str, variant: str) -> list[str]:
    """The variant's significant effects on the game's own metrics (strongest evidence first)."""
    from .game_effects import game_metric_effects

    effects = getattr(analysis, "_game_effects", None)
    if effects is None:
        effects = game_metric_effects(analysis)
        analysis._game_effects = effects
    rows = effects[
        (effects["lineup"] == lineup)
        & (effects["variant"] == variant)
        & (effects["p_adjusted"] < analysis.options.alpha)
    ].sort_values("p", kind="stable")
    name = CORRECTION_NAMES.get(analysis.options.correction, analysis.options.correction)
    out = []
    for row in rows.head(MAX_EFFECTS).itertuples(index=False):
        up = row.effect > 0
        low, high = (row.ci_low_adjusted, row.ci_high_adjusted) if up else (-row.ci_high_adjusted, -row.ci_low_adjusted)
        digits = digits_for(abs(row.effect))
        label = _adjusted_label(row.p, row.p_adjusted, analysis.options.alpha)
        out.append(
            f"Variant {variant} {'raises' if up else 'lowers'} the game's {row.metric} by "
            f"{number(abs(row.effect), digits)} {_interval(low, high, 1, digits)} "
            f"({label}; {number(row.base)} → {number(row.value)}; {pval(row.p_adjusted)} after {name}, "
            "paired jackknife over seeds)."
        )
    return out


def _skill_sentence(analysis: Analysis, lineup: str, variant: str = BASELINE) -> str | None:
    rows = (
        analysis.skill[(analysis.skill["lineup"] == lineup) & (analysis.skill["variant"] == variant)]
        if not analysis.skill.empty
        else analysis.skill
    )
    if rows.empty:
        return None
    top = rows.iloc[0]
    if not top.get("applicable", True):
        return (
            f"{top['profile']} never changes seat in this line-up ({top['note']}): its skill share is "
            "not applicable; rotate the seats to measure it."
        )
    if rows["share"].isna().all():
        return None
    level = level_text(analysis.options.confidence)
    return (
        f"The strongest profile, {top['profile']}, wins {pct(top['win_rate'])} "
        f"[{100 * top['ci_low']:.1f}, {100 * top['ci_high']:.1f}] per seat ({level} CI; fair share "
        f"{pct(1 / top['n_seats'])}): a skill share of {top['share']:.2f} "
        f"[{top['share_low']:.2f}, {top['share_high']:.2f}] ({level} CI), where 0 is pure luck and 1 "
        "means it always wins."
    )


def _priority(outcome: str, declared: str = "rounds") -> int:
    """Order of effects in the summary: team, seat and profile win rates, the game's own length,
    the length in rounds and the share of capped or decided matches, the rest."""
    if outcome.startswith("team"):
        return 0
    if outcome.startswith(("seat", "profile_won:")):
        return 1
    if outcome == declared:
        return 2
    return 3 if outcome in ("rounds", "capped", "decided") else 4


def _without_mirrors(significant: pd.DataFrame, cell: pd.DataFrame) -> pd.DataFrame:
    """Drop an effect that only mirrors another: when the cell (all its effects) has exactly two
    seats (or two profiles), the second's win rate moves as the first's does, the other way."""
    for prefix in ("seat", "profile_won:"):
        wins = [o for o in cell["outcome"] if o.startswith(prefix) and (prefix != "seat" or o.endswith("_won"))]
        if len(wins) == 2 and wins[0] in set(significant["outcome"]):
            significant = significant[significant["outcome"] != wins[1]]
    return significant


def _variant_sentences(analysis: Analysis, lineup: str, variant: str, several_lineups: bool) -> list[str]:
    effects = analysis.effects
    rows = effects[(effects["lineup"] == lineup) & (effects["variant"] == variant)]
    if rows.empty:
        return []
    correction = analysis.options.correction
    name = CORRECTION_NAMES.get(correction, correction)
    where = f"In line-up {lineup}, " if several_lineups else ""
    subject = f"variant {variant}" if where else f"Variant {variant}"
    if (rows["test"] == "identical outcomes").all():
        return [
            f"{where}{subject} played every match exactly as the baseline did: its rule change "
            "never altered any outcome (every effect 0, with the interval [0, 0] at any level)."
        ]
    significant = _without_mirrors(rows[rows["p_adjusted"] < analysis.options.alpha], rows)
    if significant.empty:
        return [
            f"{where}{subject} has no detectable effect on any of the {len(rows)} outcomes "
            f"(all {pval(rows['p_adjusted'].min()).replace('p = ', 'p ≥ ')} after {name})" + _detectable(rows) + "."
        ]
    from .length import length_of

    declared = length_of(analysis.results).column
    significant = significant.assign(priority=significant["outcome"].map(lambda o: _priority(o, declared))).sort_values(
        ["priority", "p"], kind="stable"
    )
    sentences = [
        effect_sentence(row, correction, several_lineups, analysis.options.alpha, ("rounds", declared))
        for row in significant.head(MAX_EFFECTS).itertuples(index=False)
    ]
    rest = len(significant) - MAX_EFFECTS
    if rest > 0:
        sentences.append(
            f"({rest} more significant effect{'s' if rest > 1 else ''} of {variant} in the effects table.)"
        )
    return sentences


def _detectable(rows: pd.DataFrame) -> str:
    """ ", though it would have detected ..." — the minimum detectable effects of the main outcomes."""
    if "mde" not in rows or rows["mde"].isna().all():
        return ""
    parts = []
    rates = rows[rows["binary"] & rows["outcome"].str.contains("_won") & rows["mde"].notna()]
    if len(rates):
        parts.append(f"{100 * rates['mde'].max():.1f} percentage points on any win rate")
    length = rows[(rows["outcome"] == "rounds") & rows["mde"].notna()]
    if len(length):
        parts.append(f"{number(float(length['mde'].iloc[0]))} rounds of game length")
    if not parts:
        top = rows.dropna(subset=["mde"]).iloc[0]
        scale = 100 if top["binary"] else 1
        parts.append(f"{number(scale * float(top['mde']))} {top['unit']} on {top['label']}")
    return (
        "; with 80 % power it would have detected a true change of "
        + " or ".join(parts)
        + " (minimum detectable effects, after the correction)"
    )


def summary_blocks(analysis: Analysis) -> list[tuple[str, list[str]]]:
    """The summary as (heading, sentences) blocks: an overview, then one block per line-up.

    A line-up's block gives the baseline's fairness verdict, game length and skill share,
    then every variant's significant effects (win rates first, strongest evidence first). When
    planned matches are missing, the overview's first sentence says so.
    """
    results = analysis.results
    incomplete = [results.completeness.sentence()] if not results.completeness.complete else []
    overview = incomplete + [_overview(analysis)] + [f"Note: {note}" for note in results.notes]
    blocks: list[tuple[str, list[str]]] = [("Overview", overview)]
    reference = results.variants[0] if results.variants else BASELINE
    for lineup in results.lineups:
        sentences = []
        fairness = analysis.fairness
        cell = (
            fairness
            if fairness.empty
            else fairness[(fairness["lineup"] == lineup) & (fairness["variant"] == reference)]
        )
        if not cell.empty:
            verdicts = analysis.fairness_cells
            verdict = verdicts[(verdicts["lineup"] == lineup) & (verdicts["variant"] == reference)]["verdict"].iloc[0]
            family = int((verdicts["verdict"] != "not applicable").sum())
            sentences.append(fairness_sentence(cell, verdict, lineup, family=family, alpha=analysis.options.alpha))
        for extra in (_length_sentence(analysis, lineup, reference), _skill_sentence(analysis, lineup, reference)):
            if extra:
                sentences.append(extra)
        for variant in results.variants:
            if variant != BASELINE:
                sentences += _variant_sentences(analysis, lineup, variant, several_lineups=False)
                sentences += _game_effect_sentences(analysis, lineup, variant)
        players = results.tables["players"]
        rows = players[players["lineup"] == lineup]
        first = rows[rows["match"] == rows["match"].min()].drop_duplicates("seat").sort_values("seat")
        seats = ", ".join(map(str, first["profile"]))
        blocks.append((f"Line-up {lineup}" + (f" ({seats})" if seats and seats != lineup else ""), sentences))
    return blocks


def summary_sentences(analysis: Analysis) -> list[str]:
    """The summary as a flat list of sentences (the blocks of :func:`summary_blocks`)."""
    return [sentence for _, sentences in summary_blocks(analysis) for sentence in sentences]
