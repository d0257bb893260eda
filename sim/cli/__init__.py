"""The ``tablesim`` command: the composition root.

Verbs as subcommands, one module per group (``info``: games, rules, profiles, new-game; ``play``:
run, experiment; ``worth``; ``matrix``; ``exploit``; ``reports``: report, shot; ``replay``; ``export``; ``compact``; ``search``: balance,
sensitivity; ``check``; ``examples``; ``demo``; ``bench``);
results on stdout (text, or JSON with ``--format json``), progress on stderr; bad input → one
line per problem on stderr, exit status 2, nothing written. Every path the user names is
checked (kind, extension, writable) before any work; a results directory is locked while a
command writes into it; notes about legal but suspicious rules go to stderr as
``tablesim: note: <source>: <key>: <message>``.

This package is the one place in ``sim`` that imports ``analysis`` (lazily, inside the
commands that summarise or report), and it names no game: games come from their entry points.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from ..core.config import ConfigError, note_handler
from ..core.forecast import RunWontFit
from ..core.interrupts import ctrl_c_as_interrupt
from ..core.runner import WorkerLost
from ..core.store import StoreError
from . import (
    bench,
    calibrate,
    check,
    compact,
    demo,
    examples,
    exploit,
    export,
    info,
    matrix,
    play,
    replay,
    reports,
    search,
    worth,
)
from .common import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE, Parser, UsageError

__all__ = ["main", "build_parser", "UsageError", "EXIT_USAGE", "EXIT_INTERRUPTED"]

EXAMPLES = """\
examples (in this order, from an empty folder):
  tablesim games
  tablesim rules curlastique > my_rules.toml
  tablesim profiles curlastique
  tablesim run curlastique --matches 2000 --players expert,novice --jobs 2 --out results/run1
  tablesim run curlastique --matches 500 --players club,club,club,club --rules my_rules.toml --set game.target_score=800
  tablesim shot curlastique --x 0.02 --angle 1.5 --speed 1.38 --plot shot.png
  tablesim examples --copy examples
  tablesim experiment examples/curlastique_demo.toml --jobs 2
  tablesim report results/curlastique_demo
  tablesim replay results/curlastique_demo --match 17 --variant bullseye-150
  tablesim export results/curlastique_demo --format xlsx
"""

#: The command groups, in the order ``tablesim --help`` lists them.
GROUPS = (
    info,
    play,
    worth,
    matrix,
    exploit,
    reports,
    replay,
    export,
    compact,
    search,
    check,
    calibrate,
    examples,
    demo,
    bench,
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="tablesim",
        description="Monte Carlo analysis and balancing for tabletop games.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tablesim {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for group in GROUPS:
        group.add_parsers(sub)
    return parser


def _note_printer() -> Callable[[str], None]:
    seen: set[str] = set()

    def note(line: str) -> None:
        if line not in seen:
            seen.add(line)
            print(f"tablesim: note: {line}", file=sys.stderr)

    return note


def _os_error_line(exc: OSError, out: str | None = None) -> str:
    """One line for an operating-system error: the path it names, what went wrong, and for a
    full disk the results directory and how to go on (finished chunks are kept)."""
    where = exc.filename if exc.filename is not None else ""
    what = exc.strerror or str(exc)
    if exc.errno == errno.ENOSPC or "No space left on device" in str(exc):
        place = f" while writing {out}" if out else (f" while writing {where}" if where else "")
        return (
            f"the disk is full (No space left on device){place}; the matches finished so far are kept: "
            "free some space and rerun the same command to resume"
        )
    return f"{where}: {what}" if where else what


def _system_memory_pool() -> None:
    """Arrow allocates with the C library's malloc in this process.

    The command's process reads and writes Parquet for as long as a run lasts (a worker's
    parts it must write itself, compaction, summaries read slice by slice). Arrow's default
    allocator keeps the pages it freed, so its memory would grow towards the largest of all
    the slices and parts it ever held; malloc hands them back (``release_unused``), so the
    process stays at about one slice whatever the number of matches. Workers are not affected.
    """
    import pyarrow as pa

    pa.set_memory_pool(pa.system_memory_pool())


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _system_memory_pool()
    parser = build_parser()
    args = None
    try:
        with note_handler(_note_printer()):
            args = parser.parse_args(argv)
            if args.command is None:
                parser.print_help()
                print("tablesim: error: no command given (see tablesim --help)", file=sys.stderr)
                return EXIT_USAGE
            args.argv = argv
            with ctrl_c_as_interrupt():  # an error raised while a Ctrl-C unwound is the Ctrl-C
                return args.func(args)
    except UsageError as exc:
        print(f"tablesim: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ConfigError as exc:
        for line in dict.fromkeys(exc.problems):
            print(f"tablesim: error: {line}", file=sys.stderr)
        return EXIT_USAGE
    except (StoreError, RunWontFit) as exc:
        print(f"tablesim: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except WorkerLost as exc:  # a run that failed on the way, not bad input
        print(f"tablesim: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except BrokenPipeError:  # `tablesim rules x | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # a disk full, a file vanished: one line naming the path
        print(f"tablesim: error: {_os_error_line(exc, getattr(args, 'out', None))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("tablesim: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else 0
