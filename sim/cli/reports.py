"""``tablesim report`` and ``shot``: reading results, and one shot of a dexterity game."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..core.game import game_names, get_game
from .common import (
    ALLOW_INCOMPLETE_HELP,
    WRITER_EXIT_STATUS,
    UsageError,
    add_rules_options,
    check_out_file,
    check_toml_file,
    find_game,
    incomplete_status,
    load_user_rules,
    results_folder,
)


def cmd_report(args: argparse.Namespace) -> int:
    """Write the report; exit 3 (:data:`~sim.cli.common.EXIT_INCOMPLETE`) if planned matches are missing."""
    from analysis.report import build_report
    from analysis.results import load_results

    from ..core.store import ResultStore

    folder = results_folder("report", args.dir)
    kind = ResultStore(folder).read_manifest()["kind"]
    check_out_file("--out", args.out if args.out is not None else folder / "report.html", (".html", ".htm"))
    if args.markdown is not None:
        if kind in ("balance", "sensitivity"):
            raise UsageError("--markdown: only for experiment, run and exploit reports")
        check_out_file("--markdown", args.markdown, (".md", ".markdown"))
    if kind == "exploit":
        from analysis.exploit_report import build_exploit_report

        try:
            print(f"report: {build_exploit_report(folder, args.out, args.markdown)}")
        except (FileNotFoundError, ValueError) as exc:  # no finished search, or a damaged file
            raise UsageError(str(exc).splitlines()[0]) from None
        return 0
    try:
        if kind in ("balance", "sensitivity"):
            from analysis.balance.report import build_search_report

            print(f"report: {build_search_report(folder, args.out)}")
            return 0
        results = load_results(folder, stream=None)
        path = build_report(results, args.out, markdown=args.markdown)
    except FileNotFoundError as exc:  # no table, or no finished match yet
        raise UsageError(str(exc).splitlines()[0]) from None
    print(f"report: {path}")
    return incomplete_status("report", folder, results.completeness, getattr(args, "allow_incomplete", False))


def cmd_shot(args: argparse.Namespace) -> int:
    spec = find_game(args.game)
    if spec.shot is None:
        raise UsageError(
            f"game: {spec.name} is not a dexterity game; `shot` takes one of: "
            + ", ".join(n for n in game_names() if get_game(n).shot is not None)
        )
    if args.plot is not None:
        check_out_file("--plot", args.plot, (".png", ".svg", ".pdf"))
    check_toml_file("--state", args.state)
    rules = load_user_rules(spec, args)
    outcome = spec.shot(rules, x=args.x, angle_deg=args.angle, speed=args.speed, state=args.state)
    if args.plot:
        Path(args.plot).parent.mkdir(parents=True, exist_ok=True)
        outcome.plot(args.plot)
    if args.format == "json":
        print(json.dumps(outcome.as_dict(), indent=2))
    else:
        print(outcome.text())
        if args.plot:
            print(f"plot: {args.plot}")
    return 0


def add_parsers(sub) -> None:
    """Add this module's commands to the ``tablesim`` parser."""
    p = sub.add_parser(
        "report",
        help="a self-contained HTML design report of a results directory",
        description="A self-contained HTML design report of a results directory. A directory "
        "that lacks planned matches is reported from the matches it holds, under a "
        "banner naming the short cells and the command that replays them.",
        epilog="example: tablesim examples --copy examples && "
        "tablesim experiment examples/curlastique_demo.toml && "
        "tablesim report results/curlastique_demo --out curlastique_demo.html\n" + WRITER_EXIT_STATUS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dir")
    p.add_argument("--out", default=None, metavar="FILE.html", help="default: DIR/report.html")
    p.add_argument("--markdown", default=None, metavar="FILE.md", help="also write a Markdown export")
    p.add_argument("--allow-incomplete", action="store_true", help=ALLOW_INCOMPLETE_HELP)
    p.set_defaults(func=cmd_report)

    p = sub.add_parser(
        "shot",
        help="play and draw one shot of a dexterity game",
        epilog="example: tablesim shot curlastique --x 0.0 --angle 0 --speed 1.38 --plot shot.png",
    )
    p.add_argument("game")
    p.add_argument("--x", type=float, default=None, help="lateral start position (m)")
    p.add_argument("--angle", type=float, default=0.0, help="aim angle from straight ahead (degrees)")
    p.add_argument("--speed", type=float, required=True, help="launch speed (m/s)")
    p.add_argument("--state", default=None, help="TOML file of discs already on the board")
    p.add_argument("--plot", default=None, metavar="FILE.png", help="draw the trajectories")
    p.add_argument("--format", choices=("text", "json"), default="text")
    add_rules_options(p)
    p.set_defaults(func=cmd_shot)
