"""`tablesim bench`: run the scripts of benchmarks/ and merge their figures.

The benchmarks live in the repository's ``benchmarks/`` folder (not in the installed package):
this command finds it beside the ``sim`` package of an editable install or a clone.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

__all__ = ["run_all", "benchmarks_dir"]

GROUPS = {"physics": "bench_physics.py", "games": "bench_games.py", "scaling": "bench_scaling.py"}


def benchmarks_dir() -> Path:
    folder = Path(__file__).resolve().parents[1] / "benchmarks"
    if not folder.is_dir():
        raise FileNotFoundError("benchmarks/ not found: run `tablesim bench` from a clone "
                                "installed with `pip install -e .`")
    return folder


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"tablesim_bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def run_all(seconds: float = 2.0, only: str | None = None) -> dict:
    """Every group's figures as one flat dict (keys as in the README's performance table)."""
    groups = list(GROUPS) if not only else [g.strip() for g in only.split(",")]
    unknown = [g for g in groups if g not in GROUPS]
    if unknown:
        from .cli import UsageError

        raise UsageError(f"--only: unknown group {unknown[0]!r}; allowed: {', '.join(GROUPS)}")
    figures: dict = {}
    for group in groups:
        module = _load(benchmarks_dir() / GROUPS[group])
        figures.update(module.run_benchmarks(seconds))
    return figures
