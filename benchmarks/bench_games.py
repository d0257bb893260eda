"""Games per minute of each shipped game through the real runner (loky workers).

Events are throws (Curlastique), strokes (Carrom) or cards played (Gastérospeed); rounds are
rounds, boards or races. A Gastérospeed match is a championship of 6 races.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_games.py [--format json] [--matches N]

Each case first plays a short warm-up run with the same worker pool (worker start-up and the
numba cache load are not counted), then times ``matches`` matches on ``jobs`` workers.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sim.core import Cell, load_lineup, load_rules, run_cells  # noqa: E402
from sim.core.game import get_game  # noqa: E402

#: (key, game, line-up, overrides, matches, jobs): one 2-player or 4-player case per shipped game.
CASES = [
    ("curlastique_club_2p_500", "curlastique", ("club", "club"), ("game.target_score=500",), 600, 2),
    ("carrom_club_2p_25", "carrom", ("club", "club"), ("game.target_points=25",), 60, 2),
    ("gasterospeed_tactician_4p", "gasterospeed", ("tactician",) * 4, (), 60, 2),
]


def bench_case(game: str, players: tuple[str, ...], overrides, matches: int, jobs: int) -> dict:
    spec = get_game(game)
    rules = load_rules(spec, None, list(overrides))
    lineup = load_lineup(spec, players, rules)
    cell = Cell("bench", "-".join(players), rules, lineup)
    run_cells(spec, [cell], 4 * jobs, 1, jobs=jobs, chunk_size=2, progress=False)  # warm-up
    started = time.perf_counter()
    tables = run_cells(spec, [cell], matches, 2, jobs=jobs, progress=False)
    elapsed = time.perf_counter() - started
    events = len(tables["events"])
    rounds = int(tables["matches"]["rounds"].sum())  # boards (Carrom), races (Gastérospeed), rounds
    return {
        "games_per_min": 60 * matches / elapsed,
        "events_per_s": events / elapsed,
        "rounds_per_min": 60 * rounds / elapsed,
        "matches": matches,
        "jobs": jobs,
        "wall_s": elapsed,
    }


def run_benchmarks(seconds: float = 2.0, scale: float = 1.0) -> dict:
    figures: dict[str, float | str] = {}
    for key, game, players, overrides, matches, jobs in CASES:
        result = bench_case(game, players, overrides, max(jobs * 4, int(matches * scale)), jobs)
        figures[f"{key}_games_per_min"] = round(result["games_per_min"], 1)
        figures[f"{key}_events_per_s"] = round(result["events_per_s"], 1)
        figures[f"{key}_rounds_per_min"] = round(result["rounds_per_min"], 1)
        figures[f"{key}_jobs"] = jobs
    figures["games_command"] = "PYTHONPATH=. .venv/bin/python benchmarks/bench_games.py"
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the matches per case")
    args = parser.parse_args()
    figures = run_benchmarks(scale=args.scale)
    if args.format == "json":
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:<48} {value}")


if __name__ == "__main__":
    main()
