"""``tablesim balance`` and ``tablesim sensitivity``: searches over rule parameters."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..core.interrupts import ctrl_c_as_interrupt
from .common import (
    EXIT_INTERRUPTED,
    add_backend_options,
    check_backend,
    check_jobs,
    check_toml_file,
    cluster,
    command_line,
    package_versions,
    prepare_out,
    writing,
)


def cmd_balance(args: argparse.Namespace) -> int:
    from analysis.balance.search import load_balance, run_balance, stored_trial_count, trial_settings

    check_jobs(args.jobs)
    check_backend(args)
    check_toml_file("", args.file)
    balance = load_balance(args.file)
    out = Path(args.out or Path("results") / Path(args.file).stem)
    from ..core.config import to_dict

    # a search may be extended or re-validated, not changed
    identity = {
        "kind": "balance",
        "game": balance.spec.name,
        "seed": balance.settings.seed,
        "balance": to_dict(balance.settings),
    }
    keys = ("kind", "game", "seed", "balance")
    compared = {
        "balance": (lambda value: trial_settings(value or {}), "search.trials and the validation and surface settings")
    }
    store = prepare_out(out, identity, keys=keys, compared=compared)
    stored = stored_trial_count(out)
    if stored:  # said once the input is known to be good
        print(
            f"tablesim balance: resumed: {stored} of {balance.settings.search.trials} trials already stored in {out}",
            file=sys.stderr,
        )
    command = command_line(args)
    manifest = {"command": command, "versions": package_versions(), "balance_file": str(args.file)}
    with writing(store, command, identity, keys, compared):
        try:
            with ctrl_c_as_interrupt(), cluster(args):
                summary = run_balance(
                    balance, out, jobs=args.jobs, backend=args.backend, progress=args.progress, manifest=manifest
                )
        except KeyboardInterrupt:
            print(
                f"tablesim balance: interrupted; finished trials are stored in {out}; rerun the same command to resume",
                file=sys.stderr,
            )
            return EXIT_INTERRUPTED
    if args.format == "json":
        print(json.dumps(summary, indent=2))
        return 0
    _print_balance(balance, summary, out)
    return 0


def _look_line(summary: dict) -> str:
    """The look of the verdict: its number, its α and the directory's, or "no α left"."""
    look, alpha, total = summary.get("look", 1), summary.get("alpha_look", 0.05), summary.get("alpha_total", 0.05)
    planned = summary.get("looks_planned", 1)
    if not summary.get("claimable", True):
        return (
            f"look {look}: no α left (the directory's α = {total:g} is spent over its {planned} planned looks): "
            "measured and shown, not claimed"
        )
    from analysis.balance.validation import human_number

    return f"look {look} of {planned} planned, α = {human_number(alpha)} of the directory's α = {total:g}"


def _print_balance(balance, summary: dict, out: Path) -> None:
    """The text verdict of ``tablesim balance``: the best candidate named for people, its checks, one sentence."""
    from analysis.balance.validation import point_names, target_sentence

    best = summary["best"]
    print(
        f"{balance.spec.title} balance: {summary['trials']} trials ({summary['pruned']} pruned), "
        f"optimizer {summary['optimizer']}; results in {out}"
    )
    played = summary.get("matches_played")
    if played:
        print(
            f"matches played: {played['search']:,} by the search, {played['validation']:,} on fresh seeds "
            f"({played['total']:,} in all)"
        )
    if best is None:
        print(target_sentence(summary))
        return
    for stage in summary.get("stages", [])[:-1]:
        print(f"  look {stage['look']} ({stage['matches']:,} matches): undecided, went on to more matches")
    level = best["targets"][0].get("alpha", best.get("alpha", 0.05)) if best["targets"] else best.get("alpha", 0.05)
    shown = f"{100 * (1 - 2 * level):.1f} %"
    anytime = f"{100 * (1 - level):.1f} % anytime"
    print(f"best candidate (trial {best['trial']}): {point_names(balance).point(best['point'])}")
    if best.get("looks_inside"):
        print(
            f"validated on {best['matches']:,} matches of fresh seeds (root seed {best['fresh_seed']}), "
            f"{best['looks_inside']} looks of {balance.settings.search.look_every} matches, stopped: "
            f"{best['stopped']}; {_look_line(summary)}; the candidate's intervals are confidence sequences "
            f"at {anytime}, the baseline's at {shown} (1 − 2α of the look):"
        )
    else:
        print(
            f"validated on {best['matches']:,} matches of fresh seeds (root seed {best['fresh_seed']}), "
            f"{_look_line(summary)}; intervals at {shown} (1 − 2α of the look):"
        )
    rows = [("best", best)] + ([("baseline", summary["baseline"])] if summary.get("baseline") else [])
    for name, candidate in rows:
        for check in candidate["targets"]:
            print(_check_line(name, check, anytime if check.get("method") == "confidence sequence" else shown))
    verdicts = summary.get("lineup_verdicts") or {}
    if len(verdicts) > 1:
        print(
            "  by line-up (descriptive; the claim is all of them at once): "
            + ", ".join(f"{name} {'met' if ok else 'NOT met'}" for name, ok in verdicts.items())
        )
    print(target_sentence(summary))
    print(f"best rules: {out / 'best_rules.toml'}")


