"""Ishigami's function with Monte Carlo noise: a simulator whose mean response has known indices.

``python -m tests.balance.noisy_ishigami --reps 200`` prints, for Gaussian and binomial noise
at noise shares from 30 % to 90 %, how often every true index lies in its simultaneous
interval, how often the dummy parameter (which changes only the seeds) is called an effect by
each method, the power on each parameter, and the estimated noise share beside the true one.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from analysis.balance.indices import NO_EFFECT
from analysis.balance.sensitivity import DUMMY, SensitivityResult, analyse_function
from analysis.balance.space import Parameter

A, B = 7.0, 0.1
#: The range of Ishigami over [-π, π]³ lies inside [LOW, LOW + SPAN].
LOW, SPAN = -10.75, 28.5
MEAN = 3.5  # E[f] = a/2


def ishigami(X: np.ndarray) -> np.ndarray:
    """Ishigami's function (a = 7, b = 0.1) of the first three columns."""
    return np.sin(X[:, 0]) + A * np.sin(X[:, 1]) ** 2 + B * X[:, 2] ** 4 * np.sin(X[:, 0])


def truth() -> tuple[dict[str, float], dict[str, float], float]:
    """Analytic first-order and total indices of Ishigami, and its variance."""
    v1 = 0.5 * (1 + B * np.pi**4 / 5) ** 2
    v2 = A**2 / 8
    v13 = 8 * B**2 * np.pi**8 / 225
    total = v1 + v2 + v13
    return (
        {"x1": v1 / total, "x2": v2 / total, "x3": 0.0},
        {"x1": (v1 + v13) / total, "x2": v2 / total, "x3": v13 / total},
        total,
    )


PARAMETERS = [Parameter(key=f"x{i}", kind="float", low=-np.pi, high=np.pi) for i in (1, 2, 3)] + [
    Parameter(key=DUMMY, kind="float", low=0.0, high=1.0)
]


@dataclass(frozen=True)
class Noise:
    """Noise added to Ishigami: ``gaussian`` or ``binomial``, at a share of a point's variance.

    Binomial: each replicate is the share of ``trials`` Bernoulli draws at p(x), p an affine map
    of Ishigami into (0, 1) (indices are unchanged by an affine map); the map's slope sets the
    noise share. Gaussian: each replicate adds N(0, s²), s set so the share is ``share``.
    """

    kind: str
    share: float
    replicates: int = 10
    trials: int = 4

    def function(self, rng: np.random.Generator):
        """``func(X, stage)`` → (points, 1, replicates) noisy outputs."""
        variance = truth()[2]

        def gaussian(X, stage):
            sd = np.sqrt(self.share / (1 - self.share) * variance * self.replicates)
            return ishigami(X)[:, None, None] + rng.normal(0.0, sd, (len(X), 1, self.replicates))

        slope = self.slope()

        def binomial(X, stage):
            p = 0.5 + slope * (ishigami(X) - MEAN)
            draws = rng.binomial(self.trials, np.repeat(p[:, None, None], self.replicates, axis=2))
            return draws / self.trials

        return gaussian if self.kind == "gaussian" else binomial

    def slope(self) -> float:
        """The slope of p(x) that gives the noise share (E[p(1−p)] = 1/4 − Var p, Var p = slope²V)."""
        variance, n = truth()[2], self.trials * self.replicates
        # share = (1/4 − c²V)/n / (c²V + (1/4 − c²V)/n)  ⇒  c²V = (1 − share)/(4 (n·share + 1 − share))
        slope = np.sqrt((1 - self.share) / (4 * (n * self.share + 1 - self.share)) / variance)
        return float(min(slope, 0.5 / (SPAN + LOW - MEAN)))  # p stays in [0, 1]


def analyse(noise: Noise, seed: int, samples: int = 256, trajectories: int = 10) -> SensitivityResult:
    """One sensitivity analysis of noisy Ishigami (with the dummy), seeded."""
    settings = SimpleNamespace(
        seed=seed,
        morris=SimpleNamespace(trajectories=trajectories, levels=4),
        sobol=SimpleNamespace(samples=samples, top=3, enabled=True),
    )
    return analyse_function(noise.function(np.random.default_rng([seed, 99])), settings, PARAMETERS, ["y"], DUMMY)


@dataclass
class Tally:
    """What repeated analyses showed against the truth."""

    runs: int = 0
    covered: int = 0
    dummy_sobol: int = 0
    dummy_morris: int = 0
    share_sum: float = 0.0

    def add(self, result: SensitivityResult) -> None:
        s1, st, _ = truth()
        rows = result.sobol.set_index("parameter")
        self.runs += 1
        self.covered += (
            all(
                rows.loc[k, "S1_low"] <= s1[k] <= rows.loc[k, "S1_high"]
                and rows.loc[k, "ST_low"] <= st[k] <= rows.loc[k, "ST_high"]
                for k in s1
            )
            and rows.loc[DUMMY, "S1_low"] == 0
            and rows.loc[DUMMY, "ST_low"] == 0
        )
        self.dummy_sobol += rows.loc[DUMMY, "verdict"] != NO_EFFECT
        morris = result.morris.set_index("parameter")
        self.dummy_morris += morris.loc[DUMMY, "verdict"] != NO_EFFECT
        self.share_sum += result.noise["y"].share


CASES = [
    Noise("gaussian", 0.3),
    Noise("gaussian", 0.6),
    Noise("gaussian", 0.9),
    Noise("binomial", 0.3),
    Noise("binomial", 0.6),
    Noise("binomial", 0.9),
]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--samples", type=int, default=256)
    args = parser.parse_args(argv)
    print(f"noise        share  runs  coverage  dummy effect (Sobol, Morris)  mean estimated share  N = {args.samples}")
    for case in CASES:
        tally = Tally()
        for seed in range(args.reps):
            tally.add(analyse(case, seed, args.samples))
        print(
            f"{case.kind:<12} {case.share:>5.2f} {tally.runs:>5}  {tally.covered / tally.runs:>8.3f}  "
            f"{tally.dummy_sobol / tally.runs:>13.3f} {tally.dummy_morris / tally.runs:>8.3f}  "
            f"{tally.share_sum / tally.runs:>20.3f}"
        )


if __name__ == "__main__":
    main()
