"""Worth targets in a balance file: restricted line-ups played on the trial's seeds, the worth
and the spread measured with the paired intervals of restricted play, a TOST on the spread that
keeps its level against a known truth, and one line for each thing a file gets wrong."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis.balance.search import load_balance, run_balance
from analysis.balance.targets import Target, measure_all
from analysis.balance.worth import WITHOUT
from analysis.check import load_check
from analysis.worth import restricted_wins, worth_interval, worth_spread, worth_table
from sim.core import ConfigError
from sim.core.restrict import worth_manifest

from .worth_spread_truth import EDGE, FLAT, paired_tables, shown_met


def test_worth_and_spread_targets_read_the_restricted_line_ups_with_the_paired_intervals():
    worths = {"a": 0.20, "b": 0.05, "c": 0.0}
    tables = paired_tables(np.random.default_rng(1), worths, seeds=400)
    spread = Target(metric="worth_spread", lineup="base", low=0.0, high=0.3)
    one = Target(metric="worth", choice="b", lineup="base", low=-0.1, high=0.1)
    some = Target(metric="worth_spread", choices=("b", "c"), lineup="base", low=0.0, high=0.3)
    measured_spread, measured_one, measured_some = measure_all([spread, one, some], tables, confidence=0.90)
    manifest = worth_manifest(0, [], {})  # the choices' names and labels are not read here
    manifest["lineups"] = {
        name: {"lineup": "base", "choice": name.split(WITHOUT)[1] if WITHOUT in name else None}
        for name in tables["matches"]["lineup"].unique()
    }
    table = worth_table(tables, manifest)
    row = table.set_index("choice").loc["b"].to_dict()
    assert measured_one["value"] == pytest.approx(row["worth"])
    assert (measured_one["ci_low"], measured_one["ci_high"]) == pytest.approx(worth_interval(row, 0.90))
    # the spread's interval at 90 % holds each side at 5 %: worth_spread's simultaneous level 95 %
    wins = restricted_wins(tables, manifest, "trial", "base")
    assert list(wins.columns) == ["a", "b", "c", "seed"] and len(wins) == 800
    expected = worth_spread(table, wins, 0.95)
    assert measured_spread["value"] == pytest.approx(expected["spread"])
    assert (measured_spread["ci_low"], measured_spread["ci_high"]) == pytest.approx((expected["low"], expected["high"]))
    assert measured_spread["best"] == "a" and measured_spread["worst"] in {"b", "c"}
    assert measured_spread["ci_low"] < 0.20 < measured_spread["ci_high"]
    expected_some = worth_spread(table[table["choice"].isin(["b", "c"])], wins, 0.95)
    assert measured_some["value"] == pytest.approx(expected_some["spread"])
    assert (
        spread.label == "worth_spread @base"
        and one.label == "worth(b) @base"
        and some.label == "worth_spread(b,c) @base"
    )


def test_a_spread_on_its_band_edge_is_shown_met_no_more_often_than_alpha():
    """Known truth (tests/balance/worth_spread_truth.py): planted worths whose spread sits on the
    band's upper edge; a "met" there is a false claim, at most α (the binomial 99.9 % bound of
    60 draws at 0.05 is 9). Flat worths on 800 paired matches are shown met in most runs."""
    rng = np.random.default_rng(7)
    assert shown_met(rng, EDGE, seeds=150, reps=60) <= 9
    assert shown_met(rng, FLAT, seeds=400, reps=20) >= 10


def _write(
    tmp_path, targets: str, extra: str = "", game: str = "curlastique", players: str = '["club", "club"]'
) -> object:
    path = tmp_path / "b.toml"
    path.write_text(
        f'game = "{game}"\nseed = 3\nmatches = 8\nrotate_seats = true\nchunk_size = 4\n'
        f'[[lineups]]\nname = "duel"\nplayers = {players}\n'
        '[[parameters]]\nkey = "game.target_score"\nkind = "int"\nlow = 300\nhigh = 500\nstep = 100\n'
        f'{targets}\n[search]\noptimizer = "random"\ntrials = 2\npruner = "none"\nvalidate_top = 1\n'
        f"validate_matches = 8\nvalidate_baseline = false\n{extra}",
        encoding="utf-8",
    )
    return path


SPREAD = '[[targets]]\nmetric = "worth_spread"\nchoices = ["zone.1", "shot.takeout"]\nlow = 0.0\nhigh = 0.5\n'


def test_a_balance_with_worth_targets_plays_each_restricted_line_up_on_the_trials_seeds(tmp_path):
    path = _write(
        tmp_path,
        SPREAD + '[[targets]]\nmetric = "worth"\nchoice = "zone.1"\nlow = -0.5\nhigh = 0.5\n'
        '[surface]\nprefix = "worth."\nbound = 0.5\n',
    )
    balance = load_balance(path)
    out = tmp_path / "out"
    summary = run_balance(balance, out, jobs=1)
    trial = json.loads((out / "trials" / "0000.json").read_text())
    assert set(trial["values"]) == {"worth_spread(zone.1,shot.takeout)", "worth(zone.1)"}
    assert set(trial["metrics"]["duel"]) >= {"worth.zone.1", "worth.shot.takeout"}
    assert trial["values"]["worth(zone.1)"] == trial["metrics"]["duel"]["worth.zone.1"]
    # 2 trials × 8 matches × 3 line-ups (the duel and its two restricted line-ups)
    assert summary["matches_played"]["search"] == 48
    validation = json.loads((out / "validation.json").read_text())
    checked = validation["candidates"][0]["targets"]
    assert [c["target"] for c in checked] == ["worth_spread(zone.1,shot.takeout) @duel", "worth(zone.1) @duel"]
    assert all(c["ci_low"] <= c["value"] <= c["ci_high"] for c in checked)
    assert json.loads((out / "surface.json").read_text())["metrics"] == ["worth.shot.takeout", "worth.zone.1"]


def test_the_restricted_line_ups_pair_with_the_line_up_match_by_match():
    from analysis.balance.search import _cells

    balance = load_balance_text(SPREAD)
    cells = _cells(balance, None, "trial")
    assert [c.lineup for c in cells] == ["duel", "duel without zone.1", "duel without shot.takeout"]
    assert [tuple(p.profile.forbid) for p in cells[2].players] == [("shot.takeout",), ()]
    assert all(c.rotate_seats and c.seed_offset == 0 for c in cells)
    assert [c.seed_and_rotation(5) for c in cells] == [cells[0].seed_and_rotation(5)] * 3


def load_balance_text(targets: str, **kwargs):
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp())
    return load_balance(_write(folder, targets, **kwargs))


@pytest.mark.parametrize(
    "targets, game, players, line",
    [
        (
            '[[targets]]\nmetric = "worth"\nchoice = "zone.9"\nlow = 0\nhigh = 1\n',
            "curlastique",
            '["club", "club"]',
            "targets[0].choice: unknown choice 'zone.9'; allowed: zone.1, zone.2",
        ),
        (
            '[[targets]]\nmetric = "worth"\nlow = 0\nhigh = 1\n',
            "curlastique",
            '["club", "club"]',
            "targets[0].choice: missing; the choice whose worth is targeted",
        ),
        (
            '[[targets]]\nmetric = "worth_spread"\nslot = 2\nlow = 0\nhigh = 1\n',
            "curlastique",
            '["club", "club"]',
            "targets[0].slot: got 2; line-up 'duel' has slots 0 to 1",
        ),
        (
            SPREAD + '[[targets]]\nmetric = "worth"\nchoice = "zone.1"\nslot = 1\nlow = 0\nhigh = 1\n',
            "curlastique",
            '["club", "club"]',
            "targets[1].slot: got 1; every worth target on line-up 'duel' restricts the same slot (0)",
        ),
    ],
)
def test_a_worth_target_the_game_or_line_up_cannot_serve_is_one_line(tmp_path, targets, game, players, line):
    with pytest.raises(ConfigError) as info:
        load_balance(_write(tmp_path, targets, game=game, players=players))
    assert len(info.value.problems) == 1
    assert line in info.value.problems[0] and str(tmp_path / "b.toml") in info.value.problems[0]


def test_a_game_without_restrictable_choices_and_an_anytime_look_refuse_worth_targets(tmp_path):
    path = tmp_path / "pig.toml"
    path.write_text(
        'game = "pig"\nmatches = 8\n[[lineups]]\nname = "duel"\nplayers = ["cautious", "cautious"]\n'
        '[[parameters]]\nkey = "game.target_score"\nkind = "int"\nlow = 50\nhigh = 100\n'
        '[[targets]]\nmetric = "worth_spread"\nlow = 0\nhigh = 1\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as info:
        load_balance(path)
    assert info.value.problems == [
        f"{path}: targets[0].metric: pig declares no choices a profile may forbid; "
        "worth targets need restrictable choices"
    ]
    with pytest.raises(ConfigError) as info:
        load_balance(_write(tmp_path, SPREAD, extra="look_every = 4\n"))
    assert "search.look_every: worth_spread(zone.1,shot.takeout) has no anytime-valid test" in info.value.problems[0]


def test_tablesim_check_refuses_a_worth_target_in_one_line(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(
        'game = "curlastique"\nmatches = 8\n[[lineups]]\nname = "duel"\nplayers = ["club", "club"]\n'
        '[[targets]]\nmetric = "worth"\nchoice = "zone.1"\nlow = 0\nhigh = 1\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as info:
        load_check(path)
    assert info.value.problems == [
        f"{path}: targets[0].metric: got 'worth', which `tablesim balance` measures by "
        "restricted play; allowed here: seat_win_rate, profile_win_rate, rounds_quantile, "
        "rounds_mean, length_quantile, length_mean, completion, game"
    ]


def test_a_restriction_a_profile_refuses_is_one_line_before_any_match(tmp_path):
    """A Carrom player whose break grid aims only at the queen cannot be restricted in
    ``break.centre`` (the break must be played): the balance file is refused when read."""
    profile = tmp_path / "centre.toml"
    profile.write_text('base = "casual"\nbreak_aims = [0.0]\n', encoding="utf-8")
    path = tmp_path / "carrom.toml"
    path.write_text(
        f'game = "carrom"\nmatches = 4\n[[lineups]]\nname = "duel"\nplayers = ["{profile}", "casual"]\n'
        '[[parameters]]\nkey = "game.target_points"\nkind = "int"\nlow = 9\nhigh = 25\n'
        '[[targets]]\nmetric = "worth_spread"\nchoices = ["break.centre", "shot.cut"]\nlow = 0\nhigh = 1\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as info:
        load_balance(path)
    assert len(info.value.problems) == 1
    assert info.value.problems[0].startswith(f"{path}: line-up 'duel': ")
    assert "without break.centre: forbid: forbidding break.centre leaves no break" in info.value.problems[0]


def test_the_console_names_a_spreads_most_and_least_valuable_choices():
    from sim.cli.search import _check_line

    check = {
        "target": "worth_spread @4-tacticians",
        "band": [0.0, 0.15],
        "value": 0.178,
        "ci_low": 0.105,
        "ci_high": 0.255,
        "met": False,
        "best": "kangouroute_aigue",
        "worst": "choc",
    }
    line = _check_line("best", check, "96.7 %")
    assert line.endswith("NOT met (kangouroute_aigue − choc)") and "CI [0.105, 0.255]" in line
    assert _check_line("best", {**check, "best": "", "worst": ""}, "96.7 %").endswith("NOT met")
