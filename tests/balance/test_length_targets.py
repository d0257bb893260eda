"""Length targets: ``rounds_*`` read the rounds, ``length_*`` the game's own length column
(``GameSpec.length``), with the same clustered bootstrap; a bad column is one line."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis.balance.search import load_balance
from analysis.balance.targets import Target, measure_all
from sim.core import ConfigError


def _tables(seeds: int = 60) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(3)
    n = 2 * seeds
    matches = pd.DataFrame(
        {
            "match": np.arange(n),
            "seed": np.repeat(np.arange(seeds), 2),
            "lineup": "a",
            "rounds": rng.integers(3, 9, n),
            "turns_per_race": rng.normal(20.0, 3.0, n),
        }
    )
    players = pd.DataFrame(
        {
            "match": np.repeat(np.arange(n), 2),
            "seat": np.tile([0, 1], n),
            "lineup": "a",
            "won": np.tile([True, False], n),
            "profile": "p",
        }
    )
    return {"matches": matches, "players": players}


def test_length_targets_read_the_game_length_column_and_rounds_targets_the_rounds():
    tables = _tables()
    turns, rounds = tables["matches"]["turns_per_race"], tables["matches"]["rounds"]
    targets = [
        Target(metric="length_mean", column="turns_per_race", target=20.0, tolerance=2.0),
        Target(metric="length_quantile", column="turns_per_race", quantile=0.9, target=24.0, tolerance=2.0),
        Target(metric="rounds_mean", target=5.0, tolerance=1.0),
    ]
    mean, q90, mean_rounds = measure_all(targets, tables, bootstrap=400, seed=1)
    assert mean["value"] == pytest.approx(turns.mean()) and q90["value"] == pytest.approx(np.quantile(turns, 0.9))
    assert mean_rounds["value"] == pytest.approx(rounds.mean())
    assert mean["ci_low"] < mean["value"] < mean["ci_high"] and q90["ci_low"] < q90["value"] < q90["ci_high"]
    assert targets[1].label == "length_quantile(turns_per_race q0.9)"


def _balance_file(tmp_path, target: str):
    path = tmp_path / "b.toml"
    path.write_text(
        'game = "gasterospeed"\nmatches = 10\n[[lineups]]\nname = "t"\n'
        'players = ["tactician", "tactician", "tactician", "tactician"]\n'
        '[[parameters]]\nkey = "race.shells"\nkind = "int"\nlow = 2\nhigh = 4\n'
        f"[[targets]]\n{target}\n"
    )
    return path


def test_a_length_target_reads_the_games_declared_length_unless_told_otherwise(tmp_path):
    balance = load_balance(_balance_file(tmp_path, 'metric = "length_mean"\ntarget = 14.0\ntolerance = 2.0'))
    assert balance.settings.targets[0].column == "turns_per_race"  # Gastérospeed's GameSpec.length
    explicit = load_balance(
        _balance_file(tmp_path, 'metric = "length_mean"\ncolumn = "rounds"\ntarget = 6.0\ntolerance = 1.0')
    )
    assert explicit.settings.targets[0].column == "rounds"
    path = _balance_file(tmp_path, 'metric = "length_mean"\ncolumn = "turns"\ntarget = 6.0\ntolerance = 1.0')
    with pytest.raises(ConfigError) as info:
        load_balance(path)
    assert info.value.problems == [
        f"{path}: targets[0].column: got 'turns'; allowed: rounds, turns_per_race (the game's length columns)"
    ]


def _clustered_lengths(rng, seeds: int, shared: float) -> dict[str, pd.DataFrame]:
    """Two matches per seed whose lengths share a seed effect: N(20, 8) marginally, correlation ``shared``."""
    n = 2 * seeds
    seed_effect = np.repeat(rng.normal(0.0, np.sqrt(8 * shared), seeds), 2)
    turns = 20.0 + seed_effect + rng.normal(0.0, np.sqrt(8 * (1 - shared)), n)
    matches = pd.DataFrame(
        {
            "match": np.arange(n),
            "seed": np.repeat(np.arange(seeds), 2),
            "lineup": "a",
            "rounds": np.ones(n, int),
            "turns_per_race": turns,
        }
    )
    players = pd.DataFrame(
        {
            "match": np.repeat(np.arange(n), 2),
            "seat": np.tile([0, 1], n),
            "lineup": "a",
            "won": np.tile([True, False], n),
            "profile": "p",
            "seed": np.repeat(np.repeat(np.arange(seeds), 2), 2),
        }
    )
    return {"matches": matches, "players": players}


def test_length_target_intervals_cover_the_known_mean_and_quantile_over_seeds():
    """A game's own length with a known law: the 90 % intervals of length_mean and length_quantile
    (bootstrap over seeds) cover the true mean 20 and 0.9-quantile 20 + 1.2816·√8 near 90 % of the
    time (the percentile bootstrap of a quantile a little less); resampling matches as if
    independent covers the mean less."""
    rng, reps = np.random.default_rng(11), 300
    q90 = 20.0 + 1.2815516 * np.sqrt(8.0)
    targets = [
        Target(metric="length_mean", column="turns_per_race", target=20.0, tolerance=2.0),
        Target(metric="length_quantile", column="turns_per_race", quantile=0.9, target=24.0, tolerance=2.0),
    ]
    covered = np.zeros(3)
    for rep in range(reps):
        tables = _clustered_lengths(rng, 80, shared=0.7)
        mean, quantile = measure_all(targets, tables, bootstrap=400, seed=rep)
        covered += [mean["ci_low"] <= 20.0 <= mean["ci_high"], quantile["ci_low"] <= q90 <= quantile["ci_high"], 0]
        alone = {"matches": tables["matches"].assign(seed=np.arange(160)), "players": tables["players"]}
        single, _ = measure_all(targets, alone, bootstrap=200, seed=rep)
        covered[2] += single["ci_low"] <= 20.0 <= single["ci_high"]
    rates = covered / reps
    # 1,000 data sets (80 and 320 seeds) measured 0.896 / 0.891 (mean) and 0.878 / 0.887 (quantile)
    assert 0.85 <= rates[0] <= 0.95 and 0.83 <= rates[1] <= 0.95, rates
    assert rates[2] < rates[0] - 0.05, rates  # the seeds ignored: too narrow
