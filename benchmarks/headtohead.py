"""Head-to-head skill measurement for any game: profile A against B, seats rotated.

    PYTHONPATH=. .venv/bin/python benchmarks/headtohead.py GAME A:B[,C:D] --games 400 --jobs 2 [--set KEY=VALUE]

prints, per pairing, A's wins and win rate with its 95 % seed-clustered Wilson interval
(:func:`sim.core.headtohead.head_to_head`: each seed is played once per seating, so the two
matches of a seed are one cluster), the matches a cap stopped and the wall time.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from sim.core.headtohead import head_to_head


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("pairs", help="comma-separated A:B pairings; the win rate of A is reported")
    parser.add_argument("--games", type=int, default=400, help="matches per pairing (even)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], dest="overrides", metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    for pair in filter(None, args.pairs.split(",")):
        a, _, b = pair.partition(":")
        print(head_to_head(args.game, a, b, args.games, args.seed, args.jobs, args.overrides).line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
