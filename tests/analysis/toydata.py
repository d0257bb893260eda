"""Toy-game results directories and synthetic tables with a known truth, for the analysis tests.

Not a test module: the test files import its builders and wrap them in fixtures.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim.core import ResultStore
from sim.core.experiment import experiment_manifest, load_experiment, run_experiment
from tests.core import toygame  # noqa: F401  (registers toy-dice)

EXPERIMENT = """
game = "toy-dice"
matches = {matches}
seed = 11
rotate_seats = true
[[variants]]
name = "seat0-bonus"                    # +2 points on seat 0's rolls: seat 0 wins far more
set = {{ "game.seat0_bonus" = 2.0 }}
[[variants]]
name = "same"                           # sets the default value: every match is identical
set = {{ "game.delay_s" = 0.0 }}
[[variants]]
name = "capped"                         # a round cap the race often hits: censoring
set = {{ "game.max_rounds" = 4 }}
[[lineups]]
name = "plain-3"
players = ["plain", "plain", "plain"]
[[lineups]]
name = "lucky-vs-2"
players = ["lucky", "plain", "plain"]
"""


def make_experiment(folder: Path, matches: int = 60) -> Path:
    """Play the toy experiment above into ``folder/results`` and return that directory."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "experiment.toml"
    path.write_text(EXPERIMENT.format(matches=matches), encoding="utf-8")
    experiment = load_experiment(path)
    out = folder / "results"
    manifest = {**experiment_manifest(experiment, {"tablesim": "test", "numpy": np.__version__}),
                "command": f"tablesim experiment {path} --out {out}"}
    run_experiment(experiment, ResultStore(out), progress=False, manifest=manifest)
    return out


def bernoulli_players(wins_by_seat: np.ndarray, seeds_per_match: int = 1) -> pd.DataFrame:
    """A players table from a (matches × seats) 0/1 matrix (one cell, profile ``p``)."""
    matches, seats = wins_by_seat.shape
    match = np.repeat(np.arange(matches), seats)
    return pd.DataFrame({
        "variant": "baseline", "lineup": "x", "match": match, "seat": np.tile(np.arange(seats), matches),
        "profile": "p", "team": -1, "score": wins_by_seat.ravel().astype(float),
        "rank": np.where(wins_by_seat.ravel() == 1, 1, 2), "won": wins_by_seat.ravel().astype(bool),
        "seed": match // seeds_per_match,
    })


def one_winner(matches: int, probabilities, rng: np.random.Generator) -> np.ndarray:
    """A (matches × seats) 0/1 matrix with exactly one winner per match drawn from ``probabilities``."""
    winners = rng.choice(len(probabilities), size=matches, p=probabilities)
    out = np.zeros((matches, len(probabilities)), dtype=int)
    out[np.arange(matches), winners] = 1
    return out


def write_team_results(folder: Path, matches: int = 200) -> Path:
    """A results directory of a synthetic 2v2 game (no rounds, no events, unknown game name).

    Team 0 wins with probability 0.5 under the baseline and 0.65 under variant ``team0-up``;
    both variants share the seeds (the variant only flips some of the baseline's losses).
    """
    rng = np.random.default_rng(8)
    base_team = (rng.random(matches) >= 0.5).astype(int)  # 0 or 1: the winning team
    flip = rng.random(matches) < 0.3
    store = ResultStore(folder)
    for variant, winners in (("baseline", base_team), ("team0-up", np.where(flip, 0, base_team))):
        match = np.arange(matches)
        frame = pd.DataFrame({"variant": variant, "lineup": "2v2", "match": match, "seed": match,
                              "rotation": 0, "winner": -1, "winning_team": winners,
                              "rounds": rng.integers(5, 9, matches), "finished": True})
        seats = np.tile(np.arange(4), matches)
        team = seats % 2
        won = team == np.repeat(winners, 4)
        players = pd.DataFrame({"variant": variant, "lineup": "2v2", "match": np.repeat(match, 4),
                                "seat": seats, "profile": "club", "team": team,
                                "score": np.where(won, 10.0, 5.0), "rank": np.where(won, 1, 3),
                                "won": won, "seed": np.repeat(match, 4), "slot": seats})
        store.write_chunk({"matches": frame, "players": players, "rounds": pd.DataFrame(),
                           "events": pd.DataFrame()})
    store.write_manifest({"kind": "experiment", "game": "no-such-game", "seed": 1, "matches": matches,
                          "rotate_seats": False, "baseline": {"set": {}},
                          "variants": [{"name": "team0-up", "set": {"rules.x": 1}}],
                          "lineups": [{"name": "2v2", "players": ["club"] * 4}], "status": "complete"})
    return folder
