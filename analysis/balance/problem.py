"""What balance and sensitivity files share: a game, baseline rules, a space, line-ups.

:func:`load_problem` reads such a file into its settings dataclass and checks, once, everything
that can be checked before a match is played: the game exists, the baseline rules load, both
corners of the parameter space are valid rule sets (unknown keys, bad bounds) and every
line-up's profiles exist. Every problem is reported on its own line, naming the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.core.config import ConfigError, build, read_toml, to_dict
from sim.core.game import GameSpec, get_game
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules

from .space import SearchSpace

__all__ = ["Problem", "load_problem"]


@dataclass
class Problem:
    """A validated search problem: the game, its baseline, the space and the line-ups."""

    path: Path
    spec: GameSpec
    settings: Any  # the file's dataclass (BalanceFile, SensitivityFile)
    space: SearchSpace
    lineups: dict[str, tuple] = field(default_factory=dict)

    @property
    def rules_file(self) -> Path | None:
        base = self.settings.baseline
        return self.path.parent / base.rules if base.rules else None

    def baseline_rules(self):
        """The baseline rules (the rules file and the baseline's overrides, no point)."""
        return load_rules(self.spec, self.rules_file, list(self.settings.baseline.set.items()), override_label="")

    def placed(self, target):
        """The target on its line-up: one without a ``lineup`` is measured on the first line-up."""
        if target.lineup:
            return target
        from dataclasses import replace

        return replace(target, lineup=self.settings.lineups[0].name)

    def rules(self, point: dict[str, Any]):
        """The rules of a point: baseline file and overrides, then the point's overrides."""
        overrides = [*self.settings.baseline.set.items(), *self.space.overrides(point)]
        return load_rules(self.spec, self.rules_file, overrides, override_label="")


def load_problem(path: str | Path, settings_type: type, data: dict | None = None) -> Problem:
    """Build ``settings_type`` from the TOML file (or ``data`` read from it) and validate it."""
    path = Path(path)
    data = read_toml(path) if data is None else data
    settings = build(settings_type, data, sources={k: str(path) for k in data}, default_source=str(path))
    try:
        spec = get_game(settings.game)
    except KeyError as exc:
        raise ConfigError([f"{path}: game: {exc.args[0]}"]) from None
    base = settings.baseline
    try:
        baseline = load_rules(
            spec, path.parent / base.rules if base.rules else None, list(base.set.items()), override_label=""
        )
    except ConfigError as exc:
        raise ConfigError([f"{path}: baseline: {line}" for line in exc.problems]) from None
    problem = Problem(path, spec, settings, SearchSpace(settings.parameters, to_dict(baseline)))
    problems: list[str] = []
    # every corner of the space must be a valid rule set (catches unknown keys and bad bounds)
    for corner in ("low", "high"):
        point = {}
        for p in settings.parameters:
            grid = p.grid()
            value = grid[0] if corner == "low" else grid[-1]
            point[p.name] = [value] * p.dimensions if p.kind in ("int_list", "counts") else value
        try:
            problem.rules(problem.space.normalise(point))
        except ConfigError as exc:
            problems += [f"{path}: parameters ({corner} corner): {line}" for line in exc.problems]
        except (KeyError, IndexError) as exc:
            problems.append(f"{path}: parameters: unknown list key {exc}")
    for lineup in settings.lineups:
        try:
            problem.lineups[lineup.name] = load_lineup(spec, list(lineup.players), baseline)
        except ConfigError as exc:
            problems += [f"{path}: lineup {lineup.name!r}: {line}" for line in exc.problems]
    if problems:
        raise ConfigError(list(dict.fromkeys(problems)))
    return problem
