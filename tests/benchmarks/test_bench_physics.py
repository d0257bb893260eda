"""The benchmark script runs and reports every figure (tiny time budget: not a measurement)."""

from tests.benchmarks.scripts import load

KEYS = {
    "carrom_break_per_s",
    "curlastique_throw_per_s",
    "curlastique_throw_batched_per_s",
    "pymunk_carrom_break_per_s",
    "pymunk_curlastique_throw_per_s",
    "pymunk_curlastique_throw_batched_per_s",
    "carrom_break_events_mean",
    "curlastique_throw_events_mean",
    "cut_shot_max_position_diff_m",
    "command",
}


def test_run_benchmarks_reports_every_key():
    mod = load("bench_physics")
    f = mod.run_benchmarks(seconds_per_case=0.02)
    assert KEYS <= set(f)
    for k in KEYS - {"command", "cut_shot_max_position_diff_m"}:
        assert f[k] > 0, k
    assert f["pymunk_curlastique_throw_batched_per_s"] == f["pymunk_curlastique_throw_per_s"]
    # the same non-chaotic cut in both engines: same outcome, final positions within 2 mm
    assert f["cut_shot_same_status"] and f["cut_shot_max_position_diff_m"] < 2e-3
    assert "bench_physics.py" in f["command"]
    assert "Carrom break" in mod._table(f)
