"""``tablesim run`` and ``tablesim experiment``: play matches into a results directory."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ..core.config import ConfigError, to_dict
from ..core.game import GameSpec, game_names
from ..core.interrupts import ctrl_c_as_interrupt
from .cells import add_cells_options
from .common import (
    UsageError,
    add_backend_options,
    check_backend,
    check_jobs,
    check_toml_file,
    cluster,
    command_line,
    find_game,
    interrupted,
    load_user_rules,
    package_versions,
    positive_int,
    prepare_out,
    say_resumed,
    writing,
)
from .compact import compact_after_run
from .reports import cmd_report


def _whole_rotations(matches: int, seats: int, rotate: bool) -> int:
    """``matches`` rounded up to whole rotations of the seats."""
    if not rotate or matches % seats == 0:
        return matches
    return matches + seats - matches % seats


def cmd_run(args: argparse.Namespace) -> int:
    from ..core.profiles import load_lineup
    from ..core.runner import MAX_CHUNK_SIZE, MAX_MATCHES, Cell, run_cells

    spec = find_game(args.game)
    positive_int("--matches", args.matches, 1, MAX_MATCHES)
    positive_int("--chunk-size", args.chunk_size, 0, MAX_CHUNK_SIZE)
    positive_int("--seed", args.seed, 0)
    check_jobs(args.jobs)
    check_backend(args)
    problems: list[str] = []
    try:
        rules = load_user_rules(spec, args)
    except ConfigError as exc:
        problems += exc.problems
        rules = None
    try:
        players = load_lineup(spec, args.players.split(","), rules)
    except ConfigError as exc:
        problems += exc.problems
    if problems:
        raise ConfigError(problems)
    lineup = args.lineup or ",".join(p.name for p in players)
    rotate = args.rotate and len(players) > 1
    matches = _whole_rotations(args.matches, len(players), rotate)
    rule = _stopping_rule(args, matches, len(players), rotate)
    if rule is not None and not rule.half_width and not rotate and len({p.name for p in players}) > 1:
        raise UsageError(
            "--stop-fair: the seats hold different profiles and are not rotated (--no-rotate), so "
            "seat and profile are confounded; rotate the seats or give one profile in every seat"
        )
    cell = Cell(variant="baseline", lineup=lineup, rules=rules, players=players, rotate_seats=rotate)
    command = command_line(args)
    manifest = {
        "kind": "run",
        "game": spec.name,
        "seed": args.seed,
        "cells": [
            {
                "variant": cell.variant,
                "lineup": cell.lineup,
                "rules": to_dict(rules),
                "players": [{"name": p.name, "profile": to_dict(p.profile)} for p in players],
                "rotate_seats": rotate,
            }
        ],
        "rotate_seats": rotate,
        "matches": matches,
        "chunk_size": args.chunk_size,
        "command": command,
        "versions": package_versions(),
    }
    if rule is not None:
        manifest["stopping_rule"] = {**to_dict(rule), "look_every": rule.step}
    store = prepare_out(args.out, manifest)
    if matches != args.matches:  # said once the input is known to be good
        print(
            f"tablesim run: --matches {args.matches} rounded up to {matches}: with seat rotation every "
            f"seed is played under all {len(players)} rotations of the line-up",
            file=sys.stderr,
        )
    started = time.perf_counter()
    with writing(store, command, manifest):
        if store is not None:
            say_resumed("run", store, [cell], matches)
            store.write_manifest({**manifest, "status": "running"})
        try:
            with ctrl_c_as_interrupt(), cluster(args):
                if rule is None:
                    tables = run_cells(
                        spec,
                        [cell],
                        matches,
                        args.seed,
                        jobs=args.jobs,
                        chunk_size=args.chunk_size,
                        backend=args.backend,
                        store=store,
                        progress=args.progress,
                        read_back=False,
                    )
                else:
                    tables, stops = _play_until_answered(spec, cell, rule, matches, args, store, manifest)
                    manifest["stopping"] = stops
                    matches = stops[0]["matches"]
        except KeyboardInterrupt:
            if store is not None:
                store.write_manifest({**manifest, "status": "interrupted"})
            return interrupted("run", store)
        if store is not None:
            store.write_manifest({**manifest, "status": "complete", "stored_matches": store.stored_count()})
            compact_after_run(store, args.jobs, args.backend)
    summary = summarise(spec, tables if store is None else store.path)
    elapsed = time.perf_counter() - started
    print_summary(spec, summary, args.format, elapsed, rotation_line(rotate, len(players), matches))
    if args.format != "json":
        print_stops(manifest)
    return 0


def _stopping_rule(args: argparse.Namespace, matches: int, seats: int, rotate: bool):
    """The ``--stop-*`` options as a :class:`~sim.core.stopping.Stopping` rule (None without them)."""
    from ..core.runner import DEFAULT_CHUNK_SIZE, MAX_MATCHES
    from ..core.stopping import Stopping

    asked = args.stop_fair is not None or args.stop_half_width is not None
    if not asked:
        if args.max_matches is not None:
            raise UsageError(
                "--max-matches: only with --stop-fair or --stop-half-width (it caps a run that "
                "stops once its answer is clear)"
            )
        return None
    for flag, value in (("--stop-fair", args.stop_fair), ("--stop-half-width", args.stop_half_width)):
        if value is not None and not 0 < value <= 0.5:
            raise UsageError(f"{flag}: got {value}; allowed: a proportion above 0 and at most 0.5, e.g. 0.02")
    if not 0 < args.stop_alpha <= 0.5:
        raise UsageError(f"--stop-alpha: got {args.stop_alpha}; allowed: above 0 and at most 0.5")
    cap = _whole_rotations(args.max_matches or 20000, seats, rotate)
    positive_int("--max-matches", cap, matches, MAX_MATCHES)
    return Stopping(
        fairness=args.stop_fair or 0.0,
        half_width=args.stop_half_width or 0.0,
        alpha=args.stop_alpha,
        max_matches=cap,
        step=_whole_rotations(args.chunk_size or DEFAULT_CHUNK_SIZE, seats, rotate),
    )


def _play_until_answered(spec, cell, rule, matches: int, args, store, manifest: dict):
    """Play one line-up in looks of a chunk until the ``--stop-*`` question is answered."""
    from ..core.stopping import Looks, play_until_answered
    from ..core.store import assemble

    def record(stops: list[dict]) -> None:
        if store is not None:
            store.write_manifest({**manifest, "status": "running", "stopping": stops})

    kept: dict = {}
    looks = Looks(spec, [cell], rule, matches, rule.step, args.seed, args.chunk_size)
    stops = play_until_answered(
        looks, store, record, kept=kept, jobs=args.jobs, backend=args.backend, progress=args.progress
    )
    return ({} if store is not None else assemble(kept)), stops


def rotation_line(rotate: bool, seats: int, matches: int) -> str:
    """What the summary says about seat order."""
    if rotate:
        return (
            f"seats rotated: each of the {matches // seats} seeds is played under all {seats} "
            "rotations of the line-up, so a profile's rate is not a seat effect (--no-rotate "
            "keeps the seats fixed)"
        )
    if seats > 1:
        return "seats fixed (--no-rotate): a profile's rate includes the advantage of its seat"
    return ""


def summarise(spec: GameSpec, source) -> dict:
    """The run's summary: of its results directory read slice by slice (memory bounded whatever
    the number of matches), or of tables in memory."""
    from analysis.summary import run_summary, stored_summary

    if isinstance(source, (str, Path)):
        return stored_summary(source, spec)
    metrics = spec.summary(source) if spec.summary is not None else None
    return run_summary(source, metrics, length=spec.length)


def print_summary(spec: GameSpec, summary: dict, fmt: str, elapsed: float, seating: str = "") -> None:
    from analysis.summary import format_summary

    summary["wall_time_s"] = round(elapsed, 3)
    if seating:
        summary["seating"] = seating
    if fmt == "json":
        print(json.dumps(summary, indent=2))
    else:
        print(format_summary(summary, title=f"{spec.title}: {summary['matches']} matches"))
        print(f"\nwall time: {elapsed:.1f} s")


def cmd_experiment(args: argparse.Namespace) -> int:
    import dataclasses

    from ..core.experiment import experiment_manifest, load_experiment, run_experiment, whole_rotations
    from ..core.runner import MAX_MATCHES

    check_jobs(args.jobs)
    check_backend(args)
    check_toml_file("", args.file)
    if args.matches is not None:
        positive_int("--matches", args.matches, 1, MAX_MATCHES)
    if args.seed is not None:
        positive_int("--seed", args.seed, 0)
    experiment = load_experiment(args.file)
    if args.seed is not None:  # the same design on other seeds: a replicate of the whole experiment
        experiment = dataclasses.replace(experiment, settings=dataclasses.replace(experiment.settings, seed=args.seed))
    rounded = None
    if args.matches is not None:  # a smaller (or larger) run of the same file, in whole rotations
        matches = whole_rotations(experiment.settings, args.matches)
        if matches != args.matches:
            rounded = (
                f"tablesim experiment: --matches {args.matches} rounded up to {matches}: with seat rotation "
                "every seed is played under each rotation of every line-up"
            )
        experiment = dataclasses.replace(experiment, settings=dataclasses.replace(experiment.settings, matches=matches))
    default_out = Path("results") / (Path(args.file).stem + ("" if args.seed is None else f"-seed{args.seed}"))
    out = args.out or str(default_out)
    command = command_line(args)
    manifest = {**experiment_manifest(experiment, package_versions()), "command": command}
    store = prepare_out(out, manifest)
    if rounded:  # said once the input is known to be good
        print(rounded, file=sys.stderr)
    started = time.perf_counter()
    with writing(store, command, manifest):
        say_resumed("experiment", store, experiment.cells, experiment.settings.matches)
        try:
            with ctrl_c_as_interrupt(), cluster(args):
                tables = run_experiment(
                    experiment, store, jobs=args.jobs, backend=args.backend, progress=args.progress, manifest=manifest
                )
        except KeyboardInterrupt:
            store.write_manifest({**manifest, "status": "interrupted"})
            return interrupted("experiment", store)
        compact_after_run(store, args.jobs, args.backend)
    elapsed = time.perf_counter() - started
    from analysis.winrates import win_rates

    rates = win_rates(tables["players"], ["lineup", "variant", "seat"])
    if args.format == "json":
        print(rates.to_json(orient="records", indent=2))
    else:
        print(
            f"{experiment.spec.title} experiment {Path(args.file).name}: "
            f"{len(tables['matches'])} matches stored in {out} ({elapsed:.1f} s)"
        )
        print_stops(store.read_manifest())
        print_sentences(out)
    if args.report:
        return cmd_report(argparse.Namespace(dir=out, out=None, markdown=None))
    print(f"report: tablesim report {out}", file=sys.stderr)
    return 0


def print_stops(manifest: dict) -> None:
    """Where a ``[stopping]`` rule stopped each cell, a line each (nothing without the rule)."""
    records = manifest.get("stopping") or []
    if records:
        print("\nStopping (anytime-valid answers)")
    for record in records:
        print(f"  - {record['variant']} / {record['lineup']}: {record['matches']:,} matches; {record['reason']}")


def print_sentences(out: str | Path) -> None:
    """The report's summary, sentence by sentence, under its headings (as ``tablesim demo``)."""
    from analysis.analyse import analyse
    from analysis.narrative import summary_blocks
    from analysis.results import load_results

    for heading, sentences in summary_blocks(analyse(load_results(out, stream=None))):
        print(f"\n{heading}")
        for sentence in sentences:
            print(f"  - {sentence}")


