"""`tablesim balance`: search rule parameters for design targets, honestly validated.

A balance file (TOML)::

    game = "curlastique"
    seed = 11
    matches = 400                  # per trial and line-up, the same seeds for every trial (CRN)
    rotate_seats = false
    [baseline]
    set = { "game.target_score" = 500 }
    [[lineups]]
    name = "club-4p"
    players = ["club", "club", "club", "club"]
    [[parameters]]
    key = "zones.values"
    kind = "int_list"
    length = 4
    low = 10
    high = 200
    step = 10
    order = "decreasing"
    [[targets]]
    metric = "seat_win_rate"
    seat = 0
    target = 0.25
    tolerance = 0.02
    pull = 0.1                     # optional: steer the search to the band's middle
    [[targets]]
    metric = "rounds_quantile"
    quantile = 0.5
    low = 4
    high = 7
    [search]
    optimizer = "tpe"              # tpe | cmaes | gp | random (optuna) | ntbea
    trials = 40
    pruner = "halving"             # halving | wilcoxon | none
    first_rung = 100               # halving: a trial first plays 100 matches, then 300, then
    reduction = 3                  # 800, each rung only if among the best 1/3 there so far
    blocks = 4                     # wilcoxon: a trial is played in blocks of seeds and stopped
                                   # when a paired Wilcoxon test says it is worse than the best
    validate_top = 3               # winner's-curse guard: re-run the best few...
    validate_matches = 2000        # ...on fresh seeds with more matches
    validation_stages = 3          # nested sizes 500, 1000, 2000: stop as soon as decided
    power = 0.8                    # start at the stage the in-sample CIs predict large enough
    bootstrap = 400                # resamples for the CIs of non-rate metrics
    validate_baseline = true       # the baseline rules on the same fresh seeds (before / after)
    validation_round = 0           # n > 0: an independent, confirmatory fresh seed set
    alpha = 0.05                   # false-claim rate of the whole results directory...
    looks = 3                      # ...split over this many planned validation looks
    [surface]                      # optional, see analysis/balance/surface.py
    prefix = "card_win_rate."      # a family of game metrics whose spread is targeted
    bound = 0.15

Every trial plays match indices ``0 .. matches-1`` with the same root seed, so trials differ
only by their rules (common random numbers); it stores its target values, their 90 % in-sample
intervals and every game metric as ``DIR/trials/NNNN.json``. A killed search resumes from them:
optuna's sampler is replayed trial by trial (ask, the same suggestions, the stored block
losses reported, the stored value told), so a resumed search proposes exactly the trials an
uninterrupted one would; NTBEA is replayed the same way.

With ``pruner = "halving"`` a trial is played in rungs of growing size on the same seeds and
goes on only while it ranks among the best of its rung (:mod:`analysis.balance.halving`):
most trials cost a first rung, the promising ones the full ``matches``.

A target with ``lineup = "*"`` is required on every line-up (one target per line-up), e.g.
novice, casual and club 4-player games: the search minimises the sum of their losses and the
validation claims "meets every target on every line-up" as one intersection-union test.

The candidates (the surface's model optimum if any, then the best complete trials by in-sample
rank) are replayed on a fresh seed set (root seed + ``FRESH_SEED_OFFSET`` × (1 + round)) and a
candidate is reported as meeting a target only if the equivalence test (TOST) passes on those
fresh seeds — as a fixed-sequence test: once a candidate misses, later ones are not claimed
(nor played). See :mod:`analysis.balance.validation` for the staged validation and for why the
search's own choices (halving included) cannot raise the chance of a false claim.

Every validation is a *look* (:mod:`analysis.balance.looks`): a (``validation_round``,
``validate_matches``) pair, recorded in ``DIR/looks.json`` with the α it spends. The
directory's budget ``search.alpha`` is split over ``search.looks`` planned looks (Bonferroni):
each look's TOSTs run at α/looks, a look past the plan claims nothing, and the chance that any
look of the directory makes a false "meets every target" stays at most ``search.alpha``.

Under seat rotation (``rotate_seats = true``) the matches of one seed are one cluster: rate
targets get the seed-clustered Wilson interval, worth targets the paired intervals of
restricted play and other metrics a bootstrap over seeds
(:func:`analysis.balance.targets.measure_all`) — the intervals of the report.

A ``worth`` or ``worth_spread`` target (:mod:`analysis.balance.worth`) makes every point also
play its line-up with one player forbidding each choice, on the same seeds.
"""

