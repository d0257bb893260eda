"""Every example of `tablesim --help` (and of each command's help) and every command of the
README runs as written, in their order, from an empty folder (each example names its own
prerequisites, such as `tablesim examples --copy examples`).

Each runs in this process through `sim.cli.main` (the `tablesim` entry point, same folder,
`> FILE` written as the shell would): no interpreter start or import per command. Fast commands
run fully; long ones with a reduced size, which is the only change made to them: `--jobs` is 1
(the tables are the same for any --jobs: tests/test_conformance.py), `run`, `worth`, `matrix` play at
most 4 matches (per line-up), `experiment` gets `--matches 4` (and `replay --match N` a match it stored), `balance`
and `sensitivity` read a copy of their file (same name) with one line-up, 4 matches, 2 trials /
trajectories / samples and the game's quick overrides (its conformance hints) in the baseline,
`exploit` tries 2 profiles on 4 matches and validates one on 4, `calibrate` simulates 4 design
points of 2 matches, `bench` measures only the physics for 0.1 s a
case. A command fails the test if it exits with a status other than 0 or names a file that does
not exist; an example whose input is the user's own data (a score sheet that is not shipped)
must stop on that file alone.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import sys
import time
import tomllib
from pathlib import Path

import pytest
import tomli_w

from sim.cli import build_parser, main
from sim.core import get_game

ROOT = Path(__file__).resolve().parents[2]


def help_examples() -> list[str]:
    """Every `tablesim ...` example line of the main help and of each command's help."""
    parser = build_parser()
    texts = [parser.epilog or ""]
    for action in parser._subparsers._group_actions:  # argparse keeps them here
        texts += [sub.epilog or "" for sub in action.choices.values()]
    commands = []
    for text in texts:
        for line in text.splitlines():
            found = re.search(r"(tablesim .*)$", line.strip())
            if found and not found[1].startswith("tablesim examples` "):
                commands += [part.strip() for part in found[1].split("&&")]
    return list(dict.fromkeys(c for c in commands if c.startswith("tablesim ")))


def readme_commands() -> list[str]:
    """The README's `.venv/bin/tablesim ...` lines (continuations joined), in document order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip()
            if line.startswith(".venv/bin/tablesim "):
                commands.append(line.removeprefix(".venv/bin/"))
    return commands


#: The size keys of a balance or sensitivity file, each with the value the test plays at most.
SMALL_SEARCH = {
    "trials": 2,
    "validate_matches": 4,
    "validate_top": 1,
    "blocks": 2,
    "bootstrap": 50,
    "first_rung": 2,
    "startup_trials": 1,
}


def _quick_baseline(data: dict) -> None:
    """Add the game's quick overrides (its conformance hints: short matches, e.g. a low target
    score) to the file's baseline, except on the keys the file searches or screens."""
    hints = get_game(data["game"]).conformance
    searched = {str(p.get("key", "")).split("[")[0] for p in data.get("parameters", [])}
    searched |= {k for p in data.get("parameters", []) for k in p.get("keys", [])}
    quick = {}
    for override in hints.quick if hints else ():
        key, value = override.split("=", 1)
        if key not in searched:
            quick[key] = tomllib.loads(f"v = {value}")["v"]
    baseline = data.setdefault("baseline", {})
    baseline["set"] = {**baseline.get("set", {}), **quick}


