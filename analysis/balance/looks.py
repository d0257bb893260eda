"""Error control across validation looks: Bonferroni over the planned looks of a directory.

A *look* is one validation of the candidates on fresh seeds: one (``search.validation_round``,
matches, candidate order) triple. Raising ``validate_matches`` replays the same fresh seeds
with more matches (a nested, larger sample), and so does each stage of a staged validation
(``search.validation_stages``, :mod:`analysis.balance.validation`); a new ``validation_round``
plays an independent seed set; other candidates (a search extended with more trials) on the
same seeds are another test. Each is a new chance to claim "meets every target", so each must
pay for it.

The budget of a results directory is ``search.alpha`` (α, default 0.05), split over the
``search.looks`` planned looks (K, default 3): look j (1, 2, ...) tests at
α_j = α/K — its TOSTs need a (1 − 2α_j) interval inside every band — while j ≤ K, and a look
beyond the plan has no α left: its verdicts are shown but claim nothing. By the union bound
P(any look makes a false claim) ≤ Σ_j α_j ≤ α, whatever the dependence between looks (nested
or independent samples) and even when the decision to look again depends on what earlier
looks showed, because α_j depends on j alone. This is the Bonferroni (group-sequential)
choice: simple, valid for any number of planned looks, conservative when looks overlap
(nested samples are positively correlated). Within a look the candidates keep their
fixed-sequence test at α_j (:func:`analysis.balance.validation.validate`).

Every look is recorded in ``DIR/looks.json`` with the α it spent. A directory validated before
looks were recorded holds ``validation.json`` but no ``looks.json``: its stored validation
counts as one look that spent α = 0.05 (the level it was tested at), and later looks get what
is left of the budget — usually nothing, which is the truthful answer (earlier, unrecorded
looks cannot be counted at all; the report says so).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.core.store import atomic_write_bytes

__all__ = ["LOOKS_FILE", "LEGACY_ALPHA", "Ledger", "load_ledger"]

LOOKS_FILE = "looks.json"
#: The level every validation was tested at before looks were recorded.
LEGACY_ALPHA = 0.05


@dataclass
class Ledger:
    """The looks of one results directory and the α budget they share."""

    path: Path | None  # None: kept in memory only (simulations)
    alpha: float
    planned: int
    looks: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def spent(self) -> float:
        return float(sum(look["alpha"] for look in self.looks))

    def find(self, validation_round: int, matches: int, order: list[str] | None = None) -> dict[str, Any] | None:
        """The recorded look with these settings (and this candidate order, if both are known)."""
        for look in self.looks:
            if (look["validation_round"], look["matches"]) != (validation_round, matches):
                continue
            if order is None or look.get("order") is None or list(look["order"]) == list(order):
                return look
        return None

    def alpha_for(self, validation_round: int, matches: int, order: list[str] | None = None) -> tuple[int, float, bool]:
        """(look number, α it spends, whether it may claim) of the look with these settings.

        A recorded look keeps its number and α; a new one is the next number, with α/K while
        the plan has looks left and the budget allows, else it claims nothing. A look that
        claims nothing is still measured at α/K, for display. ``order`` (the candidates'
        points in test order) is part of a look: other candidates on the same fresh seeds
        and size (a search extended with more trials) are a new look, with α of their own.
        """
        look = self.find(validation_round, matches, order)
        if look is not None:
            return int(look["look"]), float(look["alpha"]), bool(look["claimable"])
        number = len(self.looks) + 1
        share = self.alpha / self.planned
        left = self.alpha - self.spent
        if number <= self.planned and left >= share - 1e-12:
            return number, share, True
        return number, 0.0, False

    def record(self, look: dict[str, Any]) -> None:
        """Add or replace the look (same number) and write the ledger."""
        self.looks = [x for x in self.looks if x["look"] != look["look"]] + [look]
        self.looks.sort(key=lambda x: x["look"])
        if self.path is None:
            return
        data = {"alpha": self.alpha, "planned": self.planned, "looks": self.looks, "notes": self.notes}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.path, json.dumps(data, indent=2, default=float).encode("utf-8"))


def _legacy_look(validation: dict[str, Any], seed: int, offset: int) -> dict[str, Any] | None:
    """The stored validation of a directory from before look records, as one look at α = 0.05."""
    candidates = validation.get("candidates") or []
    if not candidates:
        return None
    first = candidates[0]
    fresh = int(first.get("fresh_seed", seed + offset))
    return {
        "look": 1,
        "validation_round": max(0, (fresh - seed) // offset - 1),
        "fresh_seed": fresh,
        "matches": int(first.get("matches", 0)),
        "alpha": LEGACY_ALPHA,
        "confidence": 1 - 2 * LEGACY_ALPHA,
        "claimable": True,
        "legacy": True,
        "candidates": [
            {
                "trial": c.get("trial"),
                "meets_all": bool(c.get("meets_all")),
                "in_sequence": bool(c.get("in_sequence", True)),
            }
            for c in candidates
        ],
    }


def load_ledger(out: str | Path, alpha: float, planned: int, seed: int, offset: int) -> Ledger:
    """The ledger of ``out``: ``looks.json``, or the legacy look of ``validation.json``, or empty.

    The plan (α, K) of the first recorded look stays the directory's plan: changing
    ``search.alpha`` or ``search.looks`` later is noted and ignored.
    """
    out = Path(out)
    path = out / LOOKS_FILE
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
        ledger = Ledger(
            path, float(data["alpha"]), int(data["planned"]), list(data["looks"]), list(data.get("notes", []))
        )
        if (ledger.alpha, ledger.planned) != (alpha, planned):
            note = (
                f"search.alpha = {alpha:g} and search.looks = {planned} differ from the plan of the first "
                f"look (α = {ledger.alpha:g} over {ledger.planned} looks), which this directory keeps."
            )
            if note not in ledger.notes:
                ledger.notes.append(note)
        return ledger
    ledger = Ledger(path, alpha, planned)
    validation = out / "validation.json"
    if validation.exists():
        legacy = _legacy_look(json.loads(validation.read_text(encoding="utf-8")), seed, offset)
        if legacy is not None:
            ledger.looks.append(legacy)
            ledger.notes.append(
                "This directory was validated before looks were recorded: its stored "
                "validation counts as look 1 at α = 0.05; earlier unrecorded looks, if "
                "any, are not counted."
            )
    return ledger
