"""The rules file, its validation messages, the profiles and the registered GameSpec."""

import io
import json
import re
import tomllib
from contextlib import redirect_stdout

import pytest

from sim.cli import main
from sim.core import ConfigError, get_game, load_lineup, load_profile, preset_names
from sim.core.config import field_docs, to_dict
from sim.core.rules import load_rules
from sim.curlastique import GAME
from sim.curlastique.players.policies import CurlastiqueProfile
from sim.curlastique.rules.schema import CurlastiqueRules


def problems(*overrides):
    with pytest.raises(ConfigError) as info:
        load_rules(GAME, None, list(overrides))
    return info.value.problems


def test_registered_under_its_name():
    spec = get_game("curlastique")
    assert spec is GAME and spec.title == "Curlastique" and spec.player_counts == (2, 3, 4)
    assert spec.rules_type is CurlastiqueRules and spec.profile_type is CurlastiqueProfile
    assert callable(spec.summary) and callable(spec.shot) and callable(spec.lineup_problems)


def test_the_toml_holds_every_rule_and_equals_the_dataclass_defaults():
    data = tomllib.loads(GAME.default_rules.read_text(encoding="utf-8"))
    assert to_dict(load_rules(GAME)) == to_dict(CurlastiqueRules()) == data


def test_required_keys_and_defaults():
    r = load_rules(GAME)
    assert (r.game.target_score, r.game.teams, r.zones.line_rule) == (500, False, "lower")
    assert r.game.max_rounds >= 10
    assert r.zones.values == (100, 80, 40, 20) and r.zones.radii == (0.04, 0.08, 0.13, 0.19)
    assert (r.physics.friction, r.physics.restitution) == (0.15, 0.85)
    assert (r.board.width, r.board.length, r.board.elastic_y, r.board.corner_size) == (0.5, 1.0, 0.1, 0.05)
    assert (r.zones.centre_y, r.puck.diameter, r.puck.mass, r.launch.angle_max_deg) == (0.75, 0.035, 0.008, 35.0)
    assert r.max_speed == pytest.approx(3.0)


def test_every_key_line_has_a_comment_and_reconstructed_defaults_say_so():
    text = GAME.default_rules.read_text(encoding="utf-8")
    section_comment = False
    for line in text.splitlines():
        if line.startswith("["):
            section_comment = "#" in line
        elif re.match(r"^\w+\s*=", line):
            assert "#" in line or section_comment, f"no comment: {line}"
    assert text.count("# default: not in the published rules") + text.count("default: not in the published rules") >= 20
    docs = field_docs(CurlastiqueRules)
    assert set(docs) == {f"{s}.{k}" for s, table in tomllib.loads(text).items() for k in table}


def test_tablesim_rules_prints_the_commented_file():
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["rules", "curlastique"]) == 0
    assert out.getvalue() == GAME.default_rules.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "override, message",
    [
        ("zones.values=[100, 80, 40]", "zones.values: expected 4 values (one per radius), got 3"),
        ("zones.radii=[0.04, 0.03, 0.13, 0.19]", "zones.radii: must increase outward, got [0.04, 0.03, 0.13, 0.19]"),
        ("game.target_score=0", "game.target_score: got 0; allowed: > 0 points"),
        ("zones.line_rule=middle", "zones.line_rule: got 'middle'; allowed: 'lower', 'higher', 'centre'"),
        ("zones.radii=[-0.04, 0.08, 0.13, 0.19]", "zones.radii[0]: got -0.04; allowed: > 0.0 m"),
        ("physics.friction=0", "physics.friction: got 0.0; allowed: > 0.0"),
        ("physics.restitution=1.2", "physics.restitution: got 1.2; allowed: <= 1.0"),
        ("game.max_rounds=0", "game.max_rounds: got 0; allowed: >= 1 rounds"),
        ("zones.values=[100, 80, 40, -20]", "zones.values[3]: got -20; allowed: >= 0 points"),
        ("game.teams=yes", "game.teams: expected true or false, got 'yes' (str)"),
        (
            "launch.x_max=0.21",
            "launch.x_max: got 0.21 m; allowed: <= 0.2075 m (the puck must not touch a peg at launch)",
        ),
        (
            "zones.centre_y=1.2",
            "zones.centre_y: got 1.2 m; allowed: between the elastic (0.1 m) and the far rim (1.0 m)",
        ),
        ("out.rim=1", "out.rim: expected true or false, got 1 (int)"),
        ("zones.colour=3", "zones.colour: unknown key; allowed: centre_y, line_rule, radii, values"),
        (
            "zones.radii=[0.04, 0.08, 0.13, 0.3]",
            "zones.radii: the outer ring (radius 0.3 m) does not fit on the "
            "board around the target centre; allowed: <= 0.25 m (to the nearest side rim, far rim or elastic)",
        ),
        (
            "zones.values=[0, 0, 0, 0]",
            "zones.values: got [0, 0, 0, 0]; allowed: at least one ring worth points (no puck could ever score)",
        ),
        ("game.tie_break=all", "game.tie_break: got 'all'; allowed: 'one_v_one', 'together'"),
        ("out.lost_puck=gone", "out.lost_puck: got 'gone'; allowed: 'moves_on', 'removed'"),
    ],
)
def test_bad_rules_give_one_clear_line(override, message):
    [line] = problems(override)
    assert line.startswith("--set") and line.endswith(": " + message)  # the core names the source


