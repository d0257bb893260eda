"""Anytime-valid validation (``search.look_every``): a look after every few fresh matches, one α.

The fresh-seed tables are synthetic with a known truth (tests/balance/synthetic.py): seat 0 of
line-up L wins each match with probability truth[L]; the band is 0.5 ± 0.03.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis.balance.validation import validate
from sim.core.config import ConfigError

from .synthetic import balance_file, candidate, synthetic_play


def run(balance, out, truth, replicate=0, counter=None):
    return validate(
        balance,
        out,
        [candidate(balance, 0.5, 0.001)],
        jobs=1,
        backend="sequential",
        play=synthetic_play(truth, replicate, counter),
    )


def test_a_clear_candidate_is_claimed_before_the_cap_in_one_ledger_look(tmp_path):
    balance = balance_file(tmp_path, matches=20_000, look_every=200)
    played: list[int] = []
    summary = run(balance, tmp_path / "out", {"l0": 0.5}, counter=played)
    assert summary["meets_all_targets"] and summary["look"] == 1
    assert sum(played) < 20_000 and set(played) == {200}  # each look plays only its new matches
    looks = json.loads((tmp_path / "out" / "looks.json").read_text())["looks"]
    assert len(looks) == 1 and looks[0]["alpha"] == pytest.approx(0.05 / 3) and looks[0]["look_every"] == 200
    target = summary["best"]["targets"][0]
    assert target["method"] == "confidence sequence" and 0.47 <= target["ci_low"] < target["ci_high"] <= 0.53
    assert summary["best"]["looks_inside"] == len(played)


def test_a_candidate_outside_its_band_stops_at_once_and_claims_nothing(tmp_path):
    balance = balance_file(tmp_path, matches=20_000, look_every=200)
    played: list[int] = []
    summary = run(balance, tmp_path / "out", {"l0": 0.62}, counter=played)
    assert not summary["meets_all_targets"] and summary["shown_unmet"]
    assert sum(played) <= 2000 and summary["best"]["stopped"] == "a target missed"  # a tenth of the cap


def test_every_line_up_must_be_shown_inside_its_band(tmp_path):
    balance = balance_file(tmp_path, lineups=2, matches=6000, look_every=300)
    summary = run(balance, tmp_path / "out", {"l0": 0.5, "l1": 0.58})
    assert not summary["meets_all_targets"]
    verdicts = [t["verdict"] for t in summary["best"]["targets"]]
    assert verdicts[1] == "missed", verdicts


def test_a_target_without_bounds_is_refused_with_look_every(tmp_path):
    from analysis.balance.search import load_balance

    text = balance_file(tmp_path, look_every=200).path.read_text()
    path = tmp_path / "b.toml"
    path.write_text(text.replace("[search]", '[[targets]]\nmetric = "rounds_mean"\nlow = 1\nhigh = 9\n[search]'))
    with pytest.raises(ConfigError) as refused:
        load_balance(path)
    assert any(
        "search.look_every" in line and "rounds_mean" in line and "look_every = 0" in line
        for line in refused.value.problems
    ), refused.value.problems


@pytest.mark.slow
def test_on_the_band_edge_a_claim_is_made_at_most_alpha_of_the_time_however_often_it_looks(tmp_path):
    """Truth 0.53, the band's edge: the look's α_j = 0.05/3 bounds the false claims, with a look
    every 50 matches up to 1,000 (20 looks); tests/balance/anytime_truth.py prints the figures of
    more runs."""
    balance = balance_file(tmp_path, matches=1000, look_every=50)
    reps = 70
    claims = sum(
        run(balance, tmp_path / f"r{rep}", {"l0": 0.53}, replicate=rep)["meets_all_targets"] for rep in range(reps)
    )
    alpha = 0.05 / 3
    assert claims / reps <= alpha + 3 * np.sqrt(alpha * (1 - alpha) / reps), claims


@pytest.mark.slow
def test_a_fair_candidate_is_claimed_with_fewer_matches_than_the_staged_validation_plays(tmp_path):
    """Truth 0.5: the anytime validation claims about as often as one look of 8,000 matches, and
    stops on average well before it (common draws: the same replicates)."""
    reps = 25
    anytime, fixed, spent = 0, 0, []
    (tmp_path / "a").mkdir()
    (tmp_path / "f").mkdir()
    for rep in range(reps):
        played: list[int] = []
        anytime += run(
            balance_file(tmp_path / "a", matches=8000, look_every=250),
            tmp_path / f"a{rep}",
            {"l0": 0.5},
            replicate=rep,
            counter=played,
        )["meets_all_targets"]
        spent.append(sum(played))
        fixed += run(balance_file(tmp_path / "f", matches=8000), tmp_path / f"f{rep}", {"l0": 0.5}, replicate=rep)[
            "meets_all_targets"
        ]
    assert anytime >= fixed - 2 and np.mean(spent) < 0.8 * 8000, (anytime, fixed, np.mean(spent))


def test_the_balance_command_and_its_report_say_how_the_anytime_validation_stopped(tmp_path, capsys):
    from sim.cli import main

    file = balance_file(tmp_path, matches=2000, look_every=200).path
    out = tmp_path / "out"
    assert main(["balance", str(file), "--out", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "looks of 200 matches, stopped:" in text and "% anytime CI [" in text, text
    looks = json.loads((out / "looks.json").read_text())["looks"]
    assert len(looks) == 1 and looks[0]["look_every"] == 200 and looks[0]["finished"]
    report = tmp_path / "report.html"
    assert main(["report", str(out), "--out", str(report)]) == 0
    html = report.read_text()
    assert "confidence sequences at" in html and "(anytime)" in html


@pytest.mark.parametrize("low, high, verdict", [(4, 5, "met"), (6, 8, "missed"), (5, 5, "undecided")])
def test_a_length_quantile_is_decided_by_the_shares_below_its_band_edges(low, high, verdict):
    """Rounds 4, 5 or 6 with chances 0.3, 0.4, 0.3: the median is 5. Inside [4, 5] it is shown met;
    [6, 8] is missed (P(X < 6) = 0.7 ≥ 0.5); [5, 5] sits on F(5) = 0.7 and P(X < 5) = 0.3, met too
    given enough seeds, but not within 150 of them at this α (the sequences are wider)."""
    import pandas as pd

    from analysis.balance.sequential import monitors
    from analysis.balance.targets import Target

    rng = np.random.default_rng(4)
    rounds = rng.choice([4, 5, 6], size=4000, p=[0.3, 0.4, 0.3])
    seeds = np.arange(4000)
    tables = {
        "matches": pd.DataFrame({"lineup": "l0", "match": seeds, "seed": seeds, "rounds": rounds}),
        "players": pd.DataFrame(),
    }
    target = Target(metric="rounds_quantile", lineup="l0", quantile=0.5, low=low, high=high)
    seen = 4000 if verdict != "undecided" else 150
    monitor = monitors([target], 0.05 / 3, horizon=4000)[0]
    for stop in range(100, seen + 1, 50 if verdict == "undecided" else 100):
        monitor.extend({k: v[v["match"] < stop] if len(v) else v for k, v in tables.items()}, stop)
    assert monitor.verdict() == verdict
    result = monitor.result(tables)
    assert result["value"] == 5 and result["method"] == "confidence sequence"


def test_an_anytime_validation_after_a_staged_one_of_the_same_size_pays_its_own_look(tmp_path):
    out = tmp_path / "out"
    run(balance_file(tmp_path, matches=2000), out, {"l0": 0.5})
    again = run(balance_file(tmp_path, matches=2000, look_every=200), out, {"l0": 0.5})
    looks = json.loads((out / "looks.json").read_text())["looks"]
    assert [x["look"] for x in looks] == [1, 2] and again["look"] == 2
    assert looks[1]["alpha"] == pytest.approx(0.05 / 3) and looks[1]["look_every"] == 200
    third = run(balance_file(tmp_path, matches=2000, look_every=100), out, {"l0": 0.5})
    assert third["look"] == 3  # another step: another look
    assert run(balance_file(tmp_path, matches=2000, look_every=100), out, {"l0": 0.5})["look"] == 3  # a rerun
