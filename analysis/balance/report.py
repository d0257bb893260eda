"""Self-contained HTML reports of a balance search or a sensitivity analysis.

``tablesim report DIR`` calls :func:`build_search_report` when ``DIR/manifest.json`` says
``kind = "balance"`` or ``"sensitivity"``: the verdict first (targets met or missed on fresh
seeds), then the validated candidates with their CIs, the convergence of the search, every
trial, and the best rules as a ready-to-use TOML file; or, for sensitivity, the Morris and
Sobol tables with the dummy's noise floor and their plot.
"""

from __future__ import annotations

import base64
import html
import io
import json
import numbers
from pathlib import Path

import pandas as pd
from jinja2 import Environment

from .space import PointNames, SearchSpace
from .validation import human_number, target_sentence

__all__ = ["build_search_report"]

TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; color: #222; line-height: 1.45; }
h1 { font-size: 1.7rem; } h2 { border-bottom: 2px solid #1f77b4; padding-bottom: .2rem; margin-top: 2rem; }
table { border-collapse: collapse; font-size: .88rem; margin: .6rem 0; }
th, td { border-bottom: 1px solid #ddd; padding: .25rem .55rem; text-align: right; }
th { background: #f2f2f2; } td:first-child, th:first-child { text-align: left; }
.verdict { padding: .8rem 1rem; border-left: 5px solid {{ colour }}; background: #f6f8fa; }
pre { background: #f6f8fa; padding: .8rem; overflow-x: auto; font-size: .85rem; }
img { max-width: 100%; }
@media print { body { max-width: none; margin: 1cm; } }
</style></head><body>
<h1>{{ title }}</h1>
<p>Generated from <code>{{ folder }}</code> by tablesim.</p>
{% for section in sections %}<h2>{{ section.title }}</h2>
{% for block in section.blocks %}{{ block }}
{% endfor %}{% endfor %}
</body></html>
"""


def _png(fig) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    return f'<img alt="plot" src="data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}">'


def _table(frame: pd.DataFrame) -> str:
    return frame.to_html(index=False, float_format=lambda v: f"{v:.4g}", border=0, escape=True)


def _p(text: str) -> str:
    return f"<p>{html.escape(text)}</p>"


def _human_table(frame: pd.DataFrame) -> str:
    """A table with its numbers rounded for people (:func:`human_number`; identifiers such as seeds as text)."""
    shown = pd.DataFrame(
        {column: [human_number(v) if _numeric(v) else v for v in frame[column]] for column in frame.columns}
    )
    return shown.to_html(index=False, border=0, escape=True)


def _numeric(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and type(value).__name__ != "bool_"


def _point_names(folder: Path) -> PointNames:
    """How the directory's points are named for people: its parameters and its game's baseline rules.

    Rebuilt from ``manifest.json``; where the game or the baseline rules cannot be loaded, the
    elements go by their rule keys.
    """
    from sim.core.config import ConfigError, build, to_dict
    from sim.core.game import get_game
    from sim.core.rules import load_rules

    from .space import Parameter

    manifest = json.loads((folder / "manifest.json").read_text())
    settings = manifest.get("balance") or {}
    try:
        parameters = tuple(build(Parameter, data) for data in settings.get("parameters", []))
        spec = get_game(manifest.get("game", ""))
    except (ConfigError, KeyError, TypeError):
        return PointNames(SearchSpace(()))
    baseline = settings.get("baseline") or {}
    overrides = list((baseline.get("set") or {}).items())
    rules_file = Path(manifest.get("balance_file", "")).parent / baseline["rules"] if baseline.get("rules") else None
    try:
        rules = load_rules(
            spec, rules_file if rules_file and rules_file.exists() else None, overrides, override_label=""
        )
    except ConfigError:
        rules = load_rules(spec)
    return PointNames(SearchSpace(parameters, to_dict(rules)), spec.rules_type)


def _trials_for_people(trials: pd.DataFrame, names: PointNames) -> pd.DataFrame:
    """``trials.csv`` as a person reads it: each list element a column named as the rules name it."""
    columns: dict[str, list] = {}
    for column in trials.columns:
        if column.startswith("param:"):
            columns.update(_parameter_columns(column.removeprefix("param:"), list(trials[column]), names))
        else:
            columns[column.removeprefix("value:")] = list(trials[column])
    return pd.DataFrame(columns)


def _parameter_columns(name: str, values: list, names: PointNames) -> dict[str, list]:
    """One stored parameter column as columns headed by its elements' names (a list: one per element)."""
    p = names.parameter(name)
    if p is None:
        return {name: values}
    headers = list(names.dimension_names(p).values())
    if p.kind not in ("int_list", "counts"):
        return {headers[0]: values}
    lists = [json.loads(v) if isinstance(v, str) else [None] * len(headers) for v in values]
    return {header: [row[i] for row in lists] for i, header in enumerate(headers)}


def _convergence(trials: pd.DataFrame):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.5, 3.6))
    ax = fig.subplots()
    column = "objective" if "objective" in trials.columns else "loss"
    done = trials[trials[column].notna()]
    complete = done[done["state"] == "complete"]
    pruned = done[done["state"] == "pruned"]
    ax.scatter(complete["number"], complete[column], s=18, label="trial (in sample)", color="#1f77b4")
    if len(pruned):
        ax.scatter(
            pruned["number"], pruned[column], s=18, marker="x", color="#7f7f7f", label="pruned (blocks played so far)"
        )
    ax.plot(complete["number"], complete[column].cummin(), color="#d62728", label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel(
        "objective (0 = every target at its band's centre)"
        if column == "objective"
        else "band loss (0 = every target met)"
    )
    ax.set_yscale("symlog", linthresh=0.1)
    ax.legend()
    ax.grid(alpha=0.3)
    return fig


def _targets_figure(trials: pd.DataFrame, validation: list[dict], baseline: dict | None):
    """Each target's in-sample value per trial, its band, and the fresh-seed CIs of the candidates."""
    from matplotlib.figure import Figure

    labels = [c["target"] for c in (validation[0]["targets"] if validation else [])]
    if not labels:
        return None
    fig = Figure(figsize=(7.5, 2.6 * len(labels)))
    axes = fig.subplots(len(labels), 1, squeeze=False)[:, 0]
    for ax, label in zip(axes, labels):
        column = f"value:{label}" if f"value:{label}" in trials.columns else f"value:{label.split(' @')[0]}"
        band = validation[0]["targets"][labels.index(label)]["band"]
        ax.axhspan(band[0], band[1], color="#2ca02c", alpha=0.15, label="target band")
        if column in trials.columns:
            complete = trials[trials["state"] == "complete"]
            ax.scatter(complete["number"], complete[column], s=14, color="#1f77b4", label="trial (in sample)")
        for candidate in validation:
            check = next(c for c in candidate["targets"] if c["target"] == label)
            # a point that is not a trial (the response surface's) is drawn after the last trial
            x = candidate["trial"] if isinstance(candidate["trial"], int) else len(trials)
            ax.errorbar(
                [x],
                [check["value"]],
                yerr=[[check["value"] - check["ci_low"]], [check["ci_high"] - check["value"]]],
                fmt="D",
                color="#d62728" if check["met"] else "#ff7f0e",
                capsize=4,
            )
        if baseline:
            check = next(c for c in baseline["targets"] if c["target"] == label)
            ax.axhline(check["value"], color="#7f7f7f", linestyle="--", label="baseline (fresh seeds)")
        ax.plot([], [], "D", color="#d62728", label="validated (fresh seeds, the look's CI)")
        ax.set_title(label, fontsize=10)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8, loc="best")
    axes[-1].set_xlabel("trial")
    fig.tight_layout()
    return fig


def _looks_blocks(summary: dict, folder: Path) -> list[str]:
    """The validation looks of the directory and the α each spent (or "looks not recorded")."""
    looks_path = folder / "looks.json"
    if not looks_path.exists():
        return [
            _p(
                "Looks not recorded: this directory was validated before tablesim recorded its validation "
                "looks. Its stored validation was tested at α = 0.05 (90 % intervals inside the bands); "
                "whether earlier looks (other validation sizes or rounds) were made on it cannot be told "
                "from the files, and if they were, the overall chance of a false 'met' exceeds 5 % "
                "(at most 5 % per look, by the union bound)."
            )
        ]
    data = json.loads(looks_path.read_text())
    rows = [
        {
            "look": x["look"],
            "validation round": x["validation_round"],
            "fresh root seed": str(x["fresh_seed"]),
            "matches": x["matches"],
            "α spent": x["alpha"],
            "intervals": f"{100 * x['confidence']:.1f} %",
            "may claim": "yes" if x["claimable"] else "no (α spent)",
            "verdict": ("met: trial " + str(x.get("claimed_trial"))) if x.get("meets_all_targets") else "not met",
            "recorded": "before look records (legacy)" if x.get("legacy") else "yes",
        }
        for x in data["looks"]
    ]
    per_look = human_number(data["alpha"] / data["planned"])
    text = (
        f"The directory's false-claim budget α = {data['alpha']:g} is split over {data['planned']} planned "
        f"looks (Bonferroni): each look tests at α/{data['planned']} = {per_look} "
        "(its intervals at 1 − 2·α_look inside every band), a look past the plan claims nothing, so the "
        f"chance that any look of this directory claims a false 'met' is at most {data['alpha']:g}. A look is "
        "one (validation round, validation matches) pair; more matches on the same fresh seeds or a new "
        f"round are new looks. Spent so far: {human_number(sum(x['alpha'] for x in data['looks']))}."
    )
    return [_p(text), _human_table(pd.DataFrame(rows))] + [_p(note) for note in data.get("notes", [])]


def _balance_sections(folder: Path) -> tuple[str, list[dict], bool]:
    summary = json.loads((folder / "balance.json").read_text())
    validated = json.loads((folder / "validation.json").read_text())
    validation, baseline = validated["candidates"], validated.get("baseline")
    trials = pd.read_csv(folder / "trials.csv")
    met = bool(summary.get("meets_all_targets"))
    names = _point_names(folder)
    rows = [
        _check_row(candidate, check, names)
        for candidate in ([{**baseline, "trial": "baseline"}] if baseline else []) + validation
        for check in candidate["targets"]
    ]
    sections = [
        {
            "title": "Verdict",
            "blocks": [_verdict(summary, names)]
            + _cost_blocks(summary)
            + [
                _p(
                    f"{summary['trials']} trials ({summary['pruned']} pruned) with {summary['optimizer']}; every trial "
                    "played the same seeds (common random numbers). The best candidates were replayed on fresh seeds "
                    "(winner's-curse guard); only those results count. Under seat rotation the matches of a seed are "
                    "one cluster: rates get the seed-clustered Wilson interval (effective sample size n/deff), worths "
                    "and worth spreads the paired intervals of restricted play (each choice forbidden to one player on "
                    "the same seeds) and other metrics a bootstrap over seeds, the intervals of the design report. "
                    "Candidates are tested in "
                    "a fixed order set before the fresh seeds are played (the response surface's point first, then "
                    "trials by in-sample rank) and a verdict counts only while every earlier candidate met every "
                    "target: within a look the chance of any false 'met' stays at the look's α. How the search "
                    "spent its matches (successive halving, pruning, the sampler's choices) only decides which "
                    "candidates are replayed: it cannot raise that chance."
                )
            ],
        },
        {"title": "Validation looks and the α they spend", "blocks": _looks_blocks(summary, folder)},
        {"title": "Validated candidates (fresh seeds)", "blocks": [_human_table(pd.DataFrame(rows))] if rows else []},
        {
            "title": "Targets: every trial, the band, the validated candidates",
            "blocks": [_png(figure)] if (figure := _targets_figure(trials, validation, baseline)) else [],
        },
        {"title": "Convergence", "blocks": [_png(_convergence(trials))]},
        {"title": "Every trial (in sample)", "blocks": [_human_table(_trials_for_people(trials, names))]},
    ]
    if (folder / "surface.json").exists():
        sections.append(
            {
                "title": "Response surface: how low can the spread go?",
                "blocks": _surface_blocks(json.loads((folder / "surface.json").read_text()), names),
            }
        )
    if (folder / "best_rules.toml").exists():
        sections.append(
            {
                "title": "Best rules (ready for --rules)",
                "blocks": [f"<pre>{html.escape((folder / 'best_rules.toml').read_text())}</pre>"],
            }
        )
    return "Balance search", sections, met


def _verdict(summary: dict, names: PointNames) -> str:
    """The verdict box: the best candidate named for people, where it was re-run, whether every target was met."""
    best = summary.get("best")
    text = target_sentence(summary)
    if best is not None:
        alpha = float(best.get("alpha", 0.05))
        level = (
            f"confidence sequences at {100 * (1 - alpha):.1f} %, looked at {best['looks_inside']} times "
            f"(stopped: {best['stopped']})"
            if best.get("looks_inside")
            else f"its intervals at {100 * (1 - 2 * alpha):.1f} % (equivalence test: each inside its band)"
        )
        text = (
            f"{text} Best candidate (trial {best['trial']}): {names.point(best['point'])}; re-run on "
            f"{best['matches']:,} matches of fresh seeds (root seed {best['fresh_seed']}), {level}."
        )
    return f'<div class="verdict">{html.escape(text)}</div>'


def _check_row(candidate: dict, check: dict, names: PointNames) -> dict:
    """One target of one validated candidate (or the baseline) as a row of the candidates' table."""
    point = candidate.get("point")
    alpha = float(check.get("alpha", candidate.get("alpha", 0.05)))
    anytime = check.get("method") == "confidence sequence"
    shown = 1 - alpha if anytime else 1 - 2 * alpha
    return {
        "trial": str(candidate["trial"]),
        "rules": names.point(point) if isinstance(point, dict) else "baseline rules",
        "target": check["target"],
        "band": f"[{human_number(check['band'][0])}, {human_number(check['band'][1])}]",
        "value": check["value"],
        "CI level": f"{100 * shown:.1f} %{' (anytime)' if anytime else ''}",
        "CI low": check["ci_low"],
        "CI high": check["ci_high"],
        "design effect": check.get("design_effect", float("nan")),
        "met": "yes" if check["met"] else "no",
        "counts": "yes" if candidate.get("in_sequence", True) else "no (an earlier candidate missed)",
    }


def _cost_blocks(summary: dict) -> list[str]:
    """Where the matches went, the stages of the validation and the verdict by line-up."""
    blocks = []
    played = summary.get("matches_played")
    if played:
        blocks.append(
            _p(
                f"Matches played for this verdict: {played['search']:,} by the search (every trial, every "
                f"line-up) and {played['validation']:,} on fresh seeds, {played['total']:,} in all."
            )
        )
    stages = summary.get("stages") or []
    if len(stages) > 1 or any(s.get("excluded") for s in stages):
        text = "; ".join(
            f"look {s['look']} at {s['matches']:,} matches: "
            + (
                "met"
                if s["met"]
                else "a target shown outside its band"
                if s["excluded"]
                else "no α left"
                if not s["claimable"]
                else "undecided"
            )
            for s in stages
        )
        blocks.append(_p(f"Validation stages (nested sizes on the same fresh seeds, each a look): {text}."))
    verdicts = summary.get("lineup_verdicts") or {}
    if len(verdicts) > 1:
        blocks.append(
            _p(
                "By line-up (descriptive; the claim is every target on every line-up at once, an "
                "intersection-union test with every TOST at the look's α): "
                + ", ".join(f"{name} {'met' if ok else 'not met'}" for name, ok in verdicts.items())
                + "."
            )
        )
    return blocks


def _surface_blocks(surface: dict, names: PointNames | None = None) -> list[str]:
    """The response surface: the lowest spread the linear model allows, its best point named for people, its fits."""
    if "floor" not in surface:
        return [_p(surface.get("problem", "No surface was fitted."))]
    names = names or PointNames(SearchSpace(()))
    p = names.parameter(surface["parameter"])
    low, high = surface["floor_ci"]
    number = human_number
    blocks = [
        _p(
            f"Each of the {len(surface['metrics'])} metrics {surface['prefix']}* was fitted over {surface['trials']} trials "
            f"as a linear function of {surface['parameter']} ({len(surface['dimensions'])} dimensions); the smallest "
            f"spread (largest minus smallest fitted metric) anywhere in the space, by linear programming over the "
            f"continuous relaxation, is {number(surface['floor'])}, {100 * surface['confidence']:.0f} % CI "
            f"[{number(low)}, {number(high)}] (bootstrap over trials, {surface['bootstrap']} resamples); 95 % lower bound "
            f"{number(surface['floor_lower_95'])}."
        )
    ]
    if surface.get("point") is not None:
        value = surface["point"] if p is None or p.kind in ("int_list", "counts") else surface["point"][0]
        blocks.append(
            _p(
                f"The model's best integer point: {names.value(surface['parameter'], value)} (predicted "
                f"spread {number(surface['predicted_at_point'])}); it is validated on fresh seeds with the "
                "candidates when the file asks for it (trial 'surface')."
            )
        )
    if surface["bound"] == surface["bound"]:  # not NaN
        text = (
            f"Bound {surface['bound']:g}: {surface['verdict']}. Within the linear model: check the fits "
            "below (R², residual SD)."
        )
        blocks.append(f'<div class="verdict">{html.escape(text)}</div>')
    headers = names.dimension_names(p) if p is not None else {}
    fits = pd.DataFrame(
        [
            {
                "metric": f["metric"],
                "intercept": f["intercept"],
                "R²": f["r2"],
                "residual SD": f["residual_sd"],
                **{headers.get(k, k): v for k, v in f["coefficients"].items()},
            }
            for f in surface["fits"]
        ]
    )
    blocks.append(_human_table(fits))
    return blocks


def _sensitivity_sections(folder: Path) -> tuple[str, list[dict], bool]:
    from .sensitivity import readable_tables

    summary = json.loads((folder / "sensitivity.json").read_text())
    if "findings" not in summary:
        return (
            "Sensitivity analysis",
            [
                {
                    "title": "Rerun needed",
                    "blocks": [
                        _p(
                            "This directory was written by an earlier tablesim whose indices mixed the Monte Carlo noise with "
                            "the parameters' effects. Rerun tablesim sensitivity on its file to analyse it again."
                        )
                    ],
                }
            ],
            False,
        )
    sections = []
    for output, sentences in summary["findings"].items():
        if sentences:
            title = "Where the two methods differ" if output == "agreement" else f"What moves {output}"
            items = "".join(f"<li>{html.escape(sentence)}</li>" for sentence in sentences)
            sections.append({"title": title, "blocks": [f"<ul>{items}</ul>"]})
    sections.append(
        {
            "title": "Reading it",
            "blocks": [
                _p(
                    f"Each point played {summary['matches_per_point']:,} matches in {summary['replicates']} blocks of seeds, the "
                    "same blocks at every point. The indices are those of the mean response: the Monte Carlo noise is measured "
                    "from the blocks' spread and removed, and reported as its own share of a point's variance. Morris: the "
                    "root mean square elementary effect (output units per full range of the parameter) with a 95 % bootstrap "
                    "interval over trajectories; a parameter is an effect when a sign-flip test rejects 'no effect' at 5 % "
                    "divided by the number of parameters. Sobol: S1 is the share of the mean response's variance a parameter "
                    "explains alone, ST with its interactions, each with simultaneous 95 % intervals over the output's "
                    "indices; a parameter is an effect when its ST interval excludes 0. Both test the same hypothesis at the "
                    "same level, so they differ only in power. The dummy changes only the seeds: its true indices are 0."
                )
            ],
        }
    )
    for title, table in readable_tables(summary).items():
        sections.append({"title": title, "blocks": [table.to_html(index=False, border=0, escape=True)]})
    if (folder / "sensitivity.png").exists():
        data = base64.b64encode((folder / "sensitivity.png").read_bytes()).decode()
        sections.append({"title": "Plot", "blocks": [f'<img alt="sensitivity" src="data:image/png;base64,{data}">']})
    return "Sensitivity analysis", sections, True


def build_search_report(folder: str | Path, out_html: str | Path | None = None) -> Path:
    """Write the HTML report of a balance or sensitivity results directory; return its path."""
    folder = Path(folder)
    kind = json.loads((folder / "manifest.json").read_text()).get("kind")
    if kind == "balance":
        title, sections, ok = _balance_sections(folder)
    elif kind == "sensitivity":
        title, sections, ok = _sensitivity_sections(folder)
    else:
        raise ValueError(f"{folder}: not a balance or sensitivity directory (kind {kind!r})")
    game = json.loads((folder / "manifest.json").read_text()).get("game", "")
    text = (
        Environment(autoescape=False)
        .from_string(TEMPLATE)
        .render(
            title=f"{game}: {title}",
            folder=html.escape(str(folder)),
            sections=sections,
            colour="#2ca02c" if ok else "#d62728",
        )
    )
    path = Path(out_html) if out_html else folder / "report.html"
    path.write_text(text, encoding="utf-8")
    return path
