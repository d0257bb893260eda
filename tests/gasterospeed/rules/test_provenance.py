"""The rules file says where every value comes from.

Every key has ``seed: «...»`` (the publisher's French words quoted inline, verbatim, each
fragment on one line and at least 3 words, so that it can be found in the rule sheet) or
``default:`` in its comment block or its table's; where the publisher's sheet is at hand (the
folder named by ``TABLESIM_SEEDS``; it is not shipped), every fragment is found in it. The
header lists the departures from the published rules, each with its key or "no key"; no file
that is not shipped is cited. ``tablesim rules gasterospeed`` prints that file verbatim.
"""

from __future__ import annotations

import os
import re
import tomllib
import unicodedata
from pathlib import Path

import pytest

from sim.core.rules import default_rules_text
from sim.gasterospeed import GAME

#: The publisher's rule sheet, where a maintainer has it (not shipped with the project).
SEED = Path(os.environ["TABLESIM_SEEDS"]) / "gasterospeed_rules_fr.txt" if os.environ.get("TABLESIM_SEEDS") else None
KEY = re.compile(r"^([A-Za-z0-9_]+)\s*=")
TABLE = re.compile(r"^\[([^\]]+)\]")


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFC", text).lower()
    text = text.replace("’", "'").replace("‘", "'")
    text = re.sub(r"[«»“”\"]", '"', text)
    return re.sub(r"\s+", " ", text).strip()


def comment_blocks(text: str) -> list[tuple[str, str, str, str]]:
    """(table, key, the key's comment block, its table header's comment block) of every key
    assignment: the trailing comment plus the comment-only lines right below (the insides of a
    multi-line string are skipped)."""
    lines = text.splitlines()
    out, table, table_comment = [], "", ""
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        key, head = KEY.match(stripped), TABLE.match(stripped)
        if not (key or head):
            i += 1
            continue
        block = _trailing(lines[i])
        if key and stripped.count("'''") == 1:  # a multi-line string: to its closing line
            i += 1
            while "'''" not in lines[i]:
                i += 1
        j = i + 1
        while j < len(lines) and lines[j].strip().startswith("#"):
            block += " " + lines[j].strip().lstrip("#")
            j += 1
        if head:
            table, table_comment = head.group(1), block
        else:
            out.append((table, key.group(1), block, table_comment))
        i = j
    return out


def _trailing(line: str) -> str:
    """The comment after a key or table on its line (outside quoted strings)."""
    quote = None
    for k, ch in enumerate(line):
        if ch in "\"'" and quote is None:
            quote = ch
        elif ch == quote:
            quote = None
        elif ch == "#" and quote is None:
            return line[k + 1 :]
    return ""


def _leaf_keys(table: dict) -> int:
    return sum(_leaf_keys(v) if isinstance(v, dict) else 1 for v in table.values())


TEXT = default_rules_text(GAME)
BLOCKS = comment_blocks(TEXT)


def test_every_key_has_a_provenance():
    assert len(BLOCKS) == _leaf_keys(tomllib.loads(TEXT))  # every key of the file was seen
    missing = [
        f"{table}.{key}"
        for table, key, block, header in BLOCKS
        if not re.search(r"\b(seed:|default:)", block or header)
    ]
    assert missing == []


QUOTED_LINES = [line for line in TEXT.splitlines() if "«" in line or "»" in line]


def _fragments(line: str) -> list[str]:
    return [fragment for quote in re.findall(r"«([^»]*)»", line) for fragment in quote.split("…")]


def test_every_seed_quote_is_on_one_line_and_long_enough_to_check():
    assert len(QUOTED_LINES) > 60
    for line in QUOTED_LINES:
        assert line.count("«") == line.count("»"), f"a quote spans several lines: {line!r}"
        for fragment in _fragments(line):
            words = normalise(fragment).split()
            assert len(words) >= 3 or not words, f"fragment too short: {fragment!r}"


@pytest.mark.skipif(
    SEED is None or not SEED.is_file(),
    reason="the publisher's rule sheet is not shipped "
    "(set TABLESIM_SEEDS to the folder holding gasterospeed_rules_fr.txt)",
)
def test_every_seed_quote_is_the_publishers_words_verbatim():
    seed = normalise(SEED.read_text())
    for line in QUOTED_LINES:
        for fragment in _fragments(line):
            assert normalise(fragment) in seed, f"not in the rule sheet: {fragment!r}"


def test_the_header_lists_the_departures_each_with_its_key():
    lines = TEXT.splitlines()
    start = lines.index("# Departures from the published rules")
    items: list[str] = []
    for line in lines[start + 1 :]:
        if not line.startswith("#"):
            break
        if line.startswith("#   - "):
            items.append(line[6:])
        else:
            assert line.startswith("#     "), line
            items[-1] += " " + line[6:]
    assert len(items) >= 15
    for item in items:
        assert "key:" in item or "no key" in item, item
    text = " ".join(items)
    for key in (
        "race.turn_cap",
        "race.discard_in_speed_phase",
        "race.ko_at_finish",
        "race.pushed_into_obstacle",
        "race.start_slot_taken",
        "race.domino_line",
        "deck.retour_de_baton.vs_shot",
        "deck.renfort_de_coquille.vs_jostle",
        "deck.retour_de_baton.vs_jostle",
        "variants.two_snails_placement",
        "variants.reserve_split",
        "circuits.cross_ronces.start_shells",
        "race.placement_die",
        "circuits.<id>.die",
        "deck.<id>.direction_table",
    ):
        assert key in text, key
    assert "Championnat des speedy" in text and "(!)" in text


def test_no_file_a_user_does_not_have_is_cited():
    assert not re.search(r"seeds/|games/|\.md\b|research/", TEXT)