from __future__ import annotations

import json
import math
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from sim.core.config import ConfigError, param, to_dict
from sim.core.experiment import Lineup, RulesChange
from sim.core.progress import progress_bar
from sim.core.runner import DEFAULT_CHUNK_SIZE, Cell, run_cells

from .halving import promoted, rungs
from .ntbea import NTBEA
from .problem import Problem, load_problem
from .space import Parameter, SearchSpace
from .surface import SurfaceSettings, spread_floor
from .targets import Target, band_loss, measure_all, objective, select_lineup
from .validation import FRESH_SEED_OFFSET, atomic_json, trial_intervals, validate, whole_rotations
from .worth import lineups_played, plan_problems, restricted_cells, worth_metrics

__all__ = [
    "BalanceFile",
    "Balance",
    "load_balance",
    "run_balance",
    "trial_settings",
    "evaluate",
    "FRESH_SEED_OFFSET",
    "ALL_LINEUPS",
]

#: ``lineup = "*"`` in a target: required on every line-up of the file.
ALL_LINEUPS = "*"


@dataclass(frozen=True)
class SearchSettings:
    optimizer: Literal["tpe", "cmaes", "gp", "random", "ntbea"] = "tpe"
    trials: int = param(40, min=1, doc="trials (parameter points) to evaluate")
    pruner: Literal["wilcoxon", "halving", "none"] = "wilcoxon"
    blocks: int = param(4, min=1, doc="wilcoxon: seed blocks per trial (pruning checkpoints)")
    prune: bool = True  # false: no pruner, whatever `pruner` says
    p_threshold: float = param(0.1, min=0.0, max=1.0, doc="Wilcoxon pruner p-value threshold")
    first_rung: int = param(0, min=0, doc="halving: matches of a trial's first rung (0: matches / reduction²)")
    reduction: int = param(
        3,
        min=2,
        doc="halving: a trial goes on to the next rung only if among the best 1/reduction of the trials there so far",
    )
    validate_top: int = param(3, min=1, doc="candidates re-run on fresh seeds")
    validate_matches: int = param(2000, min=1, doc="matches per candidate on fresh seeds (the largest stage)")
    validation_stages: int = param(
        1,
        min=1,
        max=8,
        doc="nested validation sizes validate_matches·2^(s−S), each a look, played only while undecided",
    )
    look_every: int = param(
        0,
        min=0,
        doc="matches between two looks of an anytime-valid validation (confidence "
        "sequences, stopping once every target is shown met or one missed); 0: the staged "
        "validation",
    )
    power: float = param(0.8, min=0.5, max=0.99, doc="TOST power the first stage played is predicted to have")
    bootstrap: int = param(400, min=50, doc="bootstrap resamples (of matches) for CIs of non-rate metrics")
    validate_baseline: bool = True  # also measure the baseline rules on the fresh seeds (before / after)
    validation_round: int = param(
        0,
        min=0,
        doc="n > 0: validate on the n-th other fresh seed set, "
        "independent of earlier validations (a confirmatory re-run)",
    )
    alpha: float = param(
        0.05, min=0.0001, max=0.25, doc="false-claim rate of the results directory, over all its validation looks"
    )
    looks: int = param(
        3,
        min=1,
        doc="validation looks planned: each spends alpha / looks (Bonferroni); a look past the plan claims nothing",
    )
    neighbours: int = param(50, min=1, doc="NTBEA: mutations scored per step")


