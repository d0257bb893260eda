"""``tablesim games`` and ``tablesim rules``: what is installed and what its rules are."""

from __future__ import annotations

import argparse
import json
import sys

from ..core.game import game_names, get_game
from .common import UsageError, add_rules_options, find_game, load_user_rules


def cmd_games(args: argparse.Namespace) -> int:
    rows = []
    for name in game_names():
        spec = get_game(name)
        rows.append({"name": name, "title": spec.title, "players": list(spec.player_counts)})
    if args.format == "json":
        print(json.dumps(rows, indent=2))
    else:
        for row in rows:
            counts = ", ".join(str(n) for n in row["players"])
            print(f"{row['name']:<14} {row['title']:<16} players: {counts}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from ..core.config import to_toml
    from ..core.rules import default_rules_text

    spec = find_game(args.game)
    if args.rules is None and not args.overrides:
        load_user_rules(spec, args)  # the shipped defaults must themselves validate
        sys.stdout.write(default_rules_text(spec))
    else:
        sys.stdout.write(to_toml(load_user_rules(spec, args)))
    return 0


def cmd_new_game(args: argparse.Namespace) -> int:
    from ..skeleton import SkeletonError, write_skeleton

    if args.name in game_names():
        raise UsageError(f"NAME {args.name!r}: a game of that name is already installed; choose another")
    try:
        files = write_skeleton(args.name, args.dir)
    except SkeletonError as exc:
        raise UsageError(str(exc)) from None
    print(f"wrote {len(files)} files under {args.dir}:")
    for path in files:
        print(f"  {path}")
    print(f"next: pip install -e {args.dir} && tablesim run {args.name} --matches 100 --players steady,bold")
    return 0


def add_parsers(sub) -> None:
    """Add this module's commands to the ``tablesim`` parser."""
    p = sub.add_parser("games", help="list the games")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("rules", help="print a game's rules as TOML (the file to copy and edit)",
                       epilog="example: tablesim rules curlastique > my_rules.toml")
    p.add_argument("game")
    add_rules_options(p)
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("new-game", help="write a package skeleton for a new game (passes the conformance suite)",
                       epilog="example: tablesim new-game dice-duel my-dice-duel/")
    p.add_argument("name", help="the game's name: lower-case letters, digits and hyphens")
    p.add_argument("dir", help="a new (or empty) directory for the package")
    p.set_defaults(func=cmd_new_game)
