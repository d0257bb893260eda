"""Messages name the source the user wrote; entries of named tables; the note channel.

A ``--set`` problem never blames the package's own rules file; a cross-field problem on a key
the user did not set is reported once, under the key the user did set; an unknown entry of a
named table that looks like a typo gets the close matches; notes are not errors.
"""

from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.core.config import ConfigError, build, load_config, note_handler, param

from .reliability import error_lines, run_cli
from .toygame import GAME, HERE, ToyRules

DEFAULTS = HERE / "toy_rules.toml"


def problems(*overrides, user_file=None):
    with pytest.raises(ConfigError) as info:
        load_config(ToyRules, DEFAULTS, user_file, overrides)
    return info.value.problems


# the source the user wrote -------------------------------------------------------------------


def test_an_unknown_table_set_by_the_user_is_blamed_on_the_set():
    assert problems("dic.sides=3") == ["--set: dic: unknown key; allowed: dice, game"]


def test_a_derived_bound_is_reported_once_under_the_key_the_user_set():
    # the user sets only max_rounds; the check that fails is on game.target (20 > 1 x 6)
    assert problems("game.max_rounds=1") == [
        "--set: game.max_rounds: makes game.target (unchanged) invalid: got 20; allowed: <= 6 "
        "(reachable within game.max_rounds rounds)"
    ]


def test_a_derived_bound_is_dropped_when_the_users_key_has_its_own_line():
    # faces = [0, 0, 0]: wrong length (the user's key) and, derived, a target out of reach
    assert problems("dice.faces=[0, 0, 0]") == ["--set: dice.faces: expected 6 values (one per side), got 3"]


def test_a_field_error_is_not_followed_by_cross_field_noise():
    assert problems("game.max_rounds=abc") == ["--set: game.max_rounds: expected an integer, got 'abc' (str)"]


def test_a_user_file_is_named_for_its_own_keys(tmp_path):
    user = tmp_path / "mine.toml"
    user.write_text("[game]\nmax_rounds = 2\n")
    assert problems(user_file=user) == [
        f"{user}: game.max_rounds: makes game.target (unchanged) invalid: got 20; allowed: <= 12 "
        "(reachable within game.max_rounds rounds)"
    ]
    assert problems("game.target=13", user_file=user) == [
        "--set: game.target: got 13; allowed: <= 12 (reachable within game.max_rounds rounds)"
    ]


def test_curlastique_set_problems_are_blamed_on_the_set():
    from sim.core import get_game
    from sim.core.rules import load_rules

    spec = get_game("curlastique")
    with pytest.raises(ConfigError) as info:
        load_rules(spec, None, ["zone.values=[1,2,3,4]"])
    assert info.value.problems[0].startswith("--set: zone: unknown key; allowed: ")
    with pytest.raises(ConfigError) as info:
        load_rules(spec, None, ["puck.diameter=2.0"])
    [line] = info.value.problems
    assert line.startswith("--set: puck.diameter: ") and "rules.toml" not in line


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(
        [
            "game.target",
            "game.max_rounds",
            "game.delay_s",
            "dice.sides",
            "dice.faces",
            "dice.mode",
            "dice",
            "game",
            "game.nope",
            "nope.x",
            "dice.faces.x",
        ]
    ),
    value=st.one_of(
        st.integers(-(10**6), 10**6),
        st.floats(allow_nan=True),
        st.text(max_size=5),
        st.booleans(),
        st.lists(st.integers(-3, 9), max_size=8),
    ),
)
def test_a_set_problem_never_blames_the_package_rules_file(key, value):
    try:
        load_config(ToyRules, DEFAULTS, None, [(key, value)])
    except ConfigError as exc:
        assert exc.problems
        for line in exc.problems:
            assert line.startswith("--set: "), line
            assert str(DEFAULTS) not in line


# entries of named tables ---------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    kind: str = param("action", doc="action or speed")
    count: int = param(0, min=0)
    effects: tuple[str, ...] = ()

    def problems(self):
        if self.kind == "action" and self.count and not self.effects:
            yield "effects", "an action card needs at least one effect"


@dataclass(frozen=True)
class Deck:
    deck: dict[str, Card] = field(default_factory=dict)