@dataclass(frozen=True)
class BalanceFile:
    """A balance file (``tablesim balance FILE``): the game, the seed, matches per trial and line-up, the
    baseline rules, the line-ups, the parameters searched and the targets, and the search and
    surface settings."""

    game: str = ""
    seed: int = param(0, min=0)
    matches: int = param(400, min=1, doc="matches per trial and line-up")
    rotate_seats: bool = False
    chunk_size: int = param(DEFAULT_CHUNK_SIZE, min=1)
    baseline: RulesChange = RulesChange()
    lineups: tuple[Lineup, ...] = ()
    parameters: tuple[Parameter, ...] = ()
    targets: tuple[Target, ...] = ()
    search: SearchSettings = SearchSettings()
    surface: SurfaceSettings = SurfaceSettings()

    def problems(self):
        if not self.game:
            yield "game", "missing; expected a game's name"
        if not self.lineups:
            yield "lineups", "expected at least one [[lineups]] table"
        if not self.parameters:
            yield "parameters", "expected at least one [[parameters]] table"
        if not self.targets:
            yield "targets", "expected at least one [[targets]] table"
        names = {lineup.name for lineup in self.lineups}
        for index, target in enumerate(self.targets):
            if target.lineup and target.lineup != ALL_LINEUPS and target.lineup not in names:
                yield (
                    f"targets[{index}].lineup",
                    f"unknown line-up {target.lineup!r}; allowed: {', '.join(sorted(names))}",
                )
        if self.surface.parameter and self.surface.parameter not in {p.name for p in self.parameters}:
            yield (
                "surface.parameter",
                (
                    f"unknown parameter {self.surface.parameter!r}; allowed: "
                    + ", ".join(p.name for p in self.parameters)
                ),
            )
        if self.surface.lineup and self.surface.lineup not in names:
            yield "surface.lineup", f"unknown line-up {self.surface.lineup!r}; allowed: {', '.join(sorted(names))}"
        if self.search.blocks > self.matches:
            yield "search.blocks", f"must be <= matches ({self.matches})"
        if self.search.look_every:
            from .sequential import SEQUENTIAL_METRICS, unsupported_targets

            blocked = unsupported_targets(self.targets)
            if blocked:
                yield (
                    "search.look_every",
                    (
                        f"{blocked[0]} has no anytime-valid test (its values have no known "
                        f"bounds); allowed with look_every: targets on {', '.join(SEQUENTIAL_METRICS)}"
                        "; or set look_every = 0 for the staged validation"
                    ),
                )
            elif self.search.look_every > self.search.validate_matches:
                yield "search.look_every", f"must be <= validate_matches ({self.search.validate_matches})"


#: Settings that may change between runs into the same directory: more trials extend the
#: search, more or larger validations re-check it, the [surface] table re-reads the trials;
#: nothing else may change (it shapes trials).
#: (``alpha`` and ``looks`` are listed so that directories from before they existed resume; the
#: look ledger keeps the plan of a directory's first look, see :mod:`analysis.balance.looks`.)
EXTENDABLE = (
    "trials",
    "validate_top",
    "validate_matches",
    "bootstrap",
    "validate_baseline",
    "validation_round",
    "alpha",
    "looks",
    "validation_stages",
    "power",
    "look_every",
)


def trial_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """A balance file's settings (as a dict) without those a resumed run may change."""
    search = {k: v for k, v in settings.get("search", {}).items() if k not in EXTENDABLE}
    return {**{k: v for k, v in settings.items() if k != "surface"}, "search": search}


#: A validated balance problem (``settings`` is the :class:`BalanceFile`).
Balance = Problem


