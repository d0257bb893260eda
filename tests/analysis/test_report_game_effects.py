"""The game metrics' intervals and paired effects (analysis.game_effects) against known truths:
coverage of the level interval, type-I error and coverage of the paired effect, seat rotation
(correlated matches of one seed) included; the parts and tally paths equal the summary path."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from analysis.analyse import Options
from analysis.game_effects import cell_pseudo_values, game_metric_effects, game_metric_levels, jackknife_groups


def _summary(tables):
    matches = tables["matches"]
    return {
        "mean_x": float(matches["x"].mean()),
        "ratio": float(matches["a"].sum() / matches["b"].sum()),
        "label": "not a number",
    }


def _parts(tables):
    return tables["matches"][["x", "a", "b"]].assign(n=1.0)


def _from_parts(sums):
    return pd.DataFrame({"mean_x": sums["x"] / sums["n"], "ratio": sums["a"] / sums["b"]})


def _tally(tables):
    matches = tables["matches"]
    return {
        "x": float(matches["x"].sum()),
        "n": float(len(matches)),
        "a": float(matches["a"].sum()),
        "b": float(matches["b"].sum()),
    }


def _from_tally(counts):
    return {"mean_x": counts["x"] / counts["n"], "ratio": counts["a"] / counts["b"], "label": "not a number"}


SPEC = SimpleNamespace(summary=_summary, metric_parts=None, metrics_from_parts=None)
PARTS_SPEC = SimpleNamespace(summary=_summary, metric_parts=_parts, metrics_from_parts=_from_parts)
TALLY_SPEC = SimpleNamespace(
    summary=_summary, metric_parts=None, metrics_from_parts=None, tally=_tally, summary_from_tally=_from_tally
)


def _tables(rng, seeds=120, rotations=2, shift=0.0, paired=None):
    """Baseline and variant cells: x = seed effect + noise (+ shift in the variant); a/b a ratio."""
    seed_effect = rng.normal(0, 1.0, seeds) if paired is None else paired
    frames = []
    n = seeds * rotations
    match = np.arange(n)
    for variant, delta in (("baseline", 0.0), ("v", shift)):
        b = rng.uniform(1, 3, n)
        frames.append(
            pd.DataFrame(
                {
                    "variant": variant,
                    "lineup": "L",
                    "match": match,
                    "seed": match // rotations,
                    "x": seed_effect[match // rotations] + rng.normal(0, 1.0, n) + delta,
                    "a": b * (0.4 + 0.1 * rng.normal(size=n)),
                    "b": b,
                }
            )
        )
    return {"matches": pd.concat(frames, ignore_index=True)}


def _analysis(tables, spec=SPEC):
    return SimpleNamespace(results=SimpleNamespace(spec=spec, tables=tables), options=Options())


@pytest.mark.slow
def test_level_intervals_cover_the_truth_and_effects_keep_their_level():
    rng = np.random.default_rng(16)
    reps, covered, rejected, effect_covered = 200, 0, 0, 0
    for _ in range(reps):
        tables = _tables(rng)
        analysis = _analysis(tables, PARTS_SPEC)
        levels = game_metric_levels(analysis).set_index(["variant", "metric"])
        row = levels.loc[("baseline", "mean_x")]
        covered += row["ci_low"] <= 0.0 <= row["ci_high"]  # the true mean of x is 0
        effects = game_metric_effects(analysis).set_index("metric")
        rejected += effects.loc["mean_x", "p"] < 0.05  # no true effect
        effect_covered += effects.loc["mean_x", "ci_low"] <= 0.0 <= effects.loc["mean_x", "ci_high"]
    assert 0.91 <= covered / reps <= 0.98, covered / reps
    assert 0.02 <= rejected / reps <= 0.085, rejected / reps
    assert effect_covered == reps - rejected  # the interval inverts the test


@pytest.mark.slow
def test_a_true_effect_is_covered_and_detected():
    rng = np.random.default_rng(5)
    reps, covered, detected = 200, 0, 0
    for _ in range(reps):
        effects = game_metric_effects(_analysis(_tables(rng, shift=0.4), PARTS_SPEC)).set_index("metric")
        covered += effects.loc["mean_x", "ci_low"] <= 0.4 <= effects.loc["mean_x", "ci_high"]
        detected += effects.loc["mean_x", "p_adjusted"] < 0.05
    assert 0.90 <= covered / reps <= 0.99, covered / reps
    assert detected / reps > 0.85  # paired by seed, the seed effect cancels (unpaired SE is 1.7x)


def test_groups_keep_a_seeds_rotations_together_and_pair_variants():
    groups = jackknife_groups([5, 5, 9, 9, 2, 2, 7, 7], groups=3)
    assert sorted(set(groups.values())) == [0, 1, 2] and set(groups) == {2, 5, 7, 9}
    assert jackknife_groups([3, 1, 2]) == {1: 0, 2: 1, 3: 2}  # fewer seeds than groups: one each
    assert jackknife_groups(range(10), groups=2) == {s: s // 5 for s in range(10)}  # consecutive blocks


def test_parts_give_the_summarys_pseudo_values():
    tables = _tables(np.random.default_rng(2), seeds=40)
    cell = {"matches": tables["matches"][tables["matches"]["variant"] == "v"]}
    groups = jackknife_groups(cell["matches"]["seed"])
    full, pseudo = cell_pseudo_values(SPEC, cell, groups)
    full_p, pseudo_p = cell_pseudo_values(PARTS_SPEC, cell, groups)
    assert full == pytest.approx({k: full_p[k] for k in full})
    pd.testing.assert_frame_equal(pseudo[["mean_x", "ratio"]], pseudo_p[["mean_x", "ratio"]], rtol=1e-9)
    assert "label" not in full  # a non-numeric metric is left out
    full_t, pseudo_t = cell_pseudo_values(TALLY_SPEC, cell, groups)  # groups tallied once, merged left out
    assert full_t == pytest.approx(full)
    pd.testing.assert_frame_equal(pseudo[["mean_x", "ratio"]], pseudo_t[["mean_x", "ratio"]], rtol=1e-9)


def test_an_unchanged_metric_is_zero_with_a_point_interval():
    tables = _tables(np.random.default_rng(3), seeds=30)
    matches = tables["matches"]
    base = matches[matches["variant"] == "baseline"]
    tables = {"matches": pd.concat([base, base.assign(variant="v")], ignore_index=True)}
    effects = game_metric_effects(_analysis(tables)).set_index("metric")
    assert effects.loc["mean_x", ["effect", "ci_low", "ci_high", "p"]].tolist() == [0.0, 0.0, 0.0, 1.0]
    assert effects.loc["mean_x", "test"] == "identical outcomes"
