"""``tablesim matrix``: every pair of profiles head to head, ratings and the meta-game."""

from __future__ import annotations

import argparse
import itertools
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
    package_versions,
    positive_int,
)

#: Matches per pair when --matches is not given (whole seat rotations).
DEFAULT_MATCHES = 400


def cmd_matrix(args: argparse.Namespace) -> int:
    from ..core.profiles import load_profile
    from ..core.runner import MAX_CHUNK_SIZE, MAX_MATCHES, Cell

    spec = find_game(args.game)
    positive_int("--matches", args.matches, 2, MAX_MATCHES)
    positive_int("--chunk-size", args.chunk_size, 0, MAX_CHUNK_SIZE)
    positive_int("--seed", args.seed, 0)
    positive_int("--bootstrap", args.bootstrap, 50, 100_000)
    check_jobs(args.jobs)
    check_backend(args)
    if 2 not in spec.player_counts:
        raise UsageError(
            f"game: {spec.name} is not played by two players (it takes "
            f"{', '.join(map(str, spec.player_counts))}); the matrix plays every pair head to head"
        )
    references = [r.strip() for r in args.profiles.split(",")]
    if len(references) < 2 or any(not r for r in references):
        raise UsageError(
            f"--profiles: got {args.profiles!r}; allowed: two or more comma-separated presets of "
            f"{spec.name} or profile .toml files"
        )
    problems: list[str] = []
    rules = rules_or_problems(spec, args, problems)
    players = []
    for reference in references:
        try:
            players.append(load_profile(spec, reference))
        except ConfigError as exc:
            problems += exc.problems
    names = [p.name for p in players]
    if not problems and len(set(names)) != len(names):
        problems.append(f"--profiles: the names {', '.join(names)} repeat; give each profile file its own name")
    if problems:
        raise ConfigError(problems)
    matches = args.matches + args.matches % 2  # whole rotations: each seed with both seatings
    lineups = {f"{a.name} vs {b.name}": (a, b) for a, b in itertools.combinations(players, 2)}
    cells = [Cell("baseline", name, rules, pair, rotate_seats=True) for name, pair in lineups.items()]
    manifest = {
        "kind": "matrix",
        "game": spec.name,
        "seed": args.seed,
        "matches": matches,
        "rotate_seats": True,
        "chunk_size": args.chunk_size,
        "cells": [
            {
                "variant": c.variant,
                "lineup": c.lineup,
                "rules": to_dict(rules),
                "players": [{"name": p.name, "profile": to_dict(p.profile)} for p in c.players],
                "rotate_seats": True,
            }
            for c in cells
        ],
        "matrix": {"profiles": names, "lineups": {name: [a.name, b.name] for name, (a, b) in lineups.items()}},
        "command": command_line(args),
        "versions": package_versions(),
    }
    said = (
        [f"tablesim matrix: --matches {args.matches} rounded up to {matches}: every seed is played with both seatings"]
        if matches != args.matches
        else []
    )
    said.append(
        f"tablesim matrix: {len(cells)} pairs of {len(players)} profiles, {matches:,} matches each "
        f"({len(cells) * matches:,} in all)"
    )
    tables, elapsed, status = play_cells("matrix", spec, cells, matches, args, manifest, "\n".join(said))
    if tables is None:
        return status
    _print_matrix(spec, tables, manifest["matrix"], args, elapsed)
    if args.out is not None and args.format != "json":
        print(f"report: tablesim report {args.out}", file=sys.stderr)
    return 0


def _print_matrix(spec, tables, matrix: dict, args, elapsed: float) -> None:
    from analysis.metagame import metagame, metagame_sentences

    game = metagame(tables, matrix["lineups"], matrix["profiles"], bootstrap=args.bootstrap, seed=args.seed)
    if args.format == "json":
        print(
            json.dumps(
                {
                    "pairs": game.pairs.to_dict("records"),
                    "ratings": game.ratings.to_dict("records"),
                    "seat": game.seat,
                    "seat_ci": list(game.seat_ci),
                    "cyclic_share": game.cyclic,
                    "cyclic_ci": list(game.cyclic_ci),
                    "decided": game.decided,
                    "seeds": game.seeds,
                    "sentences": metagame_sentences(game),
                },
                indent=2,
            )
        )
        return
    title = f"{spec.title}: every pair of {len(game.profiles)} profiles head to head"
    print(f"{title}\n{'=' * len(title)}")
    print(f"{game.seeds:,} seeds, both seatings, common to every pair; {elapsed:.1f} s\n")
    width = max(len(p) for p in game.profiles) + 2
    print("P(row beats column), draws count half")
    print(" " * width + "".join(f"{p[:10]:>11}" for p in game.profiles))
    cells = {(r.profile, r.opponent): r.p for r in game.pairs.itertuples()}
    for row in game.profiles:
        print(
            f"{row:<{width}}"
            + "".join(
                f"{'—' if row == col else format(cells.get((row, col), float('nan')), '.3f'):>11}"
                for col in game.profiles
            )
        )
    print(f"\n{'profile':<{width}} {'rating, Elo [95 % CI]':<24} {'Nash [95 % CI]':<20} {'α-Rank':>7}")
    for r in game.ratings.itertuples():
        rating = f"{r.elo:+.0f} [{r.elo_low:+.0f}, {r.elo_high:+.0f}]"
        mixture = f"{r.nash:.2f} [{r.nash_low:.2f}, {r.nash_high:.2f}]"
        print(f"{r.profile:<{width}} {rating:<24} {mixture:<20} {r.alpha_rank:7.2f}")
    print()
    for sentence in metagame_sentences(game):
        print(f"- {sentence}")


def add_parsers(sub) -> None:
    """Add ``matrix`` to the ``tablesim`` parser."""
    p = sub.add_parser(
        "matrix",
        help="every pair of profiles head to head: ratings, Nash, α-Rank, cyclic share",
        description="Play every pair of the profiles head to head on the same seeds (both seatings) "
        "and print the win matrix, Bradley–Terry ratings with a seat term, the Nash "
        "equilibrium of the meta-game, α-Rank and how cyclic the matrix is.",
        epilog="example: tablesim matrix gasterospeed --profiles tactician,casual,greedy,random --matches 200 --jobs 2",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", help=f"an installed game: {', '.join(game_names())} (tablesim games)")
    p.add_argument("--profiles", required=True, help="two or more comma-separated presets or profile .toml files")
    p.add_argument(
        "--matches",
        type=int,
        default=DEFAULT_MATCHES,
        help=f"matches per pair, both seatings (default {DEFAULT_MATCHES})",
    )
    p.add_argument(
        "--bootstrap",
        type=int,
        default=400,
        help="bootstrap draws over seeds for the Nash, α-Rank and cyclic-share intervals (default 400)",
    )
    add_cells_options(p)
    p.set_defaults(func=cmd_matrix)
