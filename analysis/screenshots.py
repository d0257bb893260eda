"""Screenshots of one design report and one animated replay per game, for ``reports/examples/``.

    python -m analysis.screenshots [--demo reports/demo] [--out reports/examples] [--games a,b]

Plays (or resumes) ``tablesim demo`` into ``--demo``, then for every game there writes
``OUT/<game>_report.png`` (the report at a 1280 px window) and, for every game whose GameSpec
has a ``frames`` hook, ``OUT/<game>_replay.png`` (``tablesim replay DIR --match 0 --html``,
shown at its last frame). The games are played by the ``tablesim`` command (a subprocess of
this Python): this module only drives it and the browser. Needs Chromium (Debian's
``chromium``).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["chromium", "screenshot", "main"]

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--virtual-time-budget=8000",
]


def chromium() -> str | None:
    """The Chromium executable, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def screenshot(page: Path, png: Path, width: int = 1280, height: int = 1600) -> Path:
    """A PNG of ``page`` (a file, optionally with a ``#fragment``) in a ``width`` × ``height`` window."""
    browser = chromium()
    if browser is None:
        raise RuntimeError("no Chromium found (install Debian's chromium)")
    png.parent.mkdir(parents=True, exist_ok=True)
    uri = (
        page.resolve().as_uri()
        if "#" not in str(page)
        else Path(str(page).split("#")[0]).resolve().as_uri() + "#" + str(page).split("#", 1)[1]
    )
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                browser,
                *FLAGS,
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                f"--screenshot={png}",
                uri,
            ],
            check=True,
            capture_output=True,
            timeout=300,
        )
    return png


def _tablesim(*argv: str) -> str:
    done = subprocess.run([sys.executable, "-m", "sim.cli", *argv], check=True, capture_output=True, text=True)
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis.screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("--demo", default="reports/demo", help="where `tablesim demo` writes (default reports/demo)")
    parser.add_argument("--out", default="reports/examples", help="where the PNGs go (default reports/examples)")
    parser.add_argument("--games", default=None, help="comma-separated games (default: every game of the demo)")
    args = parser.parse_args(argv)
    if chromium() is None:  # before the demo runs: one line, nothing written
        print(
            "python -m analysis.screenshots: error: no Chromium found (chromium, chromium-browser or "
            "google-chrome on PATH; Debian: apt install chromium)",
            file=sys.stderr,
        )
        return 2
    from sim.core.game import get_game

    _tablesim("demo", "--out", args.demo)
    demo, out = Path(args.demo), Path(args.out)
    chosen = (
        args.games.split(",") if args.games else sorted(p.name for p in demo.iterdir() if (p / "report.html").is_file())
    )
    for game in chosen:
        folder = demo / game
        print(screenshot(folder / "report.html", out / f"{game}_report.png"))
        if get_game(game).frames is not None:
            page = folder / "replay-match-0.html"
            _tablesim("replay", str(folder), "--match", "0", "--html", str(page))
            print(screenshot(Path(f"{page}#last"), out / f"{game}_replay.png", height=900))
    return 0


if __name__ == "__main__":
    sys.exit(main())
