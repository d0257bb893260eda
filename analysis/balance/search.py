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
    blocks = 4                     # pruning: a trial is played in blocks of seeds and stopped
                                   # when a paired Wilcoxon test says it is worse than the best
    validate_top = 3               # winner's-curse guard: re-run the best few...
    validate_matches = 2000        # ...on fresh seeds with more matches
    bootstrap = 400                # resamples for the CIs of non-rate metrics
    validate_baseline = true       # the baseline rules on the same fresh seeds (before / after)
    validation_round = 0           # n > 0: an independent, confirmatory fresh seed set
    alpha = 0.05                   # false-claim rate of the whole results directory...
    looks = 3                      # ...split over this many planned validation looks
    [surface]                      # optional, see analysis/balance/surface.py
    prefix = "card_win_rate."      # a family of game metrics whose spread is targeted
    bound = 0.15

Every trial plays match indices ``0 .. matches-1`` with the same root seed, so trials differ
only by their rules (common random numbers); it stores its target values and every game
metric as ``DIR/trials/NNNN.json``, and a killed search resumes from them. The candidates (the
surface's model optimum if any, then the best trials by in-sample rank) are replayed on a
fresh seed set (root seed + ``FRESH_SEED_OFFSET`` × (1 + round)) and a candidate is reported as
meeting a target only if the equivalence test (TOST) passes on those fresh seeds — as a
fixed-sequence test: once a candidate misses, later ones are not claimed.

Every validation is a *look* (:mod:`analysis.balance.looks`): a (``validation_round``,
``validate_matches``) pair, recorded in ``DIR/looks.json`` with the α it spends. The
directory's budget ``search.alpha`` is split over ``search.looks`` planned looks (Bonferroni):
each look's TOSTs run at α/looks, a look past the plan claims nothing, and the chance that any
look of the directory makes a false "meets every target" stays at most ``search.alpha``.

Under seat rotation (``rotate_seats = true``) the matches of one seed are one cluster: rate
targets get the seed-clustered Wilson interval and other metrics a bootstrap over seeds
(:func:`analysis.balance.targets.measure_all`) — the intervals of the report.
"""

from __future__ import annotations

import json
import math
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd
from tqdm import tqdm

from sim.core.config import param, to_dict, to_toml
from sim.core.experiment import Lineup, RulesChange
from sim.core.runner import DEFAULT_CHUNK_SIZE, Cell, run_cells
from sim.core.store import atomic_write_bytes

from .ntbea import NTBEA
from .problem import Problem, load_problem
from .space import Parameter, SearchSpace
from .surface import SurfaceSettings, spread_floor
from .looks import load_ledger
from .targets import Target, band_loss, centre_distance, check_tables, measure_all, objective, select_lineup

__all__ = ["BalanceFile", "Balance", "load_balance", "run_balance", "trial_settings", "FRESH_SEED_OFFSET"]

#: Validation replays candidates on root seed + this offset (× 1 + search.validation_round):
#: seeds no trial has seen.
FRESH_SEED_OFFSET = 1_000_003


@dataclass(frozen=True)
class SearchSettings:
    optimizer: Literal["tpe", "cmaes", "gp", "random", "ntbea"] = "tpe"
    trials: int = param(40, min=1, doc="trials (parameter points) to evaluate")
    blocks: int = param(4, min=1, doc="seed blocks per trial (pruning checkpoints)")
    prune: bool = True
    p_threshold: float = param(0.1, min=0.0, max=1.0, doc="Wilcoxon pruner p-value threshold")
    validate_top: int = param(3, min=1, doc="candidates re-run on fresh seeds")
    validate_matches: int = param(2000, min=1, doc="matches per candidate on fresh seeds")
    bootstrap: int = param(400, min=50, doc="bootstrap resamples (of matches) for CIs of non-rate metrics")
    validate_baseline: bool = True  # also measure the baseline rules on the fresh seeds (before / after)
    validation_round: int = param(0, min=0, doc="n > 0: validate on the n-th other fresh seed set, "
                                  "independent of earlier validations (a confirmatory re-run)")
    alpha: float = param(0.05, min=0.0001, max=0.25, doc="false-claim rate of the results directory, over "
                         "all its validation looks")
    looks: int = param(3, min=1, doc="validation looks planned: each spends alpha / looks (Bonferroni); "
                       "a look past the plan claims nothing")
    neighbours: int = param(50, min=1, doc="NTBEA: mutations scored per step")


@dataclass(frozen=True)
class BalanceFile:
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
            if target.lineup and target.lineup not in names:
                yield f"targets[{index}].lineup", f"unknown line-up {target.lineup!r}; allowed: {', '.join(sorted(names))}"
        if self.surface.parameter and self.surface.parameter not in {p.name for p in self.parameters}:
            yield "surface.parameter", (f"unknown parameter {self.surface.parameter!r}; allowed: "
                                        + ", ".join(p.name for p in self.parameters))
        if self.surface.lineup and self.surface.lineup not in names:
            yield "surface.lineup", f"unknown line-up {self.surface.lineup!r}; allowed: {', '.join(sorted(names))}"
        if self.search.blocks > self.matches:
            yield "search.blocks", f"must be <= matches ({self.matches})"


#: Settings that may change between runs into the same directory: more trials extend the
#: search, more or larger validations re-check it, the [surface] table re-reads the trials;
#: nothing else may change (it shapes trials).
#: (``alpha`` and ``looks`` are listed so that directories from before they existed resume; the
#: look ledger keeps the plan of a directory's first look, see :mod:`analysis.balance.looks`.)
EXTENDABLE = ("trials", "validate_top", "validate_matches", "bootstrap", "validate_baseline", "validation_round",
              "alpha", "looks")


def trial_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """A balance file's settings (as a dict) without those a resumed run may change."""
    search = {k: v for k, v in settings.get("search", {}).items() if k not in EXTENDABLE}
    return {**{k: v for k, v in settings.items() if k != "surface"}, "search": search}


#: A validated balance problem (``settings`` is the :class:`BalanceFile`).
Balance = Problem


def load_balance(path: str | Path) -> Balance:
    """Read and validate a balance file, including every parameter's key against the rules."""
    return load_problem(path, BalanceFile)


# ------------------------------------------------------------------------------------------
# evaluating points
# ------------------------------------------------------------------------------------------

def _cells(balance: Balance, point: dict[str, Any] | None, variant: str) -> list[Cell]:
    rules = balance.rules(point) if point is not None else balance.baseline_rules()
    return [Cell(variant, name, rules, players, balance.settings.rotate_seats)
            for name, players in balance.lineups.items()]


def _game_metrics(balance: Balance, tables) -> dict[str, dict[str, float]]:
    """Every game metric of the trial, per line-up (stored with the trial for later analysis)."""
    if balance.spec.summary is None:
        return {}
    out = {}
    for name in balance.lineups:
        metrics = balance.spec.summary(select_lineup(tables, name))
        out[name] = {key: float(value) for key, value in metrics.items()}
    return out


def _targets_on(balance: Balance, tables) -> list[float]:
    targets = [_with_lineup(balance, t) for t in balance.settings.targets]
    return [m["value"] for m in measure_all(targets, tables, balance.spec.summary)]


def _with_lineup(balance: Balance, target: Target) -> Target:
    if target.lineup:
        return target
    from dataclasses import replace

    return replace(target, lineup=balance.settings.lineups[0].name)


def evaluate(balance: Balance, point: dict[str, Any] | None, *, root_seed: int, matches: int, jobs: int = 1,
             backend: str = "loky", blocks: int = 1, on_block=None) -> tuple[dict[str, pd.DataFrame], list[float]]:
    """Play ``matches`` matches of every line-up under the point's rules, in seed blocks.

    ``point = None`` plays the baseline rules.
    ``on_block(block, block_loss)`` is called after each block; it returns True to stop (prune).
    Returns the tables of the blocks played and the measured target values.
    """
    cells = _cells(balance, point, "trial")
    edges = np.linspace(0, matches, blocks + 1).astype(int)
    parts: list[dict[str, pd.DataFrame]] = []
    for block, (first, last) in enumerate(zip(edges[:-1], edges[1:])):
        tables = run_cells(balance.spec, cells, int(last), root_seed, jobs=jobs, backend=backend,
                           chunk_size=balance.settings.chunk_size, progress=False, start=int(first))
        parts.append(tables)
        if on_block is not None and blocks > 1:
            loss = objective(list(balance.settings.targets), _targets_on(balance, tables))
            if on_block(block, loss):
                break
    from sim.core.store import assemble

    tables = assemble({name: [p[name] for p in parts] for name in parts[0]})
    return tables, _targets_on(balance, tables)


# ------------------------------------------------------------------------------------------
# the search
# ------------------------------------------------------------------------------------------

def _atomic_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, json.dumps(data, indent=2, default=_jsonable).encode("utf-8"))


