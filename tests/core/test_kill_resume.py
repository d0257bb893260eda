"""SIGKILL at random moments, then a rerun, gives the uninterrupted tables.

Each test kills the same command several times at seeded random moments (before it has
written anything, while it writes the manifest, in the middle of chunks, with workers in
flight), resuming into the same directory each time, then lets a last rerun finish. The
tables (or, for ``balance``, the trials and the validated result) must equal those of a run
that was never interrupted: nothing lost, nothing duplicated, nothing half-written.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import pandas as pd
import pytest

from sim.core import load_tables
from tests.core.reliability import popen, run_cli, wait_for

pytestmark = pytest.mark.slow

KILLS = 4  # kills per command


def kill_at_random_moments(tmp_path: Path, argv: list, out: Path, seed: int, started=None) -> list[float]:
    """Start ``argv`` KILLS times, SIGKILL each (its whole session) at a seeded random moment."""
    rng = random.Random(seed)
    started = started or (lambda: (out / "manifest.json").exists())
    moments = []
    for attempt in range(KILLS):
        proc = popen(tmp_path, *argv)
        if attempt:  # the first is killed before or while it starts writing
            assert wait_for(lambda: started() or proc.poll() is not None, timeout=90)
        moment = rng.uniform(0.0, 1.5) if attempt else rng.uniform(0.0, 2.0)
        time.sleep(moment)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        moments.append(round(moment, 2))
    return moments


def assert_tables_equal(a: dict, b: dict) -> None:
    for table in ("matches", "players", "rounds", "events"):
        pd.testing.assert_frame_equal(a[table], b[table])
    keys = a["matches"][["variant", "lineup", "match"]]
    assert not keys.duplicated().any()


#: 240 matches of 40 ms each (the sleep of ``game.delay_s``): about 4.8 s of play on 2 workers,
#: longer than the kill moments after the first (1.27 + 1.15 + 0.38 s with seed 1, 4.5 s at most)
#: whatever the machine's speed. At 4 ms a match (0.5 s of play) the run relies on start-up costs
#: and can finish before the kills on a fast machine (as it did from a clean clone).
RUN_DELAY_S = 0.04


def test_run_killed_at_random_moments_then_rerun_equals_an_uninterrupted_run(tmp_path, capsys):
    argv = [
        "run",
        "toy-dice",
        "--matches",
        240,
        "--players",
        "plain,lucky,plain",
        "--seed",
        4,
        "--chunk-size",
        7,
        "--set",
        f"game.delay_s={RUN_DELAY_S}",
        "--no-progress",
    ]
    killed, whole = tmp_path / "killed", tmp_path / "whole"
    moments = kill_at_random_moments(tmp_path, [*argv, "--jobs", 2, "--out", killed], killed, seed=1)
    partial = len(load_tables(killed)["matches"]) if (killed / "matches").exists() else 0
    assert partial < 240, f"the run finished before the kills at {moments} s"
    code, _, err = run_cli(capsys, *argv, "--out", killed)
    assert code == 0, err
    assert run_cli(capsys, *argv, "--out", whole, "--chunk-size", 60, "--jobs", 2)[0] == 0
    assert_tables_equal(load_tables(killed), load_tables(whole))
    assert json.loads((killed / "manifest.json").read_text())["status"] == "complete"


#: 240 matches of 20 ms each (the sleep of ``game.delay_s``): about 5 s of play (one worker, the default),
#: longer than the four seeded kill moments (3.5 s in all), whatever the machine's speed.
EXPERIMENT = """
game = "toy-dice"
matches = 60
seed = 9
rotate_seats = true
chunk_size = 5
[baseline]
set = { "game.delay_s" = 0.02 }
[[variants]]
name = "loaded"
set = { "dice.faces" = [1, 2, 3, 4, 5, 12] }
[[lineups]]
name = "pl"
players = ["plain", "lucky"]
[[lineups]]
name = "p/l"
players = ["lucky", "plain", "plain"]
"""


def test_experiment_killed_at_random_moments_then_rerun_equals_an_uninterrupted_run(tmp_path, capsys):
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT)
    killed, whole = tmp_path / "killed", tmp_path / "whole"
    argv = ["experiment", path, "--no-progress"]
    moments = kill_at_random_moments(tmp_path, [*argv, "--out", killed], killed, seed=2)
    partial = len(load_tables(killed)["matches"]) if (killed / "matches").exists() else 0
    assert partial < 240, f"the experiment finished before the kills at {moments} s"
    code, stdout, err = run_cli(capsys, *argv, "--out", killed)
    assert code == 0, err
    assert f"240 matches stored in {killed}" in stdout
    assert run_cli(capsys, *argv, "--out", whole)[0] == 0
    assert_tables_equal(load_tables(killed), load_tables(whole))


BALANCE = """
game = "toy-dice"
seed = 3
matches = 60
[[lineups]]
name = "plain-vs-lucky"
players = ["plain", "lucky"]
[baseline]
set = {{ "game.delay_s" = 0.002 }}
[[parameters]]
key = "game.seat0_bonus"
kind = "int"
low = -3
high = 5
[[targets]]
metric = "seat_win_rate"
seat = 0
target = 0.5
tolerance = 0.05
[search]
optimizer = "{optimizer}"
trials = 6
pruner = "{pruner}"
blocks = 2
first_rung = 20
validate_top = 2
validate_matches = 100
bootstrap = 50
"""


def balance_result(out: Path) -> tuple[list, dict]:
    trials = [json.loads(p.read_text()) for p in sorted((out / "trials").glob("*.json"))]
    keep = ("number", "point", "params", "state", "values", "loss", "block_losses")
    summary = json.loads((out / "balance.json").read_text())
    return [{k: t[k] for k in keep} for t in trials], {"best": summary["best"], "trials": summary["trials"]}


@pytest.mark.parametrize(
    "optimizer, pruner", [("ntbea", "none"), ("tpe", "wilcoxon"), ("tpe", "halving"), ("random", "halving")]
)
def test_balance_killed_at_random_moments_then_rerun_equals_an_uninterrupted_search(
    tmp_path, capsys, optimizer, pruner
):
    path = tmp_path / "balance.toml"
    path.write_text(BALANCE.format(optimizer=optimizer, pruner=pruner))
    killed, whole = tmp_path / "killed", tmp_path / "whole"
    argv = ["balance", path, "--no-progress"]
    started = lambda: (killed / "trials").is_dir()  # noqa: E731  (kill once trials are being written)
    moments = kill_at_random_moments(tmp_path, [*argv, "--out", killed], killed, seed=3, started=started)
    assert not (killed / "balance.json").exists(), f"the search finished before the kills at {moments} s"
    code, _, err = run_cli(capsys, *argv, "--out", killed)
    assert code == 0, err
    assert run_cli(capsys, *argv, "--out", whole)[0] == 0
    assert balance_result(killed) == balance_result(whole)
