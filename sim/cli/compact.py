"""``tablesim compact DIR``: merge a results directory's many small parts into few large ones."""

from __future__ import annotations

import argparse
import sys

from .common import UsageError, results_folder

__all__ = ["add_parsers", "compact_after_run"]


def compact_after_run(store, jobs: int = 1, backend: str = "loky") -> None:
    """At the end of a finished run: merge its cells' parts (a note on stderr when it did), on
    the run's ``jobs`` loky workers (Dask and the other backends: in this process)."""
    if store is None:
        return
    from ..core.runner import cpu_count, merge_in_workers

    workers = cpu_count() if jobs == -1 else jobs
    merged = store.compact(merge=merge_in_workers(workers) if backend == "loky" else None)
    if merged:
        print(f"tablesim: note: {store.path}: {merged:,} parts merged into larger ones (same tables)", file=sys.stderr)


def cmd_compact(args: argparse.Namespace) -> int:
    from ..core.store import ResultStore

    folder = results_folder("compact", args.dir)
    if not 1 <= args.max_matches <= 10**9:
        raise UsageError(f"--max-matches: got {args.max_matches}; allowed: 1 to 1000000000")
    store = ResultStore(folder)
    store.read_manifest()  # a damaged manifest is one line
    before = sum(1 for _ in (folder / "matches").glob("*.parquet"))
    merged = store.compact(max_matches=args.max_matches, min_parts=0)
    after = sum(1 for _ in (folder / "matches").glob("*.parquet"))
    print(f"{folder}: {before:,} parts per table -> {after:,} ({merged:,} merged away); the tables are unchanged")
    return 0


def add_parsers(sub) -> None:
    """Add ``tablesim compact`` to the parser."""
    p = sub.add_parser(
        "compact",
        help="merge a results directory's parts into few large files (same tables)",
        epilog="example: tablesim compact results/run1\n"
        "A run or experiment that finishes compacts its directory itself; this command "
        "does it for a directory written otherwise, or after an interrupted run.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dir", help="a results directory (of run or experiment)")
    p.add_argument(
        "--max-matches", type=int, default=50_000, help="the most matches in one merged part (default 50000)"
    )
    p.set_defaults(func=cmd_compact)
