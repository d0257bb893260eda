"""``tablesim calibrate`` end to end: bad sheets are one line, exit status 2, nothing written;
a written profile plays with ``--players``. Played on Pig (tests/testgame: skill path cautious
→ standard → bold)."""

from __future__ import annotations

import pytest

from analysis.calibrate.space import SkillSpace
from sim.core import get_game
from tests.core.reliability import error_lines, run_cli

PIG = get_game("pig")
GOOD = "match,round,player,points\n1,1,Ann,12\n1,1,Bob,0\n1,2,Ann,11\n1,2,Bob,21\n"

BAD = {
    "unknown column": ("match,round,player,points,notes\n1,1,Ann,12,x\n", "row 1: column notes: unknown column"),
    # a round may leave a player out only at the end of a match (a race won mid-round)
    "missing round": (
        "match,round,player,points\n1,1,Ann,12\n1,1,Bob,0\n1,2,Ann,11\n1,3,Ann,5\n1,3,Bob,6\n",
        "row 4: column player: match 1 round 2: no row for Bob (round 3 has a row for every "
        "player of match 1: only a match's last rounds may leave out players who did not play",
    ),
    "missing first round": (
        "match,round,player,points\n1,1,Ann,12\n1,2,Ann,11\n1,2,Bob,21\n",
        "row 2: column player: match 1 round 1: no row for Bob (every player of a match needs a row in its first round",
    ),
    "round gap": (
        "match,round,player,points\n1,1,Ann,12\n1,1,Bob,0\n1,3,Ann,11\n1,3,Bob,21\n",
        "row 4: column round: match 1 has no round 2 before round 3",
    ),
    "negative points": (GOOD.replace("1,2,Bob,21", "1,2,Bob,-3"), "row 5: column points: got -3; allowed"),
    "fractional points": (GOOD.replace("1,2,Bob,21", "1,2,Bob,2.5"), "row 5: column points: got 2.5; allowed"),
    "repeated position": (
        "match,race,player,position\n1,1,Ann,1\n1,1,Bob,1\n",
        "row 3: column position: position 1 twice in match 1 race 1",
    ),
    "one player": ("match,round,player,points\n1,1,Ann,12\n", "match 1 has 1 players; the game takes 2, 3, 4"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_sheet_is_one_line_exit_2_nothing_written(case, tmp_path, capsys):
    text, message = BAD[case]
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(text)
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, "calibrate", "pig", sheet, "--out", out)
    lines = error_lines(err)
    assert code == 2, err
    assert len(lines) == 1 and str(sheet) in lines[0] and message in lines[0], lines
    assert "Traceback" not in err and not out.exists()


def test_a_sheet_with_several_bad_rows_names_every_one(tmp_path, capsys):
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("match,round,player,points\n1,0,Ann,12\n1,x,Bob,0\n1,2,Ann\n1,2,Bob,21\n")
    code, _, err = run_cli(capsys, "calibrate", "pig", sheet, "--out", tmp_path / "out")
    assert code == 2 and error_lines(err) == [
        f"tablesim: error: {sheet}: row 2: column round: got '0'; allowed: a whole number >= 1",
        f"tablesim: error: {sheet}: row 3: column round: got 'x'; allowed: a whole number >= 1",
        f"tablesim: error: {sheet}: row 4: 3 cells; the header has 4 (match, round, player, points)",
    ]
    rows = "".join(f"{m},1,Ann,-{m}\n{m},1,Bob,-1\n" for m in range(1, 16))
    sheet.write_text("match,round,player,points\n" + rows)
    code, _, err = run_cli(capsys, "calibrate", "pig", sheet, "--out", tmp_path / "out")
    lines = error_lines(err)
    assert code == 2 and len(lines) == 21 and lines[-1] == "tablesim: error: ... and 10 more rows like these"


@pytest.mark.parametrize(
    "argv, message",
    [
        (("--fit", "no_such_key"), "--fit: 'no_such_key' is not a numeric profile key; allowed: hold_at, hold_sigma"),
        (("--path", "cautious,nobody"), "--path: unknown preset 'nobody'"),
        (("--jobs", "0"), "--jobs: got 0"),
        (("--bins", "1"), "--bins: got 1; allowed: 2 to 30"),
    ],
)
def test_bad_options_are_one_line_exit_2(argv, message, tmp_path, capsys):
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(GOOD)
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, "calibrate", "pig", sheet, "--out", out, *argv)
    assert code == 2 and len(error_lines(err)) == 1 and message in err, err
    assert not out.exists()


