"""Anytime-valid stopping: the confidence sequence, its verdicts against a known truth, the experiment's [stopping]."""

import json

import numpy as np
import pytest
from scipy import stats

from sim.core import ConfigError, ResultStore, load_tables
from sim.core.completeness import completeness_of
from sim.core.experiment import load_experiment, run_experiment
from sim.core.sequential import betting_cs
from tests.core.stopping_truth import effect_signs, fairness_verdicts
from tests.core.test_experiment import write

from . import toygame  # noqa: F401

RULE = '[stopping]\nfairness = 0.05\neffect = "lucky"\neffect_margin = 0.05\nmax_matches = 3000\nstep = 24\n'


def test_the_sequence_holds_the_mean_at_every_look_where_a_fixed_interval_does_not():
    rng, reps, seeds, p = np.random.default_rng(0), 400, 300, 0.3
    ever_missed = wald_missed = 0
    for _ in range(reps):
        x = rng.binomial(4, p, seeds) / 4  # a seat's share of each seed's four rotations
        r = betting_cs(x, 0.05)  # the running intersection: a miss at any look is a miss here
        ever_missed += not (r.low <= p <= r.high)
        t = np.arange(1, seeds + 1)
        mean = np.cumsum(x) / t
        sd = np.sqrt(np.maximum(np.cumsum(x**2) / t - mean**2, 1e-12) / t)
        wald_missed += bool((np.abs(mean - p)[9:] > stats.norm.isf(0.025) * sd[9:]).any())
    assert ever_missed / reps <= 0.05
    assert wald_missed / reps > 0.25  # a 95 % interval looked at after every seed from the tenth


def test_the_sequence_costs_less_than_twice_the_width_of_a_fixed_interval_at_1000_seeds():
    x = np.random.default_rng(1).binomial(4, 0.3, 1000) / 4
    r = betting_cs(x, 0.05)
    fixed = stats.norm.isf(0.025) * x.std() / np.sqrt(x.size)
    assert r.low <= x.mean() <= r.high and r.half_width < 2.0 * fixed


def test_fairness_at_the_band_edge_is_never_answered_wrongly_and_a_fair_lineup_is_answered_fair():
    edge = fairness_verdicts(2, 0.55, "negative", 300, 100, 0.05)
    assert edge["truth"] == pytest.approx(0.55, abs=1e-9)
    assert edge["fair"] + edge["unfair"] <= 0.05  # a look after every seed, 300 seeds
    fair = fairness_verdicts(2, 0.5, "negative", 600, 30, 0.05)
    assert fair["fair"] >= 0.6 and fair["unfair"] == 0.0


def test_a_variant_without_effect_gets_no_sign_and_a_real_effect_gets_its_own():
    null = effect_signs(2, "negative", 0.0, 400, 100)
    assert null["raises"] + null["lowers"] <= 0.05
    real = effect_signs(2, "none", 1.0, 400, 20)
    assert real["effect"] > 0.1 and real["raises"] >= 0.9 and real["lowers"] == 0.0


def _stopping_run(tmp_path, jobs=1):
    path = write(tmp_path, matches=24, extra=RULE)
    out = tmp_path / f"out{jobs}"
    tables = run_experiment(load_experiment(path), ResultStore(out), progress=False, jobs=jobs)
    return out, tables, json.loads((out / "manifest.json").read_text())


@pytest.fixture(scope="module")
def stopped(tmp_path_factory):
    """One experiment run under the rule: (its folder, the results directory, tables, manifest)."""
    folder = tmp_path_factory.mktemp("stopping")
    return (folder, *_stopping_run(folder))


def test_each_cell_stops_once_answered_and_a_rerun_plays_nothing_and_decides_the_same(stopped, tmp_path):
    folder, out, tables, manifest = stopped
    records = {r["variant"]: r for r in manifest["stopping"]}
    # the loaded die lowers lucky's win rate: answered before the identical variant is shown negligible
    assert records["loaded-die"]["answers"] == {"fairness": "fair", "effect": "lowers"}
    assert records["same-as-baseline"]["answers"]["effect"] == "within ±5 points"
    assert records["loaded-die"]["matches"] < records["same-as-baseline"]["matches"] < 3000
    # the baseline plays on while a variant of its line-up does (effects are paired)
    assert records["baseline"]["matches"] == max(r["matches"] for r in records.values())
    played = tables["matches"].groupby("variant").size().to_dict()
    assert played == {variant: r["matches"] for variant, r in records.items()}
    assert completeness_of(out, manifest, tables["matches"]).complete
    parts = {p: p.stat().st_mtime_ns for p in (out / "matches").glob("*.parquet")}
    again = run_experiment(load_experiment(folder / "exp.toml"), ResultStore(out), progress=False)
    assert {p: p.stat().st_mtime_ns for p in (out / "matches").glob("*.parquet")} == parts
    assert json.loads((out / "manifest.json").read_text())["stopping"] == manifest["stopping"]
    assert len(again["matches"]) == len(tables["matches"])


