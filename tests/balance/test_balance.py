"""Balancing: a planted problem with a known answer is found, validated and resumable."""

import json

import numpy as np
import pytest

from analysis.balance.ntbea import NTBEA
from analysis.balance.search import load_balance, run_balance
from analysis.balance.space import Parameter, SearchSpace, repair_counts
from sim.core import ConfigError
from tests.core import toygame  # noqa: F401

PLANTED = """
game = "toy-dice"
seed = 3
matches = {matches}
[baseline]
set = {{ "game.target" = {target} }}   # short games: every test here runs in seconds
[[lineups]]
name = "plain-vs-lucky"
players = ["plain", "lucky"]        # seat 1 gets +1 per roll: seat0_bonus = 1 makes it fair
[[parameters]]
key = "game.seat0_bonus"
kind = "int"
low = -3
high = 5
[[targets]]
metric = "seat_win_rate"
seat = 0
target = 0.5
tolerance = {tolerance}
[search]
optimizer = "{optimizer}"
trials = {trials}
blocks = 2
validate_top = 2
validate_matches = {validate}
"""


def write(tmp_path, optimizer="tpe", trials=16, matches=300, validate=2000, tolerance=0.03, target=8):
    """The planted problem: to 8 points seat 1's +1 a roll is worth ~±0.15 of seat 0's win rate a
    step of seat0_bonus, so only bonus 1 is inside a ±0.05 band."""
    path = tmp_path / "balance.toml"
    path.write_text(
        PLANTED.format(
            optimizer=optimizer, trials=trials, matches=matches, validate=validate, tolerance=tolerance, target=target
        )
    )
    return path


@pytest.mark.parametrize("optimizer", ["tpe", "ntbea"])
def test_planted_first_seat_bonus_is_found_and_validated(tmp_path, optimizer):
    summary = run_balance(load_balance(write(tmp_path, optimizer, tolerance=0.05)), tmp_path / "out", progress=False)
    best = summary["best"]
    assert best["point"]["game.seat0_bonus"] == 1, best["point"]
    assert summary["meets_all_targets"], best["targets"]
    check = best["targets"][0]
    assert check["ci_low"] >= 0.45 and check["ci_high"] <= 0.55
    # the first of the three planned looks: a 1 − 2·(0.05/3) interval inside the band
    assert summary["look"] == 1 and summary["alpha_look"] == pytest.approx(0.05 / 3)
    assert check["alpha"] == pytest.approx(0.05 / 3)
    rules = (tmp_path / "out" / "best_rules.toml").read_text()
    assert "seat0_bonus" in rules


def test_a_target_missed_on_fresh_seeds_is_not_reported_as_met(tmp_path):
    path = write(tmp_path, "random", trials=4, matches=60)
    # an impossible band: 0.5 ± 0.001 cannot be shown on 2,000 fresh matches
    path.write_text(path.read_text().replace("tolerance = 0.03", "tolerance = 0.001"))
    summary = run_balance(load_balance(path), tmp_path / "out", progress=False)
    assert not summary["meets_all_targets"]
    assert all(not c["meets_all"] for c in json.loads((tmp_path / "out" / "validation.json").read_text())["candidates"])


def test_killed_search_resumes_from_its_stored_trials(tmp_path):
    path = write(tmp_path, "tpe", trials=6, matches=60, validate=200)
    out = tmp_path / "out"
    full = run_balance(load_balance(path), tmp_path / "full", progress=False)
    run_balance(load_balance(path), out, progress=False)
    for stale in sorted((out / "trials").glob("*.json"))[3:]:
        stale.unlink()  # as if killed after three trials
    (out / "validation.json").unlink()
    resumed = run_balance(load_balance(path), out, progress=False)
    assert resumed["trials"] == 6
    # the sampler is replayed: the three trials played after the kill are those of the uninterrupted search
    every = [json.loads(p.read_text())["point"] for p in sorted((tmp_path / "full" / "trials").glob("*.json"))]
    assert [json.loads(p.read_text())["point"] for p in sorted((out / "trials").glob("*.json"))] == every
    assert full["trials"] == resumed["trials"] and full["best"] == resumed["best"]


def test_bad_balance_files_name_the_problem(tmp_path):
    path = write(tmp_path)
    path.write_text(path.read_text().replace('key = "game.seat0_bonus"', 'key = "game.nope"'))
    with pytest.raises(ConfigError) as info:
        load_balance(path)
    assert any("game.nope: unknown key" in line for line in info.value.problems)
    path.write_text(write(tmp_path).read_text().replace("tolerance = 0.03", ""))
    with pytest.raises(ConfigError) as info:
        load_balance(path)
    assert info.value.problems == [f"{path}: targets[0].tolerance: must be > 0 with a target"]


