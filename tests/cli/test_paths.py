"""Every path the user names is checked first; one line, exit 2.

Each case asserts the exit status, the one error line (naming the path), and that nothing was
left behind (no manifest, no empty folder, the directory tree unchanged).
"""

import os
from pathlib import Path

import pytest

from tests.core.reliability import error_lines, run_cli, snapshot

RUN = ["run", "toy-dice", "--matches", "5", "--players", "plain,lucky"]


@pytest.fixture
def place(tmp_path, capsys):
    """A working directory with a file, a folder and a finished results directory."""
    (tmp_path / "a_file").write_text("x")
    (tmp_path / "a_dir").mkdir()
    assert run_cli(capsys, *RUN, "--out", tmp_path / "results")[0] == 0
    (tmp_path / "results" / "report.html").write_text("old report")
    return tmp_path


def cases(p: Path):
    results = p / "results"
    return [
        # (argv, the start of the one error line)
        ([*RUN, "--out", "/proc/x"], "--out /proc/x: cannot write in /proc"),
        ([*RUN, "--out", p / "a_file" / "sub"], f"--out {p / 'a_file' / 'sub'}: {p / 'a_file'} is a file"),
        ([*RUN, "--out", p / "a_file"], f"--out {p / 'a_file'}: exists and is not a directory"),
        (["report", results, "--out", "/proc/x/r.html"], "--out /proc/x/r.html: cannot write in /proc"),
        (
            ["report", results, "--out", p / "a_file" / "r.html"],
            f"--out {p / 'a_file' / 'r.html'}: {p / 'a_file'} is a file",
        ),
        (["report", results, "--out", p / "a_dir"], f"--out {p / 'a_dir'}: is a directory"),
        (
            ["report", results, "--out", p / "r.txt"],
            f"--out {p / 'r.txt'}: unknown extension '.txt'; allowed: .html, .htm",
        ),
        (["report", results, "--markdown", p / "r.html"], f"--markdown {p / 'r.html'}: unknown extension '.html'"),
        (
            ["report", results, "--markdown", p / "a_file" / "r.md"],
            f"--markdown {p / 'a_file' / 'r.md'}: {p / 'a_file'} is a file",
        ),
        (["report", p / "a_file"], f"{p / 'a_file'}: not a directory"),
        (["report", p / "a_dir"], f"{p / 'a_dir'}: not a tablesim results directory (no manifest.json)"),
        (
            ["shot", "curlastique", "--speed", "1.3", "--plot", p / "a.xyz"],
            f"--plot {p / 'a.xyz'}: unknown extension '.xyz'; allowed: .png, .svg, .pdf",
        ),
        (
            ["shot", "curlastique", "--speed", "1.3", "--plot", "/proc/x/a.png"],
            "--plot /proc/x/a.png: cannot write in /proc",
        ),
        (["shot", "curlastique", "--speed", "1.3", "--plot", p / "a_dir"], f"--plot {p / 'a_dir'}: is a directory"),
        (["shot", "curlastique", "--speed", "1.3", "--state", p / "a_dir"], f"--state {p / 'a_dir'}: is a directory"),
        (
            ["shot", "curlastique", "--speed", "1.3", "--state", p / "none.toml"],
            f"--state {p / 'none.toml'}: file not found",
        ),
        ([*RUN, "--rules", "/proc/self/mem"], "--rules /proc/self/mem: cannot be read (Input/output error)"),
        ([*RUN, "--rules", "/dev/zero"], "--rules /dev/zero: not a regular file"),
        ([*RUN, "--rules", p / "a_dir"], f"--rules {p / 'a_dir'}: is a directory"),
        (
            [*RUN, "--rules", p / "a_file" / "r.toml"],
            f"--rules {p / 'a_file' / 'r.toml'}: file not found (a part of the path is a file)",
        ),
        (["rules", "toy-dice", "--rules", "/proc/self/mem"], "--rules /proc/self/mem: cannot be read"),
        (
            ["run", "toy-dice", "--matches", "5", "--players", f"plain,{p / 'a_dir'}.toml"],
            f"{p / 'a_dir'}.toml: file not found",
        ),
        (["replay", "gasterospeed", "--match", "-1"], "--match: got -1; allowed: >= 0"),
        (["demo", "--jobs", "0", "--out", p / "demo"], "--jobs: got 0; allowed: >= 1, or -1 for every core"),
        (["demo", "--out", p / "a_file" / "demo"], f"--out {p / 'a_file' / 'demo'}: {p / 'a_file'} is a file"),
        (["experiment", p / "a_dir"], f"{p / 'a_dir'}: is a directory, expected a TOML file"),
        (["experiment", "/proc/self/mem"], "/proc/self/mem: cannot be read"),
        (["balance", "/proc/self/mem"], "/proc/self/mem: cannot be read"),
        (["sensitivity", p / "missing.toml"], f"{p / 'missing.toml'}: file not found"),
        (["balance", p / "a_file", "--jobs", "0"], "--jobs: got 0"),
        ([*RUN, "--jobs", "-5"], "--jobs: got -5"),
        ([*RUN, "--chunk-size", "1000000"], "--chunk-size: got 1000000; allowed: 0 to 100000"),
        ([*RUN, "--matches", str(10**16)], f"--matches: got {10**16}; allowed: 1 to"),
        (["bench", "--seconds", "-1"], "--seconds: got -1.0"),
        # an object store's URL would be a local folder named "s3:" that Arrow then reads as a URL
        ([*RUN, "--out", "s3://bucket/run"], "--out s3://bucket/run: a URL; allowed: a local folder"),
        (["matrix", "toy-dice", "--profiles", "plain,lucky", "--out", "gs://b/m"], "--out gs://b/m: a URL"),
        (["report", "s3://bucket/run"], "report s3://bucket/run: a URL"),
    ]


