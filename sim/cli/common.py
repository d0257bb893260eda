"""What every ``tablesim`` command shares: one-line usage errors, checks of what the user
typed (numbers, paths: kind, extension, writable, before any work), the rules and backend
options, and the results directory's preparation and lock."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shlex
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

from ..core.config import ConfigError
from ..core.game import GameSpec, get_game
from ..core.manifest import package_versions

__all__ = [
    "EXIT_USAGE",
    "EXIT_INCOMPLETE",
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "UsageError",
    "Parser",
    "package_versions",
]

EXIT_USAGE = 2
#: ``report`` and ``export`` wrote their output, labelled incomplete: planned matches are missing.
EXIT_INCOMPLETE = 3
#: A run that failed on the way (a worker process died); what it finished is kept.
EXIT_FAILED = 4


EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """A bad command line: its message is one line per problem."""


class Parser(argparse.ArgumentParser):
    """The command line's argument parser: a bad command line ends in one :class:`UsageError`
    line naming the problem and pointing at ``--help``, never in argparse's usage dump."""

    def error(self, message: str) -> NoReturn:  # one line, exit 2 (argparse prints usage too)
        raise UsageError(f"{message} (see {self.prog} --help)")


def positive_int(name: str, value: int, minimum: int = 1, maximum: int | None = None) -> None:
    if value < minimum or (maximum is not None and value > maximum):
        allowed = f">= {minimum}" if maximum is None else f"{minimum} to {maximum}"
        raise UsageError(f"{name}: got {value}; allowed: {allowed}")


def check_jobs(jobs: int) -> None:
    if jobs == 0 or jobs < -1:
        raise UsageError(f"--jobs: got {jobs}; allowed: >= 1, or -1 for every core")


def nearest_existing(path: Path) -> Path:
    path = Path(os.path.abspath(path))
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def probe_writable(flag: str, shown: str, folder: Path) -> None:
    """Refuse unless a file can be created in ``folder`` (tried, then removed)."""
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"{flag} {shown}: {folder} is not writable (permission denied)")
    try:
        fd, name = tempfile.mkstemp(prefix=".tablesim-probe-", dir=folder)
    except OSError as exc:
        raise UsageError(f"{flag} {shown}: cannot write in {folder} ({exc.strerror or exc})") from None
    os.close(fd)
    os.unlink(name)


#: A path that starts like a URL (``s3://``, ``gs:``, ``file:``): Arrow would read it as one.
_URL_LIKE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")


def check_path_text(flag: str, text: str) -> Path:
    """A path the user gave, as a Path; one line for an empty one or a URL (object stores are not
    read or written: Arrow would take a local folder named ``s3:`` for one and read nothing)."""
    if not text or "\0" in text:
        raise UsageError(f"{flag} {text!r}: not a usable path")
    if _URL_LIKE.match(text):
        raise UsageError(
            f"{flag} {text}: a URL; allowed: a local folder, or a shared file system mounted as one "
            "(object stores such as s3:// or gs:// are not supported)"
        )
    return Path(text)


def results_folder(verb: str, text: str) -> Path:
    """The results directory a command reads: a directory holding a ``manifest.json``, else one line."""
    folder = check_path_text(verb, text)
    if not folder.is_dir():
        raise UsageError(f"{text}: not a directory")
    if not (folder / "manifest.json").is_file():
        raise UsageError(f"{text}: not a tablesim results directory (no manifest.json)")
    return folder


def check_out_dir(flag: str, out: str | Path) -> None:
    """A directory to write results into: an existing directory, or one that can be created."""
    path = check_path_text(flag, str(out))
    try:
        if path.exists():
            if not path.is_dir():
                raise UsageError(f"{flag} {out}: exists and is not a directory")
            probe_writable(flag, str(out), path)
            return
        parent = nearest_existing(path)
        if not parent.is_dir():
            raise UsageError(f"{flag} {out}: {parent} is a file, not a directory")
        probe_writable(flag, str(out), parent)
    except OSError as exc:
        raise UsageError(f"{flag} {out}: {exc.strerror or exc}") from None


def check_out_file(flag: str, out: str | Path, suffixes: tuple[str, ...]) -> None:
    """A file to write: a known extension, not a directory, in a place that can be written."""
    path = check_path_text(flag, str(out))
    try:
        if path.is_dir():
            raise UsageError(f"{flag} {out}: is a directory; expected a file name ending in " + " or ".join(suffixes))
        if path.suffix.lower() not in suffixes:
            raise UsageError(
                f"{flag} {out}: unknown extension {path.suffix or '(none)'!r}; allowed: " + ", ".join(suffixes)
            )
        if path.exists() and not path.is_file():
            raise UsageError(f"{flag} {out}: exists and is not a regular file")
        if path.exists() and not os.access(path, os.W_OK):
            raise UsageError(f"{flag} {out}: not writable (permission denied)")
        parent = nearest_existing(path.parent)
        if not parent.is_dir():
            raise UsageError(f"{flag} {out}: {parent} is a file, not a directory")
        probe_writable(flag, str(out), parent)
    except OSError as exc:
        raise UsageError(f"{flag} {out}: {exc.strerror or exc}") from None


def check_toml_file(flag: str, path: str | None) -> None:
    """An input TOML file the user named: readable, a regular file, valid TOML (one line if not)."""
    from ..core.config import read_toml

    if path is None:
        return
    check_path_text(flag, path)
    try:
        read_toml(path)
    except ConfigError as exc:
        raise ConfigError([f"{flag} {line}" if flag else line for line in exc.problems]) from None


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", metavar="FILE", help="a rules TOML file overriding the defaults")
    parser.add_argument(
        "--set",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        dest="overrides",
        help="override one rule (dotted key of `tablesim rules GAME`, TOML value); repeatable",
    )


