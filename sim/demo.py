"""`tablesim demo`: the README's main job — a small run of every shipped game, summarised.

For each game: ``--matches`` matches of its demo line-up on its default rules, stored under
``OUT/<game>/`` (Parquet tables + manifest.json) with ``summary.txt`` and ``summary.json``
beside them. Rerunning resumes (the stored matches are not replayed).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from .core import ResultStore, load_lineup, load_rules
from .core.config import to_dict
from .core.game import game_names, get_game
from .core.runner import Cell, run_cells

__all__ = ["run_demo", "SHIPPED_GAMES"]

SHIPPED_GAMES = ("curlastique",)


def run_demo(out: Path, matches: int = 200, jobs: int = 2, seed: int = 2026) -> int:
    from analysis.summary import format_summary, run_summary

    out.mkdir(parents=True, exist_ok=True)
    for name in [g for g in SHIPPED_GAMES if g in game_names()]:
        spec = get_game(name)
        rules = load_rules(spec)
        players = load_lineup(spec, spec.demo_players, rules)
        cell = Cell("baseline", "-".join(p.name for p in players), rules, players, rotate_seats=True)
        store = ResultStore(out / name)
        store.write_manifest({"kind": "demo", "game": name, "seed": seed, "matches": matches,
                              "cells": [{"variant": cell.variant, "lineup": cell.lineup,
                                         "rules": to_dict(rules),
                                         "players": [p.name for p in players], "rotate_seats": True}]})
        print(f"{spec.title}: {matches} matches of {cell.lineup} (seats rotated) ...", file=sys.stderr)
        started = time.perf_counter()
        tables = run_cells(spec, [cell], matches, seed, jobs=jobs, store=store)
        elapsed = time.perf_counter() - started
        metrics = spec.summary(tables) if spec.summary else None
        summary = run_summary(tables, metrics)
        text = format_summary(summary, title=f"{spec.title} demo: {cell.lineup}")
        (out / name / "summary.txt").write_text(text + "\n", encoding="utf-8")
        (out / name / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
        print(text)
        print(f"\n{spec.title}: {elapsed:.1f} s; tables and summary in {out / name}\n")
    return 0
