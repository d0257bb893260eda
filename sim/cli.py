"""The ``tablesim`` command.

Verbs as subcommands; results on stdout (text, or JSON with ``--format json``), progress on
stderr; bad input → one line per problem on stderr, exit status 2, nothing written. Every path
the user names is checked (kind, extension, writable) before any work; a results directory is
locked while a command writes into it; notes about legal but suspicious rules go to stderr as
``tablesim: note: <source>: <key>: <message>``.

This module is the composition root: it is the one place in ``sim`` that imports ``analysis``
(lazily, inside the commands that summarise or report).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import shlex
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import __version__
from .core.config import ConfigError, note_handler, to_dict
from .core.game import GameSpec, game_names, get_game
from .core.store import StoreError

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

EXAMPLES = """\
examples:
  tablesim games
  tablesim rules curlastique > my_rules.toml
  tablesim run curlastique --matches 2000 --players expert,novice --jobs 2 --out results/run1
  tablesim run curlastique --matches 500 --players club,club,club,club --set game.target_score=1000
  tablesim shot curlastique --x 0.02 --angle 1.5 --speed 1.38 --plot shot.png
"""


class UsageError(Exception):
    """A bad command line: its message is one line per problem."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2 (argparse prints usage too)
        raise UsageError(f"{message} (see {self.prog} --help)")


def _positive_int(name: str, value: int, minimum: int = 1, maximum: int | None = None) -> None:
    if value < minimum or (maximum is not None and value > maximum):
        allowed = f">= {minimum}" if maximum is None else f"{minimum} to {maximum}"
        raise UsageError(f"{name}: got {value}; allowed: {allowed}")


def _check_jobs(jobs: int) -> None:
    if jobs == 0 or jobs < -1:
        raise UsageError(f"--jobs: got {jobs}; allowed: >= 1, or -1 for every core")


# ------------------------------------------------------------------------------------------
# paths: checked before any work
# ------------------------------------------------------------------------------------------

def _nearest_existing(path: Path) -> Path:
    path = Path(os.path.abspath(path))
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _probe_writable(flag: str, shown: str, folder: Path) -> None:
    """Refuse unless a file can be created in ``folder`` (tried, then removed)."""
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{flag} {shown}: {folder} is not writable (permission denied)")
    try:
        fd, name = tempfile.mkstemp(prefix=".tablesim-probe-", dir=folder)
    except OSError as exc:
        raise UsageError(f"{flag} {shown}: cannot write in {folder} ({exc.strerror or exc})") from None
    os.close(fd)
    os.unlink(name)


def _check_path_text(flag: str, text: str) -> Path:
    if not text or "\0" in text:
        raise UsageError(f"{flag} {text!r}: not a usable path")
    return Path(text)


def _check_out_dir(flag: str, out: str | Path) -> None:
    """A directory to write results into: an existing directory, or one that can be created."""
    path = _check_path_text(flag, str(out))
    try:
        if path.exists():
            if not path.is_dir():
                raise UsageError(f"{flag} {out}: exists and is not a directory")
            _probe_writable(flag, str(out), path)
            return
        parent = _nearest_existing(path)
        if not parent.is_dir():
            raise UsageError(f"{flag} {out}: {parent} is a file, not a directory")
        _probe_writable(flag, str(out), parent)
    except OSError as exc:
        raise UsageError(f"{flag} {out}: {exc.strerror or exc}") from None


def _check_out_file(flag: str, out: str | Path, suffixes: tuple[str, ...]) -> None:
    """A file to write: a known extension, not a directory, in a place that can be written."""
    path = _check_path_text(flag, str(out))
    try:
        if path.is_dir():
            raise UsageError(f"{flag} {out}: is a directory; expected a file name ending in "
                             + " or ".join(suffixes))
        if path.suffix.lower() not in suffixes:
            raise UsageError(f"{flag} {out}: unknown extension {path.suffix or '(none)'!r}; allowed: "
                             + ", ".join(suffixes))
        if path.exists() and not path.is_file():
            raise UsageError(f"{flag} {out}: exists and is not a regular file")
        if path.exists() and not os.access(path, os.W_OK):
            raise UsageError(f"{flag} {out}: not writable (permission denied)")
        parent = _nearest_existing(path.parent)
        if not parent.is_dir():
            raise UsageError(f"{flag} {out}: {parent} is a file, not a directory")
        _probe_writable(flag, str(out), parent)
    except OSError as exc:
        raise UsageError(f"{flag} {out}: {exc.strerror or exc}") from None


