"""What the time-split benchmarks share (``carrom_decisions.py``, ``gasterospeed_decisions.py``):
their command line's common options and their output, a table headed by the command that
reproduces it, or JSON."""

from __future__ import annotations

import argparse
import json


def parser(description: str, matches: int) -> argparse.ArgumentParser:
    """``--matches`` (default ``matches``), ``--seed`` and ``--format``."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--matches", type=int, default=matches)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--format", choices=("text", "json"), default="text")
    return p


def print_figures(figures: dict[str, float], fmt: str, command: str) -> int:
    """Print ``figures`` as JSON, or one per line after ``# command``; returns exit status 0."""
    if fmt == "json":
        print(json.dumps(figures, indent=1))
        return 0
    print(f"# PYTHONPATH=. .venv/bin/python {command}")
    for name, value in figures.items():
        print(f"{name:36s} {value:9.2f}")
    return 0
