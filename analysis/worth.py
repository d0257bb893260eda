"""What a card, a zone or a shot is worth: restricted play against the same line-up.

A results directory with a ``worth`` manifest (``tablesim worth``, or an experiment's
``[worth]`` table: :mod:`sim.core.restrict`) holds, for each line-up, the line-up as given and
one line-up per choice in which the player of one slot forbids that choice. Every line-up is
played on the same seeds with the seats rotated, so match *i* of a restricted line-up pairs
with match *i* of the unrestricted one: same seed, same seating, same dice for every player.

The **worth** of a choice is the restricted player's loss of win rate,

    worth = P(win | may make the choice) − P(win | may not),

estimated as the mean paired difference of the player's wins (unrestricted − restricted) with
the score interval and test of a paired difference of proportions, clustered by seed
(:func:`analysis.effects.paired_binary_effect`: a seed's rotations are one cluster). This is
restricted play (Jaffe et al., "Evaluating competitive game balance with restricted play",
AIIDE 2012): a causal effect, unlike the share of matches won by players who made the choice.
The p-values of a table are Holm-adjusted over its choices, each worth has the interval
consistent with its adjusted p-value, and the *minimum detectable worth* is the worth the run
would detect with 80 % power at the Bonferroni level. Beside each choice: how often the
unrestricted player made it (share of its matches, and times per match), from the game's own
count (``restrictions.used``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .effects import (
    adjust_pvalues,
    adjusted_intervals,
    detectable_effect,
    paired_binary_effect,
    paired_binary_interval,
)
from .narrative import pct
from .outcomes import slot_scores
from .plots import COLOURS, new_figure

__all__ = [
    "WORTH_COLUMNS",
    "points",
    "worth_interval",
    "restricted_wins",
    "worth_spread",
    "worth_table",
    "worth_sentences",
    "worth_plot",
    "worth_sections",
]

#: The columns of :func:`worth_table`.
WORTH_COLUMNS = (
    "variant",
    "lineup",
    "choice",
    "kind",
    "label",
    "worth",
    "ci_low",
    "ci_high",
    "p",
    "p_adjusted",
    "adj_low",
    "adj_high",
    "detectable",
    "allowed_rate",
    "restricted_rate",
    "pairs",
    "seeds",
    "used_share",
    "uses_per_match",
    "won_when_made",
    "verdict",
    "b",
    "c",
    "deff",
    "clusters",
)


def _usage(used: pd.DataFrame | None, wins: pd.DataFrame) -> pd.DataFrame:
    """Per variant, line-up and choice: ``made`` (matches in which the player of the slot made
    it at least once) and ``uses`` (times in all), from the game's count of choices made."""
    if used is None or used.empty:
        return pd.DataFrame(columns=["variant", "lineup", "choice", "made", "uses"])
    mine = used.merge(wins[["variant", "lineup", "match", "seat"]], on=["variant", "lineup", "match", "seat"])
    per_match = mine.groupby(["variant", "lineup", "choice", "match"], sort=False)["uses"].sum()
    return (
        per_match.groupby(level=["variant", "lineup", "choice"], sort=False)
        .agg(made=lambda x: int((x > 0).sum()), uses="sum")
        .reset_index()
    )


def _observed(used: pd.DataFrame | None, players: pd.DataFrame) -> pd.Series:
    """Per variant, line-up and choice: the share of the seat-matches in which the choice was
    made that the seat won (every seat): the observational "win rate when made"."""
    if used is None or used.empty:
        return pd.Series(dtype=float)
    keys = ["variant", "lineup", "match", "seat"]
    made = used.loc[used["uses"] > 0, [*keys, "choice"]].drop_duplicates()
    won = made.merge(players[[*keys, "won"]], on=keys)
    return won.assign(won=won["won"].astype(float)).groupby(["variant", "lineup", "choice"])["won"].mean()


def _own_observed(tables, worth: Mapping[str, Any], observed: Callable) -> dict[tuple[str, str, str], float]:
    """The game's own observational rates on each unrestricted line-up, keyed (variant, line-up, choice)."""
    out = {}
    bases = {meta["lineup"] for meta in worth["lineups"].values()}
    matches = tables["matches"]
    for variant, lineup in matches[["variant", "lineup"]].drop_duplicates().itertuples(index=False):
        if lineup not in bases:
            continue
        cell = {
            name: t[(t["variant"] == variant) & (t["lineup"] == lineup)] if len(t) else t for name, t in tables.items()
        }
        out.update({(variant, lineup, choice): rate for choice, rate in observed(cell).items()})
    return out


