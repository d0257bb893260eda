"""A results directory that lacks planned matches is reported as such, never as complete.

A truncated part is set aside under DIR/damaged/ by the reader; the report, the export and the
summary sentences then say which cells hold how many of their planned matches and the command
that replays them; ``report`` and ``export`` exit with status 3 (0 with --allow-incomplete).
Rerunning the recorded command plays exactly the missing matches, after which the report is
the undamaged one again.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pandas as pd
import pytest

from analysis.results import load_results
from sim.cli.common import EXIT_INCOMPLETE
from sim.core import load_tables
from sim.core.completeness import (
    Completeness,
    MatchRange,
    assess,
    missing_ranges,
    planned_matches,
    stored_ranges_of,
)
from sim.core.game import TABLES
from sim.core.store import cell_key, part_name

from .reliability import error_lines, parts, run_cli

EXPERIMENT = """
game = "toy-dice"
matches = 24
seed = 7
chunk_size = 4
[[variants]]
name = "seat0-bonus"
set = { "game.seat0_bonus" = 2.0 }
[[lineups]]
name = "plain-vs-lucky"
players = ["plain", "lucky"]
"""


def run_argv(out: Path) -> list:
    return [
        "run",
        "toy-dice",
        "--matches",
        40,
        "--players",
        "plain,lucky",
        "--seed",
        3,
        "--chunk-size",
        10,
        "--out",
        out,
        "--no-progress",
    ]


def experiment_argv(tmp_path: Path, out: Path) -> list:
    path = tmp_path / "exp.toml"
    path.write_text(EXPERIMENT, encoding="utf-8")
    return ["experiment", path, "--out", out, "--no-progress"]


def truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def markdown_report(capsys, out: Path, md: Path, *extra) -> tuple[int, str, str]:
    """``tablesim report OUT --markdown MD``: (exit status, stderr, the Markdown without its date line)."""
    code, _, err = run_cli(capsys, "report", out, "--out", md.with_suffix(".html"), "--markdown", md, *extra)
    text = md.read_text(encoding="utf-8")
    return code, err, re.sub(r"^Generated .* by tablesim\.$", "", text, count=1, flags=re.M)


def incomplete_line(verb: str, out: Path, cells: str, *, allowed: bool = False) -> str:
    command = json.loads((out / "manifest.json").read_text())["command"]
    what = "report" if verb == "report" else "export"
    line = (
        f"tablesim {verb}: {'note: ' if allowed else ''}{out} is incomplete: {cells}; the {what} is labelled "
        f"incomplete; replay the missing matches with: {command}"
    )
    return line if allowed else line + " (or pass --allow-incomplete)"


def assert_no_duplicates(out: Path) -> None:
    tables = load_tables(out)
    for table in ("matches", "players", "rounds"):
        keys = [c for c in ("variant", "lineup", "match", "seat", "round") if c in tables[table]]
        assert not tables[table].duplicated(keys).any(), table


# the end-to-end cycle: undamaged, damaged, replayed --------------------------------------------


@pytest.mark.parametrize("kind", ["run", "experiment"])
def test_a_truncated_part_is_reported_incomplete_and_the_recorded_command_restores_the_report(capsys, tmp_path, kind):
    out = tmp_path / "out"
    argv = run_argv(out) if kind == "run" else experiment_argv(tmp_path, out)
    assert run_cli(capsys, *argv)[0] == 0
    whole = load_tables(out)
    code, err, before = markdown_report(capsys, out, tmp_path / "before" / "report.md")
    assert code == 0 and " is incomplete" not in err and "incomplete" not in before.lower()

    victim = parts(out)[-2] if kind == "run" else [p for p in parts(out) if "_000000000008-" in p.name][0]
    truncate(victim)
    code, err, damaged = markdown_report(capsys, out, tmp_path / "damaged" / "report.md")
    assert code == EXIT_INCOMPLETE
    if kind == "run":
        cell, missing, planned, stored = "baseline / plain,lucky", "20–29", 40, 30
    else:
        cell = [
            c
            for c in ("baseline / plain-vs-lucky", "seat0-bonus / plain-vs-lucky")
            if victim.name.startswith(cell_key(*c.split(" / ")))
        ][0]
        missing, planned, stored = "8–11", 24, 20
    shortfall = f"{cell} holds {stored} of {planned} matches ({missing} missing)"
    assert error_lines(err)[-1] == incomplete_line("report", out, shortfall)
    assert (out / "damaged" / "matches" / victim.name).exists()
    # labelled: the title, a banner at the top, the first summary sentence, the status bullet
    html = (tmp_path / "damaged" / "report.html").read_text(encoding="utf-8")
    assert "design report (incomplete)</title>" in html
    assert html.index('class="incomplete"') < html.index('id="summary"')
    assert "> **Warning:** These results are incomplete: " + shortfall in damaged
    overview = damaged[damaged.index("### Overview") :]
    assert overview.split("\n- ", 1)[1].startswith("These results are incomplete: " + shortfall)
    assert f"of {planned * (1 if kind == 'run' else 2)} planned matches stored" in damaged
    assert damaged != before  # the figures come from the matches that are left

    code, stdout, err = run_cli(capsys, *argv)  # the recorded command, rerun
    assert code == 0, err
    total = planned * (1 if kind == "run" else 2)
    assert (
        f"tablesim {kind}: resumed: {total - 10 if kind == 'run' else total - 4} of {total} matches already "
        f"stored in {out}" in err
    )  # only the set-aside chunk is played again
    tables = load_tables(out)
    for table in ("matches", "players", "rounds", "events"):
        pd.testing.assert_frame_equal(tables[table], whole[table])
    assert_no_duplicates(out)
    assert victim.exists() and (out / "damaged" / "matches" / victim.name).exists()
    code, err, after = markdown_report(capsys, out, tmp_path / "after" / "report.md")
    assert code == 0 and " is incomplete" not in err
    assert after == before


def test_the_recorded_command_in_the_line_is_the_one_that_made_the_run(capsys, tmp_path):
    out = tmp_path / "out"
    argv = run_argv(out)
    assert run_cli(capsys, *argv)[0] == 0
    truncate(parts(out)[0])
    code, _, err = run_cli(capsys, "report", out)
    assert code == 3
    command = (
        error_lines(err)[-1]
        .split("replay the missing matches with: ", 1)[1]
        .removesuffix(" (or pass --allow-incomplete)")
    )
    assert shlex.split(command) == ["tablesim", *map(str, argv)]


# export ---------------------------------------------------------------------------------------


def test_export_of_an_incomplete_directory_is_labelled_and_exits_3(capsys, tmp_path):
    out = tmp_path / "out"
    assert run_cli(capsys, *run_argv(out))[0] == 0
    truncate(parts(out)[1])
    folder = tmp_path / "csv"
    code, stdout, err = run_cli(capsys, "export", out, "--out", folder)
    assert code == 3
    shortfall = "baseline / plain,lucky holds 30 of 40 matches (10–19 missing)"
    assert error_lines(err)[-1] == incomplete_line("export", out, shortfall)
    assert f"wrote {folder / 'summary.csv'}" in stdout  # written all the same
    summary = pd.read_csv(folder / "summary.csv")
    first = summary.iloc[0]
    assert (first["figure"], first["variant"], first["lineup"], first["value"]) == (
        "results incomplete",
        "baseline",
        "plain,lucky",
        30,
    )
    assert first["subject"] == "matches 10–19 missing" and first["unit"] == "matches stored of 40 planned"
    assert first["method"].startswith("replay the missing matches with: tablesim run toy-dice")
    assert (summary["figure"] == "results incomplete").sum() == 1
    sentences = pd.read_csv(folder / "sentences.csv")
    assert sentences.iloc[0]["sentence"].startswith(f"These results are incomplete: {shortfall}.")
    assert len(pd.read_csv(folder / "matches.csv")) == 30


def test_export_with_allow_incomplete_exits_0_and_still_labels(capsys, tmp_path):
    out = tmp_path / "out"
    assert run_cli(capsys, *run_argv(out))[0] == 0
    truncate(parts(out)[1])
    book = tmp_path / "x.xlsx"
    code, _, err = run_cli(capsys, "export", out, "--format", "xlsx", "--out", book, "--allow-incomplete")
    assert code == 0
    shortfall = "baseline / plain,lucky holds 30 of 40 matches (10–19 missing)"
    assert error_lines(err)[-1] == incomplete_line("export", out, shortfall, allowed=True)
    summary = pd.read_excel(book, sheet_name="summary")
    assert summary.iloc[0]["figure"] == "results incomplete"


def test_export_of_a_complete_directory_has_no_incomplete_row(capsys, tmp_path):
    out = tmp_path / "out"
    assert run_cli(capsys, *run_argv(out))[0] == 0
    code, _, err = run_cli(capsys, "export", out, "--out", tmp_path / "csv")
    assert code == 0 and "incomplete" not in err
    assert "results incomplete" not in set(pd.read_csv(tmp_path / "csv" / "summary.csv")["figure"])


# report flags and other stores ----------------------------------------------------------------


def test_report_with_allow_incomplete_exits_0_and_is_still_labelled(capsys, tmp_path):
    out = tmp_path / "out"
    assert run_cli(capsys, *run_argv(out))[0] == 0
    truncate(parts(out)[3])
    code, err, text = markdown_report(capsys, out, tmp_path / "r.md", "--allow-incomplete")
    assert code == 0
    shortfall = "baseline / plain,lucky holds 30 of 40 matches (30–39 missing)"
    assert error_lines(err)[-1] == incomplete_line("report", out, shortfall, allowed=True)
    assert "> **Warning:** These results are incomplete" in text
    assert "status: incomplete: 30 of 40 planned matches stored (the manifest's status: complete)" in text


def test_an_interrupted_run_with_a_chunk_never_written_is_incomplete(capsys, tmp_path):
    out = tmp_path / "out"
    assert run_cli(capsys, *run_argv(out))[0] == 0
    dropped = parts(out)[1].name
    for table in TABLES:  # as if the run had been stopped before this chunk was written
        (out / table / dropped).unlink()
    manifest = json.loads((out / "manifest.json").read_text())
    (out / "manifest.json").write_text(json.dumps({**manifest, "status": "interrupted"}))
    code, err, text = markdown_report(capsys, out, tmp_path / "r.md")
    assert code == 3
    shortfall = "baseline / plain,lucky holds 30 of 40 matches (10–19 missing)"
    assert error_lines(err) == [incomplete_line("report", out, shortfall)]  # nothing set aside, one line
    assert "status: incomplete: 30 of 40 planned matches stored (the manifest's status: interrupted)" in text
    assert "set aside" not in text
    assert run_cli(capsys, *run_argv(out))[0] == 0  # resumed: the chunk is played
    assert len(load_tables(out)["matches"]) == 40
    assert_no_duplicates(out)
    assert run_cli(capsys, "report", out)[0] == 0


def test_damaged_parts_whose_matches_were_replayed_leave_the_store_complete(capsys, tmp_path):
    out = tmp_path / "out"
    assert run_cli(capsys, *run_argv(out))[0] == 0
    victim = parts(out)[2]
    truncate(victim)
    assert run_cli(capsys, *run_argv(out))[0] == 0  # finds the damage, sets it aside, replays it
    assert (out / "damaged" / "matches" / victim.name).exists() and victim.exists()
    results = load_results(out)
    assert results.completeness.complete and results.completeness.set_aside == 0
    assert results.completeness.stored == 40 and results.completeness.sentence() == ""
    code, err, text = markdown_report(capsys, out, tmp_path / "r.md")
    assert code == 0 and "incomplete" not in err and "incomplete" not in text.lower()
    assert "status: complete" in text


def test_a_report_of_a_complete_run_has_no_banner(capsys, tmp_path):
    out = tmp_path / "out"
    assert run_cli(capsys, *run_argv(out))[0] == 0
    code, _, err = run_cli(capsys, "report", out)
    assert code == 0 and err.strip() == ""
    html = (out / "report.html").read_text(encoding="utf-8")
    assert 'class="incomplete"' not in html and "(incomplete)" not in html


def test_report_help_names_the_flag_and_the_exit_status(capsys):
    for verb in ("report", "export"):
        code, stdout, _ = run_cli(capsys, verb, "--help")
        assert code == 0
        assert "--allow-incomplete" in stdout and "3 written from a results directory that lacks planned" in stdout


# the record ----------------------------------------------------------------------------------


def test_missing_ranges_are_what_the_stored_ranges_leave_of_the_plan():
    r = MatchRange
    assert missing_ranges([r(0, 149), r(175, 199)], 200) == (r(150, 174),)
    assert missing_ranges([], 3) == (r(0, 2),)
    assert missing_ranges([r(0, 9)], 5) == ()
    assert missing_ranges([r(2, 3), r(8, 20)], 10) == (r(0, 1), r(4, 7))
    assert str(r(150, 174)) == "150–174" and str(r(7, 7)) == "7"


def test_stored_ranges_come_from_the_match_indices_present():
    matches = pd.DataFrame({"variant": ["b"] * 5 + ["v"] * 2, "lineup": "x", "match": [0, 1, 2, 5, 6, 0, 1]})
    assert stored_ranges_of(matches) == {
        ("b", "x"): [MatchRange(0, 2), MatchRange(5, 6)],
        ("v", "x"): [MatchRange(0, 1)],
    }


@pytest.mark.parametrize(
    "manifest, longest, planned",
    [
        ({"kind": "run", "matches": 40, "status": "interrupted"}, 20, 40),
        ({"kind": "run", "matches": 40, "status": "complete"}, 80, 40),  # an earlier, longer run's leftovers
        ({"kind": "experiment", "matches": 200, "matches_played": 400, "status": "complete"}, 400, 400),
        ({"kind": "experiment", "matches": 200, "status": "running"}, 150, 200),  # the floor
        ({"kind": "experiment", "matches": 200, "status": "interrupted"}, 300, 300),  # played on towards a target
        ({"kind": "run", "status": "complete"}, 12, 12),  # no plan recorded: what the longest cell holds
    ],
)
def test_planned_matches_per_cell(manifest, longest, planned):
    assert planned_matches(manifest, longest) == planned


def test_assess_names_every_short_cell_and_counts_what_is_stored():
    r = MatchRange
    cells = [{"variant": v, "lineup": x} for v in ("baseline", "big") for x in ("a", "b")]
    manifest = {
        "kind": "experiment",
        "matches": 10,
        "matches_played": 10,
        "status": "complete",
        "cells": cells,
        "command": "tablesim experiment e.toml",
    }
    stored = {("baseline", "a"): [r(0, 9)], ("baseline", "b"): [r(0, 3), r(6, 9)], ("big", "a"): [r(0, 4)]}
    damaged = [part_name("baseline", "b", 4, 5), part_name("baseline", "a", 0, 4) + ".1", "old~name.parquet"]
    result = assess(manifest, stored, damaged)
    assert not result.complete and result.planned_total == 40 and result.stored == 23
    assert result.set_aside == 1  # the part of baseline / a was replayed since
    assert [s.text() for s in result.shortfalls] == [
        "baseline / b holds 8 of 10 matches (4–5 missing)",
        "big / a holds 5 of 10 matches (5–9 missing)",
        "big / b holds 0 of 10 matches (0–9 missing)",
    ]
    assert result.sentence().startswith("These results are incomplete: baseline / b holds 8 of 10 matches")
    assert "1 damaged part was set aside under damaged/." in result.sentence()
    assert result.sentence().endswith(
        "replay the missing matches with: tablesim experiment e.toml (it resumes and plays only the missing matches)."
    )
    assert Completeness().complete and Completeness().sentence() == ""


def test_many_short_cells_are_counted_after_the_first_few():
    cells = [{"variant": "baseline", "lineup": f"l{i}"} for i in range(5)]
    result = assess({"kind": "run", "matches": 4, "cells": cells}, {})
    assert result.cells_text().endswith("; and 2 more cells short of matches")
    assert result.replay_text() == "replay the missing matches by rerunning the command that made these results"


def test_the_replay_command_writes_into_the_directory_reported():
    from sim.core.completeness import replay_command

    assert (
        replay_command({"command": "tablesim run toy-dice --matches 4 --out r1"}, "elsewhere/r1")
        == "tablesim run toy-dice --matches 4 --out r1"
    )  # as recorded: it names its folder
    assert (
        replay_command({"command": "tablesim experiment my exp.toml"}, "results/my exp")
        == "tablesim experiment my exp.toml --out 'results/my exp'"
    )
    assert (
        replay_command(
            {"command": "tablesim demo (curlastique_demo.toml)", "experiment_file": "/x/curlastique_demo.toml"},
            "reports/demo/curlastique",
        )
        == "tablesim experiment /x/curlastique_demo.toml --out reports/demo/curlastique"
    )
    assert replay_command({"command": "tablesim"}, "d") == replay_command({}, "d") == ""
