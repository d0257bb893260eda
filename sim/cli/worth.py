"""``tablesim worth``: what each card, zone or shot is worth to a player (restricted play)."""

from __future__ import annotations

import argparse
import json
import sys

from ..core.config import ConfigError, to_dict
from ..core.game import game_names
from .cells import add_cells_options, play_cells, rules_or_problems
from .common import (
    UsageError,
    check_backend,
    check_jobs,
    command_line,
    find_game,
    load_user_rules,
    package_versions,
    positive_int,
)

#: Matches per line-up when --matches is not given (rounded up to whole seat rotations).
DEFAULT_MATCHES = 400


def _check_declares_choices(spec) -> None:
    """One line naming the games that do, for a game without restrictable choices."""
    if spec.restrictions is None:
        raise UsageError(
            f"game: {spec.name} declares no choices a profile may forbid; `worth` takes one of: "
            + ", ".join(n for n in game_names() if find_game(n).restrictions is not None)
        )


def _list_choices(spec, args) -> int:
    rules = load_user_rules(spec, args)
    _check_declares_choices(spec)
    choices = spec.restrictions.choices(rules)
    if args.format == "json":
        print(json.dumps([{"name": c.name, "kind": c.kind, "label": c.label} for c in choices], indent=2))
        return 0
    width = max(len(c.name) for c in choices)
    print(f"{spec.title}: the choices a profile may forbid (forbid = [...]; tablesim worth measures each)")
    for choice in choices:
        print(f"  {choice.name:<{width}}  {choice.kind:<5} {choice.label}")
    return 0


