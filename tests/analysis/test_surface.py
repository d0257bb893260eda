"""Response surface: the smallest spread of linearly varying metrics, against brute force."""

import itertools
import math

import numpy as np

from analysis.balance.space import Parameter, SearchSpace
from analysis.balance.surface import SurfaceSettings, spread_floor

CARDS = Parameter(key="cards", kind="counts", keys=("a", "b", "c"), low=1, high=8, total=12)
TRUE = {"rate.a": (0.10, [0.02, 0.0, 0.0]), "rate.b": (0.30, [0.0, -0.01, 0.0]), "rate.c": (0.20, [0.0, 0.0, 0.0])}


def rates(x):
    return {name: a + float(np.dot(b, x)) for name, (a, b) in TRUE.items()}


def grid():
    return [x for x in itertools.product(range(1, 9), repeat=3) if sum(x) == 12]


def trials(noise=0.0, n=40, seed=0):
    rng = np.random.default_rng(seed)
    points = [grid()[i] for i in rng.choice(len(grid()), n)]
    return [
        {
            "point": {"cards": list(x)},
            "metrics": {"pl": {**{k: v + rng.normal(0, noise) for k, v in rates(x).items()}, "other": 1.0}},
        }
        for x in points
    ]


def brute_force_minimum():
    return min(max(rates(x).values()) - min(rates(x).values()) for x in grid())


def test_floor_is_a_tight_lower_bound_of_the_best_integer_point():
    space = SearchSpace((CARDS,), {})
    result = spread_floor(trials(), space, SurfaceSettings(prefix="rate.", bound=0.01), "pl")
    best = brute_force_minimum()
    assert result["metrics"] == ["rate.a", "rate.b", "rate.c"]  # "other" is not in the family
    assert result["floor"] <= best + 1e-9
    assert best - result["floor"] < 0.02  # the relaxation gap of a 1-card step
    assert all(f["r2"] > 0.999 or math.isnan(f["r2"]) for f in result["fits"])
    assert sum(result["point"]) == 12 and all(1 <= c <= 8 for c in result["point"])
    x = result["point"]
    assert abs(result["predicted_at_point"] - (max(rates(x).values()) - min(rates(x).values()))) < 1e-9
    assert result["floor_ci"][0] <= result["floor"] + 1e-9 <= result["floor_ci"][1] + 2e-9
    # the bound 0.01 is below the floor (about 0.04): no point can meet it
    assert result["verdict"].startswith("no point of the space can meet the bound")


def test_noisy_trials_give_a_ci_that_covers_the_true_floor_and_an_honest_verdict():
    space = SearchSpace((CARDS,), {})
    exact = spread_floor(trials(), space, SurfaceSettings(prefix="rate."), "pl")["floor"]
    covered = wrong_claims = 0
    for seed in range(30):
        result = spread_floor(
            trials(noise=0.01, n=60, seed=seed),
            space,
            SurfaceSettings(prefix="rate.", bound=exact, bootstrap=100),
            "pl",
            seed=seed,
        )
        covered += result["floor_ci"][0] <= exact <= result["floor_ci"][1]
        # the bound is the true floor: "no point can meet it" would be a false claim
        wrong_claims += result["verdict"].startswith("no point")
    # nominal: 90 % coverage, 5 % false claims (the percentile bootstrap gave about 30 % of them)
    assert covered >= 24 and wrong_claims <= 4


def test_too_few_trials_are_reported_not_fitted():
    space = SearchSpace((CARDS,), {})
    result = spread_floor(trials(n=3), space, SurfaceSettings(prefix="rate."), "pl")
    assert "floor" not in result and "too few" in result["problem"]


def test_the_models_integer_point_is_the_best_grid_point_of_the_model():
    space = SearchSpace((CARDS,), {})
    result = spread_floor(trials(), space, SurfaceSettings(prefix="rate."), "pl")
    assert abs(result["predicted_at_point"] - brute_force_minimum()) < 1e-9