def _check_toml_file(flag: str, path: str | None) -> None:
    """An input TOML file the user named: readable, a regular file, valid TOML (one line if not)."""
    from .core.config import read_toml

    if path is None:
        return
    _check_path_text(flag, path)
    try:
        read_toml(path)
    except ConfigError as exc:
        raise ConfigError([f"{flag} {line}" if flag else line for line in exc.problems]) from None


def _add_rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", metavar="FILE", help="a rules TOML file overriding the defaults")
    parser.add_argument("--set", metavar="KEY=VALUE", action="append", default=[], dest="overrides",
                        help="override one rule (dotted key of `tablesim rules GAME`, TOML value); repeatable")


def _add_backend_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backend", default="loky",
                        help="loky (default: local processes), dask (a dask.distributed cluster), "
                             "threading, sequential")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="dask scheduler address, e.g. tcp://10.0.0.5:8786 (with --backend dask; "
                             "without it a LocalCluster of --jobs workers is started)")


def _game(name: str) -> GameSpec:
    try:
        return get_game(name)
    except KeyError as exc:
        raise UsageError(f"game: {exc.args[0]}") from None


def _rules(spec: GameSpec, args: argparse.Namespace) -> Any:
    from .core.rules import load_rules

    _check_toml_file("--rules", args.rules)
    return load_rules(spec, args.rules, args.overrides)


def _command_line(args: argparse.Namespace) -> str:
    return "tablesim " + shlex.join(getattr(args, "argv", sys.argv[1:]))


# ------------------------------------------------------------------------------------------
# games, rules
# ------------------------------------------------------------------------------------------

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
    from .core.config import to_toml
    from .core.rules import default_rules_text

    spec = _game(args.game)
    if args.rules is None and not args.overrides:
        _rules(spec, args)  # the shipped defaults must themselves validate
        sys.stdout.write(default_rules_text(spec))
    else:
        sys.stdout.write(to_toml(_rules(spec, args)))
    return 0


# ------------------------------------------------------------------------------------------
# run
# ------------------------------------------------------------------------------------------

def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"tablesim": __version__, "python": platform.python_version()}
    for package in ("numpy", "numba", "pandas", "pyarrow", "joblib", "scipy"):
        try:
            out[package] = version(package)
        except PackageNotFoundError:
            pass
    return out


def _check_backend(args: argparse.Namespace) -> None:
    from .core.runner import BACKENDS

    allowed = (*BACKENDS, "dask")
    if args.backend not in allowed:
        raise UsageError(f"--backend: got {args.backend!r}; allowed: {', '.join(allowed)}")
    if args.scheduler and args.backend != "dask":
        raise UsageError("--scheduler: only with --backend dask")


def _cluster(args: argparse.Namespace):
    """A dask Client for ``--backend dask`` (connect to --scheduler or start a LocalCluster)."""
    import contextlib

    if args.backend != "dask":
        return contextlib.nullcontext()
    from .core.cluster import dask_client

    return dask_client(args.scheduler, args.jobs if args.jobs != 1 else 2)


_RUN_KEYS = ("kind", "game", "seed", "cells")


def _prepare_out(out: str | Path | None, manifest: dict[str, Any], keys: tuple[str, ...] = _RUN_KEYS,
                 compared: dict[str, tuple[Callable[[Any], Any], str]] | None = None, flag: str = "--out"):
    """Check ``--out`` before anything is written; return a ResultStore or None.

    A directory holding a run may be reused (resumed) only if its manifest agrees on ``keys``;
    ``compared[key] = (view, what may change)`` compares only ``view(value)`` of that key.
    """
    from .core.store import ResultStore

    if out is None:
        return None
    _check_out_dir(flag, out)
    store = ResultStore(out)
    path = Path(out)
    if store.exists():
        store.check_compatible(manifest, keys, compared)
    elif path.exists() and any(p.name != ".lock" for p in path.iterdir()):
        raise UsageError(f"{flag} {out}: exists, is not empty and holds no tablesim results")
    return store


@contextlib.contextmanager
def _writing(store, command: str, manifest: dict[str, Any], keys: tuple[str, ...] = _RUN_KEYS,
             compared: dict | None = None) -> Iterator[None]:
    """Hold ``store``'s lock (None: nothing to hold); the manifest is checked again under it."""
    if store is None:
        yield
        return
    with store.lock(command):
        store.check_compatible(manifest, keys, compared)  # another run may have written meanwhile
        yield


