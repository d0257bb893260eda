"""One conformance suite every registered game passes (OpenSpiel style).

Determinism by seed, identical tables whatever the workers and chunk size (through the real
`tablesim run` command), the tables' schema, the default rules round-trip through
`tablesim rules`, and bad input rejected with one line and exit status 2. A fourth game is
tested the day it is registered.
"""

import json

import pandas as pd
import pytest

from sim.cli import main
from sim.core import load_lineup, load_rules, load_tables
from sim.core.game import get_game
from sim.core.runner import Cell, run_cells
from sim.demo import SHIPPED_GAMES

REQUIRED = {
    "matches": {"variant", "lineup", "match", "seed", "rotation", "winner", "winning_team", "rounds", "finished"},
    "players": {"variant", "lineup", "match", "seat", "profile", "team", "score", "rank", "won", "slot"},
    "rounds": {"variant", "lineup", "match", "round", "seat", "points", "cumulative"},
}
# small, fast line-ups (the demo line-up's size, weakest sensible profiles)
LINEUPS = {"curlastique": "casual,novice", "carrom": "casual,casual", "gasterospeed": "greedy,random,greedy"}
MATCHES = {"curlastique": 6, "carrom": 2, "gasterospeed": 3}


@pytest.mark.parametrize("game", SHIPPED_GAMES)
def test_tables_identical_for_any_jobs_and_chunk_size(game, tmp_path, capsys):
    tables = []
    for jobs, chunk in (("1", "100"), ("2", "1")):
        out = tmp_path / f"j{jobs}"
        code = main(["run", game, "--matches", str(MATCHES[game]), "--players", LINEUPS[game], "--seed", "4",
                     "--jobs", jobs, "--chunk-size", chunk, "--out", str(out), "--format", "json"])
        assert code == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["matches"] == MATCHES[game]
        tables.append(load_tables(out))
    for name in ("matches", "players", "rounds", "events"):
        pd.testing.assert_frame_equal(tables[0][name], tables[1][name])


@pytest.mark.parametrize("game", SHIPPED_GAMES)
def test_schema_and_determinism(game):
    spec = get_game(game)
    rules = load_rules(spec)
    players = load_lineup(spec, LINEUPS[game].split(","), rules)
    cell = Cell("baseline", "l", rules, players)
    first = run_cells(spec, [cell], 2, 9, progress=False)
    again = run_cells(spec, [cell], 2, 9, progress=False)
    for name, columns in REQUIRED.items():
        assert columns <= set(first[name].columns), (name, columns - set(first[name].columns))
    assert len(first["players"]) == 2 * len(players)
    assert first["players"].groupby("match")["won"].sum().le(len(players)).all()
    for name in first:
        pd.testing.assert_frame_equal(first[name], again[name])
    other = run_cells(spec, [cell], 2, 10, progress=False)
    assert not first["events"].equals(other["events"])  # another seed, another game


@pytest.mark.parametrize("game", SHIPPED_GAMES)
def test_rules_round_trip_and_bad_input(game, tmp_path, capsys):
    assert main(["rules", game]) == 0
    text = capsys.readouterr().out
    path = tmp_path / "rules.toml"
    path.write_text(text)
    assert load_rules(get_game(game), path) == load_rules(get_game(game))
    code = main(["run", game, "--matches", "1", "--players", LINEUPS[game], "--set", "nonsense.key=1",
                 "--out", str(tmp_path / "never")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "nonsense: unknown key" in err
    assert not (tmp_path / "never").exists()
