"""What a person reads of a balance search: list elements named as the rules name them, one
sentence on whether every target was met on fresh seeds, and numbers rounded for people."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest

from analysis.balance.search import load_balance, run_balance
from analysis.balance.space import Parameter, PointNames, SearchSpace
from analysis.balance.validation import human_number, point_names, target_sentence
from sim.cli.search import _print_balance
from sim.core.config import to_dict
from sim.core.game import get_game
from sim.core.rules import load_rules
from tests.balance.test_balance import write
from tests.core import toygame  # noqa: F401  (registers toy-dice)

ROOT = Path(__file__).resolve().parents[2]
CARD_MIX = [1, 3, 7, 2, 1, 3, 1, 8, 2, 5, 1]
NAMED_MIX = (
    "action-cards: Aspiration 1, Laitue Bleue 3, Turbo Pétard 7, Ressort 2, Kangouroute Aiguë 1, "
    "Rouler Bouler 3, Coup de folie 1, Choc 8, Tir 2, Renfort de coquille 5, Retour de bâton 1"
)
KO, SPREAD = "game(ko_rate) @4-tacticians", "game(card_win_rate_spread) @4-tacticians"


@pytest.fixture(scope="module")
def card_mix():
    """The Gastérospeed card-mix problem (loading it plays no match)."""
    return load_balance(ROOT / "sim" / "gasterospeed" / "examples" / "gasterospeed_balance.toml")


def too_precise(text: str) -> list[str]:
    """Decimal numbers of ``text`` written with more than 3 significant digits."""
    tokens = re.findall(r"\d[\d,]*\.\d+(?:e-?\d+)?", text)
    return [t for t in tokens if len(re.sub(r"e-?\d+$", "", t).replace(",", "").replace(".", "").lstrip("0")) > 3]


def check(target: str, value: float, low: float, high: float, band=(0.0, 0.15)) -> dict:
    met = band[0] <= low and high <= band[1]
    return {
        "target": target,
        "value": value,
        "ci_low": low,
        "ci_high": high,
        "band": list(band),
        "met": met,
        "alpha": 0.05 / 3,
        "n": 5000,
    }


def summary_of(checks: list[dict], *, in_sequence: bool = True, claimable: bool = True) -> dict:
    """A balance summary whose best candidate (the response surface's) has these fresh-seed checks."""
    meets_all = all(c["met"] for c in checks)
    best = {
        "trial": "surface",
        "point": {"action-cards": CARD_MIX},
        "matches": 5000,
        "fresh_seed": 1000016,
        "alpha": 0.05 / 3,
        "targets": checks,
        "meets_all": meets_all,
        "in_sequence": in_sequence,
    }
    return {
        "trials": 60,
        "pruned": 53,
        "optimizer": "ntbea",
        "best": best,
        "baseline": None,
        "look": 1,
        "alpha_look": 0.05 / 3,
        "alpha_total": 0.05,
        "looks_planned": 3,
        "claimable": claimable,
        "meets_all_targets": meets_all and in_sequence and claimable,
        "stages": [{"look": 1, "matches": 5000}],
        "matches_played": {"search": 2280, "validation": 15000, "total": 17280},
        "lineup_verdicts": {},
    }


MET = [check(KO, 0.03543412, 0.034241, 0.036557, (0.0, 0.1)), check(SPREAD, 0.14100000000000007, 0.1381, 0.1459)]
MISSED = [MET[0], check(SPREAD, 0.16223, 0.1584, 0.1668)]
UNDECIDED = [MET[0], check(SPREAD, 0.14812, 0.1442, 0.1523)]


# naming ------------------------------------------------------------------------------------


def test_a_card_mix_is_named_by_the_cards_of_the_rules(card_mix):
    assert point_names(card_mix).point({"action-cards": CARD_MIX}) == NAMED_MIX


def test_zone_values_are_named_by_their_rings_innermost_first():
    spec = get_game("curlastique")
    baseline = to_dict(load_rules(spec))
    space = SearchSpace(
        (
            Parameter(key="zones.values", kind="int_list", length=4, low=10, high=200),
            Parameter(key="zones.values[1]", kind="int", low=10, high=200),
        ),
        baseline,
    )
    names = PointNames(space, spec.rules_type)
    assert (
        names.value("zones.values", [130, 100, 30, 20])
        == "zones.values: ring 1 (innermost) 130, ring 2 100, ring 3 30, ring 4 (outermost) 20"
    )
    assert names.value("zones.values[1]", 90) == "zones.values: ring 2 90"
    assert names.dimension_names(space.parameters[0])["zones.values[3]"] == "zones.values: ring 4 (outermost)"


def test_elements_the_rules_do_not_name_go_by_their_keys():
    spec = get_game("toy-dice")
    space = SearchSpace(
        (
            Parameter(key="dice.faces", kind="int_list", length=3, low=1, high=9),
            Parameter(key="mix", kind="counts", keys=("pile.a.count", "pile.b.count"), total=5),
            Parameter(key="game.seat0_bonus", kind="float", low=-3, high=5),
        ),
        {**to_dict(load_rules(spec)), "pile": {"a": {"count": 1}, "b": {"count": 4}}},
    )
    point = {"dice.faces": [1, 2, 6], "mix": [2, 3], "game.seat0_bonus": 1.234567}
    assert (
        PointNames(space, spec.rules_type).point(point)
        == "dice.faces[0]=1, dice.faces[1]=2, dice.faces[2]=6; mix: pile.a.count=2, pile.b.count=3; game.seat0_bonus = 1.235"
    )


# the target sentence -------------------------------------------------------------------------


def test_the_sentence_says_every_target_was_met_only_when_the_claim_is_made():
    assert (
        target_sentence(summary_of(MET))
        == "Every target was met on fresh seeds: the intervals of all 2 lie inside their bands."
    )


def test_the_sentence_names_the_targets_missed_and_those_not_shown_met():
    missed = target_sentence(summary_of(MISSED))
    assert missed.startswith("Not every target was met on fresh seeds: ")
    assert f"{SPREAD} missed (interval wholly outside the band)" in missed and KO not in missed
    undecided = target_sentence(summary_of(UNDECIDED))
    assert undecided.startswith("Not every target is shown met on fresh seeds: ")
    assert f"{SPREAD} not shown met (interval across a band edge)" in undecided and KO not in undecided
    both = target_sentence(summary_of([check(KO, 0.2, 0.18, 0.22, (0.0, 0.1)), UNDECIDED[1]]))
    assert f"{KO} missed" in both and f"{SPREAD} not shown met" in both


def test_the_sentence_says_why_intervals_inside_their_bands_claim_nothing():
    sequence = target_sentence(summary_of(MET, in_sequence=False))
    assert sequence.startswith("Not every target is shown met on fresh seeds: every interval lies inside its band")
    assert "an earlier candidate of the fixed test sequence missed a target" in sequence
    assert "no α left" in target_sentence(summary_of(MET, claimable=False))
    assert "no α left" in target_sentence(summary_of(MISSED, claimable=False))
    assert target_sentence({"best": None}).startswith("Cannot tell whether the targets are met: no trial completed")


# numbers for people --------------------------------------------------------------------------


def test_numbers_are_rounded_for_people():
    assert [human_number(v) for v in (0.14100000000000007, 0.035434, 15000, 5.0, 1000016.0, 123.456, float("nan"))] == [
        "0.141",
        "0.0354",
        "15,000",
        "5",
        "1,000,016",
        "123",
        "—",
    ]


# the console -------------------------------------------------------------------------------


def test_console_names_the_card_mix_states_the_verdict_and_rounds(card_mix, capsys, tmp_path):
    _print_balance(card_mix, summary_of(MET), tmp_path)
    out = capsys.readouterr().out
    assert f"best candidate (trial surface): {NAMED_MIX}\n" in out
    assert "Every target was met on fresh seeds: the intervals of all 2 lie inside their bands.\n" in out
    assert "validated on 5,000 matches" in out and "matches played: 2,280 by the search" in out
    assert f"{SPREAD:<44}   0.141  96.7 % CI [0.138, 0.146]  band [0, 0.15]  met" in out
    assert too_precise(out) == [], out

    _print_balance(card_mix, summary_of(MISSED), tmp_path)
    out = capsys.readouterr().out
    assert "Every target was met" not in out
    assert f"Not every target was met on fresh seeds: {SPREAD} missed (interval wholly outside the band).\n" in out


def test_cli_and_report_of_a_search_state_the_verdict_in_one_sentence(tmp_path, capsys):
    """End to end on the toy game: the console, best_rules.toml and the report say the same sentence."""
    from sim.cli import main

    path = write(tmp_path, "random", trials=2, matches=20, validate=400)
    out = tmp_path / "out"
    assert main(["balance", str(path), "--out", str(out), "--no-progress"]) == 0
    console = capsys.readouterr().out
    summary = json.loads((out / "balance.json").read_text())
    sentence = target_sentence(summary)
    assert f"\n{sentence}\n" in console and too_precise(console) == []
    point = summary["best"]["point"]["game.seat0_bonus"]
    assert f"best candidate (trial {summary['best']['trial']}): game.seat0_bonus = {point}\n" in console
    header = [line for line in (out / "best_rules.toml").read_text().splitlines() if line.startswith("#")]
    assert f"# game.seat0_bonus = {point}" in header and f"# {sentence}" in header
    assert main(["report", str(out)]) == 0
    page = (out / "report.html").read_text()
    first_verdict = re.search(r'<div class="verdict">(.*?)</div>', page, re.S)[1]
    assert html.unescape(first_verdict).startswith(sentence)
    tables = " ".join(re.findall(r"<table.*?</table>", page, re.S))
    assert too_precise(html.unescape(re.sub(r"<[^>]+>", " ", tables))) == []


def test_the_report_names_the_card_mix_in_its_verdict_tables_and_surface(tmp_path):
    """A stored card-mix search (its files only: nothing is played) reports the cards by name."""
    from analysis.balance.report import build_search_report

    copy = tmp_path / "gasterospeed_balance"
    shutil.copytree(ROOT / "reports" / "examples" / "gasterospeed_balance", copy)
    page = html.unescape(build_search_report(copy).read_text(encoding="utf-8"))
    verdict = re.search(r'<div class="verdict">(.*?)</div>', page, re.S)[1]
    summary = json.loads((copy / "balance.json").read_text())
    assert verdict.startswith(target_sentence(summary))
    named = point_names_of_stored(summary["best"]["point"]["action-cards"])
    assert named in verdict and page.count(named) >= 2  # the verdict and the candidates' table
    assert "<th>Laitue Bleue</th>" in page and "<th>Retour de bâton</th>" in page  # trials and surface fits
    assert '"action-cards": [' not in page
    tables = " ".join(re.findall(r"<table.*?</table>", page, re.S))
    assert too_precise(re.sub(r"<[^>]+>", " ", tables)) == []


def point_names_of_stored(counts: list[int]) -> str:
    cards = (
        "Aspiration",
        "Laitue Bleue",
        "Turbo Pétard",
        "Ressort",
        "Kangouroute Aiguë",
        "Rouler Bouler",
        "Coup de folie",
        "Choc",
        "Tir",
        "Renfort de coquille",
        "Retour de bâton",
    )
    return "action-cards: " + ", ".join(f"{card} {count}" for card, count in zip(cards, counts))


def test_a_search_with_nothing_validated_says_it_cannot_tell(tmp_path, capsys, card_mix):
    summary = {**summary_of(MET), "best": None, "meets_all_targets": False}
    _print_balance(card_mix, summary, tmp_path)
    assert capsys.readouterr().out.splitlines()[-1].startswith("Cannot tell whether the targets are met")


def test_json_files_keep_full_precision(tmp_path):
    summary = run_balance(
        load_balance(write(tmp_path, "random", trials=2, matches=20, validate=400)), tmp_path / "out", progress=False
    )
    stored = json.loads((tmp_path / "out" / "balance.json").read_text())
    assert stored["best"]["targets"][0]["value"] == summary["best"]["targets"][0]["value"]
    assert stored["alpha_look"] == pytest.approx(0.05 / 3, rel=1e-15)
