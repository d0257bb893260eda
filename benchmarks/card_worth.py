"""Each Gastérospeed card's worth beside its observational win rate, on one or more decks.

For each deck (the printed one by default; ``--deck`` adds others as 11 action-card counts in
the balance example's order), plays ``tablesim worth gasterospeed`` for a table of four
tacticians (every card forbidden in turn to the first player, same seeds, seats rotated) and
prints, card by card:

* ``card_win_rate``: the game's observational metric, the share of the seat-races in which the
  card was played that the seat won (all four seats, the unrestricted line-up: what the card-mix
  balance example equalises);
* the worth (win rate allowed − forbidden) with its Holm-consistent interval;
* both ranks, and whether the card is on the same side of the median in both rankings (a card
  above the median by one measure and below it by the other *flips*);

then Spearman's rank correlation of the two measures, the unrestricted table's KO rate, and the
worth spread (best − worst card)
with its simultaneous interval (:func:`analysis.worth.worth_spread`: every pair of cards' paired
difference, Bonferroni over the pairs).

Run from the repository root (about 1.5 minutes a deck on 2 cores at 400 matches):

    PYTHONPATH=. .venv/bin/python benchmarks/card_worth.py --matches 400 --jobs 2 --deck 1,3,7,2,1,3,1,8,2,5,1

The matches are kept under ``--out`` (default ``results/card-worth``), one folder per deck; a
rerun resumes.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time
from pathlib import Path

import pandas as pd

from analysis.balance.targets import select_lineup
from analysis.results import load_results
from analysis.worth import observed_comparison, restricted_wins, worth_spread, worth_table
from sim.cli import main as tablesim
from sim.core.game import get_game

CARDS = (
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
LINEUP = "tactician,tactician,tactician,tactician"


def deck_overrides(counts: str) -> list[str]:
    """``--set`` words for a deck given as 11 comma-separated counts ('' : the printed deck)."""
    if not counts:
        return []
    values = [int(x) for x in counts.split(",")]
    if len(values) != len(CARDS):
        raise SystemExit(f"--deck: {len(CARDS)} counts expected ({', '.join(CARDS)}), got {len(values)}")
    return [w for card, n in zip(CARDS, values) for w in ("--set", f"deck.{card}.count={n}")]


def compare(folder: Path) -> tuple[pd.DataFrame, dict]:
    """Card by card: the observational win rate, the worth, their ranks; and the summary."""
    results = load_results(folder)
    spec = results.spec
    worth = results.manifest["worth"]
    table = worth_table(results.tables, worth, spec.restrictions.used, observed=spec.restrictions.observed)
    compared = observed_comparison(table)
    base = str(table["lineup"].iloc[0])
    spread = worth_spread(table, restricted_wins(results.tables, worth, str(table["variant"].iloc[0]), base))
    table = table.set_index("choice").rename(columns={"won_when_made": "card_win_rate"})
    table["rank_observed"] = table["card_win_rate"].rank(ascending=False)
    table["rank_worth"] = table["worth"].rank(ascending=False)
    table["flips"] = table["label"].isin(compared["flips"])
    summary = {
        "spearman": compared["rho"],
        "spearman_p": compared["p"],
        "spread": spread["spread"],
        "spread_low": spread["low"],
        "spread_high": spread["high"],
        "best": table.loc[spread["best"], "label"],
        "worst": table.loc[spread["worst"], "label"],
        "flips": compared["flips"],
        "pairs": int(table["pairs"].max()),
        "ko_rate": float(spec.summary(select_lineup(results.tables, base))["ko_rate"]),
    }
    return table, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=400, help="matches per line-up (default 400)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument(
        "--deck",
        action="append",
        default=[],
        help="11 comma-separated action-card counts (repeatable); the printed deck is always played",
    )
    parser.add_argument("--out", default=None, help="keep the matches under DIR/<deck> (a rerun resumes)")
    args = parser.parse_args()
    root = Path(args.out) if args.out else Path("results/card-worth")
    get_game("gasterospeed")
    for deck in ["", *args.deck]:
        folder = root / (deck.replace(",", "-") or "printed")
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            code = tablesim(
                [
                    "worth",
                    "gasterospeed",
                    "--players",
                    LINEUP,
                    "--matches",
                    str(args.matches),
                    "--jobs",
                    str(args.jobs),
                    "--seed",
                    str(args.seed),
                    "--out",
                    str(folder),
                    "--no-progress",
                    *deck_overrides(deck),
                ]
            )
        if code:
            raise SystemExit(code)
        table, summary = compare(folder)
        minutes = (time.perf_counter() - started) / 60
        print(
            f"\nDeck {deck or 'as printed'} ({summary['pairs']} matches per line-up, seed {args.seed}, "
            f"{minutes:.1f} min on this machine)"
        )
        shown = table.sort_values("rank_worth")
        print(
            f"  {'card':<20} {'card_win_rate':>13} {'rank':>4}   {'worth [adjusted CI], points':<28} {'rank':>4}  flips"
        )
        for card, r in shown.iterrows():
            worth = f"{100 * r['worth']:+.1f} [{100 * r['adj_low']:+.1f}, {100 * r['adj_high']:+.1f}]"
            print(
                f"  {r['label']:<20} {r['card_win_rate']:13.3f} {r['rank_observed']:4.0f}   {worth:<28} "
                f"{r['rank_worth']:4.0f}  {'yes' if r['flips'] else ''}"
            )
        print(
            f"  Spearman rank correlation {summary['spearman']:.2f} (p = {summary['spearman_p']:.2g}); "
            f"cards on opposite sides of the median: {', '.join(summary['flips']) or 'none'}"
        )
        print(
            f"  worth spread (best {summary['best']} − worst {summary['worst']}): {100 * summary['spread']:.1f} "
            f"points [{100 * summary['spread_low']:.1f}, {100 * summary['spread_high']:.1f}] "
            "(simultaneous 95 %, paired over every pair of cards, Bonferroni over the pairs)"
        )
        print(f"  KO rate of the unrestricted table: {summary['ko_rate']:.4f}")


if __name__ == "__main__":
    main()
