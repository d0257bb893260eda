"""`tablesim check` against a known truth: how often its exit status is wrong, and its power.

Not a test module: ``tests/analysis/test_check_truth.py`` runs a few scenarios of it with few
repetitions, and

    PYTHONPATH=. .venv/bin/python -m tests.analysis.check_truth --reps 400 [--processes 2]

prints the whole table: for every scenario the share of repetitions (independent root seeds)
that exit 0, 1 and 3, the error rate (the exit status the module's claim bounds by α) with its
exact Clopper–Pearson 95 % interval, the power, the mean number of looks and the mean matches
played per line-up.

**The claim** (:mod:`analysis.check`): the exit status is wrong with chance at most α however the
stages went: 0 (every target met) when some target truly lies outside its band, 1 (missed) when
every target shown missed truly lies inside. A truth *on* a band edge is the worst case of the
first kind (the supremum over truths outside the band, by continuity), one inside the band of the
second.

**The game** (``truth-duel``, registered only inside :func:`registered`): two seats and no
decisions. Every draw of a match comes from its ``chance`` stream (``seeds.rng("chance")``, the
match's seeded generator; it does not depend on who sits where), in this order:

* seat 0 wins when ``U < game.seat0``, U uniform on [0, 1): seat 0's win rate is ``game.seat0``
  exactly, whatever the profiles;
* ``rounds`` ~ Geometric(``game.stop``) on 1, 2, ...: mean exactly ``1 / stop``;
* ``minutes`` (the game's declared length, ``GameSpec.length``) ~ Exponential with mean
  ``game.minutes``: mean exactly ``minutes``, median exactly ``minutes · ln 2``.

With ``rotate_seats`` both rotations of a seed draw the same U (the chance stream is the seed's),
so seat 0 wins both or neither: its rate is still exactly ``game.seat0``, now with a within-seed
correlation of 1 (design effect 2), the hardest case for the seed-clustered interval; lengths are
duplicated across the rotations likewise.

Every repetition writes a check file, reads it with :func:`analysis.check.load_check` and plays
it with :func:`analysis.check.run_check` (``jobs = 1``, ``determinism = 0``), in this process.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from scipy import stats

from analysis.check import load_check, run_check
from sim.core import game as registry
from sim.core.config import param
from sim.core.game import GameLength, GameSpec, MatchLog

NAME = "truth-duel"

RULES_TOML = """\
[game]
seat0 = 0.5      # chance that seat 0 wins
stop = 0.5       # chance the game stops after each round: rounds ~ Geometric(stop), mean 1 / stop
minutes = 30.0   # mean duration, exponential: the game's declared length
"""

PROFILES_TOML = """\
[plain]
bonus = 0.0
"""


@dataclass(frozen=True)
class Duel:
    seat0: float = param(0.5, min=0.0, max=1.0, doc="chance that seat 0 wins")
    stop: float = param(
        0.5,
        min=0.0,
        max=1.0,
        min_exclusive=True,
        doc="chance the game stops after each round (rounds ~ Geometric, mean 1 / stop)",
    )
    minutes: float = param(30.0, min=0.0, min_exclusive=True, unit="min", doc="mean duration (exponential)")


@dataclass(frozen=True)
class DuelRules:
    game: Duel = Duel()


@dataclass(frozen=True)
class DuelProfile:
    bonus: float = param(0.0, min=0.0, doc="ignored: the game has no decisions")


def play_match(rules: DuelRules, players, seeds) -> MatchLog:
    """One match: the winner, the rounds and the minutes, all from the ``chance`` stream (pure)."""
    rng = seeds.rng("chance")
    winner = 0 if rng.random() < rules.game.seat0 else 1
    rounds = int(rng.geometric(rules.game.stop))
    minutes = float(rng.exponential(rules.game.minutes))
    rows = [
        {
            "round": r,
            "seat": s,
            "points": float(r == rounds and s == winner),
            "cumulative": float(r == rounds and s == winner),
        }
        for r in range(1, rounds + 1)
        for s in range(2)
    ]
    players_rows = [
        {
            "seat": s,
            "profile": p.name,
            "team": -1,
            "score": float(s == winner),
            "rank": 1 if s == winner else 2,
            "won": s == winner,
        }
        for s, p in enumerate(players)
    ]
    return MatchLog(
        matches={"winner": winner, "winning_team": -1, "rounds": rounds, "finished": True, "minutes": minutes},
        players=players_rows,
        rounds=rows,
    )


def spec(folder: Path) -> GameSpec:
    """The game, its default rules and presets written into ``folder``."""
    rules, profiles = folder / "truth_duel_rules.toml", folder / "truth_duel_profiles.toml"
    rules.write_text(RULES_TOML, encoding="utf-8")
    profiles.write_text(PROFILES_TOML, encoding="utf-8")
    return GameSpec(
        name=NAME,
        title="Truth duel",
        rules_type=DuelRules,
        default_rules=rules,
        profile_type=DuelProfile,
        profiles=profiles,
        play_match=play_match,
        player_counts=(2,),
        length=GameLength(column="minutes", unit="minutes"),
    )


@contextlib.contextmanager
def registered(folder: Path) -> Iterator[GameSpec]:
    """``truth-duel`` in the game registry for the ``with`` block (worker-free runs: ``jobs = 1``)."""
    with registry.registered_while(spec(folder)) as game:
        yield game


@dataclass(frozen=True)
class Scenario:
    """A check file with a known truth, and which exit status would be the error.

    ``wrong`` is the exit status that the claim bounds by α (0: some target lies outside its band
    or on its edge; 1: every target lies inside its band); ``power`` the exit status that is the
    right decision (None: only the error is of interest, e.g. a truth on the edge).
    """

    name: str
    truth: str  # in words, for the table
    rules: dict[str, float]
    targets: tuple[dict[str, object], ...]
    wrong: int
    power: int | None
    matches: int = 1600
    stages: int = 3
    alpha: float = 0.05
    rotate_seats: bool = False
    bootstrap: int = 400

    def text(self, seed: int) -> str:
        lines = [
            f'game = "{NAME}"',
            f"seed = {seed}",
            f"matches = {self.matches}",
            f"stages = {self.stages}",
            f"alpha = {self.alpha}",
            "determinism = 0",
            f"bootstrap = {self.bootstrap}",
            f"rotate_seats = {'true' if self.rotate_seats else 'false'}",
            f"chunk_size = {self.matches}",
            "[baseline]",
            "set = { " + ", ".join(f'"game.{k}" = {v!r}' for k, v in self.rules.items()) + " }",
            "[[lineups]]",
            'name = "duel"',
            'players = ["plain", "plain"]',
        ]
        for target in self.targets:
            lines.append("[[targets]]")
            lines += [f"{k} = {v!r}" if not isinstance(v, str) else f'{k} = "{v}"' for k, v in target.items()]
        return "\n".join(lines) + "\n"


SEAT = {"metric": "seat_win_rate", "seat": 0, "target": 0.5, "tolerance": 0.05}
MINUTES = {"metric": "length_mean", "target": 25.0, "tolerance": 5.0}  # band [20, 30]

#: Every scenario of the table; the test runs those named in its own list.
SCENARIOS = {
    s.name: s
    for s in [
        Scenario("seat-edge", "seat 0 wins 0.55 = band high", {"seat0": 0.55}, (SEAT,), wrong=0, power=None),
        Scenario("seat-centre", "seat 0 wins 0.50 = band centre", {"seat0": 0.5}, (SEAT,), wrong=1, power=0),
        Scenario("seat-far", "seat 0 wins 0.65, band high 0.55", {"seat0": 0.65}, (SEAT,), wrong=0, power=1),
        Scenario(
            "seat-edge-rotated",
            "0.55 = band high, rotations, within-seed corr. 1",
            {"seat0": 0.55},
            (SEAT,),
            wrong=0,
            power=None,
            rotate_seats=True,
        ),
        Scenario(
            "seat-centre-rotated",
            "0.50 = centre, rotations, within-seed corr. 1",
            {"seat0": 0.5},
            (SEAT,),
            wrong=1,
            power=0,
            rotate_seats=True,
        ),
        Scenario(
            "minutes-mean-edge-high",
            "mean minutes 30 = band high (exponential)",
            {"minutes": 30.0},
            (MINUTES,),
            wrong=0,
            power=None,
        ),
        Scenario(
            "minutes-mean-edge-high-200",
            "mean minutes 30 = band high, 50/100/200 matches",
            {"minutes": 30.0},
            ({"metric": "length_mean", "low": 10.0, "high": 30.0},),
            wrong=0,
            power=None,
            matches=200,
        ),
        Scenario(
            "minutes-mean-upper-100",
            "mean minutes 30 = band high, 25/50/100 matches",
            {"minutes": 30.0},
            ({"metric": "length_mean", "low": 0.0, "high": 30.0},),
            wrong=0,
            power=None,
            matches=100,
        ),
        Scenario(
            "minutes-mean-edge-low",
            "mean minutes 20 = band low (exponential)",
            {"minutes": 20.0},
            (MINUTES,),
            wrong=0,
            power=None,
        ),
        Scenario(
            "minutes-mean-centre", "mean minutes 25 = band centre", {"minutes": 25.0}, (MINUTES,), wrong=1, power=0
        ),
        Scenario(
            "minutes-median-edge",
            "median minutes 30 ln 2 = band high",
            {"minutes": 30.0},
            ({"metric": "length_quantile", "quantile": 0.5, "low": 30 * math.log(2) - 5, "high": 30 * math.log(2)},),
            wrong=0,
            power=None,
        ),
        Scenario(
            "rounds-mean-edge",
            "mean rounds 1/0.4 = 2.5 = band high (geometric)",
            {"stop": 0.4},
            ({"metric": "rounds_mean", "low": 2.0, "high": 2.5},),
            wrong=0,
            power=None,
        ),
        Scenario(
            "two-edge+centre",
            "seat 0.55 on its edge, minutes 25 at its centre",
            {"seat0": 0.55, "minutes": 25.0},
            (SEAT, MINUTES),
            wrong=0,
            power=None,
        ),
        Scenario(
            "two-centre",
            "seat 0.50 and minutes 25 both at their centres",
            {"seat0": 0.5, "minutes": 25.0},
            (SEAT, MINUTES),
            wrong=1,
            power=0,
        ),
    ]
}


@dataclass
class Outcome:
    """The repetitions of one scenario: counts of each exit status, looks and matches."""

    scenario: Scenario
    exits: dict[int, int]
    looks: list[int]
    matches: list[int]
    seconds: float

    @property
    def reps(self) -> int:
        return len(self.looks)

    @property
    def errors(self) -> int:
        return self.exits.get(self.scenario.wrong, 0)

    @property
    def error_rate(self) -> float:
        return self.errors / self.reps

    @property
    def power(self) -> float | None:
        return None if self.scenario.power is None else self.exits.get(self.scenario.power, 0) / self.reps

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        ci = stats.binomtest(self.errors, self.reps).proportion_ci(confidence_level=confidence, method="exact")
        return float(ci.low), float(ci.high)

    def excess_p(self) -> float:
        """One-sided exact binomial p-value of "the error rate is at most α"."""
        return float(stats.binom.sf(self.errors - 1, self.reps, self.scenario.alpha))


def run(scenario: Scenario, reps: int, folder: Path, first_seed: int = 1) -> Outcome:
    """``reps`` checks of the scenario, root seeds ``first_seed`` .. (the game must be registered)."""
    exits: dict[int, int] = {}
    looks, matches = [], []
    started = time.perf_counter()
    path = folder / f"{scenario.name}.toml"
    for seed in range(first_seed, first_seed + reps):
        path.write_text(scenario.text(seed), encoding="utf-8")
        summary = run_check(load_check(path), jobs=1, backend="sequential", progress=False)
        exits[summary["exit_status"]] = exits.get(summary["exit_status"], 0) + 1
        looks.append(len(summary["looks"]))
        matches.append(summary["matches_per_cell"])
    return Outcome(scenario, exits, looks, matches, time.perf_counter() - started)


def row(outcome: Outcome) -> str:
    s = outcome.scenario
    low, high = outcome.interval()
    shares = "  ".join(f"{outcome.exits.get(code, 0) / outcome.reps:5.3f}" for code in (0, 1, 3))
    power = "    -" if outcome.power is None else f"{outcome.power:5.3f}"
    flag = " *" if outcome.excess_p() < 0.001 else ""
    return (
        f"{s.name:<24} {outcome.reps:>5}  {shares}   exit {s.wrong}: {outcome.error_rate:5.3f} "
        f"[{low:5.3f}, {high:5.3f}]{flag:<2}  {power}  {sum(outcome.looks) / outcome.reps:4.2f}  "
        f"{sum(outcome.matches) / outcome.reps:7.0f}  {outcome.seconds:6.1f}"
    )


HEADER = (
    f"{'scenario':<24} {'reps':>5}  {'P(0)':>5}  {'P(1)':>5}  {'P(3)':>5}   error (95 % exact CI)"
    f"         power  looks  matches       s"
)


def _run_one(name: str, reps: int, first_seed: int) -> Outcome:
    with tempfile.TemporaryDirectory() as tmp, registered(Path(tmp)):
        return run(SCENARIOS[name], reps, Path(tmp), first_seed)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=200, help="repetitions (root seeds) per scenario")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--only", nargs="*", default=None, help="scenario names (default: all)")
    parser.add_argument("--processes", type=int, default=1, help="scenarios played at once (one process each)")
    args = parser.parse_args(argv)
    names = args.only or list(SCENARIOS)
    print(HEADER, flush=True)
    if args.processes > 1:
        with ProcessPoolExecutor(args.processes) as pool:
            futures = [pool.submit(_run_one, name, args.reps, args.first_seed) for name in names]
            for future in futures:
                print(row(future.result()), flush=True)
    else:
        for name in names:
            print(row(_run_one(name, args.reps, args.first_seed)), flush=True)
    print()
    for name in names:
        s = SCENARIOS[name]
        print(
            f"{name}: {s.truth}; targets {', '.join(_band(t) for t in s.targets)}; matches {s.matches}, "
            f"stages {s.stages}, alpha {s.alpha}{', rotate_seats' if s.rotate_seats else ''}"
        )
    print(
        "error: share of the exit status the claim bounds by alpha (0 for a truth outside or on an edge, 1 for "
        "one inside); * = above alpha at one-sided level 0.001 (exact binomial); power: share of the right "
        "exit status; looks: mean looks used; matches: mean matches per line-up played; s: seconds"
    )


def _band(target: dict) -> str:
    if "target" in target:
        low, high = target["target"] - target["tolerance"], target["target"] + target["tolerance"]
    else:
        low, high = target["low"], target["high"]
    detail = f" q{target['quantile']}" if "quantile" in target else ""
    return f"{target['metric']}{detail} [{low:.4g}, {high:.4g}]"


if __name__ == "__main__":
    main()


__all__ = ["NAME", "Scenario", "SCENARIOS", "Outcome", "registered", "run", "play_match", "spec", "main"]
