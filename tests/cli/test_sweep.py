"""Skill and profile-key sweeps: experiments over a player axis, and their report.

Played on Pig (tests/testgame), whose skill path is cautious → standard → bold.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from analysis.analyse import analyse
from analysis.results import load_results
from analysis.sweep import sweep_frames, sweep_sections
from sim.core import ConfigError, get_game
from sim.core.experiment import load_experiment, run_experiment
from sim.core.skill import profile_at_skill
from sim.core.store import ResultStore
from tests.core.reliability import run_cli

PIG = get_game("pig")

SWEEP = """
game = "pig"
matches = {matches}
seed = 3
chunk_size = 20
[[variants]]
name = "short"
set = {{ "game.target_score" = 30 }}
[[lineups]]
name = "duel"
players = ["standard", "standard"]
[sweep]
{sweep}
"""


def write(tmp_path, sweep: str, matches: int = 40):
    path = tmp_path / "sweep.toml"
    path.write_text(SWEEP.format(sweep=sweep, matches=matches))
    return path


def test_a_skill_sweep_is_one_lineup_per_value_every_slot_at_that_skill(tmp_path):
    experiment = load_experiment(write(tmp_path, 'slots = "all"\nskill = [0, 0.5, 2]'))
    names = sorted({cell.lineup for cell in experiment.cells})
    assert names == ["duel skill=0", "duel skill=0.5", "duel skill=2"]
    for cell in experiment.cells:
        value = float(cell.lineup.split("=")[1])
        assert [p.profile for p in cell.players] == [profile_at_skill(PIG, value)] * 2
        assert {p.name for p in cell.players} == {f"skill-{value:g}"}
    sweep = experiment.sweep_manifest()
    assert sweep["axis"] == "skill" and sweep["values"] == [0, 0.5, 2]
    assert sweep["lineups"]["duel skill=0.5"] == {"lineup": "duel", "value": 0.5}


def test_one_slot_swept_on_a_profile_key_keeps_the_other_slots(tmp_path):
    experiment = load_experiment(write(tmp_path, 'slots = [1]\nkey = "hold_at"\nvalues = [5, 35]'))
    cells = [c for c in experiment.cells if c.variant == "baseline"]
    assert [c.lineup for c in cells] == ["duel hold_at=5", "duel hold_at=35"]
    for cell, value in zip(cells, (5, 35)):
        first, second = cell.players
        assert first.name == "standard" and first.profile.hold_at == 20.0
        assert second.name == f"standard hold_at={value}" and second.profile.hold_at == value
        assert second.profile.hold_sigma == first.profile.hold_sigma  # only the swept key changes


def test_every_value_plays_the_same_seeds(tmp_path):
    experiment = load_experiment(write(tmp_path, "skill = [0, 1, 2]", matches=20))
    tables = run_experiment(experiment, ResultStore(tmp_path / "out"), progress=False)
    matches = tables["matches"]
    seeds = matches.pivot_table(index="match", columns=["variant", "lineup"], values="seed")
    assert seeds.shape == (20, 6) and (seeds.nunique(axis=1) == 1).all()
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert set(manifest["sweep"]["lineups"]) == set(matches["lineup"])


@pytest.mark.parametrize(
    "sweep, message",
    [
        ("skill = [0, 5]", "skill: got 5.0; allowed: 0 (cautious) to 2 (bold)"),
        ('key = "hold_at"\nvalues = [500]', "hold_at: got 500"),
        ('key = "hold_too"\nvalues = [5]', "hold_too: unknown key"),
        ('skill = [1]\nkey = "hold_at"\nvalues = [5]', "sweep.skill: give either skill values or a key"),
        ('key = "hold_at"', "sweep.values: missing"),
        ("skill = [1, 1]", "sweep.skill: a value is repeated"),
        ("slots = [2]\nskill = [1]", "sweep.slots: slot 2 is not in line-up 'duel'"),
        ('slots = "some"\nskill = [1]', "sweep.slots: got 'some'; allowed: \"all\" or a list"),
    ],
)
def test_a_bad_sweep_names_the_file_and_what_is_allowed(tmp_path, sweep, message):
    path = write(tmp_path, sweep)
    with pytest.raises(ConfigError) as info:
        load_experiment(path)
    assert any(message in line and str(path) in line for line in info.value.problems), info.value.problems


def test_a_game_without_a_skill_path_refuses_a_skill_sweep(tmp_path):
    from tests.core import toygame  # noqa: F401  (registers toy-dice, which has no skill path)

    path = tmp_path / "toy.toml"
    path.write_text(
        'game = "toy-dice"\nmatches = 4\n[[lineups]]\nname = "x"\nplayers = ["plain", "plain"]\n'
        "[sweep]\nskill = [0, 1]\n"
    )
    with pytest.raises(ConfigError) as info:
        load_experiment(path)
    assert "declares no skill path" in info.value.problems[0] and str(path) in info.value.problems[0]


def test_the_sweep_sees_a_known_effect_of_the_swept_slot(tmp_path):
    """Seat 1 holding at 2 points banks almost nothing: its win rate rises with its threshold."""
    path = write(tmp_path, 'slots = [1]\nkey = "hold_at"\nvalues = [2, 20]', matches=300)
    path.write_text(path.read_text().replace('[[variants]]\nname = "short"\nset = { "game.target_score" = 30 }\n', ""))
    run_experiment(load_experiment(path), ResultStore(tmp_path / "out"), progress=False)
    frames = sweep_frames(analyse(load_results(tmp_path / "out")))
    seat1 = frames.seats[frames.seats["seat"] == 1].set_index("sweep_value")
    assert seat1.loc[2.0, "ci_high"] < seat1.loc[20.0, "ci_low"], seat1[["win_rate", "ci_low", "ci_high"]]
    assert seat1.loc[2.0, "ci_high"] < 0.5


def test_the_report_plots_every_outcome_against_the_value_with_the_reports_intervals(tmp_path):
    path = write(
        tmp_path, 'skill = [0, 2]\nmetrics = ["bust_rate"]', matches=60
    )  # two values: the report's figures are most of the cost
    run_experiment(load_experiment(path), ResultStore(tmp_path / "out"), progress=False)
    analysis = analyse(load_results(tmp_path / "out"))
    frames = sweep_frames(analysis)
    # the numbers are the report's own, regrouped by value
    merged = frames.seats.merge(analysis.seat_rates, on=["variant", "lineup", "seat"], suffixes=("", "_report"))
    assert len(merged) == 2 * 2 * 2  # variants × values × seats
    assert np.allclose(merged["ci_low"], merged["ci_low_report"]) and np.allclose(
        merged["ci_high"], merged["ci_high_report"]
    )
    assert set(frames.effects["variant"]) == {"short"} and set(frames.effects["sweep_value"]) == {0.0, 2.0}
    assert set(frames.verdicts["sweep_value"]) == {0.0, 2.0}
    # the game's metric named in [sweep] metrics: its paired effects, the report's own, by value
    from analysis.game_effects import game_metric_effects

    assert frames.metrics == ("bust_rate",) and set(frames.game_effects["metric"]) == {"bust_rate"}
    own = frames.game_effects.merge(
        game_metric_effects(analysis), on=["variant", "lineup", "metric"], suffixes=("", "_report")
    )
    assert (
        len(own) == 2
        and np.allclose(own["effect"], own["effect_report"])
        and np.allclose(own["p_adjusted"], own["p_adjusted_report"])
    )
    # the section as the report draws and renders it (its figure maker, classes and template; the
    # whole report, ~20 figures of other sections, is built by test_cli_runs_a_sweep...)
    from analysis.report import Section, Table, _Figures, render_html

    html = render_html(analysis, sweep_sections(analysis, _Figures().make, Section, Table))
    section = html[html.index('id="sweep"') :]
    section = section[: section.index("</section>")]
    for caption in (
        "Win rate by seat against skill — duel",
        "Game length against skill — duel",
        "Effect of short against skill — duel",
        "Outcomes against skill — duel",
        "Effect of short on the game&#39;s metrics against skill — duel",
    ):
        assert caption in section
    assert len(re.findall(r"<img src=\"data:image/png;base64,", section)) == 4
    assert section.count("<tr>") == 1 + 2 * 2  # header + variants × values


def test_a_report_without_a_sweep_has_no_sweep_section(tmp_path):
    path = tmp_path / "plain.toml"
    path.write_text(SWEEP.format(sweep="", matches=10).replace("[sweep]\n", ""))
    run_experiment(load_experiment(path), ResultStore(tmp_path / "out"), progress=False)
    analysis = analyse(load_results(tmp_path / "out"))  # the report adds what sweep_sections returns
    assert sweep_frames(analysis) is None
    assert sweep_sections(analysis, lambda *a: pytest.fail("a figure was drawn"), object, object) == []


def test_cli_runs_a_sweep_and_refuses_a_bad_one_with_one_line(tmp_path, capsys):
    path = write(tmp_path, "skill = [0, 2]", matches=10)
    code, out, err = run_cli(capsys, "experiment", path, "--out", tmp_path / "out", "--no-progress", "--report")
    assert code == 0, err
    assert 'id="sweep"' in (tmp_path / "out" / "report.html").read_text()
    # one cell per value, on common seeds
    from sim.core import load_tables

    matches = load_tables(tmp_path / "out")["matches"]
    assert sorted(matches["lineup"].unique()) == ["duel skill=0", "duel skill=2"]
    by_value = {name: sorted(frame["seed"]) for name, frame in matches.groupby("lineup")}
    assert by_value["duel skill=0"] == by_value["duel skill=2"]
    bad = write(tmp_path, "skill = [0, 9]")
    code, out, err = run_cli(capsys, "experiment", bad, "--out", tmp_path / "bad", "--no-progress")
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and not (tmp_path / "bad").exists()
    assert len(lines) == 1 and "skill: got 9.0; allowed: 0 (cautious) to 2 (bold)" in lines[0], lines
    assert str(bad) in lines[0] and "lineup 'duel'" in lines[0]


# whole rotations --------------------------------------------------------------------------

ROTATED = """
game = "pig"
matches = 21
seed = 1
rotate_seats = {rotate}
[[lineups]]
name = "duel"
players = ["standard", "bold"]
{extra}
"""


@pytest.mark.parametrize(
    "rotate, extra, played",
    [
        ("true", "", 22),
        ("true", '[[lineups]]\nname = "trio"\nplayers = ["standard", "bold", "cautious"]', 24),
        ("false", "", 21),
    ],
)
def test_matches_round_up_to_whole_rotations_and_a_note_says_so(tmp_path, capsys, rotate, extra, played):
    path = tmp_path / "rotated.toml"
    path.write_text(ROTATED.format(rotate=rotate, extra=extra))
    code, out, err = run_cli(capsys, "experiment", path, "--out", tmp_path / "out", "--no-progress")
    assert code == 0, err
    notes = [line for line in err.splitlines() if line.startswith("tablesim: note:")]
    if played == 21:
        assert notes == []
    else:
        assert notes == [
            f"tablesim: note: {path}: matches: 21 is not a whole number of seat rotations "
            f"({'2' if played == 22 else '2, 3'} seats): playing {played}, every seed under each "
            "rotation"
        ]
    matches = load_results(tmp_path / "out").tables["matches"]
    assert (matches.groupby("lineup").size() == played).all()
    if rotate == "true":  # every seed under every rotation of its line-up
        for lineup, rows in matches.groupby("lineup"):
            assert (rows.groupby("seed")["rotation"].nunique() == rows["rotation"].nunique()).all()
