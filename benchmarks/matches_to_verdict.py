"""Matches to a verdict, before and after: the design effect the data show, and stopping once answered.

For each shipped demo experiment (Carrom, Curlastique, Gastérospeed):

1. plays the demo as shipped and prints each cell's *matches needed* to show an exactly fair
   line-up fair within ±2 points (80 % power, the report's rule): with the seeds' design
   effect clipped at 1 and no small-sample factor (the rule before), and as the report now
   computes it;
2. plays the demo again under a ``[stopping]`` rule (fairness ±2 points, the sign of each
   variant's effect on seat 0's win rate or an effect within ±2 points, α = 0.05), capped at
   ``--cap`` matches per cell (per game), and prints where each cell stopped, its answers and
   the minutes it took on this machine.

Run from the repository root (about 10 minutes on 2 cores with the default caps):

    PYTHONPATH=. .venv/bin/python benchmarks/matches_to_verdict.py --jobs 2
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import tempfile
import time
from pathlib import Path

from analysis.analyse import analyse
from analysis.fairness import lineup_matches_needed
from analysis.results import load_results
from sim.core import ResultStore
from sim.core.experiment import load_experiment, run_experiment
from sim.core.game import get_game
from sim.core.stopping import Stopping

GAMES = ("carrom", "curlastique", "gasterospeed")
#: Most matches per cell under the stopping rule, per game (Carrom plays ~6 matches per second).
CAPS = {"carrom": 600, "curlastique": 6000, "gasterospeed": 1200}


def demo_file(game: str) -> Path:
    """The shipped demo experiment of a game."""
    return Path(get_game(game).examples) / f"{game}_demo.toml"


def needed(folder: Path) -> list[dict]:
    """Each cell's matches needed for a fair verdict within ±2 points, before and after."""
    analysis = analyse(load_results(folder))
    fairness = analysis.fairness
    family = max(1, int((analysis.fairness_cells["verdict"] != "not applicable").sum()))
    rows = []
    for (variant, lineup), seats in fairness.groupby(["variant", "lineup"], sort=False):
        worst = float(seats["design_effect"].max())
        before = lineup_matches_needed(len(seats), 0.02, 0.05 / family, 0.8, float(f"{max(worst, 1.0):.2g}"))
        rows.append({"variant": variant, "lineup": lineup, "deff": worst, "before": before,
                     "after": int(seats["matches_needed"].iloc[0]), "verdict": seats["verdict"].iloc[0]})
    return rows


def stopped(game: str, folder: Path, jobs: int, cap: int) -> tuple[list[dict], float]:
    """The demo under the stopping rule: each cell's stop record, and the wall time in minutes."""
    experiment = load_experiment(demo_file(game))
    rule = Stopping(fairness=0.02, effect="seat 0", effect_margin=0.02, max_matches=cap)
    experiment = dataclasses.replace(experiment, settings=dataclasses.replace(experiment.settings, stopping=rule))
    started = time.perf_counter()
    run_experiment(experiment, ResultStore(folder), jobs=jobs, progress=False)
    minutes = (time.perf_counter() - started) / 60
    return json.loads((folder / "manifest.json").read_text())["stopping"], minutes


def main(argv: list[str] | None = None) -> None:
    """Print both parts for every game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--cap", default=",".join(f"{g}={c}" for g, c in CAPS.items()),
                        help="most matches per cell under the stopping rule, GAME=N,...")
    args = parser.parse_args(argv)
    caps = {**CAPS, **{k: int(v) for k, v in (item.split("=") for item in args.cap.split(",") if item)}}
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            demo = Path(tmp) / f"{game}-demo"
            started = time.perf_counter()
            run_experiment(load_experiment(demo_file(game)), ResultStore(demo), jobs=args.jobs, progress=False)
            print(f"\n{game}: demo as shipped ({(time.perf_counter() - started) / 60:.1f} min)")
            for row in needed(demo):
                print(f"  {row['variant']} / {row['lineup']}: {row['verdict']}; deff {row['deff']:.2f}; matches "
                      f"needed for a fair verdict (±2 pts): before {row['before']:,}, after {row['after']:,}")
            stops, minutes = stopped(game, Path(tmp) / f"{game}-stop", args.jobs, caps[game])
            print(f"{game}: [stopping] fairness ±2 pts, effect on seat 0 (or within ±2 pts), "
                  f"cap {caps[game]:,} ({minutes:.1f} min)")
            for record in stops:
                print(f"  {record['variant']} / {record['lineup']}: {record['matches']:,} matches; {record['reason']}")


if __name__ == "__main__":
    main()
