"""Sensitivity: the indices of the mean response, each verdict a test against the Monte Carlo noise."""

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.balance.indices import EFFECT, INTERACTION, NO_EFFECT, noise_summary, reconcile, sobol_indices
from analysis.balance.sensitivity import DUMMY, analyse_function, findings, load_sensitivity, run_sensitivity
from tests.balance.noisy_ishigami import CASES, PARAMETERS, Noise, Tally, analyse, ishigami, truth
from tests.core import toygame  # noqa: F401

FILE = """
game = "toy-dice"
seed = 4
matches = 30
[[lineups]]
name = "pl"
players = ["plain", "lucky"]
[[parameters]]
key = "game.seat0_bonus"
kind = "float"
low = -2.0
high = 4.0
[[parameters]]
key = "game.max_rounds"     # the game always ends long before: no effect
kind = "int"
low = 40
high = 60
[[outputs]]
metric = "seat_win_rate"
seat = 0
[[outputs]]
metric = "rounds_mean"
[morris]
trajectories = 6
[sobol]
samples = 16
top = 2
"""


def test_the_bonus_is_an_effect_and_a_rule_that_never_binds_and_the_dummy_are_not(tmp_path):
    path = tmp_path / "sens.toml"
    path.write_text(FILE)
    summary = run_sensitivity(path, tmp_path / "out", jobs=1, progress=False)
    assert summary["replicates"] == 10  # 30 matches a point: ten blocks of three seeds
    morris = pd.read_csv(tmp_path / "out" / "morris.csv").set_index(["output", "parameter"])
    for output in ("seat_win_rate(seat 0) @pl", "rounds_mean @pl"):
        assert morris.loc[(output, "game.seat0_bonus"), "verdict"] == EFFECT
        assert morris.loc[(output, "game.seat0_bonus"), "p_value"] < 0.01
        # common random numbers: a rule that never binds changes no table, its effects are exactly 0
        assert morris.loc[(output, "game.max_rounds"), "ee_rms"] == 0.0
        assert morris.loc[(output, "game.max_rounds"), "p_value"] == 1.0
        assert morris.loc[(output, DUMMY), "verdict"] == NO_EFFECT
    sobol = pd.read_csv(tmp_path / "out" / "sobol.csv").set_index(["output", "parameter"])
    assert sobol.loc[("seat_win_rate(seat 0) @pl", "game.seat0_bonus"), "verdict"] == EFFECT
    assert (sobol.xs(DUMMY, level="parameter")["verdict"] == NO_EFFECT).all()
    assert sobol.xs(DUMMY, level="parameter")["dummy"].all()
    assert ((sobol["ST_low"] <= sobol["ST"]) & (sobol["ST"] <= sobol["ST_high"])).all()
    noise = pd.read_csv(tmp_path / "out" / "noise.csv")
    assert ((noise["noise_share"] > 0) & (noise["noise_share"] < 0.5)).all()
    findings = summary["findings"]["seat_win_rate(seat 0) @pl"]
    assert findings[0].startswith("Shown to move its mean (Sobol, simultaneous 95 % intervals): game.seat0_bonus")
    assert any(line.startswith("Monte Carlo noise is ") for line in findings)
    assert "rightly called no effect" in findings[-1]
    assert (tmp_path / "out" / "sensitivity.png").stat().st_size > 1000
    # rerunning resumes from the stored points: nothing is replayed
    parts = {p: p.stat().st_mtime_ns for p in (tmp_path / "out" / "morris" / "matches").glob("*.parquet")}
    run_sensitivity(path, tmp_path / "out", jobs=1, progress=False)
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "out" / "morris" / "matches").glob("*.parquet")} == parts