def _check_line(name: str, check: dict, shown: str) -> str:
    """One target of one candidate on fresh seeds: value, interval and band rounded for people;
    a worth spread names its most and least valuable choices."""
    from analysis.balance.validation import human_number as number

    low, high = check["band"]
    verdict = "met" if check["met"] else "NOT met"
    extremes = f" ({check['best']} − {check['worst']})" if check.get("best") and check.get("worst") else ""
    return (
        f"  {name:<9}{check['target']:<44} {number(check['value']):>7}  {shown} CI [{number(check['ci_low'])}, "
        f"{number(check['ci_high'])}]  band [{number(low)}, {number(high)}]  {verdict}{extremes}"
    )


def cmd_sensitivity(args: argparse.Namespace) -> int:
    from analysis.balance.sensitivity import load_sensitivity, run_sensitivity

    check_jobs(args.jobs)
    check_backend(args)
    check_toml_file("", args.file)
    problem = load_sensitivity(args.file)  # validate before anything is written
    out = Path(args.out or Path("results") / Path(args.file).stem)
    from ..core.config import to_dict

    identity = {
        "kind": "sensitivity",
        "game": problem.spec.name,
        "seed": problem.settings.seed,
        "settings": to_dict(problem.settings),
    }
    keys = ("kind", "game", "seed", "settings")
    store = prepare_out(out, identity, keys=keys)
    with writing(store, command_line(args), identity, keys):
        try:
            with ctrl_c_as_interrupt(), cluster(args):
                summary = run_sensitivity(args.file, out, jobs=args.jobs, backend=args.backend, progress=args.progress)
        except KeyboardInterrupt:
            print(
                f"tablesim sensitivity: interrupted; finished points are stored in {out}; rerun to resume",
                file=sys.stderr,
            )
            return EXIT_INTERRUPTED
    if args.format == "json":
        print(json.dumps(summary, indent=2))
        return 0
    from analysis.balance.sensitivity import text_report

    print(text_report(summary))
    print(f"\nplot, tables and report: tablesim report {out}")
    return 0


def add_parsers(sub) -> None:
    """Add this module's commands to the ``tablesim`` parser."""
    for name, func, text in (
        ("balance", cmd_balance, "search rule parameters for design targets"),
        ("sensitivity", cmd_sensitivity, "Morris then Sobol indices of rule parameters"),
    ):
        p = sub.add_parser(
            name,
            help=text,
            epilog=f"example: tablesim examples --copy examples && "
            f"tablesim {name} examples/curlastique_{name}.toml --jobs 2",
        )
        p.add_argument("file", help=f"the {name} TOML file")
        p.add_argument("--out", default=None, help="results directory (default results/<file stem>)")
        p.add_argument("--jobs", type=int, default=1, help="worker processes (-1: every core)")
        add_backend_options(p)
        p.add_argument("--format", choices=("text", "json"), default="text")
        p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
        p.set_defaults(func=func)
