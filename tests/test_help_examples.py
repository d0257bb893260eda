"""Every example in ``tablesim --help`` and in each command's ``--help`` works as written.

The examples are run in their order from an empty folder, as a new user would type them.
Commands that take minutes (balance, sensitivity, calibrate, demo, bench) are not played out:
their input files must exist at that point and load without error. Runs and experiments play
fewer matches (at most 8 a run, 20 an experiment; one job); everything else runs as printed.
"""

from __future__ import annotations

import argparse
import re
import shlex

import pytest

from sim.cli import build_parser, main

#: Commands whose examples are checked, not played: they take minutes.
LONG = {"balance", "sensitivity", "calibrate", "demo", "bench"}


def _epilogs(parser: argparse.ArgumentParser):
    yield parser.epilog or ""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield sub.epilog or ""


def help_examples() -> list[str]:
    """Every ``tablesim ...`` command line of the help texts, in order, each once."""
    lines = []
    for epilog in _epilogs(build_parser()):
        for line in epilog.splitlines():
            line = re.sub(r"^\s*(examples?[^:]*:)?\s*", "", line)
            for command in line.split(" && "):
                if command.startswith("tablesim ") and command not in lines:
                    lines.append(command.strip())
    return lines


def _playable(argv: list[str]) -> list[str]:
    """The command with fewer matches and one job (the same files in and out)."""
    out = list(argv)
    if "--jobs" in out:
        out[out.index("--jobs") + 1] = "1"
    if out[0] == "run":
        out[out.index("--matches") + 1] = str(min(8, int(out[out.index("--matches") + 1])))
    if out[0] == "experiment":
        out += ["--matches", "20"]  # a replay example names match 17
    return out + (["--no-progress"] if out[0] in ("run", "experiment") else [])


def _check_long(argv: list[str]) -> None:
    """A long command's input files exist and load."""
    from analysis.balance.search import load_balance
    from analysis.balance.sensitivity import load_sensitivity

    files = [arg for arg in argv[1:] if arg.endswith((".toml", ".csv"))]
    for path in files:
        with open(path, encoding="utf-8") as handle:
            assert handle.read(), path
    if argv[0] == "balance":
        load_balance(files[0])
    if argv[0] == "sensitivity":
        load_sensitivity(files[0])


def test_the_help_texts_have_examples_of_every_command():
    commands = {shlex.split(line)[1] for line in help_examples()}
    assert {"games", "rules", "profiles", "run", "experiment", "report", "export", "replay", "shot",
            "examples", "balance", "sensitivity", "calibrate", "new-game"} <= commands, commands


@pytest.mark.slow
def test_every_help_example_works_as_written_from_an_empty_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for line in help_examples():
        words = shlex.split(line)[1:]
        redirect = words.index(">") if ">" in words else None
        argv, target = (words[:redirect], words[redirect + 1]) if redirect is not None else (words, None)
        if argv[0] in LONG:
            _check_long(argv)
            continue
        code = main(_playable(argv))
        out, err = capsys.readouterr()
        assert code == 0, f"{line}: exit {code}: {err[-500:]}"
        if target:
            (tmp_path / target).write_text(out, encoding="utf-8")
