"""``tablesim new-game NAME DIR``: a package skeleton for a fourth game.

It writes an installable package (``pyproject.toml`` with the ``tablesim.games`` entry point),
the game's rules and profile dataclasses with their TOML files, a pure ``play_match`` (a small
dice duel to replace), and a test file that runs the conformance suite (``sim.testing``). The
skeleton passes that suite the day it is written; tests/cli/test_new_game.py proves it.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["SkeletonError", "names", "write_skeleton"]

TEMPLATE = Path(__file__).parent / "template"
NAME = re.compile(r"[a-z][a-z0-9-]{1,30}")


class SkeletonError(ValueError):
    """A refused name or directory; the message is one line."""


def names(name: str) -> dict[str, str]:
    """The names a skeleton uses for game ``name``.

    >>> names("snail-dice")["module"], names("snail-dice")["Class"], names("snail-dice")["dist"]
    ('tablesim_snail_dice', 'SnailDice', 'tablesim-snail-dice')
    """
    if not NAME.fullmatch(name) or name.endswith("-") or "--" in name:
        raise SkeletonError(
            f"NAME {name!r}: allowed: 2 to 31 lower-case letters, digits and single hyphens, "
            "starting with a letter (e.g. snail-dice)"
        )
    words = name.split("-")
    return {
        "name": name,
        "module": "tablesim_" + "_".join(words),
        "dist": f"tablesim-{name}",
        "Class": "".join(w.capitalize() for w in words),
        "title": " ".join(w.capitalize() for w in words),
    }


def write_skeleton(name: str, dest: str | Path) -> list[Path]:
    """Write the skeleton of game ``name`` into ``dest`` (absent or empty); return the files."""
    values = names(name)
    dest = Path(dest)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise SkeletonError(
            f"DIR {dest}: exists and is not an empty directory; name a new folder "
            f"(tablesim new-game {name} NEW_DIR), or empty this one first"
        )
    plan = []
    for template in sorted(TEMPLATE.rglob("*.tmpl")):
        relative = template.relative_to(TEMPLATE).with_suffix("")
        parts = [values["module"] if p == "package" else p for p in relative.parts]
        if parts[-1] == "test_package.py":
            parts[-1] = f"test_{values['module']}.py"
        plan.append((dest.joinpath(*parts), template.read_text(encoding="utf-8").format(**values)))
    try:
        for path, text in plan:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise SkeletonError(f"DIR {dest}: cannot write there ({exc.strerror})") from None
    return [path for path, _ in plan]
