"""``tablesim replay``: one match told turn by turn, or drawn as an animated page.

Two sources:

* ``tablesim replay GAME --seed S [--match I]``: a fresh match of GAME from the seeds
  (root seed S, seed index I), with ``--players`` and the rules options;
* ``tablesim replay DIR --match N [--variant V] [--lineup L]``: match N of a results directory
  (the tables' ``match`` column), replayed with the rules, profiles, root seed and seat rotation
  its manifest stored; the replay's final scores must equal the stored ones (one error line if
  they do not: the game's code or its dependencies changed since the run).

``--html FILE`` writes a self-contained animated page (play, pause, step, the score line) from
the game's ``frames`` hook (:class:`sim.core.protocols.Frames`).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.game import GameSpec, Player, game_names, get_game
from .common import UsageError, add_rules_options, check_out_file, find_game, load_user_rules, positive_int

__all__ = ["StoredMatch", "stored_match", "replay_stored", "add_parsers"]

#: Exit status when a stored match does not replay to its stored scores.
EXIT_MISMATCH = 1


@dataclass(frozen=True)
class StoredMatch:
    """Match ``match`` of a results directory, ready to be played again."""

    spec: GameSpec
    cell: Any  # sim.core.runner.Cell
    match: int
    root_seed: int
    scores: tuple[float, ...]  # the stored final score of every seat


def _is_results_dir(source: str) -> bool:
    return Path(source).is_dir() and (Path(source) / "manifest.json").is_file()


def _choose(flag: str, given: str | None, present: list[str], default: str | None = None) -> str:
    if given is not None:
        if given not in present:
            raise UsageError(f"{flag} {given!r}: not in this results directory; allowed: {', '.join(present)}")
        return given
    if default in present:
        return default
    if len(present) == 1:
        return present[0]
    raise UsageError(f"{flag}: this results directory holds several; choose one of: {', '.join(present)}")


def _cell_from_manifest(spec: GameSpec, entry: dict[str, Any]):
    """The runner's Cell rebuilt from a manifest's cell record (rules and profiles validated)."""
    from ..core.config import build
    from ..core.runner import Cell

    rules = build(spec.rules_type, entry["rules"], default_source="manifest.json")
    players = tuple(
        Player(str(p["name"]), build(spec.profile_type, p["profile"], default_source="manifest.json"))
        for p in entry["players"]
    )
    return Cell(str(entry["variant"]), str(entry["lineup"]), rules, players, bool(entry.get("rotate_seats")))


def _stored_scores(folder: Path, variant: str, lineup: str, match: int) -> tuple[float, ...] | None:
    """The stored final scores by seat of one match (reads only the part holding it), or None."""
    import pandas as pd

    from ..core.store import ResultStore, cell_key, part_name

    for first, last in ResultStore(folder).stored_ranges().get(cell_key(variant, lineup), ()):
        if first <= match <= last:
            players = pd.read_parquet(folder / "players" / part_name(variant, lineup, first, last))
            rows = players[players["match"] == match].sort_values("seat")
            return tuple(float(v) for v in rows["score"])
    return None


def stored_match(folder: str | Path, match: int, variant: str | None = None, lineup: str | None = None) -> StoredMatch:
    """Match ``match`` of results directory ``folder`` with what is needed to replay it."""
    from ..core.store import ResultStore

    folder = Path(folder)
    manifest = ResultStore(folder).read_manifest()
    if manifest.get("kind") not in ("run", "experiment", "worth", "matrix"):
        raise UsageError(
            f"{folder}: a {manifest.get('kind')} directory; replay reads run, experiment, worth and matrix results"
        )
    spec = find_game(str(manifest["game"]))
    cells = [c for c in manifest.get("cells", []) if isinstance(c, dict)]
    variant = _choose("--variant", variant, list(dict.fromkeys(str(c["variant"]) for c in cells)), "baseline")
    lineup = _choose(
        "--lineup", lineup, list(dict.fromkeys(str(c["lineup"]) for c in cells if str(c["variant"]) == variant))
    )
    entry = next(c for c in cells if str(c["variant"]) == variant and str(c["lineup"]) == lineup)
    scores = _stored_scores(folder, variant, lineup, match)
    if scores is None:
        raise UsageError(
            f"--match {match}: not stored in {folder} for variant {variant!r}, line-up "
            f"{lineup!r} (matches per cell: {manifest.get('matches', '?')})"
        )
    return StoredMatch(spec, _cell_from_manifest(spec, entry), match, int(manifest.get("seed", 0)), scores)


def replay_stored(stored: StoredMatch):
    """Play the stored match again: (the runner's log, seated players, their MatchSeeds)."""
    from ..core.runner import play_one, seat_players
    from ..core.seeding import MatchSeeds

    seed_index, rotation = stored.cell.seed_and_rotation(stored.match)
    seated, slots = seat_players(stored.cell.players, rotation)
    log = play_one(stored.spec, stored.cell, stored.match, stored.root_seed)
    return log, seated, MatchSeeds(stored.root_seed, seed_index, tuple(slots))


def _scores_line(scores) -> str:
    return ", ".join(f"seat {seat} {score:g}" for seat, score in enumerate(scores))


def _write_html(spec: GameSpec, path: str, rules, seated, seeds, expected) -> int:
    from analysis.replay_page import write_replay_page

    frames = spec.frames(rules, seated, seeds)
    final = tuple(float(v) for v in frames.get("final_scores", ()))
    if expected is not None and final != tuple(expected):
        print(
            f"tablesim: error: the game's frames end on {_scores_line(final)}, the match on "
            f"{_scores_line(expected)}: the frames hook does not replay the match",
            file=sys.stderr,
        )
        return EXIT_MISMATCH
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    write_replay_page(frames, path)
    print(f"animated replay: {path}")
    return 0


def _from_results(args: argparse.Namespace) -> int:
    if args.rules is not None or args.overrides or args.players or args.seed is not None:
        raise UsageError(
            "--rules, --set, --players and --seed: not with a results directory (its "
            "manifest fixes them); use --variant and --lineup to choose a cell"
        )
    if args.match is None:
        raise UsageError("--match: required with a results directory (the tables' match number)")
    stored = stored_match(args.source, args.match, args.variant, args.lineup)
    log, seated, seeds = replay_stored(stored)
    spec, cell = stored.spec, stored.cell
    replayed = tuple(float(row["score"]) for row in sorted(log.players, key=lambda r: r["seat"]))
    seed_index, rotation = cell.seed_and_rotation(stored.match)
    print(
        f"{spec.title}: match {stored.match} of {args.source} (variant {cell.variant}, line-up "
        f"{cell.lineup}; root seed {stored.root_seed}, seed index {seed_index}, rotation {rotation}: "
        + ", ".join(f"seat {s} {p.name}" for s, p in enumerate(seated))
        + ")"
    )
    if spec.replay is not None and args.html is None:
        print(_told(spec, cell.rules, seated, seeds, args))
    if replayed != stored.scores:
        print(
            f"tablesim: error: match {stored.match} does not replay: stored final scores "
            f"{_scores_line(stored.scores)}, replayed {_scores_line(replayed)} (the game's code or "
            "a dependency changed since the run; see the manifest's versions)",
            file=sys.stderr,
        )
        return EXIT_MISMATCH
    print(f"replayed final scores equal the stored ones: {_scores_line(replayed)}")
    if args.html is not None:
        return _write_html(spec, args.html, cell.rules, seated, seeds, stored.scores)
    return 0


def _from_game(args: argparse.Namespace) -> int:
    from ..core.profiles import load_lineup
    from ..core.seeding import MatchSeeds

    if args.variant is not None or args.lineup is not None:
        raise UsageError("--variant and --lineup: only with a results directory")
    spec = find_game(args.source)
    hook = spec.frames if args.html is not None else spec.replay
    if hook is None:
        what, attr = ("animated replay (frames hook)", "frames") if args.html else ("replay", "replay")
        others = [n for n in game_names() if getattr(get_game(n), attr) is not None]
        raise UsageError(f"game: {spec.name} has no {what}; allowed: {', '.join(others) or 'none'}")
    seed = 0 if args.seed is None else args.seed
    match = 0 if args.match is None else args.match
    positive_int("--seed", seed, 0)
    positive_int("--match", match, 0)
    rules = load_user_rules(spec, args)
    references = args.players.split(",") if args.players else list(spec.demo_players)
    players = load_lineup(spec, references, rules)
    seeds = MatchSeeds(seed, match)
    if args.html is not None:
        return _write_html(spec, args.html, rules, players, seeds, None)
    print(_told(spec, rules, players, seeds, args))
    return 0


def _told(spec: GameSpec, rules, players, seeds, args: argparse.Namespace) -> str:
    """The game's replay text, with ``--part`` and ``--all-turns`` passed to a hook that takes them."""
    import inspect

    accepts = inspect.signature(spec.replay).parameters
    options = {}
    for flag, name, value, given in (
        ("--part", "part", args.part, args.part is not None),
        ("--all-turns", "fold", not args.all_turns, args.all_turns),
    ):
        if not given:
            continue
        if name not in accepts:
            raise UsageError(f"{flag}: {spec.name} tells a match whole; it takes no {flag}")
        options[name] = value
    if args.part is not None:
        positive_int("--part", args.part, 1)
    try:
        return spec.replay(rules, players, seeds, **options)
    except ValueError as exc:
        raise UsageError(f"--part {args.part}: {exc}") from None


def cmd_replay(args: argparse.Namespace) -> int:
    if args.html is not None:
        check_out_file("--html", args.html, (".html", ".htm"))
    if args.match is not None:
        positive_int("--match", args.match, 0)
    if _is_results_dir(args.source):
        if args.html is not None:
            spec = find_game(json.loads((Path(args.source) / "manifest.json").read_text("utf-8")).get("game", ""))
            if spec.frames is None:
                raise UsageError(f"--html: {spec.name} has no frames hook (no animated replay)")
        return _from_results(args)
    if Path(args.source).exists() or "/" in args.source:
        raise UsageError(
            f"{args.source}: not a tablesim results directory (no manifest.json) and not a game; "
            f"games: {', '.join(game_names())}"
        )
    return _from_game(args)


def add_parsers(sub) -> None:
    """Add ``tablesim replay`` to the parser."""
    p = sub.add_parser(
        "replay",
        help="tell one match turn by turn (a fresh one, or a stored one of a results directory)",
        epilog="examples (in this order, from an empty folder):\n  tablesim replay gasterospeed --seed 3\n"
        "  tablesim replay gasterospeed --seed 3 --part 2\n"
        "  tablesim examples --copy examples\n"
        "  tablesim experiment examples/curlastique_demo.toml --jobs 2\n"
        "  tablesim replay results/curlastique_demo --match 17 --variant bullseye-150\n"
        "(--html FILE.html: for the games with a frames hook)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("source", metavar="GAME|DIR", help="a game, or a results directory (run or experiment)")
    p.add_argument("--seed", type=int, default=None, help="root seed (GAME only; default 0)")
    p.add_argument(
        "--match",
        type=int,
        default=None,
        help="GAME: match index under that seed (default 0); DIR: the tables' match number",
    )
    p.add_argument("--variant", default=None, help="DIR: the variant (default baseline)")
    p.add_argument("--lineup", default=None, help="DIR: the line-up (default: the only one)")
    p.add_argument("--players", default=None, help="GAME: comma-separated profiles (default: the demo line-up)")
    p.add_argument(
        "--part",
        type=int,
        default=None,
        metavar="N",
        help="the part of the match to tell, for games played in parts (a race of a "
        "Gastérospeed championship; default 1)",
    )
    p.add_argument(
        "--all-turns",
        action="store_true",
        help="tell every turn (by default a run of turns where one snail is left alone is folded)",
    )
    p.add_argument(
        "--html",
        default=None,
        metavar="FILE.html",
        help="write a self-contained animated page (play, pause, step, scores)",
    )
    add_rules_options(p)
    p.set_defaults(func=cmd_replay)
