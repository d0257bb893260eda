"""Carrom's own metrics and plots, from the tidy tables of a run."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from sim.core.estimators import wilson_interval

from .rules.board import COLOUR_NAMES, POCKET_NAMES

__all__ = ["summary", "plots", "wilson"]


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
        strokes=("strokes", "first"), board_winner=("board_winner", "first"),
        breaker=("breaker", "first"), queen_covered_by=("queen_covered_by", "first"),
        queen_pocketed=("queen_pocketed", "first"), queen_returned=("queen_returned", "first"),
        fouls=("fouls", "first"), end=("end", "first"),
        **({"last_coins_early": ("last_coins_early", "first")} if "last_coins_early" in rounds else {}))
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
        first["winner_side"] = np.where(first["board_winner"] >= 0,
                                        side_of.reindex(pd.MultiIndex.from_frame(wk)).to_numpy(), -1)
    return first


def summary(tables: Mapping[str, pd.DataFrame]) -> dict[str, float]:
    """Flat metrics of a carrom run.

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
    matches, rounds = tables["matches"], tables["rounds"]
    out: dict[str, float] = {}
    if len(matches) == 0 or len(rounds) == 0:
        return out
    boards = _boards(rounds)
    n_boards = len(boards)
    games = int(matches["games"].sum()) if "games" in matches else len(matches)
    out["boards_per_game"] = n_boards / max(games, 1)
    out["strokes_per_board"] = float(boards["strokes"].mean())
    out["strokes_per_board_median"] = float(boards["strokes"].median())
    out["strokes_per_board_max"] = int(boards["strokes"].max())
    if "last_coins_early" in boards:  # family: a last coin pocketed before the queen
        late = boards["last_coins_early"] > 0
        out["last_coin_board_rate"] = float(late.mean())
        out["strokes_per_board_last_coin"] = float(boards.loc[late, "strokes"].mean()) if late.any() \
            else float("nan")
        out["strokes_per_board_other"] = float(boards.loc[~late, "strokes"].mean()) if (~late).any() \
            else float("nan")
    out["points_per_board"] = float(boards["points"].mean())
    out["queen_pocketed_rate"] = float((boards["queen_pocketed"] > 0).mean())
    out["queen_covered_rate"] = float((boards["queen_covered_by"] >= 0).mean())
    out["queen_returned_rate"] = float((boards["queen_returned"] > 0).mean())
    out["fouls_per_board"] = float(boards["fouls"].mean())
    decided = boards[boards["board_winner"] >= 0]
    k = int((decided["winner_side"] == decided["breaker_side"]).sum())
    n = len(decided)
    out["break_advantage"] = k / n if n else float("nan")
    out["break_advantage_ci_low"], out["break_advantage_ci_high"] = wilson(k, n)
    out["stuck_boards"] = int((boards["end"] == "stuck").sum())
    out["stuck_board_rate"] = out["stuck_boards"] / n_boards
    out["draws"] = int(matches["draw"].sum())
    out["draw_rate"] = out["draws"] / len(matches)
    out["capped_games"] = int(matches["capped_games"].sum())
    out["extra_boards"] = int(matches["extra_boards"].sum())
    out["unfinished"] = int((~matches["finished"].astype(bool)).sum())
    for end in ("last_coin", "opponent_last_coin"):
        out[f"boards_ended.{end}"] = int((boards["end"] == end).sum())
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
        counts = np.array([[events.get(f"{c}_{p}", pd.Series(dtype=int)).sum() for p in POCKET_NAMES]
                           for c in COLOUR_NAMES], dtype=float)
        fig, ax = plt.subplots(figsize=(7, 4))
        width = 0.27
        xs = np.arange(len(POCKET_NAMES))
        for k, (name, colour) in enumerate(zip(COLOUR_NAMES, ("#d8c9a3", "#333333", "#c0392b"),
                                               strict=True)):
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
