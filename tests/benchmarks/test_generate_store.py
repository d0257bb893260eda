"""``benchmarks/generate_store.py``: a large store made of a small run's copies reads like a run."""

from __future__ import annotations

from analysis.summary import stored_summary
from sim.cli import main
from sim.core import ResultStore, load_tables
from sim.core.game import get_game
from tests.benchmarks.scripts import load

generate = load("generate_store").main


def test_copies_are_numbered_on_and_the_store_summarises_as_the_copies_do(tmp_path, capsys):
    source, out = tmp_path / "small", tmp_path / "large"
    assert (
        main(
            [
                "run",
                "curlastique",
                "--players",
                "club,novice",
                "--matches",
                "40",
                "--jobs",
                "1",
                "--seed",
                "2",
                "--out",
                str(source),
                "--no-progress",
                "--format",
                "json",
            ]
        )
        == 0
    )
    assert generate([str(source), str(out), "--matches", "200"]) == 0
    assert "200 matches" in capsys.readouterr().out
    assert ResultStore(out).stored_count() == 200 and len(list((out / "events").glob("*.parquet"))) == 1
    tables = load_tables(out)
    assert list(tables["matches"]["match"]) == list(range(200))
    assert tables["matches"]["seed"].nunique() == 100  # every copy's seeds shifted past the last
    small = stored_summary(source, get_game("curlastique"))
    large = stored_summary(out, get_game("curlastique"))
    assert large["matches"] == 5 * small["matches"] and large["game"] == small["game"]
    assert large["win_rate_by_seat"][0]["win_rate"] == small["win_rate_by_seat"][0]["win_rate"]
