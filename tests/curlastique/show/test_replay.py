"""``tablesim replay curlastique``: one game told throw by throw, faithful to the match log."""

from __future__ import annotations

import re

import pytest

from sim.cli import main
from sim.core import MatchSeeds, get_game, load_lineup
from sim.core.rules import load_rules
from sim.curlastique import GAME
from sim.curlastique.match import play_match
from sim.curlastique.show.replay import replay

from ..scripted import scripted_players, teleport

RULES = load_rules(GAME)
LINEUP = load_lineup(GAME, list(GAME.demo_players), RULES)
SEEDS = MatchSeeds(3, 0)

TURN = re.compile(r"^  turn +(\d+)  seat (\d+) \(", flags=re.M)
ROUND = re.compile(r"^Round (\d+)\b(.*)$", flags=re.M)
WINNER = re.compile(r"^Winner: seat (\d+) \((\w+)\)", flags=re.M)
FINAL = re.compile(r"^  (\d+)\. seat (\d+) \((\w+)\) +(\d+) points", flags=re.M)


@pytest.fixture(scope="module")
def told():
    return replay(RULES, LINEUP, SEEDS), play_match(RULES, LINEUP, SEEDS)


def test_registered_as_the_game_replay_hook():
    assert get_game("curlastique").replay is replay


def test_the_text_names_every_round_of_the_match(told):
    text, log = told
    assert text.startswith("Curlastique replay (seed 3, match 0)")
    assert f"Target: {RULES.game.target_score} points" in text
    for s, p in enumerate(LINEUP):
        assert f"  seat {s}: {p.name}" in text
    rounds = sorted({r["round"] for r in log.rounds})
    assert [int(n) for n, _ in ROUND.findall(text)] == rounds == list(range(1, log.matches["rounds"] + 1))
    # each round's points and cumulative score per seat, as in the log
    blocks = {
        int(b.split()[1].rstrip(":")): b for b in re.split(r"^(?=Round \d+)", text, flags=re.M) if b.startswith("Round")
    }
    for r in log.rounds:
        assert re.search(
            rf"^    seat {r['seat']} \(\w+\) +{r['points']} points +total +{r['cumulative']}$",
            blocks[r["round"]],
            flags=re.M,
        ), r


def test_the_same_winner_and_final_scores_as_the_log(told):
    text, log = told
    assert log.matches["finished"]
    winner = int(log.matches["winner"])
    assert WINNER.findall(text) == [(str(winner), LINEUP[winner].name)]
    final = {int(seat): (int(rank), name, int(score)) for rank, seat, name, score in FINAL.findall(text)}
    assert final == {p["seat"]: (p["rank"], p["profile"], p["score"]) for p in log.players}


def test_one_line_per_throw_in_the_order_of_the_events(told):
    text, log = told
    lines = TURN.findall(text)
    assert len(lines) == len(log.events)
    assert [(int(t), int(s)) for t, s in lines] == [(e["turn"], e["seat"]) for e in log.events]
    # every throw says what its puck did: the zone it stopped in, or out of play
    throws = [line for line in text.splitlines() if TURN.match(line)]
    for line, e in zip(throws, log.events, strict=True):
        assert e["family"] in line
        if e["out"]:
            assert "out" in line.split("->")[1]
        else:
            assert f"{e['zone']}-point zone" in line or (e["zone"] == 0 and "no zone" in line)
        if e["knocked_out"]:
            assert f"knocked out {e['knocked_out']} puck" in line


def test_the_same_seeds_give_the_same_text_and_other_seeds_another(told):
    text, _ = told
    assert replay(RULES, LINEUP, SEEDS) == text
    assert replay(RULES, LINEUP, MatchSeeds(3, 1)) != text


def test_decisive_rounds_are_marked_and_leave_the_scores_alone():
    plan = {
        (1, 0): 300,
        (1, 1): 300,
        (1, 2): 100,
        (2, 0): 300,
        (2, 1): 300,
        (2, 2): 0,  # 600, 600, 100: tie between 0 and 1
        (3, 0): 100,
        (3, 1): 100,  # decisive: tie again
        (4, 0): 40,
        (4, 1): 80,
    }  # seat 1 wins
    players = scripted_players(RULES, plan, 3)
    text = replay(RULES, players, MatchSeeds(0, 0), resolver=teleport)
    log = play_match(RULES, scripted_players(RULES, plan, 3), MatchSeeds(0, 0), resolver=teleport)
    assert log.matches["decisive_rounds"] == 2
    heads = {int(n): rest for n, rest in ROUND.findall(text)}
    assert sorted(heads) == [1, 2, 3, 4]
    assert ["DECISIVE" in heads[n] for n in (1, 2, 3, 4)] == [False, False, True, True]
    assert "Tied again" in text and "seat 1 (scripted1) wins the tie-break." in text
    assert len(TURN.findall(text)) == len(log.events)
    assert WINNER.findall(text) == [("1", "scripted1")]
    final = {int(seat): int(score) for _, seat, _, score in FINAL.findall(text)}
    assert final == {0: 600, 1: 600, 2: 100}


def test_an_unfinished_game_has_no_winner():
    rules = load_rules(GAME, None, ["game.max_rounds=1"])
    text = replay(rules, scripted_players(rules, {}, 2), MatchSeeds(0, 0), resolver=teleport)
    assert not WINNER.search(text)
    assert "No winner: the game stopped unfinished after 1 round" in text


def test_cli_replay_prints_the_text(told, capsys):
    text, _ = told
    assert main(["replay", "curlastique", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out == text + "\n"