def _verdict(row: Mapping[str, Any], alpha: float) -> str:
    if not row["p_adjusted"] == row["p_adjusted"]:
        return "no pairs"
    if row["p_adjusted"] < alpha:
        return "helps" if row["worth"] > 0 else "hurts"
    return "no detectable worth"


def worth_table(
    tables: Mapping[str, pd.DataFrame],
    worth: Mapping[str, Any],
    used: Callable[[Mapping[str, pd.DataFrame]], pd.DataFrame] | None = None,
    confidence: float = 0.95,
    correction: str = "holm",
    observed: Callable[[Mapping[str, pd.DataFrame]], Mapping[str, float]] | None = None,
) -> pd.DataFrame:
    """One row per variant, line-up and choice: the worth with its intervals and tests.

    Args:
        tables: the results' tables (every line-up of the ``worth`` manifest).
        worth: the manifest's ``worth`` (:func:`sim.core.restrict.worth_manifest`).
        used: the game's ``restrictions.used`` (None: the usage columns are NaN).
        observed: the game's ``restrictions.observed``, computed on each unrestricted line-up
            (None: ``won_when_made`` is the generic match-level rate).
        confidence: level of ``ci_low``/``ci_high`` (per choice, unadjusted).
        correction: multiplicity correction of ``p_adjusted`` over the table (``holm``, ``fdr_bh``).

    Returns:
        :data:`WORTH_COLUMNS`, sorted by line-up, variant and decreasing worth: ``worth``
        (proportion of matches won, unrestricted − restricted), its interval, raw and adjusted
        p, the adjusted interval (``adj_low``/``adj_high``), ``detectable`` (minimum detectable
        worth, proportion), the two win rates, ``pairs`` (matches paired), ``seeds`` (clusters),
        ``used_share`` and ``uses_per_match`` of the unrestricted player, ``won_when_made`` (the
        observational rate: the share of the unrestricted line-up's seat-matches in which the
        choice was made that the seat won, every seat), ``verdict``
        (``helps``/``hurts``: adjusted p below 1 − confidence; else ``no detectable worth``),
        and what :func:`worth_interval` needs: ``b`` (pairs won only when allowed), ``c`` (only
        when forbidden), ``deff`` (the seeds' design effect), ``clusters`` (seeds behind it).
    """
    slot = int(worth["slot"])
    labels = {c["name"]: c for c in worth["choices"]}
    wins = slot_scores(tables, slot)
    made = used(tables) if used is not None and len(tables["matches"]) else None
    usage = _usage(made, wins).set_index(["variant", "lineup", "choice"])
    rates = _observed(made, tables["players"]) if observed is None else _own_observed(tables, worth, observed)
    cells = {key: group.set_index("match") for key, group in wins.groupby(["variant", "lineup"], sort=False)}
    rows = []
    for played, meta in worth["lineups"].items():
        choice, base = meta["choice"], meta["lineup"]
        if choice is None:
            continue
        for variant in dict.fromkeys(wins["variant"]):
            allowed, restricted = cells.get((variant, base)), cells.get((variant, played))
            if allowed is None or restricted is None:
                continue
            pairs = allowed[["seed", "won"]].merge(
                restricted[["seed", "won"]], left_index=True, right_index=True, suffixes=("_a", "_r")
            )
            if not (pairs["seed_a"] == pairs["seed_r"]).all():
                raise ValueError(f"{played}: match indices do not share seeds with {base}; worth needs common seeds")
            effect = paired_binary_effect(pairs["won_r"], pairs["won_a"], pairs["seed_a"], confidence)
            key = (variant, base, choice)
            counted = usage.loc[key] if made is not None and key in usage.index else None
            share = float("nan") if made is None else (counted["made"] / len(allowed) if counted is not None else 0.0)
            per_match = (
                float("nan") if made is None else (counted["uses"] / len(allowed) if counted is not None else 0.0)
            )
            rows.append(
                {
                    "variant": variant,
                    "lineup": base,
                    "choice": choice,
                    "kind": labels.get(choice, {}).get("kind", ""),
                    "label": labels.get(choice, {}).get("label", choice),
                    # worth = allowed − restricted: the effect of restricting, negated
                    "worth": -effect["effect"],
                    "ci_low": -effect["ci_high"],
                    "ci_high": -effect["ci_low"],
                    "p": effect["p"],
                    "allowed_rate": effect["base_rate"],
                    "restricted_rate": effect["variant_rate"],
                    "pairs": effect["n"],
                    "seeds": int(pairs["seed_a"].nunique()),
                    "used_share": float(share),
                    "won_when_made": float(rates.get(key, float("nan"))),
                    "uses_per_match": float(per_match),
                    # for the adjusted intervals (analysis.effects.adjusted_intervals)
                    # b: won only when allowed, c: only when forbidden (the restriction's effect c − b)
                    "binary": True,
                    "b": effect["b"],
                    "c": effect["c"],
                    "n": effect["n"],
                    "deff": effect["deff"],
                    "clusters": effect["clusters"],
                    "effect": effect["effect"],
                    "se": effect["se"],
                    "df": 0,
                    "test": effect["test"],
                }
            )
    if not rows:
        return pd.DataFrame(columns=list(WORTH_COLUMNS))
    return _adjusted(pd.DataFrame(rows), confidence, correction)