def load_balance(path: str | Path) -> Balance:
    """Read and validate a balance file, including every parameter's key against the rules.

    A target on ``lineup = "*"`` becomes one target per line-up, in the file's order; a
    ``length_*`` target without a ``column`` reads the game's own length (``GameSpec.length``).
    """
    from dataclasses import replace

    balance = load_problem(path, BalanceFile)
    settings = balance.settings
    declared = balance.spec.length.column
    allowed = sorted({"rounds", declared})
    targets, problems = [], []
    for k, target in enumerate(settings.targets):
        if target.metric.startswith("length_"):
            target = replace(target, column=target.column or declared)
            if target.column not in allowed:
                problems.append(
                    f"{path}: targets[{k}].column: got {target.column!r}; allowed: "
                    f"{', '.join(allowed)} (the game's length columns)"
                )
        if target.lineup == ALL_LINEUPS:
            targets += [replace(target, lineup=lineup.name) for lineup in settings.lineups]
        else:
            targets.append(target)
    problems += plan_problems(
        balance.spec, balance.baseline_rules(), [balance.placed(t) for t in targets], balance.lineups, str(path)
    )
    if problems:
        raise ConfigError(problems)
    balance.settings = replace(settings, targets=tuple(targets))
    return balance


# ------------------------------------------------------------------------------------------
# evaluating points
# ------------------------------------------------------------------------------------------


def _cells(balance: Balance, point: dict[str, Any] | None, variant: str) -> list[Cell]:
    """The cells a point plays: every line-up, then the restricted line-ups of worth targets."""
    rules = balance.rules(point) if point is not None else balance.baseline_rules()
    rotate = balance.settings.rotate_seats
    return [
        *(Cell(variant, name, rules, players, rotate) for name, players in balance.lineups.items()),
        *restricted_cells(balance.spec, _placed(balance), balance.lineups, rules, variant, rotate),
    ]


def _placed(balance: Balance) -> list[Target]:
    """The file's targets, each on its line-up."""
    return [balance.placed(t) for t in balance.settings.targets]


def _game_metrics(balance: Balance, tables) -> dict[str, dict[str, float]]:
    """Every game metric of the trial, per line-up, and each choice's ``worth.<choice>`` on a
    line-up with worth targets (stored with the trial for later analysis and the surface)."""
    out: dict[str, dict[str, float]] = {}
    if balance.spec.summary is not None:
        for name in balance.lineups:
            metrics = balance.spec.summary(select_lineup(tables, name))
            out[name] = {key: float(value) for key, value in metrics.items()}
    for name, worths in worth_metrics(_placed(balance), tables).items():
        out.setdefault(name, {}).update(worths)
    return out


def _targets_on(balance: Balance, tables) -> list[float]:
    return [m["value"] for m in measure_all(_placed(balance), tables, balance.spec.summary)]


