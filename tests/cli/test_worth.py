"""`tablesim worth GAME`: the restricted line-ups on common seeds, the worth table (text and
JSON), the results directory and its report section, resuming, an experiment's ``[worth]``
table, and bad input (one line, exit 2, nothing written). The game is the known-truth duel of
:mod:`tests.analysis.worth_truth` (boost 0.18, nudge 0.049, swap 0), run in this process."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from sim.cli import main
from sim.core.experiment import experiment_manifest, load_experiment
from sim.core.game import Player, registered_while
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules
from sim.testing.conformance import conformance_cases, run_case
from tests.analysis.worth_truth import NAME, registered


@pytest.fixture
def game(tmp_path):
    with registered(tmp_path) as spec:
        yield spec


def test_list_names_every_choice_in_text_and_json(game, capsys):
    assert main(["worth", NAME, "--list"]) == 0
    text = capsys.readouterr().out
    assert all(name in text for name in ("boost", "nudge", "swap", "flourish"))
    assert main(["worth", NAME, "--list", "--format", "json"]) == 0
    assert [c["name"] for c in json.loads(capsys.readouterr().out)] == ["boost", "nudge", "swap", "flourish"]


def test_worth_table_ranks_the_choices_and_the_report_carries_it(game, tmp_path, capsys):
    out = tmp_path / "w"
    assert (
        main(["worth", NAME, "--players", "plain,plain", "--matches", "400", "--out", str(out), "--format", "json"])
        == 0
    )
    table = json.loads(capsys.readouterr().out)
    assert [r["choice"] for r in table][0] == "boost"  # worth 0.18: first in the ranking
    boost = table[0]
    assert boost["ci_low"] < 0.18 < boost["ci_high"] and boost["verdict"] == "helps"
    assert boost["pairs"] == 400 and boost["seeds"] == 200 and boost["used_share"] == 1.0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "worth" and manifest["status"] == "complete"
    assert set(manifest["worth"]["lineups"]) == {
        "plain,plain",
        *(f"plain,plain without {c}" for c in ("boost", "nudge", "swap", "flourish")),
    }
    assert main(["report", str(out)]) == 0
    html = (out / "report.html").read_text()
    assert 'id="worth"' in html and "Boost: worth +" in html
    assert "Won when made" not in html  # the duel declares no observational measure of its own
    # the same command again plays nothing: every cell is stored
    assert main(["worth", NAME, "--players", "plain,plain", "--matches", "400", "--out", str(out)]) == 0
    assert "resumed: 2000 of 2000 matches" in capsys.readouterr().err


def test_text_output_says_each_choice_in_a_sentence(game, capsys):
    assert main(["worth", NAME, "--players", "plain,plain", "--matches", "200", "--choices", "boost,swap"]) == 0
    out = capsys.readouterr().out
    assert "Boost: worth +" in out and "Swap" in out and "Nudge" not in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["--players", "plain,plain", "--choices", "boost,zzz"],
            "--choices: unknown choice 'zzz'; allowed: boost, nudge, swap, flourish",
        ),
        (["--players", "plain,plain", "--slot", "2"], "--slot: got 2; the line-up has slots 0 to 1"),
        (["--players", "plain,plain", "--matches", "0"], "--matches"),
        ([], "--players: required"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_nothing_written(game, tmp_path, capsys, argv, message):
    out = tmp_path / "never"
    assert main(["worth", NAME, *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err
    assert not out.exists()


def test_a_game_without_choices_is_refused(capsys):
    assert main(["worth", "pig", "--players", "cautious,cautious"]) == 2
    assert "pig declares no choices a profile may forbid" in capsys.readouterr().err


def test_a_profile_forbidding_an_unknown_choice_is_refused(game, tmp_path, capsys):
    profile = tmp_path / "picky.toml"
    profile.write_text('base = "plain"\nforbid = ["boots"]\n')
    assert main(["run", NAME, "--players", f"{profile},plain", "--matches", "2"]) == 2
    err = capsys.readouterr().err
    assert "forbid: unknown choice 'boots'; allowed: boost, nudge, swap, flourish" in err
    profile.write_text('base = "plain"\nforbid = ["boost"]\n')
    players = load_lineup(game, [str(profile), "plain"], load_rules(game))
    assert players[0].profile.forbid == ("boost",)


def test_an_experiment_worth_table_adds_the_restricted_lineups(game, tmp_path):
    path = tmp_path / "worth.toml"
    path.write_text(
        f'game = "{NAME}"\nmatches = 40\nrotate_seats = true\n'
        '[[lineups]]\nname = "duel"\nplayers = ["plain", "plain"]\n'
        '[worth]\nchoices = ["boost"]\nslot = 1\n'
    )
    experiment = load_experiment(path)
    assert [c.lineup for c in experiment.cells] == ["duel", "duel without boost"]
    restricted = experiment.cells[1].players
    assert restricted[0].profile.forbid == () and restricted[1].profile.forbid == ("boost",)
    assert experiment_manifest(experiment)["worth"]["lineups"]["duel without boost"] == {
        "lineup": "duel",
        "choice": "boost",
    }
    path.write_text(path.read_text().replace("slot = 1", "slot = 2"))
    with pytest.raises(Exception, match="worth.slot: slot 2 is not in line-up 'duel'"):
        load_experiment(path)


def test_the_conformance_suite_checks_every_declared_choice(game):
    cases = [c for c in conformance_cases([NAME]) if c.check in ("forbid_key", "choice_restricted")]
    assert sorted(c.key or "" for c in cases) == ["", "boost", "flourish", "nudge", "swap"]
    for case in cases:
        run_case(case)


def test_a_game_that_ignores_forbid_fails_the_conformance_check(game):
    def careless(rules, players, seeds):  # plays every choice whatever the profile forbids
        return game.play_match(rules, [Player(p.name, replace(p.profile, forbid=())) for p in players], seeds)

    with registered_while(replace(game, play_match=careless)):
        with pytest.raises(AssertionError, match="boost: forbidden, yet the first seat made it"):
            run_case(next(c for c in conformance_cases([NAME]) if c.key == "boost"))