def add_backend_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend",
        default="loky",
        help="loky (default: local processes), dask (a dask.distributed cluster), threading, sequential",
    )
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="dask scheduler address, e.g. tcp://10.0.0.5:8786 (with --backend dask; "
        "without it a LocalCluster of --jobs workers is started)",
    )


def find_game(name: str) -> GameSpec:
    try:
        return get_game(name)
    except KeyError as exc:
        raise UsageError(f"game: {exc.args[0]}") from None


def load_user_rules(spec: GameSpec, args: argparse.Namespace) -> Any:
    from ..core.rules import load_rules

    check_toml_file("--rules", args.rules)
    return load_rules(spec, args.rules, args.overrides)


def command_line(args: argparse.Namespace) -> str:
    return "tablesim " + shlex.join(getattr(args, "argv", sys.argv[1:]))


def check_backend(args: argparse.Namespace) -> None:
    from ..core.runner import BACKENDS

    allowed = (*BACKENDS, "dask")
    if args.backend not in allowed:
        raise UsageError(f"--backend: got {args.backend!r}; allowed: {', '.join(allowed)}")
    if args.scheduler and args.backend != "dask":
        raise UsageError("--scheduler: only with --backend dask")


def cluster(args: argparse.Namespace):
    """A dask Client for ``--backend dask`` (connect to --scheduler or start a LocalCluster)."""
    import contextlib

    if args.backend != "dask":
        return contextlib.nullcontext()
    from ..core.cluster import dask_client

    return dask_client(args.scheduler, args.jobs if args.jobs != 1 else 2)


RUN_KEYS = ("kind", "game", "seed", "cells")


def prepare_out(
    out: str | Path | None,
    manifest: dict[str, Any],
    keys: tuple[str, ...] = RUN_KEYS,
    compared: dict[str, tuple[Callable[[Any], Any], str]] | None = None,
    flag: str = "--out",
):
    """Check ``--out`` before anything is written; return a ResultStore or None.

    A directory holding a run may be reused (resumed) only if its manifest agrees on ``keys``;
    ``compared[key] = (view, what may change)`` compares only ``view(value)`` of that key.
    """
    from ..core.store import ResultStore

    if out is None:
        return None
    check_out_dir(flag, out)
    store = ResultStore(out)
    path = Path(out)
    if store.exists():
        store.check_compatible(manifest, keys, compared)
    elif path.exists() and any(p.name != ".lock" for p in path.iterdir()):
        raise UsageError(f"{flag} {out}: exists, is not empty and holds no tablesim results")
    return store


@contextlib.contextmanager
def writing(
    store, command: str, manifest: dict[str, Any], keys: tuple[str, ...] = RUN_KEYS, compared: dict | None = None
) -> Iterator[None]:
    """Hold ``store``'s lock (None: nothing to hold); the manifest is checked again under it."""
    if store is None:
        yield
        return
    with store.lock(command):
        store.check_compatible(manifest, keys, compared)  # another run may have written meanwhile
        yield


def interrupted(verb: str, store, what: str = "matches") -> int:
    if store is None:
        print(f"tablesim {verb}: interrupted; nothing stored (use --out DIR to keep finished chunks)", file=sys.stderr)
    else:
        print(
            f"tablesim {verb}: interrupted; {store.stored_count()} {what} are stored in "
            f"{store.path}; rerun the same command to resume",
            file=sys.stderr,
        )
    return EXIT_INTERRUPTED


def incomplete_status(verb: str, folder: Path, completeness, allow: bool) -> int:
    """Exit status of ``report``/``export`` once written: 0, or :data:`EXIT_INCOMPLETE` with one line.

    An incomplete ``completeness`` (:class:`sim.core.completeness.Completeness`) is named on
    stderr: its short cells and the command that replays them; ``allow`` (``--allow-incomplete``)
    makes it a note and the status 0.
    """
    if completeness.complete:
        return 0
    line = (
        f"{folder} is incomplete: {completeness.cells_text()}; the {verb} is labelled incomplete; "
        f"{completeness.replay_text()}"
    )
    if allow:
        print(f"tablesim {verb}: note: {line}", file=sys.stderr)
        return 0
    print(f"tablesim {verb}: {line} (or pass --allow-incomplete)", file=sys.stderr)
    return EXIT_INCOMPLETE


#: The help of ``--allow-incomplete`` (``report`` and ``export``).
ALLOW_INCOMPLETE_HELP = (
    "exit 0 even when the results directory lacks planned matches (a damaged chunk set "
    "aside, a run stopped early); the output is labelled incomplete either way"
)
#: The exit statuses of ``report`` and ``export``, for their --help.
WRITER_EXIT_STATUS = (
    "exit status: 0 written; 2 bad usage (nothing written);\n"
    "  3 written from a results directory that lacks planned matches, labelled\n"
    "  incomplete (0 with --allow-incomplete)"
)


def say_resumed(verb: str, store, cells, matches: int) -> None:
    """``tablesim VERB: resumed: N of M matches already stored in DIR`` (stderr), if any are."""
    from ..core.store import cell_key

    if store is None or not store.exists():
        return
    ranges = store.stored_ranges()
    stored = sum(
        max(0, min(last, matches - 1) - first + 1)
        for cell in cells
        for first, last in ranges.get(cell_key(cell.variant, cell.lineup), ())
    )
    total = matches * len(cells)
    if stored:
        print(f"tablesim {verb}: resumed: {stored} of {total} matches already stored in {store.path}", file=sys.stderr)