def test_counts_keep_their_total_and_bounds():
    for raw in ([1, 1, 1, 1], [9, 0, 0, 0], [0, 0, 0, 0], [3.4, 2.2, 7.9, 1.0]):
        counts = repair_counts(raw, 1, 8, 20)
        assert sum(counts) == 20 and all(1 <= c <= 8 for c in counts)


def test_list_elements_merge_into_the_baseline_list():
    space = SearchSpace(
        (Parameter(key="zones.values[0]", kind="int", low=50, high=200),), {"zones": {"values": [100, 80, 40, 20]}}
    )
    assert space.overrides({"zones.values[0]": 150}) == [("zones.values", [150, 80, 40, 20])]


@pytest.mark.parametrize("seed", range(4))
def test_ntbea_gets_near_the_optimum_of_a_noisy_discrete_function(seed):
    """300 evaluations of a 1,000-point grid with noise σ = 1 (a unit step costs 1 or more)."""
    noise = np.random.default_rng(seed)
    dims = [(f"x{i}", list(range(10))) for i in range(3)]
    search = NTBEA(dims, np.random.default_rng(seed + 1), neighbours=30)
    for _ in range(300):
        point = search.ask()
        value = -sum((point[f"x{i}"] - (2 + 3 * i)) ** 2 for i in range(3)) + noise.normal(0, 1)
        search.tell(point, value)
    best = search.recommend()
    assert sum((best[f"x{i}"] - (2 + 3 * i)) ** 2 for i in range(3)) <= 2, best


def test_balance_and_sensitivity_reports(tmp_path, capsys):
    from sim.cli import main

    run_balance(
        load_balance(write(tmp_path, "random", trials=3, matches=40, validate=500)), tmp_path / "out", progress=False
    )
    assert main(["report", str(tmp_path / "out")]) == 0
    text = (tmp_path / "out" / "report.html").read_text()
    for needle in (
        "Verdict",
        "Validated candidates",
        "baseline rules",
        "Targets: every trial",
        "Convergence",
        "Every trial",
        "Best rules",
        "data:image/png",
    ):
        assert needle in text


def test_wilcoxon_pruner_stops_clearly_worse_trials_early(tmp_path):
    """With ten seed blocks, random trials far from the planted optimum stop after a few blocks."""
    path = write(tmp_path, "random", trials=12, matches=200, validate=500)
    path.write_text(path.read_text().replace("blocks = 2", "blocks = 10").replace("low = -3", "low = -8"))
    summary = run_balance(load_balance(path), tmp_path / "out", progress=False)
    trials = [json.loads(p.read_text()) for p in sorted((tmp_path / "out" / "trials").glob("*.json"))]
    pruned = [t for t in trials if t["state"] == "pruned"]
    assert summary["pruned"] == len(pruned) > 0
    for trial in pruned:
        assert len(trial["block_losses"]) < 10
        assert abs(trial["point"]["game.seat0_bonus"] - 1) >= 2, trial  # only bad points are cut
    assert all(len(t["block_losses"]) == 10 for t in trials if t["state"] == "complete")


def test_pull_steers_the_objective_to_the_band_centre():
    from analysis.balance.targets import Target, band_loss, objective

    flat = Target(metric="seat_win_rate", target=0.25, tolerance=0.02)
    pulled = Target(metric="seat_win_rate", target=0.25, tolerance=0.02, pull=0.1)
    assert band_loss([flat], [0.235]) == band_loss([flat], [0.25]) == 0.0
    assert objective([flat], [0.235]) == objective([flat], [0.25]) == 0.0
    assert objective([pulled], [0.25]) == 0.0
    assert objective([pulled], [0.235]) == pytest.approx(0.1 * 0.75**2)
    # outside the band the band loss dominates: 1 point out costs 0.25 plus the pull
    assert objective([pulled], [0.28]) == pytest.approx(0.25 + 0.1 * 1.5**2)


