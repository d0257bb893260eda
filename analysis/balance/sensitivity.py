"""`tablesim sensitivity`: which rule parameters move an outcome's mean, Morris then Sobol.

A sensitivity file (TOML)::

    game = "curlastique"
    seed = 5
    matches = 40                 # per sample point and line-up (same seeds at every point)
    replicates = 10              # blocks of seeds per point (default: the most, up to 10, that
                                 # split the matches equally); the noise is measured from their spread
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

Each point's matches are split into ``replicates`` blocks of seeds, the same blocks at every
point (common random numbers). The indices are those of the mean response, with the Monte
Carlo noise measured from the blocks' spread and removed (:mod:`analysis.balance.indices`, the
same code that :func:`analyse_function` runs on any Python function, tested on Ishigami with
binomial and Gaussian noise). The noise is reported as its own share of a point's variance,
with the matches per point that would bring it to a fifth. Each verdict is a test at level 5 %
per output: "effect" when the parameter is shown to move the mean response, otherwise "no
effect the run can see".

The dummy parameter changes nothing in the rules, only the seed set: its value picks another
set of seed blocks. Its true index is 0, so it is judged like the others and must come out "no
effect" (it may be called an effect in at most 5 % of runs). Every sample point is a variant
of one stored run (``DIR/morris``, ``DIR/sobol``), so a killed analysis resumes chunk by chunk.
"""

from __future__ import annotations

import json
import math
import textwrap
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.core.config import param, read_toml, to_dict
from sim.core.experiment import Lineup, RulesChange
from sim.core.runner import DEFAULT_CHUNK_SIZE, Cell, run_cells
from sim.core.store import ResultStore

from .indices import NoiseShare, morris_indices, noise_summary, reconcile, sobol_indices
from .problem import Problem, load_problem
from .space import Parameter
from .targets import Target, measure_all

__all__ = ["load_sensitivity", "run_sensitivity", "analyse_function", "SensitivityResult", "DUMMY"]

DUMMY = "dummy (seeds only)"
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
    replicates: int = param(
        0,
        min=0,
        doc="blocks of seeds per point, the noise measured from their spread "
        "(0: the most, up to 10, that split the matches into equal blocks)",
    )
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
                yield (
                    f"parameters[{index}].kind",
                    f"got {p.kind!r}; allowed: 'int', 'float' (use key[i] for list elements)",
                )
        if not self.outputs:
            yield "outputs", "expected at least one [[outputs]] table"
        n = self.sobol.samples
        if n & (n - 1):
            yield "sobol.samples", f"got {n}; allowed: a power of two (Saltelli sampling)"
        if self.replicates and self.replicates < 2:
            yield "replicates", f"got {self.replicates}; allowed: 0 (chosen for you) or at least 2"
        elif self.replicates and self.matches % self.block_unit():
            yield (
                "matches",
                (
                    f"got {self.matches}; allowed: a multiple of {self.block_unit()} (replicates = "
                    f"{self.replicates} equal blocks{self._seat_note()})"
                ),
            )
        elif not self.replicates and (self.matches % self._seats() or self.replicate_count() < 2):
            yield (
                "matches",
                (
                    f"got {self.matches}; allowed: at least two equal blocks of whole seeds, e.g. "
                    f"{2 * self._seats()} (the noise is measured from the blocks' spread)"
                ),
            )

    def _seats(self) -> int:
        """Matches per seed: the seats of the largest line-up under rotation, else 1."""
        if not self.rotate_seats or not self.lineups:
            return 1
        return math.lcm(*(len(lineup.players) for lineup in self.lineups))

    def _seat_note(self) -> str:
        return f" of whole rotations, {self._seats()} matches a seed" if self._seats() > 1 else ""

    def block_unit(self) -> int:
        """The matches that ``replicates`` blocks of whole seeds take at the least."""
        return max(self.replicates, 1) * self._seats()

    def replicate_count(self) -> int:
        """The number of blocks of seeds each point is split into (``replicates``, or chosen)."""
        if self.replicates:
            return self.replicates
        seeds = self.matches // self._seats()
        return max((r for r in range(1, 11) if seeds % r == 0), default=1)


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


