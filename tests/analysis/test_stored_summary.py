"""A run's summary read from its results directory slice by slice equals the summary of its
tables loaded whole, for every game; and ``tablesim run --out`` never loads every table.

The games' own metrics come from tallies (:mod:`sim.core.tally`) that add up over slices: a
tally of two halves merged gives the metrics of the whole, whatever the cut.
"""

from __future__ import annotations

import json
import math

import pytest

from analysis.summary import run_summary, stored_summary
from sim.cli import main
from sim.core import store as store_module
from sim.core.game import get_game
from sim.core.store import load_tables
from sim.core.tally import describe_counts, merge_tallies

RUNS = {
    "curlastique": ["--players", "club,novice", "--matches", "120"],
    "curlastique-teams": ["--players", "club,novice,club,novice", "--matches", "40", "--set", "game.teams=true"],
    "carrom": ["--players", "club,casual", "--matches", "12", "--set", "game.target_points=5"],
    "gasterospeed": ["--players", "tactician,casual,tactician", "--matches", "18"],
}


def assert_close(a, b, where=""):
    if isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            assert_close(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_close(x, y, f"{where}[{k}]")
    elif isinstance(a, float):
        assert (math.isnan(a) and math.isnan(b)) or b == pytest.approx(a, rel=1e-9, abs=1e-12), where
    else:
        assert a == b and type(a) is type(b), where


@pytest.fixture(scope="module", params=sorted(RUNS))
def stored(request, tmp_path_factory):
    name = request.param
    game = name.split("-")[0]
    out = tmp_path_factory.mktemp(name) / "out"
    assert (
        main(
            [
                "run",
                game,
                *RUNS[name],
                "--jobs",
                "1",
                "--seed",
                "5",
                "--out",
                str(out),
                "--format",
                "json",
                "--no-progress",
            ]
        )
        == 0
    )
    return get_game(game), out


@pytest.mark.parametrize("size", [2, 10_000])
def test_the_summary_read_slice_by_slice_is_the_summary_of_the_whole_tables(stored, size):
    spec, out = stored
    tables = load_tables(out)
    whole = run_summary(tables, spec.summary(tables), length=spec.length)
    assert whole["matches"] == len(tables["matches"]) and whole["game"]
    assert ("win_rate_by_team" in whole) == ("teams" in out.parent.name)
    assert_close(whole, stored_summary(out, spec, matches_per_slice=size))


def test_a_games_tally_of_two_parts_merged_gives_the_metrics_of_the_whole(stored):
    spec, out = stored
    tables = load_tables(out)
    numbers = sorted(set(tables["matches"]["match"]))
    for cut in (numbers[0], numbers[len(numbers) // 3], numbers[-2]):
        halves = [
            {name: frame[(frame["match"] <= cut) == first] for name, frame in tables.items()} for first in (True, False)
        ]
        merged = merge_tallies(spec.tally(halves[0]), spec.tally(halves[1]))
        assert_close(spec.summary(tables), spec.summary_from_tally(merged))


def test_run_out_summarises_its_directory_without_loading_every_table(tmp_path, monkeypatch, capsys):
    def refuse(*args, **kwargs):
        raise AssertionError("load_tables called: the whole run read into memory")

    command = [
        "run",
        "curlastique",
        "--players",
        "club,novice",
        "--matches",
        "60",
        "--jobs",
        "1",
        "--seed",
        "3",
        "--format",
        "json",
        "--no-progress",
    ]
    assert main(command) == 0
    in_memory = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(store_module, "load_tables", refuse)
    monkeypatch.setattr("analysis.summary.load_tables", refuse)
    monkeypatch.setattr("sim.core.runner.load_tables", refuse)
    assert main([*command, "--out", str(tmp_path / "out")]) == 0
    stored = json.loads(capsys.readouterr().out)
    in_memory.pop("wall_time_s"), stored.pop("wall_time_s")
    assert_close(in_memory, stored)


def test_a_game_without_a_tally_has_its_metrics_from_the_whole_tables(stored):
    import dataclasses

    spec, out = stored
    plain = dataclasses.replace(spec, tally=None, summary_from_tally=None)
    assert_close(stored_summary(out, spec), stored_summary(out, plain))


def test_quantiles_from_counts_are_numpys():
    import numpy as np

    values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
    for n in range(1, len(values) + 1):
        counts: dict[float, float] = {}
        for v in values[:n]:
            counts[v] = counts.get(v, 0) + 1
        described = describe_counts(counts)
        assert described["median"] == np.median(values[:n]) and described["mean"] == pytest.approx(np.mean(values[:n]))
        assert (described["min"], described["max"]) == (min(values[:n]), max(values[:n]))
    assert math.isnan(describe_counts({})["median"])