def _edges(balance: Balance, matches: int, blocks: int, halving: bool) -> list[int]:
    """Cumulative match counts at which a trial is checked (the last is ``matches``)."""
    search = balance.settings.search
    if halving:
        first = search.first_rung or max(1, matches // search.reduction**2)
        return [
            whole_rotations(balance, size) if size < matches else matches
            for size in rungs(matches, first, search.reduction)
        ]
    return [int(v) for v in np.linspace(0, matches, blocks + 1).astype(int)[1:]]


def evaluate(
    balance: Balance,
    point: dict[str, Any] | None,
    *,
    root_seed: int,
    matches: int,
    jobs: int = 1,
    backend: str = "loky",
    blocks: int = 1,
    on_block=None,
    halving: bool = False,
    store=None,
) -> tuple[dict[str, pd.DataFrame], list[float]]:
    """Play ``matches`` matches of every line-up under the point's rules, in seed blocks or rungs.

    ``point = None`` plays the baseline rules. ``on_block(block, loss)`` is called after each
    block (with ``blocks > 1``) or each rung (``halving``); it returns True to stop (prune;
    ignored after the last). A block's loss is the objective on that block's matches (the Wilcoxon
    pruner pairs blocks); a rung's is the objective on every match so far (halving ranks
    trials on the same first matches). With a ``store`` the matches are stored there and
    those already stored are not played again. Returns the tables of the matches played and
    the measured target values.
    """
    cells = _cells(balance, point, "trial")
    edges = _edges(balance, matches, blocks, halving)
    checked = halving or (on_block is not None and blocks > 1)
    parts: list[dict[str, pd.DataFrame]] = []
    first = 0
    for block, last in enumerate(edges):
        tables = run_cells(
            balance.spec,
            cells,
            int(last),
            root_seed,
            jobs=jobs,
            backend=backend,
            store=store,
            chunk_size=balance.settings.chunk_size,
            progress=False,
            start=int(first),
        )
        parts.append(tables)
        first = last
        if on_block is not None and checked:
            sample = _assemble(parts) if halving else tables
            stop = on_block(block, objective(list(balance.settings.targets), _targets_on(balance, sample)))
            if stop and block < len(edges) - 1:
                break
    tables = _assemble(parts)
    return tables, _targets_on(balance, tables)


def _assemble(parts: list[dict[str, pd.DataFrame]]) -> dict[str, pd.DataFrame]:
    from sim.core.store import assemble

    return assemble({name: [p[name] for p in parts] for name in parts[0]})


def _play_fresh(
    balance: Balance, point, *, root_seed: int, start: int, matches: int, jobs: int, backend: str
) -> dict[str, pd.DataFrame]:
    """The tables of a point's fresh-seed matches ``start .. matches - 1`` (the validation's)."""
    return run_cells(
        balance.spec,
        _cells(balance, point, "fresh"),
        matches,
        root_seed,
        jobs=jobs,
        backend=backend,
        chunk_size=balance.settings.chunk_size,
        progress=False,
        start=start,
    )


# ------------------------------------------------------------------------------------------
# the search
# ------------------------------------------------------------------------------------------


def _trial_files(out: str | Path) -> list[Path]:
    """The stored trials' files, in trial order."""
    return sorted((Path(out) / "trials").glob("*.json"))


def _stored_trials(out: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in _trial_files(out)]


def stored_trial_count(out: str | Path) -> int:
    """Trials a results directory already holds (a rerun resumes after them)."""
    return len(_trial_files(out))


def _sampler(settings: BalanceFile):
    import optuna

    seed = settings.seed
    kind = settings.search.optimizer
    if kind == "tpe":
        return optuna.samplers.TPESampler(seed=seed, multivariate=True)
    if kind == "cmaes":
        return optuna.samplers.CmaEsSampler(seed=seed, with_margin=True)
    if kind == "gp":
        return optuna.samplers.GPSampler(seed=seed, deterministic_objective=False)
    return optuna.samplers.RandomSampler(seed=seed)


def _distributions(space: SearchSpace) -> dict[str, Any]:
    from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution

    out: dict[str, Any] = {}
    for p in space.parameters:
        if p.kind == "int":
            out[p.name] = IntDistribution(int(p.low), int(p.high), step=max(1, int(p.step)))
        elif p.kind == "float":
            out[p.name] = FloatDistribution(p.low, p.high)
        elif p.kind == "choice":
            out[p.name] = CategoricalDistribution(list(p.choices))
        else:
            for name in space.element_names(p):
                out[name] = IntDistribution(int(p.low), int(p.high), step=max(1, int(p.step)))
    return out


def run_balance(
    balance: Balance,
    out: str | Path,
    *,
    jobs: int = 1,
    backend: str = "loky",
    progress: bool | None = None,
    manifest: dict | None = None,
) -> dict[str, Any]:
    """Run (or resume) the search, validate the best candidates, write the results.

    Writes ``trials/NNNN.json``, ``trials.csv``, ``validation.json`` (and the fresh-seed tables
    in ``validation/``), ``looks.json``, ``best_rules.toml`` and ``balance.json`` under ``out``
    and returns the summary (``balance.json``'s content).
    """
    out = Path(out)
    settings, search = balance.settings, balance.settings.search
    manifest = {
        **(manifest or {}),
        "kind": "balance",
        "game": balance.spec.name,
        "seed": settings.seed,
        "balance": to_dict(settings),
    }
    atomic_json(out / "manifest.json", {**manifest, "status": "running"})
    stored = _stored_trials(out)
    bar = progress_bar(search.trials, "trial", "balance", progress, initial=min(len(stored), search.trials))
    trial = _Trials(balance, out, bar, jobs=jobs, backend=backend)
    try:
        if search.optimizer == "ntbea":
            _run_ntbea(balance, stored, search, trial)
        else:
            _run_optuna(balance, stored, search, trial)
    finally:
        bar.close()
    trials = _stored_trials(out)
    _trials_csv(out, trials)
    surface, extra = _surface(balance, out, trials)
    summary = validate(
        balance,
        out,
        trials,
        jobs=jobs,
        backend=backend,
        extra=extra,
        play=lambda point, **kw: _play_fresh(balance, point, **kw),
    )
    summary["surface"] = surface
    summary["matches_played"] = _matches_played(balance, trials, summary)
    atomic_json(out / "balance.json", summary)
    atomic_json(out / "manifest.json", {**manifest, "status": "complete"})
    return summary


class _Trials:
    """Plays and records the trials of one search (the optimiser decides which points)."""

    def __init__(self, balance: Balance, out: Path, bar, *, jobs: int, backend: str):
        self.balance, self.out, self.bar, self.jobs, self.backend = balance, out, bar, jobs, backend
        self.targets = list(balance.settings.targets)
        self.history: list[dict] = []  # every trial so far (stored, then new): the halving's rungs
        search = balance.settings.search
        self.halving = search.prune and search.pruner == "halving"
        self.wilcoxon = search.prune and search.pruner == "wilcoxon" and search.blocks > 1

    def promote(self, rung: int, loss: float) -> bool:
        """The halving rule at ``rung``: True to go on (against every earlier trial there)."""
        earlier = [t["block_losses"][rung] for t in self.history if len(t["block_losses"]) > rung]
        return promoted(loss, earlier, self.balance.settings.search.reduction)

    def play(self, point: dict, should_stop=None) -> tuple[list[float], list[float], bool, dict, dict]:
        """(values, rung or block losses, pruned, game metrics, in-sample intervals) of a point."""
        balance, search = self.balance, self.balance.settings.search
        losses: list[float] = []

        def on_block(block: int, loss: float) -> bool:
            losses.append(loss)
            if self.halving:
                return not self.promote(block, loss)
            return bool(should_stop and should_stop(block, loss))

        tables, values = evaluate(
            balance,
            point,
            root_seed=balance.settings.seed,
            matches=balance.settings.matches,
            jobs=self.jobs,
            backend=self.backend,
            blocks=search.blocks if self.wilcoxon else 1,
            on_block=on_block if (self.halving or self.wilcoxon) else None,
            halving=self.halving,
        )
        checks = len(_edges(balance, balance.settings.matches, search.blocks, self.halving))
        pruned = (self.halving or self.wilcoxon) and len(losses) < checks
        played = int(tables["matches"]["match"].nunique()) if len(tables["matches"]) else 0
        intervals = {} if pruned else trial_intervals(balance, tables, search.bootstrap, balance.settings.seed)
        return values, losses, pruned, _game_metrics(balance, tables), {"intervals": intervals, "matches": played}

    def record(
        self,
        number: int,
        point: dict,
        params: dict,
        values: list[float] | None,
        state: str,
        block_losses: list[float],
        metrics: dict | None = None,
        extra: dict | None = None,
    ) -> dict:
        targets = self.targets
        loss = band_loss(targets, values) if values is not None else float("inf")
        score = objective(targets, values) if values is not None else float("inf")
        trial = {
            "number": number,
            "point": point,
            "params": params,
            "state": state,
            "values": dict(zip([t.label for t in targets], values or [])),
            "loss": loss if math.isfinite(loss) else None,
            "objective": score if math.isfinite(score) else None,
            "block_losses": block_losses,
            "metrics": metrics or {},
            **(extra or {}),
        }
        atomic_json(self.out / "trials" / f"{number:04d}.json", trial)
        self.history.append(trial)
        self.bar.update(1)
        return trial


def _trials_csv(out: Path, trials: list[dict]) -> None:
    frame = pd.DataFrame(
        [
            {
                "number": t["number"],
                "state": t["state"],
                "loss": t["loss"],
                "objective": t.get("objective", t["loss"]),
                "matches": t.get("matches"),
                **{f"param:{k}": json.dumps(v) if isinstance(v, list) else v for k, v in t["point"].items()},
                **{f"value:{k}": v for k, v in t["values"].items()},
            }
            for t in trials
        ]
    )
    frame.to_csv(out / "trials.csv", index=False)


def _surface(balance: Balance, out: Path, trials: list[dict]) -> tuple[dict | None, list[dict]]:
    """The response surface (if the file asks for one) and its best point as an extra candidate."""
    settings = balance.settings
    if not settings.surface.prefix:
        return None, []
    surface = spread_floor(
        trials, balance.space, settings.surface, settings.surface.lineup or settings.lineups[0].name, seed=settings.seed
    )
    atomic_json(out / "surface.json", surface)
    if not settings.surface.validate or surface.get("point") is None:
        return surface, []
    complete = [t for t in trials if t["state"] == "complete" and t["loss"] is not None]
    base = min(complete, key=lambda t: t["loss"])["point"] if complete else {}
    modelled = next(p for p in balance.space.parameters if p.name == surface["parameter"])
    value = surface["point"] if modelled.kind in ("int_list", "counts") else surface["point"][0]
    point = balance.space.normalise({**base, surface["parameter"]: value})
    return surface, [{"number": "surface", "point": point, "loss": None}]


def _matches_played(balance: Balance, trials: list[dict], summary: dict) -> dict[str, int]:
    """Matches the verdict cost, as a run from scratch plays them: the trials' and the fresh seeds'.

    Trials: the matches each played (its rungs or blocks) times the line-ups (restricted ones
    included). Fresh seeds: the last stage's size times the points it validated (candidates and
    baseline) and the line-ups (smaller stages are its first matches).
    """
    lineups = lineups_played(balance)
    search = sum(
        int(t.get("matches") or (balance.settings.matches if t["state"] == "complete" else 0)) * lineups for t in trials
    )
    stages = summary.get("stages") or [{}]
    points = summary.get("candidates_validated", 0) + bool(summary.get("baseline"))
    fresh = int(stages[-1].get("matches", 0)) * points * lineups
    return {"search": search, "validation": fresh, "total": search + fresh}


def _trial_state(optuna, trial: dict):
    return optuna.trial.TrialState.PRUNED if trial["state"] == "pruned" else optuna.trial.TrialState.COMPLETE


def _replay(study, balance: Balance, stored: list[dict]) -> bool:
    """Resume: ask, suggest, report and tell every stored trial as an uninterrupted run did.

    The sampler's state then equals an uninterrupted run's, so the next trials are the same.
    False (and nothing told for the mismatching trial) if the sampler proposes other params
    than a stored trial's (e.g. another optuna version).
    """
    import optuna

    for trial in stored:
        asked = study.ask()
        balance.space.suggest(asked)
        if asked.params != trial["params"]:
            study.tell(asked, state=optuna.trial.TrialState.FAIL)
            return False
        for step, loss in enumerate(trial["block_losses"]):
            asked.report(loss, step=step)
        if _trial_state(optuna, trial) == optuna.trial.TrialState.PRUNED:
            study.tell(asked, state=optuna.trial.TrialState.PRUNED)
        else:
            study.tell(asked, _stored_objective(trial))
    return True


def _study(balance: Balance, search: SearchSettings, stored: list[dict]):
    """A study that has seen the stored trials (replayed, or added if they cannot be replayed)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)

    def create():
        with warnings.catch_warnings():  # WilcoxonPruner is flagged experimental since optuna 3.6
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            wilcoxon = search.prune and search.pruner == "wilcoxon" and search.blocks > 1
            pruner = (
                optuna.pruners.WilcoxonPruner(p_threshold=search.p_threshold)
                if wilcoxon
                else optuna.pruners.NopPruner()
            )
        return optuna.create_study(direction="minimize", sampler=_sampler(balance.settings), pruner=pruner)

    study = create()
    if _replay(study, balance, stored):
        return study
    from sim.core.store import warn

    warn(
        f"the sampler no longer proposes the stored trials (optuna {optuna.__version__}): the search "
        "goes on from them, but its next trials differ from an uninterrupted search's"
    )
    study, distributions = create(), _distributions(balance.space)
    for trial in stored:
        state = _trial_state(optuna, trial)
        study.add_trial(
            optuna.trial.create_trial(
                params=trial["params"],
                distributions=distributions,
                state=state,
                value=_stored_objective(trial) if state == optuna.trial.TrialState.COMPLETE else None,
                intermediate_values=dict(enumerate(trial["block_losses"])),
            )
        )
    return study


def _run_optuna(balance: Balance, stored: list[dict], search: SearchSettings, trials: _Trials) -> None:
    import optuna

    # trials pruned after different numbers of blocks are compared on the steps they share
    warnings.filterwarnings("ignore", message="WilcoxonPruner finds steps", category=UserWarning)
    study = _study(balance, search, stored)
    trials.history = list(stored)
    for number in range(len(stored), search.trials):
        trial = study.ask()
        point = balance.space.suggest(trial)

        def should_stop(block: int, loss: float, trial=trial) -> bool:
            trial.report(loss, step=block)
            return trial.should_prune()

        values, losses, pruned, metrics, extra = trials.play(point, should_stop)
        if trials.halving:
            for step, loss in enumerate(losses):
                trial.report(loss, step=step)
        if pruned:
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
            trials.record(number, point, trial.params, values, "pruned", losses, metrics, extra)
        else:
            loss = objective(list(balance.settings.targets), values)
            study.tell(trial, loss if math.isfinite(loss) else 1e9)
            trials.record(number, point, trial.params, values, "complete", losses, metrics, extra)


def _run_ntbea(balance: Balance, stored: list[dict], search: SearchSettings, trials: _Trials) -> None:
    space = balance.space
    rng = np.random.default_rng(balance.settings.seed)
    ntbea = NTBEA(space.discrete_dimensions(), rng, neighbours=search.neighbours)
    for trial in stored:
        ntbea.ask()  # keep the generator's sequence as in an uninterrupted run
        ntbea.tell(trial["params"], -_stored_objective(trial))
    trials.history = list(stored)
    for number in range(len(stored), search.trials):
        dims = ntbea.ask()
        point = space.from_dimensions(dims)
        values, losses, pruned, metrics, extra = trials.play(point, None)
        score = objective(list(balance.settings.targets), values) if not pruned else losses[-1]
        ntbea.tell(dims, -(score if math.isfinite(score) else 1e9))
        trials.record(number, point, dims, values, "pruned" if pruned else "complete", losses, metrics, extra)


def _stored_objective(trial: dict) -> float:
    """The objective a stored trial was told (a pruned one: its last rung's; before ``pull``: the loss)."""
    if trial["state"] == "pruned" and trial.get("block_losses"):
        return float(trial["block_losses"][-1])
    value = trial.get("objective", trial["loss"])
    return 1e9 if value is None else float(value)
