"""A results directory for a spreadsheet: the tidy tables and the report's headline figures.

``export(results_dir, out, fmt)`` writes

* ``csv``: a folder of ``summary.csv`` (the headline figures, one row each), ``sentences.csv``
  (the report's summary sentences) and one CSV per table (``matches``, ``players``, ``rounds``,
  ``events`` when it has rows), UTF-8 with a header row;
* ``xlsx``: one workbook (openpyxl) with the sheets ``summary``, ``sentences`` and one per
  table; a table longer than a sheet (1,048,575 rows) continues on ``rounds (2)``, ... .

The headline figures are the report's own numbers (:func:`analysis.analyse.analyse`): the win
rate of every seat (simultaneous intervals), profile and team, the game length, the game's own
metrics, the fairness verdicts and every variant effect with its adjusted p-value.

A results directory that lacks planned matches is exported from the matches it holds, labelled:
the summary starts with one ``results incomplete`` row per short cell (matches stored, of how
many planned, which are missing, the command that replays them) and the sentences start with
the report's sentence saying so.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd

from .analyse import Analysis, analyse
from .narrative import summary_blocks
from .results import Results, open_results

__all__ = ["headline_figures", "summary_sentences_frame", "export", "FORMATS", "SHEET_ROWS", "INCOMPLETE"]

FORMATS = ("csv", "xlsx")
#: Data rows per worksheet (Excel's 1,048,576 rows less the header).
SHEET_ROWS = 1_048_575
COLUMNS = ["figure", "variant", "lineup", "subject", "value", "ci_low", "ci_high", "unit", "p_adjusted", "method"]


def _rows_of_rates(frame: pd.DataFrame, figure: str, subject: str) -> list[dict[str, Any]]:
    return [
        {
            "figure": figure,
            "variant": r["variant"],
            "lineup": r["lineup"],
            "subject": f"{subject} {r[subject]}",
            "value": r["win_rate"],
            "ci_low": r["ci_low"],
            "ci_high": r["ci_high"],
            "unit": "proportion",
            "method": r.get("method", ""),
        }
        for r in frame.to_dict("records")
    ]


#: The ``figure`` of the summary rows that label an incomplete results directory.
INCOMPLETE = "results incomplete"


def _incomplete_rows(results: Results) -> list[dict[str, Any]]:
    """One row per cell short of matches: matches stored, of how many planned, which are missing."""
    completeness = results.completeness
    return [
        {
            "figure": INCOMPLETE,
            "variant": cell.variant,
            "lineup": cell.lineup,
            "subject": f"matches {', '.join(map(str, cell.missing))} missing",
            "value": cell.stored,
            "unit": f"matches stored of {cell.planned} planned",
            "method": completeness.replay_text(),
        }
        for cell in completeness.shortfalls
    ]


def headline_figures(analysis: Analysis) -> pd.DataFrame:
    """The report's headline numbers as one tidy table (see :data:`COLUMNS`).

    An incomplete results directory's table starts with its :data:`INCOMPLETE` rows.
    """
    rows = _incomplete_rows(analysis.results)
    rows += _rows_of_rates(analysis.seat_rates, "win rate by seat", "seat")
    if not analysis.team_rates.empty:
        rows += _rows_of_rates(analysis.team_rates, "win rate by team", "team")
    rows += _rows_of_rates(analysis.profile_rates, "win rate by profile", "profile")
    from .length import length_of, length_table

    length = length_of(analysis.results)
    for r in length_table(analysis).to_dict("records"):
        rows.append(
            {
                "figure": length.label,
                "variant": r["variant"],
                "lineup": r["lineup"],
                "subject": "mean",
                "value": r["mean"],
                "ci_low": r["ci_low"],
                "ci_high": r["ci_high"],
                "unit": length.unit,
                "method": "cluster bootstrap (BCa) over seeds",
            }
        )
    for r in analysis.fairness_cells.to_dict("records"):
        rows.append(
            {
                "figure": "seat fairness",
                "variant": r["variant"],
                "lineup": r["lineup"],
                "subject": r["verdict"],
                "value": r["decided"],
                "unit": "decided matches",
                "p_adjusted": r["p_fair_adjusted"],
                "method": "TOST, Holm–Shaffer over line-ups",
            }
        )
    from .game_effects import game_metric_levels

    for r in game_metric_levels(analysis).to_dict("records"):
        rows.append(
            {
                "figure": "game metric",
                "variant": r["variant"],
                "lineup": r["lineup"],
                "subject": r["metric"],
                "value": r["value"],
                "ci_low": r["ci_low"],
                "ci_high": r["ci_high"],
                "method": r["method"],
            }
        )
    for r in analysis.effects.to_dict("records"):
        scale = "proportion" if r["binary"] else r["unit"]
        # the interval is adjusted like the p-value beside it (Holm), so it excludes 0 exactly when
        # p_adjusted < 0.05, as the report's effects table shows it
        rows.append(
            {
                "figure": "variant effect (variant − baseline)",
                "variant": r["variant"],
                "lineup": r["lineup"],
                "subject": r["label"],
                "value": r["effect"],
                "ci_low": r["ci_low_adjusted"],
                "ci_high": r["ci_high_adjusted"],
                "unit": scale,
                "p_adjusted": r["p_adjusted"],
                "method": f"{r['test']}; interval and p adjusted together (Holm over the effects)",
            }
        )
    frame = pd.DataFrame.from_records(rows, columns=COLUMNS)
    return frame.astype({"value": float, "ci_low": float, "ci_high": float, "p_adjusted": float})


def summary_sentences_frame(analysis: Analysis) -> pd.DataFrame:
    """The report's summary sentences, one row each, under their heading."""
    return pd.DataFrame(
        [
            {"heading": heading, "sentence": sentence}
            for heading, sentences in summary_blocks(analysis)
            for sentence in sentences
        ],
        columns=["heading", "sentence"],
    )


