"""`tablesim replay DIR --match N [--variant V] [--lineup L]` replays a stored match with its
stored rules, profiles, seed and rotation, and checks its final scores."""

import json

import pandas as pd
import pytest

from sim.cli import main
from sim.cli.replay import replay_stored, stored_match
from sim.core import load_tables
from tests.analysis.toydata import make_experiment


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    """The toy experiment: 4 variants x 2 line-ups of 3 seats, seats rotated."""
    return make_experiment(tmp_path_factory.mktemp("replay"), matches=30)


def test_five_stored_matches_of_an_experiment_replay_to_their_scores(experiment, capsys):
    players = load_tables(experiment)["players"]
    chosen = [
        ("baseline", "plain-3", 0),
        ("seat0-bonus", "lucky-vs-2", 7),
        ("capped", "plain-3", 11),
        ("seat0-bonus", "plain-3", 29),
        ("capped", "lucky-vs-2", 16),
    ]
    for variant, lineup, match in chosen:
        stored = players[
            (players["variant"] == variant) & (players["lineup"] == lineup) & (players["match"] == match)
        ].sort_values("seat")
        log, seated, _ = replay_stored(stored_match(experiment, match, variant, lineup))
        replayed = [row["score"] for row in sorted(log.players, key=lambda r: r["seat"])]
        assert replayed == list(stored["score"]), (variant, lineup, match)
        assert [p.name for p in seated] == list(stored["profile"])  # the stored rotation
        assert main(["replay", str(experiment), "--match", str(match), "--variant", variant, "--lineup", lineup]) == 0
        out = capsys.readouterr().out
        assert f"rotation {match % 3}" in out and "replayed final scores equal the stored ones" in out


def test_a_changed_match_is_one_clear_line(experiment, capsys, monkeypatch):
    from tests.core import toygame

    original = toygame.GAME.play_match

    def drifted(rules, players, seeds):  # the game's code "changed since the run"
        log = original(rules, players, seeds)
        log.players[0]["score"] += 1
        return log

    import dataclasses

    from sim.core import game as registry

    monkeypatch.setitem(registry._REGISTRY, "toy-dice", dataclasses.replace(toygame.GAME, play_match=drifted))
    code = main(["replay", str(experiment), "--match", "3", "--lineup", "plain-3"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1
    assert err[0].startswith("tablesim: error: match 3 does not replay: stored final scores seat 0 ")


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["--match", "3"], "--lineup: this results directory holds several; choose one of: plain-3, lucky-vs-2"),
        (
            ["--match", "3", "--lineup", "x"],
            "--lineup 'x': not in this results directory; allowed: plain-3, lucky-vs-2",
        ),
        (["--match", "3", "--variant", "nope", "--lineup", "plain-3"], "--variant 'nope': not in this results"),
        (["--match", "30", "--lineup", "plain-3"], "--match 30: not stored in"),
        (["--lineup", "plain-3"], "--match: required with a results directory"),
        (["--match", "1", "--lineup", "plain-3", "--seed", "2"], "--rules, --set, --players and --seed: not with"),
    ],
)
def test_bad_choices_are_one_line_exit_2(experiment, capsys, argv, expected):
    code = main(["replay", str(experiment), *argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and expected in err[0], err


def test_replay_of_a_game_by_seed_still_works(capsys):
    assert main(["replay", "pig", "--seed", "3"]) == 0
    assert capsys.readouterr().out.startswith("Pig to 50:")
    assert main(["replay", "pig", "--seed", "3", "--variant", "x"]) == 2
    assert "only with a results directory" in capsys.readouterr().err


def test_a_run_directory_replays_too(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "pig", "--matches", "6", "--players", "standard,bold", "--out", str(out), "--seed", "4"]) == 0
    capsys.readouterr()
    assert main(["replay", str(out), "--match", "5"]) == 0
    text = capsys.readouterr().out
    stored = pd.read_parquet(out / "players").query("match == 5").sort_values("seat")
    assert (
        "replayed final scores equal the stored ones: "
        + ", ".join(f"seat {s} {v:g}" for s, v in zip(stored["seat"], stored["score"]))
        in text
    )
    assert json.loads((out / "manifest.json").read_text())["rotate_seats"] is True


def test_a_game_without_a_replay_says_so_and_names_the_games_that_have_one(capsys):
    from tests.core import toygame  # noqa: F401  (registers toy-dice: no replay hook)

    assert main(["replay", "toy-dice", "--seed", "3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tablesim: error: game: toy-dice has no replay; allowed: ")
    assert "pig" in err[0]


def test_a_gasterospeed_race_is_chosen_and_a_lone_snails_turns_are_folded(capsys):
    from sim.core.game import get_game
    from sim.core.profiles import load_lineup
    from sim.core.rules import load_rules
    from sim.core.seeding import MatchSeeds
    from sim.gasterospeed.match import play_match

    assert main(["replay", "gasterospeed", "--seed", "3", "--all-turns"]) == 0
    full = capsys.readouterr().out.splitlines()
    assert main(["replay", "gasterospeed", "--seed", "3"]) == 0
    folded = capsys.readouterr().out.splitlines()
    turns = [line for line in full if line.startswith("=== Turn ")]
    assert len(turns) == 137 and len(full) > 2500  # a random snail left alone for 127 turns
    (fold,) = [line for line in folded if line.startswith("=== Turns ")]
    assert fold == "=== Turns 10-136: one snail left running; its 127 turns are folded (--all-turns tells them) ==="
    assert len(folded) < len(full) // 8
    result = full.index("Race over after 137 turns.")
    assert folded[folded.index("Race over after 137 turns.") :] == full[result:]  # the same race, told shorter
    assert folded[: folded.index(fold)] == full[: full.index("=== Turn 10 ===")]  # turns 1-9 told in full
    # race 2, told after race 1 was played untold: its points are the match's
    assert main(["replay", "gasterospeed", "--seed", "3", "--part", "2"]) == 0
    second = capsys.readouterr().out.splitlines()
    assert second[0].startswith("Race 2 of 6: ")
    spec = get_game("gasterospeed")
    rules = load_rules(spec, None, [])
    rounds = pd.DataFrame(play_match(rules, load_lineup(spec, list(spec.demo_players), rules), MatchSeeds(3, 0)).rounds)
    points = rounds[rounds["round"] == 2].sort_values("seat")["points"].tolist()
    told = {
        line.split(". ")[1][0]: int(line.split(": ")[1].split(" points")[0])
        for line in second
        if line.startswith("  ") and " points, " in line
    }
    assert [told[label] for label in "ABCD"] == points


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["replay", "gasterospeed", "--part", "7"], "--part 7: the championship has 6 races"),
        (["replay", "gasterospeed", "--part", "0"], "--part: got 0; allowed: >= 1"),
        (["replay", "curlastique", "--part", "2"], "--part: curlastique tells a match whole; it takes no --part"),
    ],
)
def test_a_part_the_game_has_not_is_one_line(capsys, argv, expected):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and expected in err[0], err
