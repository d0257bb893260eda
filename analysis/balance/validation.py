"""The winner's-curse guard of a balance search: candidates replayed on fresh seeds, in looks.

A search ranks its trials on the seeds every trial played; only a replay on seeds no trial has
seen can claim anything. The candidates (the response surface's model optimum if any, then
the complete trials by in-sample rank) are put in an order fixed before any fresh seed is
played, and tested in that order (a fixed-sequence test): a candidate counts only while every
earlier one met every target, so within a look the chance of any false "meets every target"
stays at the look's α. A candidate after a miss could not be claimed: it is not played (one
already stored is shown).

**Stages.** ``search.validation_stages = S`` plans up to S nested sizes on the same fresh seeds
(:func:`plan_stages`): the first is the size the first candidate's in-sample intervals predict
to be enough (TOST power ``search.power`` at the look's α: the in-sample standard error scaled
by √n, against the candidate's in-sample distance to each band edge — decided from the
search's seeds only, before any fresh seed is played), each next one doubles it, and the last
is ``validate_matches``. The validation goes on to the next stage only while undecided: it
stops when the first candidate meets every target (a claim) or when one of its targets'
interval lies wholly outside the band (it cannot be met: more matches would not change that).
A larger stage replays nothing: its first matches are the smaller stage's. Every stage played
is one look (:mod:`analysis.balance.looks`): it spends α/K of the directory's budget, so
stopping early, or going on, never raises the chance of a false claim above ``search.alpha``
(the union bound over looks); stopping for futility only removes chances to claim.

**Several line-ups.** A target may be required on every line-up (``lineup = "*"``): the claim
"meets every target on every line-up" is an intersection of equivalence claims, tested as an
intersection-union test (Berger 1982): every TOST at the look's α, and the claim made only if
all pass. A false claim needs a false pass of at least one test whose band is not met, whose
chance is at most α: the look's α is *not* split over line-ups or targets (splitting would only
cost power). The per-line-up verdicts shown beside it are descriptive: a claim for each
line-up on its own would need α/L (Bonferroni over the L line-ups), and none is made.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import norm

from sim.core.config import to_toml
from sim.core.store import atomic_write_bytes
from sim.core.text import join_and

from .looks import load_ledger
from .space import PointNames
from .targets import band_loss, centre_distance, check_tables, game_parts_of, measure_all
from .worth import lineups_played

__all__ = [
    "FRESH_SEED_OFFSET",
    "candidates",
    "plan_stages",
    "validate",
    "fresh_seed",
    "whole_rotations",
    "needed_matches",
    "trial_intervals",
    "lineup_verdicts",
    "atomic_json",
    "point_names",
    "target_sentence",
    "human_number",
]

#: Validation replays candidates on root seed + this offset (× 1 + search.validation_round):
#: seeds no trial has seen.
FRESH_SEED_OFFSET = 1_000_003
#: z of the two-sided 90 % intervals stored with the trials (in-sample).
TRIAL_Z = float(norm.ppf(0.95))


def fresh_seed(settings) -> int:
    """The root seed of the settings' validation round."""
    return settings.seed + FRESH_SEED_OFFSET * (1 + settings.search.validation_round)