def _replicate_values(tables: dict[str, pd.DataFrame], outputs: list[Target], settings, game_summary) -> np.ndarray:
    """(outputs, replicates) values of one point: each replicate an equal block of its matches."""
    replicates = settings.replicate_count()
    block = settings.matches // replicates
    replicate_of = {table: frame["match"].to_numpy() // block for table, frame in tables.items() if len(frame)}
    values = np.zeros((len(outputs), replicates))
    for r in range(replicates):
        part = {table: frame[replicate_of[table] == r] for table, frame in tables.items() if len(frame)}
        part.setdefault("events", pd.DataFrame())
        for k, result in enumerate(measure_all(outputs, part, game_summary)):
            values[k, r] = result["value"]
    return values


def _evaluate(
    problem: Problem,
    X: np.ndarray,
    folder: Path,
    jobs: int,
    backend: str,
    progress,
    seed_offsets: np.ndarray | None = None,
) -> np.ndarray:
    """Y (points × outputs × replicates): each row of X is a variant of one stored run."""
    spec, settings = problem.spec, problem.settings
    cells = []
    for row, values in enumerate(X):
        point = {
            p.name: int(round(value)) if p.kind == "int" else float(value)
            for value, p in zip(values, settings.parameters)
        }
        rules = problem.rules(point)
        offset = int(seed_offsets[row]) if seed_offsets is not None else 0
        cells += [
            Cell(f"p{row:05d}", lineup, rules, players, settings.rotate_seats, offset)
            for lineup, players in problem.lineups.items()
        ]
    store = ResultStore(folder)
    store.write_manifest(
        {"kind": "sensitivity-points", "game": spec.name, "seed": settings.seed, "points": len(X), "status": "running"}
    )
    tables = run_cells(
        spec,
        cells,
        settings.matches,
        settings.seed,
        jobs=jobs,
        backend=backend,
        chunk_size=settings.chunk_size,
        store=store,
        progress=progress,
    )
    first = settings.lineups[0].name
    outputs = [_output(o, first) for o in settings.outputs]
    Y = np.zeros((len(X), len(outputs), settings.replicate_count()))
    by_variant = {
        name: {t: f[f["variant"] == name] for t, f in tables.items() if len(f)}
        for name in tables["matches"]["variant"].unique()
    }
    for row in range(len(X)):
        Y[row] = _replicate_values(by_variant[f"p{row:05d}"], outputs, settings, spec.summary)
    store.write_manifest(
        {"kind": "sensitivity-points", "game": spec.name, "seed": settings.seed, "points": len(X), "status": "complete"}
    )
    return Y


@dataclass(frozen=True)
class SensitivityResult:
    """What a sensitivity analysis found.

    Attributes:
        morris: one row per output × parameter (:func:`analysis.balance.indices.morris_indices`).
        sobol: likewise for the Sobol stage (empty when it is disabled).
        morris_points, sobol_points: sample points evaluated by each stage.
        noise: each output's noise share (from the Sobol sample; empty without it).
        reconciliation: a sentence for every output and parameter the two methods judge differently.
    """

    morris: pd.DataFrame
    sobol: pd.DataFrame
    morris_points: int
    sobol_points: int
    noise: dict[str, NoiseShare] = field(default_factory=dict)
    reconciliation: list[str] = field(default_factory=list)


def analyse_function(
    func, settings, parameters: list[Parameter], labels: list[str], dummy: str | None = DUMMY
) -> SensitivityResult:
    """Morris on every parameter, then Sobol on the top ``settings.sobol.top`` (+ the dummy).

    What ``tablesim sensitivity`` does, for any function: ``func(X, stage)`` maps sample points
    (rows × parameters, the dummy's column last if ``dummy``) to outputs — (rows, outputs), or
    (rows, outputs, replicates) for a noisy function evaluated on independent blocks of seeds;
    ``stage`` is ``"morris"`` or ``"sobol"``. Parameters left out of the Sobol stage sit at the
    middle of their range. ``settings`` needs ``seed``, ``morris.trajectories``,
    ``morris.levels``, ``sobol.samples``, ``sobol.top`` and ``sobol.enabled``.
    """
    names = [p.name for p in parameters]
    bounds = [[p.low, p.high] for p in parameters]
    problem = {"num_vars": len(names), "names": names, "bounds": bounds}
    morris = morris_indices(
        lambda X: func(X, "morris"),
        problem,
        settings.morris.trajectories,
        settings.morris.levels,
        settings.seed,
        labels=labels,
        reference=dummy,
    )
    morris_points = settings.morris.trajectories * (len(names) + 1)
    if not settings.sobol.enabled:
        return SensitivityResult(morris, pd.DataFrame(), morris_points, 0)
    # keep the parameters ranked highest by their elementary effects (scaled per output), plus the dummy
    scaled = morris.assign(rank=morris.groupby("output")["ee_rms"].transform(lambda s: s / (s.max() or 1)))
    ranking = (
        scaled[scaled["parameter"] != dummy]
        .groupby("parameter")["rank"]
        .max()
        .sort_values(ascending=False, kind="stable")
    )
    keep = list(ranking.index[: settings.sobol.top]) + ([dummy] if dummy in names else [])
    keep_idx = [names.index(n) for n in keep]
    sub_problem = {"num_vars": len(keep), "names": keep, "bounds": [bounds[i] for i in keep_idx]}

    def sobol_func(Xs: np.ndarray) -> np.ndarray:
        full = np.array([[np.mean(bounds[i]) for i in range(len(names))]] * len(Xs))
        full[:, keep_idx] = Xs
        return func(full, "sobol")

    noise: dict[str, NoiseShare] = {}
    sobol = sobol_indices(
        sobol_func, sub_problem, settings.sobol.samples, settings.seed, labels=labels, reference=dummy, noise=noise
    )
    return SensitivityResult(
        morris,
        sobol,
        morris_points,
        settings.sobol.samples * (len(keep) + 2),
        noise,
        reconcile(morris, sobol, settings.sobol.samples, settings.morris.trajectories),
    )


def run_sensitivity(
    path: str | Path, out: str | Path, *, jobs: int = 1, backend: str = "loky", progress: bool | None = None
) -> dict[str, Any]:
    """Morris on every parameter (+ dummy), then Sobol on the top ones (+ dummy).

    Writes ``morris.csv``, ``sobol.csv``, ``noise.csv``, ``sensitivity.json`` (with the
    findings in words) and ``sensitivity.png``; returns what ``sensitivity.json`` holds.
    """
    problem = load_sensitivity(path)
    path, spec, settings = problem.path, problem.spec, problem.settings
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "manifest.json").write_text(
        json.dumps(
            {
                "kind": "sensitivity",
                "game": spec.name,
                "seed": settings.seed,
                "sensitivity_file": str(path),
                "settings": to_dict(settings),
            },
            indent=2,
            default=str,
        ),
        encoding="utf-8",
    )
    params = list(settings.parameters)
    if settings.dummy:
        params.append(Parameter(key=DUMMY, kind="float", low=0.0, high=1.0))
    first = settings.lineups[0].name
    labels = [_output(o, first).label for o in settings.outputs]

    def evaluate(X: np.ndarray, stage: str) -> np.ndarray:
        offsets = None
        if settings.dummy:  # the dummy picks another set of seed blocks: it changes only the seeds
            offsets = np.round(X[:, -1] * DUMMY_SEED_BLOCKS).astype(int) * settings.matches
        # the rule parameters are the first columns (the dummy, if any, is the last)
        return _evaluate(problem, X[:, : len(settings.parameters)], out / stage, jobs, backend, progress, offsets)

    result = analyse_function(evaluate, settings, params, labels, DUMMY if settings.dummy else None)
    result.morris.to_csv(out / "morris.csv", index=False)
    noise = noise_summary(result.noise, settings.matches)
    summary: dict[str, Any] = {
        "game": spec.name,
        "outputs": labels,
        "parameters": [p.name for p in params],
        "morris_points": int(result.morris_points),
        "matches_per_point": settings.matches,
        "replicates": settings.replicate_count(),
        "settings": to_dict(settings),
        "intervals": {
            "sobol": "simultaneous 95 % over each output's indices (Fieller intervals of ratios of "
            "means over the base rows, Bonferroni); indices of the mean response, noise removed",
            "morris": "ee_rms: 95 % percentile bootstrap over trajectories; verdict: sign-flip test "
            "at 5 % / D per output (Bonferroni over the D parameters)",
            "noise_share": "95 % percentile bootstrap over the Sobol base rows",
        },
    }
    if len(result.sobol):
        result.sobol.to_csv(out / "sobol.csv", index=False)
        pd.DataFrame(noise).to_csv(out / "noise.csv", index=False)
        summary["sobol_points"] = int(result.sobol_points)
    summary["morris"] = result.morris.to_dict("records")
    summary["sobol"] = result.sobol.to_dict("records")
    summary["noise"] = noise
    summary["reconciliation"] = result.reconciliation
    summary["findings"] = findings(summary)
    (out / "sensitivity.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    plot_sensitivity(result.morris, result.sobol, out / "sensitivity.png")
    return summary


def _percent(value: float) -> str:
    return f"{100 * value:.0f} %"


def findings(summary: dict[str, Any]) -> dict[str, list[str]]:
    """The analysis in sentences, by output: effects, the noise, the dummy, and disagreements."""
    from analysis.narrative import pval

    morris = pd.DataFrame(summary["morris"])
    sobol = pd.DataFrame(summary["sobol"])
    noise = {row["output"]: row for row in summary.get("noise", [])}
    out: dict[str, list[str]] = {}
    for output in summary["outputs"]:
        lines = []
        judged = sobol[sobol["output"] == output] if len(sobol) else morris[morris["output"] == output]
        real = judged[~judged["dummy"]]
        if len(sobol):
            shown = real[real["verdict"] != "no effect the run can see"].sort_values("ST", ascending=False)
            effects = [f"{r.parameter} (ST {r.ST:.2f} [{r.ST_low:.2f}, {r.ST_high:.2f}])" for r in shown.itertuples()]
            method = "Sobol, simultaneous 95 % intervals"
        else:
            shown = real[real["verdict"] == "effect"].sort_values("ee_rms", ascending=False)
            effects = [f"{r.parameter} ({pval(r.p_value)})" for r in shown.itertuples()]
            method = "Morris, sign-flip test at 5 % over the parameters"
        if effects:
            lines.append(f"Shown to move its mean ({method}): {', '.join(effects)}.")
        else:
            lines.append(f"No parameter is shown to move its mean ({method}).")
        morris_only = morris[(morris["output"] == output) & (morris["verdict"] == "effect") & ~morris["dummy"]]
        extra = [p for p in morris_only["parameter"] if p not in set(shown["parameter"])]
        if len(sobol) and extra:
            lines.append(f"Morris also shows an effect of {', '.join(extra)} (see below).")
        if output in noise:
            lines.append(_noise_sentence(noise[output]))
        dummy = judged[judged["dummy"]]
        if len(dummy):
            called = dummy["verdict"].iloc[0] != "no effect the run can see"
            lines.append(
                "The dummy, which changes only the seeds, is called an effect: a false alarm that "
                "happens in at most 5 % of runs; read the verdicts with care."
                if called
                else "The dummy, which changes only the seeds, is rightly called no effect."
            )
        out[output] = lines
    out["agreement"] = list(summary.get("reconciliation", []))
    return out


def _noise_sentence(row: dict[str, Any]) -> str:
    share = (
        f"Monte Carlo noise is {_percent(row['noise_share'])} [{_percent(row['noise_share_low'])}, "
        f"{_percent(row['noise_share_high'])}] (95 % CI) of a single point's variance at "
        f"{row['matches_per_point']:,} matches per point"
    )
    needed, floor = row["matches_needed"], row["matches_needed_is_floor"]
    if not row["response_shown"]:
        tail = "; the parameters together are not shown to move the mean at all: the run is too small to tell"
        if needed:
            tail += (
                f" (even if they explained as much variance as the run allows, bringing the noise to "
                f"a fifth would take at least {needed:,} matches per point)"
            )
        return share + tail + "."
    if row["noise_share"] > 0.2 and needed:
        return share + f"; about {needed:,}{' or more' if floor else ''} matches per point would bring it to a fifth."
    return share + "."


def plot_sensitivity(morris: pd.DataFrame, sobol: pd.DataFrame, path: Path) -> None:
    """Bars per output: Morris ``ee_rms`` and Sobol ST with their intervals; effects in blue, the dummy grey."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    outputs = list(dict.fromkeys(morris["output"]))
    panels = [(morris, "ee_rms", "Morris: RMS elementary effect (95 % CI)")]
    if len(sobol):
        panels.append((sobol, "ST", "Sobol total index ST (simultaneous 95 % CI)"))
    height = 1.2 + 0.35 * morris["parameter"].nunique()
    fig, axes = plt.subplots(
        len(outputs), len(panels), figsize=(6.5 * len(panels), height * len(outputs)), squeeze=False
    )
    for row, output in enumerate(outputs):
        for col, (frame, value, title) in enumerate(panels):
            ax = axes[row][col]
            group = frame[frame["output"] == output].iloc[::-1]
            colours = [
                "#999999" if dummy else "#1f77b4" if verdict != "no effect the run can see" else "#aec7e8"
                for dummy, verdict in zip(group["dummy"], group["verdict"])
            ]
            positions = np.arange(len(group))
            ax.barh(positions, np.nan_to_num(group[value].to_numpy(float)), color=colours)
            ax.hlines(positions, group[f"{value}_low"], group[f"{value}_high"], color="black", linewidth=1.2)
            ax.set_yticks(positions, group["parameter"])
            if value == "ST":
                ax.set_xlim(0, 1.02)
                if group[value].isna().all():
                    ax.text(
                        0.5,
                        len(group) - 0.6,
                        "no estimate: the noise is all the variance the run sees",
                        ha="center",
                        fontsize=9,
                        color="#555555",
                    )
            ax.set_title(f"{title}\n{output}", fontsize=10)
            ax.tick_params(labelsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _range(value: float, low: float, high: float) -> str:
    from analysis.narrative import number

    return f"{number(value)} [{number(low)}, {number(high)}]"


def _share(value: float, low: float, high: float) -> str:
    """An index (a share, 0–1) with its interval, two decimals; no estimate: "—"."""
    estimate = "—" if value != value else f"{value:.2f}"
    return f"{estimate} [{low:.2f}, {high:.2f}]"


def readable_tables(summary: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """Tables for people, one per method and output, numbers rounded (the CSV files keep every digit)."""
    from analysis.narrative import number, pval

    tables: dict[str, pd.DataFrame] = {}
    morris = pd.DataFrame(summary["morris"])
    sobol = pd.DataFrame(summary["sobol"])
    for output in summary["outputs"]:
        rows = morris[morris["output"] == output].sort_values("ee_rms", ascending=False, kind="stable")
        tables[f"Morris, {output}"] = pd.DataFrame(
            {
                "parameter": rows["parameter"],
                "RMS effect [95 % CI]": [_range(r.ee_rms, r.ee_rms_low, r.ee_rms_high) for r in rows.itertuples()],
                "mean effect": [number(r.mu) for r in rows.itertuples()],
                "sign-flip test": [pval(r.p_value) for r in rows.itertuples()],
                "verdict": rows["verdict"],
            }
        )
        if len(sobol):
            rows = sobol[sobol["output"] == output].sort_values("ST", ascending=False, kind="stable")
            tables[f"Sobol, {output}"] = pd.DataFrame(
                {
                    "parameter": rows["parameter"],
                    "S1 [simultaneous 95 % CI]": [_share(r.S1, r.S1_low, r.S1_high) for r in rows.itertuples()],
                    "ST [simultaneous 95 % CI]": [_share(r.ST, r.ST_low, r.ST_high) for r in rows.itertuples()],
                    "verdict": rows["verdict"],
                }
            )
    if summary.get("noise"):
        tables["Monte Carlo noise"] = pd.DataFrame(
            {
                "output": [row["output"] for row in summary["noise"]],
                "noise share of a point's variance [95 % CI]": [
                    f"{100 * row['noise_share']:.0f} % [{100 * row['noise_share_low']:.0f}, "
                    f"{100 * row['noise_share_high']:.0f}]"
                    for row in summary["noise"]
                ],
                "matches per point": [f"{row['matches_per_point']:,}" for row in summary["noise"]],
                "matches per point for a noise share of 20 %": [_needed_cell(row) for row in summary["noise"]],
            }
        )
    return tables


def _needed_cell(row: dict[str, Any]) -> str:
    if row["matches_needed"] is None:
        return "cannot tell"
    if row["noise_share"] <= 0.2 and row["response_shown"]:
        return "already below"
    return f"{'≥ ' if row['matches_needed_is_floor'] else ''}{row['matches_needed']:,}"


def text_report(summary: dict[str, Any]) -> str:
    """What ``tablesim sensitivity`` prints: the findings in words, then the rounded tables."""
    lines = [
        textwrap.fill(
            f"Sensitivity of {', '.join(summary['outputs'])}: Morris on {summary['morris_points']:,} points"
            + (f", Sobol on {summary['sobol_points']:,} points" if summary.get("sobol_points") else "")
            + f", {summary['matches_per_point']:,} matches per point in {summary['replicates']} blocks of seeds.",
            width=100,
        )
    ]
    for output, sentences in summary["findings"].items():
        if not sentences:
            continue
        lines.append("")
        lines.append("Where the two methods differ:" if output == "agreement" else f"{output}:")
        lines += [
            textwrap.fill(sentence, width=100, initial_indent="  - ", subsequent_indent="    ")
            for sentence in sentences
        ]
    for title, table in readable_tables(summary).items():
        lines += ["", f"{title}:", table.to_string(index=False)]
    return "\n".join(lines)
