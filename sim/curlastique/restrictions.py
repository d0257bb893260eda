"""Curlastique's restrictable choices (``forbid``, :mod:`sim.core.restrict`) and how often each was made.

* ``zone.<ring>``: aiming at a ring of the target, numbered from 1, the innermost (values may
  repeat under ``zones.values``, ring numbers do not). A shot's aim is where a draw or a guard
  is meant to stop, or the puck a take-out, a raise or a double hits first; it belongs to the
  ring holding that point (a point on a line to the inner ring; 0, no ring, past the last).
  The events table's ``aim_zone`` records it.
* ``shot.<family>``: choosing a shot of that planner family (events' ``family``).

A forbidding planner never picks a candidate of a forbidden family or aimed at a forbidden
ring; when a throw has no other candidate it still throws: the best (simulated) of its random
shots (profile key ``fallback_speed``), which are of no family and aimed at no ring.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from sim.core.restrict import USED_COLUMNS, Choice, Restrictions

from .players.families import FAMILIES
from .rules.schema import CurlastiqueRules

__all__ = ["RESTRICTIONS", "choices", "used"]

_LABELS = {
    "draw": "draw shots",
    "takeout": "take-out shots",
    "raise": "raise shots",
    "double": "double take-outs",
    "guard": "guard shots",
}
_KEYS = list(USED_COLUMNS[:4])


def choices(rules: CurlastiqueRules) -> tuple[Choice, ...]:
    """The rings of these rules (innermost first), then the shot families."""
    values = rules.zones.values
    zones = tuple(Choice(f"zone.{i}", "zone", f"the {v}-point zone (ring {i})") for i, v in enumerate(values, 1))
    return zones + tuple(Choice(f"shot.{f}", "shot", _LABELS[f]) for f in FAMILIES)


def used(tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Throws that made each choice, per variant, line-up, match and seat (:data:`USED_COLUMNS`;
    choices never made are left out)."""
    events = tables["events"]
    if "aim_zone" not in events.columns:
        raise ValueError(
            "events: no aim_zone column (tables written before it was recorded); the zones aimed at cannot be counted"
        )
    shots = events.loc[events["family"].isin(FAMILIES), _KEYS].assign(choice="shot." + events["family"])
    aimed = events.loc[events["aim_zone"] > 0, _KEYS].assign(choice="zone." + events["aim_zone"].astype(str))
    both = pd.concat([shots, aimed], ignore_index=True)
    counts = both.groupby([*_KEYS, "choice"], sort=True).size().rename("uses").reset_index()
    counts["uses"] = counts["uses"].astype("int64")
    return counts[list(USED_COLUMNS)]


RESTRICTIONS = Restrictions(choices=choices, used=used)