def _jsonable(value: Any) -> Any:
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    raise TypeError(type(value))


def _stored_trials(out: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((out / "trials").glob("*.json"))]


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


def run_balance(balance: Balance, out: str | Path, *, jobs: int = 1, backend: str = "loky",
                progress: bool | None = None, manifest: dict | None = None) -> dict[str, Any]:
    """Run (or resume) the search, validate the best candidates, write the results.

    Writes ``trials/NNNN.json``, ``trials.csv``, ``validation.json``, ``best_rules.toml`` and
    ``balance.json`` under ``out`` and returns the summary (``balance.json``'s content).
    """
    out = Path(out)
    settings, search = balance.settings, balance.settings.search
    manifest = {**(manifest or {}), "kind": "balance", "game": balance.spec.name, "seed": settings.seed,
                "balance": to_dict(settings)}
    _atomic_json(out / "manifest.json", {**manifest, "status": "running"})
    targets = list(settings.targets)
    stored = _stored_trials(out)
    show = sys.stderr.isatty() if progress is None else progress
    bar = tqdm(total=search.trials, initial=min(len(stored), search.trials), unit="trial",
               desc="balance", disable=not show, file=sys.stderr)

    def record(number: int, point: dict, params: dict, values: list[float] | None, state: str,
               block_losses: list[float], metrics: dict | None = None) -> dict:
        loss = band_loss(targets, values) if values is not None else float("inf")
        score = objective(targets, values) if values is not None else float("inf")
        trial = {"number": number, "point": point, "params": params, "state": state,
                 "values": dict(zip([t.label for t in targets], values or [])),
                 "loss": loss if math.isfinite(loss) else None,
                 "objective": score if math.isfinite(score) else None, "block_losses": block_losses,
                 "metrics": metrics or {}}
        _atomic_json(out / "trials" / f"{number:04d}.json", trial)
        bar.update(1)
        return trial

    def play(point: dict, should_stop=None):
        losses: list[float] = []

        def on_block(block: int, loss: float) -> bool:
            losses.append(loss)
            return bool(should_stop and should_stop(block, loss))

        tables, values = evaluate(balance, point, root_seed=settings.seed, matches=settings.matches,
                                  jobs=jobs, backend=backend, blocks=search.blocks, on_block=on_block)
        pruned = len(losses) < search.blocks and search.blocks > 1
        return values, losses, pruned, _game_metrics(balance, tables)

    try:
        if search.optimizer == "ntbea":
            _run_ntbea(balance, stored, search, play, record)
        else:
            _run_optuna(balance, stored, search, play, record)
    finally:
        bar.close()

    trials = _stored_trials(out)
    frame = pd.DataFrame([{"number": t["number"], "state": t["state"], "loss": t["loss"],
                           "objective": t.get("objective", t["loss"]),
                           **{f"param:{k}": json.dumps(v) if isinstance(v, list) else v for k, v in t["point"].items()},
                           **{f"value:{k}": v for k, v in t["values"].items()}} for t in trials])
    frame.to_csv(out / "trials.csv", index=False)
    surface, extra = None, []
    if settings.surface.prefix:
        surface = spread_floor(trials, balance.space, settings.surface,
                               settings.surface.lineup or settings.lineups[0].name, seed=settings.seed)
        _atomic_json(out / "surface.json", surface)
        if settings.surface.validate and surface.get("point") is not None:
            complete = [t for t in trials if t["state"] == "complete" and t["loss"] is not None]
            base = min(complete, key=lambda t: t["loss"])["point"] if complete else {}
            modelled = next(p for p in balance.space.parameters if p.name == surface["parameter"])
            value = surface["point"] if modelled.kind in ("int_list", "counts") else surface["point"][0]
            point = balance.space.normalise({**base, surface["parameter"]: value})
            extra.append({"number": "surface", "point": point, "loss": None})
    summary = _validate(balance, out, trials, jobs=jobs, backend=backend, extra=extra)
    summary["surface"] = surface
    _atomic_json(out / "balance.json", summary)
    _atomic_json(out / "manifest.json", {**manifest, "status": "complete"})
    return summary


