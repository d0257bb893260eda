"""Compile every installed game's numba kernels once, before the test suite.

    python -m tests.warmup [--jobs 2]

A clean clone has no numba cache: without this step each pytest-xdist worker compiles every
game's kernels itself (tens of seconds per game, the same work twice). Here one short match
per game (its conformance line-up and quick rules), then one per preset with that preset in
every seat (a table of one kind takes a game's fast paths, such as Gastérospeed's compiled
tactician turns), are played in worker processes, which write numba's on-disk cache; the
suite's workers then load it. Prints one line with the time.
"""

from __future__ import annotations

import argparse
import time


def warm(name: str) -> str:
    """Play one short match of ``name`` as the conformance suite does (its quick rules and
    line-up, the smallest player count), then one with each preset in every seat, compiling
    and caching its kernels; the game's name."""
    from sim.core import MatchSeeds
    from sim.core.game import get_game
    from sim.core.profiles import load_lineup, preset_names
    from sim.testing.conformance import _players, _rules, _smallest

    spec = get_game(name)
    rules = _rules(spec)
    n = _smallest(spec)
    spec.play_match(rules, _players(spec, rules, n), MatchSeeds(0, 0))
    for preset in preset_names(spec):
        spec.play_match(rules, load_lineup(spec, [preset] * n, rules), MatchSeeds(0, 1))
    return name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args()
    from joblib import Parallel, delayed

    from sim.core.game import installed_game_names

    started = time.perf_counter()
    names = Parallel(n_jobs=args.jobs)(delayed(warm)(name) for name in installed_game_names())
    print(f"warm-up: compiled the kernels of {', '.join(names)} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
