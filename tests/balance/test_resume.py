"""A resumed search proposes the trials an uninterrupted one does: the sampler is replayed."""

from __future__ import annotations

import json

import pytest

from analysis.balance.search import load_balance, run_balance
from tests.core import toygame  # noqa: F401

FILE = """
game = "toy-dice"
seed = 5
matches = 90
[[lineups]]
name = "plain-vs-lucky"
players = ["plain", "lucky"]
[[parameters]]
key = "game.seat0_bonus"
kind = "int"
low = -4
high = 6
[[parameters]]
key = "dice.sides"
kind = "int"
low = 4
high = 8
[[targets]]
metric = "seat_win_rate"
seat = 0
target = 0.5
tolerance = 0.05
[search]
optimizer = "{optimizer}"
trials = 9
pruner = "{pruner}"
blocks = 3
first_rung = 10
validate_top = 1
validate_matches = 200
validate_baseline = false
"""

KEEP = ("number", "point", "params", "state", "values", "loss", "block_losses", "matches")


def trials_of(out):
    return [
        {k: t.get(k) for k in KEEP}
        for t in (json.loads(p.read_text()) for p in sorted((out / "trials").glob("*.json")))
    ]


@pytest.mark.parametrize(
    "optimizer, pruner", [("tpe", "halving"), ("tpe", "wilcoxon"), ("random", "halving"), ("ntbea", "halving")]
)
def test_a_search_cut_after_some_trials_resumes_into_the_uninterrupted_search(tmp_path, optimizer, pruner):
    path = tmp_path / "b.toml"
    path.write_text(FILE.format(optimizer=optimizer, pruner=pruner))
    whole = run_balance(load_balance(path), tmp_path / "whole", progress=False)
    cut = tmp_path / "cut"
    run_balance(load_balance(path), cut, progress=False)
    for stale in sorted((cut / "trials").glob("*.json"))[4:]:
        stale.unlink()  # as if killed after four trials, validation never reached
    for name in ("validation.json", "looks.json", "balance.json"):
        (cut / name).unlink()
    resumed = run_balance(load_balance(path), cut, progress=False)
    assert trials_of(cut) == trials_of(tmp_path / "whole")
    assert resumed["best"] == whole["best"] and resumed["meets_all_targets"] == whole["meets_all_targets"]


def test_a_sampler_that_no_longer_proposes_the_stored_trials_goes_on_from_them_with_a_warning(tmp_path, capsys):
    path = tmp_path / "b.toml"
    path.write_text(FILE.format(optimizer="tpe", pruner="halving"))
    out = tmp_path / "out"
    run_balance(load_balance(path), out, progress=False)
    first = out / "trials" / "0000.json"
    trial = json.loads(first.read_text())
    other = 6 if trial["params"]["game.seat0_bonus"] != 6 else -4  # not what the sampler asks
    trial["params"]["game.seat0_bonus"] = trial["point"]["game.seat0_bonus"] = other
    first.write_text(json.dumps(trial))
    for stale in sorted((out / "trials").glob("*.json"))[4:]:
        stale.unlink()
    capsys.readouterr()
    summary = run_balance(load_balance(path), out, progress=False)
    assert summary["trials"] == 9
    assert "the sampler no longer proposes the stored trials" in capsys.readouterr().err


def test_a_run_killed_inside_a_look_resumes_it_at_the_looks_alpha(tmp_path, monkeypatch):
    """Killed right after a look's first check is stored (validation.json written, the look not
    finished), the rerun takes up the same look at α/K — not the stored checks as a directory
    from before looks were recorded, one look at α = 0.05 — and ends as the uninterrupted run."""
    import analysis.balance.validation as validation

    path = tmp_path / "b.toml"
    path.write_text(FILE.format(optimizer="tpe", pruner="halving"))
    whole = tmp_path / "whole"
    run_balance(load_balance(path), whole, progress=False)
    write = validation._write

    def killed_after_writing(out, data):
        write(out, data)
        raise KeyboardInterrupt

    cut = tmp_path / "cut"
    monkeypatch.setattr(validation, "_write", killed_after_writing)
    with pytest.raises(KeyboardInterrupt):
        run_balance(load_balance(path), cut, progress=False)
    monkeypatch.setattr(validation, "_write", write)
    assert (cut / "validation.json").exists() and not (cut / "balance.json").exists()
    run_balance(load_balance(path), cut, progress=False)
    looks = {name: json.loads((tmp_path / name / "looks.json").read_text())["looks"] for name in ("whole", "cut")}
    assert [look["alpha"] for look in looks["cut"]] == [look["alpha"] for look in looks["whole"]] == [0.05 / 3]
    verdict = {
        name: {k: json.loads((tmp_path / name / "balance.json").read_text())[k] for k in ("best", "trials")}
        for name in ("whole", "cut")
    }
    assert verdict["cut"] == verdict["whole"]


def test_a_rerun_of_a_killed_search_says_it_resumes(tmp_path, capsys):
    from sim.cli import main

    path = tmp_path / "b.toml"
    path.write_text(FILE.format(optimizer="random", pruner="halving"))
    out = tmp_path / "cut"
    assert main(["balance", str(path), "--out", str(out), "--no-progress"]) == 0
    assert "resumed" not in capsys.readouterr().err
    for stale in sorted((out / "trials").glob("*.json"))[4:]:
        stale.unlink()  # as if killed after four trials
    (out / "balance.json").unlink()
    assert main(["balance", str(path), "--out", str(out), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert f"tablesim balance: resumed: 4 of 9 trials already stored in {out}" in err


def test_progress_off_a_terminal_is_a_line_every_half_minute_and_one_at_the_end(capsys):
    from sim.core.progress import LogProgress

    now = [0.0]
    bar = LogProgress(100, "trial", "balance", clock=lambda: now[0])
    for _ in range(10):
        now[0] += 10.0  # a trial every 10 s: a line every third trial
        bar.update(1)
    bar.close()
    assert capsys.readouterr().err.splitlines() == [
        "balance: 3 of 100 trials (0 min 30 s)",
        "balance: 6 of 100 trials (1 min 00 s)",
        "balance: 9 of 100 trials (1 min 30 s)",
        "balance: 10 of 100 trials (1 min 40 s)",
    ]
    quick = LogProgress(5, "match", "pig", clock=lambda: 0.0)
    quick.update(5)
    quick.close()
    assert capsys.readouterr().err == ""  # a run shorter than the interval prints nothing
