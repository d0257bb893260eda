"""The shipped games' score sheets, through ``tablesim calibrate``.

Each game reads the documented sheet format without ``--source`` (Curlastique and Carrom
``match,round,player,points``, Gastérospeed ``match,race,player,position`` with ``ko``); a bad
sheet (unknown column, a player missing a round, points the rules cannot produce, a position
repeated in a race or beyond the race's snails) is one line naming the file, the row and the
column, exit status 2, and the output directory is not created. The values allowed follow the
rules given (``--set``), and one small calibration per game writes the players' profiles.
"""

from __future__ import annotations

import pytest

from analysis.calibrate.outcome import RoundOutcome
from analysis.calibrate.sheet import read_game_sheet
from analysis.calibrate.synthetic import simulated_sheet
from sim.core import get_game, load_rules
from sim.core.skill import player_at_skill
from tests.core.reliability import error_lines, run_cli

POINTS = "match,round,player,points\n"
RACES = "match,race,player,position\n"

#: A good sheet per game (under the default rules): 2 players, 2 rounds.
GOOD = {
    "curlastique": POINTS + "1,1,Ann,120\n1,1,Bob,40\n1,2,Ann,460\n1,2,Bob,0\n",
    "carrom": POINTS + "1,1,Ann,12\n1,1,Bob,0\n1,2,Ann,0\n1,2,Bob,7\n",
    "gasterospeed": RACES + "1,1,Ann,1\n1,1,Bob,2\n1,2,Ann,ko\n1,2,Bob,1\n",
}


def _edit(game: str, old: str, new: str) -> str:
    assert old in GOOD[game]
    return GOOD[game].replace(old, new)


#: (game, sheet text, extra arguments, what the one error line says after "sheet.csv: ").
BAD = {
    "curlastique unknown column": (
        "curlastique",
        "match,round,player,points,notes\n1,1,Ann,120,x\n",
        (),
        "row 1: column notes: unknown column",
    ),
    "curlastique missing round": (
        "curlastique",
        _edit("curlastique", "1,2,Bob,0\n", "") + "1,3,Ann,20\n1,3,Bob,40\n",
        (),
        "row 4: column player: match 1 round 2: no row for Bob",
    ),
    "curlastique 95 is no sum of zone values": (
        "curlastique",
        _edit("curlastique", "1,1,Bob,40", "1,1,Bob,95"),
        (),
        "row 3: column points: got 95; allowed: the sum of 5 pucks' points, each 100, 80, 40, 20 or 0",
    ),
    "curlastique 4 pucks do not fit in the 100 ring": (
        "curlastique",
        _edit("curlastique", "1,2,Ann,460", "1,2,Ann,500"),
        (),
        "row 4: column points: got 500; allowed: the sum of 5 pucks' points, each 100, 80, 40, 20 or 0 "
        "(zones.values, game.pucks_per_player), at most 3 pucks scoring 100 (no more fit there); the most is 460",
    ),
    "curlastique 120 under other zone values": (
        "curlastique",
        GOOD["curlastique"],
        ("--set", "zones.values=[100,80,50,25]"),
        "row 2: column points: got 120; allowed: the sum of 5 pucks' points, each 100, 80, 50, 25 or 0",
    ),
    "curlastique teams need 4 players": (
        "curlastique",
        GOOD["curlastique"],
        ("--set", "game.teams=true"),
        "row 2: column player: match 1 has 2 players: game.teams = true needs 4 players",
    ),
    "carrom unknown column": (
        "carrom",
        "match,board,player,points\n1,1,Ann,12\n",
        (),
        "row 1: column board: unknown column",
    ),
    "carrom missing round": (
        "carrom",
        _edit("carrom", "1,1,Bob,0\n", ""),
        (),
        "row 2: column player: match 1 round 1: no row for Bob",
    ),
    "carrom 13 is over the board cap": (
        "carrom",
        _edit("carrom", "1,2,Bob,7", "1,2,Bob,13"),
        (),
        "row 5: column points: got 13; allowed: 0 to 12 (the board winner's: the loser's coins left, 0 to 9, "
        "+ 3 for the queen (scoring.queen_points), at most 12 (scoring.max_board_points); the loser's 0)",
    ),
    "carrom 12 over a lowered cap": (
        "carrom",
        GOOD["carrom"],
        ("--set", "scoring.max_board_points=11"),
        "row 2: column points: got 12; allowed: 0 to 11 (",
    ),
    "carrom 10 and 11 need no queen at 12 points": (
        "carrom",
        _edit("carrom", "1,2,Bob,7", "1,2,Bob,10"),
        ("--set", "scoring.queen_points=12"),
        "row 5: column points: got 10; allowed: 0 to 9, 12 (",
    ),
    "gasterospeed unknown column": (
        "gasterospeed",
        "match,race,player,place\n1,1,Ann,1\n",
        (),
        "row 1: column place: unknown column",
    ),
    "gasterospeed missing race": (
        "gasterospeed",
        _edit("gasterospeed", "1,2,Ann,ko\n", "") + "1,3,Ann,2\n1,3,Bob,1\n",
        (),
        "row 4: column player: match 1 race 2: no row for Ann (race 3 has a row for "
        "every player of match 1: only a match's last races may leave out players who "
        "did not play them: a game won mid-race, a tie-break)",
    ),
    "gasterospeed repeated position": (
        "gasterospeed",
        _edit("gasterospeed", "1,1,Bob,2", "1,1,Bob,1"),
        (),
        "row 3: column position: position 1 twice in match 1 race 1",
    ),
    "gasterospeed position beyond the snails": (
        "gasterospeed",
        _edit("gasterospeed", "1,1,Bob,2", "1,1,Bob,3"),
        (),
        "row 3: column position: got 3; allowed: a whole number from 1 (first) to 2 (2 players, one snail each) or ko",
    ),
    "gasterospeed an unknown word": (
        "gasterospeed",
        _edit("gasterospeed", "1,2,Ann,ko", "1,2,Ann,dnf"),
        (),
        "row 4: column position: got 'dnf'; allowed: a whole number from 1",
    ),
    "gasterospeed race points": (
        "gasterospeed",
        "match,race,player,points\n1,1,Ann,9\n1,1,Bob,6\n",
        (),
        "row 3: column points: got 6; allowed: 1, 9 (the race points of 2 players",
    ),
}


