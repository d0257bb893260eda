"""Calibration of games that end mid-round (tests/calibrate/racegame.py: Pig as a race, whose
match stops the moment a seat reaches the target, so the seats after it have no row in the
last round).

The MatchLog contract allows such rounds (the conformance suite's ``rounds_shape`` check): every
seat plays round 1, and only a match's last rounds may leave seats out. A score sheet of such
games is read by the same rule, the fit sums over the rows that exist on the sheet and in the
simulated tables alike, and planted profiles are recovered; a round that leaves a player out is
refused where the game never leaves one out.
"""

from __future__ import annotations

import pandas as pd
import pytest

from analysis.calibrate.calibration import _counts, build_emulators, fit_sheet
from analysis.calibrate.outcome import RoundOutcome
from analysis.calibrate.sheet import read_game_sheet, read_sheet
from analysis.calibrate.space import SkillSpace
from analysis.calibrate.synthetic import simulated_sheet
from sim.core import load_rules
from sim.core.config import ConfigError
from sim.core.runner import Cell, run_cells
from sim.core.skill import player_at_skill
from sim.testing import run_case
from sim.testing.conformance import Case, rounds_shape_problem
from tests.calibrate import racegame
from tests.core.reliability import error_lines, run_cli

POINTS = RoundOutcome("points", "points")
TRUTH = (0.5, 1.5)  # skills of Ann and Bob (cautious = 0, standard = 1, bold = 2)
NAMES = ("Ann", "Bob")


@pytest.fixture(scope="module")
def race():
    with racegame.registered() as spec:
        yield spec


@pytest.fixture(scope="module")
def emulated(race):
    space = SkillSpace(race, race.skill_path)
    return build_emulators(
        race, load_rules(race), space, POINTS, (2,), points=81, matches=8, seed=1, progress=False, max_bins=6
    )


def _partial(rows, column: str = "player") -> int:
    """Rounds of a sheet's rows (or a rounds table's, ``column="seat"``) that leave someone out."""
    sizes = rows.groupby(["match", "round"])[column].nunique()
    players = rows.groupby("match")[column].nunique()
    return int((sizes < players.reindex(sizes.index.get_level_values("match")).to_numpy()).sum())


def test_the_race_ends_mid_round_and_its_rounds_table_has_the_contracts_shape(race):
    rules = load_rules(race)
    players = tuple(player_at_skill(race, s) for s in TRUTH)
    tables = run_cells(race, [Cell("v", "l", rules, players)], 40, 3, progress=False)
    rounds, matches = tables["rounds"], tables["matches"]
    last = rounds.groupby("match")["round"].transform("max")
    short = rounds.groupby(["match", "round"])["seat"].transform("size") < 2
    assert short.any() and (rounds.loc[short, "round"] == last[short]).all()
    assert rounds_shape_problem(rounds, matches, 2) is None
    for n in race.player_counts:
        run_case(Case("rounds_shape", race.name, players=n))


def test_a_sheet_whose_last_round_leaves_players_out_is_read(tmp_path):
    """Bob has no row in round 2 (Ann won it before his turn): read, both players seated."""
    path = tmp_path / "sheet.csv"
    path.write_text(
        "match,round,player,points\n1,1,Ann,30\n1,1,Bob,0\n1,2,Ann,25\n"
        "2,1,Bob,12\n2,1,Ann,0\n2,2,Bob,22\n2,2,Ann,0\n2,3,Bob,20\n"
    )
    sheet = read_sheet(path)
    assert sheet.lineups == {"1": ("Ann", "Bob"), "2": ("Bob", "Ann")}
    assert len(sheet.rows) == 8 and (sheet.rounds_of("Ann"), sheet.rounds_of("Bob")) == (4, 4)


