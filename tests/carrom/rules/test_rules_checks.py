"""Rules that make the game meaningless are refused at load time, and the rules file says where
each key comes from."""

import re
import tomllib
from pathlib import Path

import pytest

from sim.carrom.rules.schema import SWITCHES
from sim.cli import main
from sim.core import ConfigError, load_rules

from ..helpers import SPEC

CARROM = Path(SPEC.default_rules).parent


@pytest.mark.parametrize(
    "overrides, key, words",
    [
        (["board.pocket_diameter=2.0"], "board.pocket_diameter", "overlap"),  # wider than the board
        (["board.pocket_diameter=0.2"], "board.pocket_diameter", "striker's places"),
        (["board.pocket_capture=0.5", "board.pocket_diameter=0.3"], "board.pocket_diameter", "striker's places"),
        (["striker.max_speed=0.3"], "striker.max_speed", "stops before the coins"),
        (["physics.friction=40"], "physics.friction", "stops before the coins"),  # the key the user set
        (["board.outer_circle_diameter=0.6"], "board.outer_circle_diameter", "base lines"),
    ],
)
def test_meaningless_rules_are_one_line_naming_the_key(overrides, key, words):
    with pytest.raises(ConfigError) as exc:
        load_rules(SPEC, None, overrides)
    assert len(exc.value.problems) == 1, exc.value.problems
    line = exc.value.problems[0]
    assert line.startswith("--set") and key in line and words in line


def test_the_widest_pocket_allowed_is_playable_and_one_more_millimetre_is_not():
    with pytest.raises(ConfigError) as exc:
        load_rules(SPEC, None, ["board.pocket_diameter=0.3"])
    bound = float(re.search(r"allowed: < ([0-9.]+) m", exc.value.problems[0]).group(1))
    assert 0.0445 < bound < 0.3
    load_rules(SPEC, None, [f"board.pocket_diameter={bound - 0.001}"])
    with pytest.raises(ConfigError):
        load_rules(SPEC, None, [f"board.pocket_diameter={bound + 0.001}"])


def test_run_with_a_pocket_wider_than_the_board_exits_2_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "results"
    code = main(
        [
            "run",
            "carrom",
            "--matches",
            "2",
            "--players",
            "club,club",
            "--jobs",
            "1",
            "--set",
            "board.pocket_diameter=2.0",
            "--out",
            str(out),
        ]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "board.pocket_diameter" in err[0]
    assert not out.exists()


# ------------------------------------------------------------------ the rules file's text
TEXT = SPEC.default_rules.read_text()


def test_the_rules_file_has_the_departures_section_and_tablesim_rules_prints_it(capsys):
    lines = TEXT.splitlines()
    k = lines.index("# Departures from the published rules")
    items = [line for line in lines[k + 1 :] if line.startswith("#   - ")]
    assert len(items) >= 10
    for key in (
        "formation.outer_ring",
        "last_coin.before_queen",
        "rules.due_keeps_turn_with_own",
        "game.max_strokes_per_board",
    ):
        assert key in TEXT.split("# Departures from the published rules")[1].split("\nruleset")[0]
    assert main(["rules", "carrom"]) == 0
    assert "# Departures from the published rules" in capsys.readouterr().out


def test_every_key_has_a_provenance():
    lines = TEXT.splitlines()
    header = ""
    for i, line in enumerate(lines):
        if line.startswith("["):
            header = line
            continue
        m = re.match(r"^(\w+)\s*=", line)
        if not m:
            continue
        block = [line.partition("#")[2]]
        for nxt in lines[i + 1 :]:
            if not nxt.strip().startswith("#"):
                break
            block.append(nxt)
        text = " ".join(block)
        assert "seed: «" in text or "default:" in text or "default:" in header, m.group(1)


def test_each_switch_comment_states_its_family_and_icf_values():
    for name, (family, icf, _) in SWITCHES.items():
        m = re.search(rf"^{name} = \"auto\"\n\s+# family (\w+), icf (\w+)\.", TEXT, re.M)
        assert m, name
        assert (m.group(1), m.group(2)) == (str(family).lower(), str(icf).lower()), name
    assert set(tomllib.loads(TEXT)["rules"]) == set(SWITCHES)


@pytest.mark.parametrize("path", sorted(CARROM.glob("*.py")) + [SPEC.default_rules], ids=lambda p: p.name)
def test_no_citation_of_files_users_do_not_have(path):
    text = path.read_text()
    assert not re.search(r"seeds/|games/\w+\.md|carrom_rules_fr", text), path.name
