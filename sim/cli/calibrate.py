"""``tablesim calibrate``: fit each player of a playtest score sheet to the game's profiles.

Everything the user names is checked first (the game, the sheet, the rules, the fitted space,
the output directory); a bad one is one line, exit status 2, nothing written. Then a design of
line-ups is simulated once, an emulator of the per-round outcomes is fitted to it, and the
sheet's players are fitted against the emulator (:mod:`analysis.calibrate`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .common import (
    add_rules_options,
    check_jobs,
    check_out_dir,
    command_line,
    find_game,
    load_user_rules,
    positive_int,
)


def _space(spec, args):
    from analysis.calibrate.space import (
        KeySpace,
        SkillSpace,
        parse_fit_keys,
        parse_path,
    )

    if args.fit:
        base = args.base or (spec.skill_path[len(spec.skill_path) // 2] if getattr(spec, "skill_path", ()) else None)
        if base is None:
            from ..core.config import ConfigError

            raise ConfigError(
                [
                    f"--base: {spec.name} declares no skill path to take a middle preset from; "
                    "name the preset the fitted keys start from, e.g. --base NAME"
                ]
            )
        return KeySpace(spec, base, parse_fit_keys(spec, args.fit, base))
    return SkillSpace(spec, parse_path(spec, args.path))


def cmd_calibrate(args: argparse.Namespace) -> int:
    from analysis.calibrate.sheet import read_game_sheet

    check_jobs(args.jobs)
    positive_int("--bins", args.bins, 2, 30)
    positive_int("--points", args.points, 4)
    positive_int("--matches", args.matches, 2)
    spec = find_game(args.game)
    out = Path(args.out or Path("results") / f"calibrate-{Path(args.sheet).stem}")
    check_out_dir("--out", out)
    rules = load_user_rules(spec, args)
    space = _space(spec, args)
    sheet = read_game_sheet(spec, args.sheet, rules)
    # the heavy imports only once every input is known good (a bad sheet answers at once)
    from analysis.calibrate.calibration import build_emulators, fit_sheet, sheet_outcome
    from analysis.calibrate.goodness import goodness_of_fit
    from analysis.calibrate.output import write_results

    outcome = sheet_outcome(spec, sheet, None if args.source is None else {sheet.value: args.source})
    sizes = sorted({len(lineup) for lineup in sheet.lineups.values()})
    emulated = build_emulators(
        spec,
        rules,
        space,
        outcome,
        sizes,
        points=args.points,
        matches=args.matches,
        seed=args.seed,
        jobs=args.jobs,
        progress=args.progress,
        max_bins=args.bins,
    )
    result = fit_sheet(emulated, sheet)
    goodness = goodness_of_fit(result.likelihood, result.fit.theta, sheet.players, emulated.categories.labels)
    command = command_line(args)
    written = write_results(result, goodness, out, command, spec.title)
    _print(result, goodness, out, written, args.format)
    return 0


def _print(result, goodness, out: Path, written: list[Path], fmt: str) -> None:
    from analysis.calibrate.output import fit_rows

    rows = fit_rows(result)
    if fmt == "json":
        print(
            json.dumps(
                {
                    "fit": rows,
                    "goodness": {"chi2": goodness.statistic, "df": goodness.df, "p_value": goodness.p_value},
                    "files": [str(p) for p in written],
                },
                indent=2,
            )
        )
        return
    print(f"{result.emulated.space.description}; results in {out}")
    for r in rows:
        print(
            f"  {r['player']:<16} {r['key']} = {r['estimate']:.3g}  (95 % {r['low_95']:.3g} to {r['high_95']:.3g}) "
            f"from {r['rounds']} rounds"
        )
    print(f"goodness of fit: chi2 = {goodness.statistic:.2f} on {goodness.df} df, p = {goodness.p_value:.3g}")
    profiles = [p for p in written if p.parent.name == "profiles"]
    print("profiles: " + ",".join(str(p) for p in profiles), file=sys.stderr)


def add_parsers(sub) -> None:
    """Add ``tablesim calibrate`` to the ``tablesim`` parser."""
    p = sub.add_parser(
        "calibrate",
        help="fit player profiles to a playtest score sheet",
        epilog="example: tablesim examples --copy examples && "
        "tablesim calibrate curlastique examples/curlastique_sheet.csv --jobs 2",
    )
    p.add_argument("game", help="the game's name (tablesim games)")
    p.add_argument("sheet", help="the score sheet CSV: match,round,player,points or match,race,player,position")
    p.add_argument(
        "--fit", default=None, metavar="KEYS", help="profile keys to fit instead of the skill axis: KEY[=LOW:HIGH],..."
    )
    p.add_argument("--base", default=None, help="with --fit: the preset the keys start from")
    p.add_argument("--path", default=None, help="the skill path (presets, least skilled first; default the game's)")
    p.add_argument("--out", default=None, help="results directory (default results/calibrate-<sheet stem>)")
    p.add_argument(
        "--points", type=int, default=81, help="design line-ups simulated (default 81: a 9 × 9 grid for 2 players)"
    )
    p.add_argument("--matches", type=int, default=8, help="matches per design line-up (default 8)")
    p.add_argument("--bins", type=int, default=10, help="outcome categories at most (default 10)")
    p.add_argument(
        "--source",
        default=None,
        metavar="COLUMN",
        help="the rounds-table column the sheet's points/position are compared with (default: the "
        "game's map, GameSpec.sheet.columns, else the same name)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="worker processes (-1: every core)")
    add_rules_options(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
    p.set_defaults(func=cmd_calibrate)
