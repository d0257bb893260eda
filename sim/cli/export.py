"""``tablesim export DIR --format csv|xlsx``: the tidy tables and the report's headline figures
for a spreadsheet (a folder of CSV files, or one workbook). A directory that lacks planned matches
is exported labelled incomplete, with exit status 3 unless ``--allow-incomplete``."""

from __future__ import annotations

import argparse
from pathlib import Path

from .common import (
    ALLOW_INCOMPLETE_HELP,
    WRITER_EXIT_STATUS,
    UsageError,
    check_out_dir,
    check_out_file,
    incomplete_status,
    results_folder,
)

__all__ = ["add_parsers"]


def cmd_export(args: argparse.Namespace) -> int:
    folder = results_folder("export", args.dir)
    from ..core.store import ResultStore

    kind = ResultStore(folder).read_manifest()["kind"]
    if kind not in ("run", "experiment", "worth", "matrix"):
        raise UsageError(f"{args.dir}: a {kind} directory; export reads run, experiment, worth and matrix results")
    if args.format == "xlsx":
        out = Path(args.out) if args.out else folder / "results.xlsx"
        check_out_file("--out", out, (".xlsx",))
    else:
        out = Path(args.out) if args.out else folder / "export"
        check_out_dir("--out", out)
    from analysis.export import export
    from analysis.results import load_results

    try:
        results = load_results(folder)
        files = export(results, out, args.format)
    except FileNotFoundError as exc:  # no finished match yet
        raise UsageError(str(exc).splitlines()[0]) from None
    for path in files:
        print(f"wrote {path}")
    return incomplete_status("export", folder, results.completeness, args.allow_incomplete)


def add_parsers(sub) -> None:
    """Add ``tablesim export`` to the parser."""
    p = sub.add_parser(
        "export",
        help="the tables and the report's headline figures as CSV files or an xlsx workbook",
        description="The tables and the report's headline figures as CSV files or an xlsx "
        "workbook. A directory that lacks planned matches is exported from the "
        "matches it holds; its summary starts with one 'results incomplete' row per "
        "short cell.",
        epilog="example: tablesim examples --copy examples && "
        "tablesim experiment examples/curlastique_demo.toml && "
        "tablesim export results/curlastique_demo --format xlsx --out demo.xlsx\n" + WRITER_EXIT_STATUS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dir", help="a results directory (run or experiment)")
    p.add_argument("--format", choices=("csv", "xlsx"), default="csv")
    p.add_argument(
        "--out", default=None, help="csv: a folder (default DIR/export); xlsx: a file (default DIR/results.xlsx)"
    )
    p.add_argument("--allow-incomplete", action="store_true", help=ALLOW_INCOMPLETE_HELP)
    p.set_defaults(func=cmd_export)
