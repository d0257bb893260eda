"""`tablesim bench`: run the scripts of benchmarks/ and merge their figures.

The benchmarks live in the repository's ``benchmarks/`` folder (not in the installed package):
this command finds it beside the ``sim`` package of an editable install or a clone.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path

from .common import UsageError

__all__ = ["run_all", "benchmarks_dir"]

GROUPS = {
    "physics": "bench_physics.py",
    "games": "bench_games.py",
    "cpu": "bench_match_cpu.py",
    "split": "bench_split.py",
    "scaling": "bench_scaling.py",
}
#: groups that need a package of the development extras (``make bench`` installs them)
NEEDS = {"physics": "pymunk"}


def benchmarks_dir() -> Path:
    folder = Path(__file__).resolve().parents[2] / "benchmarks"
    if not folder.is_dir():
        raise FileNotFoundError(
            "benchmarks/ not found: run `tablesim bench` from a clone installed with `pip install -e .`"
        )
    return folder


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"tablesim_bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def run_all(seconds: float = 2.0, only: str | None = None) -> dict:
    """Every group's figures as one flat dict (keys as in docs/performance.md)."""
    groups = list(GROUPS) if not only else [g.strip() for g in only.split(",")]
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        raise UsageError(f"--only: unknown group {unknown[0]!r}; allowed: {', '.join(GROUPS)}")
    needs = [g for g in groups if g in NEEDS and importlib.util.find_spec(NEEDS[g]) is None]
    if needs:
        others = ", ".join(g for g in GROUPS if g not in NEEDS)
        raise UsageError(
            f"the {needs[0]} group compares with {NEEDS[needs[0]]}, a development extra that is not "
            f"installed: run `make bench` (it installs the extras), or choose --only {others}"
        )
    figures: dict = {}
    for group in groups:
        module = _load(benchmarks_dir() / GROUPS[group])
        figures.update(module.run_benchmarks(seconds))
    return figures


def cmd_bench(args: argparse.Namespace) -> int:
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


def add_parsers(sub) -> None:
    """Add ``tablesim bench`` to the parser."""
    p = sub.add_parser("bench", help="print the performance figures of benchmarks/")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--seconds", type=float, default=2.0, help="time per measured case")
    p.add_argument(
        "--only",
        default=None,
        help="comma-separated groups: physics, games, cpu (CPU ms per match, engine share), "
        "split (where a Carrom match and a Gastérospeed championship spend it), scaling",
    )
    p.set_defaults(func=cmd_bench)