def test_the_command_prints_findings_and_rounded_tables_and_its_report_says_the_same(tmp_path, capsys):
    from sim.cli import main

    path = tmp_path / "sens.toml"
    path.write_text(FILE.replace("trajectories = 6", "trajectories = 3").replace("samples = 16", "samples = 8"))
    out = tmp_path / "out"
    assert main(["sensitivity", str(path), "--out", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "30 matches per point in 10 blocks of seeds" in " ".join(text.split())
    assert "Sobol, seat_win_rate(seat 0) @pl:" in text and "ST [simultaneous 95 % CI]" in text
    assert "Monte Carlo noise:" in text
    # numbers rounded for people: no figure with more than four significant digits
    assert not re.search(r"\d\.\d{5,}", text), text
    assert max(len(line) for line in text.splitlines()) <= 160
    assert main(["report", str(out)]) == 0
    page = (out / "report.html").read_text()
    assert "What moves seat_win_rate(seat 0) @pl" in page and "Monte Carlo noise is" in page
    assert not re.search(r"\d\.\d{5,}", page.split("data:image/png")[0])


def test_a_count_of_matches_that_blocks_cannot_split_is_one_line_and_exit_2(tmp_path, capsys):
    from sim.cli import main

    path = tmp_path / "sens.toml"
    path.write_text(FILE.replace("matches = 30", "matches = 30\nreplicates = 4"))
    assert main(["sensitivity", str(path), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "matches: got 30; allowed: a multiple of 4" in err[0], err
    assert not (tmp_path / "out").exists()


def test_cli_refuses_a_sensitivity_directory_of_another_analysis(tmp_path, capsys):
    from sim.cli import main

    (tmp_path / "a.toml").write_text(
        FILE.replace("trajectories = 6", "trajectories = 2").replace("samples = 16", "samples = 2")
    )
    out = tmp_path / "out"
    assert main(["sensitivity", str(tmp_path / "a.toml"), "--out", str(out), "--no-progress"]) == 0
    (tmp_path / "b.toml").write_text((tmp_path / "a.toml").read_text().replace("seed = 4", "seed = 5"))
    capsys.readouterr()
    assert main(["sensitivity", str(tmp_path / "b.toml"), "--out", str(out), "--no-progress"]) == 2
    assert "holds a different run (seed differs)" in capsys.readouterr().err


EXAMPLE = Path(__file__).resolve().parents[2] / "sim" / "curlastique" / "examples" / "curlastique_sensitivity.toml"


def _ishigami(X, stage):
    """Ishigami of the first three columns, no noise (a dummy column, if any, is ignored)."""
    return ishigami(X)[:, None]


def _example_settings(seed=None):
    """The example file's settings (its Morris and Sobol sizes), read, not changed."""
    settings = load_sensitivity(EXAMPLE).settings
    return settings if seed is None else replace(settings, seed=seed)


def test_ishigami_indices_lie_in_their_intervals_at_the_example_size():
    """The code of ``tablesim sensitivity`` on noise-free Ishigami at the example's size and seed."""
    s1, st, _ = truth()
    assert [round(s1[k], 3) for k in ("x1", "x2", "x3")] == [0.314, 0.442, 0.0]
    assert [round(st[k], 3) for k in ("x1", "x2", "x3")] == [0.558, 0.442, 0.244]
    settings = _example_settings()
    assert (settings.sobol.samples, settings.morris.trajectories, settings.seed) == (32, 10, 5)
    result = analyse_function(_ishigami, settings, PARAMETERS, ["y"], DUMMY)
    assert result.sobol_points == 32 * (4 + 2) and set(result.sobol["parameter"]) == {"x1", "x2", "x3", DUMMY}
    rows = result.sobol.set_index("parameter")
    for name in ("x1", "x2", "x3"):
        assert rows.loc[name, "S1_low"] <= s1[name] <= rows.loc[name, "S1_high"], (name, rows.loc[name])
        assert rows.loc[name, "ST_low"] <= st[name] <= rows.loc[name, "ST_high"], (name, rows.loc[name])
    assert not rows.loc["x3", "S1_effect"]  # x3 acts only through its interaction with x1
    # a dummy that changes nothing, on a function with no noise: exactly 0, no effect, no noise
    assert rows.loc[DUMMY, ["S1", "ST", "S1_high", "ST_high"]].tolist() == [0.0, 0.0, 0.0, 0.0]
    assert rows.loc[DUMMY, "verdict"] == NO_EFFECT and rows.loc[DUMMY, "dummy"]
    assert result.noise["y"].share == 0.0
    morris = result.morris.set_index("parameter")
    assert (morris.loc[["x1", "x2", "x3"], "verdict"] == EFFECT).all()  # no noise: any effect is seen
    assert morris.loc[DUMMY, "verdict"] == NO_EFFECT and morris.loc[DUMMY, "ee_rms"] == 0.0


@pytest.mark.slow
def test_ishigami_intervals_hold_their_simultaneous_level_at_the_example_size():
    """Over 300 Saltelli samples of N = 32: P(every true index inside its interval) ≥ 0.95.

    SALib's own ``*_conf`` (normal bootstrap, 100 resamples, 95 % per index) covers all six
    true indices far less often at this size; x3's first-order index is (almost) never an effect.
    """
    from SALib.analyze import sobol as sobol_analyze
    from SALib.sample import sobol as sobol_sample

    s1, st, _ = truth()
    reps = 300
    covered = salib_covered = x3_effect = 0
    for seed in range(reps):
        sobol = analyse_function(_ishigami, _example_settings(seed), PARAMETERS, ["y"], DUMMY).sobol
        rows = sobol.set_index("parameter")
        covered += all(
            rows.loc[k, "S1_low"] <= s1[k] <= rows.loc[k, "S1_high"]
            and rows.loc[k, "ST_low"] <= st[k] <= rows.loc[k, "ST_high"]
            for k in s1
        )
        x3_effect += bool(rows.loc["x3", "S1_effect"])
        problem = {"num_vars": 4, "names": list(rows.index), "bounds": [[-np.pi, np.pi]] * 3 + [[0, 1]]}
        X = sobol_sample.sample(problem, 32, calc_second_order=False, seed=seed)
        result = sobol_analyze.analyze(problem, _ishigami(X, "")[:, 0], calc_second_order=False, seed=seed)
        salib_covered += all(
            abs(result["S1"][i] - s1[k]) <= result["S1_conf"][i]
            and abs(result["ST"][i] - st[k]) <= result["ST_conf"][i]
            for i, k in enumerate(("x1", "x2", "x3"))
        )
    se = np.sqrt(0.05 * 0.95 / reps)
    assert covered / reps >= 0.95 - 3 * se, covered / reps
    assert salib_covered / reps < 0.85, salib_covered / reps
    assert x3_effect / reps <= 0.05, x3_effect / reps


def test_sobol_indices_of_a_plain_function_find_its_effects_with_enough_samples():
    """At N = 512 the intervals are tight enough to call x1, x2 and x3 (total) effects."""
    space = [("x1", -np.pi, np.pi), ("x2", -np.pi, np.pi), ("x3", -np.pi, np.pi)]
    rows = sobol_indices(lambda X: _ishigami(X, ""), space, 512, seed=1).set_index("parameter")
    assert rows.loc["x1", "verdict"] == rows.loc["x2", "verdict"] == EFFECT
    assert rows.loc["x3", "verdict"] == INTERACTION  # total effect, no first-order effect
    s1, st, _ = truth()
    for k in s1:
        assert rows.loc[k, "S1_low"] <= s1[k] <= rows.loc[k, "S1_high"]
        assert rows.loc[k, "ST_low"] <= st[k] <= rows.loc[k, "ST_high"]


# ---- known truth with noise: the indices of the mean response, whatever the noise ----------


@pytest.mark.slow
def test_noisy_ishigami_recovers_the_noise_free_indices_at_their_level():
    """Gaussian and binomial noise at 30, 60 and 90 % of a point's variance, N = 256, 100 runs each.

    Every true index (the dummy's 0 included) lies in its simultaneous 95 % interval in at least
    95 % of runs (within Monte Carlo error), the dummy is called an effect by either method in
    at most 5 % of runs, and the noise share is estimated without bias.
    """
    reps = 100
    tallies = []
    for case in CASES:
        tally = Tally()
        for seed in range(reps):
            tally.add(analyse(case, seed))
        tallies.append(tally)
        assert tally.covered / reps >= 0.95 - 3 * np.sqrt(0.05 * 0.95 / reps), (case, tally)
        assert abs(tally.share_sum / reps - case.share) < 0.03, (case, tally)
    runs = reps * len(CASES)
    pooled = sum(t.covered for t in tallies) / runs
    assert pooled >= 0.95 - 3 * np.sqrt(0.05 * 0.95 / runs), pooled
    for method in ("dummy_sobol", "dummy_morris"):
        rate = sum(getattr(t, method) for t in tallies) / runs
        assert rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / runs), (method, rate)


def test_at_low_noise_the_parameters_are_found_and_at_high_noise_the_run_says_it_cannot_tell():
    low = analyse(Noise("gaussian", 0.1), seed=3)
    assert set(low.sobol.loc[low.sobol["verdict"] != NO_EFFECT, "parameter"]) == {"x1", "x2", "x3"}
    high = analyse(Noise("gaussian", 0.97), seed=3, samples=32)
    assert (high.sobol.loc[~high.sobol["dummy"], "verdict"] == NO_EFFECT).all()
    summary = {
        "outputs": ["y"],
        "morris": high.morris.to_dict("records"),
        "sobol": high.sobol.to_dict("records"),
        "noise": noise_summary(high.noise, 100),
        "reconciliation": high.reconciliation,
    }
    sentence = next(s for s in findings(summary)["y"] if s.startswith("Monte Carlo noise"))
    assert "too small to tell" in sentence and "matches per point" in sentence, sentence


def test_matches_needed_follows_the_noise_that_falls_as_one_over_the_matches():
    """Gaussian noise at 60 %: σ² = 1.5 V at m matches, so a share of 20 % needs 4 · 1.5 · m = 6 m."""
    needed = [
        analyse(Noise("gaussian", 0.6), seed=seed, samples=512).noise["y"].matches_needed(100) for seed in range(3)
    ]
    for value, floor in needed:
        assert not floor and 400 <= value <= 900, needed


def test_the_two_methods_differing_is_explained_not_left_as_a_contradiction():
    morris = pd.DataFrame(
        [
            {"output": "y", "parameter": "a", "ee_rms": 1.0, "p_value": 0.001, "verdict": EFFECT, "dummy": False},
            {"output": "y", "parameter": "b", "ee_rms": 0.1, "p_value": 0.4, "verdict": NO_EFFECT, "dummy": False},
            {"output": "y", "parameter": "c", "ee_rms": 0.5, "p_value": 0.001, "verdict": EFFECT, "dummy": False},
        ]
    )
    sobol = pd.DataFrame(
        [
            {
                "output": "y",
                "parameter": "a",
                "ST": 0.3,
                "ST_low": 0.0,
                "ST_high": 0.8,
                "verdict": NO_EFFECT,
                "dummy": False,
            },
            {
                "output": "y",
                "parameter": "b",
                "ST": 0.4,
                "ST_low": 0.1,
                "ST_high": 0.7,
                "verdict": EFFECT,
                "dummy": False,
            },
        ]
    )
    sentences = reconcile(morris, sobol, samples=32, trajectories=10)
    assert len(sentences) == 3
    assert sentences[0].startswith("a on y: an effect by Morris (p = 0.001), not shown by Sobol (ST 0.30 [0.00, 0.80]")
    assert "Not a contradiction" in sentences[0] and "32 base samples" in sentences[0]
    assert sentences[1].startswith("b on y: an effect by Sobol") and "10 trajectories" in sentences[1]
    assert sentences[2].startswith("c on y: an effect by Morris") and "not in the Sobol stage" in sentences[2]