def _run_optuna(balance: Balance, stored: list[dict], search: SearchSettings, play, record) -> None:
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():  # WilcoxonPruner is flagged experimental since optuna 3.6
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        pruner = (optuna.pruners.WilcoxonPruner(p_threshold=search.p_threshold)
                  if search.prune and search.blocks > 1 else optuna.pruners.NopPruner())
    study = optuna.create_study(direction="minimize", sampler=_sampler(balance.settings), pruner=pruner)
    distributions = _distributions(balance.space)
    # trials pruned after different numbers of blocks are compared on the steps they share
    warnings.filterwarnings("ignore", message="WilcoxonPruner finds steps", category=UserWarning)
    for trial in stored:  # resume: tell the sampler what is already known
        state = optuna.trial.TrialState.PRUNED if trial["state"] == "pruned" else optuna.trial.TrialState.COMPLETE
        study.add_trial(optuna.trial.create_trial(
            params=trial["params"], distributions=distributions, state=state,
            value=_stored_objective(trial) if state == optuna.trial.TrialState.COMPLETE else None,
            intermediate_values=dict(enumerate(trial["block_losses"]))))
    for number in range(len(stored), search.trials):
        trial = study.ask()
        point = balance.space.suggest(trial)

        def should_stop(block: int, loss: float, trial=trial) -> bool:
            trial.report(loss, step=block)
            return trial.should_prune()

        values, losses, pruned, metrics = play(point, should_stop)
        if pruned:
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
            record(number, point, trial.params, values, "pruned", losses, metrics)
        else:
            loss = objective(list(balance.settings.targets), values)
            study.tell(trial, loss if math.isfinite(loss) else 1e9)
            record(number, point, trial.params, values, "complete", losses, metrics)


