"""``tablesim check``: design targets verified on named line-ups and rules, for a designer's CI."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..core.interrupts import ctrl_c_as_interrupt
from .common import (
    EXIT_INTERRUPTED,
    UsageError,
    add_backend_options,
    check_backend,
    check_jobs,
    check_out_file,
    check_toml_file,
    cluster,
    command_line,
    package_versions,
    positive_int,
)

#: The exit statuses of ``tablesim check``, for its --help.
EXIT_STATUS = (
    "exit status: 0 every target shown met; 1 a target shown missed, or the same seed gave\n"
    "  different tables; 2 bad usage (nothing written); 3 cannot tell with the matches\n"
    "  allowed (a target neither shown met nor missed); 4 a worker process died (what it\n"
    "  finished is not judged: rerun); 130 interrupted"
)


def _check_outputs(args: argparse.Namespace) -> None:
    """``--markdown`` and ``--json``: writable files of the right kind, not the same file."""
    if args.markdown is not None:
        check_out_file("--markdown", args.markdown, (".md", ".markdown"))
    if args.json is not None:
        check_out_file("--json", args.json, (".json",))
    if (
        args.markdown is not None
        and args.json is not None
        and Path(args.markdown).resolve() == Path(args.json).resolve()
    ):
        raise UsageError(f"--json {args.json}: the same file as --markdown; allowed: two different files")


def cmd_check(args: argparse.Namespace) -> int:
    from analysis.balance.validation import atomic_json
    from analysis.check import load_check, markdown_report, run_check, text_report
    from sim.core.runner import MAX_MATCHES
    from sim.core.store import atomic_write_bytes

    check_jobs(args.jobs)
    check_backend(args)
    if args.seed is not None:
        positive_int("--seed", args.seed, 0)
    if args.matches is not None:
        positive_int("--matches", args.matches, 1, MAX_MATCHES)
    _check_outputs(args)
    check_toml_file("", args.file)
    check = load_check(args.file, args.overrides, seed=args.seed, matches=args.matches)
    try:
        with ctrl_c_as_interrupt(), cluster(args):
            summary = run_check(check, jobs=args.jobs, backend=args.backend, progress=args.progress)
    except KeyboardInterrupt:
        print("tablesim check: interrupted; nothing written", file=sys.stderr)
        return EXIT_INTERRUPTED
    summary["command"] = command_line(args)
    summary["versions"] = package_versions()
    if args.json is not None:
        atomic_json(Path(args.json), summary)
    if args.markdown is not None:
        atomic_write_bytes(Path(args.markdown), markdown_report(summary).encode("utf-8"))
    if args.format == "json":
        print(json.dumps(summary, indent=2))
    else:
        print(text_report(summary))
    return summary["exit_status"]


def add_parsers(sub) -> None:
    """Add ``tablesim check`` to the parser."""
    p = sub.add_parser(
        "check",
        help="verify design targets (exit 0 met, 1 missed, 3 cannot tell): for CI",
        epilog="example: tablesim examples --copy examples && tablesim check "
        "examples/curlastique_check.toml --jobs 2 --markdown check.md\n" + EXIT_STATUS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="the check TOML file (targets as in a balance file, line-ups, rules, matches)")
    p.add_argument("--seed", type=int, default=None, help="root seed instead of the file's `seed`")
    p.add_argument(
        "--matches",
        type=int,
        default=None,
        help="the most matches per line-up and rules instead of the file's `matches`",
    )
    p.add_argument(
        "--set",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        dest="overrides",
        help="override one rule of the baseline, and so of every variant (dotted key of "
        "`tablesim rules GAME`, TOML value); repeatable",
    )
    p.add_argument("--jobs", type=int, default=1, help="worker processes (-1: every core)")
    add_backend_options(p)
    p.add_argument(
        "--markdown",
        metavar="FILE",
        default=None,
        help="also write the summary as Markdown (e.g. for $GITHUB_STEP_SUMMARY)",
    )
    p.add_argument("--json", metavar="FILE", default=None, help="also write the summary as JSON")
    p.add_argument("--format", choices=("text", "json"), default="text", help="stdout: text (default) or json")
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )
    p.set_defaults(func=cmd_check)
