"""CPU time per match on one core, and the share of it spent in the compiled disc engine.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_match_cpu.py [--matches N] [--repeats R] [--format json]
    PYTHONPATH=. .venv/bin/python benchmarks/bench_match_cpu.py --against HEAD~1 [--only carrom]

Each case plays its matches in this process (no workers), after one warm-up match (numba's
cache load and first calls are not counted), and measures ``time.process_time()`` per match:
the figure is the median over ``repeats`` runs of the mean over ``matches`` matches. The
engine's share is the time inside the compiled kernels (``sim.physics.engine_seconds()``)
divided by the whole; Gastérospeed has no engine.

``--against REV`` measures the same cases on another commit side by side: REV is checked out
in a temporary ``git worktree`` and the two versions run in alternation (old, new, old, new...)
in fresh subprocesses, so both see the same machine load; the table gives each version's
median and the speed-up.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (key, game, line-up, rule overrides, matches per repeat): one case per shipped game.
CASES = [
    ("curlastique_club_2p_500", "curlastique", ("club", "club"), ("game.target_score=500",), 30),
    ("carrom_club_2p_25", "carrom", ("club", "club"), ("game.target_points=25",), 4),
    ("gasterospeed_tactician_4p", "gasterospeed", ("tactician",) * 4, (), 10),
]


def _engine_seconds() -> float:
    try:
        from sim.physics import engine_seconds
    except ImportError:
        return float("nan")
    return engine_seconds()


def measure(key: str, matches: int | None = None) -> dict[str, float]:
    """CPU ms per match and the engine's share, for one case, in this process."""
    from sim.core import MatchSeeds, load_lineup, load_rules
    from sim.core.game import get_game

    _, game, players, overrides, default_matches = next(c for c in CASES if c[0] == key)
    matches = matches or default_matches
    spec = get_game(game)
    rules = load_rules(spec, None, list(overrides))
    lineup = load_lineup(spec, players, rules)
    spec.play_match(rules, lineup, MatchSeeds(99, 0))  # warm-up
    engine0, cpu0 = _engine_seconds(), time.process_time()
    for match in range(matches):
        spec.play_match(rules, lineup, MatchSeeds(1, match))
    cpu = time.process_time() - cpu0
    engine = _engine_seconds() - engine0
    return {
        "cpu_ms_per_match": 1000 * cpu / matches,
        "engine_share": engine / cpu if cpu else float("nan"),
        "matches": matches,
    }


def _subprocess_measure(root: Path, key: str, matches: int | None) -> dict[str, float]:
    """``measure`` in a fresh process whose ``sim`` is the tree at ``root`` (PYTHONPATH first)."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [sys.executable, __file__, "--measure", key] + (["--matches", str(matches)] if matches else [])
    out = subprocess.run(command, env=env, capture_output=True, text=True, cwd=root, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(rev: str, keys: list[str], repeats: int, matches: int | None) -> dict[str, dict[str, float]]:
    """Medians of the current tree and of commit ``rev``, measured in alternation."""
    results: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory(prefix="tablesim-bench-") as tmp:
        old = Path(tmp) / "old"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old), rev], check=True, capture_output=True
        )
        try:
            for key in keys:
                runs = {"old": [], "new": []}
                for _ in range(repeats):
                    for name, root in (("old", old), ("new", ROOT)):
                        runs[name].append(_subprocess_measure(root, key, matches)["cpu_ms_per_match"])
                results[key] = runs
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)], check=False, capture_output=True
            )
    table = {}
    for key, runs in results.items():
        before, after = statistics.median(runs["old"]), statistics.median(runs["new"])
        table[key] = {
            "before_ms": round(before, 2),
            "after_ms": round(after, 2),
            "speed_up": round(before / after, 2),
            "repeats": repeats,
        }
    return table


def run_benchmarks(seconds: float = 2.0, repeats: int = 3, only: list[str] | None = None) -> dict:
    """The flat figures of ``tablesim bench --only cpu``."""
    figures: dict[str, float | str] = {}
    for key, *_ in CASES:
        if only and not any(name in key for name in only):
            continue
        runs = [measure(key) for _ in range(repeats)]
        figures[f"{key}_cpu_ms_per_match"] = round(statistics.median(r["cpu_ms_per_match"] for r in runs), 2)
        share = statistics.median(r["engine_share"] for r in runs)
        figures[f"{key}_engine_share"] = round(share, 3) if share == share else "n/a"
    figures["cpu_command"] = "PYTHONPATH=. .venv/bin/python benchmarks/bench_match_cpu.py"
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--matches", type=int, default=None, help="matches per repeat (default: per case)")
    parser.add_argument("--only", default=None, help="comma-separated parts of case names (e.g. carrom)")
    parser.add_argument("--against", default=None, metavar="REV", help="compare with this commit, interleaved")
    parser.add_argument("--measure", default=None, help=argparse.SUPPRESS)  # one case, as JSON (for --against)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.matches)))
        return
    only = args.only.split(",") if args.only else None
    if args.against:
        keys = [k for k, *_ in CASES if not only or any(name in k for name in only)]
        figures = compare(args.against, keys, args.repeats, args.matches)
    else:
        figures = run_benchmarks(repeats=args.repeats, only=only)
    if args.format == "json":
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:<44} {value}")


if __name__ == "__main__":
    main()
