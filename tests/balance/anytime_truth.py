"""Known-truth figures of the anytime-valid balance validation (``search.look_every``).

    PYTHONPATH=. .venv/bin/python -m tests.balance.anytime_truth --reps 400

Synthetic fresh-seed tables (tests/balance/synthetic.py): seat 0 wins each match with a known
probability; the band is 0.5 ± 0.03 and the look's α_j is 0.05/3. For a truth on the band's edge
(0.53) the share of claims is the error the claim's sequences must keep below α_j; for a truth
inside (0.50, 0.515) it is the power. Each scenario is run with a look every ``look_every``
matches up to the cap, and with the staged validation of the same cap (three nested stages from
a tight in-sample interval) on the same draws; matches and looks are averaged over the runs.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from analysis.balance.validation import validate

from .synthetic import balance_file, candidate, synthetic_play

CAP, LOOK_EVERY, STAGES = 4000, 100, 3


def one(folder: Path, truth: float, rep: int, look_every: int) -> tuple[bool, int, int]:
    """(claimed, matches played, looks) of one validation."""
    balance = balance_file(folder, matches=CAP, stages=1 if look_every else STAGES, look_every=look_every)
    played: list[int] = []
    summary = validate(
        balance,
        folder / f"out{truth}-{rep}-{look_every}",
        [candidate(balance, 0.5, 0.001)],
        jobs=1,
        backend="sequential",
        play=synthetic_play({"l0": truth}, rep, played),
    )
    looks = summary["best"].get("looks_inside", summary["look"]) if summary.get("best") else 0
    return bool(summary["meets_all_targets"]), sum(played), int(looks)


def table(reps: int):
    """The table's lines, each as soon as its runs are done."""
    from scipy.stats import binomtest

    yield f"{'truth':>6} {'method':<22} {'claims':>7} {'95 % interval':>16} {'matches':>8} {'looks':>6}"
    with tempfile.TemporaryDirectory() as scratch:
        for truth in (0.53, 0.515, 0.50):
            for method, every in ((f"anytime, every {LOOK_EVERY}", LOOK_EVERY), (f"staged, {STAGES} stages", 0)):
                runs = [one(Path(scratch), truth, rep, every) for rep in range(reps)]
                claims = np.array([r[0] for r in runs])
                k, n = int(claims.sum()), len(runs)
                ci = binomtest(k, n).proportion_ci(0.95, method="exact")
                yield (
                    f"{truth:>6.3f} {method:<22} {k / n:>7.3f} [{ci.low:.3f}, {ci.high:.3f}] "
                    f"{np.mean([r[1] for r in runs]):>8.0f} {np.mean([r[2] for r in runs]):>6.1f}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200)
    args = parser.parse_args()
    print(f"# PYTHONPATH=. .venv/bin/python -m tests.balance.anytime_truth --reps {args.reps}")
    print(f"# band 0.5 ± 0.03, α_j = 0.05/3, cap {CAP} matches")
    for line in table(args.reps):
        print(line, flush=True)


if __name__ == "__main__":
    main()
