"""The conformance suite over every installed game (OpenSpiel's shared test, scikit-learn's
``check_estimator``): the cases come from ``sim.testing`` — the spec's files, rules round trip,
schema, determinism, identical tables whatever the workers and chunks at every allowed player
count, every rule and profile key changes play, bad values generated from each key's bounds
refused, the rounds table in the shape the analyses read — and, through the real command line,
the same tables for any --jobs / --chunk-size and one clear line for bad input. A game installed
through the ``tablesim.games`` entry point (like Pig, tests/testgame) is tested here the day it is
installed.
"""

from __future__ import annotations

import dataclasses
import json
import re

import pandas as pd
import pytest

from sim.cli import main
from sim.core import game as registry
from sim.core import get_game, load_tables
from sim.core.game import installed_game_names
from sim.testing import conformance_cases, run_case
from sim.testing.conformance import Case, _lineup_refs

GAMES = installed_game_names()


@pytest.mark.parametrize("case", conformance_cases(GAMES), ids=str)
def test_conformance(case, tmp_path):
    run_case(case, tmp_path)


def test_the_outside_game_is_installed_through_its_entry_point():
    assert "pig" in GAMES, "tests/testgame is not installed (make test installs it)"
    assert get_game("pig").play_match.__module__ == "tablesim_pig"


def _lineup(game: str) -> str:
    spec = get_game(game)
    return ",".join(_lineup_refs(spec, min(spec.player_counts)))


@pytest.mark.parametrize("game", GAMES)
def test_the_command_line_stores_the_same_tables_for_any_jobs_and_chunk_size(game, tmp_path, capsys):
    spec = get_game(game)
    quick = [item for override in (spec.conformance.quick if spec.conformance else ()) for item in ("--set", override)]
    tables = []
    for jobs, chunk in (("1", "100"), ("2", "1")):
        out = tmp_path / f"j{jobs}"
        code = main(
            [
                "run",
                game,
                "--matches",
                "4",
                "--players",
                _lineup(game),
                "--seed",
                "4",
                *quick,
                "--jobs",
                jobs,
                "--chunk-size",
                chunk,
                "--out",
                str(out),
                "--format",
                "json",
            ]
        )
        assert code == 0, capsys.readouterr().err
        assert json.loads(capsys.readouterr().out)["matches"] == 4
        tables.append(load_tables(out))
    for name in ("matches", "players", "rounds", "events"):
        pd.testing.assert_frame_equal(tables[0][name], tables[1][name])


@pytest.mark.parametrize("game", GAMES)
def test_bad_input_on_the_command_line_is_one_line_and_writes_nothing(game, tmp_path, capsys):
    for bad in (["--set", "nonsense.key=1"], ["--players", "no-such-profile"]):
        args = ["run", game, "--matches", "1", "--players", _lineup(game), "--out", str(tmp_path / "never")]
        if bad[0] == "--players":
            args[args.index("--players") + 1] = ",".join([bad[1]] * min(get_game(game).player_counts))
        else:
            args += bad
        code = main(args)
        err = capsys.readouterr().err.strip().splitlines()
        assert code == 2 and len(err) >= 1 and all(line.startswith("tablesim: error: ") for line in err), err
        assert not (tmp_path / "never").exists()


def _hole_in_round_2(rules, players, seeds):
    """Pig, with seat 1's row of round 2 dropped from every match that plays a round 3."""
    log = get_game("pig").play_match(rules, players, seeds)
    if log.matches["rounds"] > 2:
        log.rounds = [row for row in log.rounds if (row["round"], row["seat"]) != (2, 1)]
    return log


def _round_1_twice(rules, players, seeds):
    """Pig, with every row of round 1 written twice."""
    log = get_game("pig").play_match(rules, players, seeds)
    log.rounds = [row for row in log.rounds if row["round"] == 1] + log.rounds
    return log


def _rounds_from_0(rules, players, seeds):
    """Pig, with rounds numbered from 0."""
    log = get_game("pig").play_match(rules, players, seeds)
    log.rounds = [{**row, "round": row["round"] - 1} for row in log.rounds]
    return log


MALFORMED = {
    "hole": (
        _hole_in_round_2,
        r"^rounds: match \d+ round 2 has no row for seat 1, but round \d+ has every seat; "
        r"only a match's last rounds may leave out seats that did not play them",
    ),
    "twice": (_round_1_twice, r"^rounds: match 0 round 1: seat 0 has two rows$"),
    "from 0": (
        _rounds_from_0,
        r"^rounds: match 0 has round 0 but no round 1; allowed: rounds 1, 2, \.\.\. without a gap$",
    ),
}


@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_the_rounds_shape_check_fails_on_a_malformed_game_with_one_clear_line(kind, monkeypatch):
    """A game whose rounds table leaves a seat out of a middle round, repeats a row or numbers
    its rounds from 0 fails the rounds_shape case with one line saying where and what is allowed."""
    play, message = MALFORMED[kind]
    name = f"malformed-{kind.replace(' ', '-')}"
    monkeypatch.setitem(registry._REGISTRY, name, dataclasses.replace(get_game("pig"), name=name, play_match=play))
    with pytest.raises(AssertionError) as failed:
        run_case(Case("rounds_shape", name, players=2))
    text = str(failed.value)
    assert "\n" not in text and re.search(message, text), text
