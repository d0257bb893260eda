"""`tablesim bench --only split`: where a Carrom match and a Gastérospeed championship spend
their CPU (:mod:`carrom_decisions`, :mod:`gasterospeed_decisions`), so the next bottleneck is
visible beside the ``cpu`` group's totals.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_split.py [--seconds S] [--format json]

``seconds`` sets the matches played: about ``S`` CPU seconds per game at today's speed
(at least 2 Carrom matches and 5 Gastérospeed championships).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.carrom_decisions import run_benchmarks as carrom_split  # noqa: E402
from benchmarks.gasterospeed_decisions import run_benchmarks as gasterospeed_split  # noqa: E402
from benchmarks.split_output import print_figures  # noqa: E402

#: CPU seconds per match, about (docs/performance.md), to turn seconds into matches
_CARROM_S, _GASTEROSPEED_S = 0.18, 0.04


def run_benchmarks(seconds: float = 2.0) -> dict[str, float]:
    """Both splits' figures (``carrom_*``, ``gasterospeed_*``), 4 tacticians for Gastérospeed."""
    figures = carrom_split(matches=max(2, round(seconds / _CARROM_S)))
    figures.update(gasterospeed_split(matches=max(5, round(seconds / _GASTEROSPEED_S))))
    return figures


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--seconds", type=float, default=2.0)
    cli.add_argument("--format", choices=("text", "json"), default="text")
    args = cli.parse_args(argv)
    return print_figures(
        run_benchmarks(args.seconds), args.format, f"benchmarks/bench_split.py --seconds {args.seconds}"
    )


if __name__ == "__main__":
    sys.exit(main())