def _run_ntbea(balance: Balance, stored: list[dict], search: SearchSettings, play, record) -> None:
    space = balance.space
    rng = np.random.default_rng(balance.settings.seed)
    ntbea = NTBEA(space.discrete_dimensions(), rng, neighbours=search.neighbours)
    for trial in stored:
        ntbea.ask()  # keep the generator's sequence as in an uninterrupted run
        ntbea.tell(trial["params"], -_stored_objective(trial))
    for number in range(len(stored), search.trials):
        dims = ntbea.ask()
        point = space.from_dimensions(dims)
        values, losses, _, metrics = play(point, None)
        loss = objective(list(balance.settings.targets), values)
        ntbea.tell(dims, -(loss if math.isfinite(loss) else 1e9))
        record(number, point, dims, values, "complete", losses, metrics)


def _stored_objective(trial: dict) -> float:
    """The objective a stored trial was told (trials stored before ``pull`` existed: the loss)."""
    value = trial.get("objective", trial["loss"])
    return 1e9 if value is None else float(value)


def _check(balance: Balance, point: dict[str, Any] | None, fresh_seed: int, *, jobs: int,
           backend: str, alpha: float = 0.05) -> dict[str, Any]:
    """Play a point (None: the baseline) on the fresh seeds; each target's TOST at ``alpha``."""
    search = balance.settings.search
    tables, _ = evaluate(balance, point, root_seed=fresh_seed, matches=search.validate_matches,
                         jobs=jobs, backend=backend)
    placed = [_with_lineup(balance, t) for t in balance.settings.targets]
    spec = balance.spec
    parts = (spec.metric_parts, spec.metrics_from_parts) if spec.metric_parts and spec.metrics_from_parts else None
    checks = check_tables(placed, tables, spec.summary, bootstrap=search.bootstrap, seed=fresh_seed,
                          alpha=alpha, game_parts=parts)
    values = [c["value"] for c in checks]
    return {"fresh_loss": band_loss(list(balance.settings.targets), values), "matches": search.validate_matches,
            "fresh_seed": fresh_seed, "alpha": alpha, "targets": checks, "meets_all": all(c["met"] for c in checks)}


