"""docs/new-game.md builds a working game: its worked example, every file written out in a block
titled with the file's path, replaces each file `tablesim new-game` writes, installs (into a
scratch folder, found through its entry point, in subprocesses whose workers must find it too),
plays through the command line as the page shows, and passes its own tests, the conformance
suite among them.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sim.cli import main
from sim.testing.conformance import CHECKS

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "new-game.md"
GAME, FOLDER = "ship-captain-crew", "scc"
#: The opening of a file block: ```python title="tablesim_x/match.py"
FILE_BLOCK = re.compile(r'^```(\w+) title="([^"]+)"\s*$')


def doc_files(text: str) -> dict[str, str]:
    """Every titled block of the page: path → the file's text."""
    files: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        opening = FILE_BLOCK.match(line)
        if opening:
            body = []
            for line in lines:
                if line == "```":
                    break
                body.append(line)
            else:
                raise AssertionError(f"{DOC.name}: the block of {opening[2]} is never closed")
            assert opening[2] not in files, f"{DOC.name}: two blocks for {opening[2]}"
            files[opening[2]] = "\n".join(body) + "\n"
    return files


def shown(text: str, command: str) -> tuple[list[str], list[str]]:
    """The page's ``text`` block of ``$ tablesim COMMAND ...``: (the command's arguments, the
    output lines it shows, ``...`` marking lines left out)."""
    for block in re.findall(r"^```text\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE):
        first, *output = block.splitlines()
        if first.startswith(f"$ tablesim {command} "):
            return shlex.split(first)[2:], output
    raise AssertionError(f"{DOC.name}: no text block shows `$ tablesim {command} ...`")


def assert_shows(output: str, expected: list[str], what: str) -> None:
    """The shown lines come in the output in the page's order (``...`` skips any lines)."""
    lines, at = output.splitlines(), 0
    for want in expected:
        if want == "...":
            continue
        try:
            at = lines.index(want, at) + 1
        except ValueError:
            raise AssertionError(f"{DOC.name} shows {want!r} for `{what}`, which prints:\n{output}") from None


@pytest.fixture(scope="module")
def text() -> str:
    return DOC.read_text(encoding="utf-8")


def test_every_file_block_parses_and_the_blocks_replace_every_file_of_the_skeleton(text, tmp_path, monkeypatch, capsys):
    files = doc_files(text)
    for path, body in files.items():
        if path.endswith(".py"):
            ast.parse(body, filename=f"{DOC.name}: {path}")
        elif path.endswith(".toml"):
            tomllib.loads(body)
    monkeypatch.chdir(tmp_path)
    argv, expected = shown(text, "new-game")
    assert argv == ["new-game", GAME, FOLDER]
    assert main(argv) == 0
    assert_shows(capsys.readouterr().out, expected, "tablesim new-game")
    written = {p.relative_to(FOLDER).as_posix() for p in Path(FOLDER).rglob("*") if p.is_file()}
    assert set(files) == written - {"README.md"}


def test_the_page_lists_every_conformance_check(text):
    table = text.split("| check | cases | what it asserts |", 1)[1].split("\n\n", 1)[0]
    listed = {name for row in table.splitlines()[2:] for name in re.findall(r"`(\w+)`", row.split("|")[1])}
    assert listed == set(CHECKS)


@pytest.fixture(scope="module")
def installed(text, tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """The worked example written over the skeleton and installed into a scratch folder: (the
    package's folder, the environment that finds it)."""
    tmp = tmp_path_factory.mktemp("new-game-doc")
    package = tmp / FOLDER
    assert main(["new-game", GAME, str(package)]) == 0
    for path, body in doc_files(text).items():
        (package / path).write_text(body, encoding="utf-8")
    site = tmp / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-qq",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(site),
            str(package),
        ],
        check=True,
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    return package, env


def _tablesim(argv: list[str], env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "sim.cli", *argv], env=env, cwd=cwd, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"tablesim {shlex.join(argv)}: exit {done.returncode}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_worked_example_installs_and_plays_as_the_page_shows(text, installed):
    package, env = installed
    assert GAME in _tablesim(["games"], env, package.parent)
    for command in ("run", "replay"):
        argv, expected = shown(text, command)
        assert argv[:2] == [command, GAME]
        assert_shows(_tablesim(argv, env, package.parent), expected, f"tablesim {shlex.join(argv)}")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_worked_example_passes_its_own_tests_and_every_conformance_check(installed):
    package, env = installed
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "tests"],
        cwd=package,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    failures = [line for line in done.stdout.splitlines() if line.startswith(("E ", "FAILED", "ERROR"))]
    assert done.returncode == 0, "\n".join(failures[-60:]) or done.stdout[-3000:] + done.stderr[-2000:]
    passed = re.findall(rf"test_conformance\[{GAME}-(\w+)[^\]]*\] PASSED", done.stdout)
    # Ship, Captain and Crew declares no restrictable choices: no per-choice case to pass
    assert set(passed) == {name for name, (_, scope) in CHECKS.items() if scope != "choice"}, done.stdout[-4000:]
    assert re.search(r"::test_(?!conformance)\w+ PASSED", done.stdout), "no rule test of the game's own"
