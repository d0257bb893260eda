"""The checked-in card-mix search on worth claims exactly what its fresh-seed validation shows.

The stored search (``reports/examples/gasterospeed_worth_balance``) was run on the current
rules: its ``best_rules.toml`` loads as the current rules and deals the validated deck (rerun
the search after a rule change that alters play).
"""

import json
from pathlib import Path

from sim.core.game import get_game
from sim.core.rules import load_rules

STORED = Path(__file__).resolve().parents[2] / "reports" / "examples" / "gasterospeed_worth_balance"
ACTION_CARDS = (
    "aspiration",
    "laitue_bleue",
    "turbo_petard",
    "ressort",
    "kangouroute_aigue",
    "rouler_bouler",
    "coup_de_folie",
    "choc",
    "tir",
    "renfort_de_coquille",
    "retour_de_baton",
)


def _spread(candidate: dict) -> dict:
    return next(c for c in candidate["targets"] if c["target"].startswith("worth_spread"))


def test_the_stored_search_on_worth_claims_only_what_its_fresh_seeds_show():
    summary = json.loads((STORED / "balance.json").read_text())
    best, baseline = summary["best"], summary["baseline"]
    assert best["trial"] == "surface" and best["matches"] == 600
    # every claim is the interval inside the band, and nothing more
    for candidate in (best, baseline):
        for check in candidate["targets"]:
            low, high = check["band"]
            assert check["met"] == (low <= check["ci_low"] and check["ci_high"] <= high)
            assert check["ci_low"] <= check["value"] <= check["ci_high"]
    assert summary["meets_all_targets"] == all(c["met"] for c in best["targets"])
    # the surface's deck reads a lower worth spread than the printed deck on the same fresh seeds
    assert _spread(best)["value"] < _spread(baseline)["value"]
    assert {_spread(best)["best"], _spread(best)["worst"]} <= set(ACTION_CARDS)
    # every trial played the line-up and its 11 restricted line-ups
    assert summary["matches_played"]["search"] == summary["trials"] * 72 * 12
    rules = load_rules(get_game("gasterospeed"), STORED / "best_rules.toml")  # today's keys, validated
    counts = [rules.deck[card].count for card in ACTION_CARDS]
    assert counts == best["point"]["action-cards"] and sum(counts) == 34


def test_the_surface_models_every_cards_worth_over_the_trials():
    surface = json.loads((STORED / "surface.json").read_text())
    assert surface["metrics"] == sorted(f"worth.{card}" for card in ACTION_CARDS)
    assert (
        surface["trials"] == 36
        and surface["point"] == json.loads((STORED / "balance.json").read_text())["best"]["point"]["action-cards"]
    )