def _candidates(balance: Balance, trials: list[dict], extra: list[dict]) -> list[dict]:
    """The candidates in the order of the fixed-sequence test, set before any fresh seed is played.

    The extra points (the response surface's model optimum) first, then trials by in-sample
    rank; many trials can sit inside every band in sample (loss 0): prefer those nearest the
    centres.
    """
    targets = list(balance.settings.targets)
    complete = [t for t in trials if t["state"] == "complete" and t["loss"] is not None]
    complete.sort(key=lambda t: (t["loss"], centre_distance(targets, list(t["values"].values())), t["number"]))
    seen, candidates, ranked = set(), [], 0
    for trial in [*extra, *complete]:
        key = json.dumps(trial["point"], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        candidates.append(trial)
        ranked += trial not in extra
        if ranked == balance.settings.search.validate_top:
            break
    return candidates


def _cached(stored: dict | None, matches: int, fresh_seed: int, alpha: float) -> bool:
    """Whether a stored validation was made on these seeds, at this size and this α."""
    return bool(stored) and (stored.get("matches"), stored.get("fresh_seed")) == (matches, fresh_seed) \
        and abs(float(stored.get("alpha", 0.05)) - alpha) < 1e-12


def _validate(balance: Balance, out: Path, trials: list[dict], *, jobs: int, backend: str,
              extra: list[dict] = ()) -> dict[str, Any]:
    """Winner's-curse guard: replay the best distinct candidates (and ``extra`` points) on fresh seeds.

    One call is one look (:mod:`analysis.balance.looks`): its α comes from the directory's
    ledger, and the look is recorded there.
    """
    settings, search = balance.settings, balance.settings.search
    targets = list(settings.targets)
    candidates = _candidates(balance, trials, list(extra))
    ledger = load_ledger(out, search.alpha, search.looks, settings.seed, FRESH_SEED_OFFSET)
    look, alpha, claimable = ledger.alpha_for(search.validation_round, search.validate_matches)
    level = alpha if claimable else ledger.alpha / ledger.planned  # a look with no α left is shown only
    cached, cached_baseline = {}, None
    if (out / "validation.json").exists():
        previous = json.loads((out / "validation.json").read_text())
        cached = {json.dumps(c["point"], sort_keys=True): c for c in previous["candidates"]}
        cached_baseline = previous.get("baseline")
    fresh_seed = settings.seed + FRESH_SEED_OFFSET * (1 + search.validation_round)
    validated = []
    for trial in candidates:
        key = json.dumps(trial["point"], sort_keys=True)
        if _cached(cached.get(key), search.validate_matches, fresh_seed, level):
            validated.append(cached[key])
            continue
        validated.append({"trial": trial["number"], "point": trial["point"], "in_sample_loss": trial["loss"],
                          **_check(balance, trial["point"], fresh_seed, jobs=jobs, backend=backend, alpha=level)})
        _atomic_json(out / "validation.json", {"candidates": validated, "baseline": cached_baseline})
    baseline = None
    if search.validate_baseline:
        baseline = cached_baseline if _cached(cached_baseline, search.validate_matches, fresh_seed, level) \
            else _check(balance, None, fresh_seed, jobs=jobs, backend=backend, alpha=level)
    _atomic_json(out / "validation.json", {"candidates": validated, "baseline": baseline})
    # Several candidates tested on the same fresh seeds: a fixed-sequence procedure keeps the chance
    # of any false "met" at the look's α — candidates are tested in the order above and a verdict counts
    # only while every earlier candidate met every target (the sequence stops at the first miss).
    open_sequence = True
    for candidate in validated:
        candidate["in_sequence"] = open_sequence
        open_sequence = open_sequence and candidate["meets_all"]
    # claimable first, then the smallest fresh loss, then (among equals) the values nearest the centres
    best = min(validated, key=lambda c: (not (c["meets_all"] and c["in_sequence"]), c["fresh_loss"],
                                         centre_distance(targets, [t["value"] for t in c["targets"]]))) \
        if validated else None
    met = bool(best and best["meets_all"] and best["in_sequence"] and claimable)
    ledger.record({"look": look, "validation_round": search.validation_round, "fresh_seed": fresh_seed,
                   "matches": search.validate_matches, "alpha": alpha, "confidence": 1 - 2 * level,
                   "claimable": claimable, "meets_all_targets": met,
                   "claimed_trial": best["trial"] if met else None,
                   "candidates": [{"trial": c["trial"], "meets_all": c["meets_all"], "in_sequence": c["in_sequence"]}
                                  for c in validated]})
    summary: dict[str, Any] = {"game": balance.spec.name, "trials": len(trials),
                               "pruned": sum(t["state"] == "pruned" for t in trials),
                               "optimizer": search.optimizer, "fresh_seed": fresh_seed,
                               "best": best, "meets_all_targets": met, "baseline": baseline,
                               "look": look, "alpha_look": alpha, "alpha_total": ledger.alpha,
                               "looks_planned": ledger.planned, "looks": ledger.looks, "look_notes": ledger.notes}
    if best is not None:
        why = "" if claimable else " (no α left: this look claims nothing)"
        (out / "best_rules.toml").write_text(
            f"# tablesim balance: best candidate (trial {best['trial']}), validated on {best['matches']} matches\n"
            f"# of fresh seeds (root seed {fresh_seed}), look {look} at α = {alpha:.4g} of {ledger.alpha:g}; "
            f"meets every target: {met}{why}\n"
            + to_toml(balance.rules(best["point"])), encoding="utf-8")
    return summary