def test_a_ring_past_the_board_is_refused_whichever_key_moved_it():
    """#15 point 12: the default outer ring (0.19 m) no longer fits when the target centre
    moves to 0.85 m (0.15 m from the far rim) or the board narrows to 0.36 m."""
    for override in ("zones.centre_y=0.85", "board.width=0.36"):
        [line] = problems(override)
        assert override.split("=")[0] in line and "zones.radii" in line  # the core names the user's key
        assert "the outer ring (radius 0.19 m) does not fit on the board" in line
    assert load_rules(GAME, None, ["zones.centre_y=0.81"]).zones.centre_y == 0.81  # 0.19 m: fits


def test_zone_values_growing_outward_are_allowed_with_a_note():
    from sim.curlastique.rules.schema import ZoneRules

    assert ZoneRules().notes() == []
    [(key, message)] = ZoneRules(values=(20, 40, 80, 100)).notes()
    assert key == "values" and "grow outward" in message and "[20, 40, 80, 100]" in message
    assert ZoneRules(values=(100, 40, 80, 20)).notes()[0][0] == "values"  # anywhere
    assert ZoneRules(values=(100, 100, 40, 20)).notes() == []  # equal is not growth
    rules = load_rules(GAME, None, ["zones.values=[20, 40, 80, 100]"])  # a note, not a refusal
    assert rules.zones.values == (20, 40, 80, 100)


def test_every_problem_of_a_file_is_reported_with_the_file_name(tmp_path):
    user = tmp_path / "mine.toml"
    user.write_text('[zones]\nline_rule = "middle"\n[game]\ntarget_score = -5\n')
    with pytest.raises(ConfigError) as info:
        load_rules(GAME, user)
    lines = sorted(info.value.problems)
    assert len(lines) == 2 and all(line.startswith(str(user)) for line in lines)
    assert lines[0].endswith("game.target_score: got -5; allowed: > 0 points")
    assert lines[1].endswith("zones.line_rule: got 'middle'; allowed: 'lower', 'higher', 'centre'")


def test_teams_need_four_players():
    rules = load_rules(GAME, None, ["game.teams=true"])
    with pytest.raises(ConfigError) as info:
        load_lineup(GAME, ["club", "club"], rules)
    assert info.value.problems == ["players: game.teams = true needs 4 players (2 teams of 2), got 2"]
    assert len(load_lineup(GAME, ["club"] * 4, rules)) == 4


def test_presets_and_custom_profiles(tmp_path):
    assert preset_names(GAME) == ["novice", "casual", "club", "expert", "random"]
    players = load_lineup(GAME, preset_names(GAME)[:4])
    sigmas = [p.profile.angle_sigma_deg for p in players]
    budgets = [p.profile.candidates * p.profile.samples for p in players]
    assert sigmas == sorted(sigmas, reverse=True) and budgets == sorted(budgets)
    custom = tmp_path / "steady.toml"
    custom.write_text('base = "club"\nangle_sigma_deg = 0.8\nfamilies = ["draw", "takeout"]\n')
    player = load_profile(GAME, str(custom))
    assert player.name == "steady" and player.profile.angle_sigma_deg == 0.8
    assert player.profile.candidates == 24 and player.profile.families == ("draw", "takeout")
    bad = tmp_path / "bad.toml"
    bad.write_text("samples = 0\n")
    with pytest.raises(ConfigError) as info:
        load_profile(GAME, str(bad))
    [line] = info.value.problems
    assert line.startswith(str(bad)) and line.endswith("samples: got 0; allowed: >= 1 outcomes")
    bad.write_text('families = ["draw", "lob"]\n')
    with pytest.raises(ConfigError) as info:
        load_profile(GAME, str(bad))
    [line] = info.value.problems
    assert line.startswith(str(bad))
    assert line.endswith("families: unknown family 'lob'; allowed: draw, takeout, raise, double, guard")