def _sheets(analysis: Analysis) -> dict[str, pd.DataFrame]:
    sheets = {"summary": headline_figures(analysis), "sentences": summary_sentences_frame(analysis)}
    for name, frame in analysis.results.tables.items():
        if name != "events" or len(frame):
            sheets[name] = frame
    return sheets


def _write_xlsx(sheets: dict[str, pd.DataFrame], path: Path) -> list[str]:
    """The workbook; returns the names of the sheets written."""
    written = []
    with pd.ExcelWriter(path, engine="openpyxl") as writer:
        for name, frame in sheets.items():
            parts = max(1, math.ceil(len(frame) / SHEET_ROWS))
            for part in range(parts):
                sheet = name if part == 0 else f"{name} ({part + 1})"
                frame.iloc[part * SHEET_ROWS : (part + 1) * SHEET_ROWS].to_excel(writer, sheet_name=sheet, index=False)
                written.append(sheet)
            if name == "summary":
                writer.sheets[name].column_dimensions["A"].width = 34
                writer.sheets[name].column_dimensions["E"].width = 44
    return written


def export(results_dir: str | Path | Results, out: str | Path, fmt: str = "csv") -> list[Path]:
    """Write the export of a results directory; returns the files written.

    Args:
        results_dir: a directory of ``tablesim run --out`` or ``tablesim experiment``, or its
            :class:`~analysis.results.Results` already loaded.
        out: a folder (``csv``) or an ``.xlsx`` file (``xlsx``).
        fmt: ``csv`` or ``xlsx``.
    """
    if fmt not in FORMATS:
        raise ValueError(f"format: got {fmt!r}; allowed: {', '.join(FORMATS)}")
    sheets = _sheets(analyse(open_results(results_dir)))
    out = Path(out)
    if fmt == "xlsx":
        out.parent.mkdir(parents=True, exist_ok=True)
        _write_xlsx(sheets, out)
        return [out]
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for name, frame in sheets.items():
        path = out / f"{name}.csv"
        frame.to_csv(path, index=False, encoding="utf-8")
        files.append(path)
    return files