def test_match_bootstrap_keeps_every_drawn_copy_of_a_match():
    """A match drawn twice counts twice, even in metrics that de-duplicate by match key."""
    import pandas as pd

    from analysis.balance.targets import MatchResampler

    matches = pd.DataFrame(
        {"variant": "v", "lineup": "l", "match": [0, 1, 2], "rounds": [2, 1, 3], "original": [0, 1, 2]}
    )
    rounds = pd.DataFrame(
        {
            "variant": "v",
            "lineup": "l",
            "match": [2, 0, 2, 1, 2, 0],
            "round": [0, 0, 1, 0, 2, 1],
            "points": [20, 1, 21, 10, 22, 2],
        }
    )
    resample = MatchResampler({"matches": matches, "rounds": rounds})
    rng = np.random.default_rng(0)
    for _ in range(50):
        sample = resample(rng)
        drawn = sample["matches"]
        assert len(drawn) == 3 and list(drawn["match"]) == [0, 1, 2]
        # every copy brings all its rounds, under its new number
        assert len(sample["rounds"]) == int(drawn["rounds"].sum())
        assert len(sample["rounds"].drop_duplicates(["match", "round"])) == len(sample["rounds"])
        for copy, original in zip(drawn["match"], drawn["original"]):
            points = sorted(sample["rounds"].loc[sample["rounds"]["match"] == copy, "points"])
            assert points == sorted(rounds.loc[rounds["match"] == original, "points"])


