"""The scaling benchmark runs end to end in quick mode and reports every figure.

Quick mode measures nothing (a few matches per point, 100 for the loky / Dask comparison):
the figures are checked for presence, sign and structure only, never against timings.
"""

import json
import math

import pytest

from tests.benchmarks.scripts import load

pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def bench():
    mod = load("bench_scaling")
    return mod


@pytest.mark.timeout(300)
def test_quick_curves_memory_and_storage_report_every_figure(bench, tmp_path):
    plot = tmp_path / "scaling.png"
    figures, rows = bench.measure(
        quick=True, games=("curlastique",), sections=("curves", "memory", "storage"), plot=plot
    )
    points = ["2p", "3p", "4p", "pucks2", "pucks3", "pucks5", "pucks8", "budget12", "budget36", "budget96", "budget240"]
    positive = [
        f"curlastique_{kind}_{p}" for p in points for kind in ("matches_per_min", "throws_per_s", "cpu_ms_per_match")
    ]
    positive += [
        "curlastique_peak_kib_per_match_2p",
        "curlastique_peak_kib_per_match_4p",
        "curlastique_bytes_per_match",
        "curlastique_bytes_per_row",
        "curlastique_bytes_per_chunk_fixed",
    ]
    positive += [
        f"curlastique_{table}_{kind}"
        for table in ("matches", "players", "rounds", "events")
        for kind in ("bytes_per_match", "bytes_per_row", "rows_per_match")
    ]
    positive += ["scaling_cpu_count", "scaling_wall_s"]
    for key in positive:
        assert key in figures, key
        assert isinstance(figures[key], int | float) and figures[key] > 0, (key, figures[key])
    assert "dask_matches" not in figures and "scaling_games" not in figures  # the scaling section did not run
    assert figures["scaling_skipped_games"] == ""
    assert "bench_scaling.py" in figures["scaling_command"] and "--quick" in figures["scaling_command"]
    assert plot.exists() and plot.stat().st_size > 10_000
    assert {r["key"] for r in rows} == set(points)
    text = bench._table(figures, rows)
    assert "curlastique" in text and "command:" in text


@pytest.mark.parametrize("cores, workers", [(1, [1]), (2, [1, 2]), (6, [1, 2, 4, 6]), (16, [1, 2, 4, 8, 16])])
def test_scaling_workers_double_up_to_the_cores(bench, cores, workers):
    assert bench.scaling_workers(cores) == workers


def test_the_scaling_line_ups_are_bench_parents(bench):
    parent = bench._bench_parent()
    assert set(bench.SCALE_LINEUPS) == set(parent.GAMES) == set(bench.GAMES)
    for game, lineup in bench.SCALE_LINEUPS.items():
        assert ",".join(lineup.players) == parent.GAMES[game][0], game


