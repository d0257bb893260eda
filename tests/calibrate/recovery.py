"""Recovery studies of calibration on the shipped games: score sheets simulated from known
profiles, fitted against one emulator, and how often the 95 % intervals hold the truth.

Used by tests/calibrate/test_recovery_games.py (the bounded slow tests) and, with more
repeats, as a script that prints the figures of the README:

    PYTHONPATH=. .venv/bin/python -m tests.calibrate.recovery --game curlastique [--repeats 20] [--jobs 2]

A study is one :class:`Study`: the game, the rules, the space fitted (the skill axis or named
profile keys), the true numbers of each player, and the emulator's design. The sheets are
played with seeds that the design never uses (``simulated_sheet``'s own root seeds).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analysis.calibrate.calibration import Emulated, SheetFit, build_emulators, fit_sheet, sheet_outcome
from analysis.calibrate.outcome import RoundOutcome
from analysis.calibrate.sheet import read_game_sheet, sheet_hooks
from analysis.calibrate.space import KeySpace, SkillSpace, parse_fit_keys
from analysis.calibrate.synthetic import simulated_sheet
from sim.core import get_game, load_rules
from sim.core.game import Player

NAMES = ("Ann", "Bob", "Cid", "Dee")


@dataclass(frozen=True)
class Study:
    """What is simulated and fitted.

    Attributes:
        game: the game's name; overrides: rules overrides (``key=value``) of sheets and design.
        truths: per player, its true numbers (one per fitted axis, natural units).
        fit: profile keys fitted (``--fit``; empty: the game's skill axis); base: their preset.
        value: the sheet's column (``points`` or ``position``); words: its words (``ko``).
        points, matches: the emulator's design (line-ups, matches each).
    """

    game: str
    truths: tuple[tuple[float, ...], ...]
    overrides: tuple[str, ...] = ()
    fit: str = ""
    base: str = ""
    value: str = "points"
    words: tuple[str, ...] = ()
    points: int = 81
    matches: int = 8
    round_word: str = "round"
    names: tuple[str, ...] = field(default=NAMES)

    def space(self, spec):
        if self.fit:
            return KeySpace(spec, self.base, parse_fit_keys(spec, self.fit, self.base))
        return SkillSpace(spec, spec.skill_path)


#: The studies of the tests: a Curlastique player of angle σ 1.7° and speed σ 4 % beside a
#: steadier player, and unequal players on the skill axis of Carrom and Gastérospeed.
STUDIES = {
    "curlastique": Study(
        "curlastique",
        truths=((1.7, 0.04), (0.9, 0.02)),
        overrides=("game.target_score=500",),
        fit="angle_sigma_deg,speed_sigma_rel",
        base="club",
    ),
    # Carrom and Gastérospeed fit one axis: 41 design points of 4 matches (not 81 of 8) keep the
    # suite's budget; their intervals hold the truth as often (docs/statistics.md, "Known truth").
    "carrom": Study("carrom", truths=((0.5,), (2.0,)), overrides=("game.target_points=25",), points=41, matches=4),
    "gasterospeed": Study(
        "gasterospeed",
        truths=((0.5,), (1.5,), (0.5,), (1.5,)),
        value="position",
        words=("ko",),
        round_word="race",
        points=41,
        matches=4,
    ),
}


class Recovery:
    """One study's emulator (built once) and its sheets' fits."""

    def __init__(self, study: Study, jobs: int = 1, folder: Path | None = None):
        self.study = study
        self.spec = get_game(study.game)
        self.rules = load_rules(self.spec, None, list(study.overrides))
        self.space = study.space(self.spec)
        n = len(study.truths)
        self.players = tuple(Player(study.names[i], self.space.profile(t)) for i, t in enumerate(study.truths))
        source = sheet_hooks(self.spec).source(study.value)
        self.outcome = RoundOutcome(study.value, source, study.words)
        self.folder = Path(folder or tempfile.mkdtemp(prefix="recovery-"))
        started = time.process_time()
        self.emulated: Emulated = build_emulators(
            self.spec,
            self.rules,
            self.space,
            self.outcome,
            (n,),
            points=study.points,
            matches=study.matches,
            seed=1,
            jobs=jobs,
            progress=False,
        )
        self.seconds = time.process_time() - started

    def sheet_text(self, rounds: int, seed: int) -> str:
        """The CSV of a sheet of at least ``rounds`` rounds (whole matches) played by the truth."""
        return simulated_sheet(
            self.spec,
            self.rules,
            self.players,
            self.study.names[: len(self.players)],
            rounds,
            1000 + seed,
            self.outcome,
            round_word=self.study.round_word,
        )

    def fit_text(self, text: str, name: str) -> SheetFit:
        """Read and check a sheet's CSV as ``tablesim calibrate`` does, and fit it."""
        path = self.folder / f"{name}.csv"
        path.write_text(text)
        sheet = read_game_sheet(self.spec, path, self.rules)
        assert sheet_outcome(self.spec, sheet).source == self.outcome.source
        return fit_sheet(self.emulated, sheet)

    def fit(self, rounds: int, seed: int) -> SheetFit:
        """A sheet of ``rounds`` rounds played by the truth, fitted."""
        return self.fit_text(self.sheet_text(rounds, seed), f"sheet-{rounds}-{seed}")


def pooled(texts: list[str]) -> str:
    """One sheet holding the matches of several (renumbered one after the other): what a
    designer's sheet becomes after more playtests."""
    header, rows, offset = texts[0].splitlines()[0], [], 0
    for text in texts:
        lines = text.splitlines()[1:]
        numbers = [int(line.split(",", 1)[0]) for line in lines]
        rows += [f"{n + offset},{line.split(',', 1)[1]}" for n, line in zip(numbers, lines)]
        offset += max(numbers)
    return "\n".join([header, *rows]) + "\n"


@dataclass
class Coverage:
    """Per (player, axis): how many of the sheets' intervals held the truth, and their widths
    (sheets, players, axes); the sheets' CSV texts."""

    covered: np.ndarray
    widths: np.ndarray
    estimates: np.ndarray
    sheets: int
    texts: list[str] = field(default_factory=list)

    @property
    def share(self) -> float:
        return float(self.covered.sum() / (self.covered.size * self.sheets))


def coverage(
    recovery: Recovery, rounds: int, repeats: int, first_seed: int = 0, texts: list[str] | None = None
) -> Coverage:
    """Fit ``repeats`` sheets of ``rounds`` rounds (seeds ``first_seed``...), or the sheets
    ``texts`` when given."""
    truths = np.array(recovery.study.truths, dtype=float)
    covered = np.zeros(truths.shape, dtype=int)
    widths, estimates = [], []
    texts = list(texts) if texts is not None else [recovery.sheet_text(rounds, first_seed + r) for r in range(repeats)]
    for index, text in enumerate(texts):
        fit = recovery.fit_text(text, f"sheet-{index}")
        low = np.array([[lo for lo, _ in p.intervals] for p in fit.players])
        high = np.array([[hi for _, hi in p.intervals] for p in fit.players])
        covered += (low <= truths) & (truths <= high)
        widths.append(high - low)
        estimates.append(np.array([p.values for p in fit.players]))
    return Coverage(covered, np.array(widths), np.array(estimates), len(texts), texts)


def grown(result: Coverage, recovery: Recovery, group: int = 4) -> Coverage:
    """The same sheets pooled ``group`` at a time (each ``group`` times as long), fitted."""
    texts = [pooled(result.texts[i : i + group]) for i in range(0, len(result.texts) - group + 1, group)]
    return coverage(recovery, 0, 0, texts=texts)


def ordered(estimates: np.ndarray, truths: np.ndarray, axis: int = 0) -> int:
    """Sheets (of ``estimates`` (sheets, players, axes)) whose estimates on ``axis`` order every
    pair of players with different truths as the truths do."""
    t = truths[:, axis]
    pairs = [(i, j) for i in range(len(t)) for j in range(len(t)) if t[i] < t[j]]
    return sum(all(e[i, axis] < e[j, axis] for i, j in pairs) for e in estimates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(STUDIES), required=True)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    study = STUDIES[args.game]
    started = time.time()
    recovery = Recovery(study, jobs=args.jobs)
    print(
        f"{args.game}: {recovery.space.description}; emulator from {recovery.emulated.matches_played} matches "
        f"({time.time() - started:.0f} s)"
    )
    result = coverage(recovery, args.rounds, args.repeats, args.first_seed)
    truths = np.array(study.truths)
    for p, name in enumerate(study.names[: len(study.truths)]):
        for k, axis in enumerate(recovery.space.axes):
            print(
                f"  {name} {axis.key} truth {truths[p, k]:g}: covered {result.covered[p, k]}/{args.repeats}, "
                f"mean estimate {result.estimates[:, p, k].mean():.3g}, mean width {result.widths[:, p, k].mean():.3g}"
            )
    print(
        f"coverage {result.covered.sum()}/{result.covered.size * args.repeats} = {result.share:.3f}; "
        f"ordered as the truth in {ordered(result.estimates, truths)}/{args.repeats} sheets"
    )
    longer = grown(result, recovery)
    print(
        f"the same sheets pooled 4 by 4 ({longer.sheets} sheets of {4 * args.rounds} rounds): mean width "
        f"{longer.widths.mean():.3g} against {result.widths.mean():.3g} ({longer.widths.mean() / result.widths.mean():.2f}); "
        f"coverage {longer.covered.sum()}/{longer.covered.size * longer.sheets} ({time.time() - started:.0f} s in all)"
    )


if __name__ == "__main__":
    main()