def test_every_bad_path_is_one_line_exit_2_and_nothing_is_left_behind(place, capsys, monkeypatch):
    monkeypatch.chdir(place)
    for argv, expected in cases(place):
        before = snapshot(place)
        code, out, err = run_cli(capsys, *argv)
        lines = error_lines(err)
        assert code == 2, (argv, err)
        assert len(lines) == 1, (argv, err)
        assert lines[0].startswith(f"tablesim: error: {expected}"), (argv, lines[0])
        assert "Traceback" not in err
        assert snapshot(place) == before, argv  # not even an empty folder or a probe file
    assert not (place / "demo").exists() and (place / "results" / "report.html").read_text() == "old report"


def test_report_writes_where_asked_once_the_paths_are_good(place, capsys):
    html, md = place / "new" / "deep" / "r.html", place / "md" / "r.md"
    code, out, err = run_cli(capsys, "report", place / "results", "--out", html, "--markdown", md)
    assert code == 0, err
    assert html.is_file() and md.is_file() and f"report: {html}" in out


def test_an_unwritable_results_directory_is_refused_before_any_work(place, capsys):
    if os.geteuid() == 0:
        pytest.skip("root may write anywhere")
    locked = place / "ro"
    locked.mkdir(mode=0o500)
    code, _, err = run_cli(capsys, *RUN, "--out", locked / "o")
    assert code == 2 and "not writable" in err and not (locked / "o").exists()


def test_argparse_errors_carry_the_prefix_once(capsys):
    for argv, expected in [
        (
            ["run", "toy-dice", "--matches", "x", "--players", "a"],
            "tablesim: error: argument --matches: invalid int value: 'x' (see tablesim run --help)",
        ),
        (
            ["run", "toy-dice", "--players", "a"],
            "tablesim: error: the following arguments are required: --matches (see tablesim run --help)",
        ),
        (["fly"], "tablesim: error: argument COMMAND: invalid choice: 'fly'"),
    ]:
        code, _, err = run_cli(capsys, *argv)
        [line] = error_lines(err)
        assert code == 2 and line.startswith(expected), line
        assert "error: tablesim" not in line and line.count("tablesim:") == 1


def test_help_and_version_exit_0_in_process(capsys):
    assert run_cli(capsys, "--version")[0] == 0
    assert run_cli(capsys, "run", "--help")[0] == 0


def test_bench_without_a_development_extra_says_so_in_one_line(monkeypatch, capsys):
    from sim.cli import bench, main

    monkeypatch.setattr(bench, "NEEDS", {"physics": "a_package_that_is_not_installed"})
    assert main(["bench", "--only", "physics", "--seconds", "0.1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "a_package_that_is_not_installed, a development extra" in err[0]
    assert "make bench" in err[0] and "--only games, cpu, split, scaling" in err[0]
