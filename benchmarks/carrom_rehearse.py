"""Rehearse a Carrom break: which break of a profile's grid a practised player would keep.

    PYTHONPATH=. .venv/bin/python benchmarks/carrom_rehearse.py --profile club [--samples 500] [--set KEY=VALUE]

prints the best breaks with their mean value and the paired 95 % interval of each one's
difference to the best, then the profile keys that make a player play the best one
(``break_plan = "rehearsed"``; :func:`sim.carrom.rehearse.rehearse`).
"""

from __future__ import annotations

import argparse
import sys

from sim.carrom.rehearse import profile_lines, rehearse


def main(argv=None) -> int:
    from sim.core import load_lineup, load_rules
    from sim.core.config import ConfigError
    from sim.core.game import get_game

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="club", help="a preset or a profile TOML file")
    parser.add_argument("--samples", type=int, default=500, help="noisy executions of each break (>= 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=10, help="breaks printed")
    parser.add_argument(
        "--set", action="append", default=[], dest="overrides", metavar="KEY=VALUE", help="rule overrides"
    )
    args = parser.parse_args(argv)
    if args.samples < 2:
        parser.error(f"--samples: got {args.samples}; allowed: at least 2")
    spec = get_game("carrom")
    try:
        rules = load_rules(spec, None, args.overrides)
        player = load_lineup(spec, [args.profile, args.profile], rules)[0]
    except ConfigError as err:
        for line in dict.fromkeys(err.problems):  # the two seats name the same problem
            print(f"rehearse: error: {line}", file=sys.stderr)
        return 2
    table = rehearse(player.profile, rules, args.samples, args.seed)
    print(
        f"{player.name}: {len(table)} breaks × {args.samples} executions (common draws, seed {args.seed}); "
        f"value in the planner's coins, difference to the best with its paired 95 % interval"
    )
    print(table.head(args.top).to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    tied = int((table["diff_high"] >= 0).sum()) - 1
    print(f"breaks not told apart from the best: {tied}\n\n{profile_lines(table)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
