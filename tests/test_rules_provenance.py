"""Every rule of every game says where it comes from.

In each game's default rules file, every key carries a provenance in its comment block (its
own comment and the comment-only lines below it, else its table header's comment):
``seed: «…»`` quoting, inline, the sentence of the publisher's French rule sheet it
implements, or ``default:`` and why. Every quoted fragment is long enough to find in the
sheet (3 words at least); where the publishers' sheets are at hand (the folder named by
``TABLESIM_SEEDS``, holding ``<game>_rules_fr.txt``; they are not shipped), each fragment
must occur in its sheet word for word. The header holds a "Departures from the published
rules" section, which ``tablesim rules GAME`` prints; no comment cites a file that is not
shipped.
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

import pytest

from sim.cli import main
from sim.core import get_game
from sim.core.game import installed_game_names

#: The publishers' rule sheets, where a maintainer has them (not shipped with the project).
SEEDS = Path(os.environ["TABLESIM_SEEDS"]) if os.environ.get("TABLESIM_SEEDS") else None
KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*=")
TABLE = re.compile(r"^\[\[?([^\]]+)\]\]?")
QUOTE = re.compile(r"«([^»]*)»")
DEPARTURES = "# Departures from the published rules"


def _comment(line: str) -> str:
    """The comment part of a TOML line (outside strings, good enough for our files)."""
    in_string = False
    for index, char in enumerate(line):
        if char == '"':
            in_string = not in_string
        elif char == "#" and not in_string:
            return line[index + 1 :].strip()
    return ""


def key_provenances(text: str) -> dict[str, str]:
    """Dotted key → the text of its comment block (falling back on its table's comment)."""
    out: dict[str, str] = {}
    table, table_comment, current = "", "", None
    in_multiline = False
    for raw in text.splitlines():
        line = raw.strip()
        if in_multiline:
            in_multiline = '"""' not in line
            continue
        if match := TABLE.match(line):
            table, table_comment, current = match.group(1).strip(), _comment(line), None
        elif match := KEY.match(line):
            current = f"{table}.{match.group(1)}" if table else match.group(1)
            out[current] = _comment(line)
            in_multiline = line.count('"""') == 1
        elif line.startswith("#") and current is not None and raw.startswith((" ", "\t")):
            out[current] += " " + line.lstrip("#").strip()
        elif not line:
            current = None
        if current is not None and not out[current] and table_comment:
            out[current] = table_comment
    return out


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = re.sub(r"[\"'«»]", "", text)
    return re.sub(r"\s+", " ", re.sub(r"\s*([,;:.!?()])\s*", r"\1 ", text)).strip()


def _rules_text(game: str) -> str:
    return Path(get_game(game).default_rules).read_text(encoding="utf-8")


GAMES = installed_game_names()


@pytest.mark.parametrize("game", GAMES)
def test_every_key_says_seed_or_default(game):
    missing = [
        key
        for key, comment in key_provenances(_rules_text(game)).items()
        if "seed:" not in comment and "default" not in comment
    ]
    assert not missing, f"{game}: keys without 'seed: «…»' or 'default:': {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_every_seed_comment_quotes_the_sheet(game):
    """Every ``seed:`` comment quotes, inline, the sheet's words it implements: at least one
    «quote», each fragment (split at «…») 3 words or more; where the sheets are at hand
    (``TABLESIM_SEEDS``), each fragment is in the game's sheet word for word."""
    seed_file = SEEDS / f"{game}_rules_fr.txt" if SEEDS is not None else None
    sheet = normalise(seed_file.read_text(encoding="utf-8")) if seed_file is not None and seed_file.is_file() else None
    problems = []
    for key, comment in key_provenances(_rules_text(game)).items():
        if "seed:" not in comment:
            continue
        quotes = QUOTE.findall(comment[comment.index("seed:") :])
        if not quotes:
            problems.append(f"{key}: 'seed:' without a «quote» of the rule sheet")
            continue
        for quote in quotes:
            for fragment in re.split(r"…|\.\.\.|\[…\]", quote):
                fragment = normalise(fragment)
                if len(fragment.split()) < 3 and fragment:
                    problems.append(f"{key}: «{fragment}» is too short to check (3 words at least)")
                elif sheet is not None and fragment and fragment not in sheet:
                    problems.append(f"{key}: «{fragment}» is not in {seed_file.name}")
    assert not problems, "\n".join(problems)


def test_the_seed_sheets_are_checked_here():
    """Where the publishers' sheets are at hand (``TABLESIM_SEEDS``), every sheet there is a
    shipped game's, so the quotes above are really compared with their sheet."""
    if SEEDS is None:
        pytest.skip(
            "the publishers' rule sheets are not shipped (set TABLESIM_SEEDS to a folder "
            "of <game>_rules_fr.txt to compare every quote with them); quotes checked for form"
        )
    assert SEEDS.is_dir(), f"TABLESIM_SEEDS={SEEDS} is not a folder"
    shipped = {p.name.removesuffix("_rules_fr.txt") for p in SEEDS.glob("*_rules_fr.txt")}
    assert shipped and shipped <= set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_rules_print_the_departures_section_and_cite_only_shipped_files(game, capsys):
    assert main(["rules", game]) == 0
    text = capsys.readouterr().out
    assert DEPARTURES in text, f"{game}: `tablesim rules {game}` shows no departures section"
    section = text[text.index(DEPARTURES) :].split("\n\n", 1)[0]
    assert re.search(r"^#\s+- ", section, re.MULTILINE), f"{game}: the departures section lists nothing"
    cited = re.findall(r"\b(?:seeds|research|games)/[\w./-]+", text)
    assert not cited, f"{game}: the rules cite files a user does not have: {cited}"
