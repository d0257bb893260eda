"""Rules configuration: merging, overrides, validation messages (one line per problem)."""

import pytest

from sim.core.config import ConfigError, load_config, parse_override, to_dict, to_toml

from .toygame import HERE, ToyRules

DEFAULTS = HERE / "toy_rules.toml"


def load(*overrides, user_file=None):
    return load_config(ToyRules, DEFAULTS, user_file, overrides)


def problems(*overrides, user_file=None):
    with pytest.raises(ConfigError) as info:
        load(*overrides, user_file=user_file)
    return info.value.problems


def test_defaults_load_into_frozen_dataclasses():
    rules = load()
    assert rules.game.target == 20 and rules.dice.sides == 6 and rules.dice.faces == ()
    with pytest.raises(AttributeError):
        rules.game.target = 3


def test_override_parses_toml_values_and_bare_strings():
    assert parse_override("a.b=[1, 2]") == ("a.b", [1, 2])
    assert parse_override("a.b=true") == ("a.b", True)
    assert parse_override("a.b=max") == ("a.b", "max")
    rules = load("game.target=35", "dice.mode=max", "dice.sides=3", "dice.faces=[1,2,9]")
    assert rules.game.target == 35 and rules.dice.mode == "max" and rules.dice.faces == (1, 2, 9)


def test_user_file_then_overrides(tmp_path):
    user = tmp_path / "mine.toml"
    user.write_text("[game]\ntarget = 40\n")
    assert load(user_file=user).game.target == 40
    assert load("game.target=41", user_file=user).game.target == 41
    assert load(user_file=user).game.max_rounds == 50  # untouched defaults stay


def test_unknown_key_names_the_key_and_the_allowed_ones():
    [line] = problems("game.colour=3")
    assert line == "--set: game.colour: unknown key; allowed: delay_s, max_rounds, seat0_bonus, target"


def test_unknown_section_is_reported():
    [line] = problems("board.size=3")
    assert "board: unknown key; allowed: dice, game" in line


def test_wrong_type_names_value_and_expected_type():
    [line] = problems("game.target=abc")
    assert line == "--set: game.target: expected an integer, got 'abc' (str)"


def test_bounds_and_choices():
    assert problems("game.target=0") == ["--set: game.target: got 0; allowed: >= 1 points"]
    [line] = problems("dice.mode=min")
    assert "dice.mode: got 'min'; allowed: 'sum', 'max'" in line


def test_every_problem_is_reported_once_each():
    lines = problems("game.target=-1", "dice.sides=one", "game.nope=1")
    assert len(lines) == 3


def test_cross_field_check_from_problems_method():
    [line] = problems("dice.faces=[1, 2, 3]")
    assert line.endswith("dice.faces: expected 6 values (one per side), got 3")


def test_errors_in_a_file_name_the_file(tmp_path):
    user = tmp_path / "bad.toml"
    user.write_text("[game]\ntarget = 'x'\n")
    [line] = problems(user_file=user)
    assert line.startswith(f"{user}: game.target: expected an integer")


def test_malformed_and_missing_files_give_one_line(tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text("[game\ntarget = 1")
    [line] = problems(user_file=bad)
    assert line.startswith(f"{bad}: malformed TOML")
    [line] = problems(user_file=tmp_path / "absent.toml")
    assert line.endswith("absent.toml: file not found")


def test_floats_accept_integers_and_ints_refuse_fractions():
    assert problems("game.target=2.5")[0].endswith("expected an integer, got 2.5 (float)")
    assert load("game.target=30.0").game.target == 30


def test_round_trip_through_toml():
    rules = load("dice.sides=3", "dice.faces=[4, 5, 6]")
    import tomllib

    assert load_config(ToyRules, tomllib.loads(to_toml(rules))) == rules
    assert to_dict(rules)["dice"]["faces"] == [4, 5, 6]


def test_dict_of_dataclasses_accepts_new_names_and_validates_each_entry():
    from dataclasses import dataclass, field

    from sim.core.config import build, param

    @dataclass(frozen=True)
    class Card:
        count: int = param(1, min=0)
        order: int = param(1, min=1, max=4)

    @dataclass(frozen=True)
    class Deck:
        deck: dict[str, Card] = field(default_factory=dict)

    deck = build(Deck, {"deck": {"tir": {"count": 5, "order": 4}, "new_card": {"count": 2}}})
    assert deck.deck["tir"].count == 5 and deck.deck["new_card"].order == 1
    with pytest.raises(ConfigError) as info:
        build(Deck, {"deck": {"tir": {"count": -1, "order": 7, "colour": "red"}}})
    assert sorted(line.split(": ", 1)[1] for line in info.value.problems) == [
        "deck.tir.colour: unknown key; allowed: count, order",
        "deck.tir.count: got -1; allowed: >= 0",
        "deck.tir.order: got 7; allowed: <= 4",
    ]
