"""`tablesim profiles GAME`, empty profile files refused, `tablesim examples [--copy DIR]`,
`tablesim demo` from every game's examples, and `tablesim rules GAME --set ...` keeping the
file's comments."""

import json
import tomllib

import pytest

from sim.cli import main
from sim.cli.demo import run_demo
from sim.cli.examples import demo_file, example_files
from sim.core.config import commented_toml, field_docs
from sim.core.game import get_game
from sim.core.rules import default_rules_text, load_rules


def test_profiles_lists_every_key_with_unit_bounds_meaning_and_every_preset(capsys):
    assert main(["profiles", "pig", "--preset", "bold"]) == 0
    out = capsys.readouterr().out
    assert 'base = "bold"' in out and "hold_at = 30.0" in out
    assert "hold_at = 30.0" in out and "# points; 1 to 200; default 20.0: hold once the turn total reaches this" in out
    assert "cautious  standard  bold  random" in out
    data = tomllib.loads(out)  # the printed profile is a valid profile file
    assert data["base"] == "bold"
    assert main(["profiles", "pig", "--format", "json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert set(listed["keys"]) == set(field_docs(get_game("pig").profile_type))
    assert listed["presets"]["cautious"]["hold_at"] == 10.0
    assert main(["profiles", "pig", "--preset", "wizard"]) == 2
    assert "--preset 'wizard': unknown preset; allowed: cautious, standard, bold, random" in capsys.readouterr().err


def test_the_printed_profile_runs_as_written(tmp_path, capsys):
    assert main(["profiles", "pig", "--preset", "cautious"]) == 0
    path = tmp_path / "mine.toml"
    path.write_text(capsys.readouterr().out)
    assert main(["run", "pig", "--matches", "4", "--players", f"{path},bold", "--format", "json"]) == 0
    assert "my-player" in {r["profile"] for r in json.loads(capsys.readouterr().out)["win_rate_by_profile"]}


def test_an_empty_profile_file_is_refused_and_one_without_base_says_so(tmp_path, capsys):
    empty = tmp_path / "empty.toml"
    empty.write_text("# nothing yet\n")
    assert main(["run", "pig", "--matches", "2", "--players", f"{empty},bold"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{empty}: an empty profile (no base and no key)" in err[0]
    assert 'base = "NAME" (one of: cautious, standard, bold, random)' in err[0]
    named = tmp_path / "named.toml"
    named.write_text('name = "x"\n')  # a name alone sets nothing either
    assert main(["run", "pig", "--matches", "2", "--players", f"{named},bold"]) == 2
    bare = tmp_path / "bare.toml"
    bare.write_text("hold_at = 15.0\n")
    assert main(["run", "pig", "--matches", "2", "--players", f"{bare},bold"]) == 0
    assert f"tablesim: note: {bare}: base: none given" in capsys.readouterr().err


def test_examples_lists_and_copies_every_installed_games_files(tmp_path, capsys):
    assert main(["examples"]) == 0
    out = capsys.readouterr().out
    pig = example_files(get_game("pig"))
    assert {p.name for p in pig} == {"pig_demo.toml", "pig_steady.toml"}
    assert "pig_demo.toml" in out and "The Pig demo experiment" in out
    target = tmp_path / "ex"
    assert main(["examples", "--copy", str(target)]) == 0
    assert (target / "pig_demo.toml").read_text() == (pig[0].parent / "pig_demo.toml").read_text()
    assert main(["examples", "--copy", str(target)]) == 0  # the same files again: fine
    (target / "pig_demo.toml").write_text("# mine\n")
    capsys.readouterr()
    assert main(["examples", "--copy", str(target)]) == 2
    err = capsys.readouterr().err
    assert "pig_demo.toml exists and differs; nothing copied" in err
    assert (target / "pig_demo.toml").read_text() == "# mine\n"


def test_copied_examples_run_as_written(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["examples", "--copy", "examples"]) == 0
    assert main(["experiment", "examples/pig_demo.toml", "--matches", "10", "--out", "res"]) == 0
    assert main(["run", "pig", "--matches", "4", "--players", "examples/pig_steady.toml,bold"]) == 0


def test_demo_plays_the_demo_example_of_every_installed_game(tmp_path, capsys):
    assert demo_file(get_game("pig")).name == "pig_demo.toml"
    assert run_demo(tmp_path / "demo", jobs=1, games=("pig",)) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "demo" / "pig" / "report.html").is_file()
    assert "Variant eight-sided" in out
    # the game's header heads its sentences on stdout (a saved output keeps them together)
    assert out.startswith("== Pig: pig_demo.toml (") and out.index("== Pig") < out.index("Variant eight-sided")


def test_no_game_is_named_in_the_cli_package():
    from pathlib import Path

    import sim.cli

    names = ("curlastique", "carrom", "gasterospeed")
    for path in Path(sim.cli.__file__).parent.glob("*.py"):
        code = "\n".join(
            line
            for line in path.read_text().splitlines()
            if "example" not in line.lower() and not line.strip().startswith("#")
        )
        assert not any(f'"{n}"' in code or f"'{n}'" in code for n in names), path


# point 9 -------------------------------------------------------------------------------------


def _every_game():
    from sim.core.game import game_names

    return game_names()


@pytest.mark.parametrize("game", _every_game())
def test_rules_with_set_keep_every_comment_and_read_back(game, capsys):
    spec = get_game(game)
    default = load_rules(spec)
    text = default_rules_text(spec)
    docs = field_docs(spec.rules_type)
    key = next(
        k
        for k, d in docs.items()
        if d["type"] == "an integer" and d.get("min") is not None and (d.get("max") is None or d["max"] > d["min"])
    )
    from sim.core.config import flatten, to_dict

    value = flatten(to_dict(default))[key]
    new = value + 1 if docs[key].get("max") is None or value + 1 <= docs[key]["max"] else value - 1
    try:
        rules = load_rules(spec, None, [f"{key}={new}"])
    except Exception:  # a cross-field check refuses it: the comment-keeping needs any legal change
        pytest.skip(f"{game}: {key}={new} is not a legal change")
    resolved = rules.resolved() if callable(getattr(rules, "resolved", None)) else {}  # Carrom's "auto" keys
    out = commented_toml(text, rules, default, resolved)
    comments = [line.split("#", 1)[1].strip() for line in text.splitlines() if "#" in line]
    kept = out.count("#")
    assert kept >= len(comments) and not out.startswith("# (the comments")
    assert f"changed; default {value}" in out
    assert load_rules(spec, None, [f"{key}={new}"]) == rules
    assert main(["rules", game, "--set", f"{key}={new}"]) == 0
    printed = capsys.readouterr().out
    assert printed == out and tomllib.loads(printed)


def test_carrom_ruleset_override_keeps_its_comments(capsys):
    text = default_rules_text(get_game("carrom"))
    assert main(["rules", "carrom", "--set", 'ruleset="icf"']) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == text.count("\n") and out.count("#") >= text.count("#")
    assert 'ruleset = "icf"' in out and 'changed; default "family"' in out
    assert 'dues = "auto"' in out  # kept as written; `resolves to ...` once Carrom has resolved()


def test_resolved_values_are_shown_beside_auto():
    from dataclasses import dataclass

    from sim.core.config import load_config, param

    @dataclass(frozen=True)
    class Switches:
        dues: str = param("auto", doc="auto = the ruleset's value")
        ruleset: str = param("family", doc="family or icf")

        def resolved(self):
            return {"dues": self.dues if self.dues != "auto" else self.ruleset == "icf"}

    text = (
        '# the switches\nruleset = "family"   # family or icf\ndues = "auto"        # "auto" = the ruleset\'s value\n'
    )
    default = load_config(Switches, tomllib.loads(text))
    icf = load_config(Switches, tomllib.loads(text), overrides=["ruleset=icf"])
    out = commented_toml(text, icf, default, icf.resolved())
    assert 'ruleset = "icf"      # changed; default "family"; family or icf' in out
    assert 'dues = "auto"        # resolves to true; "auto" = the ruleset\'s value' in out
    assert out.startswith("# the switches\n")