def add_parsers(sub) -> None:
    """Add this module's commands to the ``tablesim`` parser."""
    p = sub.add_parser(
        "run",
        help="play N matches (seats rotated) and print win rates with CIs",
        epilog="example: tablesim run curlastique --matches 2000 --players expert,novice --jobs 2",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", help=f"an installed game: {', '.join(game_names())} (tablesim games)")
    p.add_argument("--matches", type=int, required=True, help="number of matches (>= 1)")
    p.add_argument(
        "--players",
        required=True,
        help="comma-separated profiles by seat: the game's presets (tablesim profiles GAME lists "
        "them) or profile .toml files",
    )
    add_cells_options(p)
    p.add_argument("--lineup", default=None, help="a name for this line-up in the tables")
    p.add_argument(
        "--stop-fair",
        type=float,
        default=None,
        metavar="DELTA",
        help="look after every chunk and stop once every seat is shown inside 1/n ± DELTA "
        "(fair) or one outside (unfair), e.g. 0.02; --matches is then the first look",
    )
    p.add_argument(
        "--stop-half-width",
        type=float,
        default=None,
        metavar="H",
        help="look after every chunk and stop once every seat's anytime-valid half-width is below H",
    )
    p.add_argument(
        "--max-matches", type=int, default=None, help="with --stop-*: the most matches to play (default 20000)"
    )
    p.add_argument(
        "--stop-alpha",
        type=float,
        default=0.05,
        help="with --stop-*: the chance that the answer is wrong, however often the run looks (0.05)",
    )
    p.add_argument(
        "--rotate",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="play each seed under every rotation of the seats (default; --no-rotate keeps "
        "the seats as given, so a profile's rate includes its seat's advantage)",
    )
    p.set_defaults(func=cmd_run)

    p = sub.add_parser(
        "experiment",
        help="baseline + variants x line-ups, paired by seed, resumable",
        epilog="example: tablesim examples --copy examples && "
        "tablesim experiment examples/curlastique_demo.toml --jobs 2\n"
        "(`tablesim examples` lists every installed game's example files)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="the experiment TOML file")
    p.add_argument(
        "--matches",
        type=int,
        default=None,
        help="matches per variant and line-up instead of the file's `matches` (a quick look)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="root seed instead of the file's `seed`: the same experiment on other seeds",
    )
    p.add_argument(
        "--out",
        default=None,
        help="results directory (default results/<file stem>, or results/<file stem>-seed<N> with --seed)",
    )
    p.add_argument("--jobs", type=int, default=1, help="worker processes (-1: every core)")
    add_backend_options(p)
    p.add_argument("--report", action="store_true", help="write the HTML report when done")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
    p.set_defaults(func=cmd_experiment)