def _adjusted(frame: pd.DataFrame, confidence: float, correction: str) -> pd.DataFrame:
    """The worth table's rows with their p-values adjusted over the table, the intervals
    consistent with them, the minimum detectable worth and the verdicts; ranked."""
    alpha = 1 - confidence
    frame["p_adjusted"] = adjust_pvalues(frame["p"], correction)
    low, high = adjusted_intervals(frame, alpha)
    frame["adj_low"], frame["adj_high"] = -high, -low
    frame["detectable"] = detectable_effect(frame["se"], frame["df"], len(frame), alpha, binary=True)
    frame["verdict"] = [_verdict(r, alpha) for r in frame.to_dict("records")]
    frame = frame.sort_values(["lineup", "variant", "worth"], ascending=[True, True, False], kind="stable")
    return frame[list(WORTH_COLUMNS)].reset_index(drop=True)


def worth_interval(row: Mapping[str, Any], level: float) -> tuple[float, float]:
    """A worth's interval at ``level``: the paired score interval of its restriction (with the
    seeds' design effect and small-sample factor), negated as the worth is."""
    low, high = paired_binary_interval(row["b"], row["c"], row["pairs"], row["deff"], row["clusters"], level)
    return -high, -low


def restricted_wins(
    tables: Mapping[str, pd.DataFrame], worth: Mapping[str, Any], variant: str, lineup: str
) -> pd.DataFrame:
    """The slot's win (1/0) in each match of every line-up restricting ``lineup``, one column per
    choice, indexed by match, with the match's ``seed``: the pairs behind every difference of
    two worths (restricted line-ups share the line-up's seeds and seatings)."""
    scores = slot_scores(tables, int(worth["slot"]))
    scores = scores[scores["variant"] == variant]
    columns = {}
    seeds = None
    for played, meta in worth["lineups"].items():
        if meta["lineup"] != lineup or meta["choice"] is None:
            continue
        cell = scores[scores["lineup"] == played].set_index("match")
        columns[meta["choice"]] = cell["won"]
        seeds = cell["seed"] if seeds is None else seeds
    if not columns:
        return pd.DataFrame()
    return pd.DataFrame({**columns, "seed": seeds}).dropna()


def worth_spread(table: pd.DataFrame, wins: pd.DataFrame, confidence: float = 0.95) -> dict[str, float]:
    """The spread of the worths of one line-up's choices (best − worst) and its interval.

    Any two worths differ by the difference of their restricted line-ups' win rates
    (w_i − w_j = P(win | j forbidden) − P(win | i forbidden)), and those line-ups share seeds
    and seatings: each pair of choices gets the paired score interval of that difference,
    clustered by seed (:func:`analysis.effects.paired_binary_effect`, as each worth's), at the Bonferroni
    level 1 − (1 − confidence)/P over the P pairs. With every pair's interval holding at once the
    spread — the largest of the differences — lies in [max(0, largest lower bound), largest upper
    bound] (a pair's bounds read in both orders), so each side holds at ``confidence`` at least.
    Pairing the restricted line-ups with each other makes it narrower than combining each
    worth's own interval.

    Args:
        table: the line-up's rows of :func:`worth_table` (the choices compared).
        wins: :func:`restricted_wins` of that line-up.

    Returns ``spread``, ``low``, ``high`` (proportions), ``best`` and ``worst`` (choice names)."""
    if table.empty:
        return {"spread": float("nan"), "low": float("nan"), "high": float("nan"), "best": "", "worst": ""}
    choices = list(table["choice"])
    worth = table["worth"].to_numpy()
    pairs = len(choices) * (len(choices) - 1) // 2
    level = 1 - (1 - confidence) / max(pairs, 1)
    lows, highs = [0.0], [0.0]
    seeds = wins["seed"].to_numpy() if len(wins) else None
    for i, first in enumerate(choices):
        for second in choices[i + 1 :]:
            # w_first − w_second = mean(won without second) − mean(won without first)
            d = paired_binary_effect(wins[second].to_numpy(float), wins[first].to_numpy(float), seeds, level)
            lows += [d["ci_low"], -d["ci_high"]]
            highs += [d["ci_high"], -d["ci_low"]]
    return {
        "spread": float(worth.max() - worth.min()),
        "low": float(max(0.0, max(lows))),
        "high": float(max(highs)),
        "best": str(table["choice"].iloc[int(worth.argmax())]),
        "worst": str(table["choice"].iloc[int(worth.argmin())]),
    }


