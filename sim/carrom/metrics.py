"""Carrom's own metrics and plots, from the tidy tables of a run."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from sim.core.estimators import wilson_interval
from sim.core.tally import Tally, counts_of, grouped_counts, median_of_counts

from .rules.board import COLOUR_NAMES, POCKET_NAMES

__all__ = ["summary", "tally", "summary_from_tally", "TALLY_COLUMNS", "plots", "wilson"]


def wilson(k: int, n: int) -> tuple[float, float]:
    """95 % Wilson interval of a proportion k/n (:func:`sim.core.estimators.wilson_interval`);
    (nan, nan) if n = 0."""
    if n == 0:
        return float("nan"), float("nan")
    low, high = wilson_interval(k, n)
    return float(low), float(high)


def _board_key(frame: pd.DataFrame) -> list[str]:
    return [c for c in ("variant", "lineup", "match", "round") if c in frame.columns]


def _boards(rounds: pd.DataFrame) -> pd.DataFrame:
    """One row per board: strokes, winner, breaker, queen, fouls, end, total points."""
    key = _board_key(rounds)
    first = rounds.groupby(key, sort=False).agg(
        strokes=("strokes", "first"),
        board_winner=("board_winner", "first"),
        breaker=("breaker", "first"),
        queen_covered_by=("queen_covered_by", "first"),
        queen_pocketed=("queen_pocketed", "first"),
        queen_returned=("queen_returned", "first"),
        fouls=("fouls", "first"),
        end=("end", "first"),
        **({"last_coins_early": ("last_coins_early", "first")} if "last_coins_early" in rounds else {}),
    )
    # each side's points appear once per seat: count each side once
    sides = rounds.drop_duplicates(key + ["side"])
    first["points"] = sides.groupby(key, sort=False)["points"].sum()
    side_of = rounds.drop_duplicates(key + ["seat"]).set_index(key + ["seat"])["side"]
    first = first.reset_index()
    if len(first):
        bk = first[key].copy()
        bk["seat"] = first["breaker"]
        first["breaker_side"] = side_of.reindex(pd.MultiIndex.from_frame(bk)).to_numpy()
        wk = first[key].copy()
        wk["seat"] = first["board_winner"].clip(lower=0)
        first["winner_side"] = np.where(
            first["board_winner"] >= 0, side_of.reindex(pd.MultiIndex.from_frame(wk)).to_numpy(), -1
        )
    return first


#: The columns :func:`tally` reads beside the keys: every column of ``rounds``, none of ``events``.
TALLY_COLUMNS = {"matches": ("games", "draw", "capped_games", "extra_boards", "finished"), "players": (), "events": ()}


def summary(tables: Mapping[str, pd.DataFrame]) -> dict[str, float]:
    """Flat metrics of a carrom run: :func:`summary_from_tally` of :func:`tally`.

    Keys: boards_per_game, strokes_per_board (mean; also _median, _max), last_coin_board_rate
    (boards where a last coin was pocketed before the queen was covered) with
    strokes_per_board_last_coin and strokes_per_board_other (the other boards' mean),
    points_per_board, queen_pocketed_rate (boards
    where the queen fell at least once), queen_covered_rate, queen_returned_rate (boards
    where it came back at least once), fouls_per_board, break_advantage (the breaker's side's
    board win rate among boards with a winner) with its 95 % Wilson CI, stuck_boards,
    stuck_board_rate, draws, draw_rate, capped_games (games decided by the board cap),
    extra_boards, unfinished.
    """
    return summary_from_tally(tally(tables))


def tally(tables: Mapping[str, pd.DataFrame]) -> Tally:
    """The counts and sums :func:`summary_from_tally` needs, from whole matches (any slice of a run)."""
    matches, rounds = tables["matches"], tables["rounds"]
    if len(matches) == 0 or len(rounds) == 0:
        return {}
    boards = _boards(rounds)
    decided = boards[boards["board_winner"] >= 0]
    out: Tally = {
        "boards": float(len(boards)),
        "games": float(matches["games"].sum()) if "games" in matches else float(len(matches)),
        "strokes": float(boards["strokes"].sum()),
        "max.strokes": float(boards["strokes"].max()),
        **counts_of(boards["strokes"], "strokes_count"),
        "points": float(boards["points"].sum()),
        "queen_pocketed": float((boards["queen_pocketed"] > 0).sum()),
        "queen_covered": float((boards["queen_covered_by"] >= 0).sum()),
        "queen_returned": float((boards["queen_returned"] > 0).sum()),
        "fouls": float(boards["fouls"].sum()),
        "decided": float(len(decided)),
        "breaker_won": float((decided["winner_side"] == decided["breaker_side"]).sum()),
        "stuck": float((boards["end"] == "stuck").sum()),
        "matches": float(len(matches)),
        "draws": float(matches["draw"].sum()),
        "capped_games": float(matches["capped_games"].sum()),
        "extra_boards": float(matches["extra_boards"].sum()),
        "unfinished": float((~matches["finished"].astype(bool)).sum()),
        **{("ended", end): float((boards["end"] == end).sum()) for end in ("last_coin", "opponent_last_coin")},
    }
    if "last_coins_early" in boards:  # family: a last coin pocketed before the queen
        late = boards["last_coins_early"] > 0
        out["late_boards"] = float(late.sum())
        out["late_strokes"] = float(boards.loc[late, "strokes"].sum())
    return out


def summary_from_tally(counts: Mapping) -> dict[str, float]:
    """The metrics of :func:`summary` from a (merged) :func:`tally`."""
    out: dict[str, float] = {}
    if not counts.get("boards"):
        return out
    n_boards = counts["boards"]
    out["boards_per_game"] = n_boards / max(counts["games"], 1)
    out["strokes_per_board"] = counts["strokes"] / n_boards
    out["strokes_per_board_median"] = median_of_counts(grouped_counts(counts, "strokes_count")[()])
    out["strokes_per_board_max"] = int(counts["max.strokes"])
    if "late_boards" in counts:
        late, other = counts["late_boards"], n_boards - counts["late_boards"]
        out["last_coin_board_rate"] = late / n_boards
        out["strokes_per_board_last_coin"] = counts["late_strokes"] / late if late else float("nan")
        out["strokes_per_board_other"] = (counts["strokes"] - counts["late_strokes"]) / other if other else float("nan")
    out["points_per_board"] = counts["points"] / n_boards
    out["queen_pocketed_rate"] = counts["queen_pocketed"] / n_boards
    out["queen_covered_rate"] = counts["queen_covered"] / n_boards
    out["queen_returned_rate"] = counts["queen_returned"] / n_boards
    out["fouls_per_board"] = counts["fouls"] / n_boards
    k, n = int(counts["breaker_won"]), int(counts["decided"])
    out["break_advantage"] = k / n if n else float("nan")
    out["break_advantage_ci_low"], out["break_advantage_ci_high"] = wilson(k, n)
    out["stuck_boards"] = int(counts["stuck"])
    out["stuck_board_rate"] = out["stuck_boards"] / n_boards
    out["draws"] = int(counts["draws"])
    out["draw_rate"] = out["draws"] / counts["matches"]
    out["capped_games"] = int(counts["capped_games"])
    out["extra_boards"] = int(counts["extra_boards"])
    out["unfinished"] = int(counts["unfinished"])
    for end in ("last_coin", "opponent_last_coin"):
        out[f"boards_ended.{end}"] = int(counts[("ended", end)])
    return out


def plots(tables: Mapping[str, pd.DataFrame]) -> list:
    """[(title, Figure)]: coins pocketed by pocket (relative to the shooter) and colour;
    strokes per board."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figures = []
    events = tables.get("events")
    if events is not None and len(events):
        counts = np.array(
            [[events.get(f"{c}_{p}", pd.Series(dtype=int)).sum() for p in POCKET_NAMES] for c in COLOUR_NAMES],
            dtype=float,
        )
        fig, ax = plt.subplots(figsize=(7, 4))
        width = 0.27
        xs = np.arange(len(POCKET_NAMES))
        for k, (name, colour) in enumerate(zip(COLOUR_NAMES, ("#d8c9a3", "#333333", "#c0392b"), strict=True)):
            ax.bar(xs + (k - 1) * width, counts[k], width, label=name, color=colour, edgecolor="black")
        ax.set_xticks(xs, [p.replace("_", " ") for p in POCKET_NAMES])
        ax.set_ylabel("coins pocketed")
        ax.set_xlabel("pocket, seen from the shooter")
        ax.legend()
        ax.set_title("Pocketing by pocket and coin colour")
        figures.append(("Pocketing by pocket and coin colour", fig))
    rounds = tables.get("rounds")
    if rounds is not None and len(rounds):
        boards = _boards(rounds)
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.hist(boards["strokes"], bins=30, color="#5d8aa8", edgecolor="black")
        ax.set_xlabel("strokes in the board")
        ax.set_ylabel("boards")
        ax.set_title("Strokes per board")
        figures.append(("Strokes per board", fig))
    return figures
