"""The scaling benchmark runs end to end in quick mode and reports every figure.

Quick mode measures nothing (a few matches per point, 100 for the loky / Dask comparison):
the figures are checked for presence and sign only, never against timings.
"""

import math

import pytest

from tests.benchmarks.scripts import load

pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def bench():
    mod = load("bench_scaling")
    return mod


@pytest.mark.timeout(300)
def test_quick_run_reports_every_figure(bench, tmp_path):
    plot = tmp_path / "scaling.png"
    figures, rows = bench.measure(quick=True, games=("curlastique",), plot=plot)
    n = figures["dask_matches"]
    points = ["2p", "3p", "4p", "pucks2", "pucks3", "pucks5", "pucks8",
              "budget12", "budget36", "budget96", "budget240"]
    positive = [f"curlastique_{kind}_{p}" for p in points
                for kind in ("matches_per_min", "throws_per_s", "cpu_ms_per_match")]
    positive += ["curlastique_peak_kib_per_match_2p", "curlastique_peak_kib_per_match_4p",
                 "curlastique_bytes_per_match", "curlastique_bytes_per_row",
                 "curlastique_bytes_per_chunk_fixed"]
    positive += [f"curlastique_{table}_{kind}" for table in ("matches", "players", "rounds", "events")
                 for kind in ("bytes_per_match", "bytes_per_row", "rows_per_match")]
    positive += ["scaling_matches_per_min_1_worker", "scaling_matches_per_min_2_workers",
                 "scaling_matches_per_min_2_dask_workers", "scaling_speedup_2_workers",
                 "scaling_speedup_2_dask_workers", "scaling_efficiency_2_workers",
                 "dask_chunks", f"loky_wall_s_{n}", f"dask_wall_s_{n}", "dask_repeats",
                 "scaling_cpu_count", "scaling_wall_s"]
    for key in positive:
        assert key in figures, key
        assert isinstance(figures[key], int | float) and figures[key] > 0, (key, figures[key])
    # overheads may come out negative on a noisy machine: finite only (a ratio is above -1)
    for key in (f"dask_overhead_ratio_{n}", f"dask_cpu_overhead_ratio_{n}", f"dask_overhead_median_pair_ratio_{n}"):
        assert math.isfinite(figures[key]) and figures[key] > -1, key
    assert math.isfinite(figures["dask_overhead_per_chunk_s"])
    assert len(figures[f"dask_overhead_ratio_{n}_per_repeat"].split(",")) == figures["dask_repeats"]
    assert figures[f"dask_overhead_below_10pct_{n}"] is (figures[f"dask_overhead_ratio_{n}"] < 0.10
                                                         and figures[f"dask_overhead_median_pair_ratio_{n}"] < 0.10)
    # same seed on both backends: the comparison times the same work
    assert figures["dask_same_tables"] is True
    assert figures["dask_chunks"] == math.ceil(n / 25)
    assert figures["scaling_skipped_games"] == ""
    assert "bench_scaling.py" in figures["scaling_command"] and "--quick" in figures["scaling_command"]
    assert plot.exists() and plot.stat().st_size > 10_000
    assert {r["key"] for r in rows} == set(points)
    text = bench._table(figures, rows)
    assert "curlastique" in text and "Dask" in text and "command:" in text


def test_a_game_that_does_not_import_is_skipped(bench, monkeypatch):
    def broken(name):
        raise ImportError(f"{name} is being written")

    monkeypatch.setattr(bench, "get_game", broken)
    figures, rows = bench.measure(quick=True, games=("gasterospeed",), sections=("memory",), plot=None)
    assert figures["scaling_skipped_games"] == "gasterospeed"
    assert rows == []
    assert "skipped" in bench._table(figures, rows)


def test_bench_command_knows_the_group():
    from sim.cli.bench import GROUPS

    assert GROUPS["scaling"] == "bench_scaling.py"