def points(value: float, signed: bool = True) -> str:
    """A proportion in points of win rate (``0.018`` → ``+1.8``); NaN → ``—``; no ``-0.0``."""
    if not value == value:
        return "—"
    rounded = round(100 * value, 1) + 0.0  # + 0.0 turns -0.0 into 0.0
    return f"{rounded:+.1f}" if signed else f"{rounded:.1f}"


def observed_comparison(table: pd.DataFrame) -> dict[str, Any]:
    """How the observational ``won_when_made`` ranks the choices against the worth, on the
    table's first variant and line-up: Spearman's ρ and the choices on opposite sides of the
    median by the two measures (empty without enough observed rates)."""
    from scipy import stats

    first = (
        table[(table["variant"] == table["variant"].iloc[0]) & (table["lineup"] == table["lineup"].iloc[0])]
        if len(table)
        else table
    )
    first = first.dropna(subset=["won_when_made"])
    if len(first) < 3 or first["won_when_made"].nunique() < 2 or first["worth"].nunique() < 2:
        return {}
    rho = stats.spearmanr(first["won_when_made"], first["worth"])
    flips = (first["won_when_made"] > first["won_when_made"].median()) != (first["worth"] > first["worth"].median())
    return {"rho": float(rho.statistic), "p": float(rho.pvalue), "flips": list(first.loc[flips, "label"])}


def worth_sentences(table: pd.DataFrame, confidence: float = 0.95) -> list[str]:
    """One sentence per choice, in the table's order: "Choc: worth +1.8 points of win rate
    [+0.4, +3.1] (adjusted p = 0.01); made in 64.0 % of the matches where it was allowed."."""
    out = []
    several = table["lineup"].nunique() > 1 or table["variant"].nunique() > 1
    for row in table.to_dict("records"):
        where = f" ({row['lineup']}, {row['variant']})" if several else ""
        label = str(row["label"])
        used = (
            ""
            if not row["used_share"] == row["used_share"]
            else f"; made in {pct(row['used_share'])} of the matches where it was allowed"
        )
        if row["verdict"] == "no detectable worth" and not row["detectable"] == row["detectable"]:
            claim = "no winner changed: every paired match was won by the same player with or without it"
        elif row["verdict"] == "no detectable worth":
            claim = (
                f"no detectable worth, {points(row['worth'])} points of win rate "
                f"[{points(row['adj_low'])}, {points(row['adj_high'])}] (adjusted p = {row['p_adjusted']:.2g}); "
                f"a worth of {points(row['detectable'], False)} points would have been detected"
            )
        else:
            claim = (
                f"worth {points(row['worth'])} points of win rate [{points(row['adj_low'])}, "
                f"{points(row['adj_high'])}] (adjusted p = {row['p_adjusted']:.2g})"
                + ("; the player wins more without it" if row["worth"] < 0 else "")
            )
        out.append(f"{label[:1].upper()}{label[1:]}{where}: {claim}{used}.")
    return out


