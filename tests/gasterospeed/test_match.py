"""A championship as one match: tables, determinism, replay, summary, hidden information."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from sim.core import Cell, run_cells
from sim.core.game import get_game
from sim.core.profiles import load_lineup
from sim.core.rules import load_rules
from sim.core.seeding import MatchSeeds
from sim.gasterospeed import GAME
from sim.gasterospeed.match import play_match, replay
from sim.gasterospeed.rules.board import Board
from sim.gasterospeed.rules.race import Race
from sim.gasterospeed.rules.view import View

RULES = load_rules(GAME)
LINEUP = load_lineup(GAME, ["tactician", "greedy", "casual", "random"], RULES)


def test_registered_game_spec():
    spec = get_game("gasterospeed")
    assert spec is GAME and spec.title == "Gastérospeed" and spec.player_counts == (2, 3, 4, 5, 6)
    assert spec.replay is replay and spec.summary is not None and spec.lineup_problems is not None
    assert spec.demo_players == ("tactician", "greedy", "casual", "random")


def test_same_inputs_same_log_and_seeds_matter():
    a = play_match(RULES, LINEUP, MatchSeeds(5, 2))
    b = play_match(RULES, LINEUP, MatchSeeds(5, 2))
    assert a.tables() == b.tables()
    c = play_match(RULES, LINEUP, MatchSeeds(5, 3))
    assert c.tables() != a.tables()


def _types(rows):
    return {k: type(v) for row in rows for k, v in row.items()}


def test_tables_have_the_required_columns_and_stable_plain_types():
    logs = [play_match(RULES, LINEUP[:n], MatchSeeds(1, i)) for i, n in enumerate((2, 3, 4))]
    first = logs[0]
    assert {"winner", "winning_team", "rounds", "finished", "champion", "races", "turn_capped_races"} <= set(
        first.matches
    )
    assert first.matches["winning_team"] == -1 and first.matches["rounds"] == 6
    assert {"seat", "profile", "team", "score", "rank", "won", "shells_left"} <= set(first.players[0])
    assert {"round", "seat", "points", "cumulative", "circuit", "arrival", "shells_left", "ko"} <= set(first.rounds[0])
    assert {"index", "round", "turn", "phase", "seat", "card", "outcome"} <= set(first.events[0])
    for table in ("players", "rounds", "events"):
        kinds = [_types(getattr(log, table)) for log in logs]
        assert kinds[0] == kinds[1] == kinds[2]
        assert set(kinds[0].values()) <= {int, float, str, bool}
    assert _types([log.matches for log in logs]) == _types([first.matches])
    for log in logs:
        assert len(log.rounds) == 6 * len(log.players)
        assert [e["index"] for e in log.events] == list(range(len(log.events)))
        for row in log.players:
            rounds = [x for x in log.rounds if x["seat"] == row["seat"]]
            assert row["score"] == rounds[-1]["cumulative"] == sum(x["points"] for x in rounds)
        assert sum(row["won"] for row in log.players) == (log.matches["winner"] >= 0)


def test_runner_assembles_the_tables_and_summary_metrics():
    cell = Cell("baseline", "mix", RULES, LINEUP)
    tables = run_cells(GAME, [cell], 6, 11, jobs=1, progress=False)
    assert len(tables["matches"]) == 6 and len(tables["rounds"]) == 6 * 6 * 4
    metrics = GAME.summary(tables)
    assert all(isinstance(v, float) for v in metrics.values())
    for key in (
        "ko_rate",
        "race_turns",
        "turn_capped_rate",
        "ko_rate.stargot",
        "points.goulet",
        "race_win_rate.slot1",
        "card_play_rate.tir",
        "card_win_rate.tir",
        "card_play_rate.renfort_de_coquille",
        "card_play_rate.rouler_bouler",
    ):
        assert key in metrics, key
    assert 0 <= metrics["ko_rate"] <= 1 and metrics["race_turns"] > 1
    # capped races per circuit, and the longest race, for a report to set against race.turn_cap
    races = tables["rounds"].drop_duplicates(["match", "round"])
    for circuit, group in races.groupby("circuit"):
        assert metrics[f"turn_capped_races.{circuit}"] == float(group["capped"].sum())
        assert metrics[f"turn_capped_rate.{circuit}"] == float(group["capped"].mean())
        assert metrics[f"race_turns_max.{circuit}"] == float(group["turns"].max())
    assert metrics["turn_capped_races"] == float(races["capped"].sum())
    # win rate by start slot: a share of the races started on that slot
    rounds = tables["rounds"]
    slot1 = rounds[rounds["start_slot"] == 1]
    assert metrics["race_win_rate.slot1"] == float((slot1["arrival"] == 1).mean())


def test_replay_tells_the_first_race_turn_by_turn_with_a_map_each_turn():
    text = replay(RULES, LINEUP, MatchSeeds(4, 0), fold=False)
    log = play_match(RULES, LINEUP, MatchSeeds(4, 0))
    assert text.startswith("Race 1 of 6: La Ligne Droite")
    turns = re.findall(r"=== Turn (\d+) ===", text)
    assert [int(t) for t in turns] == list(range(1, len(turns) + 1))
    assert text.count("#FFFFFF#") == len(turns) + 1  # the map at the start and after each turn
    first = sorted((x for x in log.rounds if x["round"] == 1 and x["arrival"] > 0), key=lambda x: x["arrival"])
    told = re.findall(r"^  (\d+)\. [A-F] \((\w+)\): (\d+) points", text, flags=re.M)
    assert [(int(a), p, int(pts)) for a, p, pts in told] == [
        (x["arrival"], LINEUP[x["seat"]].name, x["points"]) for x in first
    ]
    assert len(turns) == first[0]["turns"]


class Spy:
    """Wraps a policy and records every argument it is given."""

    def __init__(self, inner):
        self.inner = inner
        self.wants_board = getattr(inner, "wants_board", True)
        self.forbid = getattr(inner, "forbid", frozenset())  # attributes of the Policy protocol
        self.seen = []

    def __getattr__(self, name):
        method = getattr(self.inner, name)

        def wrapped(*args):
            self.seen.append((name, args))
            return method(*args)

        return wrapped


def test_players_only_see_public_information_and_their_own_hand(monkeypatch):
    from sim.gasterospeed import match as match_module

    spies = []
    real = match_module.make_policy

    def spying(profile, dice):
        spy = Spy(real(profile, dice))
        spies.append(spy)
        return spy

    monkeypatch.setattr(match_module, "make_policy", spying)
    hands_seen = []
    real_view = Race.view

    def view(self, seat):
        v = real_view(self, seat)
        hands_seen.append((v, list(self.hands[seat]), self.board, [list(p) for p in self.draw]))
        return v

    monkeypatch.setattr(Race, "view", view)
    play_match(RULES, LINEUP, MatchSeeds(8, 0))
    assert "hands" not in View.__slots__ and "draw" not in View.__slots__
    for v, own, board, draw in hands_seen:
        assert list(v.hand) == own
        assert v.board is None or (isinstance(v.board, Board) and v.board is not board)
        assert v.draw_sizes == tuple(len(p) for p in draw)
        for name in View.__slots__:
            value = getattr(v, name)
            assert not isinstance(value, Race)
    allowed = (View, Board, int, float, str, list, tuple, type(None), np.integer)
    for spy in spies:
        for _, args in spy.seen:
            for arg in args:
                assert isinstance(arg, allowed)
                if isinstance(arg, list):
                    for item in arg:
                        assert isinstance(item, (int, tuple))
                        if isinstance(item, tuple):
                            assert all(isinstance(x, (int, bool, Board)) for x in item)


def test_tie_break_by_race_wins_or_a_drawn_championship():
    from sim.gasterospeed.match import _winner

    result = {"n": 3, "points": [20, 20, 11], "shells": [0, 0, 0], "race_wins": [1, 2, 0]}
    assert _winner(RULES, result)[0] == 1
    drawn = load_rules(GAME, None, ["championship.tie_break=none"])
    winner, score, rank, tie = _winner(drawn, result)
    assert winner == -1 and tie and rank == [1, 1, 3]


def test_championship_over_a_configurable_list_of_circuits():
    rules = load_rules(GAME, None, ['championship.circuits=["stargot", "stargot", "goulet"]'])
    log = play_match(rules, LINEUP[:2], MatchSeeds(2, 0))
    assert [x["circuit"] for x in log.rounds if x["seat"] == 0] == ["stargot", "stargot", "goulet"]
    assert log.matches["races"] == 3


def test_tables_load_into_dataframes_with_stable_dtypes():
    cell = Cell("baseline", "mix", RULES, LINEUP[:3])
    tables = run_cells(GAME, [cell], 3, 2, jobs=1, progress=False)
    assert pd.api.types.is_bool_dtype(tables["rounds"]["ko"])
    assert pd.api.types.is_integer_dtype(tables["events"]["turn"])
    assert pd.api.types.is_float_dtype(tables["players"]["score"])


def test_tables_do_not_depend_on_workers_or_chunks():
    cell = Cell("baseline", "mix", RULES, LINEUP, rotate_seats=True)
    one = run_cells(GAME, [cell], 8, 3, jobs=1, chunk_size=8, progress=False)
    two = run_cells(GAME, [cell], 8, 3, jobs=2, chunk_size=3, progress=False)
    for table in ("matches", "players", "rounds", "events"):
        pd.testing.assert_frame_equal(one[table], two[table])


@pytest.mark.parametrize("key, name", [("deck.tir.name", "Pan"), ("circuits.ligne_droite.title", "Le Sprint")])
def test_display_names_change_the_replay_only(key, name):
    """A display name changes no table (the conformance suite checks that it changes the replay)."""
    base = ['championship.circuits=["ligne_droite", "cross_ronces"]']
    rules = load_rules(GAME, None, base)
    changed = load_rules(GAME, None, [*base, f'{key}="{name}"'])
    players = load_lineup(GAME, ["tactician", "greedy", "random"], rules)
    assert (
        play_match(rules, players, MatchSeeds(4, 0)).tables() == play_match(changed, players, MatchSeeds(4, 0)).tables()
    )
    seeds = MatchSeeds(4, 0) if key.startswith("circuits") else MatchSeeds(6, 3)
    assert replay(rules, players, seeds) != replay(changed, players, seeds)
