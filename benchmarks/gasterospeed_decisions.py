"""Where a Gastérospeed championship's CPU time goes: the players' decisions, by kind, the
compiled calls of a table of tacticians (its speed phases: their decisions and moves; its
action-card choices), and the rest (the rules engine: dealing, moves, card effects,
reactions, and the views it builds for the players).

    PYTHONPATH=. .venv/bin/python benchmarks/gasterospeed_decisions.py [--matches N] [--seed S]
        [--players tactician] [--format json]

The case is ``bench_match_cpu.py``'s (4 players of one profile, a championship of 6 races).
The championships are played in this process after one warm-up; ``time.process_time()`` is
read around every call of the policy's decision methods (:class:`sim.gasterospeed.rules.view.Policy`)
and of the compiled calls (:data:`COMPILED`).
The rest is what no cheaper player can save: with ``--players greedy`` it is the rules engine
under the cheapest planner.
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

#: the decision methods of a Gastérospeed policy (sim.gasterospeed.rules.view.Policy)
DECISIONS = (
    "place",
    "commit",
    "speed_card",
    "speed_move",
    "action_card",
    "move_choice",
    "target",
    "react",
    "draw_piles",
    "discard",
)


#: the compiled calls of sim.gasterospeed.players.tactician_phases (a speed phase: decisions and moves)
COMPILED = ("speed_phase", "action_choices")


@contextlib.contextmanager
def _timed(classes: set[type], acc: dict[str, list[float]]):
    """Add the CPU seconds and count of each decision and of each compiled call to
    ``acc[name]`` (``compiled_<name>``) meanwhile (nested calls are counted once, in the outer
    one)."""
    from sim.gasterospeed.players import tactician_phases

    saved = []
    depth = [0]

    def wrap(method, name):
        def timed(*args, **kwargs):
            if depth[0]:
                return method(*args, **kwargs)
            depth[0] += 1
            started = time.process_time()
            try:
                return method(*args, **kwargs)
            finally:
                depth[0] -= 1
                entry = acc.setdefault(name, [0.0, 0])
                entry[0] += time.process_time() - started
                entry[1] += 1

        return timed

    for cls in classes:
        for name in DECISIONS:
            if hasattr(cls, name):
                saved.append((cls, name, cls.__dict__.get(name)))
                setattr(cls, name, wrap(getattr(cls, name), name))
    for name in COMPILED:
        saved.append((tactician_phases, name, getattr(tactician_phases, name)))
        setattr(tactician_phases, name, wrap(getattr(tactician_phases, name), f"compiled_{name}"))
    try:
        yield
    finally:
        for cls, name, original in reversed(saved):
            if original is None:
                delattr(cls, name)
            else:
                setattr(cls, name, original)


def run_benchmarks(matches: int = 10, seed: int = 1, players: str = "tactician") -> dict[str, float]:
    """Per-championship CPU milliseconds: total, each decision kind (``..._ms``, with calls per
    championship), all decisions, the compiled calls (each with its count, and in all) and the
    rest."""
    from sim.core import MatchSeeds, load_lineup, load_rules
    from sim.core.game import get_game
    from sim.gasterospeed.players.policies import POLICIES

    _, game, lineup_names, overrides, _ = next(case for case in CASES if case[1] == "gasterospeed")
    spec = get_game(game)
    rules = load_rules(spec, None, list(overrides))
    lineup = load_lineup(spec, [players] * len(lineup_names), rules)
    spec.play_match(rules, lineup, MatchSeeds(99, 0))  # warm-up: numba's cache, first calls
    classes = {POLICIES[player.profile.policy] for player in lineup}
    acc: dict[str, list[float]] = {}
    with _timed(classes, acc):
        started = time.process_time()
        for match in range(matches):
            spec.play_match(rules, lineup, MatchSeeds(seed, match))
        total = time.process_time() - started
    ms = 1000.0 / matches
    figures = {"gasterospeed_total_ms": total * ms}
    for name in DECISIONS:
        seconds, calls = acc.get(name, (0.0, 0))
        figures[f"gasterospeed_{name}_ms"] = seconds * ms
        figures[f"gasterospeed_{name}_calls"] = calls / matches
    compiled = 0.0
    for name in COMPILED:
        seconds, calls = acc.pop(f"compiled_{name}", (0.0, 0))
        figures[f"gasterospeed_compiled_{name}_ms"] = seconds * ms
        figures[f"gasterospeed_compiled_{name}_calls"] = calls / matches
        compiled += seconds
    figures["gasterospeed_compiled_ms"] = compiled * ms
    decided = sum(seconds for seconds, _ in acc.values())
    figures["gasterospeed_decisions_ms"] = decided * ms
    figures["gasterospeed_rest_ms"] = (total - decided - compiled) * ms
    return figures


def main(argv: list[str] | None = None) -> int:
    cli = parser(__doc__.splitlines()[0], matches=10)
    cli.add_argument("--players", default="tactician", help="the profile of all four seats")
    args = cli.parse_args(argv)
    return print_figures(
        run_benchmarks(args.matches, args.seed, args.players),
        args.format,
        f"benchmarks/gasterospeed_decisions.py --matches {args.matches} --seed {args.seed} --players {args.players}",
    )


if __name__ == "__main__":
    sys.exit(main())
