"""`tablesim new-game` writes a package that installs and passes the conformance suite the day
it is written (installed into a scratch folder, found through its entry point, in a subprocess
whose workers must find it too)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from sim.cli import main
from sim.skeleton import SkeletonError, names, write_skeleton


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_skeleton_installs_and_passes_the_conformance_suite(tmp_path):
    package = tmp_path / "dice-duel"
    assert main(["new-game", "dice-duel", str(package)]) == 0
    files = {p.name for p in package.rglob("*") if p.is_file()}
    assert files >= {"pyproject.toml", "__init__.py", "rules.toml", "match.py", "test_tablesim_dice_duel.py"}
    readme, pyproject = (package / "README.md").read_text(), (package / "pyproject.toml").read_text()
    assert "example.invalid" not in readme and 'pip install -e ".[test]"' in readme
    assert 'test = ["pytest' in pyproject  # the plugin's own tests have what they need
    (package / "tablesim_dice_duel" / "examples").mkdir()
    (package / "tablesim_dice_duel" / "examples" / "dice-duel_demo.toml").write_text('game = "dice-duel"\n')
    site = tmp_path / "site"
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
    listed = subprocess.run([sys.executable, "-m", "sim.cli", "games"], env=env, capture_output=True, text=True)
    assert "dice-duel" in listed.stdout, listed.stderr
    assert (site / "tablesim_dice_duel" / "examples" / "dice-duel_demo.toml").is_file()  # examples installed
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=package,
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout


@pytest.mark.parametrize("bad", ["Dice", "1dice", "dice_duel", "d", "dice-", "dice--duel", "x" * 40])
def test_bad_names_are_refused_with_what_is_allowed(bad):
    with pytest.raises(SkeletonError, match="allowed: 2 to 31 lower-case letters"):
        names(bad)


def test_a_non_empty_directory_is_refused_and_left_as_it_was(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(
        SkeletonError,
        match=r"exists and is not an empty directory; name a new folder "
        r"\(tablesim new-game dice-duel NEW_DIR\), or empty this one first",
    ):
        write_skeleton("dice-duel", tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_the_command_refuses_an_installed_name_and_writes_nothing(tmp_path, capsys):
    assert main(["new-game", "pig", str(tmp_path / "p")]) == 2
    assert "already installed" in capsys.readouterr().err
    assert not (tmp_path / "p").exists()