def candidates(balance, trials: list[dict], extra: list[dict]) -> list[dict]:
    """The candidates in the order of the fixed-sequence test, set before any fresh seed is played.

    The extra points (the response surface's model optimum) first, then complete trials by
    in-sample rank; many trials can sit inside every band in sample (loss 0): prefer those
    nearest the centres.
    """
    targets = list(balance.settings.targets)
    complete = [t for t in trials if t["state"] == "complete" and t["loss"] is not None]
    complete.sort(key=lambda t: (t["loss"], centre_distance(targets, list(t["values"].values())), t["number"]))
    seen, out, ranked = set(), [], 0
    for trial in [*extra, *complete]:
        key = json.dumps(trial["point"], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        out.append(trial)
        ranked += trial not in extra
        if ranked == balance.settings.search.validate_top:
            break
    return out


def whole_rotations(balance, matches: int) -> int:
    """``matches`` rounded up to whole seat rotations of every line-up (when seats rotate)."""
    if not balance.settings.rotate_seats:
        return int(matches)
    step = math.lcm(*(len(players) for players in balance.lineups.values()))
    return int(-(-matches // step) * step)


def needed_matches(balance, trial: dict, alpha: float) -> float:
    """Fresh matches the TOST of every target needs, predicted from the trial's in-sample CIs.

    Per target: n_in · ((z_{1−α} + z_power) · SE_in / margin)², SE_in from the stored 90 %
    interval, margin = half-width − |value − centre| (infinite when the value is outside the
    band or no interval is stored). The largest over the targets.
    """
    intervals, n_in = trial.get("intervals") or {}, trial.get("matches")
    if not intervals or not n_in:
        return math.inf
    z = float(norm.ppf(1 - alpha) + norm.ppf(balance.settings.search.power))
    need = 0.0
    for target in balance.settings.targets:
        low, high = target.band
        value = trial["values"].get(target.label, math.nan)
        ci = intervals.get(target.label)
        margin = (high - low) / 2 - abs(value - (low + high) / 2)
        if ci is None or not margin > 0 or any(v is None or not math.isfinite(v) for v in ci):
            return math.inf
        se = (ci[1] - ci[0]) / (2 * TRIAL_Z)
        need = max(need, n_in * (z * se / margin) ** 2)
    return need


def plan_stages(balance, first: dict | None, alpha: float) -> list[int]:
    """The validation sizes, smallest first: ``validation_stages`` nested looks at most.

    The first is the size the first candidate's in-sample intervals predict for TOST power
    ``search.power`` (rounded up to hundreds), kept between ``validate_matches / 2^(S−1)`` and
    ``validate_matches``; each next stage doubles it, and the last is ``validate_matches``. A
    candidate with no stored interval starts at ``validate_matches``; one outside a band in
    sample at the smallest size (the cheapest look that can show it). Decided from the search's
    seeds only, before any fresh seed is played.
    """
    search = balance.settings.search
    largest, stages = search.validate_matches, search.validation_stages
    floor = max(1, math.ceil(largest / 2 ** (stages - 1)))
    if stages == 1 or first is None:
        return [whole_rotations(balance, largest)]
    need = needed_matches(balance, first, alpha)
    if not math.isfinite(need):
        values = first.get("values")  # none: a point that is not a trial (the response surface's)
        inside = values is None or all(
            t.band[0] <= values.get(t.label, math.nan) <= t.band[1] for t in balance.settings.targets
        )
        need = largest if inside else floor
    size = min(largest, max(floor, 100 * math.ceil(need / 100) if need > 100 else math.ceil(need)))
    sizes = [min(largest, size * 2**k) for k in range(stages - 1)] + [largest]
    return sorted({whole_rotations(balance, n) for n in sizes})


class FreshTables:
    """The fresh-seed tables of every point played in this run, extended as stages grow.

    A larger stage plays only the matches the smaller one has not: its first matches are the
    same seeds. (Kept in memory: a rerun replays what it needs.)
    """

    def __init__(self, balance, play, jobs: int, backend: str):
        self.balance, self.play, self.jobs, self.backend = balance, play, jobs, backend
        self.tables: dict[str, list[dict]] = {}
        self.played: dict[str, int] = {}

    def get(self, point: dict | None, matches: int) -> dict:
        """Tables of the point's first ``matches`` fresh matches (playing those not yet played)."""
        from sim.core.store import assemble

        key = "baseline" if point is None else json.dumps(point, sort_keys=True)
        done = self.played.get(key, 0)
        if matches > done:
            part = self.play(
                point,
                root_seed=fresh_seed(self.balance.settings),
                start=done,
                matches=matches,
                jobs=self.jobs,
                backend=self.backend,
            )
            self.tables.setdefault(key, []).append(part)
            self.played[key] = matches
        parts = self.tables[key]
        tables = assemble({name: [p[name] for p in parts] for name in parts[0]})
        return {name: frame[frame["match"] < matches] if len(frame) else frame for name, frame in tables.items()}

    def count(self) -> int:
        """Matches played on fresh seeds by this run, summed over the line-ups (restricted ones included)."""
        return sum(self.played.values()) * lineups_played(self.balance)


def _check(balance, fresh: FreshTables, point: dict | None, matches: int, alpha: float) -> dict[str, Any]:
    """Play a point (None: the baseline) on the fresh seeds; each target's TOST at ``alpha``."""
    search = balance.settings.search
    seed = fresh_seed(balance.settings)
    tables = fresh.get(point, matches)
    placed = [balance.placed(t) for t in balance.settings.targets]
    spec = balance.spec
    parts = game_parts_of(spec)
    checks = check_tables(
        placed, tables, spec.summary, bootstrap=search.bootstrap, seed=seed, alpha=alpha, game_parts=parts
    )
    values = [c["value"] for c in checks]
    return {
        "fresh_loss": band_loss(list(balance.settings.targets), values),
        "matches": matches,
        "fresh_seed": seed,
        "alpha": alpha,
        "targets": checks,
        "meets_all": all(c["met"] for c in checks),
        "excluded": any(c["ci_high"] < c["band"][0] or c["ci_low"] > c["band"][1] for c in checks),
    }


def _cached(stored: dict | None, matches: int, seed: int, alpha: float) -> bool:
    """Whether a stored validation was made on these seeds, at this size and this α."""
    return (
        bool(stored)
        and (stored.get("matches"), stored.get("fresh_seed")) == (matches, seed)
        and abs(float(stored.get("alpha", 0.05)) - alpha) < 1e-12
    )


def _previous(out: Path) -> tuple[dict[tuple, dict], dict | None]:
    """Every stored check, keyed by (point, matches, fresh seed, α), and the stored baseline."""
    path = out / "validation.json"
    if not path.exists():
        return {}, None
    previous = json.loads(path.read_text())
    cache = {}
    for check in [*previous.get("checks", []), *previous.get("candidates", [])]:
        key = (
            json.dumps(check["point"], sort_keys=True),
            check.get("matches"),
            check.get("fresh_seed"),
            round(float(check.get("alpha", 0.05)), 12),
        )
        cache.setdefault(key, check)
    return cache, previous.get("baseline")


def _play_look(
    balance,
    out: Path,
    ordered: list[dict],
    matches: int,
    level: float,
    cache: dict,
    checks: list[dict],
    fresh: FreshTables,
) -> list[dict]:
    """One look: the candidates in sequence, stopping after the first that misses (unless stored)."""
    seed = fresh_seed(balance.settings)
    validated, open_sequence = [], True
    for trial in ordered:
        key = (json.dumps(trial["point"], sort_keys=True), matches, seed, round(level, 12))
        if key in cache:
            entry = {**cache[key], "trial": trial["number"]}
        elif not open_sequence:
            continue  # could not be claimed: not played
        else:
            entry = {
                "trial": trial["number"],
                "point": trial["point"],
                "in_sample_loss": trial["loss"],
                **_check(balance, fresh, trial["point"], matches, level),
            }
            cache[key] = entry
            checks.append(entry)
            _write(out, {"candidates": validated + [entry], "baseline": None, "checks": checks})
        entry["in_sequence"] = open_sequence
        open_sequence = open_sequence and entry["meets_all"]
        validated.append(entry)
    return validated


def _write(out: Path, data: dict) -> None:
    atomic_json(out / "validation.json", data)


def atomic_json(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` atomically (numpy scalars as numbers)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, json.dumps(data, indent=2, default=_jsonable).encode("utf-8"))


def _jsonable(value: Any) -> Any:
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    raise TypeError(type(value))


def validate(
    balance, out: Path, trials: list[dict], *, jobs: int, backend: str, play, extra: list[dict] = ()
) -> dict[str, Any]:
    """Replay the candidates on fresh seeds, stage by stage (each stage a look); the summary.

    ``play(point, root_seed=, start=, matches=, jobs=, backend=)`` returns the tables of a
    point's fresh-seed matches ``start .. matches - 1`` (``point = None``: the baseline).
    """
    settings, search = balance.settings, balance.settings.search
    ordered = candidates(balance, trials, list(extra))
    ledger = load_ledger(out, search.alpha, search.looks, settings.seed, FRESH_SEED_OFFSET)
    order = [json.dumps(c["point"], sort_keys=True) for c in ordered]
    sizes = plan_stages(balance, ordered[0] if ordered else None, ledger.alpha / ledger.planned)
    cache, cached_baseline = _previous(out)
    checks: list[dict] = list({id(v): v for v in cache.values()}.values())
    fresh = FreshTables(balance, play, jobs, backend)
    stages: list[dict] = []
    if search.look_every:
        sizes = []
        stages.append(_sequential_look(balance, out, ordered, ledger, order, checks, fresh))
    for matches in sizes:
        look, alpha, claimable = ledger.alpha_for(search.validation_round, matches, order)
        if stages and not claimable:
            break  # no α left for a larger stage: the last one played stands
        stage = _staged_look(
            balance, out, ordered, (look, alpha, claimable), matches, sizes, ledger, (cache, checks, fresh)
        )
        stages.append(stage)
        if stage["met"] or stage["excluded"] or not claimable:
            break
    final = (
        stages[-1]
        if stages
        else {
            "look": 0,
            "matches": 0,
            "alpha": 0.0,
            "level": 0.0,
            "claimable": False,
            "met": False,
            "excluded": False,
            "validated": [],
            "best": None,
        }
    )
    baseline = None
    if search.validate_baseline and stages:
        seed, level = fresh_seed(settings), final["level"]
        baseline = (
            cached_baseline
            if _cached(cached_baseline, final["matches"], seed, level)
            else _check(balance, fresh, None, final["matches"], level)
        )
    _write(
        out,
        {
            "candidates": final["validated"],
            "baseline": baseline,
            "checks": checks,
            "stages": [{k: v for k, v in s.items() if k not in ("validated", "best")} for s in stages],
        },
    )
    summary = _summary(balance, trials, final, baseline, ledger, stages)
    summary["fresh_matches_this_run"] = fresh.count()
    _best_rules(balance, out, summary, final, ledger)
    return summary


def _staged_look(
    balance,
    out: Path,
    ordered: list[dict],
    granted: tuple[int, float, bool],
    matches: int,
    sizes: list[int],
    ledger,
    played: tuple,
) -> dict:
    """One stage of the staged validation: the candidates on ``matches`` fresh seeds at the α the
    ledger ``granted`` (look, α, claimable), recorded in the ledger before and after it plays;
    ``played`` is (the stored checks by point, every check, the fresh tables)."""
    look, alpha, claimable = granted
    cache, checks, fresh = played
    order = [json.dumps(c["point"], sort_keys=True) for c in ordered]
    level = alpha if claimable else ledger.alpha / ledger.planned  # a look with no α left is shown only
    started = {
        "look": look,
        "validation_round": balance.settings.search.validation_round,
        "fresh_seed": fresh_seed(balance.settings),
        "matches": matches,
        "alpha": alpha,
        "confidence": 1 - 2 * level,
        "claimable": claimable,
        "order": order,
        "stage": sizes.index(matches) + 1,
        "stages": len(sizes),
    }
    # The look is recorded (its α spent) before it plays: a run killed after the look's first
    # check is stored in validation.json must find the look in looks.json when rerun, not take
    # the stored checks for a directory from before looks were recorded (one look at α = 0.05).
    ledger.record({**started, "finished": False})
    validated = _play_look(balance, out, ordered, matches, level, cache, checks, fresh)
    best = _best(balance.settings, validated)
    met = bool(best and best["meets_all"] and best["in_sequence"] and claimable)
    excluded = bool(validated and validated[0].get("excluded"))
    ledger.record(
        {
            **started,
            "finished": True,
            "meets_all_targets": met,
            "claimed_trial": best["trial"] if met else None,
            "excluded": excluded,
            "candidates": [
                {"trial": c["trial"], "meets_all": c["meets_all"], "in_sequence": c["in_sequence"]} for c in validated
            ],
        }
    )
    return {
        "look": look,
        "matches": matches,
        "alpha": alpha,
        "level": level,
        "claimable": claimable,
        "met": met,
        "excluded": excluded,
        "validated": validated,
        "best": best,
    }


def _sequential_look(
    balance, out: Path, ordered: list[dict], ledger, order: list[str], checks: list[dict], fresh: FreshTables
) -> dict:
    """The first candidate on fresh seeds, a look after every ``search.look_every`` matches
    (:mod:`analysis.balance.sequential`): one ledger look for the whole sequence."""
    from .sequential import monitors

    settings, search = balance.settings, balance.settings.search
    cap = whole_rotations(balance, search.validate_matches)
    step = min(cap, whole_rotations(balance, search.look_every))
    # a sequence looked at every `step` matches is a test of its own: another step, or the staged
    # validation of the same size on the same seeds, is another look and pays its own α
    order = [*order, f"look_every={step}"]
    look, alpha, claimable = ledger.alpha_for(search.validation_round, cap, order)
    level = alpha if claimable else ledger.alpha / ledger.planned
    started = {
        "look": look,
        "validation_round": search.validation_round,
        "fresh_seed": fresh_seed(settings),
        "matches": cap,
        "alpha": alpha,
        "confidence": 1 - level,
        "claimable": claimable,
        "order": order,
        "stage": 1,
        "stages": 1,
        "look_every": step,
    }
    ledger.record({**started, "finished": False})
    validated: list[dict] = []
    if ordered:
        trial = ordered[0]
        rotations = whole_rotations(balance, 1)
        watched = monitors([balance.placed(t) for t in settings.targets], level, horizon=max(1, cap // rotations))
        matches, looks = 0, 0
        while matches < cap:
            matches, looks = min(cap, matches + step), looks + 1
            tables = fresh.get(trial["point"], matches)
            for monitor in watched:
                monitor.extend(tables, matches)
            verdicts = [m.verdict() for m in watched]
            if "missed" in verdicts or all(v == "met" for v in verdicts):
                break
        results = [m.result(tables) for m in watched]
        entry = {
            "trial": trial["number"],
            "point": trial["point"],
            "in_sample_loss": trial["loss"],
            "fresh_loss": band_loss(list(settings.targets), [r["value"] for r in results]),
            "matches": matches,
            "fresh_seed": fresh_seed(settings),
            "alpha": level,
            "targets": results,
            "meets_all": all(r["verdict"] == "met" for r in results),
            "excluded": any(r["verdict"] == "missed" for r in results),
            "looks_inside": looks,
            "stopped": "every target met"
            if all(r["verdict"] == "met" for r in results)
            else "a target missed"
            if any(r["verdict"] == "missed" for r in results)
            else "validate_matches reached",
            "in_sequence": True,
        }
        checks.append(entry)
        validated.append(entry)
        _write(out, {"candidates": validated, "baseline": None, "checks": checks})
    best = _best(settings, validated)
    met = bool(best and best["meets_all"] and claimable)
    excluded = bool(validated and validated[0]["excluded"])
    played = validated[0]["matches"] if validated else 0
    ledger.record(
        {
            **started,
            "finished": True,
            "matches_played": played,
            "meets_all_targets": met,
            "claimed_trial": best["trial"] if met else None,
            "excluded": excluded,
            "candidates": [{"trial": c["trial"], "meets_all": c["meets_all"], "in_sequence": True} for c in validated],
        }
    )
    return {
        "look": look,
        "matches": played,
        "alpha": alpha,
        "level": level,
        "claimable": claimable,
        "met": met,
        "excluded": excluded,
        "validated": validated,
        "best": best,
    }


def _best(settings, validated: list[dict]) -> dict | None:
    """Claimable first, then the smallest fresh loss, then (among equals) the values nearest the centres."""
    targets = list(settings.targets)
    if not validated:
        return None
    return min(
        validated,
        key=lambda c: (
            not (c["meets_all"] and c["in_sequence"]),
            c["fresh_loss"],
            centre_distance(targets, [t["value"] for t in c["targets"]]),
        ),
    )


def _summary(balance, trials, final, baseline, ledger, stages) -> dict[str, Any]:
    search = balance.settings.search
    return {
        "game": balance.spec.name,
        "trials": len(trials),
        "pruned": sum(t["state"] == "pruned" for t in trials),
        "optimizer": search.optimizer,
        "fresh_seed": fresh_seed(balance.settings),
        "best": final["best"],
        "meets_all_targets": final["met"],
        "baseline": baseline,
        "look": final["look"],
        "alpha_look": final["alpha"],
        "alpha_total": ledger.alpha,
        "claimable": final["claimable"],
        "shown_unmet": final["excluded"],
        "looks_planned": ledger.planned,
        "looks": ledger.looks,
        "look_notes": ledger.notes,
        "stages": [
            {
                "look": s["look"],
                "matches": s["matches"],
                "alpha": s["alpha"],
                "claimable": s["claimable"],
                "met": s["met"],
                "excluded": s["excluded"],
            }
            for s in stages
        ],
        "lineup_verdicts": lineup_verdicts(balance, final["best"]),
        "candidates_validated": len(final["validated"]),
    }


def lineup_verdicts(balance, best: dict | None) -> dict[str, bool]:
    """Whether the best candidate met every target of each line-up (descriptive, see the docstring)."""
    if not best:
        return {}
    out: dict[str, bool] = {}
    for target, check in zip(balance.settings.targets, best["targets"]):
        name = balance.placed(target).lineup
        out[name] = out.get(name, True) and bool(check["met"])
    return out


def _best_rules(balance, out: Path, summary: dict, final: dict, ledger) -> None:
    best = final["best"]
    if best is None:
        return
    (out / "best_rules.toml").write_text(
        f"# tablesim balance: best candidate (trial {best['trial']}), validated on {best['matches']:,} matches\n"
        f"# of fresh seeds (root seed {summary['fresh_seed']}), look {final['look']} at "
        f"α = {human_number(final['alpha'])} of {ledger.alpha:g}.\n"
        f"# {point_names(balance).point(best['point'])}\n"
        f"# {target_sentence(summary)}\n" + to_toml(balance.rules(best["point"])),
        encoding="utf-8",
    )


def point_names(balance) -> PointNames:
    """How the points of a balance problem are named for people (by its game's rules)."""
    return PointNames(balance.space, balance.spec.rules_type)


def target_sentence(summary: dict) -> str:
    """Whether every target was shown met on fresh seeds, in one sentence naming those that were not.

    Met: every interval of the claimed candidate inside its band. Otherwise the sentence names the
    targets missed (interval wholly outside the band) and those not shown met (interval across a
    band edge), or says why intervals all inside their bands claim nothing (no α left, or an
    earlier candidate of the fixed sequence missed).
    """
    best = summary.get("best")
    if not best:
        return "Cannot tell whether the targets are met: no trial completed, so nothing was replayed on fresh seeds."
    checks = best["targets"]
    if summary.get("meets_all_targets"):
        return (
            f"Every target was met on fresh seeds: the intervals of all {len(checks)} lie inside their bands."
            if len(checks) > 1
            else "Every target was met on fresh seeds: its interval lies inside its band."
        )
    unclaimed = _unclaimed(summary, best)
    if all(c["met"] for c in checks):
        return (
            f"Not every target is shown met on fresh seeds: every interval lies inside its band, but "
            f"{' and '.join(unclaimed) or 'the look made no claim'}, so nothing is claimed."
        )
    missed = [c["target"] for c in checks if c["ci_high"] < c["band"][0] or c["ci_low"] > c["band"][1]]
    undecided = [c["target"] for c in checks if not c["met"] and c["target"] not in missed]
    parts = (
        ([f"{join_and(missed)} missed (interval wholly outside the band)"] if missed else [])
        + ([f"{join_and(undecided)} not shown met (interval across a band edge)"] if undecided else [])
        + [f"{reason}, so nothing is claimed" for reason in unclaimed if reason.startswith("this look")]
    )
    opening = "Not every target was met on fresh seeds" if missed else "Not every target is shown met on fresh seeds"
    return f"{opening}: {'; '.join(parts)}."


def _unclaimed(summary: dict, best: dict) -> list[str]:
    """Why the best candidate's verdict is not a claim, whatever its intervals (none: it is one)."""
    return (
        ["an earlier candidate of the fixed test sequence missed a target"] if not best.get("in_sequence", True) else []
    ) + (["this look has no α left"] if not summary.get("claimable", True) else [])


def human_number(value: Any) -> str:
    """A number as a person reads it: integers with thousands separators, others to 3 significant figures.

    >>> human_number(0.14100000000000007), human_number(15000), human_number(0.035434), human_number(5.0)
    ('0.141', '15,000', '0.0354', '5')
    """
    if value is None:
        return "—"
    number = float(value)
    if math.isnan(number):
        return "—"
    if math.isinf(number):
        return "∞" if number > 0 else "−∞"
    if number.is_integer() or abs(number) >= 100:
        return f"{round(number):,}"
    text = f"{number:.3g}"
    return "0" if float(text) == 0 else text


def trial_intervals(balance, tables, bootstrap: int, seed: int) -> dict[str, list[float]]:
    """90 % in-sample intervals of every target on a trial's tables (stored with the trial)."""
    placed = [balance.placed(t) for t in balance.settings.targets]
    spec = balance.spec
    parts = game_parts_of(spec)
    measured = measure_all(
        placed, tables, spec.summary, bootstrap=bootstrap, seed=seed, confidence=0.90, game_parts=parts
    )
    return {t.label: [_finite(m["ci_low"]), _finite(m["ci_high"])] for t, m in zip(balance.settings.targets, measured)}


def _finite(value: float) -> float | None:
    return float(value) if value is not None and np.isfinite(value) else None