def test_planted_skills_are_recovered_from_sheets_of_races_won_mid_round(race, emulated, tmp_path):
    """10 sheets of 60 rounds played at skills 0.5 and 1.5, each with matches whose last round
    leaves Bob or Ann out: at least 17 of the 20 95 % intervals hold the truth, every sheet
    orders Ann below Bob. The fit compares like with like: the likelihood counts each sheet row
    once (none for the rows that do not exist), the emulator each simulated row once. Seeded."""
    rules = load_rules(race)
    players = [player_at_skill(race, s) for s in TRUTH]
    rows = len(emulated.rounds[2].seat)
    assert _counts(emulated.rounds[2], emulated.designs[2], emulated.categories).sum() == rows
    assert 0 < emulated.rounds[2].partial_rounds(2) < rows
    covered, ordered = 0, 0
    for repeat in range(10):
        path = tmp_path / f"sheet-{repeat}.csv"
        path.write_text(simulated_sheet(race, rules, players, NAMES, 60, 1000 + repeat, POINTS, batch=24))
        sheet = read_game_sheet(race, path, rules)
        assert _partial(sheet.rows) > 0
        fit = fit_sheet(emulated, sheet)
        assert sum(g.counts.sum() for g in fit.likelihood.groups) == len(sheet.rows)
        assert [p.rounds for p in fit.players] == [sheet.rounds_of(n) for n in NAMES]
        for player, truth in zip(fit.players, TRUTH):
            low, high = player.intervals[0]
            covered += low <= truth <= high
        ordered += fit.players[0].values[0] < fit.players[1].values[0]
    assert covered >= 17, covered
    assert ordered == 10, ordered


def test_calibrate_command_on_a_sheet_of_races_won_mid_round(race, tmp_path, capsys):
    rules = load_rules(race)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(
        simulated_sheet(race, rules, [player_at_skill(race, 0.4), player_at_skill(race, 1.6)], NAMES, 40, 11, POINTS)
    )
    assert _partial(read_sheet(sheet).rows) > 0
    out = tmp_path / "cal"
    code, stdout, err = run_cli(
        capsys,
        "calibrate",
        race.name,
        sheet,
        "--out",
        out,
        "--points",
        "9",
        "--matches",
        "8",
        "--bins",
        "5",
        "--no-progress",
    )
    assert code == 0, err
    assert "Ann" in stdout and "Bob" in stdout and "goodness of fit" in stdout
    for name in ("fit.csv", "goodness.csv", "calibrate.html", "profiles/Ann.toml", "profiles/Bob.toml"):
        assert (out / name).is_file(), name


def test_a_round_leaving_a_player_out_is_refused_where_the_game_never_does(tmp_path, capsys):
    """Pig plays every round in full: Bob's missing row in the last round is a missing row,
    refused in one line once the design shows Pig never leaves a player out; nothing written."""
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("match,round,player,points\n1,1,Ann,12\n1,1,Bob,0\n1,2,Ann,11\n1,2,Bob,21\n1,3,Ann,30\n")
    out = tmp_path / "out"
    code, _, err = run_cli(
        capsys, "calibrate", "pig", sheet, "--out", out, "--points", "4", "--matches", "2", "--no-progress"
    )
    lines = error_lines(err)
    assert code == 2 and len(lines) == 1, err
    assert (
        f"{sheet}: row 6: column player: match 1 round 3: no row for Bob (pig left no player out of a round "
        "in 8 simulated matches of 2 players: write a row for every player"
    ) in lines[0]
    assert "Traceback" not in err and not out.exists()


#: (round, seat) rows of one two-player match, and whether the contract allows them.
SHAPES = {
    "a short last round": ([(1, 0), (1, 1), (2, 0), (2, 1), (3, 0)], True),
    "a short last round, then a shorter": ([(1, 0), (1, 1), (2, 1), (3, 1)], True),
    "a row missing before a full round": ([(1, 0), (1, 1), (2, 0), (3, 0), (3, 1)], False),
    "a seat missing from round 1": ([(1, 0), (2, 0), (2, 1)], False),
    "a gap in the rounds": ([(1, 0), (1, 1), (3, 0), (3, 1)], False),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_sheet_and_the_simulated_tables_follow_one_rule(shape, tmp_path):
    """What the conformance check refuses in a game's rounds table, the sheet reader refuses on
    a sheet of the same shape (one line), and what it allows, both accept."""
    cells, allowed = SHAPES[shape]
    rounds = pd.DataFrame({"match": 0, "round": [r for r, _ in cells], "seat": [s for _, s in cells]})
    matches = pd.DataFrame({"match": [0], "rounds": [max(r for r, _ in cells)]})
    assert (rounds_shape_problem(rounds, matches, 2) is None) == allowed, rounds_shape_problem(rounds, matches, 2)
    path = tmp_path / "sheet.csv"
    path.write_text("match,round,player,points\n" + "".join(f"1,{r},{NAMES[s]},5\n" for r, s in cells))
    if allowed:
        assert len(read_sheet(path).rows) == len(cells)
    else:
        with pytest.raises(ConfigError) as refused:
            read_sheet(path)
        assert len(refused.value.problems) == 1, refused.value.problems
