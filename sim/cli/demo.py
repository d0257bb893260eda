"""`tablesim demo`: the README's main job — a small experiment per game and its design report.

For every installed game that ships a demo experiment among its examples (``*_demo.toml`` in
the folder of ``GameSpec.examples``: a baseline, one variant, seat rotation), the experiment is
played into ``OUT/<game>/`` (Parquet tables + manifest.json) and its self-contained HTML report
is written to ``OUT/<game>/report.html``. Rerunning resumes: stored matches are not replayed.
No game is named here: the games come from their entry points.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from ..core.experiment import experiment_manifest, load_experiment, run_experiment
from ..core.game import game_names, get_game
from ..core.store import ResultStore
from .common import check_jobs, check_out_dir, command_line
from .examples import demo_file

__all__ = ["run_demo"]


def run_demo(out: Path, jobs: int = 2, games: tuple[str, ...] | None = None, command: str = "tablesim demo") -> int:
    """Play every installed game's demo (or those of ``games``) and write their reports."""
    from analysis.analyse import analyse
    from analysis.narrative import summary_sentences
    from analysis.report import build_report
    from analysis.results import load_results

    planned = []
    for name in [g for g in game_names() if games is None or g in games]:  # check every folder first
        path = demo_file(get_game(name))
        if path is None:
            continue
        experiment = load_experiment(path)
        store = ResultStore(out / name)
        manifest = {**experiment_manifest(experiment), "command": f"{command} ({path.name})"}
        store.check_compatible(manifest, ("kind", "game", "seed", "cells"))
        planned.append((path, experiment, store, manifest))
    out.mkdir(parents=True, exist_ok=True)
    reports = []
    for path, experiment, store, manifest in planned:
        folder = store.path
        # the game's header goes where its sentences go (stdout), so a saved output keeps them together
        print(
            f"== {experiment.spec.title}: {path.name} ({len(experiment.cells)} cells x "
            f"{experiment.settings.matches} matches)",
            flush=True,
        )
        started = time.perf_counter()
        with store.lock(manifest["command"]):
            store.check_compatible(manifest, ("kind", "game", "seed", "cells"))
            run_experiment(experiment, store, jobs=jobs, manifest=manifest)
        results = load_results(folder)  # read once: a damaged part is set aside (and named) once
        report = build_report(results)
        reports.append(report)
        for sentence in summary_sentences(analyse(results)):  # an incomplete store says so first
            print(f"  - {sentence}")
        print(f"  {experiment.spec.title}: {time.perf_counter() - started:.1f} s; report: {report}\n")
    print("reports:\n" + "\n".join(f"  {r}" for r in reports))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    check_jobs(args.jobs)
    check_out_dir("--out", args.out)
    return run_demo(Path(args.out), jobs=args.jobs, command=command_line(args))


def add_parsers(sub) -> None:
    """Add ``tablesim demo`` to the parser."""
    p = sub.add_parser("demo", help="the README's main job: a small experiment per game and its HTML report")
    p.add_argument("--out", default="reports/demo", help="where the results and reports go (default reports/demo)")
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    p.set_defaults(func=cmd_demo)