def test_summary_metrics_and_plots_of_a_run():
    import matplotlib.figure

    from sim.core import run_cells
    from sim.core.runner import Cell

    rules = load_rules(GAME, None, ["game.target_score=150"])
    cell = Cell("baseline", "n-r", rules, load_lineup(GAME, ["novice", "random"], rules), rotate_seats=True)
    tables = run_cells(GAME, [cell], 4, 3, progress=False)
    metrics = GAME.summary(tables)
    for key in (
        "out_rate_per_throw",
        "knocked_out_per_throw",
        "mean_rounds",
        "mean_decisive_rounds",
        "unfinished_rate",
        "points_per_throw.novice",
        "points_per_throw.random",
        "win_rate.novice",
    ):
        assert isinstance(metrics[key], float), key
    assert 0.0 <= metrics["out_rate_per_throw"] <= 1.0
    assert metrics["points_per_throw.random"] < metrics["points_per_throw.novice"]
    [(title, figure)] = GAME.plots(tables)
    assert "stopped" in title and isinstance(figure, matplotlib.figure.Figure)


def test_cli_run_and_shot(tmp_path):
    out = io.StringIO()
    with redirect_stdout(out):
        assert (
            main(
                [
                    "run",
                    "curlastique",
                    "--matches",
                    "2",
                    "--players",
                    "novice,random",
                    "--set",
                    "game.target_score=100",
                    "--format",
                    "json",
                ]
            )
            == 0
        )
    assert '"matches": 2' in out.getvalue()
    out = io.StringIO()
    png = tmp_path / "s.png"
    with redirect_stdout(out):
        assert main(["shot", "curlastique", "--speed", "1.38", "--format", "json", "--plot", str(png)]) == 0
    data = json.loads(out.getvalue())
    assert data["discs"][0]["status"] == "rest" and data["points"]["by_owner"] == {"0": 100}
    assert png.stat().st_size > 0
    assert main(["shot", "curlastique", "--speed", "9"]) == 2


def test_docstring_examples_run():
    import doctest

    from sim.curlastique.rules import scoring
    from sim.curlastique.show import shot

    for module in (scoring, shot):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0


def test_the_conformance_hints_give_every_rule_key_its_scenario():
    from sim.curlastique.conformance import KEYS

    assert set(KEYS) == set(field_docs(CurlastiqueRules))


def test_every_strategy_number_is_a_profile_key_with_unit_bounds_and_meaning():
    docs = field_docs(CurlastiqueProfile)
    numbers = {
        key: meta
        for key, meta in docs.items()
        if meta["type"] not in ("str", "bool")
        and key != "policy"
        and not key.startswith(("families", "fill_order", "forbid"))
    }
    assert {
        "takeout_firm_speed",
        "takeout_soft_speed",
        "guard_distances_m",
        "draw_clearance",
        "draw_offset_m",
        "double_speed",
        "double_max_gap_m",
        "jitter_x_m",
        "fallback_speed",
    } <= set(numbers)
    for key, meta in numbers.items():
        assert meta["doc"] and meta["unit"] and meta["min"] is not None and meta["max"] is not None, key
    assert docs["policy"]["doc"] and "kind" not in docs


@pytest.mark.parametrize(
    "text, message",
    [
        ("fallback_speed = [0.9, 0.2]\n", "fallback_speed: got [0.9, 0.2]; allowed: [low, high] with low <= high"),
        ("fallback_speed = [0.3]\n", "fallback_speed: expected 2 values, got 1"),
        ('families = ["draw"]\nfill_order = ["guard"]\n', "fill_order: names none of the profile's families"),
        ('fill_order = ["draw", "lob"]\n', "fill_order: unknown family 'lob'"),
        ('kind = "planner"\n', "kind: unknown key"),
    ],
)
def test_bad_strategy_keys_give_one_clear_line(tmp_path, text, message):
    path = tmp_path / "mine.toml"
    path.write_text('base = "club"\n' + text)
    with pytest.raises(ConfigError) as info:
        load_profile(GAME, str(path))
    [line] = info.value.problems
    assert line.startswith(str(path)) and message in line
