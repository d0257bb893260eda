"""A long run says once what it will cost (time, disk, workers); one whose rest cannot fit the disk stops."""

import collections

import pytest

import sim.core.forecast as forecast
from sim.cli import main
from sim.core import load_tables
from sim.core.forecast import human_bytes, human_duration

from . import toygame  # noqa: F401

RUN = ["run", "toy-dice", "--matches", "400", "--players", "plain,lucky", "--chunk-size", "20", "--no-progress"]


@pytest.fixture
def eager(monkeypatch):
    """Measure the pace after the first chunk and announce any run."""
    monkeypatch.setattr(forecast, "AFTER_S", 0.0)
    monkeypatch.setattr(forecast, "QUIET_S", 0.0)


def test_the_forecast_is_said_once_with_time_disk_and_workers(capsys, tmp_path, eager):
    assert main([*RUN, "--out", str(tmp_path / "o")]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if "matches left at" in line]
    assert len(lines) == 1
    assert lines[0].startswith("tablesim: 380 matches left at ") and "matches/s on 1 worker (" in lines[0]
    assert "more on disk (" in lines[0] and " free)" in lines[0]


def test_a_short_run_says_nothing(capsys, tmp_path):
    assert main([*RUN, "--out", str(tmp_path / "o")]) == 0
    assert "matches left" not in capsys.readouterr().err


def test_a_run_that_cannot_fit_the_disk_stops_keeps_its_chunks_and_resumes(capsys, tmp_path, eager, monkeypatch):
    usage = collections.namedtuple("usage", "total used free")
    monkeypatch.setattr(forecast.shutil, "disk_usage", lambda path: usage(10**6, 10**6 - 2000, 2000))
    out = tmp_path / "o"
    assert main([*RUN, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"tablesim: error: {out}: the 380 matches left need about ")
    assert "and 2.0 kB is free; the 20 matches finished are kept" in err[0] and "rerun the same command" in err[0]
    assert len(load_tables(out)["matches"]) == 20
    monkeypatch.undo()
    assert main([*RUN, "--out", str(out)]) == 0
    assert main([*RUN, "--out", str(tmp_path / "fresh")]) == 0
    assert load_tables(out)["players"].equals(load_tables(tmp_path / "fresh")["players"])


def test_durations_and_sizes_read_as_a_person_says_them():
    assert [human_duration(s) for s in (45, 600, 3 * 3600 + 600, 5 * 86400, 3e8)] == [
        "45 s",
        "10 min",
        "3 h 10 min",
        "5.0 days",
        "9.5 years",
    ]
    assert [human_bytes(b) for b in (512, 12_400_000, 2.5e12)] == ["512 B", "12.4 MB", "2.5 TB"]