def _reduced_file(path: Path, folder: Path) -> Path:
    """A copy of a balance/sensitivity file (same name) with small sizes: one line-up, few
    matches, trials, trajectories and samples; its parameters, targets and outputs as written."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data["matches"] = min(int(data.get("matches", 4)), 4)
    data["chunk_size"] = 2
    if not any(t.get("metric") == "game" for t in data.get("targets", [])):
        # a game's own metric may need the file's match format (e.g. enough races per card)
        _quick_baseline(data)
    if data.get("lineups"):
        data["lineups"] = data["lineups"][:1]
    search = data.get("search", {})
    for key, value in SMALL_SEARCH.items():
        if key in search or (key == "blocks" and "search" in data):
            search[key] = min(search.get(key, value), value)
    if "morris" in data:
        data["morris"]["trajectories"] = 2
    if "sobol" in data:
        data["sobol"]["samples"] = 2
        data["sobol"]["top"] = min(data["sobol"].get("top", 2), 2)
    folder.mkdir(exist_ok=True)
    target = folder / path.name
    target.write_text(tomli_w.dumps(data), encoding="utf-8")
    return target


#: Matches an example plays at most (physics matches cost ~0.1–1 s each on one core).
SMALL_MATCHES = 4


def reduced(command: str, cwd: Path) -> tuple[list[str], str | None]:
    """The command's words with its size reduced (see the module docstring), and the file its
    stdout is redirected to (``> FILE``) or None; the rest as written."""
    text = re.sub(r"\[(--[^\]]*)\]", r"\1", command)  # `[--format json]`: the optional part, given
    redirect = None
    if " > " in text:
        text, redirect = text.split(" > ", 1)
        redirect = redirect.split("#", 1)[0].strip()
    words = shlex.split(text, comments=True)
    verb = words[1] if len(words) > 1 else ""
    if "--jobs" in words:  # the same tables for any --jobs (tests/test_conformance.py); no pool start
        words[words.index("--jobs") + 1] = "1"
    if verb in ("run", "worth", "matrix") and "--matches" in words:
        at = words.index("--matches") + 1
        words[at] = str(min(int(words[at]), SMALL_MATCHES))
    elif verb == "experiment" and "--matches" not in words:
        words += ["--matches", str(SMALL_MATCHES)]
    elif verb == "replay" and "--match" in words:  # a match the small experiment stored
        at = words.index("--match") + 1
        words[at] = str(min(int(words[at]), SMALL_MATCHES - 1))
    elif verb in ("balance", "sensitivity"):
        source = cwd / words[2]
        assert source.is_file(), f"{command}: {words[2]} does not exist"
        words[2] = str(_reduced_file(source, cwd / "reduced").relative_to(cwd))
    elif verb == "exploit":  # the last of a repeated option wins
        words += [
            "--trials",
            "2",
            "--matches",
            "4",
            "--first-rung",
            "2",
            "--validate-top",
            "1",
            "--validate-matches",
            "4",
        ]
    elif verb == "calibrate":
        words += ["--points", "4", "--matches", "2"]
    elif verb == "bench":
        words = ["tablesim", "bench", "--only", "physics", "--seconds", "0.1"] + (
            ["--format", "json"] if "json" in words else []
        )
    return words, redirect


#: Examples whose input is the user's own data, not an example file: the command is parsed and
#: started, and it must stop on that file alone (one line naming it, status 2).
USER_DATA = {"calibrate": 3}  # the word that names the file: `tablesim calibrate GAME SHEET`


def _run(command: str, cwd: Path, monkeypatch) -> float:
    """Run the reduced command in this process (as `tablesim` would: same `main`, same folder,
    stdout redirected as written); fail on a status other than 0. Returns its seconds."""
    words, redirect = reduced(command, cwd)
    monkeypatch.chdir(cwd)
    out, err = io.StringIO(), io.StringIO()
    started, cpu = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(words[1:])
    if redirect:
        (cwd / redirect).write_text(out.getvalue(), encoding="utf-8")
    seconds = time.perf_counter() - started
    print(f"{seconds:6.1f} s ({time.process_time() - cpu:5.1f} s CPU)  {command}", file=sys.__stdout__)
    if words[1] in USER_DATA and not (cwd / words[USER_DATA[words[1]]]).exists():
        assert code == 2 and err.getvalue() == f"tablesim: error: {words[USER_DATA[words[1]]]}: file not found\n", (
            f"{command}\n{err.getvalue()[-3000:]}"
        )
        return seconds
    assert code == 0, f"{command}\n{err.getvalue()[-3000:]}"
    return seconds


@pytest.fixture
def place(tmp_path):
    """An empty folder, as a new user's."""
    return tmp_path


def test_the_examples_are_found():
    examples = help_examples()
    assert "tablesim examples --copy examples" in examples
    assert any(c.startswith("tablesim experiment examples/") for c in examples)
    assert {c.split()[1] for c in examples} >= {
        "games",
        "rules",
        "profiles",
        "run",
        "experiment",
        "report",
        "export",
        "replay",
        "shot",
        "examples",
        "balance",
        "sensitivity",
        "calibrate",
        "new-game",
    }
    assert len(readme_commands()) >= 8


def _run_all(commands: list[str], place, monkeypatch) -> None:
    started, cpu = time.perf_counter(), time.process_time()
    times = {command: _run(command, place, monkeypatch) for command in commands}
    for command, seconds in sorted(times.items(), key=lambda item: -item[1])[:5]:
        print(f"{seconds:6.1f} s  {command}")
    print(f"{len(commands)} commands: {time.perf_counter() - started:.1f} s, {time.process_time() - cpu:.1f} s CPU")


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_every_help_example_runs_as_written(place, monkeypatch):
    _run_all(help_examples(), place, monkeypatch)


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_every_readme_command_runs_as_written(place, monkeypatch):
    _run_all(readme_commands(), place, monkeypatch)
