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

The dummy parameter changes nothing in the rules, only the seed set: every point plays the
same seeds (common random numbers) except that the dummy's value picks a different block of
seeds. Its index is therefore the Monte Carlo noise floor — a parameter whose index is not
clearly above the dummy's has no effect the run can see (research/stats.md §5). (With common
random numbers alone a dummy would score exactly 0 and show no noise at all.) Every sample point is a variant of one stored run (``DIR/morris``,
``DIR/sobol``), so a killed analysis resumes chunk by chunk.
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

from .problem import Problem, load_problem
from .space import Parameter
from .targets import Target, measure

__all__ = ["load_sensitivity", "run_sensitivity", "DUMMY"]

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


def run_sensitivity(path: str | Path, out: str | Path, *, jobs: int = 1, backend: str = "loky",
                    progress: bool | None = None) -> dict[str, Any]:
    """Morris on every parameter (+ dummy), then Sobol on the top ones (+ dummy).

    Writes ``morris.csv``, ``sobol.csv``, ``sensitivity.json`` and ``sensitivity.png``.
    """
    from SALib.analyze import morris as morris_analyze
    from SALib.analyze import sobol as sobol_analyze
    from SALib.sample import morris as morris_sample
    from SALib.sample import sobol as sobol_sample

    problem = load_sensitivity(path)
    path, spec, settings = problem.path, problem.spec, problem.settings
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "manifest.json").write_text(json.dumps({"kind": "sensitivity", "game": spec.name, "seed": settings.seed,
                                                   "sensitivity_file": str(path), "settings": to_dict(settings)},
                                                  indent=2, default=str), encoding="utf-8")
    params = list(settings.parameters)
    names = [p.name for p in params]
    bounds = [[p.low, p.high] for p in params]
    if settings.dummy:
        names.append(DUMMY)
        bounds.append([0.0, 1.0])
        params.append(Parameter(key=DUMMY, kind="float", low=0.0, high=1.0))
    first = settings.lineups[0].name
    labels = [_output(o, first).label for o in settings.outputs]

    def evaluate(X: np.ndarray, folder: str) -> np.ndarray:
        offsets = None
        if settings.dummy:  # the dummy picks a block of fresh seeds: the noise floor
            seeds_per_point = settings.matches
            offsets = np.round(X[:, names.index(DUMMY)] * DUMMY_SEED_BLOCKS).astype(int) * seeds_per_point
        # the rule parameters are the first columns (the dummy, if any, is the last)
        return _evaluate(problem, X[:, :len(settings.parameters)], out / folder, jobs, backend, progress, offsets)

    salib = {"num_vars": len(names), "names": names, "bounds": bounds}
    X = morris_sample.sample(salib, N=settings.morris.trajectories, num_levels=settings.morris.levels,
                             seed=settings.seed)
    Y = evaluate(X, "morris")
    morris_rows = []
    for k, label in enumerate(labels):
        result = morris_analyze.analyze(salib, X, Y[:, k], num_levels=settings.morris.levels, seed=settings.seed)
        for i, name in enumerate(names):
            morris_rows.append({"output": label, "parameter": name, "mu_star": float(result["mu_star"][i]),
                                "mu_star_conf": float(result["mu_star_conf"][i]), "sigma": float(result["sigma"][i])})
    morris = pd.DataFrame(morris_rows)
    morris.to_csv(out / "morris.csv", index=False)
    summary: dict[str, Any] = {"game": spec.name, "outputs": labels, "parameters": names,
                               "morris_points": int(len(X)), "matches_per_point": settings.matches,
                               "settings": to_dict(settings)}
    sobol = pd.DataFrame()
    if settings.sobol.enabled:
        # keep the parameters ranked highest by mu* (scaled per output) for Sobol, plus the dummy
        scaled = morris.assign(rank=morris.groupby("output")["mu_star"].transform(lambda s: s / (s.max() or 1)))
        ranking = (scaled[scaled["parameter"] != DUMMY].groupby("parameter")["rank"].max()
                   .sort_values(ascending=False))
        keep = list(ranking.index[: settings.sobol.top]) + ([DUMMY] if settings.dummy else [])
        keep_idx = [names.index(n) for n in keep]
        sub_problem = {"num_vars": len(keep), "names": keep, "bounds": [bounds[i] for i in keep_idx]}
        Xs = sobol_sample.sample(sub_problem, settings.sobol.samples, calc_second_order=False, seed=settings.seed)
        full = np.array([[np.mean(bounds[i]) for i in range(len(names))]] * len(Xs))
        full[:, keep_idx] = Xs
        Ys = evaluate(full, "sobol")
        rows = []
        for k, label in enumerate(labels):
            if np.allclose(Ys[:, k], Ys[0, k]):
                result = {"S1": np.zeros(len(keep)), "S1_conf": np.zeros(len(keep)),
                          "ST": np.zeros(len(keep)), "ST_conf": np.zeros(len(keep))}
            else:
                result = sobol_analyze.analyze(sub_problem, Ys[:, k], calc_second_order=False, seed=settings.seed)
            for i, name in enumerate(keep):
                rows.append({"output": label, "parameter": name, "S1": float(result["S1"][i]),
                             "S1_conf": float(result["S1_conf"][i]), "ST": float(result["ST"][i]),
                             "ST_conf": float(result["ST_conf"][i])})
        sobol = pd.DataFrame(rows)
        sobol.to_csv(out / "sobol.csv", index=False)
        summary["sobol_points"] = int(len(Xs))
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
                floor.setdefault(output, {})["ST"] = float(dummy["ST"].iloc[0])
    return floor


def plot_sensitivity(morris: pd.DataFrame, sobol: pd.DataFrame, path: Path) -> None:
    """Bars of Morris μ* and Sobol ST per output, the dummy's level drawn as the noise floor."""
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
            ax.barh(group["parameter"], group[value], xerr=group[conf], color=colours, capsize=3)
            dummy = group[group["parameter"] == DUMMY]
            if len(dummy):
                ax.axvline(float(dummy[value].iloc[0]), color="#d62728", linestyle="--", label="noise floor (dummy)")
                ax.legend(fontsize=9, loc="lower right")
            ax.set_title(f"{title}: {output}", fontsize=11)
            ax.tick_params(labelsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
