"""Balance validation on synthetic tables of known truth: a fake ``play`` for :func:`validate`.

Every "match" of a line-up is won by seat 0 with a known probability (the truth of the
candidate on that line-up); match ``i`` of a replicate is the same draw whatever the stage,
so larger stages extend smaller ones, as fresh seeds do.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.balance.search import load_balance
from tests.core import toygame  # noqa: F401  (registers toy-dice)

BALANCE = """
game = "toy-dice"
seed = 3
matches = 40
{lineups}
[[parameters]]
key = "game.seat0_bonus"
kind = "int"
low = -3
high = 5
[[targets]]
metric = "seat_win_rate"
seat = 0
lineup = "*"
target = 0.5
tolerance = 0.03
[search]
optimizer = "random"
trials = 1
validate_top = 1
validate_matches = {matches}
validation_stages = {stages}
look_every = {look_every}
validate_baseline = false
"""

MAX_MATCHES = 20_000


def balance_file(tmp_path, lineups: int = 1, matches: int = 2000, stages: int = 1, look_every: int = 0):
    """A toy balance file with ``lineups`` plain-vs-lucky line-ups and a seat-0 target on each."""
    blocks = "\n".join(f'[[lineups]]\nname = "l{i}"\nplayers = ["plain", "lucky"]' for i in range(lineups))
    path = tmp_path / "synthetic.toml"
    path.write_text(BALANCE.format(lineups=blocks, matches=matches, stages=stages, look_every=look_every))
    return load_balance(path)


def synthetic_play(truth: dict[str, float], replicate: int, counter: list | None = None):
    """A ``play`` whose seat 0 wins match i of line-up L with probability ``truth[L]``."""
    wins = {
        lineup: np.random.default_rng([replicate, index]).random(MAX_MATCHES) < p
        for index, (lineup, p) in enumerate(truth.items())
    }

    def play(point, *, root_seed, start, matches, jobs=1, backend="sequential"):
        if counter is not None:
            counter.append(matches - start)
        frames_m, frames_p = [], []
        for lineup, won in wins.items():
            number = np.arange(start, matches)
            frames_m.append(
                pd.DataFrame(
                    {
                        "variant": "fresh",
                        "lineup": lineup,
                        "match": number,
                        "seed": number,
                        "rotation": 0,
                        "rounds": 5,
                        "finished": True,
                    }
                )
            )
            for seat in (0, 1):
                frames_p.append(
                    pd.DataFrame(
                        {
                            "variant": "fresh",
                            "lineup": lineup,
                            "match": number,
                            "seat": seat,
                            "seed": number,
                            "profile": ["plain", "lucky"][seat],
                            "won": won[start:matches] == (seat == 0),
                        }
                    )
                )
        return {
            "matches": pd.concat(frames_m, ignore_index=True),
            "players": pd.concat(frames_p, ignore_index=True),
            "rounds": pd.DataFrame(),
            "events": pd.DataFrame(),
        }

    return play


def candidate(balance, in_sample: float = 0.5, half_width: float | None = None) -> dict:
    """A stored complete trial: in-sample value of every target, and a 90 % interval if given."""
    labels = [t.label for t in balance.settings.targets]
    trial = {
        "number": 0,
        "state": "complete",
        "loss": 0.0,
        "point": {"game.seat0_bonus": 1},
        "values": {label: in_sample for label in labels},
        "matches": 400,
    }
    if half_width is not None:
        trial["intervals"] = {label: [in_sample - half_width, in_sample + half_width] for label in labels}
    return trial
