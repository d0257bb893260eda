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
    manifest = {
        **experiment_manifest(experiment, {"tablesim": "test", "numpy": np.__version__}),
        "command": f"tablesim experiment {path} --out {out}",
    }
    run_experiment(experiment, ResultStore(out), progress=False, manifest=manifest)
    return out


def bernoulli_players(wins_by_seat: np.ndarray, seeds_per_match: int = 1) -> pd.DataFrame:
    """A players table from a (matches × seats) 0/1 matrix (one cell, profile ``p``)."""
    matches, seats = wins_by_seat.shape
    match = np.repeat(np.arange(matches), seats)
    return pd.DataFrame(
        {
            "variant": "baseline",
            "lineup": "x",
            "match": match,
            "seat": np.tile(np.arange(seats), matches),
            "profile": "p",
            "team": -1,
            "score": wins_by_seat.ravel().astype(float),
            "rank": np.where(wins_by_seat.ravel() == 1, 1, 2),
            "won": wins_by_seat.ravel().astype(bool),
            "seed": match // seeds_per_match,
        }
    )


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
        frame = pd.DataFrame(
            {
                "variant": variant,
                "lineup": "2v2",
                "match": match,
                "seed": match,
                "rotation": 0,
                "winner": -1,
                "winning_team": winners,
                "rounds": rng.integers(5, 9, matches),
                "finished": True,
            }
        )
        seats = np.tile(np.arange(4), matches)
        team = seats % 2
        won = team == np.repeat(winners, 4)
        players = pd.DataFrame(
            {
                "variant": variant,
                "lineup": "2v2",
                "match": np.repeat(match, 4),
                "seat": seats,
                "profile": "club",
                "team": team,
                "score": np.where(won, 10.0, 5.0),
                "rank": np.where(won, 1, 3),
                "won": won,
                "seed": np.repeat(match, 4),
                "slot": seats,
            }
        )
        store.write_chunk({"matches": frame, "players": players, "rounds": pd.DataFrame(), "events": pd.DataFrame()})
    store.write_manifest(
        {
            "kind": "experiment",
            "game": "no-such-game",
            "seed": 1,
            "matches": matches,
            "rotate_seats": False,
            "baseline": {"set": {}},
            "variants": [{"name": "team0-up", "set": {"rules.x": 1}}],
            "lineups": [{"name": "2v2", "players": ["club"] * 4}],
            "status": "complete",
        }
    )
    return folder


def rotation_tables(
    seeds: int,
    seats: int,
    p_focal: float,
    rng: np.random.Generator,
    *,
    first_seed: int = 0,
    extra_rounds: float = 4.0,
    lineup: str = "duel",
    variant: str = "trial",
) -> dict[str, pd.DataFrame]:
    """Tables of a line-up played under seat rotation, with a known truth.

    Slot 0 holds profile ``focal``, the other slots ``field``. Each seed is played once per
    rotation (match = seed × seats + rotation; seat s gets slot (s + rotation) % seats, as the
    runner does) and its result is identical across its rotations, the worst case for
    independence: the focal profile wins the seed with probability ``p_focal`` (else a uniform
    other slot wins) and the game lasts 2 + Poisson(``extra_rounds``) rounds. True values:
    focal's win rate ``p_focal``, mean length 2 + ``extra_rounds``; design effect ``seats``.
    """
    seed = np.arange(first_seed, first_seed + seeds)
    others = rng.integers(1, seats, seeds) if seats > 1 else np.zeros(seeds, int)
    winner_slot = np.where(rng.random(seeds) < p_focal, 0, others)
    rounds = 2 + rng.poisson(extra_rounds, seeds)
    rotation = np.tile(np.arange(seats), seeds)
    seed_of = np.repeat(seed, seats)
    match = (seed_of - first_seed) * seats + rotation + first_seed * seats
    winner_seat = (np.repeat(winner_slot, seats) - rotation) % seats
    matches = pd.DataFrame(
        {
            "variant": variant,
            "lineup": lineup,
            "match": match,
            "seed": seed_of,
            "rotation": rotation,
            "winner": winner_seat,
            "winning_team": -1,
            "rounds": np.repeat(rounds, seats),
            "finished": True,
        }
    )
    seat = np.tile(np.arange(seats), len(matches))
    slot = (seat + np.repeat(rotation, seats)) % seats
    won = seat == np.repeat(winner_seat, seats)
    players = pd.DataFrame(
        {
            "variant": variant,
            "lineup": lineup,
            "match": np.repeat(match, seats),
            "seat": seat,
            "profile": np.where(slot == 0, "focal", "field"),
            "team": -1,
            "score": won.astype(float),
            "rank": np.where(won, 1, 2),
            "won": won,
            "seed": np.repeat(seed_of, seats),
            "slot": slot,
        }
    )
    return {"matches": matches, "players": players, "rounds": pd.DataFrame(), "events": pd.DataFrame()}


def shared_seed_lengths(
    seeds: int,
    rotations: int,
    rng: np.random.Generator,
    *,
    effect: float = 0.0,
    paired: bool = True,
    cap: int = 12,
    p_end: float = 0.2,
) -> pd.DataFrame:
    """A matches table of a baseline and a variant ``slower`` under seat rotation.

    Every match of a seed has the same length (its rotations), geometric with end probability
    ``p_end`` per round and capped at ``cap`` (censored). ``paired``: the variant replays the
    baseline's seeds (common random numbers): its length is the baseline's scaled by
    1 + ``effect`` (rounded) plus a ±1 round jitter; otherwise it draws its own lengths from the
    same distribution stretched by 1 + ``effect``. ``effect = 0`` is no true effect.
    """
    base = rng.geometric(p_end, seeds).astype(float)
    if paired:
        variant = np.maximum(1.0, np.round(base * (1 + effect)) + rng.integers(-1, 2, seeds))
        base = np.maximum(1.0, base + rng.integers(-1, 2, seeds))
    else:
        variant = np.round(rng.geometric(p_end, seeds) * (1 + effect)).astype(float)
    frames = []
    for name, lengths in (("baseline", base), ("slower", variant)):
        seed = np.repeat(np.arange(seeds), rotations)
        raw = np.repeat(lengths, rotations)
        frames.append(
            pd.DataFrame(
                {
                    "variant": name,
                    "lineup": "x",
                    "match": np.arange(seeds * rotations),
                    "seed": seed if paired or name == "baseline" else seed + seeds,
                    "rotation": np.tile(np.arange(rotations), seeds),
                    "rounds": np.minimum(raw, cap),
                    "finished": raw < cap,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)
