"""``tablesim examples [--copy DIR]``: every installed game's example files, listed or copied.

A game ships its examples in the folder its GameSpec names (``GameSpec.examples``): experiment,
balance, sensitivity and profile TOML files, each opening with a comment line that says what it
is. ``--copy DIR`` copies them all into DIR (never over a file that differs), so that the
commands of ``--help`` and the README run as written from there.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
from pathlib import Path

from ..core.game import GameSpec, game_names, get_game
from .common import UsageError, check_out_dir

__all__ = ["example_files", "demo_file", "describe", "add_parsers"]

#: Until every game names its folder (GameSpec.examples), the files that still sit in the old
#: shared folder are found by their game's name prefix (``<game>_*.toml``).
LEGACY_FOLDER = Path(__file__).resolve().parents[1] / "examples"


def example_files(spec: GameSpec) -> list[Path]:
    """The example files of a game, sorted by name."""
    if spec.examples is not None:
        folder = Path(spec.examples)
        return (
            sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith((".", "_")))
            if folder.is_dir()
            else []
        )
    return sorted(LEGACY_FOLDER.glob(f"{spec.name}_*.toml")) if LEGACY_FOLDER.is_dir() else []


def demo_file(spec: GameSpec) -> Path | None:
    """The game's demo experiment (``*demo.toml`` among its examples), or None."""
    found = [p for p in example_files(spec) if p.name == "demo.toml" or p.name.endswith("_demo.toml")]
    return found[0] if found else None


def describe(path: Path) -> str:
    """The file's first comment line (what the example is), or ''."""
    try:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                return line.strip().lstrip("#").strip() if line.lstrip().startswith("#") else ""
    except (OSError, UnicodeDecodeError):
        return ""
    return ""


def _all_examples() -> list[tuple[GameSpec, Path]]:
    return [(get_game(name), path) for name in game_names() for path in example_files(get_game(name))]


def cmd_examples(args: argparse.Namespace) -> int:
    found = _all_examples()
    if args.copy is None:
        if not found:
            print("no installed game ships example files")
        for spec, path in found:
            print(f"{spec.name:<14} {path.name:<34} {describe(path)}")
            print(f"{'':<14} {path}")
        if found:
            print("\ncopy them all: tablesim examples --copy DIR")
        return 0
    check_out_dir("--copy", args.copy)
    target = Path(args.copy)
    clashes = [
        target / p.name
        for _, p in found
        if (target / p.name).exists() and not filecmp.cmp(p, target / p.name, shallow=False)
    ]
    names = [p.name for _, p in found]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UsageError(f"--copy: two games ship a file named {twice[0]}; copy them one game at a time")
    if clashes:
        raise UsageError(
            f"--copy {args.copy}: {clashes[0]} exists and differs; nothing copied "
            "(move it away or choose another folder)"
        )
    target.mkdir(parents=True, exist_ok=True)
    for spec, path in found:
        shutil.copyfile(path, target / path.name)
        print(f"{spec.name:<14} {target / path.name}")
    print(f"copied {len(found)} example files into {target}")
    return 0


def add_parsers(sub) -> None:
    """Add ``tablesim examples`` to the parser."""
    p = sub.add_parser(
        "examples",
        help="list (or copy) every installed game's example files",
        epilog="example: tablesim examples --copy examples",
    )
    p.add_argument("--copy", default=None, metavar="DIR", help="copy them all into DIR")
    p.set_defaults(func=cmd_examples)