def cmd_worth(args: argparse.Namespace) -> int:
    from ..core.profiles import load_lineup
    from ..core.restrict import choices_named, restricted_lineups, worth_manifest
    from ..core.runner import MAX_CHUNK_SIZE, MAX_MATCHES, Cell

    spec = find_game(args.game)
    if args.list:
        return _list_choices(spec, args)
    if not args.players:
        raise UsageError("--players: required (the line-up, e.g. --players tactician,tactician); or --list")
    positive_int("--matches", args.matches, 1, MAX_MATCHES)
    positive_int("--chunk-size", args.chunk_size, 0, MAX_CHUNK_SIZE)
    positive_int("--seed", args.seed, 0)
    positive_int("--slot", args.slot, 0)
    check_jobs(args.jobs)
    check_backend(args)
    _check_declares_choices(spec)
    problems: list[str] = []
    rules = rules_or_problems(spec, args, problems)
    try:
        players = load_lineup(spec, args.players.split(","), rules)
    except ConfigError as exc:
        problems += exc.problems
        players = ()
    if problems:
        raise ConfigError(problems)
    if args.slot >= len(players):
        raise UsageError(f"--slot: got {args.slot}; the line-up has slots 0 to {len(players) - 1}")
    wanted = [c.strip() for c in args.choices.split(",")] if args.choices else "all"
    choices = choices_named(spec.restrictions, rules, wanted, spec.name, label="--choices")
    seats = len(players)
    matches = -(-args.matches // seats) * seats  # whole rotations: every seed under every seating
    lineup = args.lineup or ",".join(p.name for p in players)
    expanded = list(restricted_lineups(lineup, players, args.slot, choices))
    cells = [Cell("baseline", name, rules, seated, rotate_seats=seats > 1) for name, _, seated in expanded]
    worth = worth_manifest(args.slot, choices, {name: (lineup, choice) for name, choice, _ in expanded})
    manifest = {
        "kind": "worth",
        "game": spec.name,
        "seed": args.seed,
        "matches": matches,
        "rotate_seats": seats > 1,
        "chunk_size": args.chunk_size,
        "cells": [
            {
                "variant": c.variant,
                "lineup": c.lineup,
                "rules": to_dict(rules),
                "players": [{"name": p.name, "profile": to_dict(p.profile)} for p in c.players],
                "rotate_seats": c.rotate_seats,
            }
            for c in cells
        ],
        "worth": worth,
        "command": command_line(args),
        "versions": package_versions(),
    }
    said = (
        [
            f"tablesim worth: --matches {args.matches} rounded up to {matches}: every seed is played under "
            f"all {seats} rotations of the line-up"
        ]
        if matches != args.matches
        else []
    )
    said.append(
        f"tablesim worth: {len(choices)} choices + the unrestricted line-up, {matches:,} matches each "
        f"({len(cells) * matches:,} in all)"
    )
    tables, elapsed, status = play_cells("worth", spec, cells, matches, args, manifest, "\n".join(said))
    if tables is None:
        return status
    _print_worth(spec, tables, worth, args.format, elapsed, players[args.slot].name)
    if args.out is not None and args.format != "json":
        if args.report:
            from .reports import cmd_report

            return cmd_report(argparse.Namespace(dir=args.out, out=None, markdown=None))
        print(f"report: tablesim report {args.out}", file=sys.stderr)
    return 0


def _print_worth(spec, tables, worth: dict, fmt: str, elapsed: float, who: str) -> None:
    from analysis.narrative import pct
    from analysis.worth import observed_comparison, points, worth_sentences, worth_table

    table = worth_table(tables, worth, spec.restrictions.used, observed=spec.restrictions.observed)
    if fmt == "json":
        print(table.to_json(orient="records", indent=2))
        return
    title = f"{spec.title}: what each choice is worth to {who} (slot {worth['slot']})"
    print(f"{title}\n{'=' * len(title)}")
    print(
        f"{int(table['pairs'].max()) if len(table) else 0:,} paired matches per choice, seats rotated, common seeds; "
        f"{elapsed:.1f} s"
    )
    print("worth = its win rate allowed − forbidden, points; CI consistent with the Holm-adjusted p\n")
    width = max([len(str(x)) for x in table["label"]] + [6])
    print(
        f"  {'choice':<{width}}  {'worth':>6}  {'adjusted CI':<16}  {'adj. p':>7}  {'detect':>6}  "
        f"{'made in':>8}  {'per match':>9}"
    )
    for r in table.to_dict("records"):
        ci = f"[{points(r['adj_low'])}, {points(r['adj_high'])}]"
        made = "—" if r["used_share"] != r["used_share"] else pct(r["used_share"])
        per = "—" if r["uses_per_match"] != r["uses_per_match"] else f"{r['uses_per_match']:.2f}"
        print(
            f"  {str(r['label']):<{width}}  {points(r['worth']):>6}  {ci:<16}  {r['p_adjusted']:7.2g}  "
            f"{points(r['detectable'], False):>6}  {made:>8}  {per:>9}"
        )
    compared = observed_comparison(table) if spec.restrictions.observed is not None else {}
    if compared:
        print(
            f"\nthe observational ranking (won when made) against the worth: Spearman ρ = {compared['rho']:.2f}; "
            f"on opposite sides of the median: {', '.join(compared['flips']) or 'none'}"
        )
    print()
    for sentence in worth_sentences(table):
        print(f"- {sentence}")


def add_parsers(sub) -> None:
    """Add ``worth`` to the ``tablesim`` parser."""
    p = sub.add_parser(
        "worth",
        help="what each card, zone or shot is worth: restricted play on common seeds",
        description="Play the line-up as given and, for each restrictable choice, the same line-up "
        "with one player forbidding it, on the same seeds with the seats rotated; "
        "print each choice's worth (win rate allowed − forbidden) with its interval.",
        epilog="example: tablesim worth gasterospeed --players tactician,tactician,tactician,tactician "
        "--matches 200 --jobs 2",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", help=f"an installed game: {', '.join(game_names())} (tablesim games)")
    p.add_argument("--players", default=None, help="comma-separated profiles by seat (presets or profile .toml files)")
    p.add_argument(
        "--matches",
        type=int,
        default=DEFAULT_MATCHES,
        help=f"matches per line-up: the unrestricted one and each restricted one (default {DEFAULT_MATCHES})",
    )
    p.add_argument(
        "--choices", default=None, help="comma-separated choices to measure (default: every one; --list shows them)"
    )
    p.add_argument("--slot", type=int, default=0, help="the line-up slot whose player is restricted (default 0)")
    p.add_argument("--list", action="store_true", help="list the game's restrictable choices and stop")
    p.add_argument("--lineup", default=None, help="a name for the line-up in the tables")
    p.add_argument("--report", action="store_true", help="with --out: write the HTML report when done")
    add_cells_options(p)
    p.set_defaults(func=cmd_worth)
