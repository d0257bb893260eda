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

With ``--balance``, the Curlastique balance example instead: the search and its staged
validation as shipped, then the same search's validation with ``search.look_every`` (an
anytime-valid look after every ``--look-every`` fresh matches, confidence sequences), and the
fresh matches and minutes each took to its verdict. The Gastérospeed balance example's targets
are game metrics with no known bounds, which only the staged validation can decide.

Run from the repository root (about 10 minutes on 2 cores with the default caps):

    PYTHONPATH=. .venv/bin/python benchmarks/matches_to_verdict.py --jobs 2
    PYTHONPATH=. .venv/bin/python benchmarks/matches_to_verdict.py --jobs 2 --balance
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
        rows.append(
            {
                "variant": variant,
                "lineup": lineup,
                "deff": worst,
                "before": before,
                "after": int(seats["matches_needed"].iloc[0]),
                "verdict": seats["verdict"].iloc[0],
            }
        )
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


def balance_example(jobs: int, look_every: int) -> None:
    """The Curlastique balance example, staged then anytime validation on the same trials."""
    import shutil

    from sim.cli import main as tablesim

    source = Path(__file__).resolve().parents[1] / "sim" / "curlastique" / "examples" / "curlastique_balance.toml"
    with tempfile.TemporaryDirectory() as tmp:
        staged, anytime = Path(tmp) / "staged", Path(tmp) / "anytime"
        started = time.perf_counter()
        assert tablesim(["balance", str(source), "--jobs", str(jobs), "--out", str(staged), "--no-progress"]) == 0
        searched = time.perf_counter() - started
        shutil.copytree(staged, anytime, ignore=shutil.ignore_patterns("validation.json", "looks.json"))
        file = Path(tmp) / "curlastique_balance_anytime.toml"
        file.write_text(source.read_text().replace("[search]\n", f"[search]\nlook_every = {look_every}\n", 1))
        started = time.perf_counter()
        assert tablesim(["balance", str(file), "--jobs", str(jobs), "--out", str(anytime), "--no-progress"]) == 0
        again = time.perf_counter() - started
        print(
            f"\ncurlastique balance example: search and staged validation {searched / 60:.1f} min; "
            f"validation again with look_every = {look_every}: {again / 60:.1f} min"
        )
        for name, folder in (("staged", staged), (f"anytime, every {look_every}", anytime)):
            looks = json.loads((folder / "looks.json").read_text())["looks"]
            validation = json.loads((folder / "validation.json").read_text())
            first = validation["candidates"][0]
            verdicts = ", ".join(
                f"{t['target']} {t.get('verdict', 'met' if t['met'] else 'not met')}" for t in first["targets"]
            )
            print(
                f"  {name}: {len(looks)} ledger look(s), claim {bool(looks[-1].get('meets_all_targets'))}, "
                f"{first['matches']:,} fresh matches per line-up ({verdicts})"
            )


def main(argv: list[str] | None = None) -> None:
    """Print both parts for every game (or the balance example, with --balance)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument(
        "--cap",
        default=",".join(f"{g}={c}" for g, c in CAPS.items()),
        help="most matches per cell under the stopping rule, GAME=N,...",
    )
    parser.add_argument("--balance", action="store_true", help="the Curlastique balance example instead")
    parser.add_argument("--look-every", type=int, default=200, help="with --balance: matches between looks")
    args = parser.parse_args(argv)
    if args.balance:
        balance_example(args.jobs, args.look_every)
        return
    caps = {**CAPS, **{k: int(v) for k, v in (item.split("=") for item in args.cap.split(",") if item)}}
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            demo = Path(tmp) / f"{game}-demo"
            started = time.perf_counter()
            run_experiment(load_experiment(demo_file(game)), ResultStore(demo), jobs=args.jobs, progress=False)
            print(f"\n{game}: demo as shipped ({(time.perf_counter() - started) / 60:.1f} min)")
            for row in needed(demo):
                print(
                    f"  {row['variant']} / {row['lineup']}: {row['verdict']}; deff {row['deff']:.2f}; matches "
                    f"needed for a fair verdict (±2 pts): before {row['before']:,}, after {row['after']:,}"
                )
            stops, minutes = stopped(game, Path(tmp) / f"{game}-stop", args.jobs, caps[game])
            print(
                f"{game}: [stopping] fairness ±2 pts, effect on seat 0 (or within ±2 pts), "
                f"cap {caps[game]:,} ({minutes:.1f} min)"
            )
            for record in stops:
                print(f"  {record['variant']} / {record['lineup']}: {record['matches']:,} matches; {record['reason']}")


if __name__ == "__main__":
    main()
