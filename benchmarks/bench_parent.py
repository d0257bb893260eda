"""The parent's share of a run: its CPU and memory per stored match beside a worker's CPU per match.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_parent.py [--games curlastique,carrom,gasterospeed]
        [--jobs 2] [--scale 1.0] [--factor 5] [--format json]

Each game is run twice as ``tablesim run GAME --players P,P --jobs J --out DIR`` (a fresh
process per run, a small and a ``--factor`` times larger run; ``--games curlastique --scale 2
--factor 25`` compares the parent's peak memory at 2,000 and 50,000 matches). In that process the benchmark records:

- the parent's CPU (user + system, ``resource.getrusage(RUSAGE_SELF)``) over the whole command
  and over the play alone (``sim.core.runner.run_cells``), and its peak RSS (``ru_maxrss``);
- the workers' CPU, as each worker reports it for the chunks it played and wrote
  (:class:`sim.core.runner.StoredChunk`).

Per stored match figures are slopes between the two runs (start-up, imports and the pool's
start cancel out). The parent's share is its CPU per match over a worker's CPU per match; the
projected ceiling is how many workers one parent can keep busy (worker CPU ÷ parent CPU, during
play). The end of a run (reading the store back and summarising it) is reported on its own.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: matches of a run's first chunks (sim.core.runner.DEFAULT_CHUNK_SIZE): a run starts at most one
#: worker per chunk of this size
FIRST_CHUNK = 25

#: game → (players, matches of the small run); the large run plays five times as many.
GAMES = {
    "curlastique": ("club,club", 1000),
    "carrom": ("club,club", 40),
    "gasterospeed": ("tactician,tactician,tactician,tactician", 200),
}

#: Runs inside the measured process: the CLI with the runner watched.
PROBE = r"""
import json, resource, sys, time
sys.path.insert(0, {root!r})
from sim.core import runner
from sim.cli import main

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

worker = {{"cpu": 0.0, "chunks": 0, "records": 0}}
play = {{"cpu": 0.0}}
real_results, real_run, real_load = runner._results, runner.run_cells, runner.load_tables

def results(*args):
    for result in real_results(*args):
        worker["chunks"] += 1
        if isinstance(result, getattr(runner, "StoredChunk", ())):
            worker["records"] += 1
            worker["cpu"] += result.cpu_s
        yield result

def timed(real, key, sign):
    def call(*args, **kwargs):
        started = cpu()
        try:
            return real(*args, **kwargs)
        finally:
            play["cpu"] += sign * (cpu() - started)
    return call

runner._results = results
runner.run_cells = timed(real_run, "cpu", 1)          # play, and the read-back at its end ...
runner.load_tables = timed(real_load, "cpu", -1)      # ... which is not play
started = cpu()
code = main(sys.argv[1:])
print(json.dumps({{"code": code, "parent_cpu": cpu() - started, "play_cpu": play["cpu"],
                  "worker_cpu": worker["cpu"], "chunks": worker["chunks"], "records": worker["records"],
                  "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}}), file=sys.stderr)
"""


def _one(game: str, players: str, matches: int, jobs: int, out: Path) -> dict:
    argv = [
        sys.executable,
        "-c",
        PROBE.format(root=str(ROOT)),
        "run",
        game,
        "--players",
        players,
        "--matches",
        str(matches),
        "--jobs",
        str(jobs),
        "--seed",
        "7",
        "--out",
        str(out),
        "--no-progress",
        "--format",
        "json",
    ]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    figures = json.loads(done.stderr.strip().splitlines()[-1])
    if figures["code"] != 0:
        raise SystemExit(f"{game}: run failed:\n{done.stderr}")
    return figures


def measure(game: str, jobs: int, scale: float, factor: int = 5) -> dict:
    players, small = GAMES[game]
    small = max(2, round(small * scale))
    large = factor * small
    if small <= FIRST_CHUNK * (jobs - 1):
        # the runner starts no more workers than chunks (counted at FIRST_CHUNK matches): the small
        # run plays on fewer workers (one: in this process) than the large one, and the slopes mix both
        print(
            f"bench_parent: {game}: {small} matches are fewer than {jobs} chunks of {FIRST_CHUNK}: the small "
            "run does not use every worker, so its figures are not the parent's share (raise --scale)",
            file=sys.stderr,
        )
    with tempfile.TemporaryDirectory() as folder:
        a = _one(game, players, small, jobs, Path(folder) / "small")
        b = _one(game, players, large, jobs, Path(folder) / "large")
    extra = large - small
    worker_ms = 1000 * (b["worker_cpu"] - a["worker_cpu"]) / extra
    play_ms = 1000 * (b["play_cpu"] - a["play_cpu"]) / extra
    whole_ms = 1000 * (b["parent_cpu"] - a["parent_cpu"]) / extra
    end_ms = whole_ms - play_ms
    return {
        "game": game,
        "players": players,
        "jobs": jobs,
        "matches": f"{small} -> {large}",
        "worker_cpu_ms_per_match": round(worker_ms, 3),
        "parent_play_cpu_ms_per_match": round(play_ms, 4),
        "parent_share_during_play_pct": round(100 * play_ms / worker_ms, 2),
        "projected_ceiling_workers": round(worker_ms / play_ms, 1) if play_ms > 0 else float("inf"),
        "parent_end_of_run_cpu_ms_per_match": round(end_ms, 4),
        "parent_whole_command_share_pct": round(100 * whole_ms / worker_ms, 2),
        "chunks_written_by_workers": f"{a['records'] + b['records']}/{a['chunks'] + b['chunks']}",
        "parent_peak_rss_mb": f"{a['maxrss_kb'] / 1024:.0f} -> {b['maxrss_kb'] / 1024:.0f}",
    }


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--games", default=",".join(GAMES))
    cli.add_argument("--jobs", type=int, default=2)
    cli.add_argument("--scale", type=float, default=1.0, help="multiplies every run's matches")
    cli.add_argument("--factor", type=int, default=5, help="the large run's matches over the small run's")
    cli.add_argument("--format", choices=("text", "json"), default="text")
    args = cli.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        cli.error(f"--games: unknown {', '.join(unknown)}; allowed: {', '.join(GAMES)}")
    if args.factor < 2:
        cli.error(f"--factor: got {args.factor}; allowed: 2 or more")
    rows = [measure(game, args.jobs, args.scale, args.factor) for game in games]
    command = (
        f"PYTHONPATH=. .venv/bin/python benchmarks/bench_parent.py --games {','.join(games)} "
        f"--jobs {args.jobs} --scale {args.scale} --factor {args.factor}"
    )
    if args.format == "json":
        print(json.dumps({"command": command, "rows": rows}, indent=2))
        return 0
    print(f"# {command}")
    for row in rows:
        print(f"\n{row['game']} ({row['players']}, {row['matches']} matches, --jobs {row['jobs']})")
        for key, value in row.items():
            if key not in ("game", "players", "matches", "jobs"):
                print(f"  {key:<38} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
