"""``tablesim replay carrom``: one match told stroke by stroke, faithful to the match log."""

from __future__ import annotations

import re

import pytest

from sim.carrom.match import play_match
from sim.carrom.show.replay import replay
from sim.cli import main
from sim.core import MatchSeeds, load_lineup

from ..helpers import SPEC, rules

STROKE = re.compile(r"^  stroke +(\d+)  seat (\d+) \(", flags=re.M)
BOARD = re.compile(r"^Board (\d+)\b(.*)$", flags=re.M)
GAME_SCORE = re.compile(r"^  Game (\d+) score: (.*)\.$", flags=re.M)
GAME_OVER = re.compile(r"^Game (\d+) over after (\d+) boards?: (.*)$", flags=re.M)
WINNER = re.compile(r"^Winner: seat (\d+) \((\w+)\)", flags=re.M)
FINAL = re.compile(r"^  (\d+)\. seat (\d+) \((\w+)\) +(\d+) points.*games won (\d+)", flags=re.M)


def _told(lineup, *overrides, seed=3, match=0):
    r = rules(*overrides)
    players = load_lineup(SPEC, lineup, r)
    seeds = MatchSeeds(seed, match)
    return r, players, replay(r, players, seeds), play_match(r, players, seeds)


@pytest.fixture(scope="module")
def told():
    return _told(list(SPEC.demo_players))


def _check_against_log(text, log, players):
    """Boards, strokes, game scores, winner and final scores of the text agree with the log."""
    boards = sorted({r["round"] for r in log.rounds})
    assert [int(b) for b, _ in BOARD.findall(text)] == boards == list(range(1, log.matches["rounds"] + 1))
    strokes = STROKE.findall(text)
    assert len(strokes) == len(log.events)
    assert [(int(k), int(s)) for k, s in strokes] == [(e["board_stroke"], e["seat"]) for e in log.events]
    # the game score after every board: each side's cumulative points
    scores = GAME_SCORE.findall(text)
    assert len(scores) == len(boards)
    for (game, told), b in zip(scores, boards, strict=True):
        rows = [r for r in log.rounds if r["round"] == b]
        assert int(game) == rows[0]["game"]
        numbers = [int(x) for x in re.findall(r"\) (\d+)", told)]
        by_side = {r["side"]: r["cumulative"] for r in rows}
        assert numbers == [by_side[s] for s in sorted(by_side)]
    assert [int(g) for g, _, _ in GAME_OVER.findall(text)] == list(range(1, log.matches["games"] + 1))
    if log.matches["winner"] >= 0:
        w = int(log.matches["winner"])
        assert WINNER.findall(text) == [(str(w), players[w].name)]
    else:
        assert not WINNER.search(text) and "No winner" in text
    final = {int(seat): (int(rank), name, int(score), int(won)) for rank, seat, name, score, won in FINAL.findall(text)}
    assert final == {p["seat"]: (p["rank"], p["profile"], p["score"], p["games_won"]) for p in log.players}


def test_registered_as_the_game_replay_hook():
    assert SPEC.replay is replay


def test_the_text_tells_the_seeded_match_of_the_log(told):
    r, players, text, log = told
    assert text.startswith("Carrom replay (seed 3, match 0)")
    assert f"to {r.game.target_points} points" in text
    for s, p in enumerate(players):
        assert f"  seat {s}: {p.name}" in text
    _check_against_log(text, log, players)
    # each board's breaker and result
    heads = dict(BOARD.findall(text))
    for b in {row["round"] for row in log.rounds}:
        row = next(x for x in log.rounds if x["round"] == b and x["won_board"])
        assert f"seat {row['breaker']} ({players[row['breaker']].name}) breaks" in heads[str(b)]
        assert f"wins the board: {row['points']} point" in text.split(f"\nBoard {b}:", 1)[1]


def test_one_line_per_stroke_says_what_fell(told):
    _, _, text, log = told
    lines = [line for line in text.splitlines() if STROKE.match(line)]
    assert len(lines) == len(log.events)
    for line, e in zip(lines, log.events, strict=True):
        assert e["kind"] in line
        for colour, n in (("white", e["whites"]), ("black", e["blacks"])):
            assert (f"{n} {colour}" in line) == (n > 0), line
        assert ("pocketed queen" in line or ", queen (" in line) == bool(e["queen"]), line
        assert ("plays again" in line) == (e["continues"] and not e["board_over"])
        assert ("board over" in line) == e["board_over"]
        assert line.endswith(f"[{e['coins_on_board']} on board]")


def test_the_same_seeds_give_the_same_text_and_other_seeds_another(told):
    r, players, text, _ = told
    assert replay(r, players, MatchSeeds(3, 0)) == text
    assert replay(r, players, MatchSeeds(4, 0)) != text


@pytest.mark.parametrize(
    "lineup, overrides",
    [
        (["club", "casual", "beginner"], ("game.max_boards=1",)),  # three players
        (["casual", "club", "casual", "club"], ("game.max_boards=1", "ruleset=icf")),  # doubles
        (["club", "casual"], ("game.max_boards=1", "game.best_of=3")),  # several games
    ],
)
def test_other_line_ups_and_matches_of_several_games(lineup, overrides):
    _, players, text, log = _told(lineup, *overrides, seed=2, match=1)
    _check_against_log(text, log, players)


def test_cli_replay_prints_the_text(told, capsys):
    _, _, text, _ = told
    assert main(["replay", "carrom", "--seed", "3"]) == 0
    assert capsys.readouterr().out == text + "\n"