def test_cli_refuses_to_resume_a_search_whose_file_changed(tmp_path, capsys):
    """A results directory holds one search: a changed balance file gets exit 2, nothing written."""
    from sim.cli import main

    path = write(tmp_path, "random", trials=2, matches=20, validate=400)
    out = tmp_path / "out"
    assert main(["balance", str(path), "--out", str(out), "--no-progress"]) == 0
    first = capsys.readouterr().out
    assert "look 1 of 3 planned, α = 0.0167 of the directory's α = 0.05" in first and "96.7 % CI" in first
    before = sorted(p.name for p in (out / "trials").iterdir())
    path.write_text(path.read_text().replace("matches = 20", "matches = 30"))
    capsys.readouterr()
    assert main(["balance", str(path), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{out}: holds a different run (balance differs" in err[0]
    assert sorted(p.name for p in (out / "trials").iterdir()) == before
    # the unchanged file resumes: nothing to play, same trials
    path.write_text(path.read_text().replace("matches = 30", "matches = 20"))
    assert main(["balance", str(path), "--out", str(out), "--no-progress"]) == 0
    assert sorted(p.name for p in (out / "trials").iterdir()) == before
    # more trials and a larger validation extend the same search
    path.write_text(
        path.read_text().replace("trials = 2", "trials = 3").replace("validate_matches = 400", "validate_matches = 420")
    )
    assert main(["balance", str(path), "--out", str(out), "--no-progress"]) == 0
    assert len(list((out / "trials").iterdir())) == 3
    validation = json.loads((out / "validation.json").read_text())
    assert {c["matches"] for c in validation["candidates"]} == {420} and validation["baseline"]["matches"] == 420
    # a confirmatory round re-validates everything on seeds no earlier validation used
    path.write_text(path.read_text() + "validation_round = 1\n")
    assert main(["balance", str(path), "--out", str(out), "--no-progress"]) == 0
    again = json.loads((out / "validation.json").read_text())
    assert {c["fresh_seed"] for c in again["candidates"]} == {3 + 2 * 1_000_003}
    assert again["baseline"]["fresh_seed"] == 3 + 2 * 1_000_003
    assert [c["targets"][0]["value"] for c in again["candidates"]] != [
        c["targets"][0]["value"] for c in validation["candidates"]
    ]
    # three looks, each recorded with the α it spent: 0.05 over the three planned looks
    looks = json.loads((out / "looks.json").read_text())
    assert [(x["look"], x["validation_round"], x["matches"]) for x in looks["looks"]] == [
        (1, 0, 400),
        (2, 0, 420),
        (3, 1, 420),
    ]
    assert [x["alpha"] for x in looks["looks"]] == pytest.approx([0.05 / 3] * 3)
    assert all(x["claimable"] for x in looks["looks"])
    # a fourth look has no α left: it is measured and shown, but it cannot claim anything
    path.write_text(path.read_text().replace("validation_round = 1", "validation_round = 2"))
    capsys.readouterr()
    assert main(["balance", str(path), "--out", str(out), "--no-progress"]) == 0
    assert "look 4: no α left (the directory's α = 0.05 is spent over its 3 planned looks)" in capsys.readouterr().out
    fourth = json.loads((out / "looks.json").read_text())["looks"][-1]
    assert (fourth["look"], fourth["alpha"], fourth["claimable"], fourth["meets_all_targets"]) == (4, 0.0, False, False)
    assert "no α left" in (out / "best_rules.toml").read_text()
    assert main(["report", str(out)]) == 0
    report = (out / "report.html").read_text()
    assert "Validation looks and the α they spend" in report and "no (α spent)" in report


def _validate_stored(tmp_path, candidates, in_sample):
    """Run the validation step on hand-made stored candidates (cached: nothing is played)."""
    from analysis.balance.validation import validate

    def play(*args, **kwargs):
        raise AssertionError("a stored validation was played again")

    path = write(tmp_path, "random", trials=2, matches=20, validate=6000)
    path.write_text(path.read_text() + "validate_baseline = false\n")
    out = tmp_path / "out"
    out.mkdir()
    stored = []
    for number, bonus, value, met in candidates:
        check = {
            "target": "seat_win_rate(seat 0) @plain-vs-lucky",
            "band": [0.47, 0.53],
            "value": value,
            "n": 6000,
            "ci_low": value - 0.01,
            "ci_high": value + 0.01,
            "met": met,
        }
        stored.append(
            {
                "trial": number,
                "point": {"game.seat0_bonus": bonus},
                "in_sample_loss": 0.0,
                "fresh_loss": 0.0 if met else 1.0,
                "matches": 6000,
                "fresh_seed": 3 + 1_000_003,
                "targets": [check],
                "meets_all": met,
            }
        )
    (out / "validation.json").write_text(json.dumps({"candidates": stored, "baseline": None}))
    trials = [
        {
            "number": c["trial"],
            "state": "complete",
            "loss": 0.0,
            "point": c["point"],
            "values": {"seat_win_rate(seat 0) @plain-vs-lucky": value},
        }
        for c, value in zip(stored, in_sample)
    ]
    return validate(load_balance(path), out, trials, jobs=1, backend="sequential", play=play), out


def test_among_candidates_meeting_every_target_the_one_nearest_the_centres_is_reported(tmp_path):
    # in sample trial 0 looked nearer the centre (so it is validated first); on fresh seeds trial 1 is
    summary, _ = _validate_stored(tmp_path, [(0, 0, 0.485, True), (1, 1, 0.503, True)], (0.500, 0.520))
    assert summary["best"]["trial"] == 1 and summary["meets_all_targets"]


def test_a_candidate_after_a_failed_one_is_not_claimed(tmp_path):
    """Fixed-sequence testing: once a candidate misses, later passes on the same seeds do not count."""
    summary, out = _validate_stored(tmp_path, [(0, 0, 0.46, False), (1, 1, 0.50, True)], (0.500, 0.505))
    assert summary["best"]["trial"] == 1 and summary["best"]["meets_all"]
    assert not summary["best"]["in_sequence"] and not summary["meets_all_targets"]
    assert (
        "an earlier candidate of the fixed test sequence missed a target, so nothing is claimed"
        in (out / "best_rules.toml").read_text()
    )


def test_each_trial_stores_the_game_metrics_of_each_lineup(tmp_path):
    """Side metrics (here Curlastique's) are kept per trial, for response surfaces and reports."""
    path = tmp_path / "zones.toml"
    path.write_text("""
game = "curlastique"
seed = 1
matches = 4
[baseline]
set = { "game.target_score" = 200 }
[[lineups]]
name = "duel"
players = ["club", "casual"]
[[parameters]]
key = "zones.values[0]"
kind = "int"
low = 100
high = 200
step = 50
[[targets]]
metric = "seat_win_rate"
target = 0.5
tolerance = 0.1
[search]
optimizer = "random"
trials = 5
blocks = 1
validate_top = 1
validate_matches = 4
validate_baseline = false
[surface]
prefix = "shot_share."
bound = 0.0
""")
    summary = run_balance(load_balance(path), tmp_path / "out", progress=False)
    for stored in sorted((tmp_path / "out" / "trials").glob("*.json")):
        metrics = json.loads(stored.read_text())["metrics"]
        assert set(metrics) == {"duel"}
        assert metrics["duel"]["mean_rounds"] > 0 and "zone_per_throw" in metrics["duel"]
    # the response surface over those metrics, and its best point validated beside the best trial
    surface = json.loads((tmp_path / "out" / "surface.json").read_text())
    assert surface == summary["surface"] and surface["metrics"][0].startswith("shot_share.")
    assert surface["floor"] >= -1e-9 and surface["point"][0] in (100, 150, 200)
    candidates = json.loads((tmp_path / "out" / "validation.json").read_text())["candidates"]
    points = [c["point"]["zones.values[0]"] for c in candidates]
    assert surface["point"][0] in points and len(points) == len(set(points))
    from sim.cli import main

    assert main(["report", str(tmp_path / "out")]) == 0
    assert "Response surface" in (tmp_path / "out" / "report.html").read_text()