def test_stopping_does_not_depend_on_the_workers(stopped, tmp_path):
    _, _, one, first = stopped
    _, two, second = _stopping_run(tmp_path, jobs=2)
    assert first["stopping"] == second["stopping"]
    assert one["players"].equals(two["players"])


def test_a_run_stopped_halfway_resumes_to_the_same_stops(tmp_path):
    path = write(tmp_path, matches=24, extra=RULE.replace("max_matches = 3000", "max_matches = 96"))
    run_experiment(load_experiment(path), ResultStore(tmp_path / "out"), progress=False)  # capped early
    path.write_text(write(tmp_path, matches=24, extra=RULE).read_text())
    resumed = run_experiment(load_experiment(path), ResultStore(tmp_path / "out"), progress=False)
    fresh = tmp_path / "fresh"
    run_experiment(load_experiment(path), ResultStore(fresh), progress=False)
    assert load_tables(fresh)["players"].equals(resumed["players"])
    stops = [json.loads((folder / "manifest.json").read_text())["stopping"] for folder in (tmp_path / "out", fresh)]
    assert stops[0] == stops[1]


def test_the_report_says_where_each_cell_stopped_and_why(stopped, tmp_path):
    from analysis.report import build_report

    out = stopped[1]
    build_report(out, tmp_path / "report.html")
    html = (tmp_path / "report.html").read_text()
    assert "Where each cell stopped" in html and "effect: lowers" in html
    assert "status: complete" in html and "planned (incomplete)" not in html
    # the experiment file the report rebuilds from the manifest loads as it stands, rule included
    from analysis.report import _experiment_toml

    rebuilt = tmp_path / "rebuilt.toml"
    rebuilt.write_text(_experiment_toml(stopped[3]))
    assert load_experiment(rebuilt).settings.stopping == load_experiment(stopped[0] / "exp.toml").settings.stopping


@pytest.mark.parametrize(
    "rule, message",
    [
        (
            '[stopping]\neffect = "  "\n',
            "stopping.effect: got '  '; allowed: \"seat N\" (N a seat number) or a profile",
        ),
        ('[stopping]\neffect = "seat 7"\n', "stopping.effect: got 'seat 7'; the line-ups have seats 0 to 1"),
        (
            '[stopping]\neffect = "wizard"\n',
            "stopping.effect: got 'wizard'; allowed: \"seat N\" or a profile of the line-ups (lucky, plain)",
        ),
        ("[stopping]\nfairness = 0.02\n[precision]\nhalf_width = 0.05\n", "give [precision] or [stopping], not both"),
        ("[stopping]\nfairness = 0.02\nmax_matches = 10\n", "stopping.max_matches: must be >= matches (24)"),
    ],
)
def test_a_bad_stopping_rule_is_named(tmp_path, rule, message):
    path = write(tmp_path, matches=24, extra=rule)
    with pytest.raises(ConfigError) as info:
        load_experiment(path)
    assert any(message in line for line in info.value.problems), info.value.problems


def test_a_cell_asked_nothing_stops_at_the_first_look_and_says_why(tmp_path):
    path = write(tmp_path, matches=24, extra="[stopping]\nfairness = 0.05\n")
    path.write_text(path.read_text().replace("rotate_seats = true", "rotate_seats = false"))  # plain vs lucky, fixed
    run_experiment(load_experiment(path), ResultStore(tmp_path / "out"), progress=False)
    stops = json.loads((tmp_path / "out" / "manifest.json").read_text())["stopping"]
    assert {r["matches"] for r in stops} == {24}
    assert all(r["reason"].startswith("no question is asked of this cell (fairness needs seat rotation") for r in stops)
