"""Helpers shared by the reliability tests: the CLI in-process and as a subprocess."""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sim.cli import main

from . import toygame  # noqa: F401  (registers toy-dice)

ROOT = Path(__file__).resolve().parents[2]

#: A subprocess `tablesim` that knows the toy game.
SCRIPT = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
import tests.core.toygame
from sim.cli import main
sys.exit(main(sys.argv[1:]))
"""


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """``tablesim ARGV`` in this process: (exit status, stdout, stderr)."""
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.strip()]


def cli_script(tmp_path: Path) -> Path:
    path = tmp_path / "tablesim_cli.py"
    path.write_text(SCRIPT)
    return path


#: Every process group :func:`popen` started; tests/conftest.py kills what is left of them after
#: each test, so a test that fails before its own kill leaves no run playing (a million-match
#: run left behind would slow every later test).
STARTED: list[subprocess.Popen] = []


def popen(tmp_path: Path, *argv, **kwargs) -> subprocess.Popen:
    """``tablesim ARGV`` as a subprocess in its own session (so a kill reaches its workers)."""
    proc = subprocess.Popen(
        [sys.executable, str(cli_script(tmp_path)), *map(str, argv)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        **kwargs,
    )
    STARTED.append(proc)
    return proc


def kill_started() -> None:
    """SIGKILL the process group of every :func:`popen` process (their workers included)."""
    while STARTED:
        proc = STARTED.pop()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            proc.communicate(timeout=10)


def run_sub(tmp_path: Path, *argv, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(cli_script(tmp_path)), *map(str, argv)], capture_output=True, text=True, timeout=timeout
    )


def wait_for(predicate, timeout: float = 60.0, step: float = 0.02) -> bool:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return False


def parts(folder: Path, table: str = "matches") -> list[Path]:
    return sorted((Path(folder) / table).glob("*.parquet"))


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with a hash of its content (directories as '<dir>')."""
    out = {}
    for path in sorted(Path(folder).rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_dir():
            out[rel] = "<dir>"
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[rel] = "<other>"
    return out


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purpose
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False