def worth_plot(table: pd.DataFrame, title: str = "") -> Any:
    """Horizontal bars of each choice's worth (points of win rate) with its adjusted interval,
    ranked; one figure for the table's first variant and line-up."""
    if table.empty:
        return None
    first = table[(table["variant"] == table["variant"].iloc[0]) & (table["lineup"] == table["lineup"].iloc[0])]
    first = first.iloc[::-1]  # the largest worth at the top
    fig = new_figure(height=max(2.5, 0.4 * len(first) + 1.2))
    ax = fig.subplots()
    y = np.arange(len(first))
    worth = 100 * first["worth"].to_numpy()
    colours = [COLOURS[0] if v == "helps" else COLOURS[1] if v == "hurts" else "#999999" for v in first["verdict"]]
    ax.barh(y, worth, color=colours, alpha=0.8)
    ax.errorbar(
        worth,
        y,
        xerr=[worth - 100 * first["adj_low"].to_numpy(), 100 * first["adj_high"].to_numpy() - worth],
        fmt="none",
        ecolor="black",
        capsize=3,
        linewidth=1,
    )
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(y, first["label"])
    ax.set_xlabel("worth: win rate allowed − forbidden (points)")
    ax.set_title(title or f"What each choice is worth ({first['lineup'].iloc[0]})")
    return fig


def worth_sections(analysis: Any, make_figure: Callable, section_type: type, table_type: type) -> list:
    """The report's "What each choice is worth" section (empty list without a ``worth`` manifest)."""
    results = analysis.results
    worth = results.manifest.get("worth")
    if not worth:
        return []
    restrictions = getattr(results.spec, "restrictions", None)
    table = worth_table(
        results.tables,
        worth,
        restrictions.used if restrictions else None,
        analysis.options.confidence,
        analysis.options.correction,
        getattr(restrictions, "observed", None),
    )
    section = section_type("worth", "What each choice is worth")
    level = f"{100 * analysis.options.confidence:.0f} %"
    section.paragraphs = [
        f"Each choice was forbidden to the player of slot {worth['slot']} (slot 0 is the line-up's first player) "
        "in a line-up of its own, played on the same seeds and seatings as the unrestricted line-up. Its worth is "
        "how many points of win rate the player loses without it: a paired difference over the same matches, "
        f"with seeds as clusters, its {level} interval consistent with the p-value adjusted over the table "
        f"({analysis.options.correction}), and the smallest worth the run would detect with 80 % power. "
        "This measures what the choice does, not how often its holder was already winning when making it."
    ]
    section.bullets = worth_sentences(table, analysis.options.confidence)
    # the game's own observational measure only: at the match level a choice made in every match
    # "wins" half the time whatever it does, and the ranking would be noise
    own = getattr(restrictions, "observed", None) is not None
    compared = observed_comparison(table) if own else {}
    if compared:
        flips = ", ".join(compared["flips"]) or "none"
        section.paragraphs.append(
            '"Won when made" is the observational measure: the share of the matches (or, where the game says so, '
            "of the rounds or races) in which a player made the choice that the player won. It mixes what the choice "
            "does with when it is made (a choice made when already ahead looks strong). Its ranking against the worth: Spearman ρ = {compared['rho']:.2f} "
            f"(p = {compared['p']:.2g}); choices on opposite sides of the median by the two measures: {flips}."
        )
    columns = {
        "choice": "label",
        "line-up": "lineup",
        "variant": "variant",
        "worth, points [adjusted CI]": lambda r: (
            f"{points(r['worth'])} [{points(r['adj_low'])}, {points(r['adj_high'])}]"
        ),
        "adjusted p": lambda r: f"{r['p_adjusted']:.2g}",
        "detectable": lambda r: points(r["detectable"], False),
        "win rate allowed / forbidden": lambda r: f"{pct(r['allowed_rate'])} / {pct(r['restricted_rate'])}",
        "made in": lambda r: "—" if not r["used_share"] == r["used_share"] else pct(r["used_share"]),
        **({"won when made": lambda r: pct(r["won_when_made"])} if own else {}),
        "per match": lambda r: "—" if not r["uses_per_match"] == r["uses_per_match"] else f"{r['uses_per_match']:.2f}",
        "matches paired": lambda r: f"{int(r['pairs']):,}",
    }
    section.items.append(
        table_type(
            "What each choice is worth",
            list(columns),
            [[str(f(r) if callable(f) else r[f]) for f in columns.values()] for r in table.to_dict("records")],
        )
    )
    figure = worth_plot(table)
    if figure is not None:
        section.items.append(
            make_figure(
                "What each choice is worth: bars the worth, lines the adjusted intervals "
                "(blue: worth something; orange: the player wins more without it; grey: no "
                "detectable worth)",
                figure,
            )
        )
    return [section]
