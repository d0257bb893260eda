"""`tablesim sensitivity`: Morris screening, then Sobol indices, with a dummy parameter.

A sensitivity file (TOML)::

    game = "curlastique"
    seed = 5
    matches = 40                 # per sample point and line-up (same seeds at every point)
    [[lineups]]
    name = "club-4p"
    players = ["club", "club", "club", "club"]
    [[parameters]]
    key = "zones.values[0]"      # a rule key, or one element of a list rule
    kind = "int"                 # int | float
    low = 60
    high = 160
    [[outputs]]                  # metrics as in balance targets, without a band
    metric = "seat_win_rate"
    seat = 0
    [morris]
    trajectories = 10
    levels = 4
    [sobol]
    samples = 64                 # N (a power of two): N·(D + 2) points
    top = 6                      # Sobol on the Morris top-k parameters (+ the dummy)

The indices and their intervals come from :mod:`analysis.balance.indices` — the same code
that :func:`analyse_function` runs on any Python function (tested on the Ishigami function,
whose indices are known). A parameter is an effect only when its index's interval excludes 0
(Sobol: simultaneous 95 % studentized bootstrap intervals over an output's indices; Morris:
SALib's bootstrap interval of μ*); otherwise it has "no effect the run can see".

The dummy parameter changes nothing in the rules, only the seed set: every point plays the
same seeds (common random numbers) except that the dummy's value picks a different block of
seeds. Its index is therefore the *noise share*: the part of the output's variance that the
choice of seeds alone explains (with common random numbers alone a dummy would score exactly
0 and show no noise at all). It is reported as that reference, not as a threshold: an index
below the dummy's can still be a real effect if its interval excludes 0, and an index above it
is no effect if its interval includes 0. Every sample point is a variant of one stored run
(``DIR/morris``, ``DIR/sobol``), so a killed analysis resumes chunk by chunk.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.core.config import param, read_toml, to_dict
from sim.core.experiment import Lineup, RulesChange
from sim.core.runner import DEFAULT_CHUNK_SIZE, Cell, run_cells
from sim.core.store import ResultStore

from .indices import morris_indices, sobol_indices
from .problem import Problem, load_problem
from .space import Parameter
from .targets import Target, measure

__all__ = ["load_sensitivity", "run_sensitivity", "analyse_function", "DUMMY"]

DUMMY = "dummy (noise floor)"
#: The dummy's range [0, 1] maps to this many + 1 distinct blocks of seeds.
DUMMY_SEED_BLOCKS = 1000


@dataclass(frozen=True)
class MorrisSettings:
    trajectories: int = param(10, min=2, doc="r: Morris trajectories")
    levels: int = param(4, min=2, doc="grid levels")


@dataclass(frozen=True)
class SobolSettings:
    samples: int = param(64, min=2, doc="N (power of two): N·(D+2) points")
    top: int = param(6, min=1, doc="parameters kept from the Morris screening")
    enabled: bool = True


@dataclass(frozen=True)
class SensitivityFile:
    game: str = ""
    seed: int = param(0, min=0)
    matches: int = param(40, min=1, doc="matches per point and line-up")
    rotate_seats: bool = False
    chunk_size: int = param(DEFAULT_CHUNK_SIZE, min=1)
    baseline: RulesChange = RulesChange()
    lineups: tuple[Lineup, ...] = ()
    parameters: tuple[Parameter, ...] = ()
    outputs: tuple[Target, ...] = ()
    dummy: bool = True
    morris: MorrisSettings = MorrisSettings()
    sobol: SobolSettings = SobolSettings()

    def problems(self):
        for key in ("game",):
            if not getattr(self, key):
                yield key, "missing"
        if not self.lineups:
            yield "lineups", "expected at least one [[lineups]] table"
        if not self.parameters:
            yield "parameters", "expected at least one [[parameters]] table"
        for index, p in enumerate(self.parameters):
            if p.kind not in ("int", "float"):
                yield f"parameters[{index}].kind", f"got {p.kind!r}; allowed: 'int', 'float' (use key[i] for list elements)"
        if not self.outputs:
            yield "outputs", "expected at least one [[outputs]] table"
        n = self.sobol.samples
        if n & (n - 1):
            yield "sobol.samples", f"got {n}; allowed: a power of two (Saltelli sampling)"


def _output(target: Target, lineup: str) -> Target:
    # outputs have no band; give them a dummy one so Target validates the same way
    return replace(target, lineup=target.lineup or lineup)


def load_sensitivity(path: str | Path) -> Problem:
    """Validate a sensitivity file; returns the problem (``settings`` is the SensitivityFile)."""
    path = Path(path)
    data = read_toml(path)
    for output in data.get("outputs", []):  # outputs carry no band
        if isinstance(output, dict):
            output.setdefault("low", 0.0)
            output.setdefault("high", 1.0)
    return load_problem(path, SensitivityFile, data)


def _evaluate(problem: Problem, X: np.ndarray, folder: Path, jobs: int, backend: str, progress,
              seed_offsets: np.ndarray | None = None) -> np.ndarray:
    """Y (points × outputs): each row of X (one column per parameter) is a variant of one stored run."""
    spec, settings = problem.spec, problem.settings
    cells = []
    for row, values in enumerate(X):
        point = {p.name: int(round(value)) if p.kind == "int" else float(value)
                 for value, p in zip(values, settings.parameters)}
        rules = problem.rules(point)
        offset = int(seed_offsets[row]) if seed_offsets is not None else 0
        cells += [Cell(f"p{row:05d}", lineup, rules, players, settings.rotate_seats, offset)
                  for lineup, players in problem.lineups.items()]
    store = ResultStore(folder)
    store.write_manifest({"kind": "sensitivity-points", "game": spec.name, "seed": settings.seed,
                          "points": len(X), "status": "running"})
    tables = run_cells(spec, cells, settings.matches, settings.seed, jobs=jobs, backend=backend,
                       chunk_size=settings.chunk_size, store=store, progress=progress)
    first = settings.lineups[0].name
    outputs = [_output(o, first) for o in settings.outputs]
    Y = np.zeros((len(X), len(outputs)))
    by_variant = {name: {t: f[f["variant"] == name] for t, f in tables.items() if len(f)}
                  for name in tables["matches"]["variant"].unique()}
    for row in range(len(X)):
        part = by_variant[f"p{row:05d}"]
        part.setdefault("events", pd.DataFrame())
        for k, output in enumerate(outputs):
            Y[row, k] = measure(output, part, spec.summary)["value"]
    store.write_manifest({"kind": "sensitivity-points", "game": spec.name, "seed": settings.seed,
                          "points": len(X), "status": "complete"})
    return Y


def analyse_function(func, settings, parameters: list[Parameter], labels: list[str],
                     dummy: str | None = DUMMY) -> tuple[pd.DataFrame, pd.DataFrame, int, int]:
    """Morris on every parameter, then Sobol on the top ``settings.sobol.top`` (+ the dummy).

    What ``tablesim sensitivity`` does, for any function: ``func(X, stage)`` maps sample points
    (rows × parameters, the dummy's column last if ``dummy``) to outputs (rows × labels);
    ``stage`` is ``"morris"`` or ``"sobol"``. Parameters left out of the Sobol stage sit at
    the middle of their range. ``settings`` needs ``seed``, ``morris.trajectories``,
    ``morris.levels``, ``sobol.samples``, ``sobol.top`` and ``sobol.enabled``.

    Returns:
        (Morris table, Sobol table (empty if disabled), Morris points, Sobol points).
    """
    names = [p.name for p in parameters]
    bounds = [[p.low, p.high] for p in parameters]
    problem = {"num_vars": len(names), "names": names, "bounds": bounds}
    morris = morris_indices(lambda X: func(X, "morris"), problem, settings.morris.trajectories,
                            settings.morris.levels, settings.seed, labels=labels, reference=dummy)
    morris_points = settings.morris.trajectories * (len(names) + 1)
    if not settings.sobol.enabled:
        return morris, pd.DataFrame(), morris_points, 0
    # keep the parameters ranked highest by mu* (scaled per output) for Sobol, plus the dummy
    scaled = morris.assign(rank=morris.groupby("output")["mu_star"].transform(lambda s: s / (s.max() or 1)))
    ranking = (scaled[scaled["parameter"] != dummy].groupby("parameter")["rank"].max()
               .sort_values(ascending=False))
    keep = list(ranking.index[: settings.sobol.top]) + ([dummy] if dummy in names else [])
    keep_idx = [names.index(n) for n in keep]
    sub_problem = {"num_vars": len(keep), "names": keep, "bounds": [bounds[i] for i in keep_idx]}

    def sobol_func(Xs: np.ndarray) -> np.ndarray:
        full = np.array([[np.mean(bounds[i]) for i in range(len(names))]] * len(Xs))
        full[:, keep_idx] = Xs
        return func(full, "sobol")

    sobol = sobol_indices(sobol_func, sub_problem, settings.sobol.samples, settings.seed, labels=labels,
                          reference=dummy)
    return morris, sobol, morris_points, settings.sobol.samples * (len(keep) + 2)


def run_sensitivity(path: str | Path, out: str | Path, *, jobs: int = 1, backend: str = "loky",
                    progress: bool | None = None) -> dict[str, Any]:
    """Morris on every parameter (+ dummy), then Sobol on the top ones (+ dummy).

    Writes ``morris.csv``, ``sobol.csv``, ``sensitivity.json`` and ``sensitivity.png``.
    """
    problem = load_sensitivity(path)
    path, spec, settings = problem.path, problem.spec, problem.settings
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "manifest.json").write_text(json.dumps({"kind": "sensitivity", "game": spec.name, "seed": settings.seed,
                                                   "sensitivity_file": str(path), "settings": to_dict(settings)},
                                                  indent=2, default=str), encoding="utf-8")
    params = list(settings.parameters)
    if settings.dummy:
        params.append(Parameter(key=DUMMY, kind="float", low=0.0, high=1.0))
    first = settings.lineups[0].name
    labels = [_output(o, first).label for o in settings.outputs]

    def evaluate(X: np.ndarray, stage: str) -> np.ndarray:
        offsets = None
        if settings.dummy:  # the dummy picks a block of fresh seeds: the noise floor
            offsets = np.round(X[:, -1] * DUMMY_SEED_BLOCKS).astype(int) * settings.matches
        # the rule parameters are the first columns (the dummy, if any, is the last)
        return _evaluate(problem, X[:, :len(settings.parameters)], out / stage, jobs, backend, progress, offsets)

    morris, sobol, morris_points, sobol_points = analyse_function(
        evaluate, settings, params, labels, DUMMY if settings.dummy else None)
    morris.to_csv(out / "morris.csv", index=False)
    summary: dict[str, Any] = {"game": spec.name, "outputs": labels, "parameters": [p.name for p in params],
                               "morris_points": int(morris_points), "matches_per_point": settings.matches,
                               "settings": to_dict(settings),
                               "intervals": "Sobol: simultaneous 95 % studentized bootstrap over each output's "
                                            "indices; Morris: SALib bootstrap of mu*, Bonferroni over parameters"}
    if len(sobol):
        sobol.to_csv(out / "sobol.csv", index=False)
        summary["sobol_points"] = int(sobol_points)
    summary["morris"] = morris.to_dict("records")
    summary["sobol"] = sobol.to_dict("records")
    summary["noise_floor"] = _noise_floor(morris, sobol)
    (out / "sensitivity.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    plot_sensitivity(morris, sobol, out / "sensitivity.png")
    return summary


def _noise_floor(morris: pd.DataFrame, sobol: pd.DataFrame) -> dict[str, dict[str, float]]:
    floor: dict[str, dict[str, float]] = {}
    for output, group in morris.groupby("output"):
        dummy = group[group["parameter"] == DUMMY]
        floor[output] = {"mu_star": float(dummy["mu_star"].iloc[0]) if len(dummy) else float("nan")}
    if len(sobol):
        for output, group in sobol.groupby("output"):
            dummy = group[group["parameter"] == DUMMY]
            if len(dummy):
                floor.setdefault(output, {}).update(ST=float(dummy["ST"].iloc[0]), S1=float(dummy["S1"].iloc[0]))
    return floor


def plot_sensitivity(morris: pd.DataFrame, sobol: pd.DataFrame, path: Path) -> None:
    """Bars of Morris μ* and Sobol ST per output with their intervals; the dummy's level is the noise share."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    outputs = list(dict.fromkeys(morris["output"]))
    columns = 2 if len(sobol) else 1
    fig, axes = plt.subplots(len(outputs), columns, figsize=(6.5 * columns, 2.8 + 0.4 * morris["parameter"].nunique()
                                                              * len(outputs) / max(1, len(outputs))),
                             squeeze=False)
    for row, output in enumerate(outputs):
        for col, (frame, value, conf, title) in enumerate(
                [(morris, "mu_star", "mu_star_conf", "Morris μ*"), (sobol, "ST", "ST_conf", "Sobol total index ST")][:columns]):
            ax = axes[row][col]
            group = frame[frame["output"] == output].iloc[::-1]
            colours = ["#999999" if p == DUMMY else "#1f77b4" for p in group["parameter"]]
            if f"{value}_low" in group:  # asymmetric after clipping to [0, 1]
                error = [group[value] - group[f"{value}_low"], group[f"{value}_high"] - group[value]]
            else:
                error = group[conf]
            ax.barh(group["parameter"], group[value], xerr=np.clip(np.asarray(error, float), 0, None),
                    color=colours, capsize=3)
            dummy = group[group["parameter"] == DUMMY]
            if len(dummy):
                ax.axvline(float(dummy[value].iloc[0]), color="#d62728", linestyle="--", label="noise share (dummy)")
                ax.legend(fontsize=9, loc="lower right")
            ax.set_title(f"{title}: {output}", fontsize=11)
            ax.tick_params(labelsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
