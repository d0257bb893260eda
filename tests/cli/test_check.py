"""`tablesim check FILE`: exit 0 when every target is shown met, 1 when one is shown missed (or
the same seed gives different tables), 3 when the matches allowed cannot tell, 2 on a bad file
(one line, nothing written); the Markdown and JSON summaries carry the verdicts."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import sim.core.game
from sim.cli import EXIT_INTERRUPTED, main
from tests.core import toygame

#: A fair-ish duel of the toy dice race to 8 points (seat 0 wins about 55 %, a median of 2 rounds).
HEAD = """\
game = "toy-dice"
seed = 3
matches = {matches}
stages = {stages}
determinism = 8
[baseline]
set = {{ "game.target" = 8 }}
[[variants]]
name = "bonus"
set = {{ "game.seat0_bonus" = 3 }}
[[lineups]]
name = "duel"
players = ["plain", "plain"]
"""

MET = """
[[targets]]
metric = "seat_win_rate"
seat = 0
target = 0.5
tolerance = 0.15
[[targets]]
metric = "rounds_quantile"
quantile = 0.5
low = 1
high = 5
variant = "*"
"""

#: seat 0 with +3 a roll wins almost every game: far outside 0.5 ± 0.05
MISSED = """
[[targets]]
metric = "seat_win_rate"
variant = "bonus"
target = 0.5
tolerance = 0.05
"""

#: seat 0 without the bonus wins about 55 %: a band with an edge that 40 matches cannot place it by
UNDECIDED = """
[[targets]]
metric = "seat_win_rate"
low = 0.5
high = 0.7
"""


def _file(tmp_path, targets: str, matches: int = 800, stages: int = 2, extra: str = "", name: str = "check.toml"):
    path = tmp_path / name
    path.write_text(HEAD.format(matches=matches, stages=stages) + extra + targets, encoding="utf-8")
    return path


def _run(capsys, *argv):
    code = main(["check", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_target_met_exits_0_and_writes_both_summaries(tmp_path, capsys):
    path = _file(tmp_path, MET)
    md, js = tmp_path / "summary.md", tmp_path / "summary.json"
    code, out, err = _run(capsys, path, "--markdown", md, "--json", js)
    assert code == 0, err
    summary = json.loads(js.read_text(encoding="utf-8"))
    assert summary["status"] == "met" and summary["exit_status"] == 0 and summary["deterministic"]
    assert [t["verdict"] for t in summary["targets"]] == ["met"] * 3
    assert [t["target"] for t in summary["targets"]] == [
        "seat_win_rate(seat 0) @duel [baseline]",
        "rounds_quantile(q0.5) @duel [baseline]",
        "rounds_quantile(q0.5) @duel [bonus]",
    ]
    # decided at the first of two stages: 400 matches, α/2 spent, a 1 − 2·0.025 interval inside the band
    first = summary["targets"][0]
    assert (first["look"], first["matches"], first["alpha"]) == (1, 400, pytest.approx(0.025))
    assert first["confidence"] == pytest.approx(0.95) and 0.35 <= first["ci_low"] <= first["ci_high"] <= 0.65
    assert summary["stages"] == [400, 800] and summary["looks_planned"] == 2 and len(summary["looks"]) == 1
    assert summary["determinism"]["identical"] and summary["determinism"]["matches"] == 8
    text = md.read_text(encoding="utf-8")
    assert text.startswith("### ✅ tablesim check:") and "| `seat_win_rate(seat 0) @duel [baseline]` |" in text
    assert "identical tables" in text and "Every target is met" in text
    assert "Every target is met" in out and out.rstrip().endswith("exit status 0")


def test_a_target_shown_missed_exits_1_and_wins_over_an_undecided_one(tmp_path, capsys):
    path = _file(tmp_path, MISSED + UNDECIDED, matches=40, stages=1)
    md = tmp_path / "summary.md"
    code, out, err = _run(capsys, path, "--markdown", md, "--format", "json")
    assert code == 1, err
    summary = json.loads(out)
    assert summary["status"] == "missed" and summary["exit_status"] == 1
    missed, open_ = summary["targets"]
    assert missed["verdict"] == "missed" and missed["outside_ci"][0] > 0.55
    # the miss is shown on the (1 − α/T) interval: Bonferroni over the T = 2 targets
    assert missed["outside_confidence"] == pytest.approx(1 - 0.05 / 2)
    assert open_["verdict"] == "undecided"
    text = md.read_text(encoding="utf-8")
    assert text.startswith("### ❌") and "❌ missed" in text and "❔ undecided" in text


def test_too_few_matches_to_tell_exits_3(tmp_path, capsys):
    path = _file(tmp_path, UNDECIDED, matches=40, stages=2)
    js = tmp_path / "summary.json"
    code, out, err = _run(capsys, path, "--json", js)
    assert code == 3, err
    summary = json.loads(js.read_text(encoding="utf-8"))
    assert summary["status"] == "undecided" and [t["verdict"] for t in summary["targets"]] == ["undecided"]
    # both stages were played (undecided at the first), each a look at α/2
    assert [look["matches"] for look in summary["looks"]] == [20, 40]
    assert "Cannot tell with 40 matches" in out and "raise `matches`" in out


def test_the_same_seed_giving_different_tables_exits_1(tmp_path, capsys, monkeypatch):
    def unseeded(rules, players, seeds):
        log = toygame.play_match(rules, players, seeds)
        log.matches["rounds"] += int(np.random.default_rng().integers(0, 1000))  # noqa: NPY002 (on purpose)
        return log

    noisy = dataclasses.replace(sim.core.game.get_game("toy-dice"), play_match=unseeded)
    monkeypatch.setitem(sim.core.game._REGISTRY, "toy-dice", noisy)
    path = _file(tmp_path, MET.replace("low = 1\nhigh = 5", "low = 1\nhigh = 5000"))
    js = tmp_path / "summary.json"
    code, out, err = _run(capsys, path, "--json", js)
    assert code == 1, err
    summary = json.loads(js.read_text(encoding="utf-8"))
    assert not summary["deterministic"] and summary["exit_status"] == 1
    difference = summary["determinism"]["difference"]
    assert difference["table"] == "matches" and difference["column"] == "rounds"
    assert "The game is not deterministic: the same seed gave different matches tables" in out
    assert "DIFFERENT" in out


@pytest.mark.parametrize(
    "change, expected",
    [
        (("matches = 800", "matchs = 800"), "check.toml: matchs: unknown key; allowed: alpha, baseline, bootstrap"),
        (
            ('metric = "seat_win_rate"', 'metric = "seat_winrate"'),
            "check.toml: targets[0].metric: got 'seat_winrate'; allowed: 'seat_win_rate', 'profile_win_rate'",
        ),
        (
            ('players = ["plain", "plain"]', 'players = ["plain", "wizard"]'),
            "check.toml: lineup 'duel': players: unknown profile 'wizard'; allowed: plain, lucky",
        ),
        (
            ('metric = "seat_win_rate"\nseat = 0', 'metric = "profile_win_rate"\nprofile = "lucky"'),
            "check.toml: targets[0].profile: got 'lucky', not a profile of line-up 'duel'; allowed: plain",
        ),
        (
            ('metric = "seat_win_rate"\nseat = 0', 'metric = "game"\nname = "ko_rate"'),
            "check.toml: targets[0].metric: toy-dice has no game metrics; allowed: seat_win_rate, profile_win_rate",
        ),
        (
            ('variant = "*"', 'variant = "bonsu"'),
            "check.toml: targets[1].variant: unknown rules 'bonsu'; allowed: baseline, bonus, *",
        ),
    ],
)
def test_a_bad_file_is_one_line_exit_2_and_nothing_written(tmp_path, capsys, change, expected):
    text = (HEAD.format(matches=800, stages=2) + MET).replace(*change, 1)
    path = tmp_path / "check.toml"
    path.write_text(text, encoding="utf-8")
    md, js = tmp_path / "summary.md", tmp_path / "summary.json"
    code, out, err = _run(capsys, path, "--markdown", md, "--json", js)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1, err
    assert lines[0].startswith("tablesim: error: ") and expected in lines[0], lines[0]
    assert not md.exists() and not js.exists()


PIG = """\
game = "pig"
seed = 1
matches = 60
determinism = 4
[[lineups]]
name = "duel"
players = ["standard", "bold"]
[[targets]]
metric = "game"
name = "{name}"
low = 0.01
high = 0.99
"""


def test_a_game_metric_is_checked_and_an_unknown_one_refused(tmp_path, capsys):
    path = tmp_path / "pig.toml"
    path.write_text(PIG.format(name="bust_rate"), encoding="utf-8")
    code, out, err = _run(capsys, path, "--format", "json")
    assert code == 0, err
    target = json.loads(out)["targets"][0]
    assert target["target"] == "game(bust_rate) @duel" and target["verdict"] == "met"
    path.write_text(PIG.format(name="bust_rat"), encoding="utf-8")
    js = tmp_path / "summary.json"
    code, out, err = _run(capsys, path, "--json", js)
    assert code == 2 and out == "" and not js.exists()
    assert err == (
        f"tablesim: error: {path}: targets: name: unknown game metric 'bust_rat' on line-up 'duel'; "
        "allowed: bust_rate, rolls_per_turn\n"
    )


def test_bad_options_are_refused_before_any_match(tmp_path, capsys):
    path = _file(tmp_path, MET)
    code, _, err = _run(capsys, path, "--markdown", tmp_path / "summary.txt")
    assert code == 2 and "--markdown" in err and "allowed: .md, .markdown" in err
    code, _, err = _run(capsys, path, "--set", "game.target=abc")
    assert code == 2 and err.startswith("tablesim: error: --set: game.target:")
    code, _, err = _run(capsys, path, "--matches", "0")
    assert code == 2 and "--matches: got 0" in err


def test_set_applies_to_every_rules_set(tmp_path, capsys):
    path = _file(tmp_path, MET.split('[[targets]]\nmetric = "rounds')[0], matches=100, stages=1)
    code, out, err = _run(capsys, path, "--set", "game.seat0_bonus=3", "--format", "json")
    assert code == 1, err
    assert json.loads(out)["targets"][0]["verdict"] == "missed"


def test_ctrl_c_exits_interrupted_and_writes_nothing(tmp_path, capsys, monkeypatch):
    import analysis.check

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(analysis.check, "run_check", interrupted)
    md = tmp_path / "summary.md"
    code, out, err = _run(capsys, _file(tmp_path, MET), "--markdown", md)
    assert code == EXIT_INTERRUPTED and "interrupted; nothing written" in err and not md.exists()
