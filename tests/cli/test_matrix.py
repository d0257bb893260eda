"""`tablesim matrix GAME --profiles ...`: every pair head to head on common seeds, the printed
matrix and meta-game (text and JSON), the results directory and its report section, bad input
(one line, exit 2, nothing written). The game is the known-truth duel of
:mod:`tests.analysis.metagame_truth`, run in this process."""

from __future__ import annotations

import json

import pytest

from sim.cli import main
from tests.analysis.metagame_truth import NAME, registered


@pytest.fixture
def game(tmp_path):
    with registered(tmp_path) as spec:
        yield spec


def test_rock_paper_scissors_prints_a_cycle_and_a_uniform_equilibrium(game, capsys):
    assert (
        main(
            [
                "matrix",
                NAME,
                "--profiles",
                "rock,paper,scissors",
                "--matches",
                "300",
                "--set",
                'game.mode="hands"',
                "--bootstrap",
                "100",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "P(row beats column)" in out and "mostly cyclic (rock-paper-scissors)" in out
    assert "3 profiles are part of optimal play" in out


def test_json_ratings_order_a_transitive_game_and_the_report_carries_the_matrix(game, tmp_path, capsys):
    out = tmp_path / "m"
    assert (
        main(
            [
                "matrix",
                NAME,
                "--profiles",
                "weak,good,best",
                "--matches",
                "300",
                "--out",
                str(out),
                "--format",
                "json",
                "--bootstrap",
                "100",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert [r["profile"] for r in data["ratings"]] == ["best", "good", "weak"]
    assert data["cyclic_ci"][1] < 0.1 and len(data["pairs"]) == 6
    assert data["seat_ci"][0] < 0.2 < data["seat_ci"][1]  # the planted first-seat advantage, logits
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "matrix" and manifest["status"] == "complete"
    assert set(manifest["matrix"]["lineups"]) == {"weak vs good", "weak vs best", "good vs best"}
    assert main(["report", str(out)]) == 0
    html = (out / "report.html").read_text()
    assert 'id="matrix"' in html and "Ratings and the meta-game" in html


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--profiles", "rock"], "--profiles: got 'rock'; allowed: two or more"),
        (["--profiles", "rock,,paper"], "--profiles: got 'rock,,paper'"),
        (["--profiles", "rock,rock"], "--profiles: the names rock, rock repeat"),
        (["--profiles", "rock,lizard"], "lizard"),
        (["--profiles", "rock,paper", "--matches", "1"], "--matches"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_nothing_written(game, tmp_path, capsys, argv, message):
    out = tmp_path / "never"
    assert main(["matrix", NAME, *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err
    assert not out.exists()
