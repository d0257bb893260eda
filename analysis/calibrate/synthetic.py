"""Score sheets simulated from known profiles: what the recovery tests fit, and an example
sheet for the documentation.

``simulated_sheet`` plays whole matches of a line-up (seats as given, fresh seeds) until the
sheet holds at least ``rounds`` rounds, and writes them as a designer would: one row per
match × round × player who played the round (the rows of the game's rounds table: a race won
mid-round has no row for the seats that did not play its last round), the players' names,
the value column of the outcome.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from sim.core.game import GameSpec, Player
from sim.core.runner import Cell, run_cells

from .outcome import RoundOutcome

__all__ = ["simulated_sheet"]


def simulated_sheet(
    spec: GameSpec,
    rules: Any,
    players: Sequence[Player],
    names: Sequence[str],
    rounds: int,
    seed: int,
    outcome: RoundOutcome,
    round_word: str = "round",
    jobs: int = 1,
    batch: int = 8,
) -> str:
    """The CSV text of a sheet of at least ``rounds`` rounds (whole matches) of ``players``."""
    cell = Cell(variant="sheet", lineup="sheet", rules=rules, players=tuple(players))
    played = 0
    rows: list[str] = []
    start = 0
    last: tuple[int, int] | None = None
    while played < rounds:
        tables = run_cells(spec, [cell], start + batch, seed, jobs=jobs, progress=False, start=start)
        table = tables["rounds"].sort_values(["match", "round", "seat"], kind="stable")
        values = outcome.values(table)
        for (match, number, seat), value in zip(table[["match", "round", "seat"]].itertuples(index=False), values):
            if (match, number) != last:
                if played >= rounds and (last is None or match != last[0]):
                    break
                played, last = played + 1, (match, number)
            text = value if isinstance(value, str) else f"{value:g}"
            rows.append(f"{match + 1},{number},{names[seat]},{text}")
        else:
            start += batch
            continue
        break
    buffer = io.StringIO()
    buffer.write(f"match,{round_word},player,{outcome.column}\n")
    buffer.write("\n".join(rows) + "\n")
    return buffer.getvalue()