def test_missing_sheet_names_the_file(tmp_path, capsys):
    code, _, err = run_cli(capsys, "calibrate", "pig", tmp_path / "nope.csv", "--out", tmp_path / "out")
    assert code == 2 and "nope.csv: file not found" in err and not (tmp_path / "out").exists()


def test_written_profile_plays_with_players(tmp_path, capsys):
    """The profile file the calibration writes (here at skill 1.5) is a --players profile whose
    numbers are those of the skill axis there."""
    space = SkillSpace(PIG, PIG.skill_path)
    path = tmp_path / "Ann.toml"
    path.write_text(space.profile_file("Ann", [1.5], ["a test"]))
    code, _, err = run_cli(
        capsys,
        "run",
        "pig",
        "--players",
        f"{path},standard",
        "--matches",
        "6",
        "--out",
        tmp_path / "run",
        "--format",
        "json",
    )
    assert code == 0, err
    from sim.core.profiles import load_profile

    loaded = load_profile(PIG, str(path))
    assert loaded.name == "Ann" and loaded.profile == space.profile([1.5])
    assert loaded.profile.hold_at == pytest.approx(25.0)


@pytest.mark.slow
def test_calibrate_end_to_end_writes_fit_report_and_profiles(tmp_path, capsys):
    """A small design (9 line-ups × 8 matches, 5 categories): every output is written and the
    profiles it writes play with --players (bounded: ~10 s)."""
    from analysis.calibrate.outcome import RoundOutcome
    from analysis.calibrate.synthetic import simulated_sheet
    from sim.core import load_rules
    from sim.core.skill import player_at_skill

    rules = load_rules(PIG)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(
        simulated_sheet(
            PIG,
            rules,
            [player_at_skill(PIG, 0.4), player_at_skill(PIG, 1.6)],
            ["Ann", "Bob"],
            40,
            11,
            RoundOutcome("points", "points"),
        )
    )
    out = tmp_path / "cal"
    code, stdout, err = run_cli(
        capsys,
        "calibrate",
        "pig",
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
    assert "Ann" in stdout and "95 %" in stdout and "goodness of fit" in stdout
    for name in ("fit.csv", "goodness.csv", "calibrate.html", "profiles/Ann.toml", "profiles/Bob.toml"):
        assert (out / name).is_file(), name
    assert "Ann" in (out / "calibrate.html").read_text()
    code, _, err = run_cli(
        capsys,
        "run",
        "pig",
        "--players",
        f"{out}/profiles/Ann.toml,{out}/profiles/Bob.toml",
        "--matches",
        "4",
        "--out",
        tmp_path / "run",
    )
    assert code == 0, err


def test_fitted_keys_profile_loads_with_its_numbers(tmp_path):
    """With --fit, the profile file is the base preset with the fitted keys (rounded as written)."""
    from analysis.calibrate.space import KeySpace, parse_fit_keys
    from sim.core.profiles import load_profile

    axes = parse_fit_keys(PIG, "hold_at,hold_sigma=0:8", "standard")
    assert [(a.key, a.low, a.high) for a in axes] == [("hold_at", 10.0, 30.0), ("hold_sigma", 0.0, 8.0)]
    path = tmp_path / "Bob.toml"
    path.write_text(KeySpace(PIG, "standard", axes).profile_file("Bob", [23.456789, 2.5]))
    loaded = load_profile(PIG, str(path)).profile
    assert (loaded.hold_at, loaded.hold_sigma) == (pytest.approx(23.4568), 2.5)
