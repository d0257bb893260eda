"""Rules loading: rulesets and switches, overrides, errors, the printed TOML, profiles."""

import re
import tomllib

import pytest

from sim.carrom.rules.schema import SWITCHES, CarromRules
from sim.cli import main
from sim.core import ConfigError, load_lineup, load_rules
from sim.core.config import to_dict

from ..helpers import SPEC, rules


def test_defaults_and_the_keys_other_tools_rely_on():
    r = rules()
    assert r.ruleset == "family"
    assert r.game.target_points == 25 and r.game.max_boards == 8
    assert r.physics.friction == 0.1 and r.physics.restitution == 0.85
    assert r.physics.cushion_restitution == 0.7
    assert r.game.max_strokes_per_board > 0
    for key in ("dues", "queen_needs_own_first", "cover_same_stroke"):
        assert getattr(r.rules, key) == "auto"


@pytest.mark.parametrize("ruleset", ["family", "icf"])
def test_ruleset_sets_every_auto_switch(ruleset):
    sw = rules(f"ruleset={ruleset}").switches
    column = 0 if ruleset == "family" else 1
    for name, spec in SWITCHES.items():
        assert getattr(sw, name) is spec[column], name


def test_every_difference_between_the_rulesets_is_a_switch():
    fam, icf = rules("ruleset=family").switches, rules("ruleset=icf").switches
    differ = [n for n in SWITCHES if getattr(fam, n) != getattr(icf, n)]
    assert len(differ) >= 10
    assert set(SWITCHES) >= {"dues", "queen_needs_own_first", "cover_same_stroke"}


def test_a_switch_overrides_the_ruleset():
    sw = rules("ruleset=icf", "rules.dues=false", "rules.queen_needs_own_first=false").switches
    assert sw.dues is False and sw.queen_needs_own_first is False
    assert sw.due_outstanding is True  # the rest still follows the ruleset
    sw = rules("ruleset=family", "rules.last_coin_before_queen_penalty=true").switches
    assert sw.last_coin_before_queen_penalty is True and sw.extra_board_on_tie is False


def test_bad_switch_value_is_one_line_naming_the_key():
    with pytest.raises(ConfigError) as exc:
        load_rules(SPEC, None, ["rules.dues=maybe"])
    assert len(exc.value.problems) == 1
    line = exc.value.problems[0]
    assert "rules.dues" in line and "maybe" in line and '"auto", true, false' in line
    assert line.startswith("--set")


@pytest.mark.parametrize(
    "override, key",
    [
        ("ruleset=pro", "ruleset"),
        ("game.target_points=0", "game.target_points"),
        ("game.best_of=2", "game.best_of"),
        ("physics.restitution=1.5", "physics.restitution"),
        ("board.pocket_diameter=0.02", "board.pocket_diameter"),
        ("rules.colour=true", "rules.colour"),
        ("three_players.white_points=ten", "three_players.white_points"),
    ],
)
def test_bad_values_are_rejected_with_the_key(override, key):
    with pytest.raises(ConfigError) as exc:
        load_rules(SPEC, None, [override])
    assert any(key in line for line in exc.value.problems)


def test_tablesim_rules_prints_the_full_commented_toml(capsys):
    assert main(["rules", "carrom"]) == 0
    out = capsys.readouterr().out
    # the file itself, with each switch's resolved value beside it (rules.resolved())
    assert re.sub(r"  # resolves to (true|false)", "", out) == SPEC.default_rules.read_text()
    assert "# family false, icf true" in out
    data = tomllib.loads(out)
    assert data["ruleset"] == "family"
    assert set(data["rules"]) == set(SWITCHES)
    # every field of the rules is in the file: the file is complete
    defaults = to_dict(CarromRules())
    for table, values in defaults.items():
        if isinstance(values, dict):
            assert set(values) == set(data[table]), table


def test_file_defaults_equal_the_dataclass_defaults():
    assert to_dict(load_rules(SPEC)) == to_dict(CarromRules())


def test_tablesim_rules_with_set_prints_the_effective_rules(capsys):
    assert main(["rules", "carrom", "--set", "ruleset=icf", "--set", "rules.dues=false"]) == 0
    data = tomllib.loads(capsys.readouterr().out)
    assert data["ruleset"] == "icf" and data["rules"]["dues"] is False
    assert data["rules"]["cover_same_stroke"] == "auto"


def test_bad_set_on_the_command_line_exits_2_with_one_line(capsys):
    assert main(["rules", "carrom", "--set", "rules.dues=maybe"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "rules.dues" in err[0]


def test_presets_and_custom_profiles(tmp_path):
    r = rules()
    players = load_lineup(SPEC, ["beginner", "casual", "club", "champion"], r)
    sigmas = [p.profile.angle_sigma_deg for p in players]
    assert sigmas == sorted(sigmas, reverse=True)
    assert load_lineup(SPEC, ["random", "club"], r)[0].profile.policy == "random"
    custom = tmp_path / "steady.toml"
    custom.write_text('base = "club"\nangle_sigma_deg = 0.4\n')
    p = load_lineup(SPEC, [str(custom), "club"], r)[0]
    assert p.name == "steady" and p.profile.angle_sigma_deg == 0.4 and p.profile.samples == 4
    with pytest.raises(ConfigError):
        load_lineup(SPEC, ["grandmaster", "club"], r)
    with pytest.raises(ConfigError):
        load_lineup(SPEC, ["club"] * 5, r)


def test_resolved_gives_every_auto_switch_its_rulesets_value_and_rules_shows_it(capsys):
    family, icf = rules().resolved(), rules("ruleset=icf", "rules.dues=false").resolved()
    assert family == {f"rules.{name}": fam for name, (fam, _icf, _doc) in SWITCHES.items()}
    assert "rules.dues" not in icf  # set by hand: not derived
    assert icf == {f"rules.{name}": ic for name, (_fam, ic, _doc) in SWITCHES.items() if name != "dues"}
    assert main(["rules", "carrom", "--set", "ruleset=icf"]) == 0
    lines = capsys.readouterr().out.splitlines()
    dues = next(line for line in lines if line.startswith("dues ="))
    assert f"resolves to {str(SWITCHES['dues'][1]).lower()}" in dues
