"""A results directory too large to load whole is reported from its per-match tables plus one
pass over its rounds and events (:mod:`analysis.streamed`).

Asserted: every table of the analysis — outcomes with their per-match design metrics, the game's
metrics, their jackknife intervals and the variant effects — is the same as when every table is
loaded; the game's plots say when they are drawn from a sample; ``tablesim report`` streams a
directory whose rounds and events exceed the threshold, without loading them.
"""

from __future__ import annotations

import pandas as pd
import pytest

from analysis import streamed as streamed_module
from analysis.analyse import analyse
from analysis.game_effects import game_metric_effects, game_metric_levels
from analysis.report import build_report
from analysis.results import load_results
from sim.cli import main
from sim.curlastique import GAME


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    out = tmp_path_factory.mktemp("streamed") / "out"
    assert (
        main(
            [
                "experiment",
                str(GAME.examples / "curlastique_demo.toml"),
                "--matches",
                "120",
                "--jobs",
                "1",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    return out


def test_the_streamed_analysis_is_the_analysis_of_every_table(experiment):
    whole, streamed = load_results(experiment, stream=False), load_results(experiment, stream=True)
    assert streamed.streamed is not None and streamed.tables["events"].empty
    a, b = analyse(whole), analyse(streamed)
    pd.testing.assert_frame_equal(a.outcomes, b.outcomes)
    assert {"lead_changes", "drama"} <= set(b.outcomes.columns)
    pd.testing.assert_frame_equal(a.game_metrics, b.game_metrics)
    pd.testing.assert_frame_equal(a.effects, b.effects)
    pd.testing.assert_frame_equal(game_metric_levels(a), game_metric_levels(b))
    effects = game_metric_effects(b)
    assert len(effects) and effects["metric"].str.startswith("win_rate.").any()
    pd.testing.assert_frame_equal(game_metric_effects(a), effects)


def test_plots_from_a_sample_say_so_and_the_report_streams_past_the_threshold(experiment, tmp_path, monkeypatch):
    monkeypatch.setattr(streamed_module, "PLOT_SAMPLE", 40)
    monkeypatch.setattr(streamed_module, "STREAM_BYTES", 0)
    results = load_results(experiment, stream=None)
    assert results.streamed is not None
    note = results.streamed.sample_note()
    assert note.startswith("Drawn from the first 40 matches of each cell") and "of 240)" in note
    html = build_report(results, tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Drawn from the first 40 matches of each cell" in html
    assert main(["report", str(experiment), "--out", str(tmp_path / "cli.html")]) == 0
    assert "Drawn from the first 40" in (tmp_path / "cli.html").read_text(encoding="utf-8")
    monkeypatch.setattr(streamed_module, "STREAM_BYTES", 2**40)
    assert load_results(experiment, stream=None).streamed is None