def _interrupted(verb: str, store, what: str = "matches") -> int:
    if store is None:
        print(f"tablesim {verb}: interrupted; nothing stored (use --out DIR to keep finished "
              "chunks)", file=sys.stderr)
    else:
        print(f"tablesim {verb}: interrupted; {store.stored_count()} {what} are stored in "
              f"{store.path}; rerun the same command to resume", file=sys.stderr)
    return EXIT_INTERRUPTED


def cmd_run(args: argparse.Namespace) -> int:
    from .core.profiles import load_lineup
    from .core.runner import MAX_CHUNK_SIZE, MAX_MATCHES, Cell, run_cells

    spec = _game(args.game)
    _positive_int("--matches", args.matches, 1, MAX_MATCHES)
    _positive_int("--chunk-size", args.chunk_size, 1, MAX_CHUNK_SIZE)
    _positive_int("--seed", args.seed, 0)
    _check_jobs(args.jobs)
    _check_backend(args)
    problems: list[str] = []
    try:
        rules = _rules(spec, args)
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
    cell = Cell(variant="baseline", lineup=lineup, rules=rules, players=players)
    command = _command_line(args)
    manifest = {
        "kind": "run",
        "game": spec.name,
        "seed": args.seed,
        "cells": [{"variant": cell.variant, "lineup": cell.lineup, "rules": to_dict(rules),
                   "players": [{"name": p.name, "profile": to_dict(p.profile)} for p in players],
                   "rotate_seats": False}],
        "matches": args.matches,
        "chunk_size": args.chunk_size,
        "command": command,
        "versions": _versions(),
    }
    store = _prepare_out(args.out, manifest)
    started = time.perf_counter()
    with _writing(store, command, manifest):
        if store is not None:
            store.write_manifest({**manifest, "status": "running"})
        try:
            with _cluster(args):
                tables = run_cells(spec, [cell], args.matches, args.seed, jobs=args.jobs,
                                   chunk_size=args.chunk_size, backend=args.backend, store=store,
                                   progress=args.progress)
        except KeyboardInterrupt:
            if store is not None:
                store.write_manifest({**manifest, "status": "interrupted"})
            return _interrupted("run", store)
        if store is not None:
            store.write_manifest({**manifest, "status": "complete",
                                  "stored_matches": int(len(tables["matches"]))})
    elapsed = time.perf_counter() - started
    _print_summary(spec, tables, args.format, elapsed)
    return 0


def _print_summary(spec: GameSpec, tables, fmt: str, elapsed: float) -> None:
    from analysis.summary import format_summary, run_summary

    metrics = spec.summary(tables) if spec.summary is not None else None
    summary = run_summary(tables, metrics)
    summary["wall_time_s"] = round(elapsed, 3)
    if fmt == "json":
        print(json.dumps(summary, indent=2))
    else:
        print(format_summary(summary, title=f"{spec.title}: {summary['matches']} matches"))
        print(f"\nwall time: {elapsed:.1f} s")


# ------------------------------------------------------------------------------------------
# experiment, report, replay
# ------------------------------------------------------------------------------------------