@pytest.mark.timeout(180)
def test_quick_scaling_section_reports_the_table_for_every_game_backend_and_size(bench):
    """`tablesim bench --only scaling --seconds 0.1` (quick below QUICK_BELOW_S), scaling section alone."""
    from sim.core.runner import cpu_count

    assert 0.1 < bench.QUICK_BELOW_S
    figures = bench.run_benchmarks(0.1, sections=("scaling",), plot=None)
    cores = cpu_count()
    workers = [int(j) for j in figures["scaling_workers"].split(",")]
    assert figures["scaling_cores"] == cores and workers[0] == 1 and workers[-1] == cores
    assert workers == sorted(set(workers)) and all(j == 2**i for i, j in enumerate(workers[:-1]))
    assert figures["scaling_games"] == ",".join(bench.GAMES)
    for game in bench.GAMES:
        for backend in ("loky", "dask"):
            for jobs in workers:
                key = f"scaling_{game}_{backend}_{jobs}w"
                for kind in ("matches", "wall_s", "matches_per_s", "speedup", "efficiency", "chunks"):
                    assert figures[f"{key}_{kind}"] > 0, (key, kind, figures[f"{key}_{kind}"])
                # CPU times tick by 10 ms: 2 quick matches in this process may read 0
                assert figures[f"{key}_cpu_ms_per_match"] >= 0, key
                assert f"{key}_load_average" in figures
                # efficiency = speed-up / workers (each rounded to 3 decimals)
                assert figures[f"{key}_efficiency"] == pytest.approx(figures[f"{key}_speedup"] / jobs, abs=1.5e-3)
                rate = figures[f"scaling_{game}_loky_1w_matches_per_s"]
                assert figures[f"{key}_speedup"] == pytest.approx(
                    figures[f"{key}_matches_per_s"] / rate, rel=0.02, abs=1e-3
                )
        assert figures[f"scaling_{game}_loky_1w_speedup"] == 1
        # the parent's share, from bench_parent.py (quick: tiny runs, so only present, not meaningful)
        for kind in (
            "worker_cpu_ms_per_match",
            "parent_play_cpu_ms_per_match",
            "parent_share_pct",
            "parent_end_of_run_cpu_ms_per_match",
        ):
            assert math.isfinite(figures[f"scaling_{game}_{kind}"]), (game, kind)
        ceiling = figures[f"scaling_{game}_projected_ceiling_workers"]
        assert ceiling is None or ceiling > 0
        assert figures[f"scaling_{game}_parent_bound_speedup_{bench.TARGET_WORKERS}"] > 0
        assert "->" in figures[f"scaling_{game}_parent_matches"]
    # loky against Dask on 2 workers (Curlastique), through results directories
    n = figures["dask_matches"]
    positive = [
        "scaling_matches_per_min_1_worker",
        "scaling_matches_per_min_2_workers",
        "scaling_matches_per_min_2_dask_workers",
        "scaling_speedup_2_workers",
        "scaling_speedup_2_dask_workers",
        "scaling_efficiency_2_workers",
        "dask_chunks",
        "loky_chunks",
        f"loky_wall_s_{n}",
        f"dask_wall_s_{n}",
        "dask_repeats",
        "scaling_cpu_count",
        "scaling_wall_s",
    ]
    for key in positive:
        assert isinstance(figures[key], int | float) and figures[key] > 0, (key, figures[key])
    # overheads may come out negative on a noisy machine: finite only (a ratio is above -1)
    for key in (f"dask_overhead_ratio_{n}", f"dask_cpu_overhead_ratio_{n}", f"dask_overhead_median_pair_ratio_{n}"):
        assert math.isfinite(figures[key]) and figures[key] > -1, key
    assert math.isfinite(figures["dask_overhead_per_chunk_s"])
    assert len(figures[f"dask_overhead_ratio_{n}_per_repeat"].split(",")) == figures["dask_repeats"]
    assert figures[f"dask_overhead_below_10pct_{n}"] is (
        figures[f"dask_overhead_ratio_{n}"] < 0.10 and figures[f"dask_overhead_median_pair_ratio_{n}"] < 0.10
    )
    # same seed on both backends: the comparison times the same work
    assert figures["dask_same_tables"] is True
    assert figures["scaling_matches_per_min_1_worker"] == pytest.approx(
        60 * figures["scaling_curlastique_loky_1w_matches_per_s"], rel=1e-3
    )
    assert "--quick" in figures["scaling_command"] and "--sections scaling" in figures["scaling_command"]
    assert figures["scaling_skipped_games"] == ""
    json.dumps(figures, allow_nan=False)  # `tablesim bench --format json` prints standard JSON
    text = bench._table(figures)
    for game in bench.GAMES:
        for backend in ("loky", "dask"):
            rows = [line.split() for line in text.splitlines() if line.split()[:2] == [game, backend]]
            assert [int(r[2]) for r in rows] == workers, (game, backend)
    assert "parent's share" in text and "loky against Dask" in text
    target = [line for line in text.splitlines() if line.startswith("target (>= 13x at 16 workers")]
    assert len(target) == 1
    assert ("cannot be measured" in target[0]) is (cores < bench.TARGET_WORKERS)


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
