"""Where a Carrom match's CPU time goes: break decisions, the other decisions (and, within
them, building the candidate strokes), and the rest (the strokes actually played, the rules,
the logs).

    PYTHONPATH=. .venv/bin/python benchmarks/carrom_decisions.py [--matches N] [--seed S] [--format json]

The case is ``bench_match_cpu.py``'s (two ``club`` players to 25 points). The matches are
played in this process after one warm-up match; ``time.process_time()`` is read around every
decision of the planner (:meth:`sim.carrom.players.planner.Planner.decide`) and every candidate table
(:meth:`~sim.carrom.players.planner.Planner.candidates`). It tells what a cheaper decision could save
at most: with free break decisions a match would still cost its total minus the break share.
"""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.bench_match_cpu import CASES  # noqa: E402
from benchmarks.split_output import parser, print_figures  # noqa: E402


@contextlib.contextmanager
def _timed_decisions(acc: dict[str, float]):
    """Add each decision's CPU seconds to ``acc`` (break / other / candidates) meanwhile."""
    from sim.carrom.players.planner import Planner

    decide, candidates = Planner.decide, Planner.candidates

    def timed_decide(self, view, rng):
        started = time.process_time()
        try:
            return decide(self, view, rng)
        finally:
            kind = "break" if view.is_break else "other"
            acc[f"{kind}_s"] += time.process_time() - started
            acc[f"{kind}_n"] += 1

    def timed_candidates(self, view, spans):
        started = time.process_time()
        try:
            return candidates(self, view, spans)
        finally:
            if not view.is_break:
                acc["candidates_s"] += time.process_time() - started

    Planner.decide, Planner.candidates = timed_decide, timed_candidates
    try:
        yield
    finally:
        Planner.decide, Planner.candidates = decide, candidates


def run_benchmarks(matches: int = 20, seed: int = 1) -> dict[str, float]:
    """Per-match CPU milliseconds of each part (``carrom_*_ms``) and decisions per match."""
    from sim.core import MatchSeeds, load_lineup, load_rules
    from sim.core.game import get_game

    _, game, players, overrides, _ = next(case for case in CASES if case[1] == "carrom")
    spec = get_game(game)
    rules = load_rules(spec, None, list(overrides))
    lineup = load_lineup(spec, players, rules)
    spec.play_match(rules, lineup, MatchSeeds(99, 0))  # warm-up: numba's cache, first calls
    acc = dict.fromkeys(("break_s", "break_n", "other_s", "other_n", "candidates_s"), 0.0)
    with _timed_decisions(acc):
        started = time.process_time()
        for match in range(matches):
            spec.play_match(rules, lineup, MatchSeeds(seed, match))
        total = time.process_time() - started
    ms = 1000.0 / matches
    return {
        "carrom_total_ms": total * ms,
        "carrom_break_decisions_ms": acc["break_s"] * ms,
        "carrom_other_decisions_ms": acc["other_s"] * ms,
        "carrom_other_candidates_ms": acc["candidates_s"] * ms,
        "carrom_rest_ms": (total - acc["break_s"] - acc["other_s"]) * ms,
        "carrom_break_decisions_per_match": acc["break_n"] / matches,
        "carrom_other_decisions_per_match": acc["other_n"] / matches,
    }


def main(argv: list[str] | None = None) -> int:
    args = parser(__doc__.splitlines()[0], matches=20).parse_args(argv)
    return print_figures(
        run_benchmarks(args.matches, args.seed),
        args.format,
        f"benchmarks/carrom_decisions.py --matches {args.matches} --seed {args.seed}",
    )


if __name__ == "__main__":
    sys.exit(main())
