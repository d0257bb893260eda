"""Playing the cells a command built itself (``worth``, ``matrix``) into an optional results
directory: the checks of ``--out``, the lock, resuming, the manifest's status, Ctrl-C, and the
compaction of a finished run, as ``tablesim run`` does them."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

from ..core.config import ConfigError
from ..core.interrupts import ctrl_c_as_interrupt
from .common import (
    add_backend_options,
    add_rules_options,
    cluster,
    interrupted,
    load_user_rules,
    prepare_out,
    say_resumed,
    writing,
)
from .compact import compact_after_run

__all__ = ["add_cells_options", "play_cells", "rules_or_problems"]


def add_cells_options(parser: argparse.ArgumentParser) -> None:
    """The options of a command that plays cells it builds: rules, seed, workers, chunks,
    backend, results directory, output format and progress bar (as ``tablesim run``'s)."""
    add_rules_options(parser)
    parser.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (-1: every core)")
    parser.add_argument(
        "--chunk-size", type=int, default=0, help="matches per task (default 0: sized by time, about 1 s of play each)"
    )
    add_backend_options(parser)
    parser.add_argument("--out", default=None, help="results directory (tables + manifest; `tablesim report DIR`)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )


def rules_or_problems(spec, args: argparse.Namespace, problems: list[str]) -> Any:
    """The user's rules (``--rules``, ``--set``), or None with their error lines added to
    ``problems`` (so that every problem of the command line is said at once)."""
    try:
        return load_user_rules(spec, args)
    except ConfigError as exc:
        problems += exc.problems
        return None


def play_cells(
    verb: str,
    spec,
    cells: Sequence[Any],
    matches: int,
    args: argparse.Namespace,
    manifest: dict[str, Any],
    said: str = "",
) -> tuple[dict | None, float, int]:
    """Play ``matches`` of every cell (``args``: ``out``, ``jobs``, ``seed``, ``chunk_size``,
    ``backend``, ``progress``), into ``args.out`` when given.

    ``said`` is printed on stderr once ``--out`` is known to be good. Returns the tables, the
    seconds of play and the exit status (tables None and :data:`EXIT_INTERRUPTED` after Ctrl-C).
    """
    from ..core.runner import run_cells

    store = prepare_out(args.out, manifest)
    if said:
        print(said, file=sys.stderr)
    started = time.perf_counter()
    command = manifest.get("command", "")
    with writing(store, command, manifest):
        if store is not None:
            say_resumed(verb, store, cells, matches)
            store.write_manifest({**manifest, "status": "running"})
        try:
            with ctrl_c_as_interrupt(), cluster(args):
                tables = run_cells(
                    spec,
                    cells,
                    matches,
                    args.seed,
                    jobs=args.jobs,
                    chunk_size=args.chunk_size,
                    backend=args.backend,
                    store=store,
                    progress=args.progress,
                )
        except KeyboardInterrupt:
            if store is not None:
                store.write_manifest({**manifest, "status": "interrupted"})
            return None, time.perf_counter() - started, interrupted(verb, store)
        if store is not None:
            store.write_manifest({**manifest, "status": "complete", "stored_matches": int(len(tables["matches"]))})
            compact_after_run(store, args.jobs, args.backend)
    return tables, time.perf_counter() - started, 0