DECK = {
    "deck": {"tir": {"kind": "action", "count": 4, "effects": ["shoot"]}, "vitesse": {"kind": "speed", "count": 30}}
}


def deck_problems(*overrides):
    with pytest.raises(ConfigError) as info:
        load_config(Deck, DECK, None, overrides)
    return info.value.problems


def test_a_typo_in_an_entry_name_gets_the_close_match():
    assert deck_problems("deck.tirr.count=10") == ["--set: deck.tirr: unknown entry; did you mean 'tir'?"]


def test_existing_entries_may_change_any_key_and_complete_new_ones_are_welcome():
    deck = load_config(Deck, DECK, None, ["deck.tir.count=10", "deck.bouclier.kind=speed", "deck.bouclier.count=2"])
    assert deck.deck["tir"].count == 10 and deck.deck["tir"].effects == ("shoot",)
    assert deck.deck["bouclier"].count == 2


def test_an_incomplete_new_entry_far_from_any_name_reports_its_own_problem():
    assert deck_problems("deck.zzz.count=3") == ["--set: deck.zzz.effects: an action card needs at least one effect"]


def test_a_complete_new_entry_close_to_a_name_is_a_note_not_an_error():
    seen = []
    with note_handler(seen.append):
        deck = load_config(Deck, DECK, None, ["deck.tirr.count=1", 'deck.tirr.effects=["shoot"]'])
    assert deck.deck["tirr"].count == 1
    assert seen == ["--set: deck.tirr: a new entry (not in the defaults); did you mean 'tir'?"]


def test_without_known_entries_new_names_are_built():
    deck = build(Deck, {"deck": {"anything": {"kind": "speed", "count": 1}}})
    assert deck.deck["anything"].count == 1


def test_gasterospeed_deck_typo_gets_the_close_match():
    from sim.core import get_game
    from sim.core.rules import load_rules

    with pytest.raises(ConfigError) as info:
        load_rules(get_game("gasterospeed"), None, ["deck.tirr.count=10"])
    assert "--set: deck.tirr: unknown entry; did you mean 'tir'?" in info.value.problems


# notes ---------------------------------------------------------------------------------------


def test_notes_of_a_rules_dataclass_reach_the_handler_only_for_valid_rules():
    seen = []
    with note_handler(seen.append):
        load_config(ToyRules, DEFAULTS, None, ["dice.faces=[6, 5, 4, 3, 2, 1]"])
        with pytest.raises(ConfigError):
            load_config(ToyRules, DEFAULTS, None, ["dice.faces=[6, 5, 4, 3, 2, 1]", "game.target=0"])
    assert seen == ["--set: dice.faces: the face values are not in increasing order (allowed; a typo?)"]
    load_config(ToyRules, DEFAULTS, None, ["dice.faces=[6, 5, 4, 3, 2, 1]"])  # no handler: silent


def test_the_cli_prints_a_note_on_stderr_and_goes_on(capsys, tmp_path):
    code, out, err = run_cli(
        capsys, "run", "toy-dice", "--matches", "4", "--players", "plain,lucky", "--set", "dice.faces=[6,5,4,3,2,1]"
    )
    assert code == 0 and "4 matches" in out
    assert error_lines(err) == [
        "tablesim: note: --set: dice.faces: the face values are not in increasing order (allowed; a typo?)"
    ]


def test_an_experiment_note_names_the_file_and_the_variant_once(capsys, tmp_path):
    path = tmp_path / "exp.toml"
    path.write_text(
        'game = "toy-dice"\nmatches = 2\nseed = 1\n[[variants]]\nname = "down"\n'
        'set = { "dice.faces" = [6, 5, 4, 3, 2, 1] }\n[[lineups]]\nname = "pl"\n'
        'players = ["plain", "lucky"]\n'
    )
    code, out, err = run_cli(capsys, "experiment", path, "--out", tmp_path / "o", "--no-progress")
    assert code == 0, err
    notes = [line for line in error_lines(err) if "note:" in line]
    assert notes == [
        f"tablesim: note: {path}: variant 'down': dice.faces: the face values are not in "
        "increasing order (allowed; a typo?)"
    ]
    assert GAME.name == "toy-dice"