def cmd_experiment(args: argparse.Namespace) -> int:
    from .core.experiment import experiment_manifest, load_experiment, run_experiment

    _check_jobs(args.jobs)
    _check_backend(args)
    _check_toml_file("", args.file)
    experiment = load_experiment(args.file)
    out = args.out or str(Path("results") / Path(args.file).stem)
    command = _command_line(args)
    manifest = {**experiment_manifest(experiment, _versions()), "command": command}
    store = _prepare_out(out, manifest)
    started = time.perf_counter()
    with _writing(store, command, manifest):
        try:
            with _cluster(args):
                tables = run_experiment(experiment, store, jobs=args.jobs, backend=args.backend,
                                        progress=args.progress, manifest=manifest)
        except KeyboardInterrupt:
            store.write_manifest({**manifest, "status": "interrupted"})
            return _interrupted("experiment", store)
    elapsed = time.perf_counter() - started
    from analysis.winrates import win_rates

    rates = win_rates(tables["players"], ["lineup", "variant", "seat"])
    if args.format == "json":
        print(rates.to_json(orient="records", indent=2))
    else:
        print(f"{experiment.spec.title} experiment {Path(args.file).name}: "
              f"{len(tables['matches'])} matches stored in {out} ({elapsed:.1f} s)")
        print(rates.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    if args.report:
        return cmd_report(argparse.Namespace(dir=out, out=None, markdown=None))
    print(f"report: tablesim report {out}", file=sys.stderr)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from analysis.report import build_report

    from .core.store import ResultStore

    folder = _check_path_text("report", args.dir)
    if not folder.is_dir():
        raise UsageError(f"{args.dir}: not a directory")
    if not (folder / "manifest.json").is_file():
        raise UsageError(f"{args.dir}: not a tablesim results directory (no manifest.json)")
    kind = ResultStore(folder).read_manifest()["kind"]
    _check_out_file("--out", args.out if args.out is not None else folder / "report.html", (".html", ".htm"))
    if args.markdown is not None:
        if kind in ("balance", "sensitivity"):
            raise UsageError("--markdown: only for experiment and run reports")
        _check_out_file("--markdown", args.markdown, (".md", ".markdown"))
    try:
        if kind in ("balance", "sensitivity"):
            from analysis.balance.report import build_search_report

            print(f"report: {build_search_report(folder, args.out)}")
            return 0
        path = build_report(folder, args.out, markdown=args.markdown)
    except FileNotFoundError as exc:  # no table, or no finished match yet
        raise UsageError(str(exc).splitlines()[0]) from None
    print(f"report: {path}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .core.profiles import load_lineup
    from .core.seeding import MatchSeeds

    spec = _game(args.game)
    if spec.replay is None:
        raise UsageError(f"game: {spec.name} has no replay; allowed: "
                         + ", ".join(n for n in game_names() if get_game(n).replay is not None))
    _positive_int("--seed", args.seed, 0)
    _positive_int("--match", args.match, 0)
    rules = _rules(spec, args)
    references = args.players.split(",") if args.players else list(spec.demo_players)
    players = load_lineup(spec, references, rules)
    print(spec.replay(rules, players, MatchSeeds(args.seed, args.match)))
    return 0


def cmd_balance(args: argparse.Namespace) -> int:
    from analysis.balance.search import load_balance, run_balance, trial_settings

    _check_jobs(args.jobs)
    _check_backend(args)
    _check_toml_file("", args.file)
    balance = load_balance(args.file)
    out = Path(args.out or Path("results") / Path(args.file).stem)
    from .core.config import to_dict

    # a search may be extended or re-validated, not changed
    identity = {"kind": "balance", "game": balance.spec.name, "seed": balance.settings.seed,
                "balance": to_dict(balance.settings)}
    keys = ("kind", "game", "seed", "balance")
    compared = {"balance": (lambda value: trial_settings(value or {}),
                            "search.trials and the validation and surface settings")}
    store = _prepare_out(out, identity, keys=keys, compared=compared)
    command = _command_line(args)
    manifest = {"command": command, "versions": _versions(), "balance_file": str(args.file)}
    with _writing(store, command, identity, keys, compared):
        try:
            with _cluster(args):
                summary = run_balance(balance, out, jobs=args.jobs, backend=args.backend,
                                      progress=args.progress, manifest=manifest)
        except KeyboardInterrupt:
            print(f"tablesim balance: interrupted; finished trials are stored in {out}; rerun the "
                  "same command to resume", file=sys.stderr)
            return EXIT_INTERRUPTED
    if args.format == "json":
        print(json.dumps(summary, indent=2))
        return 0
    best = summary["best"]
    print(f"{balance.spec.title} balance: {summary['trials']} trials ({summary['pruned']} pruned), "
          f"optimizer {summary['optimizer']}; results in {out}")
    if best is None:
        print("no trial completed")
        return 0
    print(f"best candidate (trial {best['trial']}): {json.dumps(best['point'])}")
    print(f"validated on {best['matches']} matches of fresh seeds (root seed {best['fresh_seed']}):")
    rows = [("best", best)] + ([("baseline", summary["baseline"])] if summary.get("baseline") else [])
    for name, candidate in rows:
        for check in candidate["targets"]:
            verdict = "met" if check["met"] else "NOT met"
            print(f"  {name:<9}{check['target']:<44} {check['value']:.4g}  90 % CI [{check['ci_low']:.4g}, "
                  f"{check['ci_high']:.4g}]  band [{check['band'][0]:.4g}, {check['band'][1]:.4g}]  {verdict}")
    if best["meets_all"] and not best.get("in_sequence", True):
        print("  (not claimed: an earlier candidate of the fixed test sequence missed a target)")
    print(f"every target met on fresh seeds: {'yes' if summary['meets_all_targets'] else 'no'}")
    print(f"best rules: {out / 'best_rules.toml'}")
    return 0


def cmd_sensitivity(args: argparse.Namespace) -> int:
    from analysis.balance.sensitivity import load_sensitivity, run_sensitivity

    _check_jobs(args.jobs)
    _check_backend(args)
    _check_toml_file("", args.file)
    problem = load_sensitivity(args.file)  # validate before anything is written
    out = Path(args.out or Path("results") / Path(args.file).stem)
    from .core.config import to_dict

    identity = {"kind": "sensitivity", "game": problem.spec.name, "seed": problem.settings.seed,
                "settings": to_dict(problem.settings)}
    keys = ("kind", "game", "seed", "settings")
    store = _prepare_out(out, identity, keys=keys)
    with _writing(store, _command_line(args), identity, keys):
        try:
            with _cluster(args):
                summary = run_sensitivity(args.file, out, jobs=args.jobs, backend=args.backend,
                                          progress=args.progress)
        except KeyboardInterrupt:
            print(f"tablesim sensitivity: interrupted; finished points are stored in {out}; rerun to "
                  "resume", file=sys.stderr)
            return EXIT_INTERRUPTED
    if args.format == "json":
        print(json.dumps(summary, indent=2))
        return 0
    import pandas as pd

    print(f"Morris screening ({summary['morris_points']} points x {summary['matches_per_point']} matches):")
    print(pd.DataFrame(summary["morris"]).to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    if summary["sobol"]:
        print(f"\nSobol indices ({summary['sobol_points']} points):")
        print(pd.DataFrame(summary["sobol"]).to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    print(f"\nplot and tables in {out}")
    return 0


# ------------------------------------------------------------------------------------------
# shot, demo, bench
# ------------------------------------------------------------------------------------------

def cmd_shot(args: argparse.Namespace) -> int:
    spec = _game(args.game)
    if spec.shot is None:
        raise UsageError(f"game: {spec.name} is not a dexterity game; `shot` takes one of: "
                         + ", ".join(n for n in game_names() if get_game(n).shot is not None))
    if args.plot is not None:
        _check_out_file("--plot", args.plot, (".png", ".svg", ".pdf"))
    _check_toml_file("--state", args.state)
    rules = _rules(spec, args)
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


def cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    _check_jobs(args.jobs)
    _check_out_dir("--out", args.out)
    return run_demo(Path(args.out), jobs=args.jobs, command=_command_line(args))


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import run_all

    if not 0 < args.seconds <= 3600:
        raise UsageError(f"--seconds: got {args.seconds}; allowed: more than 0, at most 3600")
    figures = run_all(seconds=args.seconds, only=args.only)
    if args.format == "json":
        print(json.dumps(figures, indent=2))
    else:
        width = max(len(k) for k in figures)
        for key, value in figures.items():
            shown = f"{value:,.1f}" if isinstance(value, float) else str(value)
            print(f"{key:<{width}}  {shown}")
    return 0


# ------------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tablesim", description="Monte Carlo analysis and balancing for tabletop games.",
                     epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"tablesim {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("games", help="list the games")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("rules", help="print a game's rules as TOML (the file to copy and edit)",
                       epilog="example: tablesim rules curlastique > my_rules.toml")
    p.add_argument("game")
    _add_rules_options(p)
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("run", help="play N matches and print win rates with CIs",
                       epilog="example: tablesim run curlastique --matches 2000 --players expert,novice --jobs 2",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game")
    p.add_argument("--matches", type=int, required=True, help="number of matches (>= 1)")
    p.add_argument("--players", required=True,
                   help="comma-separated profiles by seat: preset names or profile .toml files")
    _add_rules_options(p)
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (-1: every core)")
    p.add_argument("--chunk-size", type=int, default=25, help="matches per task (default 25)")
    _add_backend_options(p)
    p.add_argument("--lineup", default=None, help="a name for this line-up in the tables")
    p.add_argument("--out", default=None, help="results directory (Parquet tables + manifest.json)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("experiment", help="baseline + variants x line-ups, paired by seed, resumable",
                       epilog="example: tablesim experiment examples/curlastique_bullseye.toml --jobs 2")
    p.add_argument("file", help="the experiment TOML file")
    p.add_argument("--out", default=None, help="results directory (default results/<file stem>)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (-1: every core)")
    _add_backend_options(p)
    p.add_argument("--report", action="store_true", help="write the HTML report when done")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
    p.set_defaults(func=cmd_experiment)

    p = sub.add_parser("report", help="a self-contained HTML design report of a results directory",
                       epilog="example: tablesim report results/bullseye --out bullseye.html")
    p.add_argument("dir")
    p.add_argument("--out", default=None, metavar="FILE.html", help="default: DIR/report.html")
    p.add_argument("--markdown", default=None, metavar="FILE.md", help="also write a Markdown export")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("replay", help="tell one match turn by turn",
                       epilog="example: tablesim replay gasterospeed --seed 3")
    p.add_argument("game")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--match", type=int, default=0, help="match index under that seed")
    p.add_argument("--players", default=None, help="comma-separated profiles (default: the demo line-up)")
    _add_rules_options(p)
    p.set_defaults(func=cmd_replay)

    for name, func, text in (("balance", cmd_balance, "search rule parameters for design targets"),
                             ("sensitivity", cmd_sensitivity, "Morris then Sobol indices of rule parameters")):
        p = sub.add_parser(name, help=text, epilog=f"example: tablesim {name} examples/curlastique_{name}.toml --jobs 2")
        p.add_argument("file", help=f"the {name} TOML file")
        p.add_argument("--out", default=None, help="results directory (default results/<file stem>)")
        p.add_argument("--jobs", type=int, default=1, help="worker processes (-1: every core)")
        _add_backend_options(p)
        p.add_argument("--format", choices=("text", "json"), default="text")
        p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
        p.set_defaults(func=func)

    p = sub.add_parser("shot", help="play and draw one shot of a dexterity game",
                       epilog="example: tablesim shot curlastique --x 0.0 --angle 0 --speed 1.38 --plot shot.png")
    p.add_argument("game")
    p.add_argument("--x", type=float, default=None, help="lateral start position (m)")
    p.add_argument("--angle", type=float, default=0.0, help="aim angle from straight ahead (degrees)")
    p.add_argument("--speed", type=float, required=True, help="launch speed (m/s)")
    p.add_argument("--state", default=None, help="TOML file of discs already on the board")
    p.add_argument("--plot", default=None, metavar="FILE.png", help="draw the trajectories")
    p.add_argument("--format", choices=("text", "json"), default="text")
    _add_rules_options(p)
    p.set_defaults(func=cmd_shot)

    p = sub.add_parser("demo", help="the README's main job: a small experiment per game and its HTML report")
    p.add_argument("--out", default="reports/demo", help="where the results and reports go (default reports/demo)")
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("bench", help="print the performance figures of benchmarks/")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--seconds", type=float, default=2.0, help="time per measured case")
    p.add_argument("--only", default=None, help="comma-separated groups: physics, games, scaling")
    p.set_defaults(func=cmd_bench)
    return parser


def _note_printer() -> Callable[[str], None]:
    seen: set[str] = set()

    def note(line: str) -> None:
        if line not in seen:
            seen.add(line)
            print(f"tablesim: note: {line}", file=sys.stderr)

    return note


def _os_error_line(exc: OSError) -> str:
    where = exc.filename if exc.filename is not None else ""
    what = exc.strerror or str(exc)
    return f"{where}: {what}" if where else what


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        with note_handler(_note_printer()):
            args = parser.parse_args(argv)
            if args.command is None:
                parser.print_help()
                print("tablesim: error: no command given (see tablesim --help)", file=sys.stderr)
                return EXIT_USAGE
            args.argv = argv
            return args.func(args)
    except UsageError as exc:
        print(f"tablesim: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ConfigError as exc:
        for line in dict.fromkeys(exc.problems):
            print(f"tablesim: error: {line}", file=sys.stderr)
        return EXIT_USAGE
    except StoreError as exc:
        print(f"tablesim: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # `tablesim rules x | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # a disk full, a file vanished: one line naming the path
        print(f"tablesim: error: {_os_error_line(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("tablesim: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else 0


if __name__ == "__main__":
    sys.exit(main())