#: cases whose sheet has more than one bad row (each is named)
SEVERAL = {"curlastique 120 under other zone values": 2}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_sheet_is_one_line_per_bad_row_exit_2_nothing_written(case, tmp_path, capsys):
    game, text, extra, message = BAD[case]
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(text)
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, "calibrate", game, sheet, "--out", out, *extra)
    lines = error_lines(err)
    assert code == 2, err
    # every bad row is named: the sheet of other zone values has two rows those values cannot make
    assert len(lines) == SEVERAL.get(case, 1) and f"{sheet}: {message}" in lines[0], lines
    assert all(f"{sheet}: row " in line for line in lines)
    assert "Traceback" not in err and not out.exists()


@pytest.mark.parametrize(
    "game, overrides, text",
    [
        ("curlastique", (), GOOD["curlastique"]),
        # a bullseye counted by the puck's centre holds 5 pucks: 500 becomes possible
        ("curlastique", ('zones.line_rule="centre"',), _edit("curlastique", "1,2,Ann,460", "1,2,Ann,500")),
        ("curlastique", ("zones.values=[95,80,40,20]",), POINTS + "1,1,Ann,95\n1,1,Bob,445\n"),  # 3 x 95 + 2 x 80
        ("carrom", (), GOOD["carrom"]),
        (
            "carrom",
            ("scoring.queen_points=4", "scoring.max_board_points=13"),
            _edit("carrom", "1,2,Bob,7", "1,2,Bob,13"),
        ),
        ("carrom", (), POINTS + "1,1,Ann,160\n1,1,Bob,0\n1,1,Cy,0\n"),  # three players: one took every coin
        ("gasterospeed", (), GOOD["gasterospeed"]),
        # two snails each: a player's best snail can be third of four
        ("gasterospeed", ("variants.two_snails=true",), _edit("gasterospeed", "1,1,Bob,2", "1,1,Bob,3")),
    ],
)
def test_good_sheet_is_read(game, overrides, text, tmp_path):
    """The reader accepts what the rules (with their ``--set``) can produce."""
    spec = get_game(game)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(text)
    read = read_game_sheet(spec, sheet, load_rules(spec, overrides=list(overrides)))
    assert read.players[:2] == ("Ann", "Bob") and len(read.rows) == text.count("\n") - 1


#: (game, quick rules, the sheet's outcome as simulated_sheet writes it, its round word).
END_TO_END = {
    "curlastique": (("game.target_score=40",), RoundOutcome("points", "points"), "round"),
    "carrom": (("game.target_points=1",), RoundOutcome("points", "points"), "round"),
    "gasterospeed": (('championship.circuits=["ligne_droite"]',), RoundOutcome("position", "arrival", ("ko",)), "race"),
}


@pytest.mark.parametrize("game", sorted(END_TO_END))
def test_documented_format_calibrates_without_source(game, tmp_path, capsys):
    """A sheet in the documented format (simulated at skills 0.5 and 2) calibrates with no
    ``--source`` and writes one profile per player (a 4-point design of 2 matches each)."""
    overrides, outcome, word = END_TO_END[game]
    spec = get_game(game)
    rules = load_rules(spec, overrides=list(overrides))
    text = simulated_sheet(
        spec,
        rules,
        [player_at_skill(spec, 0.5), player_at_skill(spec, 2.0)],
        ["Ann", "Bob"],
        3,
        5,
        outcome,
        round_word=word,
        batch=3,
    )
    assert text.startswith(f"match,{word},player,{outcome.column}\n")
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(text)
    out = tmp_path / "cal"
    sets = [arg for key in overrides for arg in ("--set", key)]
    code, stdout, err = run_cli(
        capsys, "calibrate", game, sheet, "--out", out, "--points", "4", "--matches", "2", "--no-progress", *sets
    )
    assert code == 0, err
    assert "Ann" in stdout and "95 %" in stdout
    for name in ("fit.csv", "calibrate.html", "profiles/Ann.toml", "profiles/Bob.toml"):
        assert (out / name).is_file(), name
